"""The numeric Sheepshead observation says exactly what ``observe()`` (the view read back from it)
says, each block encoded again here from the view, for every seat at every step of random hands
under every option, within the layout's bounds. (The twin deals of
``test_hidden_information.py`` check both views stay blind to the secret partner, the blind, the
bury and the unknown.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tricksim
from tricksim.cards import parse_card
from tricksim.sim.obs_sheepshead import COLUMN, blocks, observe
from tricksim.sim.observation import Layout
from tricksim.sim import sheepshead as K

from table_view import expected_table

OPTION_SETS = [
    {},
    {"no_call": "unknown"},
    {"partner": "jack_of_diamonds"},
    {"no_pick": "doubler", "double_on_bump": True},
    {"no_pick": "forced"},
]


def vector(state, seat) -> np.ndarray:
    out = np.full(Layout(blocks(state.game)).size + 4, 99, dtype=np.int8)  # 4 guard entries
    observe(state.array, seat, out[:-4])
    assert (out[-4:] == 99).all(), "the kernel wrote past its layout"
    return out[:-4]


def expected(game, state, seat) -> dict[str, np.ndarray]:
    view = state.observe(seat)
    deck = len(K.DECK)

    def seats(of):
        out = np.zeros(5, dtype=np.int64)
        if of is not None:
            out[(of - seat) % 5] = 1
        return out

    def plane(labels):
        out = np.zeros(deck, dtype=np.int64)
        out[[COLUMN[parse_card(c)] for c in labels or []]] = 1
        return out

    out = expected_table(view, 5, COLUMN, K.PHASE_NAMES, (view["dealer"] + 1) % 5)
    out |= {
        "picker": seats(view["picker"]),
        "partner": seats(view["partner"]),
        "called": plane([view["called"]] if view["called"] else []),
        "buried": np.concatenate([[view["buried"] is not None], plane(view["buried"])]),
        "unknown": plane([view["unknown"]] if view["unknown"] else []),
        "points_taken": np.roll(view["points_taken"], -seat),
        "doubled": np.array([int(state.result()["doubled"])]),  # (the view's ``doubled`` reads it back)
        "totals": np.zeros(5, dtype=np.int64),
    }
    return out


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: " ".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_the_vector_says_what_the_dict_says(options):
    game = tricksim.make_game("sheepshead", **options)
    layout = Layout(blocks(game))
    low, high = layout.low(), layout.high()
    assert [b.name for b in layout.blocks] == list(expected(game, game.new_hand(seed=0), 0))
    phases = set()
    for i in range(40):
        state = game.new_hand(seed=i, dealer=i % 5, doubled=i % 7 == 0)
        rng = random.Random(i)
        while True:
            phases.add(state.phase)
            for seat in range(5):
                got = vector(state, seat)
                assert ((low <= got) & (got <= high)).all()
                for name, values in expected(game, state, seat).items():
                    assert list(layout.split(got)[name]) == list(values), (name, seat, state.history)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
    assert {"picking", "bury", "play", "over"} <= phases
