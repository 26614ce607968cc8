"""Shared test suites for plugin authors, and hermetic plugin loading: a pytest
plugin (the ``pytest11`` entry point of gota-arena; ``pip install
'gota-arena[testing]'`` brings pytest), so its fixtures and marker are there in
every test run, and the suites' assertions are rewritten to say what differed.

Every opponent, reward mode and policy adapter must pass its suite. A plugin's
tests subclass the suite with an empty body and name what to test with
``parametrize`` (or a fixture of the same name):

    import pytest
    from gota_arena.testing import OpponentSuite, RewardModeSuite, PolicySuite

    pytestmark = pytest.mark.gota_plugins(load="my_plugin")   # gota-arena's own + mine only

    @pytest.mark.parametrize("opponent_name", ["my_opponent"])
    class TestMyOpponent(OpponentSuite):
        pass

    @pytest.mark.parametrize("reward_name, zero_sum", [("my_reward", False)])
    class TestMyReward(RewardModeSuite):
        pass

    @pytest.mark.parametrize("policy_name", ["my_policy"])
    class TestMyPolicy(PolicySuite):
        pass

Options for the factory come from ``opponent_options``, ``reward_options`` or
``policy_options`` (parametrize them too; default ``{}``). The suites build
what they test by name through ``gota_arena.plugins``, so the plugin must be
loaded: installed (its entry point), or registered around the tests with the
``plugins.registered`` context manager in a fixture.

Hermetic loading: the marker ``@pytest.mark.gota_plugins(load="a,b")`` (on a
test, a class or a module's ``pytestmark``) runs each test it covers with only
gota-arena's own plugins and the installed ones named in ``load`` (as
``GOTA_LOAD_PLUGINS``); the fixture ``gota_plugins`` is that plugin manager
(bundled plugins only without the marker); ``isolated_plugins(load)`` is the
same as a context manager. ``start_signals`` and ``episode_signals`` build
reward signals to test a reward mode on by hand.

The environments are small (a few lanes, 240-tick matches, 24 ticks per
decision) so a suite runs in seconds; a subclass may override ``env_options``
and ``steps``. Importing this module needs pytest, and stays light (it loads
gota-arena's modules, and the simulator, when a suite first runs): pytest
imports it at start-up wherever gota-arena is installed.
"""
from __future__ import annotations

import contextlib
import json
import os

import numpy as np
import pytest

_ENV = dict(action_ticks=24, max_ticks=240, threads=1)   # a match is 10 decisions long


@contextlib.contextmanager
def isolated_plugins(load: str = ""):
    """Load only gota-arena's own plugins and the installed ones named in ``load``
    (as ``GOTA_LOAD_PLUGINS``: comma-separated entry-point names, ``-name`` to
    leave one out) for the block, then restore the environment and reload."""
    from . import plugins

    before = os.environ.get("GOTA_LOAD_PLUGINS")
    os.environ["GOTA_LOAD_PLUGINS"] = load
    try:
        plugins.reload()
        yield plugins.manager()
    finally:
        if before is None:
            os.environ.pop("GOTA_LOAD_PLUGINS", None)
        else:
            os.environ["GOTA_LOAD_PLUGINS"] = before
        plugins.reload()


