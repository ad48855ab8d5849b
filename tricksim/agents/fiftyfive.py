"""A heuristic Fifty-five player (docs/rules.md, Fifty-five), as numba code for the batch loop.

What it does, phase by phase:

* **Bid.** ``suit_value`` prices a hand for a trump suit in points: 5 a trick and 5 for
  the best trump. Each card is worth ``win_weight`` tricks times the chance that no
  opponent holds a card that beats it (the 5, and the J behind it, are sure; a king
  rarely survives the trumps), each trump ``low_trump`` more (it ruffs any plain lead
  and survives the pull), each side king ``king`` more; the best-trump bonus comes with
  the chance that no opponent holds a higher trump than the hand's top one. The rule
  options set the odds (``held_against``): only the other teams' seats are opponents
  (``teams``), and with ``exchange`` they choose their five among their deal and their
  share of the stock cards the exchange can draw, keeping its trumps; with teams the
  partners add their share of the tricks the hand does not take (``partner_share``).
  The best suit is the hand's estimate. ``worth`` adds ``kitty_bonus``, ``position_step`` a
  seat after eldest and ``players_step`` a player fewer than five, takes away
  ``bid_margin`` and, with ``exchange``, the same kitty price of each rival's draws
  (``exchange_draws``: every other seat's exchange is a small kitty of its own) and, for a seat
  after eldest, ``draw_margin`` a card each rival draws (the long hands with one top trump bid
  too often there), and
  ``bid_rule`` bids the highest value of ``bid_values`` that covers (60 only when the hand
  alone is worth ``slam_points``: all five tricks; less ``slam_allowance`` with one partner,
  who helps take them, and ``open_slam`` for the first seat to bid: ``slam_line``). A seat
  before the dealer never bids below ``bid_floor``, the lowest value the dealer holds not
  even with the weakest hand (``sure_hold``): a lower bid never stands, so a hand that covers
  one bids the floor instead; the dealer's partner passes a bid the dealer holds that surely,
  which gives the side the bid a step cheaper than its own raise. The dealer holds when the
  worth plus ``dealer_hold`` reaches the bid (a hold takes the bid a step cheaper than a
  raise) and raises only to 60 with a slam (or to ``match_stop``'s bid); in the duel the
  displaced bidder raises one step when covered. With nobody bidding the dealer bids the
  lowest value if covered. In a match, when another side can go out on this hand, the seat
  covers up to ``match_slack`` points over its worth the lowest bid that, made, leaves that
  side short (``match_stop``; not with an exchange, where it lost).
* **Kitty.** Of its ten cards the bidder keeps, for each suit, its trumps high to low
  (so the 5, J and A♥ first), then side kings, then the highest plain cards
  (``KEEP_ORDER``), and takes the suit whose five keep the highest ``suit_value``; it
  discards the rest one by one and names that suit. Each of the six decisions
  recomputes this from hand + discards, so the choice never drifts.
* **Exchange** (``exchange = k > 0``): a non-bidder discards its plain cards below the
  top ``exchange_keep`` ranks of their suit (kings), lowest first, then says ``done``;
  trumps are kept.
* **Play.** Leading, while opponents may hold trumps: the top trump, when it is safe
  (beaten with chance at most ``lead_risk``), or to pull theirs when the seat holds
  ``pull_trumps`` trumps on the bidder's side or ``defender_pull`` against it (by
  default never: a defender's trump lead only helps the bidder draw trumps); otherwise the
  cheapest safe card; with none the card least likely to be beaten when that chance is at
  most ``lead_try`` (the bidder's side) or ``defender_try`` (a defender alone; with partners
  never), and otherwise the lowest card. Following: when a partner
  (``teams``) wins the trick, the lowest card, never overtaking unless the partner is
  beaten with chance above ``overtake_risk`` and a safe winner is at hand; else the
  cheapest winning card that the opponents still to play beat with chance at most
  ``win_risk`` for a trump, ``plain_risk`` for a plain card (by default any: a plain
  card rarely wins later, when voids let others ruff it) and ``stop_risk`` when the
  bidder's side is winning and the seat is not on it (by default any: a trick kept from
  the bidder may set him); with none the lowest card. Cards rank by trick power, so plain
  losers go before trumps, the 5, J and A♥ are withheld (reneged) on a low trump lead
  they cannot win, and a lower card takes a trick when it is enough (the 5 is not
  wasted).

The defaults come from self-play: ``suit_value``'s weights were fitted to the tricks
bidders take, then every parameter was swept with one seat changed among default
seats (2 to 9 players) until no single change gained; ``win_risk``, ``plain_risk``,
``stop_risk`` and ``defender_pull`` were set later against the earlier heuristic
(9814506) on duplicate deals, ``lead_try``, ``defender_try`` and ``partner_slam`` against
b4e631a's; ``open_slam``, ``bid_floor``, the partner's pass and the dealer's hold were read
from the bid study's rows (``tricksim study bid fiftyfive --out``) and kept against e9b3984's,
``draw_margin`` likewise (six players, ``exchange=3``) against a1f4eef's.

Chances are hypergeometric (``P_NONE``): ``held`` of the ``unknown`` cards the seat
has not seen sit in the hands that matter, and a seat that showed a void in a
trick (``shown_void``) cannot hold that suit.

Knowledge rule: ``act`` reads only what the seat to act may know: its own hand
``HANDS[me]`` and discards ``DISCARDS[me]`` (the bidder's include the kitty
cards it dropped; its hand the ones it kept), and public slots: ``PHASE``,
``TO_ACT``, ``DEALER``, ``NUM_PLAYERS``, ``OPTIONS``, ``BIDDER``, ``BID``,
``TRUMP``, ``TRICK_NO``, ``IN_TRICK``, ``LED``, ``LED_CARD``, ``PLAYED``, the
``TRICKS`` slots, the match's ``MATCH_TOTALS`` and ``MATCH_TARGET``, and through
``exchange_limit`` the number of cards left in the stock (``STOCK``'s count,
public) and ``EXCHANGED``. Never other hands, their discards,
``KITTY``/``KITTY_TAKEN`` or the stock's cards.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..cards import card
from ..sim import actions as A
from ..sim.fiftyfive import (
    ACE_OF_HEARTS,
    BEATEN_BY,
    BEST_TRUMP_POINTS,
    BIDDER,
    BID,
    DEALER,
    DECK_MASK,
    DISCARDS,
    DISCARDING,
    DUEL,
    EFFECTIVE,
    EXCHANGING,
    HAND_SIZE,
    HANDS,
    KITTY_SIZE,
    IN_TRICK,
    KITTY_TAKEN,
    LED,
    MATCH_TARGET,
    MATCH_TOTALS,
    NUM_PLAYERS,
    NUM_TRICKS,
    O_BIDS,
    O_EXCHANGE,
    O_NUM_BIDS,
    O_TEAMS,
    OPTIONS,
    PHASE,
    PLAYED,
    PLAYING,
    POWER,
    SUIT_MASKS,
    SUIT_NAMES,
    TO_ACT,
    TRICK_NO,
    TRICK_POINTS,
    TRICK_SLOTS,
    TRICKS,
    TRUMP,
    TRUMP_ORDERS,
    TRUMPING,
    exchange_limit,
    play_mask,
    shown_missing,
    side,
)
from ..sim.kernels import (
    ALWAYS_WINS,
    bit,
    has,
    lowest_card,
    popcount,
    trick_winner,
)

PARAMS = (
    ("bid_margin", 0.0, "points the estimate must exceed a bid value by for the seat to bid it"),
    ("kitty_bonus", 9.0, "points the 5-card kitty is expected to add to the hand"),
    ("position_step", 0.0, "points added to the estimate per seat after eldest"),
    ("players_step", 1.0, "points added to the estimate per player fewer than five (taken per player more)"),
    ("dealer_hold", 4.0, "points of allowance when the dealer holds (matches) a bid"),
    ("slam_points", 28.0, "estimate of the hand alone from which a seat bids or holds 60"),
    ("partner_slam", 6.0, "points slam_points falls with one partner against two opponents (slam_allowance)"),
    ("win_weight", 0.55, "tricks per unit of a card's chance that no opponent holds a card beating it"),
    ("low_trump", 0.5, "tricks every trump adds besides (it ruffs, and survives the pull)"),
    ("king", 0.2, "tricks a side king adds besides"),
    ("win_risk", 0.5, "highest chance of being beaten at which a follower still plays a winning card"),
    ("lead_risk", 0.1, "highest chance of being beaten at which a card counts as a safe lead"),
    ("pull_trumps", 2.0, "trumps from which a leader leads its top trump, safe or not, to pull trumps"),
    ("overtake_risk", 0.6, "chance a partner's winning card is beaten above which a seat overtakes it"),
    ("exchange_keep", 1.0, "plain ranks from the top of a suit (1 = kings) a seat keeps in the exchange"),
    ("plain_risk", 1.0, "highest chance of being beaten at which a follower still wins with a plain card"),
    ("stop_risk", 1.0, "highest chance of being beaten at which a defender still takes a trick from the bidder"),
    ("defender_pull", 9.0, "trumps from which a defender (not the bidder's side) leads its top trump"),
    ("lead_try", 0.35, "highest chance of being beaten at which a leader on the bidder's side with no safe card "
                       "leads its likeliest winner"),
    ("defender_try", 0.3, "lead_try for a defender playing alone (teams = 0)"),
    ("match_slack", 20.0, "points above its worth a seat bids to keep another side from going out on this "
                         "hand (match_stop; measured in match play)"),
    ("open_slam", 2.0, "points slam_points falls for the first seat to bid (no bid before it shows strength)"),
    ("draw_margin", 0.16, "points added to bid_margin after eldest per card each rival can draw in the "
                          "exchange (exchange_draws; measured with six players, exchange=3)"),
)
DEFAULTS = np.array([default for _, default, _ in PARAMS], dtype=np.float64)
(BID_MARGIN, KITTY_BONUS, POSITION_STEP, PLAYERS_STEP, DEALER_HOLD, SLAM_POINTS, PARTNER_SLAM, WIN_WEIGHT, LOW_TRUMP,
 KING, WIN_RISK, LEAD_RISK, PULL_TRUMPS, OVERTAKE_RISK, EXCHANGE_KEEP, PLAIN_RISK, STOP_RISK,
 DEFENDER_PULL, LEAD_TRY, DEFENDER_TRY, MATCH_SLACK, OPEN_SLAM, DRAW_MARGIN) = range(len(PARAMS))

FEATURES = ("trumps", "top_trumps", "bidder_best_suit_trumps", "kitty_trumps")
# trumps: the bidder's trumps as dealt; top_trumps: of those, the 5, J, A♥ and A of trumps (three
# cards at most with hearts trumps); bidder_best_suit_trumps: the most trumps any suit would have
# given the dealt hand; kitty_trumps: trumps in the kitty. -1 everywhere with no bidder.

# --- tables (docs/rules.md, Fifty-five) ----------------------------------------------------------

MAX_ORDER = 14  # trumps of a suit: 13, 14 with A♥ in a suit other than hearts
TRUMPS = np.array([SUIT_MASKS[t, t] for t in range(4)], dtype=np.int64)
KINGS = np.int64(sum(1 << card("K", suit) for suit in SUIT_NAMES))


def _trump_order():
    """TRUMP_ORDER[t, i]: the i-th highest trump (docs/rules.md, Fifty-five: Trumps), -1 past the last."""
    order = np.full((4, MAX_ORDER), -1, dtype=np.int64)
    for t in range(4):
        order[t, :len(TRUMP_ORDERS[t])] = TRUMP_ORDERS[t]
    return order


def _top_trumps():
    """TOP_TRUMPS[t]: the 5, J and A of trumps and A♥ (three cards with hearts trumps)."""
    return np.array([sum(1 << c for c in {card(r, SUIT_NAMES[t]) for r in "5JA"} | {ACE_OF_HEARTS})
                     for t in range(4)], dtype=np.int64)


def _plain_rank():
    """PLAIN_RANK[t, c]: how many plain cards of its suit outrank plain card ``c`` (0 for a king);
    99 for a trump."""
    out = np.full((4, 52), 99, dtype=np.int64)
    for t in range(4):
        for c in range(52):
            if POWER[t, c] < ALWAYS_WINS:
                out[t, c] = sum(1 for d in range(52) if EFFECTIVE[t, d] == EFFECTIVE[t, c]
                                and POWER[t, c] < POWER[t, d] < ALWAYS_WINS)
    return out


def _keep_order():
    """KEEP_ORDER[t]: the 52 cards in the order the bidder keeps them with ``t`` trumps: trumps high
    to low, then plain cards by rank in their suit (kings first), ties by suit."""
    return np.array([sorted(range(52), key=lambda c: (-POWER[t, c] if POWER[t, c] >= ALWAYS_WINS else 0,
                                                      PLAIN_RANK[t, c], c)) for t in range(4)],
                    dtype=np.int64)


TRUMP_ORDER = _trump_order()
ORDER_LEN = np.array([len(o) for o in TRUMP_ORDERS], dtype=np.int64)
HIGHER = BEATEN_BY & TRUMPS[:, None]  # HIGHER[t, c]: the trumps above trump c
TOP_TRUMPS = _top_trumps()
PLAIN_RANK = _plain_rank()
KEEP_ORDER = _keep_order()

# --- chances -------------------------------------------------------------------------------------


def _p_none():
    """P_NONE[unknown, held, r]: the chance that none of ``r`` given cards among ``unknown`` unseen
    ones is among the ``held`` cards in the hands that matter (hypergeometric)."""
    out = np.zeros((53, 53, MAX_BEATERS + 1), dtype=np.float64)
    for unknown in range(53):
        for held in range(unknown + 1):
            p = 1.0
            for r in range(MAX_BEATERS + 1):
                out[unknown, held, r] = p
                free = unknown - held - r
                p = p * free / (unknown - r) if free > 0 else 0.0
    return out


MAX_BEATERS = max(bin(int(m)).count("1") for m in BEATEN_BY.ravel())
P_NONE = _p_none()


@nb.njit(cache=True, inline="always")
def shown_void(s, p, t):
    """Cards seat ``p`` has shown it cannot hold: a plain suit it did not follow with a plain card,
    and on a trump lead, when it played no trump, every trump but the ones it could withhold."""
    n = s[NUM_PLAYERS]
    cant = np.int64(0)
    for k in range(min(s[TRICK_NO] + 1, NUM_TRICKS)):
        slot = TRICKS + k * TRICK_SLOTS
        count = n if k < s[TRICK_NO] else s[IN_TRICK]
        pos = p - s[slot]
        pos = pos + n if pos < 0 else pos
        if pos == 0 or pos >= count:
            continue
        cant |= shown_missing(t, s[slot + 1], s[slot + 1 + pos])
    return cant


# --- bidding -------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def opponents(s):
    """The seats not on the side of the seat to act: every other seat, or the other teams'."""
    n = s[NUM_PLAYERS]
    k = s[OPTIONS + O_TEAMS]
    return n - n // k if k > 1 else n - 1


