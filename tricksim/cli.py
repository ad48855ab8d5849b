"""The ``tricksim`` command.

    tricksim simulate sheepshead --hands 100000 --agents heuristic --out hands.parquet --set no_pick=doubler
    tricksim compare shmear --a heuristic --b random --hands 20000
    tricksim study pick sheepshead --hands 100000 --classes trumps fail_aces --out pick/
    tricksim tournament nesmear --agents heuristic random heuristic:bid_margin=2 --hands 2000 --out results/
    tricksim sweep sheepshead --param pick_threshold --values 7 8 9 10 11 --hands 20000 --out sweep/
    tricksim replay hand.json
    tricksim replay --game sheepshead --seed 0 --hand 17 --agents heuristic --out hand.json
    tricksim play sheepshead --seat 2 --opponents heuristic --seed 5 --record hand.json
    tricksim train bluke --steps 200000 --out runs/bluke        (needs pip install 'tricksim[rl]')
    tricksim warmup sheepshead fiftyfive --only heuristic study
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


def _agents_help(text: str) -> str:
    return (f"{text}: one agent for every seat, or a comma-separated list with one per seat; an agent is "
            "random, heuristic, pimc or ismcts, with parameters as heuristic:name=value:name=value, "
            "pimc:worlds=50, ismcts:iters=2000, or a trained policy net:file=policy.npz (default random)")


def simulate_command(args: argparse.Namespace) -> int:
    import pandas as pd

    from .agents import seat_agents, uses_search
    from .experiments.summary import format_summary, summarize
    from .sim.batch import make_run, simulate

    game = make_game(args.game, **_parse_sets(args.set))
    if args.out and not args.out.endswith(".parquet"):
        raise OptionError(f"--out {args.out!r}: the output is a Parquet file, name it *.parquet")
    _set_threads(args.threads)
    run = make_run(game, args.hands, args.seed, args.agents)  # checks the arguments before any work
    warm = 1 if uses_search(seat_agents(game.name, args.agents, game.players)[0]) else 1000
    simulate(game, hands=min(args.hands, warm), seed=args.seed, agents=args.agents, progress=False)  # compile untimed
    start = time.perf_counter()
    if args.out:
        df = pd.read_parquet(simulate(game, args.hands, args.seed, args.agents, args.workers, out=args.out))
        df.attrs["game"] = game.name
    else:
        df = simulate(game, args.hands, args.seed, args.agents, args.workers)
    seconds = time.perf_counter() - start
    print(f"{game!r}, seed {args.seed}, agents {', '.join(run.agents) if len(set(run.agents)) > 1 else run.agents[0]}")
    print(format_summary(df, summarize(df), seconds))
    if args.out:
        print(f"wrote {len(df):,} rows to {args.out}")
    return 0


def compare_command(args: argparse.Namespace) -> int:
    from .experiments.compare import compare, format_compare

    game = make_game(args.game, **_parse_sets(args.set))
    _set_threads(args.threads)
    print(format_compare(compare(game, args.a, args.b, hands=args.hands, seed=args.seed, workers=args.workers)))
    return 0


STUDIED = {"pick": ("sheepshead",), "bid": ("fiftyfive", "shmear", "nesmear", "bluke")}


def study_command(args: argparse.Namespace) -> int:
    from .experiments.study import format_study, study, write_study

    if args.game not in STUDIED[args.decision]:
        raise OptionError(f"study {args.decision} {args.game}: a {args.decision} study is of "
                          f"{' or '.join(STUDIED[args.decision])}")
    game = make_game(args.game, **_parse_sets(args.set))
    result = study(game, args.hands, seed=args.seed, agents=args.agents, classes=args.classes, out=args.out,
                   dask=args.dask, policy=args.policy)
    return _report(format_study(result), write_study, result, args.out)


def tournament_command(args: argparse.Namespace) -> int:
    from .experiments.tournament import format_tournament, tournament, write_tournament

    game = make_game(args.game, **_parse_sets(args.set))
    _set_threads(args.threads)
    result = tournament(game, args.agents, hands=args.hands, seed=args.seed, workers=args.workers)
    return _report(format_tournament(result), write_tournament, result, args.out)


def sweep_command(args: argparse.Namespace) -> int:
    from .experiments.sweep import format_sweep, sweep, write_sweep

    game = make_game(args.game, **_parse_sets(args.set))
    _set_threads(args.threads)
    result = sweep(game, args.param, args.values, hands=args.hands, seed=args.seed, agent=args.agent,
                   workers=args.workers)
    return _report(format_sweep(result), write_sweep, result, args.out)


def replay_command(args: argparse.Namespace) -> int:
    from .records import format_record, read_records, simulated_record, write_json, write_text

    if (args.file is None) == (args.game is None):
        raise OptionError("replay: give a record FILE, or --game (with --seed, --hand, --agents) for a simulated hand")
    if args.file is not None:
        extra = [flag for flag, value in (("--seed", args.seed), ("--hand", args.hand), ("--agents", args.agents),
                                          ("--set", args.set)) if value]
        if extra:
            raise OptionError(f"replay: {extra[0]} goes with --game, not with a record file")
        records = read_records(args.file)
    else:
        records = [simulated_record(args.game, args.seed or 0, args.hand or 0, args.agents or "random",
                                    **_parse_sets(args.set or []))]
    print("\n".join(format_record(r) for r in records), end="")
    for path, write in ((args.out, write_json), (args.text, write_text)):
        if path:
            write(records[0] if len(records) == 1 else records, path)
            print(f"wrote {path}")
    return 0


def play_command(args: argparse.Namespace) -> int:
    from .play import play

    game = make_game(args.game, **_parse_sets(args.set))
    outcome = play(game, seat=args.seat, opponents=args.opponents, seed=args.seed, match=args.match,
                   record=args.record)
    if args.record and outcome.records:
        print(f"wrote {args.record} and its text form beside it")
    return 0


def train_command(args: argparse.Namespace) -> int:
    from .rl.train import format_train, train, write_train  # train checks for the rl extra first

    game = make_game(args.game, **_parse_sets(args.set))
    result = train(game, args.steps, mode=args.mode, opponents=args.opponents, seed=args.seed, out=args.out,
                   eval_every=args.eval_every, eval_hands=args.eval_hands, hands=args.hands,
                   progress=sys.stdout.isatty())
    return _report(format_train(result), write_train, result, result["folder"])


def warmup_command(args: argparse.Namespace) -> int:
    from .warmup import warmup

    start = time.perf_counter()
    done = warmup(args.games, args.only, args.workers, log=print)
    print(f"{len(done)} tasks compiled or loaded from the cache in {time.perf_counter() - start:.1f} s")
    return 0


def _report(text: str, write, result: dict, out) -> int:
    """Print ``text``; with a folder ``out``, write the result's files there (``write``) and name them."""
    print(text)
    if out:
        for path in write(result, out):
            print(f"wrote {path}")
    return 0


