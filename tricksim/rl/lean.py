"""MaskablePPO's policy with the masked softmax computed once per forward pass (``train``'s ``fast``).

sb3-contrib builds a ``MaskableCategorical`` for every forward pass: three log-sum-exps (the
distribution is made, masked and made again), argument checks, and ``torch.multinomial`` to draw
the actions; with 256 tables of Bluke these took a third of the learner's CPU time, the tables'
own step 2 %. ``LeanPolicy`` gives the same values, log-probabilities and entropies (masked
actions at -1e8, as sb3-contrib's) from one ``log_softmax`` and draws by the Gumbel-max trick
(``argmax(log p - log E)``, ``E`` exponential, is a draw from ``p``). Its networks, their
names and the saved model are ``MaskableActorCriticPolicy``'s.
"""

from __future__ import annotations

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

MASKED = -1e8  # sb3-contrib's logit for an illegal action


class LeanPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` (an MLP for each network, one feature extractor) made cheaper."""

    def _log_probs(self, latent_pi, action_masks):
        """Every action's log-probability, and the masks as a tensor (None without them)."""
        logits = self.action_net(latent_pi)
        if action_masks is None:
            return torch.log_softmax(logits, -1), None
        masks = torch.as_tensor(action_masks, dtype=torch.bool, device=logits.device).reshape(logits.shape)
        return torch.log_softmax(torch.where(masks, logits, torch.tensor(MASKED, dtype=logits.dtype)), -1), masks

    def forward(self, obs, deterministic: bool = False, action_masks=None):
        latent_pi, latent_vf = self.mlp_extractor(self.extract_features(obs))
        log_p, _ = self._log_probs(latent_pi, action_masks)
        if deterministic:
            actions = log_p.argmax(-1)
        else:  # a floor on E: an exact 0 would pick any action, a masked one too
            actions = (log_p - torch.empty_like(log_p).exponential_().clamp_min_(1e-30).log()).argmax(-1)
        log_prob = log_p.gather(-1, actions[:, None])[:, 0]
        return actions.reshape((-1, *self.action_space.shape)), self.value_net(latent_vf), log_prob

    def evaluate_actions(self, obs, actions, action_masks=None):
        latent_pi, latent_vf = self.mlp_extractor(self.extract_features(obs))
        log_p, masks = self._log_probs(latent_pi, action_masks)
        log_prob = log_p.gather(-1, actions.long().reshape(-1, 1))[:, 0]
        p_log_p = log_p.exp() * log_p
        if masks is not None:  # a masked action adds nothing to the entropy (its p log p is not exactly 0)
            p_log_p = torch.where(masks, p_log_p, torch.zeros((), dtype=p_log_p.dtype))
        return self.value_net(latent_vf), log_prob, -p_log_p.sum(-1)
