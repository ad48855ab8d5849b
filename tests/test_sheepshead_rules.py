"""Worked Sheepshead hands, each pinning one rule of docs/rules.md (All games, Sheepshead).

Every deal here was made by hand and every legal-move list, trick winner and score below was
worked out by hand from the rule book (never copied from the engine's output); the point
arithmetic sits in the comments beside each trick.

Card points: A 11, T 10, K 4, Q 3, J 2, 9/8/7 0 (120 in the deck).
Trumps, high to low: QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D.
Seats 0..4 clockwise; unless said otherwise the dealer is seat 4, so seat 0 is eldest: he speaks
first in the picking and leads the first trick.  A trick is written as its five cards in play
order, starting with the leader.
"""

import pytest

import tricksim

# ---------------------------------------------------------------------------------------------
# helpers


def legal(state):
    return sorted(state.legal_labels())


def step(state, label, seat=None):
    """Apply one action after checking that it is legal now (and, if given, whose turn it is)."""
    if seat is not None:
        assert state.current_player == seat, f"expected seat {seat} to act before {label!r}"
    labels = state.legal_labels()
    assert label in labels, (
        f"{label!r} is not legal for seat {state.current_player}; legal: {sorted(labels)}"
    )
    state.apply(label)


def run(state, labels):
    for label in labels:
        step(state, label)


def play_tricks(state, tricks):
    """Play whole tricks, each a string of its five cards in play order."""
    for trick in tricks:
        for card in trick.split():
            step(state, "play " + card)


def tricks_of(state):
    return [(leader, list(cards), winner) for leader, cards, winner in state.tricks()]


def winners(state):
    return [winner for _, _, winner in state.tricks()]


def deal(hands, rest, dealer=4, doubled=False, **options):
    game = tricksim.make_game("sheepshead", **options)
    return game.deal(hands=hands, rest=rest, dealer=dealer, doubled=doubled)


def check_result(state, **expected):
    result = state.result()
    for key, value in expected.items():
        assert result[key] == value, f"result[{key!r}] is {result[key]!r}, expected {value!r}"
    assert result["scores"] == state.scores()


# ---------------------------------------------------------------------------------------------
# Deal A: seat 2 picks, buries TD KD (14 points) and calls AH; seat 4 holds AH.

DEAL_A = [
    "QD JS TC 9C TS 9H",  # 0
    "JH 7D AC KC 8S TH",  # 1
    "QC QS JC AD 7H 9S",  # 2  picker
    "JD 8D 7C AS KH 8H",  # 3
    "AH QH 9D 8C KS 7S",  # 4  holds the called AH
]
BLIND_A = "TD KD"

TRICKS_A = [
    "TC AC QS 7C 8C",  # 0 leads; picker trumps: 10+11+3+0+0 = 24 to seat 2
    "7H 8H AH 9H TH",  # 2 leads his hold card; AH wins: 0+0+11+0+10 = 21 to seat 4
    "KS TS 8S 9S AS",  # 4 leads; 4+10+0+0+11 = 25 to seat 3
    "KH 7S 9C KC JC",  # 3 leads; picker trumps: 4+0+0+4+2 = 10 to seat 2
    "AD 8D 9D QD 7D",  # 2 leads; QD is highest: 11+0+0+3+0 = 14 to seat 0
    "JS JH QC JD QH",  # 0 leads; QC: 2+2+3+2+3 = 12 to seat 2
]
EXPECTED_TRICKS_A = [
    (0, ["TC", "AC", "QS", "7C", "8C"], 2),
    (2, ["7H", "8H", "AH", "9H", "TH"], 4),
    (4, ["KS", "TS", "8S", "9S", "AS"], 3),
    (3, ["KH", "7S", "9C", "KC", "JC"], 2),
    (2, ["AD", "8D", "9D", "QD", "7D"], 0),
    (0, ["JS", "JH", "QC", "JD", "QH"], 2),
]


def start_a(call="call AH", **options):
    state = deal(DEAL_A, BLIND_A, **options)
    assert legal(state) == ["pass", "pick"]
    step(state, "pass", seat=0)
    step(state, "pass", seat=1)
    step(state, "pick", seat=2)
    assert legal(state) == [
        "bury 7H", "bury 9S", "bury AD", "bury JC", "bury KD", "bury QC", "bury QS", "bury TD",
    ]
    step(state, "bury TD", seat=2)
    step(state, "bury KD", seat=2)
    # hearts: holds 7H, not AH -> AH; spades: holds 9S -> AS; no fail club (QC, JC are trumps)
    assert legal(state) == ["alone", "call AH", "call AS"]
    step(state, call, seat=2)
    return state


def test_called_ace_hand_played_to_its_final_score():
    state = start_a()
    assert state.current_player == 0  # eldest leads
    play_tricks(state, TRICKS_A)
    assert state.is_terminal()
    assert state.current_player is None
    assert tricks_of(state) == EXPECTED_TRICKS_A
    # picker side (seats 2 and 4): 24 + 21 + 10 + 12 + bury 14 = 81; defenders 25 + 14 = 39.
    # 61..90 -> win, m = 1: picker +2, partner +1, defenders -1 each.
    assert state.scores() == [-1, -1, 2, -1, 1]
    check_result(state, picker=2, partner=4, called="AH", alone=False, leaster=False,
                 thrown_in=False, picker_points=81, outcome="win", multiplier=1)


