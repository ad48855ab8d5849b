"""A person plays a hand, or a match, in the terminal against the bots (``tricksim play``).

The person's hand is shown trumps first and the legal actions numbered; the answer is a number
from the list or the action's label (``play QC``, ``pick``, or just the card ``QC``), case
insensitive; ``h`` shows the help (and the legend of the card labels, also shown at the start)
and ``q`` stops. An action that is the only legal one is played for the person, with a line
saying so. With the hand, the person sees what a player at the table may count of his side's take
so far (``display.format_count``: card points, points or tricks as the game counts them). The
bidding and every trick are shown as they happen, and of the other seats' cards only what the
rules reveal (``State.observe``: the turned card, the blind or kitty to its taker, the cards
played); a card buried or discarded by a bot stays hidden. At the end: the scores (and the match
totals), then all hands as dealt on request.

The bots are ``agents.seats.Seats``: random and heuristic ones draw from the stream of ``(seed,
hand number)`` as ``simulate`` does, search agents from a stream of their own. The same seed and
the same answers replay the same game. Hands are dealt as a match's: ``game.new_match(seed)``,
dealer seat 0 first.

Input and output are the functions ``ask`` (``input``) and ``say`` (``print``), so a test can
drive a game without a terminal:

>>> import tricksim
>>> answers = iter(["1"] * 40 + ["y"])
>>> shown = []
>>> outcome = play(tricksim.make_game("nesmear"), seat=1, seed=3, ask=lambda prompt: next(answers),
...                say=shown.append)
>>> outcome.records[0].scores == outcome.scores, outcome.stopped
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .agents.seats import Seats
from .cards import CardSet, parse_card
from .display import (
    format_count,
    format_decision,
    format_hand,
    format_result,
    format_scores,
    format_trick,
    legend,
    public_label,
    seat_names,
    sort_actions,
    teams_line,
    trump_name,
)
from .errors import OptionError
from .records import HandRecord, format_deal, write_json, write_text
from .sim import actions as A

HELP = """Type the number of an action from the list, or the action itself: 'play QC', 'pick', 'bid 20',
'trump H' (a card alone, 'QC', takes the one action that names it). Upper or lower case.
  h, help   this help
  q, quit   stop (a --record file keeps the hands so far)"""


class Stop(Exception):
    """The person stopped the game: ``q``, the end of the input, or Ctrl-C."""


@dataclass
class Outcome:
    """How a game at the terminal went: each hand's record (the last one unfinished when the
    person stopped), the last hand's scores, the match totals and winners (a match), and whether
    the person stopped before the end."""

    records: list[HandRecord] = field(default_factory=list)
    scores: list[int] | None = None
    totals: list[int] | None = None
    winners: list[int] | None = None
    stopped: bool = False


def play(game, seat: int = 0, opponents: str = "heuristic", seed: int = 0, match: bool = False, record=None,
         ask=input, say=print) -> Outcome:
    """Play one hand of ``game`` (a Game), or with ``match`` a match to the game's end rule, from
    ``seat`` against ``opponents``. ``record``: a JSON file for the hands' records (the text form
    beside it, ``.txt``), written after every hand. ``ask(prompt)`` returns a line of input
    (EOFError ends the game); ``say(text)`` shows text."""
    if not 0 <= int(seat) < game.players:
        raise OptionError(f"{game.name}: seat {seat!r} is not a seat (0..{game.players - 1})")
    paths = _record_paths(record)
    return _Session(game, int(seat), Seats(game, opponents, seed, person=int(seat)), int(seed), match, paths, ask,
                    say).run()


def _record_paths(record) -> tuple[Path, Path] | None:
    if record is None:
        return None
    path = Path(record)
    if path.suffix.lower() == ".txt":
        raise OptionError(f"--record {record}: name the JSON file (e.g. hand.json); the text goes beside it (.txt)")
    if not path.parent.is_dir():
        raise OptionError(f"--record {record}: no folder {str(path.parent)!r}")
    return path, path.with_suffix(".txt") if path.suffix.lower() == ".json" else Path(f"{path}.txt")


class _Session:
    def __init__(self, game, seat, bots, seed, match, paths, ask, say):
        self.game, self.seat, self.bots, self.seed = game, seat, bots, seed
        self.match, self.paths, self.ask, self.say = match, paths, ask, say
        self.names = seat_names(game.players, you=seat)
        self.outcome = Outcome()

    def run(self) -> Outcome:
        m = self.game.new_match(seed=self.seed, dealer=0)
        self.say(self._welcome())
        while True:
            state, number = m.state, m.hand_number
            agents = ["person" if p == self.seat else spec for p, spec in enumerate(self.bots.specs)]
            record = HandRecord.start(state, seed=self.seed, hand=number, agents=agents,
                                      source="tricksim play")
            self.bots.new_hand(self.seed, number)
            try:
                self._play_hand(m, state, number)
            except (Stop, KeyboardInterrupt):
                self._keep(record.with_play(state))
                self.outcome.stopped = True
                self.say("\nstopped." + (f" The hands so far are in {self.paths[0]}." if self.paths else ""))
                return self.outcome
            self._keep(record.with_play(state))
            self._summary(m, state)
            try:
                if self._yes("show all hands? [y/N] "):
                    self.say("\n".join(format_deal(self.outcome.records[-1], self.game, self.names)))
            except Stop:
                self.outcome.stopped = not (m.is_over() or not self.match)
                return self.outcome
            if not self.match or m.is_over():
                return self.outcome

    def _welcome(self) -> str:
        g = self.game
        changed = [f"{k}={v}" for k, v in g.options.items() if v != g.OPTIONS[k].default]
        lines = [f"tricksim: {g.name}" + (f" ({', '.join(changed)})" if changed else "")
                 + f", {'a match' if self.match else 'one hand'}; you are seat {self.seat} of "
                 f"{g.players}. Type h for help."]
        teams = teams_line(g)
        return "\n".join(lines + ([teams] if teams else []) + [legend(g)])

    def _keep(self, record: HandRecord) -> None:
        self.outcome.records.append(record)
        if self.paths:
            write_json(self.outcome.records if self.match else self.outcome.records[-1], self.paths[0])
            write_text(self.outcome.records, self.paths[1])

    # --- one hand ---------------------------------------------------------------------------

    def _play_hand(self, m, state, number: int) -> None:
        g, names = self.game, self.names
        dealer = int(state.array[g.kernels.DEALER])
        self.say(f"\n== hand {number + 1}; dealer: {names[dealer]} ==")
        view = state.observe(self.seat)
        if "turned" in view:
            self.say(f"turned card: {view['turned']} ({trump_name(view['trump'])})")
        seen = {"trump": view.get("trump"), "partner": view.get("partner")}
        while not state.is_terminal():
            p = state.current_player
            before = CardSet(state.hand(self.seat))
            tricks = len(state.tricks())
            action = self._ask_action(state) if p == self.seat else self.bots.act(state, list(m.totals))
            label = A.action_label(action)
            m.apply(action)
            self._tell(state, p, label, tricks, before, seen)

    def _tell(self, state, p: int, label: str, tricks: int, before: CardSet, seen: dict) -> None:
        """Show what the person may learn from the action ``label`` of seat ``p``."""
        names = self.names
        if not label.startswith("play "):
            shown = label if p == self.seat else public_label(self.game, label)
            self.say(format_decision(names[p], shown))
        finished = state.tricks()
        if len(finished) > tricks:
            leader, cards, winner = finished[-1]
            self.say(format_trick(len(finished), leader, cards, winner, names))
        gained = CardSet(state.hand(self.seat)) - before
        if len(gained):
            self.say(f"you take: {format_hand(self.game, gained, seen['trump'])}")
        view = state.observe(self.seat)
        if view.get("trump") != seen["trump"] and view.get("trump") is not None:
            seen["trump"] = view["trump"]
            self.say(f"trump: {trump_name(seen['trump'])}")
        if view.get("partner") != seen["partner"] and view.get("partner") is not None:
            seen["partner"] = view["partner"]
            partner = seen["partner"]
            self.say("you hold the called card: you are the picker's partner" if partner == self.seat
                     else f"{names[partner]} is the picker's partner")

    def _ask_action(self, state) -> int:
        view = state.observe(self.seat)
        legal = sort_actions(self.game, state.legal_actions(), view.get("trump"))
        labels = [A.action_label(a) for a in legal]
        current = view["current_trick"]
        trick = format_trick(len(view["tricks"]) + 1, (self.seat - len(current)) % self.game.players, current, None,
                             self.names)
        if len(legal) == 1:
            self.say("\n".join(([trick] if current else []) + [f"only one legal action: {labels[0]}"]))
            return legal[0]
        self.say(f"\nyour hand: {format_hand(self.game, view['hand'], view.get('trump'))}")
        count = format_count(self.game, view, self.names)
        if count:
            self.say(f"so far, {count}")
        if current:
            self.say(trick)
        self.say(f"your turn ({state.phase}):")
        self.say(_numbered(labels))
        while True:
            answer = self._read(f"choose 1-{len(labels)}: ")
            choice, problem = _understand(answer, legal, labels)
            if choice is not None:
                return choice
            if problem == "help":
                self.say(HELP)
                self.say(legend(self.game))
                self.say(_numbered(labels))
            else:
                self.say(problem)

    def _read(self, prompt: str) -> str:
        try:
            answer = self.ask(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Stop from None
        if answer.strip().lower() in ("q", "quit", "exit"):
            raise Stop
        return answer

    def _yes(self, prompt: str) -> bool:
        return self._read(prompt).strip().lower() in ("y", "yes")

    def _summary(self, m, state) -> None:
        names, g = self.names, self.game
        result = state.result()
        self.outcome.scores = state.scores()
        self.say(f"\nhand over. {format_result(g, result, names)}")
        self.say(f"scores: {format_scores(state.scores(), names)}")
        if self.match:
            self.outcome.totals = list(m.totals)
            self.say(f"match totals: {format_scores(m.totals, names)}")
            if m.is_over():
                self.outcome.winners = list(m.winners)
                limit = f" at its {m.max_hands}-deal limit (the best totals win)" if m.truncated else ""
                self.say(f"match over{limit}; " + ("you win" if self.seat in m.winners else "winners: "
                                                   + ", ".join(names[p] for p in m.winners)))


def _numbered(labels: list[str]) -> str:
    width = len(str(len(labels)))
    return "\n".join(f"  {i:>{width}}. {label}" for i, label in enumerate(labels, 1))


def _understand(answer: str, legal: list[int], labels: list[str]) -> tuple[int | None, str]:
    """The action an answer names, or None and what is wrong with it (``"help"`` for help)."""
    text = answer.strip()
    n = len(legal)
    if not text:
        return None, f"type a number 1-{n}, or an action such as {labels[0]!r} (h for help)"
    if text.lower() in ("h", "help", "?"):
        return None, "help"
    if text.isdigit():
        i = int(text)
        return (legal[i - 1], "") if 1 <= i <= n else (None, f"{text} is not on the list: choose 1-{n}")
    try:
        action = A.parse_action(text)
    except ValueError:
        action = None
    if action is not None:
        return (action, "") if action in legal else (None, f"{text!r} is not legal now; choose 1-{n}")
    try:
        card = parse_card(text)
    except ValueError:
        return None, f"{text!r} is not understood: type a number 1-{n}, or an action such as {labels[0]!r}"
    naming = [a for a in legal if a >= A.CARD_BASE and (a - A.CARD_BASE) % 54 == card]
    if len(naming) == 1:
        return naming[0], ""
    return None, f"no legal action names {text.upper()} now; choose 1-{n}"
