"""Naive pure-Python Sheepshead self-play: the baseline for the speed benchmark.

This is NOT the tricksim engine.  It is a deliberately plain, obviously-correct
implementation of random self-play of complete five-handed call-an-ace
Sheepshead hands (default options of docs/rules.md, Sheepshead), written with the
standard library only: cards are strings such as "QC" or "TD", hands are lists,
and every decision is a straightforward loop.  The numba engine's hands/second
is quoted as a ratio against this file, so it does the same work per hand as
the engine: deal, picking, bury, call, full trick play with every legality rule
(following, hold card, partner's called card), and scoring (leaster when nobody
picks).  Every decision is chosen uniformly at random among the legal actions.

Run:  python3 benchmarks/naive_sheepshead.py --hands 20000 --seed 0
"""

import argparse
import random
import time

NUM_PLAYERS = 5
HAND_SIZE = 6
NUM_TRICKS = 6

RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"]
SUITS = ["C", "D", "H", "S"]
DECK = [rank + suit for suit in SUITS for rank in RANKS]

# Trumps, highest first.
TRUMPS = ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD",
          "AD", "TD", "KD", "9D", "8D", "7D"]
# Fail cards of a suit, highest first.
FAIL_ORDER = ["A", "T", "K", "9", "8", "7"]
FAIL_SUITS = ["C", "S", "H"]

POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2,
          "9": 0, "8": 0, "7": 0}


def is_trump(card):
    return card in TRUMPS


def effective_suit(card):
    """'T' for a trump, otherwise the card's fail suit letter."""
    if is_trump(card):
        return "T"
    return card[1]


def card_points(card):
    return POINTS[card[0]]


def cards_points(cards):
    total = 0
    for card in cards:
        total += card_points(card)
    return total


def trick_winner(trick):
    """trick is a list of (seat, card) in play order; returns the winning seat."""
    led_suit = effective_suit(trick[0][1])
    best_seat = None
    best_key = None
    for seat, card in trick:
        if is_trump(card):
            # Trumps beat everything; lower index in TRUMPS is higher.
            key = (2, -TRUMPS.index(card))
        elif effective_suit(card) == led_suit:
            key = (1, -FAIL_ORDER.index(card[0]))
        else:
            key = (0, 0)
        if best_key is None or key > best_key:
            best_key = key
            best_seat = seat
    return best_seat


def legal_calls(hand, buried):
    """Call actions the picker may make ("alone" always included)."""
    owned = hand + buried
    aces = ["A" + suit for suit in FAIL_SUITS]
    if all(ace in owned for ace in aces):
        candidates = ["T" + suit for suit in FAIL_SUITS]
    else:
        candidates = aces
    calls = []
    for card in candidates:
        suit = card[1]
        holds_suit = False
        for c in hand:
            if effective_suit(c) == suit:
                holds_suit = True
        if holds_suit and card not in owned:
            calls.append(card)
    calls.append("alone")
    return calls


def legal_plays(hand, trick, seat, picker, partner, called_card,
                called_suit_led):
    """Cards `seat` may play from `hand` onto `trick` (list of (seat, card))."""
    if len(hand) == 1:
        # Last trick: whatever is left is played.
        return list(hand)

    called_suit = called_card[1] if called_card is not None else None

    if not trick:
        # Leading.
        choices = list(hand)
        if seat == partner and called_card in hand:
            # The partner may lead the called suit only with the called card.
            choices = [c for c in choices
                       if effective_suit(c) != called_suit or c == called_card]
        return choices

    led_suit = effective_suit(trick[0][1])
    follow = [c for c in hand if effective_suit(c) == led_suit]
    if follow:
        choices = follow
    else:
        choices = list(hand)

    if seat == partner and called_card in hand:
        if led_suit == called_suit:
            # First time the called suit is led: the called card must go.
            return [called_card]
        # The called card may not be discarded on another suit.
        choices = [c for c in choices if c != called_card]

    if seat == picker and called_card is not None and not called_suit_led \
            and led_suit != called_suit:
        # Hold card: keep the last card of the called suit until it is led.
        held = [c for c in hand if effective_suit(c) == called_suit]
        if len(held) == 1:
            choices = [c for c in choices if c != held[0]]

    return choices


