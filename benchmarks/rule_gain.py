"""What a change of the heuristic's parameters is worth one decision ahead, in a minute: on the
states of heuristic self-play, wherever the changed heuristic would play another card, both cards
are valued by ``tricksim.explain`` on the same worlds and the difference is summed per deal.

    python benchmarks/rule_gain.py GAME name=value [name=value ...] [--set option=value ...]
        [--deals 3000] [--seed 5501] [--worlds 100] [--solve 0]

With ``--solve 0`` (the default) every world is played out by the heuristic, as ``tricksim mine
--solve 0`` values it: the gain is what the change takes back from the heuristic against itself,
and for cards chosen in the moment it has matched the change's gain against the heuristic on
duplicate deals (a card kept for later it cannot value: BENCHMARKS.md, the twenty-first session). With ``--solve 4`` the worlds are solved from four cards in hand, as PIMC
values them; those figures often point the other way.
"""

from __future__ import annotations

import argparse

import numpy as np

import tricksim
from tricksim.agents import agent_module
from tricksim.experiments.explain import Valuer, explain
from tricksim.records import decisions, simulated_record
from tricksim.sim.actions import action_label
from tricksim.sim.kernels import new_rng


def changed_card_gains(game, params: dict, deals: int, seed: int, worlds: int, solve: int) -> tuple[np.ndarray, int]:
    """Per card-play decision of ``deals`` heuristic self-play deals where the heuristic with
    ``params`` plays another card than the default one, that card's value less the default's for
    the seat to act (explain, the same worlds); and the number of card-play decisions seen."""
    module = agent_module(game.name)
    names = [name for name, _, _ in module.PARAMS]
    changed = module.DEFAULTS.copy()
    for name, value in params.items():
        if name not in names:
            raise SystemExit(f"{game.name}'s heuristic has no parameter {name!r}; it has {', '.join(names)}")
        changed[names.index(name)] = value
    valuer, rng, gains, seen = Valuer(game), new_rng(), [], 0
    for hand in range(deals):
        for d, (state, _) in enumerate(decisions(simulated_record(game, seed, hand))):
            if state.phase != "play" or len(state.legal_actions()) < 2:
                continue
            seen += 1
            before = module.act(state.array, module.DEFAULTS, rng)
            after = module.act(state.array, changed, rng)
            if before != after:
                values = {a.action: a.mean for a in explain(state, worlds=worlds, seed=1000 * hand + d,
                                                            solve=solve, valuer=valuer).actions}
                gains.append(values[action_label(after)] - values[action_label(before)])
    return np.array(gains), seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("params", nargs="+", metavar="name=value")
    parser.add_argument("--set", nargs="*", default=[], metavar="option=value")
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=5501)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--solve", type=int, default=0)
    args = parser.parse_args()
    params = {k: float(v) for k, v in (p.split("=", 1) for p in args.params)}
    game = tricksim.make_game(args.game, **dict(o.split("=", 1) for o in args.set))
    gains, seen = changed_card_gains(game, params, args.deals, args.seed, args.worlds, args.solve)
    half = 1.96 * gains.std(ddof=1) * np.sqrt(len(gains)) / args.deals if len(gains) > 1 else 0.0
    print(f"{game.label} {params}: {seen:,} card decisions, {len(gains):,} changed; "
          f"gain per deal (every seat) {gains.sum() / args.deals:+.4f} ± {half:.4f}")


if __name__ == "__main__":
    main()