def test_alone_scoring_and_no_hold_card_when_alone():
    state = start_a(call="alone")
    step(state, "play TC", seat=0)
    step(state, "play AC", seat=1)
    # alone there is no called suit, so 7H may be discarded on the club lead
    assert legal(state) == ["play 7H", "play 9S", "play AD", "play JC", "play QC", "play QS"]
    for card in TRICKS_A[0].split()[2:]:
        step(state, "play " + card)
    play_tricks(state, TRICKS_A[1:])
    assert tricks_of(state) == EXPECTED_TRICKS_A
    # picker alone: 24 + 10 + 12 + bury 14 = 60 -> 60-60 is a loss, m = 1:
    # picker -4, each of the four others +1.
    assert state.scores() == [1, 1, -4, 1, 1]
    check_result(state, picker=2, partner=None, alone=True, picker_points=60, outcome="loss",
                 multiplier=1)


def test_alone_loss_with_double_on_bump():
    state = start_a(call="alone", double_on_bump=True)
    play_tricks(state, TRICKS_A)
    # same 60-point loss, doubled: picker -8, others +2
    assert state.scores() == [2, 2, -8, 2, 2]


# ---------------------------------------------------------------------------------------------
# Deal B: hold card and called-card constraints.  Seat 1 picks, buries TD KD (14), calls AH;
# seat 3 holds AH and 8H (and no club).

DEAL_B = [
    "AC JS JH TS KS 9H",  # 0
    "QS QC 7D 8S 9S 7H",  # 1  picker, 7H is his only heart
    "8C TC 9C AS 9D 8D",  # 2
    "AH 8H QD AD TH 7S",  # 3  partner
    "7C KC JD QH JC KH",  # 4
]
BLIND_B = "TD KD"


def start_b():
    state = deal(DEAL_B, BLIND_B)
    step(state, "pass", seat=0)
    step(state, "pick", seat=1)
    run(state, ["bury TD", "bury KD"])
    assert legal(state) == ["alone", "call AH", "call AS"]
    step(state, "call AH", seat=1)
    return state


def test_hold_card_and_called_ace_when_hearts_are_never_led():
    state = start_b()
    step(state, "play AC", seat=0)
    # picker void in clubs: anything but his last heart
    assert legal(state) == ["play 7D", "play 8S", "play 9S", "play QC", "play QS"]
    step(state, "play QS")
    step(state, "play 8C")
    # partner void in clubs: anything but the called ace (other hearts are fine)
    assert state.current_player == 3
    assert legal(state) == ["play 7S", "play 8H", "play AD", "play QD", "play TH"]
    step(state, "play 8H")
    step(state, "play 7C")  # QS wins: 11+3+0+0+0 = 14 to the picker

    # the picker may lead his hold card
    assert state.current_player == 1
    assert legal(state) == ["play 7D", "play 7H", "play 8S", "play 9S", "play QC"]
    play_tricks(state, [
        "QC 9D QD JC JS",  # QC wins: 3+0+3+2+2 = 10 to the picker
        "7D 8D AD QH JH",  # QH wins: 0+0+11+3+2 = 16 to seat 4
    ])
    step(state, "play KC", seat=4)
    step(state, "play 9H", seat=0)  # a heart discarded: hearts are still not *led*
    assert legal(state) == ["play 8S", "play 9S"]  # picker: still not 7H
    step(state, "play 8S", seat=1)
    step(state, "play TC", seat=2)
    assert legal(state) == ["play 7S", "play TH"]  # partner: still not AH
    step(state, "play TH", seat=3)  # TC wins: 4+0+0+10+10 = 24 to seat 2

    step(state, "play 9C", seat=2)
    assert legal(state) == ["play 7S"]
    step(state, "play 7S", seat=3)
    step(state, "play KH", seat=4)
    step(state, "play TS", seat=0)
    assert legal(state) == ["play 9S"]  # trick 5 of 6: the hold card is still kept
    step(state, "play 9S", seat=1)  # 9C wins: 0+0+4+10+0 = 14 to seat 2

    # last trick: hearts never led, so both hearts go now, on a spade lead
    step(state, "play AS", seat=2)
    assert legal(state) == ["play AH"]
    step(state, "play AH", seat=3)
    step(state, "play JD", seat=4)
    step(state, "play KS", seat=0)
    assert legal(state) == ["play 7H"]
    step(state, "play 7H", seat=1)  # JD trumps: 11+11+2+4+0 = 28 to seat 4
    assert state.is_terminal()
    assert winners(state) == [1, 1, 4, 2, 2, 4]
    assert tricks_of(state)[5] == (2, ["AS", "AH", "JD", "KS", "7H"], 4)
    # picker side: 14 + 10 + bury 14 = 38 (defenders 16+24+14+28 = 82): loss, m = 1
    assert state.scores() == [1, -2, 1, -1, 1]
    check_result(state, picker=1, partner=3, called="AH", picker_points=38, outcome="loss",
                 multiplier=1)


def test_partner_leads_only_with_the_called_ace_and_must_play_it_when_led():
    state = start_b()
    step(state, "play AC", seat=0)
    step(state, "play 8S", seat=1)
    step(state, "play 8C", seat=2)
    step(state, "play QD", seat=3)  # the partner trumps in and wins: 11+0+0+3+0 = 14
    step(state, "play 7C", seat=4)
    assert winners(state) == [3]
    # partner on lead holding AH 8H TH: hearts may be led only with the ace
    assert state.current_player == 3
    assert legal(state) == ["play 7S", "play AD", "play AH"]
    play_tricks(state, [
        "7S KC KS 9S AS",  # AS wins: 0+4+4+0+11 = 19 to seat 2
        "9D AD JD JH QS",  # QS wins: 0+11+2+2+3 = 18 to the picker
    ])
    # the picker leads his hold card: that is hearts being led
    assert legal(state) == ["play 7D", "play 7H", "play QC"]
    step(state, "play 7H", seat=1)
    step(state, "play TC", seat=2)
    assert legal(state) == ["play AH"]  # must play the called ace although he holds 8H, TH
    step(state, "play AH", seat=3)
    step(state, "play KH", seat=4)
    step(state, "play 9H", seat=0)  # AH wins: 0+10+11+4+0 = 25 to seat 3
    play_tricks(state, [
        "TH JC TS 7D 9C",  # JC wins: 10+2+10+0+0 = 22 to seat 4
        "QH JS QC 8D 8H",  # QC wins: 3+2+3+0+0 = 8 to the picker
    ])
    assert winners(state) == [3, 2, 1, 3, 4, 1]
    # picker side: 14 + 18 + 25 + 8 + bury 14 = 79 (defenders 19 + 22 = 41): win, m = 1
    assert state.scores() == [-1, 2, -1, 1, -1]
    check_result(state, picker=1, partner=3, picker_points=79, outcome="win", multiplier=1)


