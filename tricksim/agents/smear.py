"""The heuristic agent of the two smears, Shmear and NE Smear (docs/rules.md): one numba
policy for both, reading the variant and the options from the state (``smear.OPTIONS``).

What it does, phase by phase:

* **Bid.** ``suit_points`` estimates, for each suit as trump, the points the seat's team takes
  with the seat as bidder: High and Low from the A and the Low card (2 / 7) held, which score for
  whoever plays them; a Jack or Jick held, kept unless trumps above it are out (``jack_risk``);
  a joker held, kept with ``joker_keep``; a point card the seat lacks, with the chance that a
  partner ends up with it (``partner_share``; in NE Smear while bidding, or that the widow brings
  it, ``widow_share``), the Jack/Jick/joker also caught by the top trumps held
  (``capture_per_top``); Game, on a logistic scale, from trumps, top trumps, plain aces, the ten
  of trumps, the widow to come and the number of teams (``game_*``). With ``high_low = in_play``
  High (Low) is the chance that no opponent holds a trump above (below) the seat's. The
  coefficients were fitted to self-play (a forced bidder, the others heuristic). ``bid_choice``
  adds ``position_step`` per seat after eldest and, in Shmear, ``dealer_bonus`` for the dealer's
  team, takes off the margin the rules call for (``bid_margin``: ``partner_margin`` more per
  partner beyond the first, as Shmear's two teams of three overlap in what their partners bring;
  ``ne_margin`` added in NE Smear, where bidding boldly won more in self-play than the sets it
  costs, and ``in_play_margin`` more with ``high_low = in_play``; ``partner_overbid`` more over a
  partner's bid) and bids that many when it beats the bid; in NE Smear 4, the top bid, which
  makes only with every point, takes ``ne_top_margin`` more while 3 is open and ``ne_overcall``
  less over an opponent's 3 (``top_line``); the dealer, who speaks last, bids just enough. In a
  match, when another team can go out on this hand, the seat bids up to
  ``match_slack`` points over its hand (``match_slack_bid_only`` with ``go_out = bid_only``) to
  reach the bid that stops it (``match_stop``), unless a partner's bid already does.
* **Trump.** The suit that scored best (NE Smear: among the suits held, widow included).
* **Shmear draw.** Throw up to 3 plain cards below ``draw_keep_rank`` (by default every plain card,
  aces too: a fresh card may be a trump), shortest suit first, lowest first; a ten stays when its
  ace guards it (``draw_keep_tens``).
* **Discards.** The Shmear dealer keeps the point cards and the highest trumps, then aces, tens,
  kings and so on. The NE bidder first throws his plain tens (``discard_tens``: his discards count
  for his Game), then his plain kings, queens and jacks, highest first (``KEEP``: banked there,
  while kept they mostly fall to an ace or a trump), then keeps trumps, aces, tens in that order.
* **Play.** Leading: a master trump (no unseen trump above it) while an opponent may hold trumps,
  which pulls them and catches the Jack/Jick/joker (Shmear, two cards left: the other card, as the
  master takes the last trick; with one partner, not as the first lead from fewer than
  ``master_lead_trumps`` trumps: kept, it catches a point card later); the bidder without one
  (or keeping it) leads a low trump when he holds ``lead_low_trumps`` (NE Smear:
  ``ne_lead_low_trumps``), never the Jack into a higher trump still out; once no trump is
  out, the Jack/Jick/joker first (nothing can catch them); else a side card no opponent can beat
  (NE Smear: one beaten with a chance of at most ``ne_lead_risk``), else the cheapest side card.
  Following: to a partner whose card no later opponent can beat (NE Smear: at most
  ``ne_feed_risk``), feed the most (the joker, the Jack, tens) without overtaking him (Shmear: but
  a Jack/Jick/joker an unseen trump above may catch later goes to the trick even overtaking him,
  when no later opponent can beat it there: the trick banks its point), but not a Jack/Jick/joker
  no unseen trump can beat while another one or the ten of trumps is out (safe anyway, it is kept
  for the trick where they may fall); a partner who may be beaten is covered only on a trick worth
  ``win_value`` (NE Smear: the lower ``ne_win_value``, a lone ten), but in Shmear a
  Jack/Jick/joker no later opponent can beat here, while an unseen trump above it may catch it
  later, covers him on any trick (played, it banks its own point);
  otherwise win with the cheapest card no later opponent can beat (a Jack/Jick/joker with no unseen
  trump above it only when nothing else wins: it wins whatever trick it is played to later), unless
  it is a top trump (A K Q), or such a Jack/Jick/joker while another one or the ten of trumps is
  out, and the trick is worth less than ``win_value`` (with none of those out, a top trump or such
  a Jack/Jick/joker less than the ruff value below: kept, it could only win a later trick), or
  (Shmear, two cards left) a trump nothing out can beat on a trick without a Jack/Jick/joker while
  one of those or the ten of trumps is still out: kept, it takes the last trick, where they fall;
  or a trump ruffing a plain trick worth less than ``ruff_value`` (NE Smear: the lower
  ``ne_ruff_value``), but a Jack/Jick/joker, which the ruff saves, in Shmear without
  ``may_trump`` the ten of trumps, which banks its ten, or, two cards left, a trump below one
  still out (kept, it would fall to it): the trump stays for a trick that counts; risk a card
  only when it is worth nothing and the trick is worth ``win_value``; else throw the cheapest
  card (Shmear with ``may_trump``: of the cards that may lose, not a sure winner the trick was
  not worth; kept, that trump may trump any later trick that counts; Shmear with one partner
  and without it: a Jack/Jick/joker an unseen trump may catch rather than a master trump, which
  kept wins a trick for sure, ``_spares_master``).
  "Cheapest" and "most" are the tables ``THROW_COST``, ``FEED_VALUE`` and ``WIN_COST``: game
  points, 40 for a Jack/Jick/joker, and the card's strength in tricks (``card_strength``; in NE
  Smear, and in both for the cards a follower gives away, counting only the cards above it still
  unseen: ``_best_now``, ``_throw``). Low scores for whoever plays
  the 2 / 7 (docs/rules.md), so the agent plays it as the low trump it is: the first trump it
  gives a partner's trick. The chance that a later opponent beats a card
  (``beat_chance``) gives each of them each unseen card with the same chance (``hold_chances``; the
  Shmear trumps are all in hands, the dead cards plain), none of a suit he has shown void in, and a
  trump to play where trumps are allowed, he has shown the suit led void or too few cards of it
  are left; it is 0 exactly when no later opponent can beat the card. In NE Smear, where any seat
  may trump, the risks above measured better than sure winners only; in Shmear they did not.

Knowledge rule: the agent reads only what the seat to act may know. State slots read: its own
``HANDS + me`` and ``DISCARDS + me`` (the NE widow it took is in them); the public ``PHASE DEALER
TO_ACT NUM_PLAYERS OPTIONS BIDDER BID`` and the match's ``MATCH_TOTALS MATCH_TARGET
MATCH_BID_ONLY``; ``TRUMP TABLE`` (NE Smear keeps trump private only until the bidder's first lead,
and only the bidder acts before it); the public play ``TRICK_NO IN_TRICK LED TRICK_MASK WON
TRICKS`` (voids shown are derived from the tricks). It never reads other seats' hands or discards,
``STOCK``, ``REST_ORDER``, ``WIDOW_TAKEN`` or ``PLAYED_BY``. ``rng`` is not used: ties go to the
lower card.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..sim import actions as A
from ..sim.kernels import bit, has, lowest_card, popcount, trick_power, trick_winner
from ..sim.smear import (
    BEATEN_BY, BID, BIDDER, BIDDING, DEALER, DECK_MASKS, DISCARDS, DISCARD_BASE, DRAWING, EFFECTIVE, GAME,
    GAME_VALUES, GAME_VALUE_MASKS, HANDS, HAND_SIZE, HIGH, HIGH_LOW_IN_PLAY, IN_TRICK, JACK, JICK, JOKER,
    JOKER_POINT, LED, LOW, MATCH_BID_ONLY, MATCH_TARGET, MATCH_TOTALS, MAX_BID, MIN_BID, NESMEAR, NUM_PLAYERS,
    OPTIONS, O_HIGH_LOW, O_MAY_TRUMP, O_TEAMS,
    O_VARIANT, O_WIDOW, PHASE, PLAYING, PLAY_BASE, POINT_CARDS, POWER, RECORD, SHMEAR, SUIT_MASKS, TABLE, TO_ACT,
    TRICKS, TRICK_MASK, TRICK_NO, TRICK_SLOTS, TRUMP, TRUMPING, WON, discard_mask, draw_mask, extreme_trumps,
    game_points, left, play_mask, shows_void, team, trump_words,
)

PARAMS = (
    # bidding: the decision rule
    ("bid_margin", 0.1, "points taken off the estimate before bidding (the risk of going set)"),
    ("partner_margin", 0.1, "Shmear: more points taken off per partner beyond the first (with two teams "
                            "of three the partners' shares of the estimate overlap)"),
    ("ne_margin", -0.3, "NE Smear: points added to bid_margin (negative: bidding boldly won more in "
                        "self-play than the sets it costs)"),
    ("in_play_margin", -0.15, "NE Smear with high_low = in_play: points added to the margin (High and Low "
                              "go to the trumps played, which the estimate undervalues)"),
    ("position_step", 0.05, "estimate bonus per seat after eldest (later seats have heard more bids)"),
    ("dealer_bonus", -0.1, "Shmear: estimate bonus for the dealer's team (he takes the stock's rest, "
                           "which the draws leave short, instead of drawing)"),
    ("partner_overbid", 0.0, "extra points needed to outbid one's own partner"),
    # bidding: the hand evaluation (fitted to self-play)
    ("partner_share", 0.23, "chance that a partner ends up with a given card the seat lacks"),
    ("widow_share", 0.155, "NE Smear: chance that one widow card brings a given card the seat lacks"),
    ("jack_risk", 0.2, "chance of losing a held Jack (Jick) with none of the three trumps above it"),
    ("joker_keep", 0.55, "Shmear: chance of saving a held joker with no top trump (A K Q)"),
    ("capture_per_top", 0.15, "chance added per top trump (A K Q) held to catch a Jack/Jick/joker"),
    ("game_base", -1.55, "log-odds of Game with no trump, ace or ten (two teams, no widow)"),
    ("game_per_card", 0.55, "log-odds of Game per trump, top trump, plain ace and ten of trumps held"),
    ("game_widow", 0.57, "NE Smear: log-odds of Game per widow card still to come"),
    ("game_per_team", -0.6, "log-odds of Game per team beyond two (Shmear's three teams)"),
    # draw and discards
    ("draw_keep_rank", 13.0, "Shmear draw: plain cards of this rank (0 = 2 .. 12 = A, 13 none) "
                               "or higher stay"),
    ("draw_keep_tens", 1.0, "Shmear draw: 0 throws plain tens, 1 keeps a ten its ace guards, 2 keeps all"),
    ("discard_tens", 2.0, "NE discards: 0 keeps plain tens, 1 throws unguarded ones first, 2 all first"),
    # play
    ("win_value", 16.0, "trick value (game points, 20 per Jack/Jick/joker) worth a top trump or a risk"),
    ("ne_win_value", 10.0, "NE Smear: win_value there (a lone ten is worth a top trump or a risk: against "
                           "the same PIMC the card-play gap fell by 0.05 a deal)"),
    ("lead_low_trumps", 3.0, "trumps from which the bidder without the master trump leads a low one "
                             "(NE Smear: his Q or K, if he holds one)"),
    ("ne_lead_low_trumps", 2.0, "NE Smear: lead_low_trumps there (with fewer trumps dealt the bidder draws "
                                "from two)"),
    ("master_lead_trumps", 4.0, "Shmear with one partner: trumps from which the first lead is the master "
                                "trump (fewer: it is kept to catch a Jack/Jick/joker or the ten)"),
    ("ruff_value", 8.0, "trick value below which a trump (but a Jack/Jick/joker) does not win a plain "
                        "trick the seat could follow or throw to: the trump stays for a trick that counts"),
    ("ne_ruff_value", 4.0, "NE Smear: ruff_value there (any seat may trump at any time, and a ruff "
                           "that wins even a trick of a few game points measured better)"),
    ("ne_lead_risk", 0.4, "NE Smear: chance of being beaten (beat_chance) up to which a side card leads "
                          "as a winner (Shmear: 0, a card no later opponent can beat)"),
    ("ne_feed_risk", 0.4, "NE Smear: chance of being beaten up to which a partner's winning card is fed "
                          "points (Shmear: 0)"),
    # bidding in a match
    ("match_slack", 0.5, "points above its estimate a seat bids to keep another team from going out "
                         "on this hand (match_stop; measured in match play)"),
    ("match_slack_bid_only", 4.0, "the same with go_out = bid_only, where any bid stops them: so cheap "
                                  "that bidding whenever allowed won the most matches"),
    ("bid_jump", 0.0, "with three teams or more: most levels a seat bids above the lowest bid it may make "
                      "(the bidder scores the points he takes, not his bid: a lower bid risks less)"),
    ("ne_top_margin", 0.1, "NE Smear: points more the estimate needs to bid 4, the top bid, while 3 is open "
                           "(4 makes only with every point of the hand; 3 takes the bid as well)"),
    ("ne_overcall", 0.2, "NE Smear: points less it needs to bid 4 over an opponent's 3, before the dealer "
                         "(passing gives them the hand)"),
)
DEFAULTS = np.array([default for _, default, _ in PARAMS], dtype=np.float64)
(BID_MARGIN, PARTNER_MARGIN, NE_MARGIN, IN_PLAY_MARGIN, POSITION_STEP, DEALER_BONUS, PARTNER_OVERBID, PARTNER_SHARE,
 WIDOW_SHARE, JACK_RISK, JOKER_KEEP, CAPTURE_PER_TOP, GAME_BASE, GAME_PER_CARD, GAME_WIDOW, GAME_PER_TEAM,
 DRAW_KEEP_RANK, DRAW_KEEP_TENS, DISCARD_TENS, WIN_VALUE, NE_WIN_VALUE, LEAD_LOW_TRUMPS, NE_LEAD_LOW_TRUMPS,
 MASTER_LEAD_TRUMPS, RUFF_VALUE, NE_RUFF_VALUE, NE_LEAD_RISK, NE_FEED_RISK, MATCH_SLACK, MATCH_SLACK_BID_ONLY,
 BID_JUMP, NE_TOP_MARGIN, NE_OVERCALL) = range(len(PARAMS))

FEATURES = ("trumps", "top_trumps", "point_cards", "tens")
"""Of the bidder's dealt hand (before any draw or widow) in the hand's trump: the trumps; the top
trumps A K Q J of trump (J the right bower in Shmear); the point cards A, Low (2 / 7), J, and
Shmear's Jick and joker; the tens of any suit. -1 when everybody passed."""

