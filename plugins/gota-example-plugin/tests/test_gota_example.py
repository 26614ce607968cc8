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
from gota_arena.testing import OpponentSuite, RewardModeSuite, start_signals

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


def test_registrations():
    row = {row["name"]: row for row in plugins.describe()}["example"]
    assert row["version"] == "0.1.0" and row["source"] == "entry point of gota-example-plugin"
    assert row["registers"] == {"opponents": ["example_charger"], "reward_modes": ["example_push"], "policies": []}
    assert "gota_episode_end" in row["hooks"]


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
