"""``tricksim play``: the cards shown trumps first, answers by number, label or card, bad answers asked
again, the bots' cards kept hidden, stopping, matches, records; and the real command through a
pseudo-terminal (pexpect)."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest

import tricksim
from tricksim.cli import main
from tricksim.display import format_count, format_hand, legend, public_label, seat_names, sort_cards
from tricksim.play import HELP, play
from tricksim.records import read_records, rebuild

CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|LJ|HJ)\b")


# --- the display --------------------------------------------------------------------------


@pytest.mark.parametrize("name, cards, trump, shown", [
    ("sheepshead", "7C AC QH JD 9H TD TH QC", None, "QC QH JD TD  AC 7C  TH 9H"),
    ("sheepshead", "7C AC QH JD 9H TD TH QC", "H", "QC QH JD TD  AC 7C  TH 9H"),  # trumps are fixed
    ("fiftyfive", "2C AC JC 5H KH AH", None, "AH  JC AC 2C  KH 5H"),  # A♥ is a trump whatever is named
    ("fiftyfive", "2C AC JC 5H KH AH", "C", "JC AH AC 2C  KH 5H"),
    ("fiftyfive", "2C AC JC 5H KH AH TD AD", "H", "5H AH KH  JC AC 2C  TD AD"),  # plain diamonds: A lowest
    ("shmear", "JH JD LJ AH 2H KC AS", "H", "AH JH JD 2H LJ  KC  AS"),  # both bowers, the joker last
    ("shmear", "JH JD LJ AH 2H KC AS", None, "LJ  KC  JD  AH JH 2H  AS"),
    ("nesmear", "7D AD JD AC 8C", "D", "AD JD 7D  AC 8C"),
    ("bluke", "HJ 2S AH LJ AS 3C", "S", "HJ LJ AS 2S  3C  AH"),  # the blukes above the trumps
    ("bluke", "HJ 2S AH LJ AS 3C", None, "HJ LJ  3C  AH  AS 2S"),  # a turned bluke: no trump
])
def test_a_hand_is_shown_trumps_first_then_each_suit_highest_first(name, cards, trump, shown):
    game = tricksim.make_game(name)
    assert format_hand(game, cards, trump) == shown
    assert sort_cards(game, cards.split(), trump) == shown.split()


def test_cards_played_face_down_stay_hidden_from_the_others():
    sheepshead, nesmear = tricksim.make_game("sheepshead"), tricksim.make_game("nesmear")
    assert public_label(sheepshead, "bury QC") == "bury a card"
    assert public_label(sheepshead, "call AH") == "call AH" and public_label(sheepshead, "play QC") == "play QC"
    assert public_label(nesmear, "discard 7H") == "discard a card" and "QC" not in public_label(sheepshead, "under QC")
    assert "secret" in public_label(nesmear, "trump S")
    assert public_label(tricksim.make_game("shmear"), "trump S") == "trump S"


# --- a scripted person --------------------------------------------------------------------------


class Person:
    """Answers the prompts from a script; ``choose(labels)`` answers a choice from the listed labels
    (default: the first). Keeps everything shown."""

    def __init__(self, script=(), choose=None, more="n"):
        self.script = list(script)
        self.choose = choose or (lambda labels: "1")
        self.more = more
        self.shown: list[str] = []
        self.prompts: list[str] = []

    def say(self, text: str) -> None:
        self.shown.extend(str(text).split("\n"))

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.script:
            answer = self.script.pop(0)
        elif prompt.startswith("show all hands"):
            answer = self.more
        else:
            answer = self.choose(self.listed())
        if isinstance(answer, BaseException):
            raise answer
        self.shown.append(prompt + answer)
        return answer

    def listed(self) -> list[str]:
        """The labels of the last numbered list shown."""
        labels = []
        for line in reversed(self.shown):
            m = re.fullmatch(r"\s+(\d+)\. (.+)", line)
            if m:
                labels.insert(0, m.group(2))
                if m.group(1) == "1":
                    return labels
        return labels

    @property
    def text(self) -> str:
        return "\n".join(self.shown)


def test_bad_answers_are_asked_again_with_a_short_message():
    person = Person(["", "0", "99", "hello", "play HJ", "bury QC", "h", "1"])
    outcome = play(tricksim.make_game("sheepshead"), seat=1, seed=1, ask=person.ask, say=person.say)
    assert not outcome.stopped and outcome.records[0].result is not None
    lines = person.shown
    expected = ["type a number 1-2, or an action such as 'pass'", "0 is not on the list: choose 1-2",
                "99 is not on the list: choose 1-2", "'hello' is not understood", "'play HJ' is not legal now",
                "'bury QC' is not legal now", HELP.splitlines()[0]]
    at = [next(i for i, line in enumerate(lines) if line.startswith(message)) for message in expected]
    assert at == sorted(at)
    assert person.prompts[:8] == ["choose 1-2: "] * 8  # the same question each time
    assert outcome.records[0].actions[0] == "pass"  # seat 1, eldest, answered 1: pass


def test_answers_by_label_or_card_in_any_case():
    said = []

    def choose(labels):
        label = labels[-1]
        said.append(label)
        verb, _, arg = label.partition(" ")
        if verb == "play" and len(said) % 2:
            return arg.lower()  # the card alone
        return label.upper() if len(said) % 3 else label.lower()

    person = Person(choose=choose)
    outcome = play(tricksim.make_game("fiftyfive"), seat=0, seed=4, ask=person.ask, say=person.say)
    record = outcome.records[0]
    game = tricksim.make_game("fiftyfive")
    state = game.deal(**record.deal)
    mine = []
    for label in record.actions:
        if state.current_player == 0 and len(state.legal_actions()) > 1:  # a forced action is not asked
            mine.append(label)
        state.apply(label)
    assert mine == said and len(mine) >= 5
    assert "not legal" not in person.text and "not understood" not in person.text


@pytest.mark.parametrize("name, seed", [("sheepshead", s) for s in range(6)] + [("fiftyfive", 2), ("fiftyfive", 3),
                                        ("shmear", 1), ("shmear", 2), ("nesmear", 1), ("nesmear", 5), ("bluke", 1)])
def test_the_bots_cards_stay_hidden_until_the_hand_is_over(name, seed):
    """Every card named before the all-hands view is the person's, played, called, turned, or taken by
    the person (the blind, the kitty, the widow, the draw)."""
    game = tricksim.make_game(name)
    person = Person(more="y")
    outcome = play(game, seat=2, seed=seed, ask=person.ask, say=person.say)
    record = outcome.records[0]
    text = "\n".join(line for line in person.shown if line != legend(game))  # the legend names the jokers
    before, after = text.split("show all hands? [y/N] y")
    allowed = set(record.deal["hands"][2].split())
    allowed |= {c for _, cards, _ in record.tricks for c in cards}
    allowed |= {label.split()[1] for label in record.actions if label.startswith("call ")}
    allowed |= {c for line in person.shown if line.startswith("you take: ") for c in line.split()[2:]}
    if name == "bluke":
        allowed.add(record.deal["rest"].split()[0])
    named = set(CARD.findall(before))
    assert named <= allowed, named - allowed
    dealt = {c for cards in record.deal["hands"] + [record.deal["rest"]] for c in cards.split()}
    assert dealt <= set(CARD.findall(after))  # the view at the end shows them all
    if name == "nesmear" and record.result["bidder"] != 2:  # a bot's trump shows with its first lead
        secret = next(i for i, line in enumerate(person.shown) if "named in secret" in line)
        shown = next(i for i, line in enumerate(person.shown) if line.startswith("trump: "))
        first_trick = next(i for i, line in enumerate(person.shown) if line.startswith("trick 1: "))
        assert secret < shown < first_trick


def test_the_person_who_picks_sees_the_blind_and_the_bury_only_of_his_own():
    person = Person(choose=lambda labels: str(labels.index("pick") + 1) if "pick" in labels else "1")
    outcome = play(tricksim.make_game("sheepshead"), seat=1, seed=3, ask=person.ask, say=person.say)
    record = outcome.records[0]
    assert record.result["picker"] == 1
    blind = record.deal["rest"].split()
    took = next(line for line in person.shown if line.startswith("you take: "))
    assert sorted(took.split()[2:]) == sorted(blind)
    buried = [label for label in record.actions if label.startswith("bury ")]
    assert [line for line in person.shown if line.startswith("you: bury ")] == [f"you: {b}" for b in buried]


def person_turns(record, seat: int):
    """The state before each of ``seat``'s decisions in ``record``, and the label it took."""
    state = tricksim.make_game(record.game, **record.options).deal(**record.deal)
    for label in record.actions:
        if state.current_player == seat:
            yield state.clone(), label
        state.apply(label)


