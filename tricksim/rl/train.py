"""Train a policy with sb3-contrib's MaskablePPO and measure it on duplicate deals.

    tricksim train bluke --steps 200000 --out runs/bluke            # one seat against the heuristic
    tricksim train fiftyfive --mode selfplay --steps 200000 --out runs/ff55
    tricksim train fiftyfive --mode selfplay --league 8 --init runs/imitate/policy.npz --out runs/league

Every ``eval_every`` steps the policy is exported (``agents.net``) and played by the batch
simulator against the heuristic and the random agent on the same ``eval_hands`` duplicate deals
(``tricksim.compare``): that is the learning curve. At the end it plays ``hands`` fresh deals
against each for the evaluation table. The training environments deal from seeds ``seed`` ..
``seed + envs - 1``; the curve's deals come from ``seed + envs`` and the evaluation's from
``seed + envs + 1``, so the policy is never measured on a deal it trained on. With ``out``, the run keeps there:

* ``policy.npz`` the trained agent (``net:file=.../policy.npz``), ``model.zip`` the SB3 model;
* ``curve.csv`` and ``curve.png`` the learning curve, ``evaluation.csv`` the final scores;
* ``train.md`` the page showing them, ``train.json`` the run's settings.

A run stopped at any point resumes from its last checkpoint (taken at each evaluation) when
started again with the same settings; its remaining steps then see other deals than an
uninterrupted run would, so it is not bit-identical to one.

Rewards are the hand's scores divided by ``reward_scale`` (default: the spread of a hand's score
under heuristic play), which keeps PPO's value targets near 1 in every game.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import OptionError
from ..experiments.report import write_report
from . import require

MODES = ("single", "selfplay")
CRITICS = ("seat", "full")  # what the value network reads: the seat's observation, or every hand too
CURVE_COLUMNS = ["steps", "episodes", "train_reward", "vs_heuristic", "vs_heuristic_low", "vs_heuristic_high",
                 "vs_random", "vs_random_low", "vs_random_high", "seconds"]
# PPO's settings when it starts from a trained policy (``init``): no entropy bonus, a small step and
# large batches from 16 tables. With the defaults the fresh value network and the entropy bonus pulled
# an imitation of PIMC in Bluke from -0.41 to -1.82 a deal in 100,000 steps; with these it rose to
# +0.18 in 400,000 (BENCHMARKS.md, "Imitation and the learner's tables").
FINE_TUNE = {"ent_coef": 0.0, "learning_rate": 3e-5, "n_epochs": 4, "batch_size": 1024, "n_steps": 256}
FINE_TUNE_ENVS = 16
# ``fast``: many tables, one pass of large batches and a small value network, for >= 10,000 learner
# steps a CPU second with 256 x 256 policies (BENCHMARKS.md, "Fine-tuning fast"). The larger step
# makes up for 1 gradient step per 4,096 steps where FINE_TUNE takes 16.
FAST = {"ent_coef": 0.0, "learning_rate": 1e-4, "n_epochs": 1, "batch_size": 4096, "n_steps": 64}
FAST_ENVS = 256
FAST_VALUE_LAYERS = (64, 64)


@dataclass(frozen=True)
class Settings:
    """Everything a training run depends on; a resumed run must match it."""

    game: str
    options: dict
    mode: str = "single"
    opponents: str = "heuristic"
    seed: int = 0
    eval_every: int = 20_000
    eval_hands: int = 2_000
    hands: int = 20_000
    envs: int = 4
    layers: tuple = (64, 64)
    refresh: int = 10_000
    reward_scale: float = 0.0
    ppo: dict = field(default_factory=dict)
    init: str = ""
    critic: str = "seat"
    league: int = 0
    value_layers: tuple = ()  # the value network's hidden layers; () = ``layers``
    lean: bool = False  # the policy is ``rl.lean``'s (``fast``)


def train(game, steps: int, mode: str = "single", opponents: str = "heuristic", seed: int = 0, out=None,
          eval_every: int = 20_000, eval_hands: int = 2_000, hands: int = 20_000, envs: int | None = None,
          layers=(64, 64), refresh: int = 10_000, reward_scale: float = 0.0, init: str = "", critic: str = "seat",
          league: int = 0, progress: bool = False, fast: bool = False, value_layers=None, **ppo) -> dict:
    """Train MaskablePPO on ``game`` (a Game) for ``steps`` environment steps of the learner.

    ``mode`` is ``"single"`` (``envs`` tables of the numba vector environment, ``rl.tables``, the
    other seats ``opponents``) or ``"selfplay"`` (the PettingZoo environment, the others a snapshot
    of the learner refreshed every ``refresh`` steps). ``envs`` environments step side by side;
    ``layers`` are the hidden layers of the policy and value networks; ``ppo`` goes to MaskablePPO
    (``n_steps``, ``learning_rate`` …). ``init`` is a policy file (``agents.net``, e.g.
    ``imitate``'s) whose network the policy starts from; ``layers`` then come from it, and PPO
    fine-tunes it gently unless told otherwise (``FINE_TUNE``, 16 tables). ``envs`` is 4 otherwise. ``critic``
    is ``"seat"`` (the value network reads the seat's observation) or ``"full"`` (one seat only: it
    reads every hand too, ``rl.critic``; the policy still reads the seat's alone). ``league`` (self-play
    only): the other seats play one of the learner's last ``league`` snapshots or the heuristic,
    drawn anew for each table at every refresh, the more often the more it beats the learner
    (``League``). ``fast``: PPO's settings for throughput instead (``FAST``, 256 tables, a 64 x 64
    value network) where not given, and the cheaper policy of ``rl.lean`` (not with the full
    critic). ``value_layers``: the value network's hidden layers (default ``layers``). Returns the
    run: ``settings``, ``curve`` and ``evaluation``
    (DataFrames), ``policy`` (the path of the policy file), ``steps`` and ``seconds``, and with a
    league ``league`` (a DataFrame: each member, the learner's hands against it and its share won).

    OptionError before any training for bad arguments or a missing ``rl`` extra.
    """
    require()
    if init:
        layers = _init_layers(game, init)
    envs, ppo = run_defaults(init, envs, ppo, fast)
    if value_layers is None:
        value_layers = FAST_VALUE_LAYERS if fast else ()
    settings = _settings(game, steps, mode, opponents, seed, eval_every, eval_hands, hands, envs, layers, refresh,
                         reward_scale, ppo, init, critic, league, value_layers, fast)
    folder = Path(out) if out else Path(_scratch_folder())
    done_curve = _resume_check(folder, settings)
    import torch

    torch.set_num_threads(1)  # small networks: one thread is faster, and results do not depend on cores
    model, vec = _model(game, settings, folder, done_curve)
    recorder = _Recorder(game, settings, folder, model, done_curve)
    start = time.perf_counter()
    remaining = steps - model.num_timesteps
    recorder.refresh_opponents()
    if not len(recorder.curve):
        recorder.evaluate()  # the untrained network: where the curve starts
    if remaining > 0:
        model.learn(remaining, callback=recorder.callback(), reset_num_timesteps=False, progress_bar=progress)
    if not len(recorder.curve) or recorder.curve["steps"].iloc[-1] != model.num_timesteps:
        recorder.evaluate()
    vec.close()
    policy = export(model, game, folder / "policy.npz")
    evaluation = evaluate(game, str(policy), settings.hands, seed + envs + 1)
    result = {"settings": settings, "curve": recorder.curve, "evaluation": evaluation, "policy": str(policy),
              "steps": int(model.num_timesteps), "seconds": time.perf_counter() - start, "folder": folder}
    if recorder.league:
        result["league"] = recorder.league.table()
    return result


def run_defaults(init: str, envs: int | None, ppo: dict, fast: bool = False) -> tuple[int, dict]:
    """The tables and PPO settings of a run, the caller's where given: with ``fast``, 256 tables
    and ``FAST``; starting from a policy (``init``), 16 tables and ``FINE_TUNE``; otherwise 4 tables
    and MaskablePPO's own.

    >>> run_defaults("", None, {})
    (4, {})
    >>> run_defaults("imitate/policy.npz", None, {"learning_rate": 1e-4})[1]["learning_rate"]
    0.0001
    >>> run_defaults("imitate/policy.npz", 8, {})[0], run_defaults("imitate/policy.npz", None, {})[1]["ent_coef"]
    (8, 0.0)
    >>> run_defaults("imitate/policy.npz", None, {}, fast=True)[0], run_defaults("", None, {}, fast=True)[1]["n_epochs"]
    (256, 1)
    """
    if fast:
        return (FAST_ENVS if envs is None else envs), FAST | ppo
    if not init:
        return (4 if envs is None else envs), dict(ppo)
    return (FINE_TUNE_ENVS if envs is None else envs), FINE_TUNE | ppo


def _settings(game, steps, mode, opponents, seed, eval_every, eval_hands, hands, envs, layers, refresh, reward_scale,
              ppo, init="", critic="seat", league=0, value_layers=(), lean=False) -> Settings:
    if mode not in MODES:
        raise OptionError(f"mode = {mode!r}: choose one of {', '.join(MODES)}")
    if critic not in CRITICS:
        raise OptionError(f"critic = {critic!r}: choose one of {', '.join(CRITICS)}")
    if critic == "full" and mode != "single":
        raise OptionError("critic = 'full' trains one seat (mode = 'single')")
    if isinstance(league, bool) or not isinstance(league, (int, np.integer)) or league < 0:
        raise OptionError(f"league = {league!r}: a whole number of snapshots >= 0")
    if league and mode != "selfplay":
        raise OptionError("a league is the other seats of self-play (mode = 'selfplay')")
    for name, value, least in (("steps", steps, 1), ("eval_every", eval_every, 1), ("eval_hands", eval_hands, 1),
                               ("hands", hands, 1), ("envs", envs, 1), ("refresh", refresh, 1)):
        if not isinstance(value, (int, np.integer)) or value < least:
            raise OptionError(f"{name} = {value!r}: a whole number >= {least}")
    if not layers or any(int(n) < 1 for n in layers):
        raise OptionError(f"layers = {layers!r}: hidden layer sizes, each >= 1")
    if any(int(n) < 1 for n in value_layers):
        raise OptionError(f"value_layers = {value_layers!r}: hidden layer sizes, each >= 1")
    if mode == "single":
        from ..envs.single import opponent_arrays

        opponent_arrays(game, 0, opponents)  # checks the opponents
    scale = float(reward_scale) or score_spread(game)
    return Settings(game.name, dict(game.options), mode, str(opponents), int(seed), int(eval_every), int(eval_hands),
                    int(hands), int(envs), tuple(int(n) for n in layers), int(refresh), scale, dict(ppo), str(init),
                    critic, int(league), tuple(int(n) for n in value_layers), bool(lean))


def score_spread(game, hands: int = 2_000) -> float:
    """The standard deviation of a seat's hand score under heuristic play (at least 1)."""
    from ..sim.batch import simulate

    df = simulate(game, hands, seed=12345, agents="heuristic", progress=False)
    scores = df[[f"score_{p}" for p in range(game.players)]].to_numpy(np.float64)
    return max(1.0, float(scores.std()))


def _scratch_folder() -> str:
    import tempfile

    return tempfile.mkdtemp(prefix="tricksim-train-")


def _resume_check(folder: Path, settings: Settings) -> pd.DataFrame | None:
    """The finished curve of an earlier run of the same settings in ``folder`` (None if there is
    none); OptionError if the folder holds another run's files."""
    saved = folder / "train.json"
    if not saved.exists():
        return None
    try:
        earlier = json.loads(saved.read_text())
    except (OSError, ValueError) as error:
        raise OptionError(f"{saved}: not a training run's settings ({error}); use another --out") from None
    earlier.setdefault("init", "")  # runs from before policies could start from a file
    earlier.setdefault("critic", "seat")  # runs from before the full-deal critic
    earlier.setdefault("league", 0)  # runs from before the league
    earlier.setdefault("value_layers", [])  # runs from before the value network had layers of its own
    earlier.setdefault("lean", False)  # runs from before the lean policy
    if earlier != json.loads(json.dumps(asdict(settings))):
        raise OptionError(f"{folder} holds another training run (its settings differ); use another --out")
    if not (folder / "model.zip").exists() or not (folder / "curve.csv").exists():
        return None
    return pd.read_csv(folder / "curve.csv")


def _env_factory(game, settings: Settings):
    import gymnasium
    from stable_baselines3.common.monitor import Monitor

    from .selfplay import SelfPlayEnv

    def make():
        env = SelfPlayEnv(game.name, seat=0, **game.options)
        return gymnasium.wrappers.TransformReward(Monitor(env), lambda r: r / settings.reward_scale)

    return make


def _environments(game, settings: Settings):
    """The learner's tables: in one seat, the numba vector environment (every table stepped in one
    call); in self-play, PettingZoo environments stepped one after the other."""
    if settings.mode == "single":
        from .tables import TablesVecEnv

        return TablesVecEnv(game.name, settings.envs, settings.opponents, reward_scale=settings.reward_scale,
                            seed=settings.seed, full_deal=settings.critic == "full", **game.options)
    from stable_baselines3.common.vec_env import DummyVecEnv

    return DummyVecEnv([_env_factory(game, settings) for _ in range(settings.envs)])


def _model(game, settings: Settings, folder: Path, done_curve):
    from sb3_contrib import MaskablePPO

    vec = _environments(game, settings)
    if done_curve is not None:  # resume: the checkpoint, its later deals seeded apart
        model = MaskablePPO.load(folder / "model.zip", env=vec, device="cpu")
        vec.seed(settings.seed + 1_000_003 * (model.num_timesteps + 1))
        return model, vec
    # gamma 1: a hand's score counts the same whenever in the hand it comes
    kwargs = {"n_steps": 512, "batch_size": 256, "ent_coef": 0.01, "gamma": 1.0} | settings.ppo
    layers = list(settings.layers)
    policy, policy_kwargs = "MlpPolicy", {"net_arch": {"pi": layers, "vf": list(settings.value_layers) or layers}}
    if settings.lean and settings.critic != "full":
        from .lean import LeanPolicy

        policy = LeanPolicy
    if settings.critic == "full":
        from .critic import FullDealCritic

        policy, policy_kwargs = FullDealCritic, policy_kwargs | {"seen": vec.seen}
    model = MaskablePPO(policy, vec, seed=settings.seed, device="cpu", verbose=0, policy_kwargs=policy_kwargs,
                        **kwargs)
    if settings.init:
        _start_from(model, game, settings.init)
    folder.mkdir(parents=True, exist_ok=True)  # the settings are kept once MaskablePPO took them
    (folder / "train.json").write_text(json.dumps(asdict(settings), indent=1) + "\n")
    return model, vec


def network(model) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The policy network of a MaskablePPO ``model`` as weights (inputs x outputs) and biases:
    its MLP extractor's policy layers (tanh), then its action layer (the logits)."""
    import torch

    linear = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    activations = [m for m in model.policy.mlp_extractor.policy_net if not isinstance(m, torch.nn.Linear)]
    if not all(isinstance(m, torch.nn.Tanh) for m in activations):
        raise OptionError("a policy network is exported with tanh activations only")
    linear.append(model.policy.action_net)
    weights = [m.weight.detach().cpu().numpy().T.astype(np.float64) for m in linear]
    biases = [m.bias.detach().cpu().numpy().astype(np.float64) for m in linear]
    return weights, biases


def _init_layers(game, path) -> tuple:
    """The hidden layer sizes of the policy file ``path`` (OptionError if it is not ``game``'s)."""
    from ..agents.net import read_policy

    weights, _ = read_policy(path, game)
    return tuple(w.shape[1] for w in weights[:-1])


def _start_from(model, game, path) -> None:
    """Load the policy file ``path`` into ``model``'s policy network (its hidden layers and action
    layer; the value network starts fresh)."""
    import torch

    from ..agents.net import read_policy

    weights, biases = read_policy(path, game)
    linear = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linear.append(model.policy.action_net)
    with torch.no_grad():
        for m, w, b in zip(linear, weights, biases):
            m.weight.copy_(torch.from_numpy(w.T.astype(np.float32)))
            m.bias.copy_(torch.from_numpy(b.astype(np.float32)))


def export(model, game, path) -> Path:
    """Write ``model``'s policy network as the policy file ``path`` (``agents.net``)."""
    from ..agents.net import write_policy

    return Path(write_policy(path, game, *network(model)))


def evaluate(game, policy: str, hands: int, seed: int) -> pd.DataFrame:
    """The policy file against the heuristic and the random agent on ``hands`` duplicate deals:
    the mean score difference per deal (policy minus opponent) with its 95 % interval."""
    from ..experiments.compare import compare

    rows = []
    for opponent in ("heuristic", "random"):
        result = compare(game, f"net:file={policy}", opponent, hands=hands, seed=seed)
        mean, low, high = result["difference"]
        rows.append({"opponent": opponent, "deals": hands, "policy_mean": result["mean_a"],
                     "opponent_mean": result["mean_b"], "difference": mean, "low": low, "high": high})
    return pd.DataFrame(rows)


class _Recorder:
    """The learning curve: every ``eval_every`` steps, the policy against the heuristic and the
    random agent on the same duplicate deals, and a checkpoint of the model."""

    def __init__(self, game, settings: Settings, folder: Path, model, done_curve):
        self.game, self.settings, self.folder, self.model = game, settings, folder, model
        self.curve = done_curve if done_curve is not None else pd.DataFrame(columns=CURVE_COLUMNS)
        done = int(self.curve["steps"].iloc[-1]) if len(self.curve) else 0
        self.next_eval = done + settings.eval_every
        self.next_refresh = done + settings.refresh
        self.started = time.perf_counter() - (float(self.curve["seconds"].iloc[-1]) if len(self.curve) else 0.0)
        self.episodes = int(self.curve["episodes"].iloc[-1]) if len(self.curve) else 0
        self.league = League(settings.league, settings.seed) if settings.league else None

    def callback(self):
        """Counts episodes at each step; evaluates and refreshes the self-play opponents at the
        start of a rollout, when the network holds every update of the rollouts before it."""
        from stable_baselines3.common.callbacks import BaseCallback

        recorder = self

        class Callback(BaseCallback):
            def _on_step(self) -> bool:
                recorder.episodes += int(np.sum(self.locals["dones"]))
                if recorder.league:
                    for table, info in enumerate(self.locals["infos"]):
                        if "won" in info:
                            recorder.league.record(table, info["won"])
                return True

            def _on_rollout_start(self) -> None:
                steps = self.model.num_timesteps
                if steps >= recorder.next_refresh:
                    recorder.refresh_opponents()
                    recorder.next_refresh = steps + recorder.settings.refresh
                if steps >= recorder.next_eval:
                    recorder.evaluate()
                    recorder.next_eval = steps + recorder.settings.eval_every

        return Callback()

    def refresh_opponents(self) -> None:
        """Self-play: the other seats play the learner as it is now, or with a league, each table
        a member drawn from it once the learner as it is now has joined."""
        if self.settings.mode != "selfplay":
            return
        env = self.model.get_env()
        if not self.league:
            env.env_method("set_opponent", *network(self.model))
            return
        self.league.add(network(self.model), f"learner at {self.model.num_timesteps:,} steps")
        for table in range(env.num_envs):
            member = self.league.draw(table)
            env.env_method("set_opponent", *(member if isinstance(member, tuple) else (member,)), indices=[table])

    def evaluate(self) -> None:
        path = export(self.model, self.game, self.folder / "policy.npz")
        row = {"steps": int(self.model.num_timesteps), "episodes": self.episodes,
               "train_reward": _train_reward(self.model)}
        scores = evaluate(self.game, str(path), self.settings.eval_hands, self.settings.seed + self.settings.envs)
        for r in scores.itertuples():
            row |= {f"vs_{r.opponent}": r.difference, f"vs_{r.opponent}_low": r.low, f"vs_{r.opponent}_high": r.high}
        row["seconds"] = time.perf_counter() - self.started
        self.curve = pd.concat([self.curve.astype(float), pd.DataFrame([row]).astype(float)], ignore_index=True)
        self.curve.to_csv(self.folder / "curve.csv", index=False)
        self.model.save(self.folder / "model.zip")


class League:
    """The heuristic and the learner's last ``size`` snapshots as self-play opponents, drawn as
    prioritised fictitious self-play does: a member the learner beats in a share ``p`` of hands (from
    1/2, one won and one lost hand assumed) weighs ``(1 - p)^2``, so the opponents it cannot yet beat
    come most often. A resumed run's league starts again from the learner's checkpoint.

    >>> league = League(2, seed=0)
    >>> for k in range(3):
    ...     league.add(f"snapshot {k}", f"learner {k}")
    >>> league.table()["opponent"].tolist()  # the oldest snapshot made room
    ['heuristic', 'learner 1', 'learner 2']
    """

    def __init__(self, size: int, seed: int):
        self.size = size
        self.members: list = ["heuristic"]
        self.names = ["heuristic"]
        self.hands = [0]
        self.wins = [0]
        self.facing: dict[int, int] = {}  # table -> the member it plays
        self.rng = np.random.default_rng([seed, 7])

    def add(self, snapshot, name: str) -> None:
        """A snapshot joins (the oldest leaves beyond ``size``); every table draws anew after it."""
        for column, value in ((self.members, snapshot), (self.names, name), (self.hands, 0), (self.wins, 0)):
            column.append(value)
            if len(column) > self.size + 1:
                del column[1]
        self.facing.clear()

    def draw(self, table: int):
        """The member ``table`` plays from now on: ``"heuristic"`` or a snapshot."""
        p = (np.array(self.wins) + 1) / (np.array(self.hands) + 2)
        weights = (1 - p) ** 2
        self.facing[table] = int(self.rng.choice(len(weights), p=weights / weights.sum()))
        return self.members[self.facing[table]]

    def record(self, table: int, won: bool) -> None:
        """A hand ``table`` finished, won by the learner or not."""
        if table in self.facing:
            self.hands[self.facing[table]] += 1
            self.wins[self.facing[table]] += int(won)

    def table(self) -> pd.DataFrame:
        return pd.DataFrame({"opponent": self.names, "hands": self.hands,
                             "learner_won": [w / h if h else float("nan") for w, h in zip(self.wins, self.hands)]})


def _train_reward(model) -> float:
    """The learner's mean hand score over its last 100 training episodes (the Monitor inside the
    reward scaling records the scores), NaN before one."""
    episodes = [e["r"] for e in model.ep_info_buffer or ()]  # None before the first rollout
    return float(np.mean(episodes)) if episodes else float("nan")


def plot_curve(result: dict, path) -> None:
    """The learning curve: the score difference per deal against each agent, one panel each (their
    scales differ tenfold), with 95 % bands."""
    from matplotlib.figure import Figure

    curve, settings = result["curve"], result["settings"]
    fig = Figure(figsize=(10, 4), layout="constrained")
    axes = fig.subplots(1, 2)
    for ax, opponent, color in zip(axes, ("heuristic", "random"), ("tab:blue", "tab:orange")):
        steps = curve["steps"] / 1000
        ax.plot(steps, curve[f"vs_{opponent}"], color=color, marker="o", ms=3)
        ax.fill_between(steps, curve[f"vs_{opponent}_low"], curve[f"vs_{opponent}_high"], color=color, alpha=0.25,
                        label="95 % interval")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_title(f"against the {opponent} agent")
        ax.set_xlabel("thousands of training steps")
        ax.legend(loc="lower right")
    axes[0].set_ylabel("score per deal, policy minus agent")
    what = "one seat against " + settings.opponents if settings.mode == "single" else "self-play"
    what += f", a league of {settings.league}" if settings.league else ""
    fig.suptitle(f"{settings.game}: MaskablePPO, {what}; each point {settings.eval_hands:,} duplicate deals")
    fig.savefig(path, dpi=120)


def format_train(result: dict) -> str:
    settings, evaluation = result["settings"], result["evaluation"]
    what = f"one seat against {settings.opponents}" if settings.mode == "single" else "self-play"
    what += f", a league of {settings.league}" if settings.league else ""
    lines = [f"{settings.game}: MaskablePPO, {what}, {result['steps']:,} steps, seed {settings.seed} "
             f"({result['seconds']:.0f} s this run)",
             f"policy: net:file={result['policy']}",
             f"on {settings.hands:,} fresh duplicate deals, policy minus agent per deal (95% interval):"]
    for row in evaluation.itertuples():
        lines.append(f"  against {row.opponent:<9} {row.difference:+.3f} [{row.low:+.3f}, {row.high:+.3f}]   "
                     f"(policy {row.policy_mean:+.3f}, {row.opponent} {row.opponent_mean:+.3f} a seat)")
    return "\n".join(lines)


def write_train(result: dict, out) -> list[Path]:
    """The curve and evaluation tables, the learning curve figure and ``train.md`` in ``out``."""
    tables = {"curve.csv": result["curve"], "evaluation.csv": result["evaluation"]}
    if "league" in result:
        tables["league.csv"] = result["league"]
    return write_report(out, tables,
                        {"curve.png": lambda path: plot_curve(result, path)}, "train.md",
                        "# Training\n\n```\n" + format_train(result) + "\n```")
