"""A policy is played as it was trained: its file records the decision interval and
the arena settings (gota_arena.policies.PlaySettings), and every evaluator (the
quick evaluation, the leaderboard, a league or pool opponent) plays it under them
or refuses with a PlaySettingsError."""
import os

import numpy as np
import pytest
import torch

from gota_arena import plugins
from gota_arena.evaluate import Leaderboard
from gota_arena.evaluate.games import Game, arena_settings, play
from gota_arena.evaluate.quick import evaluate
from gota_arena.learner_env import Fixture, LearnerEnv
from gota_arena.opponents import PolicyOpponent
from gota_arena.policies import PlaySettings, PlaySettingsError, load_policy, read_policy_metadata, save_policy

SHORT = 480   # ticks: 20 game seconds, enough for heroes to leave spawn and meet creeps


def tiny_policy(ticks=None, max_ticks=SHORT, upkeep=True, seed=0):
    torch.manual_seed(seed)
    policy = plugins.policy("mlp", hidden=16, layers=1)
    policy.play = None if ticks is None else PlaySettings(ticks, max_ticks, upkeep)
    return policy.eval()


class Counting(PolicyOpponent):
    """A greedy policy opponent that counts the seats it was asked to decide for."""

    def __init__(self, policy, name):
        super().__init__(policy, name=name, deterministic=True)
        self.decisions = 0

    def act(self, seats):
        self.decisions += len(seats.obs)
        return super().act(seats)


def test_settings_are_saved_and_loaded(tmp_path):
    policy = tiny_policy(16, max_ticks=7200, upkeep=False)
    policy.play = PlaySettings(16, 7200, False, {"wave_interval": 600})
    path = save_policy(policy, str(tmp_path / "p.safetensors"))
    assert "16" in read_policy_metadata(path)["play"]
    assert load_policy(path).play == PlaySettings(16, 7200, False, {"wave_interval": 600})
    # a file from before the settings were recorded loads without them
    policy.play = None
    assert load_policy(save_policy(policy, str(tmp_path / "old.safetensors"))).play is None


def test_quick_evaluation_plays_at_the_trained_interval():
    rows = evaluate(tiny_policy(16), ["idle"], matches=1, hook=False)
    assert rows[0]["action_ticks"] == 16
    assert rows[0]["steps"] == SHORT // 16   # the match ran to its timeout, one decision every 16 ticks
    with pytest.raises(PlaySettingsError, match="trained under 16 ticks a decision"):
        evaluate(tiny_policy(16), ["idle"], matches=1, settings=PlaySettings(4, SHORT, True), hook=False)


def test_two_intervals_meet_and_each_acts_at_its_own():
    """A 16-tick policy and a 4-tick one in one arena: the arena steps 4 ticks, the
    16-tick policy decides every fourth step, and its game is the very game it plays
    in an arena of its own interval (a noop holds the order, as the interval does)."""
    slow, fast = Counting(tiny_policy(16), "slow"), Counting(tiny_policy(4, seed=1), "fast")
    entrants = {"slow": slow, "fast": fast, "idle": plugins.opponent("idle")}
    games = [Game(3, "slow", "idle"), Game(8, "idle", "fast")]
    assert arena_settings(entrants, max_ticks=SHORT).action_ticks == 4
    mixed = {r["key"]: r for r in play(games, entrants, lanes=2, max_ticks=SHORT)}
    assert slow.decisions == 5 * SHORT // 16 and fast.decisions == 5 * SHORT // 4
    alone = play(games[:1], {"slow": Counting(tiny_policy(16), "slow"), "idle": entrants["idle"]},
                 lanes=1, max_ticks=SHORT)
    assert alone == [mixed[games[0].key]]


def test_a_checkpoint_entrant_plays_at_its_interval(tmp_path):
    """The leaderboard plays a saved 16-tick policy at 16 ticks whatever its own action_ticks says."""
    path = save_policy(tiny_policy(16), str(tmp_path / "p16.safetensors"))
    board = Leaderboard(entrants=[{"name": "p16", "checkpoint": path}, "idle"], games_per_pairing=1, lanes=2,
                        action_ticks=4, max_ticks=SHORT)
    rows = board.run(str(tmp_path / "board"), quiet=True)
    assert sorted(r["entrant"] for r in rows) == ["idle", "p16"]
    # the same games with the policy in an arena of 16 ticks a step
    reference = play([Game(1000, "p16", "idle"), Game(1000, "idle", "p16")],
                     {"p16": PolicyOpponent(load_policy(path), "p16", deterministic=True),
                      "idle": plugins.opponent("idle")}, lanes=2, action_ticks=16, max_ticks=SHORT)
    logged = [line for line in (tmp_path / "board" / "games.jsonl").read_text().splitlines()]
    import json
    assert sorted(json.loads(x)["key"] for x in logged) == sorted(r["key"] for r in reference)
    by_key = {json.loads(x)["key"]: json.loads(x) for x in logged}
    assert all(by_key[r["key"]] == r for r in reference)