# ---------------------------------------------------------------------------------------------
# The call


# Deal C: seat 0's eight cards after the pick are QC JD 7C 9S KS AH + TD 8H.
DEAL_C = [
    "QC JD 7C 9S KS AH",
    "QS QH QD JC JS JH",
    "AD KD 9D 8D 7D AC",
    "TC KC 9C 8C AS TS",
    "8S 7S TH KH 9H 7H",
]
BLIND_C = "TD 8H"
# Deal C2: the same with AH and 7H swapped, so the picker holds no fail ace at all.
DEAL_C2 = [
    "QC JD 7C 9S KS 7H",
    "QS QH QD JC JS JH",
    "AD KD 9D 8D 7D AC",
    "TC KC 9C 8C AS TS",
    "8S 7S TH KH 9H AH",
]
# Deal T: seat 1's eight cards are AC AS AH TC 7H QC + JD KD: he holds all three fail aces.
DEAL_T = [
    "8H KH 9C 8C 7C QS",
    "AC AS AH TC 7H QC",
    "TH 9H QH QD JC TS",
    "JS JH AD TD KC KS",
    "9D 8D 7D 9S 8S 7S",
]
BLIND_T = "JD KD"
# Deal U: seat 0's eight cards are QC TD AS 9S AH 8H + 7D 9D.
DEAL_U = [
    "QC TD AS 9S AH 8H",  # 0  picker
    "7C QS JD KD TS 8S",  # 1
    "AC TC JC 9H 7H KS",  # 2  holds AC
    "8D QH AD TH KH 7S",  # 3  no club
    "KC 9C 8C QD JS JH",  # 4
]
BLIND_U = "7D 9D"
# Deal E: seat 0's eight cards are QC QS QH QD JC 7H + JS JH.
DEAL_E = [
    "QC QS QH QD JC 7H",  # 0  picker
    "AD TD KD 9D 8D AC",  # 1
    "JD 7D TC KC 9C 8C",  # 2
    "AH TH KH 9H 8H 7C",  # 3  holds AH
    "AS TS KS 9S 8S 7S",  # 4
]
BLIND_E = "JS JH"

CALL_CASES = [
    # deal, blind, picker, bury, options, legal calls
    # holds 7C (no AC) and 9S KS (no AS); holds AH -> AH not callable
    (DEAL_C, BLIND_C, 0, ("TD", "JD"), {}, ["alone", "call AC", "call AS"]),
    # AH buried: hearts not callable although he still holds 8H
    (DEAL_C, BLIND_C, 0, ("AH", "JD"), {}, ["alone", "call AC", "call AS"]),
    # his only club buried: void in clubs
    (DEAL_C, BLIND_C, 0, ("7C", "JD"), {}, ["alone", "call AS"]),
    (DEAL_C, BLIND_C, 0, ("9S", "KS"), {}, ["alone", "call AC"]),
    (DEAL_C, BLIND_C, 0, ("AH", "8H"), {}, ["alone", "call AC", "call AS"]),
    # a legal call exists, so no_call=unknown changes nothing
    (DEAL_C, BLIND_C, 0, ("TD", "JD"), {"no_call": "unknown"}, ["alone", "call AC", "call AS"]),
    # no ace of his: all three callable
    (DEAL_C2, BLIND_C, 0, ("TD", "JD"), {}, ["alone", "call AC", "call AH", "call AS"]),
    # all three fail aces held: call a ten.  TC held; TS ok (AS is a spade); TH ok (AH, 7H)
    (DEAL_T, BLIND_T, 1, ("JD", "KD"), {}, ["alone", "call TH", "call TS"]),
    # AC buried, AS AH held: still all three aces, so tens again
    (DEAL_T, BLIND_T, 1, ("AC", "JD"), {}, ["alone", "call TH", "call TS"]),
    # AS and TC buried: TC buried, void in spades -> only TH
    (DEAL_T, BLIND_T, 1, ("AS", "TC"), {}, ["alone", "call TH"]),
    # AH and 7H buried: void in hearts -> only TS
    (DEAL_T, BLIND_T, 1, ("AH", "7H"), {}, ["alone", "call TS"]),
    # QC TD AS 9S AH 8H: void in clubs, holds AS and AH -> no legal call: alone only
    (DEAL_U, BLIND_U, 0, ("7D", "9D"), {}, ["alone"]),
    (DEAL_U, BLIND_U, 0, ("7D", "9D"), {"no_call": "alone"}, ["alone"]),
    # ... with no_call=unknown he may call the ace of the suit he is void in
    (DEAL_U, BLIND_U, 0, ("7D", "9D"), {"no_call": "unknown"}, ["alone", "call AC"]),
    # six trumps: void in every fail suit -> alone only, or any ace as an unknown
    (DEAL_E, BLIND_E, 0, ("7H", "JH"), {}, ["alone"]),
    (DEAL_E, BLIND_E, 0, ("7H", "JH"), {"no_call": "unknown"},
     ["alone", "call AC", "call AH", "call AS"]),
]


