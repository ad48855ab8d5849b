"""The ``tricksim`` command.

    tricksim simulate sheepshead --hands 100000 --agents heuristic --out hands.parquet --set no_pick=doubler
    tricksim compare shmear --a heuristic --b random --hands 20000
    tricksim study pick sheepshead --hands 100000 --classes trumps fail_aces --out pick/
    tricksim tournament nesmear --agents heuristic random heuristic:bid_margin=2 --hands 2000 --out results/
    tricksim sweep sheepshead --param pick_threshold --values 7 8 9 10 11 --hands 20000 --out sweep/
    tricksim replay hand.json
    tricksim replay --game sheepshead --seed 0 --hand 17 --agents heuristic --out hand.json
    tricksim explain hand.json --decision 12 --worlds 200
    tricksim mine sheepshead --hands 200 --agents heuristic --out mine/
    tricksim tune sheepshead --param pick_threshold=5:12 --trials 40 --hands 5000 --out tune/
    tricksim play sheepshead --seat 2 --opponents heuristic --seed 5 --record hand.json
    tricksim compare sheepshead --a "exec:node examples/bots/simple.js" --b heuristic --hands 2000
    tricksim train bluke --steps 200000 --out runs/bluke        (needs pip install 'tricksim[rl]')
    tricksim train bluke --mode imitate --steps 2M --out runs/bluke-imitate
    tricksim warmup sheepshead fiftyfive --only heuristic study
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from decimal import Decimal
from pathlib import Path

from .errors import OptionError
from .spec import make_game, names, specs

SET_HELP = "a game option (see docs/rules.md), e.g. --set no_pick=doubler (repeatable)"
COUNTS = "Counts (--hands and the like) may be written 100000, 100_000, 1e5, 100k or 2M."
_COUNT = re.compile(r"([0-9](?:_?[0-9])*(?:\.[0-9]+)?(?:e[0-9]+)?)([km]?)", re.IGNORECASE)
_SCALE = {"": 1, "k": 10**3, "m": 10**6}


def count(text: str) -> int:
    """A count of hands, deals or steps as written on the command line, one or more: ``100000``,
    ``100_000``, ``1e5``, ``100k`` or ``2M`` (the argparse type of every count option).

    >>> count("100_000"), count("1e5"), count("2.5k"), count("2M")
    (100000, 100000, 2500, 2000000)
    """
    match = _COUNT.fullmatch(text.strip())
    if match:
        value = Decimal(match[1].replace("_", "")) * _SCALE[match[2].lower()]
        if 1 <= value < 2**63 and value == value.to_integral_value():
            return int(value)
    raise argparse.ArgumentTypeError(f"{text!r}: give a count, a whole number >= 1, e.g. 20000, 20_000, 2e4, 20k "
                                     "or 2M")


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
            "pimc:worlds=50, ismcts:iters=2000, a trained policy net:file=policy.npz, or a bot of your own: "
            "python:MODULE:CLASS, python:FILE.py:CLASS or exec:COMMAND (docs/bots.md) (default heuristic)")


def simulate_command(args: argparse.Namespace) -> int:
    import pandas as pd

    from .agents import seat_agents, uses_search
    from .experiments.summary import format_summary, summarize
    from .sim.batch import hands_written, make_run, simulate

    game = make_game(args.game, **_parse_sets(args.set))
    if args.out and not args.out.endswith(".parquet"):
        raise OptionError(f"--out {args.out!r}: the output is a Parquet file, name it *.parquet")
    _check_overwrite(args)
    _set_threads(args.threads)
    run = make_run(game, args.hands, args.seed, args.agents)  # checks the arguments before any work,
    done = hands_written(run, args.out, args.overwrite) if args.out else 0  # and the output file
    print(run)  # the run in words: hands, game, seed, agents
    warming = time.perf_counter()
    if done < run.hands:  # compile (or load the compiled kernels) apart from the timed play
        warm = 1 if uses_search(seat_agents(game.name, args.agents, game.players)[0]) else 1000
        simulate(game, hands=min(run.hands, warm), seed=args.seed, agents=args.agents, progress=False)
    start = time.perf_counter()
    played = simulate(game, run.hands, args.seed, args.agents, args.workers, out=args.out, overwrite=args.overwrite,
                      dask=args.dask)
    seconds = time.perf_counter() - start
    df = pd.read_parquet(played) if args.out else played
    df.attrs["game"] = game.name
    print(format_summary(df, summarize(df)))
    print(_speed(start - warming, done, run.hands - done, seconds, args.out))
    if args.out and done < run.hands:
        print(f"wrote {len(df):,} rows to {args.out}")
    return 0


def _speed(compiled: float, done: int, played: int, seconds: float, out) -> str:
    """The line on how a simulate went: the compile time apart from the play's, and on a resumed
    run the hands done before."""
    if not played:
        return f"{out} already holds this run's {done:,} hands; nothing played"
    rate = played / max(seconds, 1e-9)
    resumed = f"resumed after {done:,} hands: " if done else ""
    return (f"compiled in {compiled:.1f} s; {resumed}played {played:,} hands in {seconds:.2f} s, "
            f"{f'{rate:,.0f}' if rate >= 100 else f'{rate:.3g}'} hands/s")


def _check_overwrite(args: argparse.Namespace) -> None:
    """OptionError for --overwrite without an --out to overwrite."""
    if args.overwrite and not args.out:
        raise OptionError("--overwrite goes with --out")


def compare_command(args: argparse.Namespace) -> int:
    from .experiments.compare import compare, format_compare

    game = make_game(args.game, **_parse_sets(args.set))
    _set_threads(args.threads)
    if args.matches:
        from .experiments.matches import compare_matches, format_matches

        out = None if args.out is None else Path(args.out) / "matches.parquet"
        print(format_matches(compare_matches(game, args.a, args.b, matches=args.matches, seed=args.seed,
                                             workers=args.workers, out=out, dask=args.dask)))
        return 0
    print(format_compare(compare(game, args.a, args.b, hands=args.hands, seed=args.seed, workers=args.workers,
                                 out=args.out, dask=args.dask, progress=True)))
    return 0


def studied(decision: str) -> list[str]:
    """The games whose study is of ``decision`` (``pick`` or ``bid``)."""
    return [g.name for g in specs() if g.decision == decision]


def study_command(args: argparse.Namespace) -> int:
    from .experiments.study import format_study_summary, study, write_study

    if args.game not in studied(args.decision):
        raise OptionError(f"study {args.decision} {args.game}: a {args.decision} study is of "
                          f"{' or '.join(studied(args.decision))}")
    _check_overwrite(args)
    game = make_game(args.game, **_parse_sets(args.set))
    result = study(game, args.hands, seed=args.seed, agents=args.agents, classes=args.classes, out=args.out,
                   dask=args.dask, policy=args.policy, min_paired=args.min_paired, overwrite=args.overwrite,
                   check_agents=args.check_agents, check_hands=args.check_hands)
    return _report(format_study_summary(result, args.out), write_study, result, args.out)


def mine_command(args: argparse.Namespace) -> int:
    from .experiments.mine import format_mine, make_mining, mine, write_mine

    _check_overwrite(args)
    game = make_game(args.game, **_parse_sets(args.set))
    mining = make_mining(game, args.hands, args.seed, args.agents, args.seats, args.sample, args.worlds, args.rollouts,
                         args.solve)
    rows_file = Path(args.out) / "rows.parquet" if args.out else None
    if rows_file:
        rows_file.parent.mkdir(parents=True, exist_ok=True)
    rows = mine(game, args.hands, seed=args.seed, agents=args.agents, seats=args.seats, sample=args.sample,
                worlds=args.worlds, rollouts=args.rollouts, solve=args.solve, out=rows_file, dask=args.dask,
                overwrite=args.overwrite)
    if rows_file:
        import pandas as pd

        rows = pd.read_parquet(rows_file)
    text = f"{args.hands:,} deals of {game.label}, agents {args.agents}"
    return _report(format_mine(rows, text, args.hands), lambda r, out: write_mine(r, mining, out), rows, args.out)


def tune_command(args: argparse.Namespace) -> int:
    from .experiments.tune import format_tune, tune, write_tune

    space = {}
    for text in args.param:
        name, sep, bounds = text.partition("=")
        low, colon, high = bounds.partition(":")
        try:
            space[name.strip()] = (float(low), float(high))
        except ValueError:
            colon = ""
        if not (sep and colon and name.strip()):
            raise OptionError(f"--param {text!r} is not name=low:high (e.g. pick_threshold=5:12)")
    game = make_game(args.game, **_parse_sets(args.set))
    result = tune(game, space, kind=args.agent, opponents=args.opponents, seat=args.seat, trials=args.trials,
                  hands=args.hands, final_hands=args.final_hands, seed=args.seed, out=args.out, workers=args.workers,
                  dask=args.dask)
    return _report(format_tune(result), write_tune, result, args.out)


def tournament_command(args: argparse.Namespace) -> int:
    from .experiments.tournament import format_tournament, tournament, write_tournament

    game = make_game(args.game, **_parse_sets(args.set))
    _set_threads(args.threads)
    result = tournament(game, args.agents, hands=args.hands, seed=args.seed, workers=args.workers, out=args.out,
                        dask=args.dask, progress=True)
    return _report(format_tournament(result), write_tournament, result, args.out)


def sweep_command(args: argparse.Namespace) -> int:
    from .experiments.sweep import format_sweep, sweep, write_sweep

    game = make_game(args.game, **_parse_sets(args.set))
    _set_threads(args.threads)
    result = sweep(game, args.param, args.values, hands=args.hands, seed=args.seed, agent=args.agent,
                   workers=args.workers, opponents=args.opponents)
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
        records = [simulated_record(args.game, args.seed or 0, args.hand or 0, args.agents or "heuristic",
                                    **_parse_sets(args.set))]
    print("\n".join(format_record(r) for r in records), end="")
    for path, write in ((args.out, write_json), (args.text, write_text)):
        if path:
            write(records[0] if len(records) == 1 else records, path)
            print(f"wrote {path}")
    return 0


def explain_command(args: argparse.Namespace) -> int:
    import json

    from .experiments.explain import explain, format_explanation
    from .records import decisions

    record = _record_of(args, "explain")
    steps = decisions(record)
    if args.all == (args.decision is not None):
        raise OptionError(f"explain: give --decision N (1 .. {len(steps)}) or --all")
    if args.decision is not None and not 1 <= args.decision <= len(steps):
        raise OptionError(f"explain: --decision {args.decision}; the hand has decisions 1 .. {len(steps)}")
    chosen = range(1, len(steps) + 1) if args.all else [args.decision]
    if args.seat is not None:
        chosen = [d for d in chosen if steps[d - 1][0].current_player == args.seat]
    found = []
    for d in chosen:
        state, taken = steps[d - 1]
        if len(state.legal_actions()) > 1 or not args.all:  # --all skips forced actions
            found.append((d, explain(state, worlds=args.worlds, seed=args.seed_worlds, rollouts=args.rollouts,
                                     solve=args.solve, exact=args.exact, taken=taken, infer=args.infer)))
    if args.json:
        print(json.dumps([dict(decision=d, **e.to_dict()) for d, e in found], indent=1))
    else:
        print("\n\n".join(f"decision {d}: {format_explanation(e)}" for d, e in found))
    return 0


def _record_of(args: argparse.Namespace, command: str):
    """The hand record a command reads: a FILE (one hand), or a simulated hand (--game ...)."""
    from .records import read_records, simulated_record

    if (args.file is None) == (args.game is None):
        raise OptionError(f"{command}: give a record FILE, or --game (with --seed, --hand, --agents) for a "
                          "simulated hand")
    if args.game is not None:
        return simulated_record(args.game, args.seed or 0, args.hand or 0, args.agents or "heuristic",
                                **_parse_sets(args.set))
    extra = [flag for flag, value in (("--seed", args.seed), ("--hand", args.hand), ("--agents", args.agents),
                                      ("--set", args.set)) if value]
    if extra:
        raise OptionError(f"{command}: {extra[0]} goes with --game, not with a record file")
    records = read_records(args.file)
    if len(records) != 1:
        raise OptionError(f"{command}: {args.file} holds {len(records)} hands; give a file of one hand")
    return records[0]


def play_command(args: argparse.Namespace) -> int:
    from .play import play

    game = make_game(args.game, **_parse_sets(args.set))
    outcome = play(game, seat=args.seat, opponents=args.opponents, seed=args.seed, match=args.match,
                   record=args.record)
    if args.record and outcome.records:
        print(f"wrote {args.record} and its text form beside it")
    return 0


def train_command(args: argparse.Namespace) -> int:
    game = make_game(args.game, **_parse_sets(args.set))
    if args.mode == "imitate":
        from .rl.imitate import format_imitation, imitate, write_imitation  # checks for the rl extra first

        result = imitate(game, args.steps, teacher=args.teacher, epochs=args.epochs, seed=args.seed, out=args.out,
                         eval_hands=args.eval_hands, hands=args.hands, progress=sys.stdout.isatty(),
                         workers=args.workers)
        return _report(format_imitation(result), write_imitation, result, result["folder"])
    from .rl.train import format_train, train, write_train  # train checks for the rl extra first

    result = train(game, args.steps, mode=args.mode, opponents=args.opponents, seed=args.seed, out=args.out,
                   eval_every=args.eval_every, eval_hands=args.eval_hands, hands=args.hands, init=args.init or "",
                   critic=args.critic, league=args.league, progress=sys.stdout.isatty(), fast=args.fast)
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
    parser.add_argument("game", help=f"one of: {', '.join(names())}")
    parser.add_argument("--hands", type=count, default=hands, help=f"hands (deals) to play (default {hands})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents (default 0)")
    _add_set(parser)
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes, one core each (default 1); results do not change")
    parser.add_argument("--threads", type=int,
                        help="numba threads when --workers is 1 (default: all cores); results do not change")


def _add_dask(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dask", metavar="ADDRESS|local",
                        help="play on a Dask distributed cluster: its scheduler's address tcp://host:port, or local "
                             "for one worker per core of this machine (needs pip install 'tricksim[dask]'); results "
                             "do not change")


def _add_set(parser: argparse.ArgumentParser, note: str = "") -> None:
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help=note + SET_HELP)


def _add_hand(parser: argparse.ArgumentParser, file_help: str) -> None:
    """The hand a command shows: a record ``file``, or a hand of simulate (--game, --seed, --hand, --agents, --set)."""
    parser.add_argument("file", nargs="?", help=file_help)
    parser.add_argument("--game", help=f"instead of a file, a hand of tricksim simulate: one of {', '.join(names())}")
    parser.add_argument("--seed", type=int, help="with --game: the simulation's seed (default 0)")
    parser.add_argument("--hand", type=int, help="with --game: the hand's number in the simulation (default 0)")
    parser.add_argument("--agents", help="with --game: heuristic, random, net:file=POLICY or a bot (python:, exec:), "
                                         "one for every seat or a comma-separated list (default heuristic)")
    _add_set(parser, "with --game: ")


def build_parser() -> argparse.ArgumentParser:
    from .experiments.best import MIN_PAIRED
    from .experiments.classes import CLASSES, DEFAULT_CLASSES

    parser = argparse.ArgumentParser(prog="tricksim", description="Self-play laboratory for Midwestern trick-taking "
                                     "games.", epilog="Ctrl-C stops any command; a run streaming to --out resumes "
                                     "when the same command is run again.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play hands between agents and summarise them", epilog=COUNTS)
    _add_run_arguments(sim, 100_000)
    sim.add_argument("--agents", default="heuristic", help=_agents_help("the agents"))
    sim.add_argument("--out", help="stream one row per hand to this Parquet file; run again to resume a stopped run")
    sim.add_argument("--overwrite", action="store_true",
                     help="replace an --out file (or the parts of a stopped run) of another run; without it, that "
                          "is an error")
    _add_dask(sim)
    sim.set_defaults(run=simulate_command, resumes=True)
    cmp = sub.add_parser("compare", help="two agents on duplicate deals, the seats rotated", epilog=COUNTS)
    _add_run_arguments(cmp, 10_000)
    cmp.add_argument("--a", default="heuristic", help="agent A, e.g. heuristic:pick_threshold=5, "
                     "python:bot.py:MyBot or \"exec:node bot.js\" (default heuristic)")
    cmp.add_argument("--b", default="random", help="agent B (default random)")
    cmp.add_argument("--matches", type=count, help="play this many whole matches (the game's end rule, e.g. to "
                     "its target) instead of single hands: the share of matches each side wins")
    cmp.add_argument("--out", help="a folder for the hands of each seating (Parquet, streamed: run again to resume "
                                   "a stopped comparison)")
    _add_dask(cmp)
    cmp.set_defaults(run=compare_command, resumes=True)
    stu = sub.add_parser("study", help="when a pick or a bid pays: every action taken on the same deals",
                         epilog=COUNTS)
    stu.add_argument("decision", choices=sorted({g.decision for g in specs()}),
                     help="pick (Sheepshead) or bid (the other games)")
    stu.add_argument("game", help=f"one of: {', '.join(names())}")
    stu.add_argument("--hands", type=count, default=20_000, help="deals to play (default 20000)")
    stu.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents (default 0)")
    _add_set(stu)
    stu.add_argument("--agents", default="heuristic",
                     help="the agents playing each hand out: random, heuristic, pimc or ismcts (with parameters "
                          "as heuristic:name=value, pimc:worlds=20) or a trained policy (net:file=policy.npz), one "
                          "for every seat or a comma-separated list with one per seat (default heuristic)")
    stu.add_argument("--classes", nargs="+", help="hand classes to group by: " + "; ".join(
        f"{game} {' '.join(CLASSES[game])} (default {' '.join(DEFAULT_CLASSES[game])})" for game in CLASSES))
    stu.add_argument("--out", help="a folder for the rows (Parquet, streamed as the deals are played: run again to "
                                   "resume a stopped study), the tables (CSV, Markdown) and the figures (PNG)")
    stu.add_argument("--overwrite", action="store_true",
                     help="replace the rows of another study in --out (or its stopped parts); without it, that is an "
                          "error")
    stu.add_argument("--dask", metavar="ADDRESS|local",
                     help="play on a Dask distributed cluster: its scheduler's address tcp://host:port, or local for "
                          "one worker per core of this machine (needs pip install 'tricksim[dask]'); results do not "
                          "change")
    stu.add_argument("--policy", type=count, default=0, metavar="DEALS",
                     help="measure the study's policy (its best action per class and position) in play on this many "
                          "fresh deals, against the agents' own rule (default: not measured)")
    stu.add_argument("--min-paired", type=count, default=MIN_PAIRED, metavar="DECISIONS",
                     help="the decisions two actions must both have been open at before one is named best over the "
                          f"other (default {MIN_PAIRED})")
    stu.add_argument("--check-agents", metavar="AGENTS",
                     help="play the study again with these agents (e.g. pimc:worlds=20) and say per hand class and "
                          "position whether the best action agrees (default: no check)")
    stu.add_argument("--check-hands", type=count, default=2_000, metavar="DEALS",
                     help="the deals of the check, the study's first ones (default 2000)")
    stu.set_defaults(run=study_command, resumes=True)
    mn = sub.add_parser("mine", help="where the agents lose: every decision valued, the losses by kind of decision",
                        epilog=COUNTS)
    mn.add_argument("game", help=f"one of: {', '.join(names())}")
    mn.add_argument("--agents", default="heuristic", help=_agents_help("the agents playing the hands") +
                    " (random, heuristic or net:file=POLICY)")
    mn.add_argument("--hands", type=count, default=200, help="deals to play (default 200)")
    mn.add_argument("--seed", type=int, default=0, help="seed of the deals and the agents (default 0)")
    mn.add_argument("--seats", type=int, nargs="+", help="the seats whose decisions are valued (default: all)")
    mn.add_argument("--sample", type=float, default=1.0, help="the share of those decisions valued (default 1)")
    mn.add_argument("--worlds", type=count, default=40,
                    help="worlds per decision: half name the best action, half measure the loss (default 40)")
    mn.add_argument("--rollouts", type=count, default=1, help="heuristic playouts per world and action before the "
                                                              "solver takes over (default 1)")
    mn.add_argument("--solve", type=int, default=4,
                    help="cards in hand from which a decision's worlds are solved exactly (default 4); 0 plays every "
                         "world out with the heuristic: the loss against play that cannot see the cards")
    _add_set(mn)
    mn.add_argument("--out", help="a folder for the rows (Parquet, streamed: run again to resume), the tables (CSV), "
                                  "the figure, the page (mine.md) and the worst decisions' hands (worst/NN.json)")
    mn.add_argument("--overwrite", action="store_true", help="replace another run's rows in --out")
    mn.add_argument("--dask", metavar="ADDRESS|local", help="value on a Dask distributed cluster (tcp://host:port, or "
                                                            "local); results do not change")
    mn.set_defaults(run=mine_command, resumes=True)
    tun = sub.add_parser("tune", help="search an agent's parameters for the best score on duplicate deals (Optuna)",
                         epilog=COUNTS)
    tun.add_argument("game", help=f"one of: {', '.join(names())}")
    tun.add_argument("--param", nargs="+", required=True, metavar="NAME=LOW:HIGH",
                     help="the parameters searched and their ranges, e.g. pick_threshold=5:12")
    tun.add_argument("--agent", default="heuristic", help="the agent tuned: heuristic, pimc or ismcts (default "
                                                          "heuristic)")
    tun.add_argument("--opponents", default="heuristic", help="the agent in the other seats (default heuristic)")
    tun.add_argument("--seat", type=int, help="tune for this seat only (default: every seat in turn)")
    tun.add_argument("--trials", type=count, default=50, help="parameter sets tried (default 50)")
    tun.add_argument("--hands", type=count, default=5_000, help="duplicate deals per trial (default 5000)")
    tun.add_argument("--final-hands", type=count, default=20_000,
                     help="fresh duplicate deals measuring the best (default 20000)")
    tun.add_argument("--seed", type=int, default=0, help="seed of the trials' deals (default 0)")
    _add_set(tun)
    tun.add_argument("--out", help="a folder for the trials (tune.db: run again to resume), the table, the figure "
                                   "and the page")
    tun.add_argument("--workers", type=int, default=1, help="worker processes per trial (default 1)")
    tun.add_argument("--dask", metavar="ADDRESS|local", help="play the trials of a batch side by side on a Dask "
                                                             "cluster (tcp://host:port, or local); results do not "
                                                             "change")
    tun.set_defaults(run=tune_command, resumes=True)
    tour = sub.add_parser("tournament", help="a round-robin of agents on duplicate deals, with ratings",
                          epilog=COUNTS)
    _add_run_arguments(tour, 2_000)
    tour.add_argument("--agents", nargs="+", required=True, metavar="AGENT",
                      help="two agents or more, e.g. heuristic random pimc:worlds=20 \"exec:node bot.js\"")
    tour.add_argument("--out", help="a folder for the tables (CSV, Markdown), the ratings figure (PNG) and every "
                                    "pair's hands (Parquet, streamed: run again to resume a stopped tournament)")
    _add_dask(tour)
    tour.set_defaults(run=tournament_command, resumes=True)
    swp = sub.add_parser("sweep", help="which value of an agent parameter plays best, from each position",
                         epilog=COUNTS)
    _add_run_arguments(swp, 10_000)
    swp.add_argument("--param", required=True, help="the heuristic's parameter to sweep, e.g. pick_threshold")
    swp.add_argument("--values", nargs="+", type=float, required=True, metavar="VALUE", help="the values to try")
    swp.add_argument("--agent", default="heuristic",
                     help="the base agent, the other seats and the baseline (default heuristic)")
    swp.add_argument("--opponents", help="the agent of the other seats, e.g. random or a bot of your own "
                     "(python:MODULE:CLASS, exec:COMMAND) (default: the base agent)")
    swp.add_argument("--out", help="a folder for the tables (CSV, Markdown) and the sweep curves (PNG)")
    swp.set_defaults(run=sweep_command)
    trn = sub.add_parser("train", help="train a policy with MaskablePPO (needs pip install 'tricksim[rl]')",
                         epilog=COUNTS)
    trn.add_argument("game", help=f"one of: {', '.join(names())}")
    trn.add_argument("--mode", choices=("single", "selfplay", "imitate"), default="single",
                     help="single: one seat against --opponents (Gymnasium); selfplay: one seat against a frozen "
                          "copy of itself (PettingZoo); imitate: learn the --teacher's decisions (default single)")
    trn.add_argument("--steps", type=count, default=200_000,
                     help="the learner's environment steps; imitate: the teacher's decisions to learn from, in "
                          "whole parts of 5,000 deals (default 200000)")
    trn.add_argument("--teacher", default="heuristic",
                     help="imitate: the agents whose decisions are learnt, one for all seats or one per seat "
                          "(heuristic, pimc:worlds=20, ...; default heuristic)")
    trn.add_argument("--epochs", type=count, default=4, help="imitate: passes over the decisions (default 4)")
    trn.add_argument("--workers", type=count, default=1,
                     help="imitate: processes that play a search teacher's deals, one core each; the decisions do not "
                          "change (default 1)")
    trn.add_argument("--init", help="single and selfplay: a policy file to start from (e.g. an imitation's "
                                    "policy.npz; its layers are kept, and PPO fine-tunes it gently: 16 tables, no "
                                    "entropy bonus, learning rate 3e-5, batches of 1024)")
    trn.add_argument("--fast", action="store_true",
                     help="single mode: PPO for throughput (>= 10,000 steps a CPU second with 256 x 256 policies): "
                          "256 tables of 64 steps, one pass of batches of 4096, learning rate 1e-4, a 64 x 64 "
                          "value network")
    trn.add_argument("--critic", choices=("seat", "full"), default="seat",
                     help="what PPO's value network reads: the seat's observation, or every hand too (single mode; "
                          "the policy always reads the seat's alone) (default seat)")
    trn.add_argument("--league", type=int, default=0, metavar="SNAPSHOTS",
                     help="selfplay: the other seats play the heuristic or one of the learner's last SNAPSHOTS "
                          "snapshots, the ones that beat it most often the most (default 0: the learner as it is)")
    trn.add_argument("--opponents", default="heuristic", help="single mode: random or heuristic, one for all seats "
                                                               "or one per seat (default heuristic)")
    trn.add_argument("--seed", type=int, default=0, help="seed of the deals and the network (default 0)")
    _add_set(trn)
    trn.add_argument("--eval-every", type=count, default=20_000, help="steps between points of the learning curve "
                                                                    "(default 20000)")
    trn.add_argument("--eval-hands", type=count, default=2_000,
                     help="duplicate deals per point of the learning curve (default 2000)")
    trn.add_argument("--hands", type=count, default=20_000,
                     help="fresh duplicate deals of the final evaluation (default 20000)")
    trn.add_argument("--out", help="a folder for the policy (policy.npz, the agent net:file=FOLDER/policy.npz), the "
                                   "model, the learning curve and the evaluation; run again to resume a stopped run "
                                   "(default: a new temporary folder)")
    trn.set_defaults(run=train_command, resumes=True)
    rep = sub.add_parser("replay", help="show a recorded or a simulated hand trick by trick")
    _add_hand(rep, "a hand record (JSON) from tricksim play --record or replay --out")
    rep.add_argument("--out", help="write the hand's record to this JSON file")
    rep.add_argument("--text", help="write the hand's text form to this file")
    rep.set_defaults(run=replay_command)
    exp = sub.add_parser("explain", help="why did the bot do this: every legal action of a decision valued",
                         description="Each legal action of a decision valued for the seat to act: its mean hand "
                                     "score over worlds dealt consistently with what the seat knows (PIMC's "
                                     "values: solved exactly from --solve cards in hand on, heuristic playouts "
                                     "before), with 95%% intervals, the cost of each against the best, and the "
                                     "action taken.")
    _add_hand(exp, "a hand record (JSON) of one hand")
    exp.add_argument("--decision", type=int, help="the decision to explain, numbered from 1 as replay shows them")
    exp.add_argument("--all", action="store_true", help="every decision of the hand with a choice")
    exp.add_argument("--seat", type=int, help="with --all: only this seat's decisions")
    exp.add_argument("--worlds", type=count, default=100, help="worlds sampled per decision (default 100)")
    exp.add_argument("--rollouts", type=count, default=1,
                     help="heuristic playouts per world and action before the solver takes over (default 1)")
    exp.add_argument("--solve", type=int, default=4, help="cards in hand from which each world is solved (default 4)")
    exp.add_argument("--exact", action="store_true", help="also the double-dummy value (every card visible)")
    exp.add_argument("--infer", type=float, default=0.5,
                     help="also each action's mean over the worlds weighed by how likely the other seats' "
                          "decisions so far are in each (the heuristic softened by EPS, as PIMC's infer; 0 for "
                          "none; default 0.5)")
    exp.add_argument("--seed-worlds", type=int, default=0, help="seed of the worlds sampled (default 0)")
    exp.add_argument("--json", action="store_true", help="JSON for a program instead of text")
    exp.set_defaults(run=explain_command)
    ply = sub.add_parser("play", help="play a hand (or a match) against the bots in the terminal")
    ply.add_argument("game", help=f"one of: {', '.join(names())}")
    ply.add_argument("--seat", type=int, default=0, help="your seat, 0 .. players-1 (default 0; seat 0 deals first)")
    ply.add_argument("--opponents", default="heuristic",
                     help="the bots: heuristic, random, pimc or ismcts with parameters (pimc:worlds=20), or a "
                          "trained policy (net:file=policy.npz), or a bot of your own (python:MODULE:CLASS, "
                          "exec:COMMAND; docs/bots.md), one for all or a comma-separated list with one per "
                          "seat, yours ignored (default heuristic)")
    ply.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots (default 0)")
    _add_set(ply)
    ply.add_argument("--match", action="store_true", help="play a whole match to the game's end rule")
    ply.add_argument("--record", metavar="FILE.json",
                     help="write the hands played to this JSON file, and their text form beside it (.txt)")
    ply.set_defaults(run=play_command)
    from .warmup import TARGET_HELP, TARGETS

    wrm = sub.add_parser("warmup", help="compile the kernels into numba's cache ahead of use, on worker processes")
    wrm.add_argument("games", nargs="*", help=f"games to warm (default: all): {', '.join(names())}")
    wrm.add_argument("--only", nargs="+", metavar="TARGET", help="only these: " + "; ".join(
        f"{t}: {TARGET_HELP[t]}" for t in TARGETS) + " (default: all)")
    wrm.add_argument("--workers", type=int, help="worker processes, one core each (default: one per core)")
    wrm.set_defaults(run=warmup_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The ``tricksim`` command on ``argv`` (default: the command line); returns the exit code."""
    try:
        try:
            return _run(build_parser().parse_args(argv))
        finally:
            sys.stdout.flush()  # a reader gone (| head) shows here rather than at exit
    except BrokenPipeError:  # stop quietly; what is left to flush goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _run(args: argparse.Namespace) -> int:
    """Run the command; its errors as one line on stderr (exit 2), Ctrl-C as one line too (exit 130)."""
    try:
        return args.run(args)
    except KeyboardInterrupt:  # tricksim play handles its own
        resume = "; run the same command again to resume" if getattr(args, "resumes", False) and args.out else ""
        print(f"tricksim: stopped{resume}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise  # main's
    except (OptionError, ValueError, OSError) as error:
        print(f"tricksim: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