# --- tables, per row ``variant * 4 + trump`` as in the game's tables ----------------------------

CAPTURE_WEIGHT = 20  # a trick's value: game points, and this per Jack/Jick/joker in it
CARD_POINTS = 40  # a Jack/Jick/joker in the card tables, in game points
RISK_COST = 16 * 10  # THROW_COST below a ten's: a card worth risking on a trick it may lose


def _game_value(c: int) -> int:
    return sum(int(GAME_VALUES[k]) for k in range(len(GAME_VALUES)) if int(GAME_VALUE_MASKS[k]) >> c & 1)


TRUMP_STEP = np.array([1, 2], dtype=np.int64)  # strength per trump above, per variant (15 and 8 trumps)


@nb.njit(cache=True, inline="always")
def card_strength(v, is_trump, above):
    """A card's strength in tricks with ``above`` cards of its suit above it still out: a trump 16
    (the top one) down to 2 (the lowest, in both variants), a plain card 4 on top, 2 second, else 0
    (a plain card may still win a trick)."""
    if is_trump:
        return 16 - above * TRUMP_STEP[v]
    return max(4 - 2 * above, 0)


def _tables():
    """Per row and card: the higher and lower cards of its effective suit, the card's strength,
    and the cost tables of the play; per row: the trump masks the evaluation counts."""
    higher = np.zeros((8, 54), dtype=np.int64)
    lower = np.zeros((8, 54), dtype=np.int64)
    throw_cost = np.zeros((8, 54), dtype=np.int64)  # to give the card away: lowest first
    feed_value = np.zeros((8, 54), dtype=np.int64)  # to give it to a partner's trick: highest first
    win_cost = np.zeros((8, 54), dtype=np.int64)  # to win a trick with it: lowest first
    keep = np.zeros((8, 54), dtype=np.int64)  # to keep it in a discard: lowest discarded first
    strength = np.zeros((8, 54), dtype=np.int64)  # in tricks, every card above it still out
    capture = np.zeros(8, dtype=np.int64)  # the point cards the trick winner takes
    top3 = np.zeros(8, dtype=np.int64)  # A K Q of trump
    top4 = np.zeros(8, dtype=np.int64)  # A K Q J of trump
    point_mask = np.zeros(8, dtype=np.int64)
    plain_keep = {12: 60, 8: 50, 11: 30, 10: 20, 9: 15}  # A, T, K, Q, J; below: the rank
    # NE Smear: the bidder's discards count for his Game, and a plain K, Q or J he keeps mostly falls
    # to an ace or a trump: they go before the low cards, the most game points first (measured)
    plain_keeps = {SHMEAR: plain_keep, NESMEAR: {**plain_keep, 11: -3, 10: -2, 9: -1}}
    for row in range(8):
        v, t = divmod(row, 4)
        deck = [c for c in range(54) if int(DECK_MASKS[v]) >> c & 1]
        trumps = sorted((c for c in deck if EFFECTIVE[row, c] == t), key=lambda c: POWER[row, c])  # low to high
        for c in deck:
            same = SUIT_MASKS[row, EFFECTIVE[row, c]]
            higher[row, c] = BEATEN_BY[row, c] & same
            lower[row, c] = sum(1 << d for d in deck if same >> d & 1 and POWER[row, d] < POWER[row, c])
        for k in (JACK, JICK, JOKER_POINT):
            if POINT_CARDS[row, k] >= 0:
                capture[row] |= 1 << int(POINT_CARDS[row, k])
        for k in range(GAME):
            if POINT_CARDS[row, k] >= 0:
                point_mask[row] |= 1 << int(POINT_CARDS[row, k])
        top3[row] = sum(1 << c for c in trumps[-3:])
        top4[row] = sum(1 << c for c in trumps[-4:])
        for c in deck:
            rank = c % 13 if c != JOKER else 0
            gp = _game_value(c)
            cap = int(capture[row] >> c & 1)
            keep[row, c] = 1000 + POWER[row, c] if c in trumps else plain_keeps[v].get(rank, rank)
            st = strength[row, c] = card_strength(v, c in trumps, bin(int(higher[row, c])).count("1"))
            throw_cost[row, c] = 16 * (gp + CARD_POINTS * cap + st) + rank
            feed_value[row, c] = 16 * (gp + CARD_POINTS * cap - st) - rank
            win_cost[row, c] = 16 * st - 8 * gp - 16 * CARD_POINTS * cap + rank
    return higher, lower, throw_cost, feed_value, win_cost, keep, strength, capture, top3, top4, point_mask