@nb.njit(cache=True, inline="always")
def held_against(s, unknown):
    """Unseen cards the opponents choose their five from before the play: their deals, plus
    their share of the cards the exchange can draw from the stock (they keep the trumps of it)."""
    opp = opponents(s)
    drawn = exchange_draws(s) * opp
    return min(HAND_SIZE * opp + drawn, unknown)


@nb.njit(cache=True, inline="always")
def exchange_draws(s):
    """The cards each other seat can draw in the exchange: ``exchange``, less when the stock
    (52 cards less the hands and the kitty) cannot serve everyone."""
    n = s[NUM_PLAYERS]
    stock = 52 - HAND_SIZE * n - KITTY_SIZE
    return min(s[OPTIONS + O_EXCHANGE] * (n - 1), stock) // (n - 1)


@nb.njit(cache=True, inline="always")
def suit_value(hand, t, unseen, held, share, params):
    """Expected points of ``hand``'s side with ``t`` trumps: 5 a trick and 5 times the chance
    that its top trump is the hand's best (no opponent holds a higher one).

    Tricks (at most five): for each card ``win_weight`` times the chance that no opponent holds a
    card that beats it, plus ``low_trump`` for a trump and ``king`` for a side king; partners
    (``share`` of the other seats) take their share of the tricks the hand does not. The weights
    were fitted to the tricks the bidder takes in self-play; the bonus chance matches the
    self-play rate within 0.02. The opponents hold ``held`` of the ``unseen`` cards."""
    unknown = popcount(unseen)
    tricks = 0.0
    bonus = 0.0
    m = np.int64(hand)
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        tricks += params[WIN_WEIGHT] * P_NONE[unknown, held, popcount(BEATEN_BY[t, c] & unseen)]
    trumps = hand & TRUMPS[t]
    tricks += params[LOW_TRUMP] * popcount(trumps) + params[KING] * popcount(hand & KINGS & ~TRUMPS[t])
    tricks = min(tricks, 5.0)
    tricks += (5.0 - tricks) * share
    for i in range(ORDER_LEN[t]):
        if has(trumps, TRUMP_ORDER[t, i]):
            bonus = P_NONE[unknown, held, popcount(HIGHER[t, TRUMP_ORDER[t, i]] & unseen)]
            break
    return 5.0 * tricks + 5.0 * bonus


