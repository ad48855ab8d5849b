"""Hand records: random hands of every game round-trip through JSON and rebuild exactly; a simulated
hand's record is the row ``simulate`` wrote; bad files are refused by name; the text form and
``tricksim replay``."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import tricksim
from tricksim.cli import main
from tricksim.records import (
    HandRecord,
    RecordError,
    format_record,
    read_record,
    read_records,
    rebuild,
    simulated_record,
    write_json,
)

# every game, and the options that change what a deal holds (the stock's order, the widow, Bluke's sizes)
CASES = [("sheepshead", {}), ("sheepshead", {"no_pick": "doubler"}), ("fiftyfive", {}),
         ("fiftyfive", {"exchange": 2, "players": 7}), ("shmear", {}), ("nesmear", {}), ("nesmear", {"widow": 1}),
         ("bluke", {}), ("bluke", {"players": 7})]


def random_hand(game, i: int, rng):
    """Hand ``i`` of seed ``i`` (Bluke: match hand ``i % match_hands``; Sheepshead: every third a doubler
    play-off) played out at random, and its record."""
    if game.name == "bluke":
        state = game.new_hand(seed=i, dealer=i % game.players, hand=i % game.match_hands)
    elif game.name == "sheepshead":
        state = game.new_hand(seed=i, dealer=i % game.players, doubled=i % 3 == 0)
    else:
        state = game.new_hand(seed=i, dealer=i % game.players)
    record = HandRecord.start(state, seed=i, hand=i)
    while not state.is_terminal():
        state.apply(int(rng.choice(state.legal_actions())))
    return state, record.with_play(state)


def unread_slots(state) -> np.ndarray:
    """The slots of ``state``'s array that no rule reads for this hand, where a dealt and a hand-made
    state may differ: Fifty-five's stock order without an exchange, the smears' rest order past the
    undealt cards, who played the cards never played and the trick slots of seats the table lacks,
    Bluke's match hand number (``game.deal`` takes only the size)."""
    game, K, s = state.game, state.game.kernels, state.array
    out = np.zeros(len(s), dtype=bool)
    if game.name == "fiftyfive" and not game.options["exchange"]:
        out[K.STOCK_ORDER:K.STOCK_ORDER + K.MAX_STOCK] = True
    elif game.name in ("shmear", "nesmear"):
        undealt = int(K.DECK_MASKS[game.variant]).bit_count() - K.HAND_SIZE * game.players
        out[K.REST_ORDER + undealt:K.REST_ORDER + K.MAX_REST] = True
        played = {tricksim.cards.parse_card(c) for _, cards, _ in state.tricks() for c in cards}
        out[[K.PLAYED_BY + c for c in range(54) if c not in played]] = True
        for t in range(K.NUM_TRICKS):  # the card slots of the seats a table lacks; a thrown-in hand's tricks
            slot = K.TRICKS + t * K.TRICK_SLOTS
            out[slot + 1 + game.players:slot + K.TRICK_SLOTS - 1] = True
            out[slot:slot + K.TRICK_SLOTS] |= t >= len(state.tricks())
    elif game.name == "bluke":
        out[K.HAND_NO] = True
    return out


@pytest.mark.parametrize("name, options", CASES)
def test_random_hands_round_trip_through_json_and_rebuild_exactly(name, options, tmp_path):
    game = tricksim.make_game(name, **options)
    rng = np.random.default_rng(7)
    for i in range(25):
        state, record = random_hand(game, i, rng)
        path = write_json(record, tmp_path / f"{i}.json")
        back = read_record(path)
        assert back == record
        rebuilt = rebuild(back)
        same = rebuilt.array == state.array
        assert (same | unread_slots(state)).all(), np.flatnonzero(~same)
        assert rebuilt.scores() == state.scores() == back.scores
        assert rebuilt.tricks() == state.tricks() and rebuilt.result() == state.result()
        assert [rebuilt.observe(p) for p in range(game.players)] == [state.observe(p) for p in range(game.players)]
        assert rebuilt.history == state.history


