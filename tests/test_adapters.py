"""Gymnasium and PettingZoo adapters (gota_arena.adapters) and the masked sampler the benchmark uses."""
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics  # noqa: E402
from pettingzoo.test import parallel_api_test, parallel_seed_test  # noqa: E402

from gota_arena import Match, Result, plugins  # noqa: E402
from gota_arena.adapters import GotaParallelEnv, GotaVectorEnv, flatten_masks  # noqa: E402
from gota_arena.contract import MASK_FLAT_SIZE, MASK_SIZE, OBS_SIZE  # noqa: E402
from gota_arena.masking import illegal_rows, sample_actions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FAST = dict(action_ticks=24, max_ticks=240, threads=1)   # an episode is 10 steps


def bot_match_masks(every=96, steps=30):
    """Conditional and flat masks of all ten seats of a bot match (abilities, items, casts)."""
    with Match(seed=3, bots={"red": "puller", "blue": "base"}) as m:
        for _ in range(steps):
            m.step(every)
            yield m, [(seat, m.mask(seat), m.mask(seat, flat=True)) for seat in range(10)]


def test_flatten_masks_matches_native():
    rich = 0
    for _, seats in bot_match_masks():
        cond = np.stack([c for _, c, _ in seats])
        flat = np.stack([f for _, _, f in seats])
        assert (flatten_masks(cond) == flat).all()
        rich += int(cond[:, 8:].any(axis=1).sum())
    assert rich > 100   # abilities, targets and items were allowed, not only verbs
    assert flatten_masks(np.zeros((2, 3, MASK_SIZE), np.uint8)).shape == (2, 3, MASK_FLAT_SIZE)


def test_vector_env_spaces_and_reset():
    with GotaVectorEnv(lanes=2, self_play=True, **FAST) as env:
        assert env.num_envs == 20 and env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        assert env.single_observation_space.shape == (OBS_SIZE,)
        assert list(env.single_action_space.nvec) == [8, 25, 49, 4, 6]
        assert env.observation_space.shape == (20, OBS_SIZE) and env.action_space.shape == (20, 5)
        obs, infos = env.reset(seed=3)
        assert obs.dtype == np.float32 and env.observation_space.contains(obs)
        assert infos["action_mask"].shape == (20, MASK_SIZE) and infos["action_mask"].dtype == np.uint8
        assert (infos["action_mask_flat"] == flatten_masks(infos["action_mask"])).all()
        again, _ = env.reset(seed=3)
        assert again.tobytes() == obs.tobytes()
        other, _ = env.reset(seed=4)
        assert other.tobytes() != obs.tobytes()
        env.action_space.seed(0)
        obs, rewards, terminations, truncations, infos = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs) and rewards.dtype == np.float32 and rewards.shape == (20,)
        assert terminations.dtype == bool and truncations.dtype == bool and "lane_stats" not in infos
    assert env.closed and env.arena.closed


def test_vector_env_copies_or_shares_buffers():
    with GotaVectorEnv(lanes=1, self_play=False, copy=False, **FAST) as env:
        obs, infos = env.reset(seed=0)
        assert obs is env.arena.obs and infos["action_mask"] is env.arena.masks
    with GotaVectorEnv(lanes=1, self_play=False, **FAST) as env:
        obs, _ = env.reset(seed=0)
        assert obs is not env.arena.obs and not np.shares_memory(obs, env.arena.obs)


def test_vector_env_autoreset_same_step():
    noop = np.zeros((20, 5), np.int32)
    with GotaVectorEnv(lanes=2, self_play=True, **FAST) as env, \
            GotaVectorEnv(lanes=2, self_play=True, **FAST) as fresh:
        env.reset(seed=0)
        for step in range(10):
            obs, _, terminations, truncations, infos = env.step(noop)
            assert ("lane_stats" in infos) == (step == 9)
        assert truncations.all() and not terminations.any()   # max_ticks: a timeout
        stats = infos["lane_stats"]
        assert infos["_lane_stats"].all() and (stats["ticks"] == 240).all()
        assert (stats["result"] == int(Result.TIMEOUT)).all() and (stats["outcome"] == -1).all()
        assert list(stats["seed"]) == [0] * 10 + [1] * 10
        assert (np.sort(stats["team"][:10]) == [0] * 5 + [1] * 5).all()
        # the returned observation is already the next episode's first: lane i now plays seed i + 2
        first, _ = fresh.reset(seed=1)
        assert obs.tobytes() == first.tobytes()