@nb.njit(cache=True, inline="always")
def partner_share(s):
    """The share of the tricks the other seats take that go to the seat's partners (teams)."""
    n = s[NUM_PLAYERS]
    return (n - 1 - opponents(s)) / (n - 1)


@nb.njit(cache=True, inline="always")
def best_suit(s, hand, unseen, params):
    """``(value, suit)`` of the suit in which ``hand`` is worth most (lowest suit on a tie)."""
    held = held_against(s, popcount(unseen))
    share = partner_share(s)
    best, best_t = -1.0, 0
    for t in range(4):
        v = suit_value(hand, t, unseen, held, share, params)
        if v > best:
            best, best_t = v, t
    return best, best_t


@nb.njit(cache=True)
def hand_estimate(s, seat, params):
    """The seat's 5-card hand's value in its best suit (before the kitty), in points."""
    hand = s[HANDS + seat]
    value, _ = best_suit(s, hand, DECK_MASK & ~hand, params)
    return value


@nb.njit(cache=True, inline="always")
def slam_allowance(s, params):
    """Points the 60 threshold falls with teams: ``partner_slam`` with one partner and two
    opponents (four players, two teams), spread thinner the more opponents there are; none with
    two or more partners, whose share already lifts the estimate (measured: lower thresholds
    there lose, 6 players in teams of 3: -0.78 a deal with 3 points)."""
    n = s[NUM_PLAYERS]
    opp = opponents(s)
    if n - 1 - opp != 1:
        return 0.0
    return params[PARTNER_SLAM] / (opp - 1)