def test_a_record_holds_the_deal_as_dealt_and_every_option():
    game = tricksim.make_game("sheepshead")
    state = game.new_hand(seed=7, dealer=0)
    dealt = [str(state.hand(p)) for p in range(5)]
    blind = str(tricksim.cards.CardSet.from_mask(int(state.array[game.kernels.BLIND])))
    record = HandRecord.start(state, seed=7, hand=0)
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    record = record.with_play(state)
    assert record.deal == {"hands": dealt, "rest": blind, "dealer": 0, "doubled": False}
    assert set(record.options) == set(game.OPTIONS)
    assert [str(state.hand(p)) for p in range(5)] != dealt  # the hands were played away, the record kept them
    with pytest.raises(RecordError, match="before the first action"):
        HandRecord.start(state)


def test_an_unfinished_hand_is_recorded_and_rebuilt():
    state = tricksim.make_game("shmear").new_hand(seed=2, dealer=1)
    record = HandRecord.start(state)
    for _ in range(30):
        state.apply(state.legal_actions()[-1])
    assert not state.is_terminal() and state.array[state.game.kernels.IN_TRICK] > 0  # in mid-trick
    record = record.with_play(state)
    rebuilt = rebuild(record)
    assert rebuilt.current_player == state.current_player and rebuilt.legal_labels() == state.legal_labels()
    assert "in progress" in format_record(record)


def test_a_bluke_deal_of_any_match_hand_rebuilds():
    """game.deal takes the hand size from the hands: the way up (hand 20: 9 cards) as the way down."""
    game = tricksim.make_game("bluke")
    for number in (0, 12, 20, 24):
        state, record = random_hand(game, number, np.random.default_rng(number))
        assert len(record.deal["hands"][0].split()) == game.hand_size(number)
        assert rebuild(record).scores() == state.scores()


# --- simulated hands ------------------------------------------------------------------------


def _row(result: dict) -> dict:
    """``State.result()`` flattened to ``simulate``'s columns (lists become one column per seat)."""
    columns = {"scores": "score", "bids": "bid", "taken": "taken", "game_points": "game_points"}
    out = {}
    for key, value in result.items():
        if isinstance(value, list):
            out.update({f"{columns[key]}_{k}": v for k, v in enumerate(value)})
        else:
            out[key] = value
    return out


@pytest.mark.parametrize("agents", ["random", "heuristic"])
@pytest.mark.parametrize("name, options", [(n, o) for n, o in CASES if n != "sheepshead" or not o])
def test_a_simulated_record_is_the_row_simulate_wrote(name, options, agents):
    seed = 11
    df = tricksim.simulate(name, hands=30, seed=seed, agents=agents, progress=False, **options)
    compared = 0
    for i in (0, 1, 7, 13, 29):
        record = simulated_record(name, seed, i, agents, **options)
        assert rebuild(record).scores() == record.scores
        assert (record.seed, record.hand, record.deal["dealer"]) == (seed, i, i % df.filter(like="score_").shape[1])
        row = df.iloc[i]
        for column, value in _row(record.result).items():
            if column in row.index:
                expected = None if pd.isna(row[column]) else row[column]
                assert value == expected, (i, column)
                compared += 1
    assert compared >= 5 * 4


def test_a_simulated_record_refuses_search_agents():
    with pytest.raises(ValueError, match="pimc:worlds=5 is not supported"):
        simulated_record("nesmear", 0, 0, "heuristic,pimc:worlds=5,heuristic,heuristic")


# --- bad records --------------------------------------------------------------------------------


@pytest.fixture
def good(tmp_path):
    """A finished Fifty-five hand's record as JSON data, and a function writing changed copies."""
    record = simulated_record("fiftyfive", seed=3, hand=4, agents="heuristic")
    data = record.to_dict()

    def write(change, name="bad.json"):
        changed = json.loads(json.dumps(data))
        change(changed)
        path = tmp_path / name
        path.write_text(json.dumps(changed))
        return path

    return data, write


def _delete(key):
    return lambda d: d.pop(key)