@pytest.mark.parametrize("reward", ["leaderboard", "xp"])
def test_vector_env_rewards_are_the_reward_modes(reward):
    """Each agent gets its team's reward of the reward mode, the finishing step included.
    Self-play lanes whose other team is the puller bot (its rows get their team's
    reward too); lane 0 plays seed 4 (learners red), lane 1 seed 5 (learners blue)."""
    mode = plugins.reward_mode(reward)
    nonzero = 0
    with GotaVectorEnv(lanes=2, self_play=True, reward=reward, action_ticks=24, max_ticks=960, threads=1) as env:
        for lane in range(2):
            env.arena.set_opponent(lane, "puller")
        env.reset(seed=2)
        mode.reset(env.arena.signals)
        env.action_space.seed(1)
        for step in range(42):
            learner = [env.arena.lane(lane)["learner_team"] for lane in range(2)]
            assert step or learner == [0, 1]
            _, rewards, _, truncations, _ = env.step(env.action_space.sample())
            team = mode.rewards(env.arena.signals)
            for lane in range(2):
                for row in range(10):
                    assert rewards[lane * 10 + row] == np.float32(team[lane, learner[lane] ^ (row >= 5)]), (step, lane)
            assert truncations.all() == (step == 39)
            nonzero += int((rewards != 0).sum())
    assert nonzero > 20


def test_vector_env_with_gymnasium_wrappers():
    env = RecordEpisodeStatistics(GotaVectorEnv(lanes=1, self_play=False, **FAST))
    env.reset(seed=0)
    for _ in range(10):
        _, _, _, truncations, infos = env.step(np.zeros((5, 5), np.int32))
    assert truncations.all() and (infos["episode"]["l"] == 10).all() and "lane_stats" in infos
    env.close()
    env = DictInfoToList(GotaVectorEnv(lanes=1, self_play=False, **FAST))
    _, infos = env.reset(seed=0)
    assert len(infos) == 5 and infos[0]["action_mask"].shape == (MASK_SIZE,)
    for _ in range(10):
        _, _, _, _, infos = env.step(np.zeros((5, 5), np.int32))
    assert infos[4]["lane_stats"]["ticks"] == 240
    env.close()


def test_parallel_api_self_play():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(GotaParallelEnv(self_play=True, **FAST), num_cycles=40)


def test_parallel_api_against_a_bot():
    # possible_agents lists all ten seats (the learner side changes with the seed),
    # so the test warns that the bot's five never terminated; nothing else may warn
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(GotaParallelEnv(self_play=False, **FAST), num_cycles=40)
    assert all("not all possible_agents" in str(w.message) for w in caught)


def test_parallel_seed():
    parallel_seed_test(lambda: GotaParallelEnv(self_play=True, **FAST), num_cycles=15)


def test_parallel_episode_sides_and_end():
    env = GotaParallelEnv(self_play=False, opponents=("puller",), **FAST)
    obs, infos = env.reset(seed=7)   # (7 mod 10) div 5 = 1: the learner plays blue
    assert env.agents == [f"blue_{i}" for i in range(5)]
    assert env.observation_space("blue_0").contains(obs["blue_0"])
    assert infos["blue_0"]["action_mask"].shape == (MASK_SIZE,)
    with GotaParallelEnv(self_play=False, opponents=("puller",), **FAST) as other:
        other.reset(seed=3)
        again, _ = other.reset(seed=7)
    assert all(obs[a]["observation"].tobytes() == again[a]["observation"].tobytes() for a in env.agents)
    for step in range(10):
        obs, rewards, terms, truncs, infos = env.step({a: np.zeros(5, np.int64) for a in env.agents})
        assert set(rewards) == set(terms) == set(truncs) == {f"blue_{i}" for i in range(5)}
    assert env.agents == [] and all(truncs.values()) and not any(terms.values())
    assert infos["blue_3"]["ticks"] == 240 and infos["blue_3"]["team"] == 1 and infos["blue_3"]["seed"] == 7
    assert not obs["blue_3"]["observation"].any() and obs["blue_3"]["action_mask"][0].tolist() == [1] + [0] * 7
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})
    obs, _ = env.reset(seed=12)
    assert env.agents == [f"red_{i}" for i in range(5)] and set(obs) == set(env.agents)
    with pytest.raises(ValueError, match="not playing"):
        env.step({"blue_0": np.zeros(5, np.int64)})
    env.close()


def test_import_error_names_the_extra():
    code = ("import sys; sys.modules['gymnasium'] = None; import gota_arena\n"
            "try:\n    import gota_arena.adapters\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert "pip install 'gota-arena[gym]'" in out.stdout


def test_masked_sampler_is_legal():
    """gota_arena.masking.sample_actions (the benchmark's sampler) never decodes invalid."""
    rng = np.random.default_rng(1)
    verbs = set()
    for m, seats in bot_match_masks(every=192, steps=12):
        masks = np.stack([c for _, c, _ in seats])
        for _ in range(3):
            actions = sample_actions(masks, rng)
            verbs |= set(actions[:, 0].tolist())
            assert not any(m.decode(seat, actions[seat])[1] for seat in range(10))
            assert not illegal_rows(masks, actions).any()
    assert {0, 1, 2, 3, 5} <= verbs