@pytest.mark.parametrize("name, options, seed", [("bluke", {"players": 3}, 2), ("sheepshead", {}, 4),
                                                 ("fiftyfive", {}, 5), ("nesmear", {}, 1)])
def test_a_forced_action_is_played_for_the_person_with_a_line_saying_so(name, options, seed):
    person = Person()
    outcome = play(tricksim.make_game(name, **options), seat=2, seed=seed, ask=person.ask, say=person.say)
    turns = list(person_turns(outcome.records[0], 2))
    forced = [label for state, label in turns if len(state.legal_actions()) == 1]
    assert forced and forced[-1].startswith("play ")  # the last trick at least
    assert [line for line in person.shown if line.startswith("only one legal action")] == [
        f"only one legal action: {label}" for label in forced]
    assert len(person.prompts) == len(turns) - len(forced) + 1  # the others asked, then "show all hands?"
    assert not any(prompt.startswith("choose 1-1:") for prompt in person.prompts)


@pytest.mark.parametrize("name, options, seed", [("sheepshead", {}, 3), ("sheepshead", {}, 0),
                                                 ("fiftyfive", {"teams": 5}, 2), ("shmear", {}, 1),
                                                 ("nesmear", {}, 5), ("bluke", {}, 1)])
def test_with_his_hand_the_person_sees_what_he_may_count_of_his_side(name, options, seed):
    """Each asked decision shows, under the hand, the count of the person's own view; none before
    the first trick is over."""
    game = tricksim.make_game(name, **options)
    person = Person()
    outcome = play(game, seat=2, seed=seed, ask=person.ask, say=person.say)
    expected = []
    for state, _ in person_turns(outcome.records[0], 2):
        if len(state.legal_actions()) > 1:
            count = format_count(game, state.observe(2), seat_names(game.players, you=2))
            expected += [] if count is None else [f"so far, {count}"]
            assert (count is None) == (not state.tricks())
    shown = [line for line in person.shown if line.startswith("so far, ")]
    assert shown == expected and len(shown) >= 2
    assert all(person.shown[person.shown.index(line) - 1].startswith("your hand: ") for line in shown)


