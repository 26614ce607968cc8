"""Plugins: the manager, the errors a plugin author can meet, the shared suites on
every bundled opponent, reward mode and policy, the example plugin, and the
code of docs/plugins.md.

Hermetic: every test runs with GOTA_LOAD_PLUGINS="" (bundled plugins only) and
registers what it needs inline, or installs a fake distribution on sys.path
for the entry-point cases. Only the tests named ``*example*`` use
plugins/gota-example-plugin, loaded from its folder (or, when it is installed,
through its entry point).
"""
import importlib
import importlib.util
import os
import re
import subprocess
import sys
import textwrap
import types
import warnings
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

from gota_arena import PluginError, PluginWarning, __version__, bot_names, hookimpl, plugins
from gota_arena.hookspecs import CheckpointSaved, EpisodeEnd, EvaluationFinished
from gota_arena.learner_env import LearnerEnv
from gota_arena.masking import verb_mask
from gota_arena.opponents import Opponent, PolicyOpponent
from gota_arena.rewards import PotentialReward, TEAM_XP
from gota_arena.testing import OpponentSuite, PolicySuite, RewardModeSuite, TrainablePolicySuite, isolated_plugins

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "plugins" / "gota-example-plugin"
BOTS = ["idle", "random", "base", "rusher", "baseline", "puller"]
BUNDLED_OPPONENTS = BOTS + ["base.bas", "rusher.bas", "puller.bas", "ppo"]   # native bots, BASIC scripts, the trained policy
# gota-arena's own entry points (pyproject.toml), in the order they load
BUNDLED_PLUGINS = ["gota_bundled.bots", "gota_bundled.policies", "gota_bundled.ppo", "gota_bundled.rewards",
                   "gota_bundled.scripts"]
REWARD_MODES = [("leaderboard", False), ("xp", False), ("xp_outcome", False), ("advantage", True)]
POLICIES = ["random"]   # the torch ones: TestBundledTrainablePolicies
ENV = dict(action_ticks=24, max_ticks=240, threads=1)


@pytest.fixture(autouse=True)
def hermetic():
    """Bundled plugins only, whatever is installed."""
    with isolated_plugins():
        yield


def fake_distribution(tmp_path, monkeypatch, dist: str, version: str, modules: dict, entry_points: dict) -> None:
    """Install ``dist`` on sys.path for this test: its modules and its entry points
    in the gota_arena group, found by importlib.metadata as any installed one."""
    site = tmp_path / f"site-{dist}"
    info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    for name, code in modules.items():
        (site / f"{name}.py").write_text(textwrap.dedent(code))
        forget_module(monkeypatch, name)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(
        "[gota_arena]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items()))
    monkeypatch.syspath_prepend(str(site))


def forget_module(monkeypatch, name: str) -> None:
    """Unload module ``name`` now and again after the test."""
    monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.delitem(sys.modules, name)


def finished_stats(env: LearnerEnv) -> np.ndarray:
    """The lane stats of the lanes that finished in the env's last step."""
    return env.arena.stats[env.arena.stats["finished"] == 1].copy()


def opponents_plugin(**factories):
    """An inline plugin registering opponents ``name=factory``."""
    class Plugin:
        @hookimpl
        def gota_register_opponents(self, register):
            for name, factory in factories.items():
                register(name, factory, f"test opponent {name}")
    return Plugin()


def reward_plugin(**factories):
    class Plugin:
        @hookimpl
        def gota_register_reward_modes(self, register):
            for name, factory in factories.items():
                register(name, factory, f"test reward mode {name}")
    return Plugin()


# ---------------------------------------------------------------------------
# The bundled plugins and the shared suites
# ---------------------------------------------------------------------------

def test_bundled_registrations():
    assert plugins.names("opponents") == sorted(BUNDLED_OPPONENTS)
    assert sorted(BOTS) == sorted(bot_names()[1:])
    assert plugins.names("reward_modes") == sorted(name for name, _ in REWARD_MODES)
    assert "random" in plugins.names("policies")
    assert [name for name, _ in plugins.manager().list_name_plugin()] == BUNDLED_PLUGINS == plugins.bundled()


def test_bundled_plugins_are_entry_points_and_the_core_never_imports_them():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["gota_arena"] == {name: name for name in BUNDLED_PLUGINS}
    installed = {ep.name: ep.value for ep in metadata.entry_points(group="gota_arena")
                 if ep.dist and ep.dist.name.replace("_", "-") == "gota-arena"}
    assert installed == {name: name for name in BUNDLED_PLUGINS}, "reinstall gota-arena: pip install -e ."
    imports = re.compile(r"^\s*(from|import)\s+gota_bundled\b|import_module\(\s*['\"]gota_bundled", re.M)
    for path in sorted((ROOT / "gota_arena").rglob("*.py")):
        assert not imports.search(path.read_text()), f"{path.relative_to(ROOT)} imports gota_bundled"


def test_a_bundled_plugin_can_be_left_out(monkeypatch):
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "-gota_bundled.ppo, -gota_bundled.scripts")
    plugins.reload()
    assert plugins.bundled() == ["gota_bundled.bots", "gota_bundled.policies", "gota_bundled.rewards"]
    assert "ppo" not in plugins.names("opponents") and "base.bas" not in plugins.names("opponents")
    from gota_arena.basic import bundled_scripts
    assert bundled_scripts() == {}
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "")
    plugins.reload()
    assert sorted(bundled_scripts()) == ["base.bas", "puller.bas", "rusher.bas"]
    assert bundled_scripts()["base.bas"] == ROOT / "plugins" / "gota_bundled" / "bas" / "base.bas"