@pytest.mark.parametrize("hands, blind, picker, bury, options, calls", CALL_CASES)
def test_call_options(hands, blind, picker, bury, options, calls):
    state = deal(hands, blind, **options)
    for seat in range(picker):
        step(state, "pass", seat=seat)
    step(state, "pick", seat=picker)
    run(state, ["bury " + card for card in bury])
    assert state.current_player == picker
    assert legal(state) == calls


def test_called_ten_holder_must_play_it_when_hearts_are_led():
    state = deal(DEAL_T, BLIND_T)
    step(state, "pass", seat=0)
    step(state, "pick", seat=1)
    run(state, ["bury JD", "bury KD"])
    step(state, "call TH", seat=1)
    step(state, "play 8H", seat=0)
    assert legal(state) == ["play 7H", "play AH"]  # the picker follows hearts normally
    step(state, "play AH", seat=1)
    assert legal(state) == ["play TH"]  # seat 2 holds TH and 9H: the called ten must fall


def test_jack_of_diamonds_partner():
    state = deal(DEAL_A, BLIND_A, partner="jack_of_diamonds")
    run(state, ["pass", "pass", "pick", "bury TD", "bury KD"])
    # no call step: eldest leads at once
    assert state.current_player == 0
    assert legal(state) == ["play 9C", "play 9H", "play JS", "play QD", "play TC", "play TS"]
    step(state, "play TC")
    step(state, "play AC")
    # no called suit, no hold card
    assert legal(state) == ["play 7H", "play 9S", "play AD", "play JC", "play QC", "play QS"]
    for card in TRICKS_A[0].split()[2:]:
        step(state, "play " + card)
    play_tricks(state, TRICKS_A[1:])
    assert tricks_of(state) == EXPECTED_TRICKS_A
    # partner = JD holder, seat 3.  Picker side: 24 + 25 + 10 + 12 + bury 14 = 85
    # (defenders 0, 1, 4: 21 + 14 = 35): win, m = 1
    assert state.scores() == [-1, -1, 2, 1, -1]
    check_result(state, picker=2, partner=3, alone=False, picker_points=85,
                 outcome="win", multiplier=1)


# Deal J: the picker's eight cards are the eight top trumps; seat 1 holds the six low trumps.
DEAL_J = [
    "QC QS QH QD JC JD",
    "AD TD KD 9D 8D 7D",
    "AC TC KC 9C 8C 7C",
    "AS TS KS 9S 8S 7S",
    "AH TH KH 9H 8H 7H",
]
BLIND_J = "JS JH"


@pytest.mark.parametrize("bury, last", [(("JS", "JH"), "JD"), (("JD", "JH"), "JS")],
                         ids=["picker-holds-JD", "picker-buries-JD"])
def test_jack_of_diamonds_picker_with_the_jack_plays_alone(bury, last):
    state = deal(DEAL_J, BLIND_J, partner="jack_of_diamonds")
    step(state, "pick", seat=0)
    run(state, ["bury " + card for card in bury])
    assert state.current_player == 0  # no call step
    play_tricks(state, [
        "QC 7D 7C 7S 7H",
        "QS 8D 8C 8S 8H",
        "QH 9D 9C 9S 9H",
        "QD KD KC KS KH",
        "JC TD TC TS TH",
        f"{last} AD AC AS AH",
    ])
    assert winners(state) == [0] * 6
    # alone, every trick (120 points): m = 3, picker +12, others -3
    assert state.scores() == [12, -3, -3, -3, -3]
    check_result(state, picker=0, partner=None, alone=True, picker_points=120, outcome="win",
                 multiplier=3)


# ---------------------------------------------------------------------------------------------
# The unknown (no_call=unknown)


def test_unknown_card():
    state = deal(DEAL_U, BLIND_U, no_call="unknown")
    step(state, "pick", seat=0)
    run(state, ["bury 7D", "bury 9D"])
    assert legal(state) == ["alone", "call AC"]
    step(state, "call AC", seat=0)
    assert state.current_player == 0
    assert legal(state) == ["under 8H", "under 9S", "under AH", "under AS", "under QC", "under TD"]
    step(state, "under TD")
    # the picker leads; he may not lead the unknown before clubs are led
    assert state.current_player == 0
    assert legal(state) == ["play 8H", "play 9S", "play AH", "play AS", "play QC"]
    step(state, "play QC")
    run(state, ["play KD", "play JC", "play AD", "play JH"])  # QC: 3+4+2+11+2 = 22 to seat 0
    assert legal(state) == ["play 8H", "play 9S", "play AH", "play AS"]
    run(state, ["play AH", "play JD", "play 7H", "play KH", "play 8C"])  # JD: 11+2+0+4+0 = 17
    # seat 1 leads the first club
    step(state, "play 7C", seat=1)
    assert legal(state) == ["play AC"]  # the called ace must fall (seat 2 also holds TC)
    step(state, "play AC", seat=2)
    step(state, "play 8D", seat=3)  # void in clubs: trumps with the lowest trump left
    assert legal(state) == ["play 9C", "play KC"]
    step(state, "play 9C", seat=4)
    assert legal(state) == ["play TD"]  # the picker must play the unknown
    step(state, "play TD", seat=0)
    # the unknown TD counts as a club, so 8D is the only trump and wins; TD's 10 go to seat 3:
    # 0+11+0+0+10 = 21
    assert tricks_of(state)[2] == (1, ["7C", "AC", "8D", "9C", "TD"], 3)
    play_tricks(state, [
        "QH JS 8H QS 9H",  # QS wins: 3+2+0+3+0 = 8 to seat 1
        "TS KS 7S QD AS",  # QD trumps: 10+4+0+3+11 = 28 to seat 4
        "KC 9S 8S TC TH",  # TC wins: 4+0+0+10+10 = 24 to seat 2
    ])
    assert winners(state) == [0, 1, 3, 1, 4, 2]
    # picker side (0 and the AC holder 2): 22 + 24 + bury 0 = 46
    # (defenders 17 + 21 + 8 + 28 = 74): loss, m = 1
    assert state.scores() == [-2, 1, -1, 1, 1]
    check_result(state, picker=0, partner=2, called="AC", alone=False, picker_points=46,
                 outcome="loss", multiplier=1)