@nb.njit(cache=True)
def match_stop(s, seat):
    """The lowest bid value (60 aside) that, made by the side of ``seat``, leaves every other side
    fewer of the hand's points than it needs to go out; 0 when no other side can go out on this
    hand, none does, outside a match, and with an exchange (the rivals' draws make the bid too
    dear: stopping lost in match play at every slack tried, 5 to 20, with 5 and 6 players)."""
    if s[MATCH_TARGET] == 0 or s[OPTIONS + O_EXCHANGE] > 0:
        return 0
    hand_points = NUM_TRICKS * TRICK_POINTS + BEST_TRUMP_POINTS
    theirs = s[MATCH_TARGET]
    for p in range(s[NUM_PLAYERS]):
        if side(s, p) != side(s, seat):
            theirs = min(theirs, s[MATCH_TARGET] - s[MATCH_TOTALS + p])
    if theirs > hand_points:
        return 0
    for i in range(s[OPTIONS + O_NUM_BIDS]):
        v = s[OPTIONS + O_BIDS + i]
        if v != 60 and v > hand_points - theirs:
            return v
    return 0


@nb.njit(cache=True, inline="always")
def worth(s, seat, estimate, params):
    """The points ``seat`` counts on with a hand worth ``estimate``: the kitty's ``kitty_bonus``
    less the same price of each rival's draws (``exchange_draws``: every other seat's exchange
    is a small kitty of its own), ``position_step`` a seat after eldest, ``players_step`` a
    player fewer than five, less ``bid_margin`` and, after eldest, ``draw_margin`` a card each
    rival draws. (Measured in the bid study with six players and ``exchange=3``: after eldest, the
    hands just over 20 with one top trump and four trumps lost 5 to 10 points a deal bidding
    20 rather than passing; eldest's same hands gained 10 bidding.)"""
    n = s[NUM_PLAYERS]
    position = seat - s[DEALER] - 1
    position = position + n if position < 0 else position
    draws = exchange_draws(s)
    rival_kitty = params[KITTY_BONUS] * draws / KITTY_SIZE
    margin = params[BID_MARGIN] + (params[DRAW_MARGIN] * draws if position > 0 else 0.0)
    return (estimate + params[KITTY_BONUS] - rival_kitty + params[POSITION_STEP] * position
            + params[PLAYERS_STEP] * (5 - n) - margin)