@pytest.mark.parametrize("opponent_name", BOTS)
class TestBundledOpponents(OpponentSuite):
    pass


@pytest.mark.parametrize("reward_name, zero_sum", REWARD_MODES)
class TestBundledRewardModes(RewardModeSuite):
    pass


@pytest.mark.parametrize("policy_name", POLICIES)
class TestBundledPolicies(PolicySuite):
    pass


@pytest.mark.parametrize("policy_name, policy_options", [("mlp", {"hidden": 16}), ("lstm", {"hidden": 16}),
                                                         ("entity", {"embed": 8, "hidden": 16, "layers": 1})])
class TestBundledTrainablePolicies(TrainablePolicySuite):
    @pytest.fixture(autouse=True)
    def needs_torch(self):
        pytest.importorskip("torch")


def test_ppo_refuses_a_policy_it_cannot_train(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("hydra")
    from gota_arena.train.cli import compose
    from gota_arena.train.ppo import train

    cfg = compose(["+experiment=vs_bundled", "policy=random", "env.lanes=1", "eval.enabled=false"])
    with pytest.raises(PluginError, match=r"policy 'random' \(plugin 'gota_bundled.policies'\) cannot be trained by "
                                          r"PPO: it is a RandomPolicy, not a torch.nn.Module; it has no forward_act, "
                                          r"evaluate, get_value\. PPO trains a torch.nn.Module with forward_act, "
                                          r"evaluate and get_value: see docs/plugins.md, 'Policies PPO can train'"):
        train(cfg, tmp_path / "run")


class PolicyOpponents:
    """A Python opponent for the suite in the core tests: the random policy, frozen."""

    @hookimpl
    def gota_register_opponents(self, register):
        from gota_bundled.policies import RandomPolicy

        register("random_policy", lambda seed=0: PolicyOpponent(RandomPolicy(seed), name="random_policy"))


@pytest.mark.parametrize("opponent_name, opponent_options", [("random_policy", {}), ("random_policy", {"seed": 3})])
class TestPolicyOpponent(OpponentSuite):
    @pytest.fixture(autouse=True)
    def plugin(self, hermetic):
        with plugins.registered(PolicyOpponents(), name="policy_opponents"):
            yield


# ---------------------------------------------------------------------------
# Loading: entry points, GOTA_LOAD_PLUGINS, describe()
# ---------------------------------------------------------------------------

PLUGIN_A = """
    from gota_arena import hookimpl
    from gota_arena.opponents import BotOpponent

    @hookimpl
    def gota_register_opponents(register):
        register("{name}", lambda: BotOpponent("base"), "the base bot under another name")
"""


def test_entry_points_and_gota_load_plugins(tmp_path, monkeypatch):
    fake_distribution(tmp_path, monkeypatch, "gota-fake-a", "1.2.3", {"gota_fake_a": PLUGIN_A.format(name="a_base")},
                      {"fake_a": "gota_fake_a"})
    fake_distribution(tmp_path, monkeypatch, "gota-fake-b", "0.0.1", {"gota_fake_b": PLUGIN_A.format(name="b_base")},
                      {"fake_b": "gota_fake_b"})
    monkeypatch.delenv("GOTA_LOAD_PLUGINS")
    plugins.reload()
    assert {"a_base", "b_base"} <= set(plugins.names("opponents"))
    for chosen, expected in (("fake_a", {"a_base"}), (" fake_b ", {"b_base"}), ("", set()),
                             ("*,-fake_a", {"b_base"}), ("fake_a,fake_b,-fake_b", {"a_base"})):
        monkeypatch.setenv("GOTA_LOAD_PLUGINS", chosen)
        plugins.reload()
        third_party = set(plugins.names("opponents")) - set(BUNDLED_OPPONENTS) - {"example_charger"}
        assert third_party == expected, chosen
        assert set(plugins.names("opponents")) >= set(BUNDLED_OPPONENTS), "bundled plugins load unless left out"
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "fake_a")
    plugins.reload()
    rows = {row["name"]: row for row in plugins.describe()}
    assert rows["fake_a"] == {"name": "fake_a", "version": "1.2.3", "source": "entry point of gota-fake-a",
                              "hooks": ["gota_register_opponents"],
                              "registers": {"opponents": ["a_base"], "reward_modes": [], "policies": []}}
    assert plugins.opponent("a_base").bot == "base"