def test_unknown_card_goes_on_the_last_trick_when_its_suit_is_never_led():
    state = deal(DEAL_U, BLIND_U, no_call="unknown")
    run(state, ["pick", "bury 7D", "bury 9D", "call AC", "under TD"])
    play_tricks(state, [
        "QC KD JC AD JH",  # QC: 3+4+2+11+2 = 22 to seat 0
        "AS 8S KS 7S QD",  # QD trumps: 11+0+4+0+3 = 18 to seat 4
    ])
    step(state, "play JS", seat=4)
    # the picker has no trump in hand (TD is set aside and counts as a club): not the unknown
    assert legal(state) == ["play 8H", "play 9S", "play AH"]
    step(state, "play 8H", seat=0)
    run(state, ["play QS", "play 7H", "play 8D"])  # QS: 2+0+3+0+0 = 5 to seat 1
    play_tricks(state, ["TS 9H TH 8C 9S"])  # TS: 10+0+10+0+0 = 20 to seat 1
    run(state, ["play JD", "play TC", "play QH", "play 9C"])
    assert legal(state) == ["play AH"]
    step(state, "play AH", seat=0)  # QH: 2+10+3+0+11 = 26 to seat 3
    # last trick, clubs never led: the unknown goes now and, as a club on a heart lead, loses
    step(state, "play KH", seat=3)
    step(state, "play KC", seat=4)
    assert legal(state) == ["play TD"]
    step(state, "play TD", seat=0)
    run(state, ["play 7C", "play AC"])  # KH: 4+4+10+0+11 = 29 to seat 3
    assert tricks_of(state)[5] == (3, ["KH", "KC", "TD", "7C", "AC"], 3)
    assert winners(state) == [0, 4, 1, 1, 3, 3]
    # picker side: 22 + bury 0 = 22, with a trick: schneidered, m = 2:
    # picker -4, partner (seat 2) -2, defenders +2
    assert state.scores() == [-4, 2, -2, 2, 2]
    check_result(state, picker=0, partner=2, called="AC", picker_points=22, outcome="loss",
                 multiplier=2)


# ---------------------------------------------------------------------------------------------
# Scoring bands.  Deal D: seat 0 picks and calls AH (held by seat 2, who never wins a trick), or
# goes alone; seat 1 holds six trumps, seats 2-4 (bar 7D) only fail cards, so every trick is led
# in trumps and the discards set the points.

DEAL_D = [
    "QC QS QH AD TD 7H",  # 0  picker
    "QD JC JS JH JD 8D",  # 1
    "AH AC TC KC 9C 8C",  # 2  holds AH
    "AS TS KS 9S 8S 7S",  # 3
    "7D TH KH 9H 8H 7C",  # 4
]
BLIND_D = "KD 9D"