def _set_threads(threads: int | None) -> None:
    import numba

    if threads is not None:
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise OptionError(f"--threads {threads}: choose 1 .. {numba.config.NUMBA_NUM_THREADS}")
        numba.set_num_threads(threads)


def _add_run_arguments(parser: argparse.ArgumentParser, hands: int) -> None:
    parser.add_argument("game", help=f"one of: {', '.join(games())}")
    parser.add_argument("--hands", type=int, default=hands, help=f"hands (deals) to play (default {hands})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents (default 0)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                        help="a game option of RULES.md, e.g. --set no_pick=doubler (repeatable)")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes, one core each (default 1); results do not change")
    parser.add_argument("--threads", type=int,
                        help="numba threads when --workers is 1 (default: all cores); results do not change")


def build_parser() -> argparse.ArgumentParser:
    from .experiments.classes import CLASSES, DEFAULT_CLASSES

    parser = argparse.ArgumentParser(prog="tricksim", description="Self-play laboratory for Midwestern trick-taking games.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play hands between agents and summarise them")
    _add_run_arguments(sim, 100_000)
    sim.add_argument("--agents", default="random", help=_agents_help("the agents"))
    sim.add_argument("--out", help="stream one row per hand to this Parquet file; run again to resume a stopped run")
    sim.set_defaults(run=simulate_command)
    cmp = sub.add_parser("compare", help="two agents on duplicate deals, the seats rotated")
    _add_run_arguments(cmp, 10_000)
    cmp.add_argument("--a", default="heuristic", help="agent A, e.g. heuristic:pick_threshold=5 (default heuristic)")
    cmp.add_argument("--b", default="random", help="agent B (default random)")
    cmp.set_defaults(run=compare_command)
    stu = sub.add_parser("study", help="when a pick or a bid pays: every action taken on the same deals")
    stu.add_argument("decision", choices=sorted(STUDIED), help="pick (Sheepshead) or bid (the other games)")
    stu.add_argument("game", help=f"one of: {', '.join(games())}")
    stu.add_argument("--hands", type=int, default=20_000, help="deals to play (default 20000)")
    stu.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents (default 0)")
    stu.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help="a game option (repeatable)")
    stu.add_argument("--agents", default="heuristic",
                     help="the agents playing each hand out: random, heuristic, pimc or ismcts (with parameters "
                          "as heuristic:name=value, pimc:worlds=20) or a trained policy (net:file=policy.npz), one "
                          "for every seat or a comma-separated list with one per seat (default heuristic)")
    stu.add_argument("--classes", nargs="+", help="hand classes to group by: " + "; ".join(
        f"{game} {' '.join(CLASSES[game])} (default {' '.join(DEFAULT_CLASSES[game])})" for game in CLASSES))
    stu.add_argument("--out", help="a folder for the rows (Parquet, streamed as the deals are played: run again to "
                                   "resume a stopped study), the tables (CSV, Markdown) and the figures (PNG)")
    stu.add_argument("--dask", metavar="ADDRESS|local",
                     help="play on a Dask distributed cluster: its scheduler's address tcp://host:port, or local for "
                          "one worker per core of this machine (needs pip install 'tricksim[dask]'); results do not "
                          "change")
    stu.add_argument("--policy", type=int, default=0, metavar="DEALS",
                     help="measure the study's policy (its best action per class and position) in play on this many "
                          "fresh deals, against the agents' own rule (default 0: not measured)")
    stu.set_defaults(run=study_command)
    tour = sub.add_parser("tournament", help="a round-robin of agents on duplicate deals, with ratings")
    _add_run_arguments(tour, 2_000)
    tour.add_argument("--agents", nargs="+", required=True, metavar="AGENT",
                      help="two agents or more, e.g. heuristic random pimc:worlds=20")
    tour.add_argument("--out", help="a folder for the tables (CSV, Markdown) and the ratings figure (PNG)")
    tour.set_defaults(run=tournament_command)
    swp = sub.add_parser("sweep", help="which value of an agent parameter plays best, from each position")
    _add_run_arguments(swp, 10_000)
    swp.add_argument("--param", required=True, help="the heuristic's parameter to sweep, e.g. pick_threshold")
    swp.add_argument("--values", nargs="+", type=float, required=True, metavar="VALUE", help="the values to try")
    swp.add_argument("--agent", default="heuristic",
                     help="the base agent, the other seats and the baseline (default heuristic)")
    swp.add_argument("--out", help="a folder for the tables (CSV, Markdown) and the sweep curves (PNG)")
    swp.set_defaults(run=sweep_command)
    trn = sub.add_parser("train", help="train a policy with MaskablePPO (needs pip install 'tricksim[rl]')")
    trn.add_argument("game", help=f"one of: {', '.join(games())}")
    trn.add_argument("--mode", choices=("single", "selfplay"), default="single",
                     help="single: one seat against --opponents (Gymnasium); selfplay: one seat against a frozen "
                          "copy of itself (PettingZoo) (default single)")
    trn.add_argument("--steps", type=int, default=200_000, help="the learner's environment steps (default 200000)")
    trn.add_argument("--opponents", default="heuristic", help="single mode: random or heuristic, one for all seats "
                                                               "or one per seat (default heuristic)")
    trn.add_argument("--seed", type=int, default=0, help="seed of the deals and the network (default 0)")
    trn.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help="a game option (repeatable)")
    trn.add_argument("--eval-every", type=int, default=20_000, help="steps between points of the learning curve "
                                                                    "(default 20000)")
    trn.add_argument("--eval-hands", type=int, default=2_000,
                     help="duplicate deals per point of the learning curve (default 2000)")
    trn.add_argument("--hands", type=int, default=20_000,
                     help="fresh duplicate deals of the final evaluation (default 20000)")
    trn.add_argument("--out", help="a folder for the policy (policy.npz, the agent net:file=FOLDER/policy.npz), the "
                                   "model, the learning curve and the evaluation; run again to resume a stopped run "
                                   "(default: a new temporary folder)")
    trn.set_defaults(run=train_command)
    rep = sub.add_parser("replay", help="show a recorded or a simulated hand trick by trick")
    rep.add_argument("file", nargs="?", help="a hand record (JSON) from tricksim play --record or replay --out")
    rep.add_argument("--game", help=f"instead of a file, a hand of tricksim simulate: one of {', '.join(games())}")
    rep.add_argument("--seed", type=int, help="with --game: the simulation's seed (default 0)")
    rep.add_argument("--hand", type=int, help="with --game: the hand's number in the simulation (default 0)")
    rep.add_argument("--agents", help="with --game: random, heuristic or net:file=POLICY, one for every seat or a "
                                      "comma-separated list (default random)")
    rep.add_argument("--set", action="append", metavar="OPTION=VALUE", help="with --game: a game option (repeatable)")
    rep.add_argument("--out", help="write the hand's record to this JSON file")
    rep.add_argument("--text", help="write the hand's text form to this file")
    rep.set_defaults(run=replay_command)
    ply = sub.add_parser("play", help="play a hand (or a match) against the bots in the terminal")
    ply.add_argument("game", help=f"one of: {', '.join(games())}")
    ply.add_argument("--seat", type=int, default=0, help="your seat, 0 .. players-1 (default 0; seat 0 deals first)")
    ply.add_argument("--opponents", default="heuristic",
                     help="the bots: heuristic, random, pimc or ismcts with parameters (pimc:worlds=20), or a "
                          "trained policy (net:file=policy.npz), one for all or a comma-separated list with one per "
                          "seat, yours ignored (default heuristic)")
    ply.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots (default 0)")
    ply.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                     help="a game option of RULES.md, e.g. --set players=3 (repeatable)")
    ply.add_argument("--match", action="store_true", help="play a whole match to the game's end rule")
    ply.add_argument("--record", metavar="FILE.json",
                     help="write the hands played to this JSON file, and their text form beside it (.txt)")
    ply.set_defaults(run=play_command)
    from .warmup import TARGET_HELP, TARGETS

    wrm = sub.add_parser("warmup", help="compile the kernels into numba's cache ahead of use, on worker processes")
    wrm.add_argument("games", nargs="*", help=f"games to warm (default: all): {', '.join(games())}")
    wrm.add_argument("--only", nargs="+", metavar="TARGET", help="only these: " + "; ".join(
        f"{t}: {TARGET_HELP[t]}" for t in TARGETS) + " (default: all)")
    wrm.add_argument("--workers", type=int, help="worker processes, one core each (default: one per core)")
    wrm.set_defaults(run=warmup_command)
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