def test_gota_load_plugins_naming_nothing_installed_warns(tmp_path, monkeypatch):
    fake_distribution(tmp_path, monkeypatch, "gota-fake-b", "0.0.1", {"gota_fake_b": PLUGIN_A.format(name="b_base")},
                      {"fake_b": "gota_fake_b"})
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "fake_b, nothing, -nobody")
    with pytest.warns(PluginWarning) as caught:
        plugins.reload()
    messages = sorted(str(w.message) for w in caught)
    assert len(messages) == 2
    assert messages[0].startswith("GOTA_LOAD_PLUGINS names 'nobody', which is no installed plugin; the installed "
                                  "ones are: ")
    assert messages[1].startswith("GOTA_LOAD_PLUGINS names 'nothing', which is no installed plugin")
    assert "fake_b" in messages[1] and "gota_bundled.bots" in messages[1]
    assert "b_base" in plugins.names("opponents")


def test_describe_lists_every_plugin():
    class Plugin:
        @hookimpl
        def gota_register_reward_modes(self, register):
            register("inline_xp", lambda: plugins.reward_mode("xp"), "xp, registered inline")

        @hookimpl
        def gota_episode_end(self, episode):
            pass

    with plugins.registered(Plugin(), name="inline"):
        rows = plugins.describe()
        by_name = {row["name"]: row for row in rows}
        assert list(by_name) == [*BUNDLED_PLUGINS, "inline"]
        assert by_name["gota_bundled.bots"] == {
            "name": "gota_bundled.bots", "version": __version__, "source": "bundled",
            "hooks": ["gota_register_opponents"],
            "registers": {"opponents": sorted(BOTS), "reward_modes": [], "policies": []}}
        assert by_name["gota_bundled.rewards"]["registers"]["reward_modes"] == sorted(n for n, _ in REWARD_MODES)
        assert "random" in by_name["gota_bundled.policies"]["registers"]["policies"]
        assert by_name["inline"] == {
            "name": "inline", "version": "-", "source": "registered at run time",
            "hooks": ["gota_episode_end", "gota_register_reward_modes"],
            "registers": {"opponents": [], "reward_modes": ["inline_xp"], "policies": []}}
        assert plugins.registrations("reward_modes")["inline_xp"].description == "xp, registered inline"
    assert "inline" not in {row["name"] for row in plugins.describe()}
    assert "inline_xp" not in plugins.names("reward_modes")


def test_registered_unregisters_after_an_error():
    with pytest.raises(RuntimeError):
        with plugins.registered(opponents_plugin(gone=lambda: None), name="temporary"):
            assert "gone" in plugins.names("opponents")
            raise RuntimeError("inside the block")
    assert "gone" not in plugins.names("opponents")
    assert not plugins.manager().has_plugin("temporary")


# ---------------------------------------------------------------------------
# Errors: each names the plugin and says what to do
# ---------------------------------------------------------------------------

def test_two_plugins_registering_one_name():
    with plugins.registered(opponents_plugin(twin=lambda: None), name="first"), \
            plugins.registered(opponents_plugin(twin=lambda: None), name="second"):
        with pytest.raises(PluginError, match=r"opponent 'twin' is registered twice: by plugin 'first' and by "
                                              r"plugin 'second'; rename one or leave one out"):
            plugins.opponent("twin")
    with plugins.registered(reward_plugin(xp=lambda: None), name="shadow"):
        with pytest.raises(PluginError, match="'xp' is registered twice: by plugin 'gota_bundled.rewards' and by "
                                              "plugin 'shadow'"):
            plugins.names("reward_modes")


def test_two_installed_plugins_registering_one_name(tmp_path, monkeypatch):
    for letter in "xy":
        fake_distribution(tmp_path, monkeypatch, f"gota-dup-{letter}", "1.0", {f"gota_dup_{letter}": PLUGIN_A.format(
            name="dup")}, {f"dup_{letter}": f"gota_dup_{letter}"})
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "dup_x,dup_y")
    plugins.reload()
    with pytest.raises(PluginError, match="opponent 'dup' is registered twice: by plugin 'dup_[xy]' and by plugin "
                                          "'dup_[xy]'"):
        LearnerEnv(lanes=1, self_play_lanes=0, opponents=["dup"], **ENV)
    with pytest.raises(PluginError, match="registered twice"):
        plugins.describe()