BAND_PLAYS = {
    # bury AD TD (21); picker keeps QC QS QH KD 9D 7H
    "91": (DEAL_D, BLIND_D, ("AD", "TD"), [
        "QC QD AC AS 7D",  # 3+3+11+11+0 = 28 to 0
        "QS JH TC TS KH",  # 3+2+10+10+4 = 29 to 0
        "QH JD KC 8S 9H",  # 3+2+4+0+0 = 9 to 0
        "KD 8D 8C 7S 8H",  # KD > 8D: 4 to 0
        "9D JC 9C KS TH",  # 0+2+0+4+10 = 16 to 1
        "JS AH 9S 7C 7H",  # 2+11 = 13 to 1
    ], [0, 0, 0, 0, 1, 1]),  # 28+29+9+4 + bury 21 = 91; defenders 29
    # as 91, with QD and JS swapped between the first and the last trick
    "90": (DEAL_D, BLIND_D, ("AD", "TD"), [
        "QC JS AC AS 7D",  # 3+2+11+11 = 27 to 0
        "QS JH TC TS KH",  # 29 to 0
        "QH JD KC 8S 9H",  # 9 to 0
        "KD 8D 8C 7S 8H",  # 4 to 0
        "9D JC 9C KS TH",  # 16 to 1
        "QD AH 9S 7C 7H",  # 3+11 = 14 to 1
    ], [0, 0, 0, 0, 1, 1]),  # 27+29+9+4 + 21 = 90; defenders 30
    # bury KD 9D (4); picker keeps QC QS QH AD TD 7H
    "61": (DEAL_D, BLIND_D, ("KD", "9D"), [
        "QC QD AC AS 7D",  # 3+3+11+11 = 28 to 0
        "QS JH KC 9S KH",  # 3+2+4+0+4 = 13 to 0
        "QH JD 9C 8S 9H",  # 3+2 = 5 to 0
        "AD 8D 8C 7S 8H",  # AD > 8D: 11 to 0
        "TD JC TC TS TH",  # JC > TD: 10+2+10+10+10 = 42 to 1
        "JS AH KS 7C 7H",  # 2+11+4 = 17 to 1
    ], [0, 0, 0, 0, 1, 1]),  # 28+13+5+11 + 4 = 61; defenders 59
    "60": (DEAL_D, BLIND_D, ("KD", "9D"), [
        "QC JS AC AS 7D",  # 3+2+11+11 = 27 to 0
        "QS JH KC 9S KH",  # 13 to 0
        "QH JD 9C 8S 9H",  # 5 to 0
        "AD 8D 8C 7S 8H",  # 11 to 0
        "TD JC TC TS TH",  # 42 to 1
        "QD AH KS 7C 7H",  # 3+11+4 = 18 to 1
    ], [0, 0, 0, 0, 1, 1]),  # 27+13+5+11 + 4 = 60; defenders 60: a loss
    "31": (DEAL_D, BLIND_D, ("KD", "9D"), [
        "QC 8D 9C 9S 7D",  # 3 to 0
        "QS JH 8C 8S TH",  # 3+2+10 = 15 to 0
        "QH JD KC 7S 9H",  # 3+2+4 = 9 to 0
        "AD JS AC AS KH",  # JS > AD: 11+2+11+11+4 = 39 to 1
        "QD TC TS 8H TD",  # 3+10+10+0+10 = 33 to 1
        "JC AH KS 7C 7H",  # 2+11+4 = 17 to 1
    ], [0, 0, 0, 1, 1, 1]),  # 3+15+9 + 4 = 31; defenders 89
    "30": (DEAL_D, BLIND_D, ("KD", "9D"), [
        "QC 8D 9C 9S 7D",  # 3 to 0
        "QS QD 8C 8S KH",  # 3+3+4 = 10 to 0
        "QH JH KC KS 9H",  # 3+2+4+4 = 13 to 0
        "AD JD AC AS TH",  # 11+2+11+11+10 = 45 to 1
        "JS TC TS 8H TD",  # 2+10+10+0+10 = 32 to 1
        "JC AH 7S 7C 7H",  # 2+11 = 13 to 1
    ], [0, 0, 0, 1, 1, 1]),  # 3+10+13 + 4 = 30; defenders 90
    # Deal E: the picker leads his five top trumps, then 7H: AH (seat 3, the partner) wins
    "all tricks": (DEAL_E, BLIND_E, ("JS", "JH"), [
        "QC 8D 7D 7C 7S",
        "QS 9D JD 8H 8S",
        "QH KD 8C 9H 9S",
        "QD TD 9C KH KS",
        "JC AD KC TH TS",
        "7H AC TC AH AS",
    ], [0, 0, 0, 0, 0, 3]),  # picker side takes all 120
    # Deal E alone: buries 7H JH (void in every fail suit, so alone is the only choice)
    "all tricks alone": (DEAL_E, BLIND_E, ("7H", "JH"), [
        "QC 8D 7D 7C 7S",
        "QS 9D JD 8H 8S",
        "QH KD 8C 9H 9S",
        "QD TD 9C KH KS",
        "JC AD KC TH TS",
        "JS AC TC AH AS",
    ], [0] * 6),
    # Deal F: seat 1 holds the six top trumps and wins every trick; picker buries KD 8C (4),
    # which then counts for the defenders.  Partner = seat 2 (AH).
    "no trick": ([
        "JH JD AD TD 7H 8C",
        "QC QS QH QD JC JS",
        "AH 9D 8D TH KH 9H",
        "7D AC TC KC 9C 7C",
        "AS TS KS 8S 7S 8H",
    ], "KD 9S", ("KD", "8C"), [
        "JH JS 9D 7D 8H",  # 4 to 1
        "JC 8D 7C 7S JD",  # 4
        "QD 9H 9C 8S AD",  # 14
        "QH KH KC KS TD",  # 25
        "QS TH TC TS 9S",  # 33 (picker keeps his hold card 7H)
        "QC AH AC AS 7H",  # 36; 116 + bury 4 = 120, all to the defenders
    ], [1] * 6),
}

BAND_ROWS = [
    # band, call, picker points, outcome, m,
    #   scores (double_on_bump=False), scores (double_on_bump=True)
    # win: picker +2m, partner +m, defenders -m; alone +4m / -m.  Wins are not doubled.
    ("all tricks", "call AH", 120, "win", 3, [6, -3, -3, 3, -3], [6, -3, -3, 3, -3]),
    ("all tricks alone", "alone", 120, "win", 3, [12, -3, -3, -3, -3], [12, -3, -3, -3, -3]),
    ("91", "call AH", 91, "win", 2, [4, -2, 2, -2, -2], [4, -2, 2, -2, -2]),
    ("91", "alone", 91, "win", 2, [8, -2, -2, -2, -2], [8, -2, -2, -2, -2]),
    ("90", "call AH", 90, "win", 1, [2, -1, 1, -1, -1], [2, -1, 1, -1, -1]),
    ("90", "alone", 90, "win", 1, [4, -1, -1, -1, -1], [4, -1, -1, -1, -1]),
    ("61", "call AH", 61, "win", 1, [2, -1, 1, -1, -1], [2, -1, 1, -1, -1]),
    ("61", "alone", 61, "win", 1, [4, -1, -1, -1, -1], [4, -1, -1, -1, -1]),
    # loss: picker -2m, partner -m, defenders +m (doubled on bump: -4m, -2m, +2m);
    # alone -4m / +m (doubled: -8m / +2m)
    ("60", "call AH", 60, "loss", 1, [-2, 1, -1, 1, 1], [-4, 2, -2, 2, 2]),
    ("60", "alone", 60, "loss", 1, [-4, 1, 1, 1, 1], [-8, 2, 2, 2, 2]),
    ("31", "call AH", 31, "loss", 1, [-2, 1, -1, 1, 1], [-4, 2, -2, 2, 2]),
    ("31", "alone", 31, "loss", 1, [-4, 1, 1, 1, 1], [-8, 2, 2, 2, 2]),
    ("30", "call AH", 30, "loss", 2, [-4, 2, -2, 2, 2], [-8, 4, -4, 4, 4]),
    ("30", "alone", 30, "loss", 2, [-8, 2, 2, 2, 2], [-16, 4, 4, 4, 4]),
    # no trick: partner pays nothing, picker 3 to each defender (6 when doubled on bump)
    ("no trick", "call AH", 0, "loss", 3, [-9, 3, 0, 3, 3], [-18, 6, 0, 6, 6]),
    ("no trick", "alone", 0, "loss", 3, [-12, 3, 3, 3, 3], [-24, 6, 6, 6, 6]),
]


