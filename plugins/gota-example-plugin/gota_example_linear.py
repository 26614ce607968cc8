"""``example_linear``: a linear policy that gota-arena's PPO can train, by name
(``python -m gota_arena +experiment=vs_bundled policy=example_linear``).

It follows the protocol of docs/plugins.md, "Policies PPO can train": a
``torch.nn.Module`` with ``forward_act`` (the rollout), ``evaluate`` (the PPO
epochs, with gradients) and ``get_value`` (the bootstrap), next to the
``act`` every policy has. The five-head conditional action comes from
``gota_arena.nets.ActionDistribution``: legal sampling, and the
log-probabilities and entropies PPO needs. It keeps no observation statistics
(no ``normalize``), so the trainer hands it raw observations.

This module imports torch; gota_example registers it only where torch is
installed and imports it only when the policy is built.
"""
import torch
from torch import nn

from gota_arena.contract import INFO
from gota_arena.nets import LOGITS, ActionDistribution
from gota_arena.policies import PolicyOutput


class LinearPolicy(nn.Module):
    """The 399 logits of the conditional heads and the value, each a linear
    function of the observation."""

    adapter = "example_linear"
    recurrent = False

    def __init__(self, init_std: float = 0.01):
        super().__init__()
        self.config = {"init_std": float(init_std)}   # what load_policy rebuilds it from
        self.actor = nn.Linear(INFO.obs_size, LOGITS)
        self.critic = nn.Linear(INFO.obs_size, 1)
        nn.init.normal_(self.actor.weight, std=float(init_std))   # near-uniform actions at the start
        nn.init.zeros_(self.actor.bias)

    def initial_state(self, n):
        return None   # feed-forward

    # ---- what PPO calls (torch tensors on the policy's device) ----------------
    def forward_act(self, obs, masks, state=None, episode_start=None, deterministic=False):
        actions, log_prob = ActionDistribution(self.actor(obs), masks).sample(deterministic)
        return actions, log_prob, self.critic(obs)[:, 0], None

    def evaluate(self, obs, masks, actions, state=None, episode_start=None):
        log_prob, entropy = ActionDistribution(self.actor(obs), masks).log_prob_entropy(actions)
        return log_prob, entropy, self.critic(obs)[:, 0], None

    def get_value(self, obs, state=None, episode_start=None):
        return self.critic(obs)[:, 0]

    # ---- what every policy has (numpy in, numpy out) ---------------------------
    @torch.no_grad()
    def act(self, obs, masks, state=None, episode_start=None, deterministic=False):
        device = self.actor.weight.device
        obs = torch.as_tensor(obs, dtype=torch.float32, device=device)
        masks = torch.as_tensor(masks, device=device) != 0
        actions, log_prob, value, _ = self.forward_act(obs, masks, deterministic=deterministic)
        return PolicyOutput(actions.to(torch.int32).cpu().numpy(), log_prob.float().cpu().numpy(),
                            value.float().cpu().numpy(), None)