@pytest.mark.parametrize("name", tricksim.games())
def test_the_game_prints_the_legend_of_the_card_labels(name):
    game = tricksim.make_game(name)
    person = Person(["h", "q"])
    play(game, seat=0, seed=1, ask=person.ask, say=person.say)
    assert person.shown.count(legend(game)) == 2  # at the start, and with the help
    assert ("HJ" in legend(game), "LJ" in legend(game)) == {"bluke": (True, True), "shmear": (False, True)}.get(
        name, (False, False))


def test_stopping_keeps_the_hand_so_far(tmp_path):
    for stop in ("q", "QUIT", EOFError(), KeyboardInterrupt()):
        person = Person(["1", "1", stop])
        path = tmp_path / "stop.json"
        outcome = play(tricksim.make_game("bluke", players=3), seat=0, seed=2, record=path, ask=person.ask,
                       say=person.say)
        assert outcome.stopped and person.shown[-1].startswith("stopped.")
        [record] = read_records(path)
        assert record == outcome.records[0] and not rebuild(record).is_terminal()
        assert len(record.actions) >= 2


def test_the_same_seed_and_answers_replay_the_same_game():
    game = tricksim.make_game("shmear")
    runs = [play(game, seat=s, seed=seed, ask=Person().ask, say=Person().say).records[0]
            for s, seed in ((3, 9), (3, 9), (3, 10))]
    assert runs[0] == runs[1] and runs[0].deal != runs[2].deal


def test_a_match_plays_to_the_end_rule_and_records_every_hand(tmp_path):
    game = tricksim.make_game("sheepshead", hands=5, no_pick="doubler")
    person = Person()
    path = tmp_path / "match.json"
    outcome = play(game, seat=4, seed=7, match=True, record=path, ask=person.ask, say=person.say)
    counted = [r for r in outcome.records if not r.result["thrown_in"]]
    assert len(counted) == 5 and not outcome.stopped
    assert [r.deal["doubled"] for r in outcome.records].count(True) == len(outcome.records) - 5 > 0  # a doubler
    assert outcome.totals == [sum(r.scores[p] for r in outcome.records) for p in range(5)]
    assert outcome.winners == [p for p in range(5) if outcome.totals[p] == max(outcome.totals)]
    assert read_records(path) == outcome.records and [r.hand for r in outcome.records] == list(range(len(
        outcome.records)))
    assert Path(tmp_path / "match.txt").read_text().count("sheepshead hand;") == len(outcome.records)
    assert sum("match totals:" in line for line in person.shown) == len(outcome.records)
    assert person.shown[-1].startswith("show all hands") and any(line.startswith("match over;") for line in
                                                                  person.shown)