@pytest.mark.parametrize("double_on_bump", [False, True], ids=["plain", "double_on_bump"])
@pytest.mark.parametrize(
    "band, call, points, outcome, m, scores, bumped_scores", BAND_ROWS,
    ids=[f"{row[0]}-{row[1].replace(' ', '-')}" for row in BAND_ROWS],
)
def test_scoring_band_boundaries(band, call, points, outcome, m, scores, bumped_scores,
                                 double_on_bump):
    hands, blind, bury, tricks, trick_winners = BAND_PLAYS[band]
    state = deal(hands, blind, double_on_bump=double_on_bump)
    step(state, "pick", seat=0)
    run(state, ["bury " + card for card in bury])
    step(state, call, seat=0)
    play_tricks(state, tricks)
    assert state.is_terminal()
    assert winners(state) == trick_winners
    assert state.scores() == (bumped_scores if double_on_bump else scores)
    partner = None if call == "alone" else [i for i, h in enumerate(hands) if "AH" in h][0]
    check_result(state, picker=0, partner=partner, alone=(call == "alone"),
                 picker_points=points, outcome=outcome, multiplier=m)


# ---------------------------------------------------------------------------------------------
# Nobody picks: leaster


# Deal L: fail tricks are pure (everybody follows), the blind AD TD (21) goes to the last trick.
DEAL_L = [
    "TC TS TH QS JH 7C",
    "KC KS KH QH JS 9D",
    "AC AS 9H QD JD 7S",
    "9C 9S 8H JC 8D KD",
    "8C 8S AH QC 7D 7H",
]
BLIND_L = "AD TD"

# Deal L2: blind 9D 8D (0 points).
DEAL_L2 = [
    "7C 7S 8H JC JH 7H",
    "TC KS 9H QD JD AS",
    "KC TS KH QH AD AC",
    "9C 9S AH QC TD 7D",
    "8C 8S TH QS JS KD",
]
BLIND_L2 = "9D 8D"


def all_pass(state, first=0):
    for i in range(5):
        assert legal(state) == ["pass", "pick"]
        step(state, "pass", seat=(first + i) % 5)


def test_leaster_blind_goes_to_last_trick_and_trickless_player_cannot_win():
    state = deal(DEAL_L, BLIND_L)
    all_pass(state)
    assert not state.is_terminal()
    assert state.current_player == 0  # eldest leads the leaster
    play_tricks(state, [
        "TC KC AC 9C 8C",  # AC: 10+4+11 = 25 to seat 2
        "AS 9S 8S TS KS",  # AS: 25 to seat 2
        "9H 8H AH TH KH",  # AH: 25 to seat 4
        "QC QS QH QD JC",  # QC: 3+3+3+3+2 = 14 to seat 4
        "7D JH JS JD 8D",  # JS: 2+2+2 = 6 to seat 1
        "9D 7S KD 7H 7C",  # KD: 4 to seat 3, plus the blind AD TD: 21
    ])
    assert tricks_of(state) == [
        (0, ["TC", "KC", "AC", "9C", "8C"], 2),
        (2, ["AS", "9S", "8S", "TS", "KS"], 2),
        (2, ["9H", "8H", "AH", "TH", "KH"], 4),
        (4, ["QC", "QS", "QH", "QD", "JC"], 4),
        (4, ["7D", "JH", "JS", "JD", "8D"], 1),
        (1, ["9D", "7S", "KD", "7H", "7C"], 3),
    ]
    # points: seat 0 0 (no trick: cannot win), 1: 6, 2: 50, 3: 4 + 21 = 25, 4: 39.
    # Fewest among trick takers: seat 1 (without the blind seat 3 would have had 4).
    assert state.scores() == [-1, 4, -1, -1, -1]
    check_result(state, picker=None, partner=None, leaster=True, outcome="leaster",
                 picker_points=None)


def test_leaster_tie_for_fewest_is_a_wash():
    state = deal(DEAL_L2, BLIND_L2)
    all_pass(state)
    play_tricks(state, [
        "7C TC KC 9C 8C",  # TC: 10+4 = 14 to seat 1
        "KS TS 9S 8S 7S",  # TS: 14 to seat 2
        "KH AH TH 8H 9H",  # AH: 4+11+10 = 25 to seat 3
        "QC QS JC QD QH",  # QC: 3+3+2+3+3 = 14 to seat 3
        "TD JS JH JD AD",  # JS: 10+2+2+2+11 = 27 to seat 4
        "KD 7H AS AC 7D",  # KD: 4+11+11 = 26 to seat 4, plus the blind (0)
    ])
    assert winners(state) == [1, 2, 3, 3, 4, 4]
    # seat 0: 0 but no trick; seats 1 and 2 tie on 14; 3: 39; 4: 53 -> a wash
    assert state.scores() == [0, 0, 0, 0, 0]
    check_result(state, leaster=True, outcome="leaster")


# ---------------------------------------------------------------------------------------------
# Nobody picks: doubler and forced


def test_doubler_throws_the_hand_in():
    state = deal(DEAL_A, BLIND_A, no_pick="doubler")
    all_pass(state)
    assert state.is_terminal()
    assert state.current_player is None
    assert state.scores() == [0, 0, 0, 0, 0]
    check_result(state, picker=None, thrown_in=True, leaster=False, outcome="thrown_in")