@nb.njit(cache=True, inline="always")
def weakest_estimate(s, params):
    """The estimate of the weakest hand: five cards in four suits hold two of one, two trumps
    at ``low_trump`` each that win nothing, the partners' share of the rest (``suit_value``)."""
    tricks = 2 * params[LOW_TRUMP]
    return 5.0 * (tricks + (5.0 - tricks) * partner_share(s))


@nb.njit(cache=True, inline="always")
def sure_hold(s, params):
    """The highest bid the dealer holds whatever he holds: the worth of the weakest hand plus
    ``dealer_hold``."""
    return worth(s, s[DEALER], weakest_estimate(s, params), params) + params[DEALER_HOLD]


@nb.njit(cache=True, inline="always")
def bid_floor(s, params):
    """The lowest bid value (60 aside) the dealer does not hold with the weakest hand, 0 with none.
    A lower bid from a seat before the dealer never stands: he holds it whatever he holds
    (measured in the bid study: eldest's 10 or 15 scores as a pass, its 20 1.1 points more)."""
    held = sure_hold(s, params)
    for i in range(s[OPTIONS + O_NUM_BIDS]):
        v = s[OPTIONS + O_BIDS + i]
        if v != 60 and v > held:
            return v
    return 0


@nb.njit(cache=True, inline="always")
def slam_line(s, params):
    """The estimate from which a seat bids 60: ``slam_points``, less ``slam_allowance`` with one
    partner and ``open_slam`` for the first seat to bid (a bid before it shows an opponent's
    strength: after one, 60 lost 20 to 40 points a deal in the bid study where it paid first)."""
    line = params[SLAM_POINTS] - slam_allowance(s, params)
    return line - params[OPEN_SLAM] if s[BIDDER] < 0 else line


