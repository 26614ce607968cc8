"""Learning regression: the real PPO loop (gota_arena.train.ppo.train) must learn a
small arena task that the untrained policy does not solve (``pytest -k learning``).

Task: five learner heroes against the `idle` bot (it stays in its spawn room),
4 lanes, matches of 4,800 ticks (200 s of game = 200 decisions of 24 ticks).
The reward, `final_xp` (defined here), is the team's XP / 100 on a match's last
step and 0 before: sparse, so credit reaches a decision only through GAE
(gamma 1, lambda 0.95) over the match. Heroes gain XP from creeps dying within
6 tiles; the waves meet ~40 tiles from the spawn room, so the policy must learn
to keep walking out and stay near the creep fights. PPO: MLP 64x2, 60 updates
of 20 agents x 50 decisions (60,000 agent-steps), lr 3e-3 annealed, 4 epochs x
4 minibatches, trainer.seed=1, one torch and one simulator thread (so the run
is deterministic).

Measure: the mean return of a learner row (team XP / 100 in a match) of the
sampling policy (torch seeded) over the first match of 16 lanes of evaluation
seed 4242, which training never plays. Measured (seed 1): untrained 0.92,
trained 3.82; THRESHOLD = 2.0 (about 2x the untrained value, 1.9x under the
trained one; the test also asserts the untrained policy stays under it). Other
seeds, by hand with GOTA_LEARNING_SEED: 2 -> 2.13 (untrained 1.05),
3 -> 5.08 (1.07).

What it catches (seed 1, each made in gota_arena/train/ppo.py, then undone):
- policy-gradient sign flipped (``pg_loss1 = mb_advantages * ratio``, same for
  pg_loss2): return 0.24 < 2.0 (it learns to avoid XP);
- rewards one step off their decisions (``rewards[t - 1]`` in compute_gae): each
  match's only reward lands on the next match's first step, past the episode
  boundary: 1.39 < 2.0;
- action masks left out of the update (``policy.evaluate`` on
  ``torch.ones_like(b_masks[mb_inds])``): the return does NOT catch it, it even
  learns faster (6.72): the update's log-probs spread mass over illegal
  entries, so every ratio starts under 1 - clip, negative advantages are
  clipped away and positive ones are unbounded, a greedier optimizer for this
  sparse-success task. It is caught by the run's own diagnostic: with the
  learning rate annealed to ~0, the last update barely moves the policy, so its
  approx_kl measures only how far the update's log-probs are from the
  rollout's: 0.0003 honest, 0.0705 with the masks left out; KL_LIMIT = 0.02.

Runtime: ~30 s on 2 cores (measured 28-34 s with a load average of ~3-4 from
other jobs): training ~25 s, the two evaluations ~2.5 s each.
"""
import csv
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("omegaconf")

from gota_arena import hookimpl, plugins  # noqa: E402
from gota_arena.config import Config  # noqa: E402
from gota_arena.learner_env import LearnerEnv  # noqa: E402
from gota_arena.policies import load_policy  # noqa: E402
from gota_arena.rewards import TEAM_XP, PotentialReward  # noqa: E402
from gota_arena.train.ppo import train  # noqa: E402

ACTION_TICKS, MAX_TICKS = 24, 4800
EVAL_SEED, EVAL_LANES = 4242, 16


class FinalXp(PotentialReward):
    """The team's XP / 100 on an episode's last step, 0 on every other step."""

    name = "final_xp"

    def potential(self, signals):
        return np.zeros(signals.shape[:2])

    def final(self, signals):
        return signals[:, :, TEAM_XP] / 100.0


class _RewardPlugin:
    @hookimpl
    def gota_register_reward_modes(self, register):
        register(FinalXp.name, FinalXp, FinalXp.__doc__)