def _set(path, value):
    def change(d):
        *outer, last = path
        for key in outer:
            d = d[key]
        d[last] = value
    return change


def _swap_card(d):
    d["deal"]["hands"][0] = d["deal"]["hands"][0].replace(d["deal"]["hands"][0].split()[0], "ZZ")


def _illegal_action(d):
    d["actions"][0] = "play 2C" if d["actions"][0] != "play 2C" else "play 3C"


def _tamper_score(d):
    d["scores"][0] += 5


@pytest.mark.parametrize("change, problem", [
    (_set(["format"], "something else"), "not a tricksim hand record"),
    (_set(["version"], 9), "version 9 is not supported"),
    (_delete("scores"), "no 'scores' field"),
    (_delete("deal"), "no 'deal' field"),
    (_set(["deal", "hands"], "QC"), "'hands' must be a list"),
    (_swap_card, "'ZZ' is not a card"),
    (_set(["deal", "rest"], ""), "rest needs"),
    (_set(["game"], "euchre"), r"unknown game 'euchre' \(tricksim plays: bluke, fiftyfive, nesmear, sheepshead, "
                               r"shmear\)"),
    (_set(["options", "exchange"], 9), "exchange = 9 is not allowed"),
    (lambda d: d["options"].pop("target"), "'target' is missing"),
    (lambda d: d["options"].update(kitty=3), "no option 'kitty'"),
    (_illegal_action, "action 1 .* is not legal"),
    (lambda d: d["actions"].pop(), "the actions stop after .* the hand is not over"),
    (_tamper_score, "seat 0's score differs"),
    (lambda d: d["result"].update(bid=60), "the result's bid differs: the record says 60"),
    (_set(["surprise"], 1), "unknown field 'surprise'"),
])
def test_a_bad_record_is_refused_naming_the_file_and_the_problem(good, change, problem):
    path = good[1](change)
    before = path.read_bytes()
    with pytest.raises(RecordError, match=problem) as caught:
        read_record(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == before


def _trick(number, slot, value):
    def change(d):
        d["tricks"][number - 1][slot] = value(d["tricks"][number - 1][slot])
    return change


def _trick_card(number, k, card):
    def change(d):
        d["tricks"][number - 1][1][k - 1] = card
    return change


@pytest.mark.parametrize("change, problem", [
    (_trick(3, 2, lambda w: (w + 1) % 5), "trick 3 differs: the record says winner {w3}, the rules give winner "
     "{winner3}"),
    (_trick(2, 0, lambda w: (w + 2) % 5), "trick 2 differs: the record says leader {l2}, the rules give leader "
     "{leader2}"),
    (_trick_card(5, 2, "2C"), "trick 5, card 2 differs: the record says 2C, the rules give {card52}"),
    (_trick(4, 1, lambda cards: cards[:4]), "trick 4 differs: the record says 4 cards, the rules give 5"),
    (lambda d: d["tricks"].pop(), "the number of tricks differs: the record says 4, the rules give 5"),
    (lambda d: d["scores"].__setitem__(3, d["scores"][3] + 7), "seat 3's score differs: the record says {s3}, "
     "the rules give {score3}"),
    (lambda d: d["scores"].pop(), "the number of scores differs: the record says 4, the rules give 5"),
    (lambda d: d["result"].update(trump="H" if d["result"]["trump"] != "H" else "C"),
     "the result's trump differs: the record says {trump}, the rules give {true_trump}"),
    (lambda d: d["result"].pop("outcome"), "the result has no 'outcome'; the rules give {outcome}"),
    (lambda d: d["result"].update(luck=1), "the result has an unknown entry 'luck'"),
])
def test_an_edited_record_names_the_first_trick_score_or_result_entry_that_differs(good, change, problem):
    """The message names the place and both values: the edited one, and the one the rules give."""
    data, write = good
    edited = json.loads(json.dumps(data))
    change(edited)
    true = data["tricks"]
    values = {"w3": edited["tricks"][2][2], "winner3": true[2][2], "l2": edited["tricks"][1][0], "leader2": true[1][0],
              "card52": true[4][1][1], "s3": edited["scores"][3] if len(edited["scores"]) > 3 else None,
              "score3": data["scores"][3], "trump": edited["result"].get("trump"),
              "true_trump": data["result"]["trump"],
              "outcome": data["result"]["outcome"]}
    path = write(change, "hand.json")
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert str(caught.value) == f"{path}: " + problem.format(**values)


def test_a_result_list_names_the_seat_or_team_that_differs(tmp_path):
    record = simulated_record("shmear", seed=3, hand=4, agents="heuristic")
    data = json.loads(json.dumps(record.to_dict()))
    data["result"]["game_points"][1] += 50
    data["result"]["scores"][4] += 1  # a later entry: the first difference is named
    path = tmp_path / "shmear.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=r"the result's game_points of seats 1\+4 differs: the record says "
                       f"{data['result']['game_points'][1]}, the rules give {record.result['game_points'][1]}$"):
        read_record(path)


