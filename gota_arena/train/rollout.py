"""The acting half of PPO: ``num_steps`` decisions of every learner row of a LearnerEnv.

    rollout = Rollout(env, policy, steps=64, device=device)
    rollout.start(seed)                       # fresh matches: a run's first segment, and after each checkpoint
    whole = rollout.collect(on_finished)      # False when cut short (Ctrl-C)
    batch = rollout.batch(gamma, gae_lambda)  # with advantages (train/update.py)

The storage is allocated once and overwritten by every rollout. Between
rollouts the rollout keeps what acting goes on from: the next observation, mask
and episode starts, the recurrent state and each row's running return.
``on_finished(step, returns, episodes)`` hears of every step in which episodes
ended, at once: the league's next draws (inside the env's next step) count them.
A policy with its own ``normalize`` sees normalised observations, and the batch
stores them; the raw ones are summed (``raw_sum``, ``raw_sq``) so that its
statistics can move once per update, after learning.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import torch

from ..contract import INFO
from ..learner_env import LearnerEnv
from .update import Batch, compute_gae


class Rollout:
    def __init__(self, env: LearnerEnv, policy, steps: int, device):
        self.env, self.policy, self.steps, self.device = env, policy, steps, device
        agents = env.agents
        self.normalizes = callable(getattr(policy, "normalize", None))
        self.prepare = policy.normalize if self.normalizes else (lambda o: o)
        self.normalized = {"normalized": True} if self.normalizes else {}
        self.obs = torch.zeros((steps, agents, INFO.obs_size), device=device)
        self.masks = torch.zeros((steps, agents, INFO.mask_size), dtype=torch.bool, device=device)
        self.actions = torch.zeros((steps, agents, INFO.heads), dtype=torch.long, device=device)
        self.logprobs = torch.zeros((steps, agents), device=device)
        self.rewards = torch.zeros((steps, agents), device=device)
        self.dones = torch.zeros((steps, agents), device=device)
        self.values = torch.zeros((steps, agents), device=device)

    def start(self, seed: int) -> None:
        """Fresh matches from ``seed``; every row begins an episode."""
        o, m = self.env.reset(seed=seed)
        agents = self.env.agents
        self.next_obs = torch.as_tensor(o, device=self.device)
        self.next_masks = torch.as_tensor(m, device=self.device) != 0
        self.next_done = torch.ones(agents, device=self.device)
        self.state = self.policy.initial_state(agents)
        self.episode_return = np.zeros(agents)

    def collect(self, on_finished: Callable[[int, list, list], None],
                stop: Callable[[], bool] = lambda: False) -> bool:
        """Fill the storage; False when ``stop()`` cut it short."""
        env, policy, device = self.env, self.policy, self.device
        self.initial_state = None if self.state is None else tuple(s.clone() for s in self.state)
        self.raw_sum = torch.zeros(INFO.obs_size, dtype=torch.float64, device=device)
        self.raw_sq = torch.zeros(INFO.obs_size, dtype=torch.float64, device=device)
        policy.eval()
        for step in range(self.steps):
            if self.normalizes:
                raw = self.next_obs.double()
                self.raw_sum += raw.sum(0)
                self.raw_sq += (raw * raw).sum(0)
            x = self.prepare(self.next_obs)
            self.obs[step], self.masks[step], self.dones[step] = x, self.next_masks, self.next_done
            with torch.no_grad():
                action, logprob, value, self.state = policy.forward_act(
                    x, self.next_masks, self.state, self.next_done.bool(), **self.normalized)
            self.values[step], self.actions[step], self.logprobs[step] = value, action, logprob
            o, m, r, d, episodes = env.step(action.to(torch.int32).cpu().numpy())
            self.rewards[step] = torch.as_tensor(r, device=device)
            self.next_obs = torch.as_tensor(o, device=device)
            self.next_masks = torch.as_tensor(m, device=device) != 0
            self.next_done = torch.as_tensor(d, device=device, dtype=torch.float32)
            self.episode_return += r
            returns = self.episode_return[d].tolist()
            self.episode_return[d] = 0.0
            if returns or episodes:
                on_finished(step, returns, episodes)
            if stop():
                return False
        return True

    def batch(self, gamma: float, gae_lambda: float) -> Batch:
        """The rollout with its advantages: GAE, a cut episode bootstrapped with the value of
        the observation after the rollout."""
        with torch.no_grad():
            next_value = self.policy.get_value(self.prepare(self.next_obs), self.state, self.next_done.bool(),
                                               **self.normalized)
            advantages = compute_gae(self.rewards, self.values, self.dones, next_value, self.next_done, gamma,
                                     gae_lambda)
            returns = advantages + self.values
        return Batch(self.obs, self.masks, self.actions, self.logprobs, self.values, self.dones, advantages, returns,
                     self.initial_state)


__all__ = ["Rollout"]