def test_unknown_names_list_the_known_ones():
    with pytest.raises(PluginError, match=r"unknown opponent 'nobody'; the known ones are: base, base\.bas, baseline, idle, ppo, "
                                          r"puller, puller\.bas, random, rusher, rusher\.bas \(installed plugins add more: see "
                                          r"`python -m gota_arena plugins`\)"):
        LearnerEnv(lanes=1, self_play_lanes=0, opponents=["nobody"], **ENV)
    with pytest.raises(PluginError, match="unknown reward mode 'glory'; the known ones are: advantage, "
                                          "leaderboard, xp, xp_outcome"):
        LearnerEnv(lanes=1, reward="glory", **ENV)
    with pytest.raises(PluginError, match="unknown policy 'transformer'; the known ones are: .*random"):
        plugins.policy("transformer")
    with pytest.raises(PluginError, match="unknown plugin kind 'bots'; the kinds are opponents, reward_modes, "
                                          "policies"):
        plugins.names("bots")


def test_bad_options_name_the_registration():
    with pytest.raises(PluginError, match=r"reward mode 'xp' \(plugin 'gota_bundled.rewards'\) rejected its "
                                          r"options \{'scale': 2\}"):
        plugins.reward_mode("xp", scale=2)


def test_plugin_raising_at_import_is_left_out(tmp_path, monkeypatch):
    fake_distribution(tmp_path, monkeypatch, "gota-broken", "0.3", {"gota_broken": "raise ImportError('no torch')"},
                      {"broken": "gota_broken"})
    fake_distribution(tmp_path, monkeypatch, "gota-fake-a", "1.2.3", {"gota_fake_a": PLUGIN_A.format(name="a_base")},
                      {"fake_a": "gota_fake_a"})
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "broken,fake_a")
    with pytest.warns(PluginWarning, match=r"plugin 'broken' \(gota_broken, from gota-broken 0\.3\) failed to "
                                           r"import: ImportError: no torch; it is left out: fix or uninstall it, or "
                                           r"leave it out with GOTA_LOAD_PLUGINS=-broken"):
        plugins.reload()
    assert "broken" not in {row["name"] for row in plugins.describe()}   # the others work
    assert plugins.names("opponents") == sorted(BUNDLED_OPPONENTS + ["a_base"])
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "broken,fake_a,-broken")   # left out on purpose: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plugins.reload()
    assert "a_base" in plugins.names("opponents")