@nb.njit(cache=True)
def bid_rule(s, seat, estimate, params):
    """The auction action for ``seat`` with a hand worth ``estimate`` points (see the module
    docstring); an experiment swaps this function or sweeps its parameters."""
    dealer = s[DEALER]
    value = worth(s, seat, estimate, params)
    slam = estimate >= slam_line(s, params)
    current = s[BID]
    cover = 0  # the highest bid value covered
    step_up = 0  # the lowest bid value above the current bid
    for i in range(s[OPTIONS + O_NUM_BIDS]):
        v = s[OPTIONS + O_BIDS + i]
        if (v <= value and v != 60) or (v == 60 and slam):
            cover = v
        if step_up == 0 and v > current:
            step_up = v
    stop = match_stop(s, seat)
    if cover < stop <= value + params[MATCH_SLACK]:  # bid over the hand to keep another side from going out
        cover = stop
    if seat != dealer:
        if s[PHASE] == DUEL:  # the displaced bidder answers the dealer's hold one step up
            return A.bid_action(step_up) if 0 < step_up <= cover else A.PASS
        if side(s, seat) == side(s, dealer) and 0 < current <= sure_hold(s, params):
            return A.PASS  # the partner dealer holds it for the side: any raise costs a step more
        floor = bid_floor(s, params)
        if 0 < cover < floor:  # a bid the dealer holds anyway is no bid: make it one he may not
            cover = floor
        return A.bid_action(cover) if cover > current else A.PASS
    if s[BIDDER] < 0:  # nobody bid: the dealer's bid wins at once, so the lowest will do
        lowest = s[OPTIONS + O_BIDS]
        return A.bid_action(lowest) if cover >= lowest else A.PASS
    if s[PHASE] != DUEL and cover > current and (slam or cover == stop):  # a raise wins the auction at once:
        return A.bid_action(cover)  # the 60, or the bid that keeps another side from going out
    # a hold takes the bid at its value, a raise costs a step more (measured: holding 20 rather
    # than raising to 25 gains 5 to 9 points a deal where the rule raised)
    hold = slam if current == 60 else value + params[DEALER_HOLD] >= current
    return A.HOLD if hold else A.PASS


# --- kitty, trump, exchange ----------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def keep_five(cards, t):
    """The five cards of ``cards`` the bidder keeps with ``t`` trumps (KEEP_ORDER)."""
    keep = np.int64(0)
    k = 0
    for i in range(52):
        c = KEEP_ORDER[t, i]
        if has(cards, c):
            keep |= bit(c)
            k += 1
            if k == HAND_SIZE:
                break
    return keep


@nb.njit(cache=True)
def kitty_choice(s, seat, params):
    """``(keep, trump)``: the five cards the bidder keeps of the ten it held after taking the kitty
    (its hand and its discards so far), in the suit where they are worth most."""
    ten = s[HANDS + seat] | s[DISCARDS + seat]
    unseen = DECK_MASK & ~ten
    held = held_against(s, popcount(unseen))
    share = partner_share(s)
    best, best_t, best_keep = -1.0, 0, np.int64(0)
    for t in range(4):
        keep = keep_five(ten, t)
        v = suit_value(keep, t, unseen, held, share, params)
        if v > best:
            best, best_t, best_keep = v, t, keep
    return best_keep, best_t