def test_a_match_cut_off_at_its_limit_says_so():
    person = Person()
    outcome = play(tricksim.make_game("nesmear", max_hands=2), seat=1, seed=4, match=True, ask=person.ask,
                   say=person.say)
    over = [line for line in person.shown if line.startswith("match over")]
    assert len(outcome.records) == 2 and over == [over[0]] and "at its 2-deal limit (the best totals win)" in over[0]


def test_search_bots():
    person = Person()
    outcome = play(tricksim.make_game("nesmear"), seat=0, opponents="ismcts:iters=30", seed=1, ask=person.ask,
                   say=person.say)
    record = outcome.records[0]
    assert record.agents == ["person"] + ["ismcts:iters=30"] * 3
    assert rebuild(record).scores() == outcome.scores


def run(argv) -> int:
    try:
        return main([str(a) for a in argv])
    except SystemExit as exit_:
        return exit_.code


@pytest.mark.parametrize("argv, problem", [
    (["play", "bluke", "--seat", "4"], "seat 4 is not a seat"),
    (["play", "euchre"], "no game 'euchre'"),
    (["play", "bluke", "--opponents", "genius"], "no agent 'genius'"),
    (["play", "bluke", "--record", "hand.txt"], "name the JSON file"),
    (["play", "bluke", "--record", "no/such/folder/hand.json"], "no folder"),
    (["play", "sheepshead", "--set", "players=4"], "players = '4' is not allowed"),
])
def test_play_refuses_bad_arguments(argv, problem, capsys):
    assert run(argv) == 2
    assert problem in capsys.readouterr().err


# --- the real command in a pseudo-terminal ----------------------------------------------------


@pytest.fixture
def pexpect():
    return pytest.importorskip("pexpect")


def _interruptible():
    # Ctrl-C as at a terminal, also where the suite runs with SIGINT ignored (a background job,
    # nohup), which the command would inherit: Python installs its handler only where it is not
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(pexpect, args, tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1", COLUMNS="200")
    return pexpect.spawn(sys.executable, ["-m", "tricksim.cli", "play", *args], cwd=str(tmp_path), env=env,
                         encoding="utf-8", timeout=900, dimensions=(50, 200), preexec_fn=_interruptible)


SCORES = re.compile(r"^scores: (.+?)\r?$", re.M)


@pytest.mark.parametrize("name, options, illegal", [("sheepshead", [], "play HJ"),
                                                    ("bluke", ["--set", "players=3"], "bury QC")])
def test_a_whole_hand_in_a_terminal(name, options, illegal, tmp_path, pexpect):
    child = spawn(pexpect, [name, "--seat", "1", "--seed", "5", "--record", "hand.json", *options], tmp_path)
    child.expect(r"choose 1-(\d+): ")
    n = int(child.match.group(1))
    for answer, reply in (("", "type a number"), (str(n + 1), "is not on the list"), ("gibberish", "not understood"),
                          (illegal, "is not legal now")):
        child.sendline(answer)
        child.expect(reply)
        child.expect(r"choose 1-\d+: ")  # asked again
    transcript = []
    while True:
        child.sendline("1")
        which = child.expect([r"choose 1-\d+: ", r"show all hands\? \[y/N\] "])
        transcript.append(child.before)
        if which == 1:
            break
    child.sendline("y")
    child.expect(r"hands as dealt:")
    child.expect(r"wrote hand.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    shown = "".join(transcript)
    [record] = read_records(tmp_path / "hand.json")
    scores = SCORES.findall(shown)[-1]
    names = ["you" if p == 1 else f"seat {p}" for p in range(len(record.scores))]
    assert scores == ", ".join(f"{n} {s:+d}" if s else f"{n} 0" for n, s in zip(names, record.scores))
    assert rebuild(record).scores() == record.scores and (tmp_path / "hand.txt").exists()
    assert len(record.tricks) == len(re.findall(r"^trick \d+: .*; (?:seat \d wins|you win)", shown, re.M))


@pytest.mark.parametrize("stop", ["q", "Ctrl-C", "Ctrl-D"])
def test_quitting_in_a_terminal_is_clean(stop, tmp_path, pexpect):
    child = spawn(pexpect, ["nesmear", "--seed", "2"], tmp_path)
    child.expect(r"choose 1-\d+: ")
    {"q": lambda: child.sendline("q"), "Ctrl-C": child.sendintr, "Ctrl-D": child.sendeof}[stop]()
    child.expect("stopped.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before
