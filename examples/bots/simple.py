"""A simple tricksim bot in Python: win the trick as cheaply as it can, otherwise throw its lowest
card; before the play it takes the first action offered (pass, as a rule).

As a Python agent:   tricksim compare sheepshead --a python:examples/bots/simple.py:SimpleBot --b heuristic
As a program:        tricksim compare sheepshead --a "exec:python3 examples/bots/simple.py" --b heuristic
"""

import json
import sys

RANKS = "23456789TJQKA"


def power(card):
    """A rough strength: the rank only (trump and the game's own order are the bot's to learn)."""
    return RANKS.index(card[0]) if card[0] in RANKS else 13


def choose(legal, trick):
    """The action for the legal labels ``legal``, the cards ``trick`` of the trick so far."""
    plays = [a for a in legal if a.startswith("play ")]
    if not plays:
        return legal[0]
    cards = sorted(plays, key=lambda a: power(a[5:]))
    best_so_far = max((power(c) for c in trick), default=-1)
    winners = [a for a in cards if power(a[5:]) > best_so_far]
    return winners[0] if trick and winners else cards[0]


class SimpleBot:
    """The rule above as a Python agent: ``act(view)`` returns a label."""

    def act(self, view):
        return choose(view.legal, view.current_trick)


def main():
    """The rule above over the JSON-lines protocol: answer each "act", ignore the rest."""
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "act":
            print(json.dumps({"action": choose(message["legal"], message["current_trick"])}), flush=True)


if __name__ == "__main__":
    main()