def learning_config(seed: int) -> Config:
    cfg = Config()
    cfg.env.lanes, cfg.env.threads, cfg.env.action_ticks, cfg.env.max_ticks = 4, 1, ACTION_TICKS, MAX_TICKS
    cfg.opponent.self_play_share, cfg.opponent.pool = 0.0, ["idle"]
    cfg.reward.name = FinalXp.name
    cfg.policy.name, cfg.policy.options = "mlp", {"hidden": 64, "layers": 2}
    t = cfg.trainer
    t.seed = seed
    t.total_steps = 60 * 20 * 50          # 20 agents x 50 decisions: 60 updates, 15 matches per lane
    t.num_steps = 50
    t.learning_rate, t.anneal_lr = 3e-3, True
    t.gamma, t.gae_lambda = 1.0, 0.95
    t.update_epochs, t.num_minibatches, t.ent_coef = 4, 4, 0.003
    t.torch_threads, t.learn_threads = 1, 1
    t.checkpoint_every = 10 ** 6           # one segment: no match is cut
    t.progress, t.tensorboard, t.plots = False, False, False
    cfg.eval.enabled = False
    return cfg


def mean_return(policy, seed: int = EVAL_SEED, lanes: int = EVAL_LANES) -> float:
    """The mean return of a learner row over the first match of each lane (sampling)."""
    torch.manual_seed(0)
    returns = np.zeros(lanes * 5)
    finished = np.zeros(lanes * 5, dtype=bool)
    with LearnerEnv(lanes=lanes, self_play_lanes=0, opponents=["idle"], reward=FinalXp(),
                    action_ticks=ACTION_TICKS, threads=1, max_ticks=MAX_TICKS) as env:
        obs, masks = env.reset(seed=seed)
        while not finished.all():
            obs, masks, rewards, dones, _ = env.step(policy.act(obs, masks).actions)
            returns += np.where(finished, 0.0, rewards)
            finished |= dones
    return float(returns.mean())


def last_update(metrics_csv: str) -> dict:
    with open(metrics_csv, newline="") as f:
        return list(csv.DictReader(f))[-1]


SEED = int(os.environ.get("GOTA_LEARNING_SEED", "1"))   # trainer.seed; another one: a flakiness check by hand
THRESHOLD = 2.0    # return: untrained 0.92, trained 3.82; sign flipped 0.24, rewards shifted 1.39 (module docstring)
KL_LIMIT = 0.02    # approx_kl of the last update: 0.0003 honest, 0.0705 with the masks left out of the update


def test_ppo_learning_walks_out_to_creeps_for_xp(tmp_path):
    """PPO against `idle` with the sparse final_xp reward beats THRESHOLD, which the
    untrained policy does not reach, and its update agrees with its rollout
    (approx_kl ~0 once the learning rate is annealed to ~0). See the module docstring."""
    threads = torch.get_num_threads()
    try:
        with plugins.registered(_RewardPlugin(), "test-learning-reward"), open(os.devnull, "w") as quiet:
            summary = train(learning_config(SEED), tmp_path / "run", stream=quiet)
        torch.set_num_threads(1)
        trained = mean_return(load_policy(summary["policy"]))
        torch.manual_seed(SEED)
        untrained = mean_return(plugins.policy("mlp", hidden=64, layers=2))
    finally:
        torch.set_num_threads(threads)
    end = last_update(summary["metrics"])
    print(f"final_xp return: untrained {untrained:.2f}, trained {trained:.2f} (threshold {THRESHOLD}); "
          f"last update: approx_kl {float(end['losses/approx_kl']):.4f}, clipfrac {float(end['losses/clipfrac']):.3f}")
    assert untrained < THRESHOLD
    assert trained > THRESHOLD, f"PPO did not learn: return {trained:.2f} <= {THRESHOLD} (untrained {untrained:.2f})"
    assert float(end["losses/approx_kl"]) < KL_LIMIT, (
        f"approx_kl {float(end['losses/approx_kl']):.4f} in the last update (learning rate ~0): the update's "
        "log-probabilities disagree with the rollout's")