def test_a_broken_plugin_does_not_stop_a_command(tmp_path):
    """``python -m gota_arena plugins`` with a plugin that fails to import: one warning line, the rest listed."""
    site = tmp_path / "site"
    info = site / "gota_broken-0.3.dist-info"
    info.mkdir(parents=True)
    (site / "gota_broken.py").write_text("raise ImportError('no torch')\n")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gota-broken\nVersion: 0.3\n")
    (info / "entry_points.txt").write_text("[gota_arena]\nbroken = gota_broken\n")
    env = {k: v for k, v in os.environ.items() if k != "GOTA_LOAD_PLUGINS"}
    env["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [env.get("PYTHONPATH")])])
    result = subprocess.run([sys.executable, "-m", "gota_arena", "plugins"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("gota-arena: warning: plugin 'broken' (gota_broken, from gota-broken 0.3) failed "
                                    "to import: ImportError: no torch; it is left out: fix or uninstall it, or leave "
                                    "it out with GOTA_LOAD_PLUGINS=-broken"), result.stderr
    assert "gota_bundled.bots" in result.stdout and "broken" not in result.stdout


RAISING = """
    from gota_arena import hookimpl
    from gota_arena.opponents import BotOpponent

    @hookimpl
    def gota_register_opponents(register):
        register("doomed", lambda: BotOpponent("base"))
        raise KeyError("config")

    @hookimpl
    def gota_register_reward_modes(register):
        pass

    @hookimpl
    def gota_episode_end(episode):
        pass
"""

RAISING_EVENT = """
    from gota_arena import hookimpl

    CALLS = []

    @hookimpl
    def gota_episode_end(episode):
        CALLS.append(len(episode.stats))
        raise RuntimeError("disk full")
"""


def test_installed_plugin_raising_in_a_hook_is_left_out(tmp_path, monkeypatch):
    fake_distribution(tmp_path, monkeypatch, "gota-raising", "1.0", {"gota_raising": RAISING}, {"raising": "gota_raising"})
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "raising")
    plugins.reload()
    with pytest.warns(PluginWarning, match=r"plugin 'raising' raised in gota_register_opponents: KeyError: 'config'; "
                                           r"it is left out: fix or uninstall it, or leave it out with "
                                           r"GOTA_LOAD_PLUGINS=-raising"):
        assert plugins.names("opponents") == sorted(BUNDLED_OPPONENTS)   # not "doomed"
    assert not plugins.manager().has_plugin("raising")   # none of its hooks is called any more
    assert "raising" not in {row["name"] for row in plugins.describe()}
    assert plugins.opponent("base").bot == "base"


def test_installed_plugin_raising_in_an_event_hook_is_left_out(tmp_path, monkeypatch):
    fake_distribution(tmp_path, monkeypatch, "gota-raising", "1.0", {"gota_raising": RAISING_EVENT},
                      {"raising": "gota_raising"})
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "raising")
    plugins.reload()
    seen = []

    class Listener:
        @hookimpl
        def gota_episode_end(self, episode):
            seen.append(len(episode.stats))

    stats = np.zeros(2, dtype=[("outcome", np.int32)])
    with plugins.registered(Listener(), name="listener"):
        with pytest.warns(PluginWarning, match=r"plugin 'raising' raised in gota_episode_end: RuntimeError: disk full;"
                                               r" it is left out"):
            plugins.notify("gota_episode_end", episode=EpisodeEnd(stats, ["self", "self"]))
        plugins.notify("gota_episode_end", episode=EpisodeEnd(stats, ["self", "self"]))
        assert seen == [2, 2] and sys.modules["gota_raising"].CALLS == [2]
        with pytest.raises(RuntimeError, match="inline"):   # a plugin registered in the process raises as usual
            with plugins.registered(types.SimpleNamespace(gota_episode_end=hookimpl(
                    lambda episode: (_ for _ in ()).throw(RuntimeError("inline")))), name="inline_raising"):
                plugins.notify("gota_episode_end", episode=EpisodeEnd(stats, ["self", "self"]))


MISSPELLED = """
    from gota_arena import hookimpl

    @hookimpl
    def gota_register_opponent(register):   # the hook is gota_register_opponents
        pass
"""


def test_unknown_hook_fails_at_start_up(tmp_path, monkeypatch):
    with pytest.raises(PluginError, match=r"(?s)plugin 'typo': unknown hook 'gota_register_opponent'.*hooks are the "
                                          r"gota_\* functions of gota_arena/hookspecs.py"):
        with plugins.registered(types.SimpleNamespace(gota_register_opponent=hookimpl(lambda register: None)),
                                name="typo"):
            pass
    assert not plugins.manager().has_plugin("typo")
    fake_distribution(tmp_path, monkeypatch, "gota-typo", "1.0", {"gota_typo": MISSPELLED}, {"typo": "gota_typo"})
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "typo")
    with pytest.warns(PluginWarning, match=r"(?s)plugin 'typo': unknown hook 'gota_register_opponent'.*it is left "
                                           r"out: .*GOTA_LOAD_PLUGINS=-typo"):
        plugins.reload()   # an installed plugin: left out, the rest loads
    assert not plugins.manager().has_plugin("typo") and plugins.names("opponents") == sorted(BUNDLED_OPPONENTS)


WRONG_ARGUMENTS = """
    from gota_arena import hookimpl

    @hookimpl
    def gota_register_opponents(callback):   # the argument is named register
        pass
"""


def test_hook_with_wrong_arguments(tmp_path, monkeypatch):
    class Plugin:
        @hookimpl
        def gota_register_opponents(self, callback):
            pass

    with pytest.raises(PluginError, match=r"(?s)plugin 'wrong_args'.*gota_register_opponents.*\{'callback'\}"):
        with plugins.registered(Plugin(), name="wrong_args"):
            pass
    fake_distribution(tmp_path, monkeypatch, "gota-wrong", "1.0", {"gota_wrong": WRONG_ARGUMENTS},
                      {"wrong_args": "gota_wrong"})
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "wrong_args")
    with pytest.warns(PluginWarning, match=r"(?s)plugin 'wrong_args'.*\{'callback'\}.*it is left out"):
        plugins.reload()
    assert plugins.names("opponents") == sorted(BUNDLED_OPPONENTS)


def test_registration_errors_name_the_plugin():
    with plugins.registered(opponents_plugin(**{"": lambda: None}), name="nameless"):
        with pytest.raises(PluginError, match="plugin 'nameless' registered opponents with name ''"):
            plugins.names("opponents")

    class Raising:
        @hookimpl
        def gota_register_reward_modes(self, register):
            raise KeyError("config")

    with plugins.registered(Raising(), name="raising"):
        with pytest.raises(PluginError, match="plugin 'raising' raised in gota_register_reward_modes: KeyError"):
            plugins.reward_mode("xp")
    with pytest.raises(PluginError, match="a plugin named 'gota_bundled.bots' is already loaded"):
        with plugins.registered(opponents_plugin(), name="gota_bundled.bots"):
            pass