def play_hand(rng, dealer, trace=None):
    """Play one random hand with `dealer` dealing; return the 5 scores.

    If `trace` is a dict it is filled with details of the hand (for checks).
    """
    # --- Deal -------------------------------------------------------------
    deck = list(DECK)
    rng.shuffle(deck)
    hands = []
    for seat in range(NUM_PLAYERS):
        hands.append(deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE])
    blind = deck[NUM_PLAYERS * HAND_SIZE:]
    eldest = (dealer + 1) % NUM_PLAYERS

    # --- Picking ----------------------------------------------------------
    picker = None
    for i in range(NUM_PLAYERS):
        seat = (eldest + i) % NUM_PLAYERS
        action = rng.choice(["pick", "pass"])
        if action == "pick":
            picker = seat
            break

    buried = []
    partner = None
    called_card = None
    if picker is not None:
        # Take the blind, bury two cards one at a time.
        hands[picker] = hands[picker] + blind
        for _ in range(2):
            card = rng.choice(hands[picker])
            hands[picker].remove(card)
            buried.append(card)
        # Call a partner or go alone.
        call = rng.choice(legal_calls(hands[picker], buried))
        if call != "alone":
            called_card = call
            for seat in range(NUM_PLAYERS):
                if called_card in hands[seat]:
                    partner = seat

    # --- Trick play -------------------------------------------------------
    tricks_won = [[] for _ in range(NUM_PLAYERS)]  # cards taken per seat
    trick_counts = [0] * NUM_PLAYERS
    tricks = []
    called_suit_led = False
    leader = eldest
    winner = leader
    for trick_no in range(NUM_TRICKS):
        trick = []
        for i in range(NUM_PLAYERS):
            seat = (leader + i) % NUM_PLAYERS
            choices = legal_plays(hands[seat], trick, seat, picker, partner,
                                  called_card, called_suit_led)
            card = rng.choice(choices)
            hands[seat].remove(card)
            trick.append((seat, card))
            if i == 0 and called_card is not None \
                    and effective_suit(card) == called_card[1]:
                called_suit_led = True
        winner = trick_winner(trick)
        trick_counts[winner] += 1
        for _, card in trick:
            tricks_won[winner].append(card)
        tricks.append(trick)
        leader = winner

    # --- Scoring ----------------------------------------------------------
    scores = [0] * NUM_PLAYERS
    if picker is None:
        # Leaster: blind goes to the winner of the last trick.
        for card in blind:
            tricks_won[winner].append(card)
        player_points = [cards_points(tricks_won[s]) for s in range(NUM_PLAYERS)]
        takers = [s for s in range(NUM_PLAYERS) if trick_counts[s] > 0]
        fewest = min(player_points[s] for s in takers)
        lowest = [s for s in takers if player_points[s] == fewest]
        if len(lowest) == 1:
            for s in range(NUM_PLAYERS):
                if s == lowest[0]:
                    scores[s] = NUM_PLAYERS - 1
                else:
                    scores[s] = -1
        if trace is not None:
            trace.update(picker=None, partner=None, called=None,
                         buried=[], blind=blind, tricks=tricks,
                         player_points=player_points,
                         side_points=None, defender_points=None)
        return scores

    side = [picker] if partner is None else [picker, partner]
    side_tricks = 0
    side_points = 0
    defender_points = 0
    for s in range(NUM_PLAYERS):
        if s in side:
            side_tricks += trick_counts[s]
            side_points += cards_points(tricks_won[s])
        else:
            defender_points += cards_points(tricks_won[s])
    if side_tricks > 0:
        side_points += cards_points(buried)
    else:
        defender_points += cards_points(buried)

    if side_tricks == 0:
        # Picker pays 3 to each defender; partner pays nothing.
        for s in range(NUM_PLAYERS):
            if s not in side:
                scores[s] = 3
                scores[picker] -= 3
    else:
        if side_tricks == NUM_TRICKS:
            m, win = 3, True
        elif side_points >= 91:
            m, win = 2, True
        elif side_points >= 61:
            m, win = 1, True
        elif side_points >= 31:
            m, win = 1, False
        else:
            m, win = 2, False
        sign = 1 if win else -1
        for s in range(NUM_PLAYERS):
            if s == picker:
                scores[s] = sign * (4 * m if partner is None else 2 * m)
            elif s == partner:
                scores[s] = sign * m
            else:
                scores[s] = -sign * m

    if trace is not None:
        trace.update(picker=picker, partner=partner, called=called_card,
                     buried=buried, blind=blind, tricks=tricks,
                     player_points=None, side_points=side_points,
                     defender_points=defender_points)
    return scores


def play_hands(n, seed=0):
    """Play n hands from one random.Random(seed); dealer = hand_index % 5."""
    rng = random.Random(seed)
    results = []
    for hand_index in range(n):
        results.append(play_hand(rng, hand_index % NUM_PLAYERS))
    return results


def main():
    parser = argparse.ArgumentParser(
        description="Naive pure-Python Sheepshead random self-play "
                    "(benchmark baseline).")
    parser.add_argument("--hands", type=int, default=20000,
                        help="number of hands to play (default 20000)")
    parser.add_argument("--seed", type=int, default=0,
                        help="random seed (default 0)")
    args = parser.parse_args()

    start = time.perf_counter()
    play_hands(args.hands, args.seed)
    elapsed = time.perf_counter() - start
    rate = args.hands / elapsed if elapsed > 0 else float("inf")
    print(f"naive python: {args.hands} hands in {elapsed:.3f} s = "
          f"{rate:.0f} hands/s")


if __name__ == "__main__":
    main()
