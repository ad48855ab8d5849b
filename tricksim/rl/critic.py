"""A critic that sees the whole deal: ``tricksim train GAME --critic full``.

PPO's value network only guides training; the policy alone plays. So the value network may see
what the seat cannot, every seat's hand, and judge a position by what it is rather than by what it
might be, while the policy still reads the seat's observation alone and plays anywhere as a
``net:`` agent (as in Suphx's oracle guiding and DouZero-like work on hidden cards).

The tables (``rl.tables``) append the deal to each observation: for every seat from the learner's
on, its hand as 64 bits (a card's bit, ``tricksim.cards``). ``FullDealCritic`` is a MaskablePPO
policy whose action side reads the first ``seen`` columns (the seat's observation) and whose
value side reads them all.

>>> import numpy as np, tricksim
>>> game = tricksim.make_game("bluke")
>>> s = np.zeros((1, game.kernels.STATE_SIZE), np.int64)
>>> s[0, game.kernels.HANDS:game.kernels.HANDS + 2] = (0b101, 1 << 40)
>>> out = np.zeros((1, game.players * CARD_BITS), np.int8)
>>> deal_bits(s, game.kernels.HANDS, 1, game.players, out)
>>> np.flatnonzero(out[0]).tolist()  # seat 1's card 40 first, then seat 0's cards 0 and 2 (three seats on)
[40, 192, 194]
"""

from __future__ import annotations

import numba as nb
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import create_mlp


CARD_BITS = 64  # a hand mask's bits: every game's deck fits


@nb.njit(cache=True)
def deal_bits(states, hands, seat, players, out):
    """Write each table's hands (state slots ``hands`` on, one a seat: the game's ``HANDS``) into
    ``out`` (tables x ``players * CARD_BITS``), seat ``seat``'s first, then the seats after it."""
    for t in range(states.shape[0]):
        for k in range(players):
            cards = states[t, hands + (seat + k) % players]
            for bit in range(CARD_BITS):
                out[t, k * CARD_BITS + bit] = (cards >> bit) & 1


class SplitExtractor(torch.nn.Module):
    """The policy's layers over the first ``seen`` inputs, the value's over every input (the names
    and widths of SB3's ``MlpExtractor``, so export and ``--init`` find the policy's layers)."""

    def __init__(self, inputs: int, seen: int, net_arch: dict, activation):
        super().__init__()
        self.seen = seen
        self.policy_net = torch.nn.Sequential(*create_mlp(seen, -1, net_arch["pi"], activation))
        self.value_net = torch.nn.Sequential(*create_mlp(inputs, -1, net_arch["vf"], activation))
        self.latent_dim_pi, self.latent_dim_vf = net_arch["pi"][-1], net_arch["vf"][-1]

    def forward(self, features):
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features):
        return self.policy_net(features[:, :self.seen])

    def forward_critic(self, features):
        return self.value_net(features)


class FullDealCritic(MaskableActorCriticPolicy):
    """MaskablePPO's MLP policy whose action side reads only the first ``seen`` observation columns."""

    def __init__(self, *args, seen: int, **kwargs):
        self.seen = seen
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = SplitExtractor(self.features_dim, self.seen, self.net_arch, self.activation_fn)