class Scripted(Opponent):
    """An opponent whose answer is ``answer(seats)``."""

    def __init__(self, name, answer):
        self.name, self.answer = name, answer

    def act(self, seats):
        return self.answer(seats)


def first_forbidden_verb(seats):
    actions = np.zeros((len(seats.masks), 5), dtype=np.int32)
    actions[:, 0] = np.argmin(verb_mask(seats.masks), axis=1)   # a verb the mask forbids
    return actions


@pytest.mark.parametrize("answer, message", [
    (lambda s: np.zeros((len(s.masks), 4), np.int32), r"opponent 'bad' returned int32 \(10, 4\); it must return "
                                                      r"integer actions of shape \(10, 5\)"),
    (lambda s: [[0, 0, 0, 0, 0]], r"opponent 'bad' returned int64 \(1, 5\)"),
    (lambda s: np.zeros((len(s.masks), 5)), r"opponent 'bad' returned float64 \(10, 5\)"),
    (lambda s: np.full((len(s.masks), 5), 99, np.int32), r"opponent 'bad' returned head 0 = 99 for row 0; head "
                                                         r"sizes are \(8, 25, 49, 4, 6\)"),
    (first_forbidden_verb, r"opponent 'bad' returned \[\d, 0, 0, 0, 0\] for row \d+, which its mask forbids; "
                           r"sample from the conditional mask"),
])
def test_opponent_answers_are_checked(answer, message):
    with plugins.registered(opponents_plugin(bad=lambda: Scripted("bad", answer)), name="bad_opponents"):
        with LearnerEnv(lanes=3, self_play_lanes=1, opponents=["bad"], **ENV) as env:
            obs, masks = env.reset()
            with pytest.raises(PluginError, match=message):
                env.step(np.zeros((env.agents, 5), np.int32))


class NaNMode(PotentialReward):
    def potential(self, signals):
        out = signals[:, :, TEAM_XP].astype(np.float64)
        out[-1, 1] = np.nan
        return out


def test_reward_mode_nan_and_shape_are_checked():
    class Short(PotentialReward):
        def potential(self, signals):
            return np.zeros((1, 2))

    with plugins.registered(reward_plugin(nan_mode=NaNMode, short_mode=Short), name="bad_rewards"):
        with LearnerEnv(lanes=2, reward="nan_mode", opponents=["idle"], **ENV) as env:
            env.reset()
            with pytest.raises(PluginError, match=r"reward mode 'nan_mode' returned nan for lane 1, team 1; rewards "
                                                  r"must be finite"):
                env.step(np.zeros((env.agents, 5), np.int32))
        with LearnerEnv(lanes=2, reward="short_mode", **ENV) as env:
            env.reset()
            with pytest.raises(PluginError, match=r"reward mode 'short_mode' returned float32 \(1, 2\); it must "
                                                  r"return numbers of shape \(2, 2\)"):
                env.step(np.zeros((env.agents, 5), np.int32))


# ---------------------------------------------------------------------------
# Event hooks
# ---------------------------------------------------------------------------

def test_event_hooks_reach_every_plugin():
    seen = []

    class Listener:
        def __init__(self, tag):
            self.tag = tag

        @hookimpl
        def gota_episode_end(self, episode):
            seen.append((self.tag, "episode", len(episode.stats), episode.opponents, episode.global_step))

        @hookimpl
        def gota_checkpoint_saved(self, checkpoint):
            seen.append((self.tag, "checkpoint", checkpoint.path, checkpoint.global_step, checkpoint.metrics))

        @hookimpl
        def gota_evaluation_finished(self, report):
            seen.append((self.tag, "evaluation", report.table, report.output_dir))

    with plugins.registered(Listener("a"), name="a"), plugins.registered(Listener("b"), name="b"):
        with LearnerEnv(lanes=2, self_play_lanes=1, opponents=["idle"], **ENV) as env:
            env.reset()
            for _ in range(10):
                *_, episodes = env.step(np.zeros((env.agents, 5), np.int32))
            stats = finished_stats(env)
        hook = plugins.manager().hook
        assert hook.gota_episode_end(episode=EpisodeEnd(stats, [e["opponent"] for e in episodes], 40)) == []
        hook.gota_checkpoint_saved(checkpoint=CheckpointSaved("runs/x/ckpt.safetensors", 40, {"sps": 1.0}))
        hook.gota_evaluation_finished(report=EvaluationFinished([{"name": "base", "elo": 1000}]))
    assert sorted(seen) == sorted([
        (tag, "episode", 2, ["self", "idle"], 40) for tag in "ab"] + [
        (tag, "checkpoint", "runs/x/ckpt.safetensors", 40, {"sps": 1.0}) for tag in "ab"] + [
        (tag, "evaluation", [{"name": "base", "elo": 1000}], None) for tag in "ab"])


