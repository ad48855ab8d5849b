"""Helpers of the worked-hand tests: play cards, and read the legal cards as sorted labels."""


def play(state, cards):
    for c in cards.split():
        state.apply(f"play {c}")
    return state


def legal_cards(state):
    return sorted(label.split()[1] for label in state.legal_labels())


def cards(text):
    return sorted(text.split())