@nb.njit(cache=True)
def exchange_rule(s, seat, params):
    """Discard the lowest plain card below the kept ranks while the limit allows, else ``done``."""
    t = s[TRUMP]
    hand = s[HANDS + seat]
    if exchange_limit(s) <= 0:
        return A.DONE
    best, best_power = -1, 1 << 30
    for i in range(52):
        if has(hand, i) and PLAIN_RANK[t, i] < 99 and PLAIN_RANK[t, i] >= params[EXCHANGE_KEEP]:
            if POWER[t, i] < best_power:
                best, best_power = i, POWER[t, i]
    return A.DONE if best < 0 else A.card_action(A.DISCARD, best)


# --- play ----------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def lowest_power(cards, t):
    """The card of ``cards`` with the lowest trick power: plain losers first, then low trumps."""
    best, best_power = -1, 1 << 30
    m = np.int64(cards)
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        if POWER[t, c] < best_power:
            best, best_power = c, POWER[t, c]
    return best


@nb.njit(cache=True, inline="always")
def threat(s, me, t, first_pos, unseen):
    """``(cards, held)``: the unseen cards the opponents at trick positions ``first_pos ..`` may hold
    (voids shown removed) and how many cards they hold in all."""
    n = s[NUM_PLAYERS]
    teams = s[OPTIONS + O_TEAMS]
    leader = s[TRICKS + s[TRICK_NO] * TRICK_SLOTS] if s[IN_TRICK] > 0 else me
    cards_left = NUM_TRICKS - s[TRICK_NO]
    cards = np.int64(0)
    held = 0
    for k in range(first_pos, n):
        p = leader + k
        p = p - n if p >= n else p
        if p == me or (teams > 1 and side(s, p) == side(s, me)):
            continue
        cards |= unseen & ~shown_void(s, p, t)
        held += cards_left
    return cards, held


@nb.njit(cache=True, inline="always")
def beaten(c, t, cards, unknown, held):
    """Chance that an opponent holding ``held`` of the ``unknown`` cards, among them possibly the
    ``cards``, can beat ``c``."""
    return 1.0 - P_NONE[unknown, held, popcount(BEATEN_BY[t, c] & cards)]


@nb.njit(cache=True, inline="always")
def cheapest_safe(candidates, t, cards, unknown, held, risk, plain_risk):
    """The card of ``candidates`` with the lowest power beaten with chance at most ``risk`` (a
    trump) or ``plain_risk`` (a plain card), or -1."""
    best, best_power = -1, 1 << 30
    m = np.int64(candidates)
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        limit = risk if POWER[t, c] >= ALWAYS_WINS else plain_risk
        if POWER[t, c] < best_power and beaten(c, t, cards, unknown, held) <= limit:
            best, best_power = c, POWER[t, c]
    return best


@nb.njit(cache=True, inline="always")
def likeliest_winner(candidates, t, cards, unknown, held):
    """The card of ``candidates`` least likely to be beaten (the lowest in power on a tie)."""
    best, best_p, best_power = -1, 2.0, 1 << 30
    m = np.int64(candidates)
    while m != 0:
        c = lowest_card(m)
        m &= m - 1
        p = beaten(c, t, cards, unknown, held)
        if p < best_p or (p == best_p and POWER[t, c] < best_power):
            best, best_p, best_power = c, p, POWER[t, c]
    return best


@nb.njit(cache=True, inline="always")
def try_risk(s, me, params):
    """The highest chance of being beaten at which a leader with no safe card leads its likeliest
    winner: ``lead_try`` on the bidder's side, ``defender_try`` for a defender alone; never for a
    defender with partners (measured: with teams a defender's low lead is better, -0.27 a deal)."""
    if side(s, me) == side(s, s[BIDDER]):
        return params[LEAD_TRY]
    return params[DEFENDER_TRY] if s[OPTIONS + O_TEAMS] <= 1 else 0.0


@nb.njit(cache=True)
def lead_card(s, me, t, hand, unseen, params):
    """Lead the top trump while opponents may hold trumps, if it is safe or the seat holds
    ``pull_trumps`` trumps (pulling theirs); else the cheapest safe card; else the likeliest
    winner if it is beaten with chance at most ``try_risk``; else the lowest."""
    unknown = popcount(unseen)
    cards, held = threat(s, me, t, 1, unseen)
    trumps = hand & TRUMPS[t]
    if trumps != 0 and cards & TRUMPS[t] != 0:
        top = -1
        for i in range(ORDER_LEN[t]):
            if has(trumps, TRUMP_ORDER[t, i]):
                top = TRUMP_ORDER[t, i]
                break
        pull = params[PULL_TRUMPS] if side(s, me) == side(s, s[BIDDER]) else params[DEFENDER_PULL]
        if popcount(trumps) >= pull or beaten(top, t, cards, unknown, held) <= params[LEAD_RISK]:
            return top
    safe = cheapest_safe(hand, t, cards, unknown, held, params[LEAD_RISK], params[LEAD_RISK])
    if safe >= 0:
        return safe
    # no safe card: a fair chance of a trick beats giving one away with the lowest card
    likeliest = likeliest_winner(hand, t, cards, unknown, held)
    if beaten(likeliest, t, cards, unknown, held) <= try_risk(s, me, params):
        return likeliest
    return lowest_power(hand, t)


