"""One table of a game as the environments drive it: a hand or a whole match, dealt
reproducibly, with each seat's observation, the action mask and a text view; and what every
environment shares of its arguments (render modes, the illegal action's reward)."""

from __future__ import annotations

import numpy as np

from ..sim.actions import NUM_ACTIONS
from ..sim.kernels import new_rng
from ..sim.state import State
from ..sim.observation import observation_layout
from . import engine

EPISODES = ("hand", "match")
ILLEGAL_REWARD = -100.0  # the least default reward of an illegal action (see illegal_reward)
RENDER_MODES = ["ansi", "human"]  # "human" prints what "ansi" returns
RENDER_FPS = 1  # a table is read, not watched


def illegal_reward_of(game, given: float | None = None) -> float:
    """The reward of an illegal action in ``game`` (where it ends the episode): ``given``, or by
    default -100, and 10 below the game's lowest hand score where -100 is not below it (Bluke's
    failed bid of 13: -130), so that no hand's score is worse than an illegal move.

    >>> from tricksim.spec import make_game
    >>> illegal_reward_of(make_game("sheepshead")), illegal_reward_of(make_game("bluke", players=2))
    (-100.0, -140.0)
    """
    if given is not None:
        return float(given)
    return float(min(ILLEGAL_REWARD, game.lowest_score() - 10))


def check_render_mode(render_mode: str | None) -> None:
    """ValueError unless ``render_mode`` is None or one of ``RENDER_MODES``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode = {render_mode!r} is not allowed; choose None, "
                         + " or ".join(repr(m) for m in RENDER_MODES))


def action_id(action) -> int:
    """``action`` as an int; ValueError for anything but a whole number."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    raise ValueError(f"{action!r} is not an action id: give a whole number 0..{NUM_ACTIONS - 1}")


def episode_seed(seed: int, episode: int) -> int:
    """The seed of match episode ``episode`` of a run seeded ``seed``: independent streams."""
    return int(np.random.SeedSequence([seed, episode]).generate_state(2, np.uint64)[0] >> np.uint64(1))


class Table:
    """A game's hand in progress (``episode="hand"``: hand ``k`` of ``seed``, as in ``simulate``)
    or match in progress (``episode="match"``: the game's end rule, totals in the observation)."""

    def __init__(self, game, episode: str = "hand"):
        if episode not in EPISODES:
            raise ValueError(f"episode = {episode!r} is not allowed; choose one of {', '.join(EPISODES)}")
        self.game = game
        self.episode = episode
        self.family = game.family
        self.kernels = engine.kernels(self.family)
        self.layout = observation_layout(game)
        self.totals_at = self.layout.offsets["totals"]
        self.array = np.zeros(game.kernels.STATE_SIZE, dtype=np.int64)
        self._to_act = game.kernels.TO_ACT
        self.match = None
        self.mask = self.new_mask()  # the legal actions of the seat to act, kept current
        self._rng = new_rng()

    def __getstate__(self) -> dict:
        # compiled code and the layout's readers do not pickle: rebuilt from the game
        return {k: v for k, v in vars(self).items() if k not in ("kernels", "layout")}

    def __setstate__(self, state: dict) -> None:
        vars(self).update(state)
        self.kernels = engine.kernels(self.family)
        self.layout = observation_layout(self.game)

    def start(self, seed: int, episode: int) -> None:
        """Deal episode number ``episode`` of ``seed``."""
        if self.episode == "hand":
            self.kernels.deal_hand(self.family, self.array, seed, episode, self.game.players,
                                   self.game.option_array, self._rng)
        else:
            self.match = self.game.new_match(seed=episode_seed(seed, episode), dealer=0)
            self.array = self.match.state.array
        self.kernels.action_mask(self.family, self.array, self.mask)

    @property
    def to_act(self) -> int:
        """The seat to act, -1 once the episode is over."""
        return int(self.array[self._to_act])

    def apply(self, action: int) -> list[int] | None:
        """Play a legal ``action``; the hand's scores per seat when it ends, else None."""
        if self.match is None:
            self.kernels.play(self.family, self.array, action, self.mask)
            return self.game.scores(self.array) if self.to_act < 0 else None
        finished = len(self.match.finished)
        self.match.apply(int(action))
        if not self.match.is_over():
            self.array = self.match.state.array
        self.kernels.action_mask(self.family, self.array, self.mask)
        return None if len(self.match.finished) == finished else self.match.finished[-1].scores()

    def settled_scores(self, seat: int) -> list[int] | None:
        """The scores of the hand in play if ``seat`` has no choice left in it: when it ends
        without ``seat`` to act again and with one legal action at every step (as after a seat's
        last card, each other seat holding one); else None."""
        s, mask = self.array.copy(), self.mask.copy()
        while (p := int(s[self._to_act])) >= 0:
            legal = np.flatnonzero(mask)
            if p == seat or len(legal) != 1:
                return None
            self.kernels.play(self.family, s, int(legal[0]), mask)
        return self.game.scores(s)

    def is_over(self) -> bool:
        return self.match.is_over() if self.match is not None else self.to_act < 0

    @property
    def truncated(self) -> bool:
        """Whether the episode, a match, was cut off at the game's ``max_hands`` deals."""
        return self.match is not None and self.match.truncated

    def observe(self, seat: int, out: np.ndarray) -> np.ndarray:
        self.kernels.observe(self.family, self.array, seat, out)
        if self.match is not None:  # the match totals, from the seat's left
            totals = np.roll(np.asarray(self.match.totals), -seat)
            out[self.totals_at:self.totals_at + len(totals)] = np.clip(totals, -128, 127)
        return out

    def new_observation(self) -> np.ndarray:
        return np.zeros(self.layout.size, dtype=np.int8)

    @staticmethod
    def new_mask() -> np.ndarray:
        return np.zeros(NUM_ACTIONS, dtype=np.int8)

    def render(self, seat: int | None = None) -> str:
        """The table as ``seat`` sees it (default: the seat to act, or seat 0 once over)."""
        if seat is None:
            seat = max(self.to_act, 0)
        return table_text(self.game, self.array, seat, None if self.match is None else self.match.totals)


def table_text(game, array: np.ndarray, seat: int, totals: list[int] | None = None) -> str:
    """The hand in ``array`` as ``seat`` sees it, one line a piece of its view (and the match
    ``totals`` where given)."""
    view = State(game, array).observe(seat)
    lines = [f"{game.name}, as player_{seat} sees it"]
    for key, value in view.items():
        if key == "seat":
            continue
        lines.append(f"  {key}: {_text(key, value)}")
    if totals is not None:
        lines.append(f"  match totals: {totals}")
    return "\n".join(lines) + "\n"


_SEAT_KEYS = {"dealer", "to_act", "picker", "partner", "bidder"}


def _text(key, value) -> str:
    if value is None:
        return "-"
    if key in _SEAT_KEYS:
        return f"player_{value}"
    if key == "tricks":
        return "; ".join(f"player_{lead} led {' '.join(cards)}, player_{won} won" for lead, cards, won in value) or "-"
    if isinstance(value, list):
        return " ".join("-" if v is None else str(v) for v in value) or "-"
    return str(value)
