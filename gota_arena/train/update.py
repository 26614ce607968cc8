"""The learning half of PPO: advantages (GAE) and the clipped update on a batch.

    advantages = compute_gae(rewards, values, dones, next_value, next_done, gamma, gae_lambda)
    batch = Batch(obs, masks, actions, logprobs, values, dones, advantages, advantages + values)
    stats = ppo_update(policy, optimizer, batch, TrainerConfig(update_epochs=2))

``ppo_update`` needs nothing but the policy, its optimizer, a batch and the PPO
keys of the trainer config: no arena, no run. It is CleanRL's update:
``update_epochs`` passes of ``num_minibatches`` minibatches (whole sequences,
time-major, for a recurrent policy), advantages normalised per minibatch, the
clipped policy loss, the (clipped) value loss, the entropy bonus, gradient
clipping, an optional ``target_kl`` stop. Under torchrun ``ranks`` averages the
gradients and the kl over the ranks (train/distributed.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np
import torch

from ..config import TrainerConfig
from ..contract import INFO
from .distributed import Distributed


@dataclass
class Batch:
    """One rollout, time-major: ``[steps, agents, ...]``. ``dones[t]`` is 1 where
    ``obs[t]`` begins an episode; ``obs`` are as the policy saw them (normalised
    by its own ``normalize`` where it has one)."""

    obs: torch.Tensor            # float [S, N, obs_size]
    masks: torch.Tensor          # bool [S, N, mask_size]
    actions: torch.Tensor        # long [S, N, heads]
    logprobs: torch.Tensor       # [S, N], of the actions when they were taken
    values: torch.Tensor         # [S, N]
    dones: torch.Tensor          # [S, N]
    advantages: torch.Tensor     # [S, N]
    returns: torch.Tensor        # [S, N]: advantages + values
    initial_state: Optional[tuple] = None   # a recurrent policy's state before obs[0]

    @property
    def steps(self) -> int:
        return self.obs.shape[0]

    @property
    def agents(self) -> int:
        return self.obs.shape[1]


def compute_gae(rewards, values, dones, next_value, next_done, gamma: float, gae_lambda: float):
    """Generalized advantage estimates ``[T, N]``. ``dones[t]`` is 1 where ``obs[t]``
    begins an episode (the step before it ended one); ``next_done`` / ``next_value``
    belong to the observation after the rollout (its value bootstraps a cut episode)."""
    steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    lastgaelam = torch.zeros_like(rewards[0])
    for t in reversed(range(steps)):
        if t == steps - 1:
            nextnonterminal, nextvalues = 1.0 - next_done, next_value
        else:
            nextnonterminal, nextvalues = 1.0 - dones[t + 1], values[t + 1]
        delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
        lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
        advantages[t] = lastgaelam
    return advantages


def ppo_update(policy, optimizer, batch: Batch, hp: TrainerConfig, ranks: Optional[Distributed] = None) -> dict:
    """Optimize the policy and value network on ``batch``; returns the ``losses/...``
    metrics of the last minibatch (clip fraction: the mean of all) and the explained variance."""
    steps, agents = batch.steps, batch.agents
    batch_size = steps * agents
    recurrent = bool(getattr(policy, "recurrent", False))
    minibatches = min(hp.num_minibatches, agents if recurrent else batch_size)
    normalized = {"normalized": True} if callable(getattr(policy, "normalize", None)) else {}
    device = batch.obs.device

    # ---- flatten the batch ----------------------------------------------------------------------
    b_obs = batch.obs.reshape(-1, INFO.obs_size)
    b_masks = batch.masks.reshape(-1, INFO.mask_size)
    b_actions = batch.actions.reshape(-1, INFO.heads)
    b_logprobs = batch.logprobs.reshape(-1)
    b_advantages = batch.advantages.reshape(-1)
    b_returns = batch.returns.reshape(-1)
    b_values = batch.values.reshape(-1)
    b_dones = batch.dones.reshape(-1)

    policy.train()
    clipfracs = []
    if recurrent:   # minibatches of whole sequences (agents), time-major inside
        groups = agents // minibatches
        env_inds = np.arange(agents)
        flat_inds = np.arange(batch_size).reshape(steps, agents)
    for epoch in range(hp.update_epochs):
        if recurrent:
            perm = torch.randperm(agents).numpy()
            chunks = [perm[i:i + groups] for i in range(0, agents - groups + 1, groups)]
        else:
            perm = torch.randperm(batch_size, device=device)
            size = batch_size // minibatches
            chunks = [perm[i:i + size] for i in range(0, batch_size - size + 1, size)]
        for chunk in chunks:
            if recurrent:
                mb_envs = env_inds[chunk]
                mb_inds = torch.as_tensor(flat_inds[:, mb_envs].ravel(), device=device)
                mb_state = tuple(s[:, mb_envs] for s in batch.initial_state)
            else:
                mb_inds, mb_state = chunk, None
            newlogprob, entropy, newvalue, _ = policy.evaluate(
                b_obs[mb_inds], b_masks[mb_inds], b_actions[mb_inds], mb_state, b_dones[mb_inds].bool(), **normalized)
            logratio = newlogprob - b_logprobs[mb_inds]
            ratio = logratio.exp()
            with torch.no_grad():
                old_approx_kl = (-logratio).mean()
                approx_kl = ((ratio - 1) - logratio).mean()
                clipfracs.append(((ratio - 1.0).abs() > hp.clip_coef).float().mean().item())

            mb_advantages = b_advantages[mb_inds]
            if hp.norm_adv:
                mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)

            # policy loss
            pg_loss1 = -mb_advantages * ratio
            pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - hp.clip_coef, 1 + hp.clip_coef)
            pg_loss = torch.max(pg_loss1, pg_loss2).mean()

            # value loss
            if hp.clip_vloss:
                v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
                v_clipped = b_values[mb_inds] + torch.clamp(newvalue - b_values[mb_inds], -hp.clip_coef, hp.clip_coef)
                v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
                v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
            else:
                v_loss = 0.5 * ((newvalue - b_returns[mb_inds]) ** 2).mean()

            entropy_loss = entropy.mean()
            loss = pg_loss - hp.ent_coef * entropy_loss + v_loss * hp.vf_coef

            optimizer.zero_grad()
            loss.backward()
            if ranks is not None:
                ranks.average_gradients(policy)
            torch.nn.utils.clip_grad_norm_(policy.parameters(), hp.max_grad_norm)
            optimizer.step()

        if hp.target_kl is not None and _mean(approx_kl, ranks) > hp.target_kl:
            break   # decided on the ranks' mean kl: every rank stops at the same epoch

    y_pred, y_true = b_values.cpu().numpy(), b_returns.cpu().numpy()
    var_y = np.var(y_true)
    explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
    return {"losses/value_loss": v_loss.item(), "losses/policy_loss": pg_loss.item(),
            "losses/entropy": entropy_loss.item(), "losses/old_approx_kl": old_approx_kl.item(),
            "losses/approx_kl": approx_kl.item(), "losses/clipfrac": float(np.mean(clipfracs)),
            "losses/explained_variance": float(explained_var)}


def _mean(value: torch.Tensor, ranks: Optional[Distributed]) -> float:
    return float(value) if ranks is None else ranks.mean(value)


__all__ = ["Batch", "compute_gae", "ppo_update"]