# ---------------------------------------------------------------------------
# The example plugin (plugins/gota-example-plugin)
# ---------------------------------------------------------------------------

@pytest.fixture
def example(monkeypatch):
    """gota_example, imported from its folder and registered for the test."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    forget_module(monkeypatch, "gota_example")
    module = importlib.import_module("gota_example")
    with plugins.registered(module, name="example"):
        yield module


def test_example_plugin_by_name(example):
    assert plugins.registrations("opponents")["example_charger"].plugin == "example"
    with LearnerEnv(lanes=3, self_play_lanes=1, opponents=["example_charger"], reward="example_push", **ENV) as env:
        obs, masks = env.reset()
        finished = []
        for _ in range(12):
            obs, masks, rewards, dones, episodes = env.step(np.zeros((env.agents, 5), np.int32))
            assert np.isfinite(rewards).all()
            finished += episodes
            if episodes:
                stats = finished_stats(env)
    assert [e["opponent"] for e in finished] == ["self", "example_charger", "example_charger"]
    before = dict(example.EPISODES)
    plugins.manager().hook.gota_episode_end(episode=EpisodeEnd(stats, [e["opponent"] for e in finished]))
    assert example.EPISODES["episodes"] == before["episodes"] + 3


def test_the_listing_shows_whole_plain_first_sentences_bundled_and_example(example, capsys):
    """``python -m gota_arena plugins``: every description as its whole first sentence
    in plain text (a description may be a docstring, markup and all), for the bundled
    plugins, the example and an inline plugin."""
    from gota_arena.__main__ import plugins_command

    class Documented:
        """Pushes a lane with ``xp`` rewards, see :class:`gota_arena.Match` and
        `the docs <https://example.org>`_, e.g. **early**.

        Details that the listing leaves out."""

    class Inline:
        @hookimpl
        def gota_register_reward_modes(self, register):
            register("documented", lambda: plugins.reward_mode("xp"), Documented.__doc__)

    with plugins.registered(Inline(), name="inline"):
        assert plugins_command() == 0
        registered = [(name, r.description) for kind in plugins.KINDS
                      for name, r in plugins.registrations(kind).items()]
    out = capsys.readouterr().out
    shown = []   # (name, description) per registration line, continuation lines joined
    for line in out.splitlines():
        if re.match(r" {4}\S", line):
            name, _, text = line.strip().partition(" ")
            shown.append((name, text.strip()))
        elif re.match(r" {19}\S", line):
            shown[-1] = (shown[-1][0], f"{shown[-1][1]} {line.strip()}")
    assert sorted(name for name, _ in shown) == sorted(name for name, _ in registered)
    shown = dict(shown)
    for text in shown.values():
        assert "`" not in text and "**" not in text and ":class:" not in text, text
    assert shown["documented"] == "Pushes a lane with xp rewards, see gota_arena.Match and the docs, e.g. early."
    assert shown["xp_outcome"] == "xp plus 50 x outcome on the final step."
    assert shown["leaderboard"] == ("potential = team score; on the finishing step it becomes the Glory (the score "
                                    "if the team won, else 0): an episode returns Glory / 1000.")
    assert shown["advantage"].endswith("/ 1000, plus the outcome on the final step; zero-sum while running.")
    assert shown["example_charger"] == "example plugin: casts, hits the weakest, charges the enemy god"
    assert shown["example_push"] == "example plugin: enemy tower HP destroyed / 1000 + outcome"
    assert shown["base.bas"] == "BASIC script: the C bot base ported to BASIC: nearest enemy, potions, class gear"
    assert plugins.summary("Writes 1.5 frames a tick. Then more.") == "Writes 1.5 frames a tick."
    assert plugins.summary("An example::\n\n    code") == "An example."


@pytest.mark.parametrize("opponent_name", ["example_charger"])
class TestExampleOpponent(OpponentSuite):
    @pytest.fixture(autouse=True)
    def plugin(self, hermetic, example):
        yield


@pytest.mark.parametrize("reward_name, zero_sum, reward_options", [("example_push", False, {}),
                                                                   ("example_push", False, {"outcome": 5})])
class TestExampleRewardMode(RewardModeSuite):
    @pytest.fixture(autouse=True)
    def plugin(self, hermetic, example):
        yield


def example_project() -> dict:
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((EXAMPLE / "pyproject.toml").read_text())


def test_example_entry_point_loads(tmp_path, monkeypatch):
    """The example's pyproject entry point, as pip would install it."""
    project = example_project()["project"]
    assert project["name"] == "gota-example-plugin" and "gota-arena" in project["dependencies"]
    fake_distribution(tmp_path, monkeypatch, project["name"], project["version"], {},
                      project["entry-points"]["gota_arena"])
    monkeypatch.syspath_prepend(str(EXAMPLE))
    forget_module(monkeypatch, "gota_example")
    monkeypatch.setenv("GOTA_LOAD_PLUGINS", "example")
    plugins.reload()
    row = {row["name"]: row for row in plugins.describe()}["example"]
    torch = importlib.util.find_spec("torch") is not None   # example_linear needs it
    assert row == {"name": "example", "version": "0.1.0", "source": "entry point of gota-example-plugin",
                   "hooks": ["gota_episode_end", "gota_register_opponents", "gota_register_policies",
                             "gota_register_reward_modes"],
                   "registers": {"opponents": ["example_charger"], "reward_modes": ["example_push"],
                                 "policies": ["example_linear"] if torch else []}}