def test_settings_that_cannot_be_honoured_are_refused(tmp_path):
    p16 = PolicyOpponent(tiny_policy(16), "p16")
    with pytest.raises(PlaySettingsError, match="12 does not divide 16"):
        LearnerEnv(lanes=1, self_play_lanes=0, opponents=[p16], action_ticks=12, max_ticks=SHORT).reset()
    with pytest.raises(PlaySettingsError, match="upkeep=on"):
        LearnerEnv(lanes=1, self_play_lanes=0, opponents=[p16], action_ticks=8, max_ticks=SHORT, upkeep=0).reset()
    with pytest.raises(PlaySettingsError, match="max_ticks=480"):
        arena_settings({"p16": p16}, max_ticks=28_800)
    other = PolicyOpponent(tiny_policy(16, upkeep=False), "other")
    with pytest.raises(PlaySettingsError, match="different upkeep"):
        arena_settings({"p16": p16, "other": other}, max_ticks=SHORT)


def test_a_pool_opponent_acts_at_its_interval_in_a_finer_arena():
    slow = Counting(tiny_policy(16), "slow")
    with LearnerEnv(lanes=2, self_play_lanes=0, opponents=[slow], action_ticks=4, max_ticks=SHORT) as env:
        env.reset(seed=5)
        for _ in range(SHORT // 4 - 1):   # one step short of the timeout: no restart yet
            env.step(np.zeros((env.agents, 5), dtype=np.int32))
    assert slow.decisions == 2 * 5 * SHORT // 16


def test_a_fixture_learner_team_is_played_by_its_entrant_alone():
    """When a Fixture names who plays the learner team (an evaluation), the caller's actions
    for those rows count for nothing: between the entrant's decisions (every 16 ticks in a
    4-tick arena) its seats noop."""
    def play_lane(caller):
        slow = Counting(tiny_policy(16), "slow")
        fixture = Fixture(plugins.opponent("idle"), learner=slow, seed=3)
        with LearnerEnv(lanes=1, self_play_lanes=0, opponents=lambda lane: fixture, max_ticks=SHORT) as env:
            obs, masks = env.reset()
            for _ in range(40):
                actions = caller(obs, masks)
                obs, masks, *_ = env.step(actions)
            return env.arena.lane_hash(0), slow.decisions, int((actions[:, 0] != 0).sum())

    random = plugins.policy("random", seed=1)
    noops = play_lane(lambda obs, masks: np.zeros((len(obs), 5), dtype=np.int32))
    randoms = play_lane(lambda obs, masks: random.act(obs, masks).actions)
    assert randoms[2] > 0, "the caller sends actions that are not noops"
    assert randoms[:2] == noops[:2] and noops[1] == 5 * 40 // 4


def test_a_policy_trained_at_an_interval_is_played_at_it(tmp_path):
    """train() records the run's settings in policy.safetensors; the quick evaluation
    and the leaderboard (whose own action_ticks is 4) then play the policy at 8."""
    from gota_arena.train.cli import compose
    from gota_arena.train.ppo import train

    cfg = compose(["+experiment=vs_bundled", "opponent.pool=[idle]", "env.lanes=1", "env.threads=1",
                   "env.action_ticks=8", f"env.max_ticks={SHORT}", "trainer.num_steps=8", "trainer.total_steps=40",
                   "policy.options.hidden=16", "eval.matches=1", "trainer.plots=false", "trainer.tensorboard=false",
                   "trainer.progress=false"])
    with open(os.devnull, "w") as quiet:
        summary = train(cfg, tmp_path / "run", stream=quiet)
    assert {row["action_ticks"] for row in summary["evaluation"]} == {8}
    policy = load_policy(summary["policy"])
    assert policy.play == PlaySettings(8, SHORT, True)
    counting = Counting(policy, "trained")
    play([Game(1000, "trained", "idle")], {"trained": counting, "idle": plugins.opponent("idle")}, lanes=1,
         action_ticks=4, max_ticks=SHORT)
    assert counting.decisions == 5 * SHORT // 8
