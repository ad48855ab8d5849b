"""Imitation: a policy network learnt from a teacher's decisions (``tricksim train GAME --mode imitate``).

The teacher (the heuristic by default, a search agent, or one agent per seat) plays deals until
it has made ``steps`` decisions (``teacher.teacher_decisions``, kept as Parquet in ``out``); a
network of the policy files' shape (tanh hidden layers, a logit per action, ``agents.net``)
learns to take its action from the seat's observation by cross-entropy over the legal actions
alone, ``epochs`` passes in a shuffled order, with Adam. The decisions of the last twentieth of
the deals are held out: each epoch's point of the curve is the loss and the share of the teacher's
actions the network takes on them, and the network against the heuristic and the random agent on
``eval_hands`` duplicate deals it never saw. The policy (``policy.npz``) is the start of PPO
(``tricksim train GAME --init policy.npz``): supervised pretraining first, as the
bridge-bidding and DouZero-like work found necessary.

A run resumes from its last finished epoch (``imitate.pt``) and its finished parts of decisions;
torch runs on one thread, so the same seed gives the same network on any machine of the kind.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import OptionError
from ..experiments.report import write_report
from . import require
from .teacher import PART_HANDS, teacher_decisions

CURVE_COLUMNS = ["epoch", "decisions", "train_loss", "held_out_loss", "agreement", "vs_heuristic", "vs_heuristic_low",
                 "vs_heuristic_high", "vs_random", "vs_random_low", "vs_random_high", "seconds"]
HELD_OUT = 20  # one deal in this many is held out


@dataclass(frozen=True)
class ImitationSettings:
    """Everything an imitation run depends on; a resumed run must match it."""

    game: str
    options: dict
    teacher: str
    steps: int
    epochs: int
    seed: int
    layers: tuple
    batch_size: int
    learning_rate: float
    eval_hands: int
    hands: int


def imitate(game, steps: int, teacher="heuristic", epochs: int = 4, seed: int = 0, out=None, layers=(256, 256),
            batch_size: int = 512, learning_rate: float = 1e-3, eval_hands: int = 2_000, hands: int = 20_000,
            part_hands: int = PART_HANDS, progress: bool = False, workers: int = 1) -> dict:
    """Learn a policy network from ``teacher``'s first ``steps`` decisions (rounded up to whole
    parts of ``part_hands`` deals, a search teacher's played in ``workers`` processes) on ``game``
    (a Game). Returns the run as ``train.train`` does: ``settings``, ``curve``, ``evaluation``,
    ``policy``, ``steps`` (the decisions learnt from), ``seconds``, ``folder``. OptionError before any work for bad arguments or a missing ``rl`` extra."""
    require()
    settings = _settings(game, teacher, steps, epochs, seed, layers, batch_size, learning_rate, eval_hands, hands)
    folder = Path(out) if out else Path(_scratch())
    _check_run(folder, settings)
    import torch

    torch.set_num_threads(1)
    start = time.perf_counter()
    data = teacher_decisions(game, settings.steps, folder, settings.teacher, settings.seed, part_hands, progress,
                             workers)
    held_out = data.hand % HELD_OUT == HELD_OUT - 1
    train_rows, test_rows = np.flatnonzero(~held_out), np.flatnonzero(held_out)
    torch.manual_seed(settings.seed)
    net = _network(data.obs.shape[1], settings.layers)
    optimiser = torch.optim.Adam(net.parameters(), lr=settings.learning_rate)
    curve = pd.DataFrame(columns=CURVE_COLUMNS)
    done = 0
    checkpoint = folder / "imitate.pt"
    if checkpoint.exists():
        saved = torch.load(checkpoint, weights_only=False)
        net.load_state_dict(saved["net"])
        optimiser.load_state_dict(saved["optimiser"])
        curve, done = pd.DataFrame(saved["curve"]), int(saved["epoch"])
    policy = folder / "policy.npz"
    for epoch in range(done + 1, settings.epochs + 1):
        order = np.random.default_rng([settings.seed, epoch]).permutation(train_rows)
        loss = _epoch(net, optimiser, data, order, settings.batch_size)
        held_loss, agreement = _held_out(net, data, test_rows)
        _export(net, game, policy)
        scores = _versus(game, policy, settings)
        row = {"epoch": epoch, "decisions": epoch * len(train_rows), "train_loss": loss,
               "held_out_loss": held_loss, "agreement": agreement, "seconds": time.perf_counter() - start} | scores
        curve = pd.concat([curve.astype(float), pd.DataFrame([row]).astype(float)], ignore_index=True)
        torch.save({"net": net.state_dict(), "optimiser": optimiser.state_dict(), "curve": curve.to_dict("list"),
                    "epoch": epoch}, checkpoint)
        curve.to_csv(folder / "curve.csv", index=False)
        if progress:
            print(f"epoch {epoch}: held-out agreement {agreement:.3f}, against the heuristic "
                  f"{scores['vs_heuristic']:+.3f}", flush=True)
    if not policy.exists():
        _export(net, game, policy)
    from .train import evaluate

    evaluation = evaluate(game, str(policy), settings.hands, settings.seed + 2)
    return {"settings": settings, "curve": curve, "evaluation": evaluation, "policy": str(policy),
            "steps": len(data), "seconds": time.perf_counter() - start, "folder": folder}


def _settings(game, teacher, steps, epochs, seed, layers, batch_size, learning_rate, eval_hands, hands):
    for name, value in (("steps", steps), ("epochs", epochs), ("batch_size", batch_size), ("eval_hands", eval_hands),
                        ("hands", hands)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise OptionError(f"{name} = {value!r}: a whole number >= 1")
    if not layers or any(int(n) < 1 for n in layers):
        raise OptionError(f"layers = {layers!r}: hidden layer sizes, each >= 1")
    if not learning_rate > 0:
        raise OptionError(f"learning_rate = {learning_rate!r}: a number > 0")
    from ..agents import seat_agents

    _, specs = seat_agents(game.name, teacher, game.players)  # checks the teacher
    return ImitationSettings(game.name, dict(game.options), specs[0] if len(set(specs)) == 1 else ",".join(specs), int(steps), int(epochs), int(seed),
                             tuple(int(n) for n in layers), int(batch_size), float(learning_rate), int(eval_hands),
                             int(hands))


def _scratch() -> str:
    import tempfile

    return tempfile.mkdtemp(prefix="tricksim-imitate-")


def _check_run(folder: Path, settings: ImitationSettings) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    saved = folder / "imitate.json"
    mine = json.loads(json.dumps(asdict(settings)))
    if saved.exists():
        try:
            earlier = json.loads(saved.read_text())
        except ValueError as error:
            raise OptionError(f"{saved}: not an imitation run's settings ({error}); use another --out") from None
        if earlier != mine:
            raise OptionError(f"{folder} holds another imitation run (its settings differ); use another --out")
    else:
        saved.write_text(json.dumps(mine, indent=1) + "\n")


def _network(inputs: int, layers: tuple):
    """tanh hidden ``layers``, then a logit per action: the policy files' shape (SB3's own builder)."""
    import torch
    from stable_baselines3.common.torch_layers import create_mlp

    from ..sim.actions import NUM_ACTIONS

    return torch.nn.Sequential(*create_mlp(inputs, NUM_ACTIONS, list(layers), torch.nn.Tanh))


def _logits(net, data, rows):
    import torch

    obs = torch.from_numpy(data.obs[rows].astype(np.float32))
    legal = torch.from_numpy(data.masks(rows))
    return net(obs).masked_fill(~legal, -1e9)


def _epoch(net, optimiser, data, order, batch_size: int) -> float:
    """One pass over ``order``; the mean training loss."""
    import torch

    total = 0.0
    for at in range(0, len(order), batch_size):
        rows = order[at:at + batch_size]
        target = torch.from_numpy(data.action[rows])
        loss = torch.nn.functional.cross_entropy(_logits(net, data, rows), target)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        total += float(loss.detach()) * len(rows)
    return total / max(1, len(order))


def _held_out(net, data, rows) -> tuple[float, float]:
    """The loss on the held-out decisions and the share of them where the network's best legal
    action is the teacher's."""
    import torch

    if not len(rows):
        return float("nan"), float("nan")
    losses, agree = 0.0, 0
    with torch.no_grad():
        for at in range(0, len(rows), 4096):
            part = rows[at:at + 4096]
            logits = _logits(net, data, part)
            target = torch.from_numpy(data.action[part])
            losses += float(torch.nn.functional.cross_entropy(logits, target, reduction="sum"))
            agree += int((logits.argmax(1) == target).sum())
    return losses / len(rows), agree / len(rows)