def test_doubled_hand_doubles_the_scores():
    state = start_a(doubled=True)
    play_tricks(state, TRICKS_A)
    assert state.scores() == [-2, -2, 4, -2, 2]  # the 81-point win of deal A, x2
    check_result(state, outcome="win", multiplier=1, picker_points=81)

    state = start_a(call="alone", doubled=True)
    play_tricks(state, TRICKS_A)
    assert state.scores() == [2, 2, -8, 2, 2]  # the 60-point alone loss, x2


def test_forced_dealer_must_pick():
    state = deal(DEAL_A, BLIND_A, dealer=2, no_pick="forced")
    for seat in (3, 4, 0, 1):  # eldest is seat 3
        assert legal(state) == ["pass", "pick"]
        step(state, "pass", seat=seat)
    assert state.current_player == 2
    assert legal(state) == ["pick"]
    with pytest.raises(tricksim.IllegalActionError):
        state.apply("pass")
    step(state, "pick", seat=2)
    assert legal(state) == [
        "bury 7H", "bury 9S", "bury AD", "bury JC", "bury KD", "bury QC", "bury QS", "bury TD",
    ]


def _simple_policy(state):
    labels = sorted(state.legal_labels())
    if "pick" in labels:
        return "pick"
    calls = [label for label in labels if label.startswith("call ")]
    return calls[0] if calls else labels[0]


def _play_match_hand(m):
    """Play the match's current hand to its end; return (dealer, labels, finished state)."""
    dealer = (m.state.current_player - 1) % 5
    labels = []
    while True:
        label = _simple_policy(m.state)
        probe = m.state.clone()
        probe.apply(label)
        m.apply(label)
        labels.append(label)
        if probe.is_terminal():
            return dealer, labels, probe


def _undoubled_replay(game, dealer, labels, finished):
    """The same hand dealt again with doubled=False and replayed: its scores."""
    hands = [[] for _ in range(5)]
    for leader, cards, _ in finished.tricks():
        for i, card in enumerate(cards):
            hands[(leader + i) % 5].append(card)
    buried = [label.split()[1] for label in labels if label.startswith("bury ")]
    state = game.deal(hands=[" ".join(h) for h in hands], rest=" ".join(buried), dealer=dealer)
    run(state, labels)
    assert state.is_terminal()
    return state.scores()


def test_doubler_match_stacks_doubled_hands():
    game = tricksim.make_game("sheepshead", no_pick="doubler", hands=5)
    m = game.new_match(seed=7, dealer=0)
    # two throw-ins in a row; the deal still passes left and they do not count as hands
    for first in (1, 2):
        assert m.state.current_player == first
        for _ in range(5):
            m.apply("pass")
        assert m.hands_played == 0
        assert m.totals == [0, 0, 0, 0, 0]
    assert m.state.current_player == 3

    totals = [0] * 5
    for hand, factor in enumerate([2, 2, 1, 1, 1]):  # two play-off hands, each x2 (not x4)
        assert not m.is_over()
        assert m.state.current_player == (3 + hand) % 5
        dealer, labels, finished = _play_match_hand(m)
        scores = finished.scores()
        base = _undoubled_replay(game, dealer, labels, finished)
        assert scores == [factor * s for s in base], f"hand {hand}"
        totals = [t + s for t, s in zip(totals, scores)]
        assert m.totals == totals
        assert m.hands_played == hand + 1
    assert m.is_over()
    best = max(totals)
    assert sorted(m.winners) == [seat for seat in range(5) if totals[seat] == best]


# ---------------------------------------------------------------------------------------------
# Bad input


def test_illegal_actions_are_refused_and_change_nothing():
    state = start_a()
    step(state, "play TC", seat=0)
    step(state, "play AC", seat=1)
    before = (state.current_player, legal(state), tricks_of(state))
    pick_action = deal(DEAL_A, BLIND_A).legal_actions()[0]  # an int from the picking phase
    assert pick_action not in state.legal_actions()
    for bad in ["play 7H",   # the picker's hold card, clubs led
                "play 9C",   # not in his hand
                "pass", "bury QC", "call AS", "alone", "under QC",
                pick_action]:
        with pytest.raises(tricksim.IllegalActionError):
            state.apply(bad)
        assert (state.current_player, legal(state), tricks_of(state)) == before
    # the error names the action and lists what is legal (docs/rules.md, All games: Action labels)
    with pytest.raises(tricksim.IllegalActionError) as excinfo:
        state.apply("play 7H")
    assert "7H" in str(excinfo.value) and "QS" in str(excinfo.value)
    # the int and label views agree
    assert sorted(state.action_label(a) for a in state.legal_actions()) == legal(state)
    # a clone is independent of the original
    clone = state.clone()
    clone.apply("play QS")
    assert (state.current_player, legal(state), tricks_of(state)) == before
    assert issubclass(tricksim.IllegalActionError, ValueError)


@pytest.mark.parametrize("label", ["play ZZ", "play 1H", "bury", "dance"])
def test_unparsable_label_raises_value_error_naming_it(label):
    state = start_a()
    before = (state.current_player, legal(state), tricks_of(state))
    with pytest.raises(ValueError) as excinfo:
        state.apply(label)
    assert label.split()[-1] in str(excinfo.value)
    assert (state.current_player, legal(state), tricks_of(state)) == before


def test_card_labels_accept_10_and_suit_symbols():
    state = start_a()
    play_tricks(state, TRICKS_A[:1])
    run(state, ["play 7H", "play 8H", "play AH", "play 9H"])
    assert state.current_player == 1
    alias = state.clone()
    state.apply("play 10H")
    alias.apply("play T♥")
    assert tricks_of(state) == tricks_of(alias) == EXPECTED_TRICKS_A[:2]
