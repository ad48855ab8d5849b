"""The ``tricksim`` command.

    tricksim simulate sheepshead --hands 100000 --seed 1 --out hands.parquet --set no_pick=doubler
"""

from __future__ import annotations

import argparse
import sys
import time

from . import games, make_game
from .errors import OptionError


def _parse_sets(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--set {pair!r} is not option=value")
        options[name.strip()] = value.strip()
    return options


def simulate_command(args: argparse.Namespace) -> int:
    import numba

    from .experiments.summary import format_summary, summarize
    from .sim.batch import simulate

    game = make_game(args.game, **_parse_sets(args.set))
    if args.out and not args.out.endswith(".parquet"):
        raise OptionError(f"--out {args.out!r}: the output is a Parquet file, name it *.parquet")
    if args.threads is not None:
        if not 1 <= args.threads <= numba.config.NUMBA_NUM_THREADS:
            raise OptionError(f"--threads {args.threads}: choose 1 .. {numba.config.NUMBA_NUM_THREADS}")
        numba.set_num_threads(args.threads)
    simulate(game, hands=min(args.hands, 1000), seed=args.seed)  # compile (or load the cache) untimed
    start = time.perf_counter()
    df = simulate(game, hands=args.hands, seed=args.seed)
    seconds = time.perf_counter() - start
    print(f"{game!r}, seed {args.seed}")
    print(format_summary(df, summarize(df), seconds))
    if args.out:
        df.to_parquet(args.out, index=False)
        print(f"wrote {len(df):,} rows to {args.out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tricksim", description="Self-play laboratory for Midwestern trick-taking games.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play hands with random agents and summarise them")
    sim.add_argument("game", help=f"one of: {', '.join(games())}")
    sim.add_argument("--hands", type=int, default=100_000, help="hands to play (default 100000)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents (default 0)")
    sim.add_argument("--out", help="write one row per hand to this Parquet file")
    sim.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                     help="a game option of RULES.md, e.g. --set no_pick=doubler (repeatable)")
    sim.add_argument("--threads", type=int, help="numba threads (default: all cores); results do not change")
    sim.set_defaults(run=simulate_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (OptionError, ValueError, OSError) as error:
        print(f"tricksim: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