HIGHER, LOWER, THROW_COST, FEED_VALUE, WIN_COST, KEEP, STRENGTH, CAPTURE, TOP3, TOP4, POINT_MASK = _tables()
TENS = int(GAME_VALUE_MASKS[4])
ACES = int(GAME_VALUE_MASKS[0])
TEN_RANK = 8


# --- small helpers --------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def _best(cards, table, row, lowest):
    """The card of the non-empty mask ``cards`` with the lowest (or highest) ``table[row, c]``."""
    best, best_value = -1, 0
    m = np.int64(cards)
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        value = table[row, c] if lowest else -table[row, c]
        if best < 0 or value < best_value:
            best, best_value = c, value
    return best


@nb.njit(cache=True, inline="always")
def _valued(cards, table, row, lowest, unseen, sign, now):
    """``_best`` over a play table (``THROW_COST``, ``WIN_COST``: ``sign`` 1; ``FEED_VALUE``: -1), with
    ``now`` each card's strength as it is now, counting only the cards above it still unseen: a
    king whose ace is played is kept as the ace was."""
    v = row // 4
    best, best_value = -1, 0
    m = np.int64(cards)
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        strength = card_strength(v, EFFECTIVE[row, c] == row % 4, popcount(HIGHER[row, c] & unseen))
        value = table[row, c] + sign * 16 * (strength - STRENGTH[row, c]) * now
        value = value if lowest else -value
        if best < 0 or value < best_value:
            best, best_value = c, value
    return best