@nb.njit(cache=True)
def follow_card(s, me, t, hand, unseen, params):
    """Don't overtake a partner; else win with the cheapest card that likely holds; else the lowest."""
    n = s[NUM_PLAYERS]
    slot = TRICKS + s[TRICK_NO] * TRICK_SLOTS
    in_trick = s[IN_TRICK]
    legal_cards = play_mask(s, me)
    pos = trick_winner(s, slot + 1, in_trick, s[LED], EFFECTIVE[t], POWER[t], -1)
    winner = s[slot] + pos
    winner = winner - n if winner >= n else winner
    winning = s[slot + 1 + pos]
    winners = legal_cards & BEATEN_BY[t, winning]
    if winners == 0:
        return lowest_power(legal_cards, t)
    unknown = popcount(unseen)
    cards, held = threat(s, me, t, in_trick + 1, unseen)
    if s[OPTIONS + O_TEAMS] > 1 and side(s, winner) == side(s, me):
        if beaten(winning, t, cards, unknown, held) > params[OVERTAKE_RISK]:
            c = cheapest_safe(winners, t, cards, unknown, held, params[LEAD_RISK], params[LEAD_RISK])
            if c >= 0:
                return c
        return lowest_power(legal_cards, t)
    risk = params[WIN_RISK]
    if side(s, winner) == side(s, s[BIDDER]) and side(s, me) != side(s, s[BIDDER]):
        risk = max(risk, params[STOP_RISK])  # a trick kept from the bidder may set him
    c = cheapest_safe(winners, t, cards, unknown, held, risk, max(risk, params[PLAIN_RISK]))
    return c if c >= 0 else lowest_power(legal_cards, t)


# --- the agent -----------------------------------------------------------------------------------


@nb.njit(cache=True)
def act(s, params, rng):
    """The action id the heuristic chooses for the seat to act, s[TO_ACT] (always legal).
    Deterministic: ties go to the lowest card or suit, and ``rng`` is not drawn from."""
    me = s[TO_ACT]
    phase = s[PHASE]
    if phase == PLAYING:
        t = s[TRUMP]
        hand = s[HANDS + me]
        unseen = DECK_MASK & ~hand & ~s[PLAYED] & ~s[DISCARDS + me]
        if s[IN_TRICK] == 0:
            c = lead_card(s, me, t, hand, unseen, params)
        else:
            c = follow_card(s, me, t, hand, unseen, params)
        return A.card_action(A.PLAY, c)
    if phase == DISCARDING:
        keep, _ = kitty_choice(s, me, params)
        return A.card_action(A.DISCARD, lowest_card(s[HANDS + me] & ~keep))
    if phase == TRUMPING:
        _, t = kitty_choice(s, me, params)
        return A.TRUMP + t
    if phase == EXCHANGING:
        return exchange_rule(s, me, params)
    return bid_rule(s, me, hand_estimate(s, me, params), params)


@nb.njit(cache=True, inline="always")
def record_features(s, dealt, out, i, column):
    """Write len(FEATURES) int64 values to out[i, column:column + len(FEATURES)] for the finished hand s;
    dealt[p] is seat p's hand as dealt (before any blind, kitty, widow, draw or discard)."""
    bidder = s[BIDDER]
    t = s[TRUMP]
    if bidder < 0 or t < 0:
        for k in range(len(FEATURES)):
            out[i, column + k] = -1
        return
    hand = dealt[bidder]
    out[i, column] = popcount(hand & TRUMPS[t])
    out[i, column + 1] = popcount(hand & TOP_TRUMPS[t])
    most = 0
    for u in range(4):
        most = max(most, popcount(hand & TRUMPS[u]))
    out[i, column + 2] = most
    out[i, column + 3] = popcount(s[KITTY_TAKEN] & TRUMPS[t])
