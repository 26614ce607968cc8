"""gota-example-plugin's tests: the shared suites of gota_arena.testing, plus
what this plugin promises beyond them.

Run from the repository root after ``pip install -e plugins/gota-example-plugin``:
``python -m pytest plugins/gota-example-plugin/tests``. The plugin is used by
name, loaded through its installed entry point with every other installed
plugin shut out (the ``gota_plugins`` marker of gota-arena's pytest plugin).
"""
import numpy as np
import pytest

from gota_arena import plugins
from gota_arena.hookspecs import EpisodeEnd
from gota_arena.learner_env import LearnerEnv
from gota_arena.rewards import DONE, OUTCOME, TOWER_HP
from gota_arena.testing import OpponentSuite, RewardModeSuite, TrainablePolicySuite, start_signals

# gota_arena.testing is a pytest plugin: its marker loads gota-arena's own plugins and this
# one (its entry point is named "example") for every test here, and nothing else installed
pytestmark = pytest.mark.gota_plugins(load="example")


@pytest.fixture(autouse=True)
def example_plugin(gota_plugins):
    """This plugin's module, loaded through its installed entry point."""
    if not gota_plugins.has_plugin("example"):
        pytest.fail("gota-example-plugin is not installed: pip install -e plugins/gota-example-plugin")
    return gota_plugins.get_plugin("example")


@pytest.mark.parametrize("opponent_name", ["example_charger"])
class TestCharger(OpponentSuite):
    pass


@pytest.mark.parametrize("reward_name, zero_sum, reward_options", [("example_push", False, {}),
                                                                   ("example_push", False, {"outcome": 10.0})])
class TestPush(RewardModeSuite):
    pass


@pytest.mark.parametrize("policy_name, policy_options", [("example_linear", {}), ("example_linear", {"init_std": 0.1})])
class TestLinear(TrainablePolicySuite):
    """The policy suites, two PPO updates of train() by name among them."""

    @pytest.fixture(autouse=True)
    def needs_torch(self):
        pytest.importorskip("torch")


def test_registrations():
    row = {row["name"]: row for row in plugins.describe()}["example"]
    assert row["version"] == "0.1.0" and row["source"] == "entry point of gota-example-plugin"
    assert row["registers"] == {"opponents": ["example_charger"], "reward_modes": ["example_push"],
                                "policies": ["example_linear"]}
    assert {"gota_episode_end", "gota_register_policies"} <= set(row["hooks"])


def test_linear_policy_trains_against_the_charger(tmp_path):
    """What a user runs: python -m gota_arena +experiment=vs_bundled policy=example_linear
    reward=example_push opponent.pool=[example_charger] ..., two updates of train()."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("hydra")
    import csv
    import io

    from gota_arena.policies import load_policy
    from gota_arena.train.cli import compose
    from gota_arena.train.ppo import train

    cfg = compose(["+experiment=vs_bundled", "policy=example_linear", "reward=example_push",
                   "reward.options.outcome=5", "opponent.pool=[example_charger]", "env.lanes=2", "env.threads=1",
                   "env.max_ticks=240", "env.action_ticks=24", "trainer.num_steps=8", "trainer.total_steps=160",
                   "trainer.num_minibatches=2", "trainer.update_epochs=2", "eval.enabled=false",
                   "trainer.plots=false", "trainer.tensorboard=false", "trainer.progress=false"])
    assert cfg.policy.options == {} and cfg.reward.options == {"outcome": 5}
    out = io.StringIO()
    summary = train(cfg, tmp_path / "run", stream=out)
    assert summary["updates"] == 2 and "policy example_linear (init_std=0.01)" in out.getvalue()
    with open(tmp_path / "run" / "metrics.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 and all(np.isfinite(float(r["losses/policy_loss"])) for r in rows)
    assert "charts/win_rate/example_charger" in rows[0]
    policy = load_policy(summary["policy"])
    assert policy.adapter == "example_linear" and policy.config == {"init_std": 0.01}
    assert policy.play.action_ticks == 24   # it plays as it was trained
    torch.manual_seed(cfg.trainer.seed)
    fresh = plugins.policy("example_linear")
    assert not torch.equal(fresh.actor.weight, policy.actor.weight), "the weights moved"


def test_charger_fights_and_pushes():
    """Against learners that stand still, the charger casts, attacks, marches and wins."""
    opponent = plugins.opponent("example_charger")
    verbs = []
    act = opponent.act

    def recording(seats):
        actions = act(seats)
        verbs.append(actions[:, 0].copy())
        return actions

    opponent.act = recording
    with LearnerEnv(lanes=1, self_play_lanes=0, opponents=[opponent], reward="example_push",
                    action_ticks=24, max_ticks=14400, threads=1) as env:
        env.reset(seed=7)
        episodes = []
        while not episodes:
            *_, episodes = env.step(np.zeros((env.agents, 5), np.int32))
    used = set(np.concatenate(verbs).tolist())
    assert {2, 3, 4} <= used, f"attack-move, attack and cast all used, got verbs {sorted(used)}"
    assert episodes[0]["outcome"] == -1 and episodes[0]["result"] == 1, "the charger's team won"


def test_push_values():
    """Enemy tower HP destroyed / 1000 while running; + outcome x the outcome at the end."""
    start = start_signals(1)
    mode = plugins.reward_mode("example_push", outcome=2.0)
    mode.reset(start)
    signals = start.copy()
    signals[0, 1, TOWER_HP] -= 1500   # red destroys 1,500 tower HP of blue
    assert np.allclose(mode.rewards(signals), [[1.5, 0.0]])
    signals[0, 0, TOWER_HP] -= 500
    signals[0, :, OUTCOME], signals[0, :, DONE] = (-1, 1), 1   # blue wins; done
    assert np.allclose(mode.rewards(signals), [[-2.0, 0.5 + 2.0]])


def test_episode_counter(example_plugin):
    stats = np.zeros(3, dtype=[("outcome", np.int32)])
    stats["outcome"] = (1, -1, 1)
    before = dict(example_plugin.EPISODES)
    plugins.manager().hook.gota_episode_end(episode=EpisodeEnd(stats, ["self", "base", "base"]))
    assert example_plugin.EPISODES == {"episodes": before["episodes"] + 3, "wins": before["wins"] + 2}
