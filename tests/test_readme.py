"""The README's first Python example plays a whole hand and shows it."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_first_example_plays_a_hand_and_prints_its_tricks():
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S)[1]
    hand = block.split("\n\n")[:3]  # the imports, then the hand (the simulations after it run in other tests)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec("\n\n".join(hand), {})
    lines = printed.getvalue().splitlines()
    assert len([line for line in lines if line.endswith("takes the trick")]) == 6  # a Sheepshead hand's six tricks
    assert re.fullmatch(r"\[.*\] \w+", lines[-1])  # the scores and the result