@nb.njit(cache=True, inline="always")
def _best_now(cards, table, row, lowest, unseen, sign):
    """``_valued`` with the strength as it is now in NE Smear. (In Shmear it measured no better
    for leads, feeds and wins: there the tables' strength stays; ``_throw`` gives cards away.)"""
    return _valued(cards, table, row, lowest, unseen, sign, row // 4 == NESMEAR)


@nb.njit(cache=True, inline="always")
def _throw(cards, row, unseen):
    """The card of ``cards`` a follower gives away: the lowest ``THROW_COST`` with the strength as
    it is now, in both smears (in Shmear +0.024 a deal with ``may_trump``, +0.003 at the defaults,
    against the tables' strength)."""
    return _valued(cards, THROW_COST, row, True, unseen, 1, True)


@nb.njit(cache=True, inline="always")
def _clip01(x):
    return min(max(x, 0.0), 1.0)


@nb.njit(cache=True, inline="always")
def _partners(s):
    return s[NUM_PLAYERS] // s[OPTIONS + O_TEAMS] - 1


# --- bidding and trump (docs/rules.md, Shmear: Bidding and trump; NE Smear: Widow and trump) ----


@nb.njit(cache=True)
def suit_points(s, hand, t, params):
    """Points the seat's team should take with suit ``t`` trumps and the seat as bidder, from
    its cards ``hand`` (NE Smear while bidding: with the widow still to come). A point card the
    seat lacks comes to the team with the chance that a partner or the widow brings it."""
    v = s[OPTIONS + O_VARIANT]
    row = v * 4 + t
    trumps = hand & SUIT_MASKS[row, t]
    tops = popcount(hand & TOP3[row])
    widow = s[OPTIONS + O_WIDOW] if s[PHASE] == BIDDING else 0
    share = 1.0 - (1.0 - params[PARTNER_SHARE]) ** _partners(s) * (1.0 - params[WIDOW_SHARE]) ** widow
    points = 0.0
    if s[OPTIONS + O_HIGH_LOW] == HIGH_LOW_IN_PLAY:  # the top and bottom trumps played score
        if trumps != 0:
            top, bottom = extreme_trumps(row, trumps)
            opponents = s[NUM_PLAYERS] - s[NUM_PLAYERS] // s[OPTIONS + O_TEAMS]
            free = 1.0 - HAND_SIZE * opponents / popcount(DECK_MASKS[v] & ~hand)  # not with an opponent
            points += free ** popcount(HIGHER[row, top] & ~hand)
            points += free ** popcount(LOWER[row, bottom] & ~hand)
    else:  # High and Low: whoever plays the card scores it
        for k in (HIGH, LOW):
            points += 1.0 if has(hand, POINT_CARDS[row, k]) else share
    m = CAPTURE[row]  # Jack, Jick, joker: the trick winner's
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        if not has(hand, c):
            points += _clip01(share + params[CAPTURE_PER_TOP] * tops)
        elif c == JOKER:
            points += _clip01(params[JOKER_KEEP] + params[CAPTURE_PER_TOP] * tops)
        else:  # safe behind the higher trumps held
            points += _clip01(1.0 - params[JACK_RISK] * popcount(HIGHER[row, c] & ~hand) / 3.0)
    cards = popcount(trumps) + tops + popcount(hand & ACES & ~trumps) + popcount(hand & TENS & trumps)
    game = (params[GAME_BASE] + params[GAME_PER_CARD] * cards + params[GAME_WIDOW] * widow
            + params[GAME_PER_TEAM] * (s[OPTIONS + O_TEAMS] - 2))
    return points + 1.0 / (1.0 + np.exp(-game))


@nb.njit(cache=True)
def best_suit(s, hand, allowed, params):
    """The suit among the bit mask ``allowed`` (bit t for suit t) whose ``suit_points`` is highest,
    and those points."""
    best, best_points = -1, 0.0
    for t in range(4):
        if (allowed >> t) & 1:
            points = suit_points(s, hand, t, params)
            if best < 0 or points > best_points:
                best, best_points = t, points
    return best, best_points


@nb.njit(cache=True, inline="always")
def bid_margin(s, params):
    """Points taken off the estimate before bidding, by the rules: ``bid_margin``, plus
    ``partner_margin`` per partner beyond the first (Shmear's two teams of three), plus
    ``ne_margin`` in NE Smear, plus ``in_play_margin`` with ``high_low = in_play``."""
    margin = params[BID_MARGIN] + params[PARTNER_MARGIN] * (_partners(s) - 1)
    if s[OPTIONS + O_VARIANT] == NESMEAR:
        margin += params[NE_MARGIN]
    if s[OPTIONS + O_HIGH_LOW] == HIGH_LOW_IN_PLAY:
        margin += params[IN_PLAY_MARGIN]
    return margin


@nb.njit(cache=True, inline="always")
def _need(s, seat):
    """The points the team of ``seat`` needs to reach the match's target."""
    return s[MATCH_TARGET] - s[MATCH_TOTALS + seat]


@nb.njit(cache=True)
def match_stop(s, me):
    """The lowest bid that, made by the team of ``me``, keeps every other team from going out on
    this hand; 0 when no other team can (or outside a match). With ``go_out = bid_only`` any bid
    does (the others go out only on a bid of their own); otherwise the bid must leave the others
    fewer points than the fewest any of them needs."""
    if s[MATCH_TARGET] == 0:
        return 0
    v = s[OPTIONS + O_VARIANT]
    theirs = s[MATCH_TARGET]
    for p in range(s[NUM_PLAYERS]):
        if team(s, p) != team(s, me):
            theirs = min(theirs, _need(s, p))
    if theirs > MAX_BID[v]:
        return 0
    if s[MATCH_BID_ONLY]:
        return MIN_BID[v]
    return max(MIN_BID[v], MAX_BID[v] - theirs + 1)


@nb.njit(cache=True, inline="always")
def top_line(s, me, lowest, params):
    """The worth from which seat ``me`` bids the top bid. In NE Smear 4 makes only with every point
    of the hand, so while 3 is open it takes ``ne_top_margin`` more (measured in the bid study: at
    a worth of 4.0 to 4.1, 3 scored a point more than 4); over an opponent's 3, before the dealer,
    ``ne_overcall`` less (passing gives them the hand: there 4 scored more for the table from a
    worth of 3.8, for the seat from 3.9; the dealer's 4 gained nothing below 4)."""
    v = s[OPTIONS + O_VARIANT]
    top = float(MAX_BID[v])
    if v != NESMEAR:
        return top
    if lowest < MAX_BID[v]:
        return top + params[NE_TOP_MARGIN]
    if me != s[DEALER] and team(s, s[BIDDER]) != team(s, me):
        return top - params[NE_OVERCALL]
    return top


@nb.njit(cache=True)
def bid_choice(s, me, points, params):
    """The bidding action for seat ``me`` whose best suit scores ``points``: that estimate with the
    position and dealer adjustments, less ``bid_margin``, if it beats the bid."""
    v = s[OPTIONS + O_VARIANT]
    n = s[NUM_PLAYERS]
    position = me - s[DEALER] - 1
    position += n * (position < 0)  # 0 for eldest .. n - 1 for the dealer
    estimate = points + params[POSITION_STEP] * position
    if v == SHMEAR and team(s, me) == team(s, s[DEALER]):
        estimate += params[DEALER_BONUS]
    if s[BIDDER] >= 0 and team(s, s[BIDDER]) == team(s, me):
        estimate -= params[PARTNER_OVERBID]
    worth = estimate - bid_margin(s, params)
    lowest = max(s[BID] + 1, MIN_BID[v])
    level = MAX_BID[v] if worth >= top_line(s, me, lowest, params) else min(int(np.floor(worth)), MAX_BID[v] - 1)
    if me == s[DEALER]:  # the dealer speaks last: just enough
        level = lowest if level >= lowest else 0
    elif level >= lowest and s[OPTIONS + O_TEAMS] >= 3:
        # the bidder scores the points he takes, not his bid: with three teams the lowest bid takes
        # the same points at less risk; with two a jump keeps the one other side out (capping lost)
        level = min(level, lowest + int(params[BID_JUMP]))
    stop = match_stop(s, me)
    if s[BIDDER] >= 0 and team(s, s[BIDDER]) == team(s, me) and s[BID] >= stop:
        stop = 0  # a partner's bid already stops them
    slack = params[MATCH_SLACK_BID_ONLY] if s[MATCH_BID_ONLY] else params[MATCH_SLACK]
    if stop > 0 and level < max(stop, lowest) <= min(worth + slack, MAX_BID[v]):
        level = max(stop, lowest)  # bid over the hand to keep the others from going out
    return A.BID + level if level >= lowest else A.PASS


@nb.njit(cache=True)
def _bid(s, params):
    me = s[TO_ACT]
    _, points = best_suit(s, s[HANDS + me], 0xF, params)
    return bid_choice(s, me, points, params)


@nb.njit(cache=True)
def _name_trump(s, params):
    t, _ = best_suit(s, s[HANDS + s[TO_ACT]], trump_words(s) >> A.TRUMP, params)
    return A.TRUMP + t


# --- the Shmear draw and the discards (docs/rules.md, Shmear: Draw; NE Smear: Widow and trump) ---


@nb.njit(cache=True)
def _draw(s, params):
    """Throw a plain card below ``draw_keep_rank`` (a ten as ``draw_keep_tens`` says), shortest suit
    first, lowest first; ``done`` when none is left (the draw replaces what he throws)."""
    me = s[TO_ACT]
    hand = s[HANDS + me]
    row = s[TABLE]
    m = draw_mask(s, me)
    best, best_key = -1, 0
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        rank = c % 13
        guarded = has(hand, c + 4)  # a ten with the ace of its suit
        if rank >= params[DRAW_KEEP_RANK] or (rank == TEN_RANK and params[DRAW_KEEP_TENS] + guarded > 1.5):
            continue
        key = 16 * popcount(hand & SUIT_MASKS[row, EFFECTIVE[row, c]]) + rank
        if best < 0 or key < best_key:
            best, best_key = c, key
    return A.DONE if best < 0 else DISCARD_BASE + best


@nb.njit(cache=True)
def _discard(s, params):
    """Throw the card least worth keeping (``KEEP``), after the plain tens ``discard_tens`` throws
    first (NE Smear: the bidder's discards count for his Game, so ``KEEP`` puts his plain kings,
    queens and jacks below his low cards)."""
    me = s[TO_ACT]
    hand = s[HANDS + me]
    row = s[TABLE]
    cards = discard_mask(s, hand)
    tens = cards & TENS & ~SUIT_MASKS[row, s[TRUMP]] & -(s[OPTIONS + O_VARIANT] == NESMEAR)
    if params[DISCARD_TENS] < 1.5:
        tens &= ~(hand & ACES) >> 4  # keep a ten with the ace of its suit
    if params[DISCARD_TENS] > 0.5 and tens != 0:
        return DISCARD_BASE + lowest_card(tens)
    return DISCARD_BASE + _best(cards, KEEP, row, True)


# --- play (docs/rules.md, Shmear and NE Smear: Play, Points) ---------------------------------------


@nb.njit(cache=True, inline="always")
def shown_voids(s):
    """Bit ``4 * seat + suit`` for each effective suit a seat has shown it lacks: it played
    another card to a trick of that suit (a trump, where a trump was not allowed either)."""
    row = s[TABLE]
    t = s[TRUMP]
    n = s[NUM_PLAYERS]
    may_trump = s[OPTIONS + O_MAY_TRUMP]
    voids = np.int64(0)
    for k in range(s[TRICK_NO] + 1):
        slot = TRICKS + k * TRICK_SLOTS
        count = n if k < s[TRICK_NO] else s[IN_TRICK]
        if count == 0:
            break
        led = EFFECTIVE[row, s[slot + 1]]
        seat = s[slot]
        for i in range(1, count):
            seat = left(s, seat)
            e = EFFECTIVE[row, s[slot + 1 + i]]
            if shows_void(led, e, t, may_trump):
                voids |= bit(4 * seat + led)
    return voids


@nb.njit(cache=True, inline="always")
def _void(voids, seat, suit):
    return (voids >> (4 * seat + suit)) & 1 != 0


@nb.njit(cache=True, inline="always")
def hold_chances(s, unseen):
    """The chance that one seat still to play in this trick holds a given unseen trump, and a
    given unseen plain card: its cards over the ``unseen`` ones, where the Shmear trumps
    are all in hands (the draw throws only plain cards and the dealer keeps his trumps: docs/rules.md,
    Shmear: Draw), so the dead cards are plain ones; in NE Smear any unseen card may be undealt."""
    row = s[TABLE]
    n = s[NUM_PLAYERS]
    h = HAND_SIZE - s[TRICK_NO]  # a later seat has not played to this trick yet
    after = n - s[IN_TRICK] - 1
    held = after * h + (n - 1 - after) * (h - 1)  # the other seats' cards: the live unseen ones
    u = popcount(unseen)
    if s[OPTIONS + O_VARIANT] == NESMEAR or u == 0:
        q = h / max(u, 1)
        return q, q
    trumps = popcount(unseen & SUIT_MASKS[row, s[TRUMP]])
    live = min(trumps, held)
    q_trump = h / held * live / trumps if trumps > 0 else 0.0
    q_plain = h / held * (held - live) / (u - trumps) if u > trumps else 0.0
    return q_trump, q_plain


@nb.njit(cache=True, inline="always")
def beat_chance(s, c, me, unseen, voids):
    """The chance that an opponent still to play in this trick beats ``c``, the card that would be
    winning it (led by ``me``, or of the suit led or a trump); ``unseen``: cards ``me`` has not seen.
    Each later opponent holds each unseen card with ``hold_chances``, none of a suit he has shown
    void in; he beats ``c`` with a higher card of its suit, or with a trump when he may play one:
    trumps allowed, the suit led shown void, or too few cards of it left for the seats to come.
    0 exactly when no later opponent can beat ``c``."""
    row = s[TABLE]
    t = s[TRUMP]
    e = EFFECTIVE[row, c]
    led = s[LED] if s[IN_TRICK] > 0 else e
    after = s[NUM_PLAYERS] - s[IN_TRICK] - 1
    higher = popcount(HIGHER[row, c] & unseen)
    trumps_out = popcount(SUIT_MASKS[row, t] & unseen) if e != t else 0
    if after == 0 or (higher == 0 and trumps_out == 0):
        return 0.0
    q_trump, q_plain = hold_chances(s, unseen)
    loose = s[OPTIONS + O_MAY_TRUMP] != 0 or led == t
    loose |= popcount(unseen & SUIT_MASKS[row, led]) < after  # too few left: some must be out
    q_own = q_trump if e == t else q_plain
    p_high = 1.0 - (1.0 - q_own) ** higher
    p_trump = 1.0 - (1.0 - q_trump) ** trumps_out
    safe = 1.0
    p = me
    for _ in range(after):
        p = left(s, p)
        if team(s, p) == team(s, me):
            continue
        void_led = _void(voids, p, led)
        # a void he has not shown is not counted: in Shmear, where it matters, the sure winners
        # of that count measured better than any weighing of the voids the draw makes likely
        can_trump = 0.0 if _void(voids, p, t) or not (loose or void_led) else 1.0
        if e == t:
            beat = p_high * can_trump
        else:
            own = 0.0 if void_led else p_high
            beat = own + (1.0 - own) * p_trump * can_trump
        safe *= 1.0 - beat
    return 1.0 - safe


@nb.njit(cache=True, inline="always")
def _ne(s, risk):
    """``risk`` in NE Smear, 0 in Shmear: there any seat may trump, so ``beat_chance`` counts every
    way to beat a card; in Shmear it leaves out the voids not shown, and only a card no later
    opponent can beat measured better than any risk."""
    return risk if s[OPTIONS + O_VARIANT] == NESMEAR else 0.0


@nb.njit(cache=True, inline="always")
def _variant(s, params, shmear, nesmear):
    """The parameter ``shmear`` in Shmear, ``nesmear`` in NE Smear."""
    return params[nesmear if s[OPTIONS + O_VARIANT] == NESMEAR else shmear]


@nb.njit(cache=True, inline="always")
def _safe(s, cards, me, unseen, voids, risk):
    """The cards of ``cards`` that later opponents beat with a chance of at most ``risk``."""
    safe = np.int64(0)
    m = np.int64(cards)
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        if beat_chance(s, c, me, unseen, voids) <= risk:
            safe |= bit(c)
    return safe


@nb.njit(cache=True, inline="always")
def _safe_captures(cards, row, unseen):
    """The Jack/Jick/joker of ``cards`` that no unseen trump is above: each wins whatever trick it
    is played to (a higher trump is played or in the seat's own hand)."""
    safe = np.int64(0)
    m = np.int64(cards & CAPTURE[row])
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        if HIGHER[row, c] & unseen == 0:
            safe |= bit(c)
    return safe


@nb.njit(cache=True, inline="always")
def _exposed_captures(cards, row, unseen):
    """The Jack/Jick/joker of ``cards`` that an unseen trump above may catch later: in Shmear one
    played where no later opponent can beat it banks its point for the trick's side."""
    return cards & CAPTURE[row] & ~_safe_captures(cards, row, unseen)


@nb.njit(cache=True, inline="always")
def _targets(s, unseen):
    """The Jack/Jick/joker and the ten of trumps still unseen: what a trump kept may catch."""
    row = s[TABLE]
    return (CAPTURE[row] | TENS & SUIT_MASKS[row, s[TRUMP]]) & unseen


@nb.njit(cache=True, inline="always")
def _last_trick_trump(s, c, unseen):
    """Shmear, two cards in hand: whether ``c`` is a trump no unseen card can beat, which kept
    wins the last trick, where every card still out falls. (In NE Smear, where a side card led
    is ruffed and unseen cards may be undealt, it measured no better.)"""
    row = s[TABLE]
    return (s[OPTIONS + O_VARIANT] == SHMEAR and s[TRICK_NO] == HAND_SIZE - 2
            and EFFECTIVE[row, c] == s[TRUMP] and HIGHER[row, c] & unseen == 0)


@nb.njit(cache=True, inline="always")
def _keeps_master(s, mine, params):
    """Shmear, the first lead, one partner: with fewer than ``master_lead_trumps`` trumps the master
    trump is kept. Led, it pulls only the opponents' lowest trumps; kept, it catches a Jack, Jick,
    joker or ten later. (Two partners feed it their point cards, so there it is led; in NE Smear
    keeping it measured worse.)"""
    return (s[OPTIONS + O_VARIANT] == SHMEAR and s[TRICK_NO] == 0 and _partners(s) == 1
            and popcount(mine) < params[MASTER_LEAD_TRUMPS])


@nb.njit(cache=True, inline="always")
def _lead(s, me, legal, unseen, voids, params):
    row = s[TABLE]
    t = s[TRUMP]
    trumps = SUIT_MASKS[row, t]
    mine = legal & trumps
    out = unseen & trumps
    if mine != 0:
        top, _ = extreme_trumps(row, mine)
        opponents_trump = False
        for p in range(s[NUM_PLAYERS]):
            opponents_trump |= team(s, p) != team(s, me) and not _void(voids, p, t)
        if out != 0 and opponents_trump:
            if (HIGHER[row, top] & unseen == 0 and not _keeps_master(s, mine, params)
                    and not (_last_trick_trump(s, top, unseen) and legal != mine)):
                return top  # (with two cards the other one leads: the top trump takes the last trick)
            if me == s[BIDDER] and popcount(mine) >= _variant(s, params, LEAD_LOW_TRUMPS, NE_LEAD_LOW_TRUMPS):
                # draw out the higher ones: in NE Smear with a K or Q, which the Jack and ten fall under
                tops = mine & TOP3[row] if s[OPTIONS + O_VARIANT] == NESMEAR else 0
                return _best_now(tops if tops != 0 else mine, THROW_COST, row, True, unseen, 1)
        elif out == 0 and mine & CAPTURE[row] != 0:  # nothing can catch them any more
            return lowest_card(mine & CAPTURE[row])
    side = legal & ~trumps
    lead_risk = _ne(s, params[NE_LEAD_RISK])
    if side != 0:
        safe = _safe(s, side, me, unseen, voids, lead_risk)
        if safe != 0:
            return _best_now(safe, WIN_COST, row, True, unseen, 1)
        return _best_now(side, THROW_COST, row, True, unseen, 1)
    top, _ = extreme_trumps(row, mine)
    if HIGHER[row, top] & unseen == 0:
        return _best_now(_safe(s, mine, me, unseen, voids, lead_risk) | bit(top), WIN_COST, row, True, unseen, 1)
    return _best_now(mine, THROW_COST, row, True, unseen, 1)


@nb.njit(cache=True, inline="always")
def _winner(s, safe, row, unseen):
    """The cheapest of the sure winners ``safe`` by ``WIN_COST``, leaving out a Jack/Jick/joker that
    no unseen trump is above while another card wins: that one wins whatever trick it is played to
    (a higher trump is played or in the seat's own hand), so it need not be spent on this trick,
    and the other winner can bank its game points (a ten of trumps) or keep a trump for later."""
    spare = safe & ~_safe_captures(safe, row, unseen)
    return _best_now(spare if spare != 0 else safe, WIN_COST, row, True, unseen, 1)


@nb.njit(cache=True, inline="always")
def _worth_winning(s, c, value, params, unseen):
    """Whether the trick, worth ``value``, is worth the sure winner ``c``: a top trump (A K Q) only
    for ``win_value``, a trump on a plain trick only for ``ruff_value`` (NE Smear:
    ``ne_ruff_value``; the trump is kept for a trick that counts; in Shmear without ``may_trump``
    not the ten of trumps, which banks its ten for Game), but a Jack/Jick/joker always (winning
    saves it) unless no unseen trump is above it while another Jack/Jick/joker or the ten of
    trumps is out: then it is safe anyway and only ``win_value`` is worth it, as it wins the trick
    where they may fall. Once none of those is out (``_targets``), a top trump or such a
    Jack/Jick/joker needs only the ruff value: nothing is left for it to catch, so kept it would
    only win a later trick. With two cards left a trump a higher one still out would catch in the
    last trick is worth any trick; never a trump ``_last_trick_trump`` keeps for the last trick on
    a trick worth less than the point card it may catch there."""
    row = s[TABLE]
    targets = _targets(s, unseen)
    if _last_trick_trump(s, c, unseen) and value < CAPTURE_WEIGHT and targets != 0:
        return False  # kept for the last trick, where they fall
    ruff = _variant(s, params, RUFF_VALUE, NE_RUFF_VALUE)
    win = _variant(s, params, WIN_VALUE, NE_WIN_VALUE)
    safe_capture = has(CAPTURE[row], c) and HIGHER[row, c] & unseen == 0
    if (safe_capture or has(TOP3[row], c)) and targets == 0:
        return value >= ruff  # nothing left to catch: kept, it only wins a later trick
    if safe_capture:
        return value >= win  # safe kept: for a trick where they may fall
    if has(TOP3[row], c):
        return value >= win
    if EFFECTIVE[row, c] == s[TRUMP] and s[LED] != s[TRUMP] and not has(CAPTURE[row], c):
        if s[TRICK_NO] == HAND_SIZE - 2 and HIGHER[row, c] & unseen != 0:
            return True  # kept, it would most likely lose the last trick to a higher trump
        if s[OPTIONS + O_VARIANT] == SHMEAR and s[OPTIONS + O_MAY_TRUMP] == 0 and has(TENS, c):
            return True  # it banks its own ten
        return value >= ruff
    return True


@nb.njit(cache=True, inline="always")
def _spares_master(s, c, legal, row, unseen):
    """Shmear with one partner and without ``may_trump``, a card to give away: whether ``c`` is a
    trump no unseen trump is above, not a Jack/Jick/joker, while ``legal`` holds a Jack/Jick/joker
    an unseen trump above may catch. That one goes instead: kept, the master trump wins a trick for
    sure, where the Jack/Jick/joker could only be caught (+0.012 to +0.015 a deal; with two partners,
    who may hold the trump above it, and with ``may_trump``, where it may trump any later trick to
    bank itself, it lost)."""
    return (s[OPTIONS + O_VARIANT] == SHMEAR and _partners(s) == 1 and s[OPTIONS + O_MAY_TRUMP] == 0
            and EFFECTIVE[row, c] == s[TRUMP] and not has(CAPTURE[row], c) and HIGHER[row, c] & unseen == 0
            and _exposed_captures(legal, row, unseen) != 0)


@nb.njit(cache=True, inline="always")
def _follow(s, me, legal, unseen, voids, params):
    row = s[TABLE]
    led = s[LED]
    slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
    n = s[IN_TRICK]
    position = trick_winner(s, slot + 1, n, led, EFFECTIVE[row], POWER[row], -1)
    winning = s[slot + 1 + position]
    seat = s[slot]
    for _ in range(position):
        seat = left(s, seat)
    to_beat = trick_power(winning, led, EFFECTIVE[row], POWER[row])
    beaters = np.int64(0)
    m = legal
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        if trick_power(c, led, EFFECTIVE[row], POWER[row]) > to_beat:
            beaters |= bit(c)
    under = legal & ~beaters
    trick = s[TRICK_MASK]
    value = game_points(trick) + CAPTURE_WEIGHT * popcount(trick & CAPTURE[row])
    win = _variant(s, params, WIN_VALUE, NE_WIN_VALUE)
    if team(s, seat) == team(s, me):
        if beat_chance(s, winning, me, unseen, voids) <= _ne(s, params[NE_FEED_RISK]):  # his trick: feed it
            feed = under if under != 0 else legal
            if s[OPTIONS + O_VARIANT] == SHMEAR:  # overtaking him, if need be, to bank its point
                feed |= _safe(s, _exposed_captures(beaters, row, unseen), me, unseen, voids, 0.0)
            if _targets(s, unseen) != 0:
                m = _safe_captures(feed, row, unseen)
                while m != 0:
                    c = lowest_card(m)
                    m &= m - 1
                    if feed & ~bit(c) != 0:
                        feed &= ~bit(c)  # safe kept, it wins the trick where they may fall
            return _best_now(feed, FEED_VALUE, row, False, unseen, -1)
        safe = _safe(s, beaters, me, unseen, voids, 0.0)
        if safe != 0 and value >= win:  # cover a partner who may be beaten
            return _winner(s, safe, row, unseen)
        bank = _exposed_captures(safe, row, unseen)
        if s[OPTIONS + O_VARIANT] == SHMEAR and bank != 0:
            return _best_now(bank, WIN_COST, row, True, unseen, 1)
        return _throw(under if under != 0 else legal, row, unseen)
    safe = _safe(s, beaters, me, unseen, voids, 0.0)
    if safe != 0:
        c = _winner(s, safe, row, unseen)
        if safe == legal or _worth_winning(s, c, value, params, unseen):
            return c
        # not worth it: thrown below like any card, also where every card beats but not surely
        if s[OPTIONS + O_VARIANT] == SHMEAR and s[OPTIONS + O_MAY_TRUMP] != 0:
            # but not a sure winner, which thrown would take the trick all the same: the cheapest
            # card that may lose goes, and the trump kept may trump any later trick that counts
            return _throw(legal & ~safe, row, unseen)
    elif beaters != 0 and value >= win:  # a risk with a card worth nothing
        c = _best_now(beaters, THROW_COST, row, True, unseen, 1)
        if THROW_COST[row, c] < RISK_COST and not has(TOP3[row], c):
            return c
    c = _throw(legal, row, unseen)
    if _spares_master(s, c, legal, row, unseen):
        return _throw(_exposed_captures(legal, row, unseen), row, unseen)
    return c


@nb.njit(cache=True, inline="always")
def _play(s, params):
    me = s[TO_ACT]
    legal = play_mask(s, me)
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    hand = s[HANDS + me]
    played = s[WON] | s[WON + 1] | s[WON + 2] | s[TRICK_MASK]
    unseen = DECK_MASKS[s[OPTIONS + O_VARIANT]] & ~hand & ~played & ~s[DISCARDS + me]
    voids = shown_voids(s)
    if s[IN_TRICK] == 0:
        return _lead(s, me, legal, unseen, voids, params)
    return _follow(s, me, legal, unseen, voids, params)


# --- the agent --------------------------------------------------------------------------------


@nb.njit(cache=True)
def act(s, params, rng):
    """The action id the heuristic chooses for the seat to act, ``s[TO_ACT]`` (always legal)."""
    phase = s[PHASE]
    if phase == PLAYING:
        return PLAY_BASE + _play(s, params)
    if phase == BIDDING:
        return _bid(s, params)
    if phase == TRUMPING:
        return _name_trump(s, params)
    if phase == DRAWING:
        return _draw(s, params)
    return _discard(s, params)


@nb.njit(cache=True, inline="always")
def record_features(s, dealt, out, i, column):
    """Write len(FEATURES) values to ``out[i, column:]`` for the finished hand ``s``: the bidder's
    dealt hand ``dealt[bidder]`` in the hand's trump (see FEATURES); -1 when nobody bid."""
    bidder = s[BIDDER]
    if bidder < 0:
        for k in range(len(FEATURES)):
            out[i, column + k] = -1
        return
    hand = dealt[bidder]
    row = s[TABLE]
    out[i, column] = popcount(hand & SUIT_MASKS[row, s[TRUMP]])
    out[i, column + 1] = popcount(hand & TOP4[row])
    out[i, column + 2] = popcount(hand & POINT_MASK[row])
    out[i, column + 3] = popcount(hand & TENS)