def test_example_installed():
    """With the example installed (pip install -e plugins/gota-example-plugin),
    GOTA_LOAD_PLUGINS=example loads it through its real entry point."""
    try:
        dist = metadata.distribution("gota-example-plugin")
    except metadata.PackageNotFoundError:
        pytest.skip("gota-example-plugin is not installed: pip install -e plugins/gota-example-plugin")
    with isolated_plugins("example"):
        row = {row["name"]: row for row in plugins.describe()}["example"]
        assert row["version"] == dist.version and row["source"] == "entry point of gota-example-plugin"
        assert plugins.opponent("example_charger").name == "example_charger"


# ---------------------------------------------------------------------------
# gota_arena.testing as a pytest plugin (the pytest11 entry point)
# ---------------------------------------------------------------------------

MARKED_TESTS = """
import pytest

from gota_arena import plugins

pytestmark = pytest.mark.gota_plugins(load="nothing_installed_by_this_name")


def test_fixture(gota_plugins):
    assert gota_plugins is plugins.manager() and "gota_bundled.bots" in plugins.bundled()
    assert [name for name, _ in gota_plugins.list_name_plugin()] == plugins.bundled()


@pytest.mark.gota_plugins(load="-gota_bundled.ppo")
def test_marker_on_a_test():
    assert "ppo" not in plugins.names("opponents") and "base" in plugins.names("opponents")
"""


def test_testing_is_a_pytest_plugin(tmp_path):
    installed = {ep.name: ep.value for ep in metadata.entry_points(group="pytest11")}
    if installed.get("gota_arena") != "gota_arena.testing":
        pytest.skip("gota-arena's installed metadata predates its pytest11 entry point: pip install -e .")
    (tmp_path / "test_marked.py").write_text(MARKED_TESTS)
    env = {k: v for k, v in os.environ.items() if k != "GOTA_LOAD_PLUGINS"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W",
                          "ignore::gota_arena.PluginWarning", str(tmp_path)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout + run.stderr
    markers = subprocess.run([sys.executable, "-m", "pytest", "--markers"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=120)
    assert "@pytest.mark.gota_plugins(load='')" in markers.stdout


# ---------------------------------------------------------------------------
# docs/plugins.md: every python block runs. A block whose first line is
# "# <module>.py" is that module (importable by the blocks after it); the
# others run as scripts, in order.
# ---------------------------------------------------------------------------

def doc_blocks():
    text = (ROOT / "docs" / "plugins.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_docs_examples_run(monkeypatch, tmp_path):
    blocks = doc_blocks()
    assert len(blocks) >= 10
    monkeypatch.chdir(tmp_path)
    skipped = set()   # without torch: the policy example and what imports it
    try:
        import safetensors.torch  # noqa: F401
    except ImportError:
        skipped.add("torch")
    for number, code in enumerate(blocks):
        first = code.splitlines()[0]
        module = re.fullmatch(r"# (\w+)\.py", first)
        where = f"docs/plugins.md python block {number + 1}"
        if set(re.findall(r"^import (\w+)", code, flags=re.M)) & skipped:
            skipped.add(module.group(1) if module else "")
            continue
        if module:
            mod = types.ModuleType(module.group(1))
            mod.__file__ = where
            monkeypatch.setitem(sys.modules, mod.__name__, mod)
            exec(compile(code, where, "exec"), mod.__dict__)
        else:
            exec(compile(code, where, "exec"), {"__name__": f"doc_block_{number}"})