@pytest.mark.parametrize("kept", [1, 17, -1])
def test_a_record_whose_actions_stop_early_says_so(good, kept):
    data, write = good
    actions = data["actions"][:kept]
    path = write(lambda d: d.update(actions=actions), "short.json")
    state = tricksim.make_game("fiftyfive").deal(**data["deal"])
    for label in actions:
        state.apply(label)
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert str(caught.value) == (f"{path}: the actions stop after {len(actions)} of the hand's decisions; the hand is "
                                 f"not over: seat {state.current_player} is to act")


def test_an_unknown_game_is_named_before_the_deal_is_checked(tmp_path):
    """A Sheepshead deal has a field the other games' deals lack ('doubled'): the game is checked first."""
    data = simulated_record("sheepshead", seed=1, hand=0, agents="heuristic").to_dict()
    data["game"] = "foo"
    path = tmp_path / "foo.json"
    path.write_text(json.dumps(data))
    message = "unknown game 'foo' (tricksim plays: bluke, fiftyfive, nesmear, sheepshead, shmear)"
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert str(caught.value) == f"{path}: {message}"
    with pytest.raises(RecordError) as caught:
        rebuild(HandRecord("foo", {}, data["deal"]))
    assert str(caught.value) == message


def test_replay_of_an_edited_record_names_the_file_and_the_trick(tmp_path, capsys):
    record = simulated_record("nesmear", seed=2, hand=1, agents="heuristic")
    data = record.to_dict()
    winner = data["tricks"][2][2]
    data["tricks"][2][2] = (winner + 1) % 4
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data))
    assert run(["replay", path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip().endswith(f"{path}: trick 3 differs: the record says winner {(winner + 1) % 4}, "
                                              f"the rules give winner {winner}")


def test_files_that_are_not_records(tmp_path, good):
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(json.dumps(good[0])[:200])
    with pytest.raises(RecordError, match=f"{corrupt}: not a JSON hand record"):
        read_record(corrupt)
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(RecordError, match="empty list"):
        read_records(tmp_path / "list.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(RecordError, match="not a JSON hand record"):
        read_record(binary)
    with pytest.raises(FileNotFoundError):
        read_record(tmp_path / "missing.json")
    two = write_json([HandRecord.from_dict(good[0])] * 2, tmp_path / "two.json")
    assert len(read_records(two)) == 2
    with pytest.raises(RecordError, match="holds 2 records"):
        read_record(two)
    bad_second = json.loads(two.read_text())
    bad_second[1]["scores"][0] += 1
    two.write_text(json.dumps(bad_second))
    with pytest.raises(RecordError, match="record 2: seat 0's score differs"):
        read_records(two)


# --- the text form --------------------------------------------------------------------------


@pytest.mark.parametrize("name", tricksim.games())
def test_the_text_form_shows_the_deal_every_decision_and_trick_in_order_and_the_scores(name):
    record = simulated_record(name, seed=5, hand=3, agents="heuristic")
    lines = format_record(record).splitlines()
    dealt = lines[lines.index("hands as dealt:") + 1:lines.index("play:")]
    play = [line.strip() for line in lines[lines.index("play:") + 1:] if line.startswith("  ")]
    for p, cards in enumerate(record.deal["hands"]):
        assert dealt[p].split()[:2] == ["seat", f"{p}:"] and sorted(dealt[p].split()[2:]) == sorted(cards.split())
    state = tricksim.make_game(name).deal(**record.deal)  # the events, step by step
    n, expected = state.game.players, []
    for label in record.actions:
        seat = state.current_player
        state.apply(label)
        if not label.startswith("play "):
            expected.append(f"seat {seat}: {label}")
        elif state.array[state.game.kernels.IN_TRICK] == 0:
            number = len(state.tricks())
            leader, cards, winner = state.tricks()[-1]
            played = ", ".join(f"seat {(leader + k) % n} {c}" for k, c in enumerate(cards))
            expected.append(f"trick {number}: {played}; seat {winner} wins")
    assert play == expected and sum(line.startswith("trick ") for line in play) == len(state.tricks()) > 0
    scores = [f"seat {p} {s:+d}" if s else f"seat {p} 0" for p, s in enumerate(record.scores)]
    assert lines[-1] == "scores: " + ", ".join(scores)


def test_the_text_form_sorts_each_hand_trumps_first():
    record = simulated_record("sheepshead", seed=5, hand=3, agents="heuristic")
    text = format_record(record)
    assert "  seat 2: QH JC JD KD  AS 7S" in text
    assert "seat 0: bury TC" in text and "  blind: 7D  TC" in text


# --- tricksim replay -------------------------------------------------------------------------


def run(argv) -> int:
    try:
        return main([str(a) for a in argv])
    except SystemExit as exit_:
        return exit_.code


def test_replay_shows_a_record_file(tmp_path, capsys):
    record = simulated_record("bluke", seed=1, hand=2, agents="heuristic")
    path = write_json(record, tmp_path / "hand.json")
    assert run(["replay", path]) == 0
    out, err = capsys.readouterr()
    assert out == format_record(record) and err == ""
    assert "trick 11:" in out and "scores: seat 0 " in out


def test_replay_shows_and_writes_a_simulated_hand(tmp_path, capsys):
    out_json, out_text = tmp_path / "h.json", tmp_path / "h.txt"
    argv = ["replay", "--game", "sheepshead", "--seed", 4, "--hand", 17, "--agents", "heuristic",
            "--out", out_json, "--text", out_text]
    assert run(argv) == 0
    out, _ = capsys.readouterr()
    record = simulated_record("sheepshead", 4, 17, "heuristic")
    assert read_record(out_json) == record
    assert out_text.read_text() == format_record(record) and out.startswith(format_record(record))
    assert run(["replay", "--game", "fiftyfive", "--set", "exchange=1", "--hand", 2]) == 0
    assert "options: exchange=1" in capsys.readouterr()[0]


@pytest.mark.parametrize("argv, problem", [
    (["replay", "{missing}"], "No such file"),
    (["replay", "{corrupt}"], "not a JSON hand record"),
    (["replay", "{corrupt}", "--game", "bluke"], "give a record FILE, or --game"),
    (["replay"], "give a record FILE, or --game"),
    (["replay", "{good}", "--seed", "3"], "--seed goes with --game"),
    (["replay", "--game", "euchre"], "no game 'euchre'"),
    (["replay", "--game", "bluke", "--agents", "ismcts"], "ismcts is not supported"),
    (["replay", "--game", "bluke", "--hand", "-1"], "hand >= 0"),
])
def test_replay_errors_exit_2_and_write_nothing(tmp_path, capsys, argv, problem):
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"format": "tricksim hand record", ')
    good = write_json(simulated_record("nesmear", 0, 0), tmp_path / "good.json")
    paths = {"missing": tmp_path / "missing.json", "corrupt": corrupt, "good": good}
    out = tmp_path / "out.json"
    code = run([a.format(**paths) for a in argv] + ["--out", out])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("tricksim: error: ") and problem in err
    assert not out.exists()