def _export(net, game, path: Path) -> None:
    """Write the network as a policy file (``agents.net``)."""
    import torch

    from ..agents.net import write_policy

    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    write_policy(path, game, [m.weight.detach().numpy().T.astype(np.float64) for m in linear],
                 [m.bias.detach().numpy().astype(np.float64) for m in linear])


def _versus(game, policy: Path, settings: ImitationSettings) -> dict:
    from .train import evaluate

    scores = evaluate(game, str(policy), settings.eval_hands, settings.seed + 1)
    row = {}
    for r in scores.itertuples():
        row |= {f"vs_{r.opponent}": r.difference, f"vs_{r.opponent}_low": r.low, f"vs_{r.opponent}_high": r.high}
    return row


def plot_imitation(result: dict, path) -> None:
    """The held-out agreement with the teacher and the score against the heuristic, by epoch."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    curve, settings = result["curve"], result["settings"]
    fig = Figure(figsize=(10, 4), layout="constrained")
    left, right = fig.subplots(1, 2)
    left.plot(curve["epoch"], curve["agreement"], marker="o", color="tab:green")
    left.set_title("agreement with the teacher, held-out decisions")
    left.set_ylabel(f"share of {settings.teacher}'s actions taken")
    left.set_ylim(0, 1)
    right.plot(curve["epoch"], curve["vs_heuristic"], marker="o", color="tab:blue")
    right.fill_between(curve["epoch"], curve["vs_heuristic_low"], curve["vs_heuristic_high"], color="tab:blue",
                       alpha=0.25, label="95 % interval")
    right.axhline(0, color="grey", lw=0.8)
    right.set_title(f"against the heuristic, {settings.eval_hands:,} duplicate deals")
    right.set_ylabel("score per deal, policy minus heuristic")
    right.legend(loc="lower right")
    for ax in (left, right):
        ax.set_xlabel("epoch")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(f"{settings.game}: imitation of {settings.teacher}, {result['steps']:,} decisions")
    fig.savefig(path, dpi=120)


def format_imitation(result: dict) -> str:
    settings, curve = result["settings"], result["curve"]
    lines = [f"{settings.game}: imitation of {settings.teacher}, {result['steps']:,} decisions, "
             f"{settings.epochs} epochs, seed {settings.seed} ({result['seconds']:.0f} s this run)",
             f"policy: net:file={result['policy']}"]
    if len(curve):
        lines.append(f"held-out decisions where it takes the teacher's action: {curve['agreement'].iloc[-1]:.1%}")
    lines.append(f"on {settings.hands:,} fresh duplicate deals, policy minus agent per deal (95% interval):")
    for row in result["evaluation"].itertuples():
        lines.append(f"  against {row.opponent:<9} {row.difference:+.3f} [{row.low:+.3f}, {row.high:+.3f}]")
    return "\n".join(lines)


def write_imitation(result: dict, out) -> list[Path]:
    """The curve and evaluation tables, the figure and ``imitate.md`` in ``out``."""
    return write_report(out, {"curve.csv": result["curve"], "evaluation.csv": result["evaluation"]},
                        {"curve.png": lambda path: plot_imitation(result, path)}, "imitate.md",
                        "# Imitation\n\n```\n" + format_imitation(result) + "\n```")