def learner_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uniformly random legal actions for the learner rows (the suites' learners)."""
    from .masking import sample_actions

    return sample_actions(masks, rng)


def _assert_actions(who: str, actions, masks: np.ndarray) -> None:
    from .contract import INFO
    from .masking import HEAD_SIZES, illegal_rows

    n = len(masks)
    assert isinstance(actions, np.ndarray), f"{who} returned {type(actions).__name__}, not a numpy array"
    assert actions.dtype == np.int32 and actions.shape == (n, INFO.heads), \
        f"{who} returned {actions.dtype} {actions.shape}, expected int32 ({n}, {INFO.heads})"
    assert ((actions >= 0) & (actions < np.array(HEAD_SIZES))).all(), f"{who} returned a head out of range"
    bad = illegal_rows(masks, actions)
    assert not bad.any(), f"{who} returned {actions[bad][0].tolist()}, which its mask forbids"


# ---------------------------------------------------------------------------
# Opponents
# ---------------------------------------------------------------------------

def _recorder(inner):
    """An Opponent that plays through ``inner`` and keeps a copy of every batch and
    answer in ``calls`` (made here: this module imports gota_arena's modules lazily)."""
    from .opponents import Opponent, SeatBatch

    class Recorder(Opponent):
        def __init__(self):
            self.inner, self.name, self.bot = inner, inner.name, inner.bot
            self.calls = []

        def act(self, seats: SeatBatch):
            kept = SeatBatch(*(np.array(a, copy=True) for a in (seats.obs, seats.masks, seats.lanes, seats.slots,
                                                                  seats.episode_start)))
            actions = self.inner.act(seats)
            for field in ("obs", "masks", "lanes", "slots", "episode_start"):
                assert np.array_equal(getattr(seats, field), getattr(kept, field)), \
                    f"opponent {self.name!r} changed seats.{field}; the batch is a view of the arena's buffers"
            self.calls.append((kept, np.array(actions, copy=True)))
            return actions

    return Recorder()


class OpponentSuite:
    """What every opponent must do. Parametrize ``opponent_name`` (and
    ``opponent_options``). A bot opponent names a native bot; a Python opponent
    answers every batch of a LearnerEnv with legal int32 [n, 5] actions,
    leaves its inputs alone, and, if it sets ``deterministic = True``, answers
    the same batches the same way from a fresh instance."""

    env_options = dict(lanes=3, self_play_lanes=1, **_ENV)   # lane 0 self-play, lanes 1-2 the opponent's
    steps = 14                                              # past one restart

    @pytest.fixture
    def opponent_options(self):
        return {}

    @pytest.fixture
    def opponent(self, opponent_name, opponent_options):
        from . import plugins

        return plugins.opponent(opponent_name, **opponent_options)

    @pytest.fixture
    def played(self, opponent):
        """(recorder, episodes) of a LearnerEnv run against the opponent."""
        from .learner_env import LearnerEnv

        recorder = _recorder(opponent)
        rng = np.random.default_rng(0)
        episodes = []
        with LearnerEnv(opponents=[recorder], reward="leaderboard", **self.env_options) as env:
            obs, masks = env.reset(seed=1)
            for _ in range(self.steps):
                obs, masks, rewards, dones, finished = env.step(learner_actions(masks, rng))
                episodes += finished
        return recorder, episodes

    def test_factory_returns_an_opponent(self, opponent):
        from .opponents import Opponent

        assert isinstance(opponent, Opponent), f"the factory returned {opponent!r}, not an Opponent"
        assert isinstance(opponent.name, str) and opponent.name

    def test_is_a_bot_or_acts(self, opponent):
        from .bots import bot_names
        from .opponents import Opponent

        if opponent.bot is not None:
            assert opponent.bot in bot_names()[1:], f"bot {opponent.bot!r} is not one of {bot_names()[1:]}"
        else:
            assert type(opponent).act is not Opponent.act, "a Python opponent overrides act(seats)"

    def test_plays_lanes_with_legal_actions(self, opponent, played):
        from .constants import SEATS_PER_TEAM
        from .contract import MASK_SIZE, OBS_SIZE

        recorder, episodes = played
        lanes = self.env_options["lanes"] - self.env_options["self_play_lanes"]
        assert {e["opponent"] for e in episodes if e["lane"] >= self.env_options["self_play_lanes"]} \
            == {opponent.name}
        if opponent.bot is not None:
            assert recorder.calls == [], "a bot opponent's act() is never called"
            return
        assert len(recorder.calls) == self.steps
        for seats, actions in recorder.calls:
            rows = lanes * SEATS_PER_TEAM
            assert seats.obs.shape == (rows, OBS_SIZE) and seats.masks.shape == (rows, MASK_SIZE)
            _assert_actions(f"opponent {opponent.name!r}", actions, seats.masks)
        starts = [bool(seats.episode_start.all()) for seats, _ in recorder.calls]
        assert starts[0] and sum(starts) >= 2, "the run covers the first step and a restart"

    def test_deterministic_if_declared(self, opponent_name, opponent_options, opponent, request):
        from . import plugins

        if opponent.bot is not None or not getattr(opponent, "deterministic", False):
            pytest.skip("the opponent does not declare deterministic = True")
        recorder, _ = request.getfixturevalue("played")
        fresh = plugins.opponent(opponent_name, **opponent_options)
        for seats, actions in recorder.calls:
            again = fresh.act(seats)
            assert np.array_equal(np.asarray(again), actions), "the same batches gave other actions"

    def test_by_name_in_a_learner_env(self, opponent_name, opponent_options):
        from .learner_env import LearnerEnv

        if opponent_options:
            pytest.skip("LearnerEnv builds opponents by name without options")
        rng = np.random.default_rng(1)
        with LearnerEnv(opponents=[opponent_name], **self.env_options) as env:
            obs, masks = env.reset(seed=0)
            for _ in range(3):
                obs, masks, *_ = env.step(learner_actions(masks, rng))


# ---------------------------------------------------------------------------
# Reward modes
# ---------------------------------------------------------------------------

def start_signals(lanes: int = 3) -> np.ndarray:
    """The reward signals of fresh matches: int64 [lanes, 2, SIGNALS]."""
    from .arena import Arena

    with Arena(lanes=lanes, self_play=True, threads=1, max_ticks=240) as arena:
        return arena.reset(0).signals.copy()


def episode_signals(start: np.ndarray) -> list:
    """A constructed sequence of signals [lanes, 2, SIGNALS] over 3 lanes: every
    lane progresses, lane 0 finishes on step 2 (red wins) and starts afresh on
    step 3 (a little XP in its new match); lanes 1 and 2 keep running."""
    from .rewards import DONE, GOD_HP, OUTCOME, TEAM_SCORE, TEAM_XP, TOWER_HP

    s1 = start.copy()
    s1[:, 0, TEAM_XP] += 500
    s1[:, 1, TEAM_XP] += 200
    s1[:, 0, TEAM_SCORE] += 100
    s1[:, 1, TOWER_HP] -= 1000
    s2 = s1.copy()
    s2[:, 0, TEAM_XP] += 2000
    s2[:, 0, TEAM_SCORE] += 1700
    s2[:, 1, TOWER_HP] -= 4000
    s2[0, 1, GOD_HP] = 0
    s2[0, :, DONE] = 1
    s2[0, :, OUTCOME] = (1, -1)
    s3 = s2.copy()
    s3[0] = start[0]
    s3[0, :, TEAM_XP] += (100, 0)
    s3[1:, 1, TEAM_XP] += 300
    s3[1:, 0, TOWER_HP] -= 500
    return [s1, s2, s3]


class RewardModeSuite:
    """What every reward mode must do. Parametrize ``reward_name`` and
    ``zero_sum`` (True: the two teams' rewards sum to 0 on every step in which
    the lane did not finish), and optionally ``reward_options``. Rewards are
    finite float [lanes, 2], lanes are independent, a finished lane starts its
    next episode afresh, and the mode runs inside a LearnerEnv."""

    env_options = dict(lanes=2, **_ENV)
    steps = 14

    @pytest.fixture
    def reward_options(self):
        return {}

    @pytest.fixture
    def zero_sum(self):
        return False

    @pytest.fixture
    def make_mode(self, reward_name, reward_options, zero_sum):   # every test uses every parameter
        from . import plugins

        return lambda: plugins.reward_mode(reward_name, **reward_options)

    @staticmethod
    def run(mode, start, sequence) -> list:
        from .rewards import check_rewards

        mode.reset(start)
        return [check_rewards(getattr(mode, "name", "mode"), mode.rewards(s), len(s)).copy() for s in sequence]

    def test_factory_returns_a_reward_mode(self, make_mode):
        from .rewards import RewardMode

        mode = make_mode()
        assert isinstance(mode, RewardMode), f"the factory returned {mode!r}, not a RewardMode"
        assert make_mode() is not mode, "every factory call returns a fresh mode (modes keep per-lane state)"

    def test_real_steps(self, make_mode, zero_sum):
        from .arena import Arena
        from .rewards import check_rewards, DONE

        mode, rng = make_mode(), np.random.default_rng(0)
        with Arena(self_play=True, **self.env_options) as arena:
            out = arena.reset(0)
            mode.reset(out.signals)
            for _ in range(self.steps):
                out = arena.step(learner_actions(out.masks, rng))
                rewards = check_rewards("mode", mode.rewards(out.signals), arena.lanes)
                running = out.signals[:, 0, DONE] == 0
                if zero_sum:
                    assert np.allclose(rewards[running].sum(axis=1), 0.0, atol=1e-6)

    def test_deterministic_and_lanes_independent(self, make_mode, zero_sum):
        from .rewards import DONE

        start = start_signals()
        sequence = episode_signals(start)
        full = self.run(make_mode(), start, sequence)
        again = self.run(make_mode(), start, sequence)
        assert all(np.array_equal(a, b) for a, b in zip(full, again)), "the same signals gave other rewards"
        for lane in range(len(start)):
            alone = self.run(make_mode(), start[lane:lane + 1], [s[lane:lane + 1] for s in sequence])
            for step, (a, b) in enumerate(zip(full, alone)):
                assert np.allclose(a[lane], b[0]), f"lane {lane} step {step} depends on the other lanes"
        if zero_sum:
            for step, s in enumerate(sequence):
                running = s[:, 0, DONE] == 0
                assert np.allclose(full[step][running].sum(axis=1), 0.0, atol=1e-6), f"not zero-sum, step {step}"

    def test_finished_lane_starts_afresh(self, make_mode):
        start = start_signals()
        s1, s2, s3 = episode_signals(start)
        after_restart = self.run(make_mode(), start, [s1, s2, s3])[2][0]
        fresh = self.run(make_mode(), start, [s3])[0][0]
        assert np.allclose(after_restart, fresh), \
            f"after lane 0 finished, its rewards {after_restart} differ from a fresh mode's {fresh}"

    def test_in_a_learner_env(self, make_mode):
        from .learner_env import LearnerEnv

        rng = np.random.default_rng(2)
        options = dict(self.env_options, self_play_lanes=1)
        with LearnerEnv(reward=make_mode(), opponents=["idle"], **options) as env:
            obs, masks = env.reset(seed=0)
            for _ in range(self.steps):
                obs, masks, rewards, dones, episodes = env.step(learner_actions(masks, rng))
                assert rewards.shape == (env.agents,) and np.isfinite(rewards).all()


# ---------------------------------------------------------------------------
# Policies
# ---------------------------------------------------------------------------

class PolicySuite:
    """What every policy adapter must do. Parametrize ``policy_name`` (and
    ``policy_options``). ``act`` answers real observations with legal int32
    actions, finite float32 log-probabilities and values, and carries its
    state; a policy saved with ``save_policy`` and loaded with ``load_policy``
    acts exactly like the original in deterministic mode."""

    env_options = dict(lanes=2, **_ENV)
    steps = 12

    @pytest.fixture
    def policy_options(self):
        return {}

    @pytest.fixture
    def make_policy(self, policy_name, policy_options):
        from . import plugins

        return lambda: plugins.policy(policy_name, **policy_options)

    def play(self, policy, deterministic: bool, steps: int = None, seed: int = 0) -> list:
        """[(obs, masks, episode_start, out)] of ``policy`` playing every seat of a self-play arena."""
        from .arena import Arena

        trace = []
        with Arena(self_play=True, **self.env_options) as arena:
            out = arena.reset(seed)
            state = policy.initial_state(arena.agents)
            starts = np.ones(arena.agents, dtype=bool)
            for _ in range(steps or self.steps):
                obs, masks = out.obs.copy(), out.masks.copy()
                result = policy.act(obs, masks, state=state, episode_start=starts, deterministic=deterministic)
                assert np.array_equal(obs, out.obs) and np.array_equal(masks, out.masks), "act changed its inputs"
                trace.append((obs, masks, starts.copy(), result))
                state = result.state
                out = arena.step(result.actions)
                starts = out.terminals.astype(bool)
        return trace

    def test_factory_returns_a_policy(self, make_policy, policy_name):
        policy = make_policy()
        assert policy.adapter == policy_name, f"policy.adapter is {policy.adapter!r}, registered as {policy_name!r}"
        assert json.loads(json.dumps(policy.config)) == policy.config, "policy.config must be plain JSON"
        state = policy.initial_state(3)
        assert state is None or isinstance(state, tuple)

    @pytest.mark.parametrize("deterministic", [False, True])
    def test_acts_on_real_observations(self, make_policy, deterministic):
        for obs, masks, starts, out in self.play(make_policy(), deterministic):
            n = len(obs)
            _assert_actions("policy", out.actions, masks)
            for name in ("log_prob", "value"):
                value = np.asarray(getattr(out, name))
                assert value.dtype == np.float32 and value.shape == (n,), f"{name}: {value.dtype} {value.shape}"
                assert np.isfinite(value).all(), f"{name} is not finite"

    def test_save_load_round_trip(self, make_policy, tmp_path):
        pytest.importorskip("safetensors.torch")
        from .policies import load_policy, read_policy_metadata, save_policy

        policy = make_policy()
        path = save_policy(policy, str(tmp_path / "policy.safetensors"))
        assert read_policy_metadata(path)["adapter"] == policy.adapter
        loaded = load_policy(path)
        assert loaded.adapter == policy.adapter and loaded.config == policy.config
        for (obs, masks, starts, a), (_, _, _, b) in zip(self.play(policy, True, steps=4),
                                                          self.play(loaded, True, steps=4)):
            assert np.array_equal(a.actions, b.actions), "the loaded policy acts differently"
            assert np.allclose(a.value, b.value, atol=1e-6) and np.allclose(a.log_prob, b.log_prob, atol=1e-5)


class TrainablePolicySuite(PolicySuite):
    """What a policy PPO can train must do (docs/plugins.md, "Policies PPO can
    train"), besides ``PolicySuite``'s. Parametrize ``policy_name`` (and
    ``policy_options``). It is a torch module with what the trainer calls;
    ``forward_act`` answers real observations (normalised by the policy's own
    ``normalize`` where it has one, as the trainer does) with legal actions;
    ``evaluate`` gives the same log-probabilities to the same actions (whole
    sequences, time-major, from the rollout's first state), a finite entropy and
    values, and a gradient; ``get_value`` a value per row; and ``train()`` runs
    it by name for two PPO updates, after which its weights have moved. Needs
    torch (and hydra-core for the training test)."""

    train_decisions = 6   # decisions of the rollout the agreement test plays

    def rollout(self, policy):
        """(first state, rows, normalized keyword) of ``policy`` playing every seat
        of a self-play arena through ``forward_act``, as the trainer's rollout does."""
        import torch

        from .arena import Arena

        normalizes = callable(getattr(policy, "normalize", None))
        keyword = {"normalized": True} if normalizes else {}
        rows = []
        policy.eval()
        with Arena(self_play=True, **self.env_options) as arena, torch.no_grad():
            out = arena.reset(0)
            state = first = policy.initial_state(arena.agents)
            starts = torch.ones(arena.agents, dtype=torch.bool)
            for _ in range(self.train_decisions):
                obs = torch.tensor(out.obs)   # a copy: the arena writes its next observations in place
                x = policy.normalize(obs) if normalizes else obs
                masks = torch.as_tensor(out.masks) != 0
                actions, log_prob, value, state = policy.forward_act(x, masks, state, starts, **keyword)
                rows.append((x, masks, starts, actions, log_prob, value, out.masks.copy()))
                out = arena.step(actions.to(torch.int32).cpu().numpy())
                starts = torch.as_tensor(out.terminals).bool()
        return first, rows, keyword

    def test_is_trainable(self, make_policy):
        torch = pytest.importorskip("torch")
        from .train.ppo import trainable_problems

        policy = make_policy()
        assert isinstance(policy, torch.nn.Module)
        assert trainable_problems(policy) == [], "; ".join(trainable_problems(policy))

    def test_forward_act_and_evaluate_agree(self, make_policy):
        torch = pytest.importorskip("torch")
        policy = make_policy()
        first, rows, keyword = self.rollout(policy)
        for x, masks, starts, actions, log_prob, value, raw_masks in rows:
            n = len(x)
            assert not actions.is_floating_point(), f"forward_act's actions are {actions.dtype}, not integers"
            _assert_actions("forward_act", actions.to(torch.int32).cpu().numpy(), raw_masks)
            for name, tensor in (("log_prob", log_prob), ("value", value)):
                assert tensor.shape == (n,) and torch.isfinite(tensor).all(), f"forward_act's {name}: {tensor.shape}"
        policy.train()
        x, masks, starts, actions, log_prob = (torch.cat([row[i] for row in rows]) for i in range(5))
        new_log_prob, entropy, value, _ = policy.evaluate(x, masks, actions, first, starts, **keyword)
        assert new_log_prob.shape == entropy.shape == value.shape == (len(x),)
        assert torch.allclose(new_log_prob, log_prob, atol=1e-4), \
            "evaluate gives other log-probabilities than forward_act to the same actions (the PPO ratio must start at 1)"
        assert torch.isfinite(entropy).all() and (entropy >= -1e-6).all() and torch.isfinite(value).all()
        (-new_log_prob.mean() - entropy.mean() + value.square().mean()).backward()
        grads = [p.grad for p in policy.parameters() if p.requires_grad and p.grad is not None]
        assert grads and all(torch.isfinite(g).all() for g in grads), "evaluate gives no finite gradient"
        assert any(g.abs().sum() > 0 for g in grads), "evaluate's outputs do not depend on the parameters"

    def test_get_value(self, make_policy):
        torch = pytest.importorskip("torch")
        policy = make_policy()
        first, rows, keyword = self.rollout(policy)
        x, masks, starts = rows[-1][:3]
        with torch.no_grad():
            value = policy.get_value(x, policy.initial_state(len(x)), starts, **keyword)
        assert value.shape == (len(x),) and torch.isfinite(value).all()

    def test_trains_by_name(self, policy_name, policy_options, tmp_path):
        """Two PPO updates of ``train()``, the policy chosen by name as on the command line."""
        torch = pytest.importorskip("torch")
        pytest.importorskip("hydra")
        import csv
        import io

        from . import plugins
        from .policies import load_policy
        from .train.cli import compose
        from .train.ppo import train

        options = [f"policy.options.{key}={json.dumps(value)}" for key, value in policy_options.items()]
        cfg = compose(["+experiment=vs_bundled", f"policy.name={policy_name}", *options, "opponent.pool=[idle]",
                       "env.lanes=1", "env.threads=1", "env.max_ticks=240", "env.action_ticks=24",
                       "trainer.num_steps=8", "trainer.total_steps=80", "trainer.num_minibatches=2",
                       "trainer.update_epochs=1", "eval.enabled=false", "trainer.plots=false",
                       "trainer.tensorboard=false", "trainer.progress=false"])
        summary = train(cfg, tmp_path / "run", stream=io.StringIO())
        assert summary["updates"] == 2 and not summary["interrupted"]
        with open(tmp_path / "run" / "metrics.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 2
        for row in rows:
            for key in ("losses/policy_loss", "losses/value_loss", "losses/entropy"):
                assert np.isfinite(float(row[key])), f"{key} = {row[key]}"
        trained = load_policy(summary["policy"])
        assert trained.adapter == policy_name
        torch.manual_seed(cfg.trainer.seed)   # the trainer builds the policy right after seeding torch so
        fresh = plugins.policy(policy_name, **policy_options)
        weights = trained.state_dict()
        assert any(not torch.equal(weights[name], param.detach()) for name, param in fresh.named_parameters()), \
            "two PPO updates left every parameter where it started"


# ---------------------------------------------------------------------------
# The pytest plugin: the gota_plugins marker and fixture
# ---------------------------------------------------------------------------

def pytest_configure(config):
    config.addinivalue_line(
        "markers", "gota_plugins(load=''): run the test with only gota-arena's own plugins and the installed ones "
                   "named in load (comma-separated entry-point names, as GOTA_LOAD_PLUGINS); gota_arena.testing")


def _marked_load(request) -> str:
    marker = request.node.get_closest_marker("gota_plugins")
    if marker is None:
        return ""
    return str(marker.kwargs.get("load", marker.args[0] if marker.args else ""))


@pytest.fixture
def gota_plugins(request):
    """The plugin manager, with only gota-arena's own plugins and the installed ones
    named by the test's ``gota_plugins`` marker loaded; restored after the test."""
    with isolated_plugins(_marked_load(request)) as manager:
        yield manager


@pytest.fixture(autouse=True)
def _gota_plugins_marker(request):
    """A test under the ``gota_plugins`` marker gets the ``gota_plugins`` fixture
    before its other fixtures build anything by name."""
    if request.node.get_closest_marker("gota_plugins") is not None:
        request.getfixturevalue("gota_plugins")
    yield


__all__ = ["OpponentSuite", "RewardModeSuite", "PolicySuite", "TrainablePolicySuite", "isolated_plugins", "learner_actions",
           "start_signals", "episode_signals"]
