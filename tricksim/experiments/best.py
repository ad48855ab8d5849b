"""The best action of a hand class and position, from paired comparisons.

Every action of a decision was played out on the same deal with the same random stream, so two
actions compare by their differences decision by decision, on the decisions where **both** were
open (a Fifty-five dealer may hold only after a bid; a bid of 15 is open only to the first bidder).
Means over different decisions do not compare, and neither does a greedy pass over actions: an
action never open beside the leader could never replace it.

``best_action`` compares every pair. An action *beats* another when it scores more on average over
their shared decisions and they shared at least ``min_paired`` of them, or, on fewer, when its lead
is significant (the 95 % interval above zero). The best is the one action open on ``min_paired``
decisions or more that no other beats. Actions that scored the same on every decision they shared
(a bid that is always overbid is a pass) count as one: the one open most often is named, the
others listed as ``equal``. The margin is measured against the strongest other rival (the one the
best leads by least on their shared decisions, at least ``min_paired`` of them), so it is never
negative. When no single action is unbeaten (a cycle, a tie, two actions never open together
often enough, too few decisions) the result is *undecided*, and says why.

>>> import pandas as pd
>>> wide = pd.DataFrame({"pass": [0.0, 0.0, 0.0, 0.0], "bid 20": [3.0, -1.0, 2.0, 4.0]})
>>> result = best_action(wide, min_paired=3)
>>> result.best, result.rival, result.paired, result.margin
('bid 20', 'pass', 4, 2.0)
>>> best_action(wide, min_paired=5).undecided
'too few decisions: no action was open on 5 or more (the most, pass, on 4)'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .stats import mean_interval

MIN_PAIRED = 30  # the shared decisions below which an action is not named best over another
TIE = 1e-9  # mean differences closer to zero than this are ties (scores are whole numbers)
# the columns of a study's best table after its keys (the hand classes, then the position)
BEST_COLUMNS = ["decisions", "best", "rival", "paired", "margin", "margin_low", "margin_high", "equal", "undecided",
                "over_agent", "over_agent_low", "over_agent_high"]


@dataclass(frozen=True)
class Best:
    """The best action of a class and position: ``best`` (None when undecided), its strongest
    ``rival``, the ``paired`` decisions they shared, the ``margin`` of the best over the rival on
    them with its 95 % interval ``low, high``, the actions ``equal`` to the best wherever they met
    it (comma-separated), and why no action was named (``undecided``; empty when one was)."""

    best: str | None
    rival: str | None
    paired: int
    margin: float
    low: float
    high: float
    equal: str = ""
    undecided: str = ""


@dataclass(frozen=True)
class Pair:
    """``a`` against ``b`` on their ``shared`` decisions: the mean of a's score less b's, 95 %."""

    shared: int
    mean: float
    low: float
    high: float

    def beats(self, min_paired: int) -> bool:
        """True when a beats b: more on average over enough shared decisions, or significantly more."""
        return (self.shared >= min_paired and self.mean > TIE) or (self.shared >= 2 and self.low > TIE)

    def same(self) -> bool:
        """True when a and b scored the same on every decision they shared."""
        return abs(self.mean) <= TIE and (self.shared == 1 or self.high - self.low <= TIE)


def best_keys(best: pd.DataFrame) -> list[str]:
    """The key columns of a study's best table: its hand classes, then ``position``."""
    return list(best.columns[:list(best.columns).index(BEST_COLUMNS[0])])


def pairs(wide: pd.DataFrame) -> dict[tuple[str, str], Pair]:
    """Every ordered pair ``(a, b)`` of the actions (columns) of ``wide`` (a score per decision,
    rows; NaN where the action was not open) that shared a decision, compared on those decisions."""
    values = wide.to_numpy(dtype=np.float64)
    opened = ~np.isnan(values)
    actions = list(wide.columns)
    out = {}
    for i, a in enumerate(actions):
        for j in range(i + 1, len(actions)):
            both = opened[:, i] & opened[:, j]
            if both.any():
                mean, low, high = mean_interval(values[both, i] - values[both, j])
                shared = int(both.sum())
                out[a, actions[j]] = Pair(shared, mean, low, high)
                out[actions[j], a] = Pair(shared, -mean, -high, -low)
    return out


def best_action(wide: pd.DataFrame, min_paired: int = MIN_PAIRED) -> Best:
    """The best action of one class and position (see the module docstring): ``wide`` the score of
    each action (columns) at each decision (rows; NaN where the action was not open)."""
    compared = pairs(wide)
    opened = wide.notna().sum()
    eligible = [a for a in wide.columns if opened[a] >= min_paired]
    if not eligible:
        most = opened.idxmax() if len(opened) else None
        return _undecided(f"too few decisions: no action was open on {min_paired} or more"
                          + (f" (the most, {most}, on {opened[most]:,})" if most is not None else ""))
    beaten_by = {a: [b for b in wide.columns if b != a and (b, a) in compared and compared[b, a].beats(min_paired)]
                 for a in eligible}
    unbeaten = [a for a in eligible if not beaten_by[a]]
    if not unbeaten:
        return _undecided("every action is beaten: " + ", ".join(f"{a} by {beaten_by[a][0]}" for a in eligible))
    groups = _same_groups(unbeaten, compared, min_paired)
    if len(groups) > 1:
        return _undecided(_why_not_one([g[0] for g in groups], compared, min_paired))
    top, *equal = sorted(groups[0], key=lambda a: -opened[a])  # the one open most often (stable: in order)
    rivals = {b: p for (a, b), p in compared.items() if a == top and p.shared >= min_paired and not p.same()}
    if not rivals:
        return Best(top, None, 0, np.nan, np.nan, np.nan, ", ".join(equal))
    rival = min(rivals, key=lambda b: rivals[b].mean)
    p = rivals[rival]
    return Best(top, rival, p.shared, p.mean, p.low, p.high, ", ".join(equal))


def _same_groups(actions: list, compared: dict, min_paired: int) -> list[list]:
    """``actions`` in groups of those that scored the same on the ``min_paired`` decisions or more
    that they shared (in order)."""
    def same(a, b):
        p = compared.get((a, b))
        return p is not None and p.shared >= min_paired and p.same()

    groups = []
    for a in actions:
        group = next((g for g in groups if all(same(a, b) for b in g)), None)
        if group is None:
            groups.append([a])
        else:
            group.append(a)
    return groups


def _why_not_one(unbeaten: list, compared: dict, min_paired: int) -> str:
    """Why two or more unbeaten actions leave the best undecided: each pair of them ties, or was
    open together on too few decisions."""
    reasons = []
    for i, a in enumerate(unbeaten):
        for b in unbeaten[i + 1:]:
            p = compared.get((a, b))
            if p is None:
                reasons.append(f"{a} and {b} were never open together")
            elif p.shared < min_paired:
                reasons.append(f"{a} and {b} were open together on {p.shared:,} decisions (fewer than {min_paired})")
            else:
                reasons.append(f"{a} and {b} tie on average over their {p.shared:,} shared decisions")
    return "; ".join(reasons)


def _undecided(why: str) -> Best:
    return Best(None, None, 0, np.nan, np.nan, np.nan, "", why)
