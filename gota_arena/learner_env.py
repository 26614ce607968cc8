"""The arena from the learner's seats: what a trainer or an evaluator steps.

    env = LearnerEnv(lanes=8, self_play_lanes=4, opponents=["base", "puller"], reward="leaderboard")
    obs, masks = env.reset(seed=0)
    obs, masks, rewards, dones, episodes = env.step(actions)   # actions: int32 [env.agents, 5]

The arena runs every lane with rows for both teams. In the first
``self_play_lanes`` lanes both teams are learners (10 learner rows); in the
others the learner team's 5 rows are learners and the other team is played by
an opponent (``gota_arena.opponents``): a native bot inside the simulator, or a
Python opponent asked for its rows' actions before each step. Which opponent
plays a lane is chosen per episode: ``opponents`` is a list (each lane walks
through it, one entry per episode) or a callable ``choose(lane) -> Opponent``
(a league). Because a lane restarts inside the step that ends it, the opponent
of a lane's next episode is chosen when its current one begins.

A Python opponent that records its own decision interval (a trained policy,
``Opponent.play``) acts every ``play.action_ticks`` ticks from its episode's
start, noops in between; an arena whose interval does not divide it, or whose
upkeep differs, is refused when the opponent is drawn.

An evaluation sets more than the opponent: its chooser returns a ``Fixture``
with the episode's seed and who plays the learner team too (a bot, a script,
or a Python opponent that the env asks for those rows instead of taking the
caller's actions), and a name for the episode (``game``) that its record
carries. The leaderboard's games and the quick evaluation after training are
played so (gota_arena/evaluate/games.py). ``recorder``, when set, is an
``ArenaRecorder`` (gota_arena.replay) driven around every arena call.

Rewards come from the reward mode (``gota_arena.rewards``): each learner row
gets its team's reward. ``episodes`` lists a dict per lane that finished in
the step, from the learner team's side: the lane stats, the lane, the
opponent's name, the Glory, the fixture's ``game`` (None unless a fixture named
it) and both teams' reward ``signals`` at the end (red, then blue).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence, Union

import numpy as np

from . import plugins
from .arena import Arena
from .constants import SEATS_PER_TEAM
from .contract import HEADS
from .errors import ArgumentRangeError
from .opponents import Opponent, SeatBatch, check_actions, decision_every
from .rewards import RewardMode, check_rewards

SELF = "self"   # the opponent name of a self-play lane in episode records
LEARNER = 0   # a lane's learner team: its seats are the lane's first rows, the other team's follow


@dataclass(frozen=True)
class Fixture:
    """A lane's next episode, as an evaluation's chooser sets it (opponents as Opponent objects)."""

    opponent: Opponent                  # plays the other team
    learner: Optional[Opponent] = None  # plays the learner team; None: the caller's actions
    seed: Optional[int] = None          # the episode's seed; None: the lane's own sequence
    game: object = None                 # the caller's name for the episode, in its record

    def controllers(self) -> tuple:
        return self.learner, self.opponent


class LearnerEnv:
    def __init__(self, lanes: int = 1, self_play_lanes: int = None,
                 opponents: Union[Sequence, Callable, None] = ("base",), reward: Union[str, RewardMode] = "leaderboard",
                 action_ticks: int = 4, threads: int = 0, seed: int = 0, **match_config):
        self_play_lanes = lanes if self_play_lanes is None else self_play_lanes
        if not 0 <= self_play_lanes <= lanes:
            raise ArgumentRangeError(f"self_play_lanes={self_play_lanes} must be in 0..lanes ({lanes})")
        self.lanes, self.self_play_lanes = lanes, self_play_lanes
        self._choose = self._chooser(opponents) if self_play_lanes < lanes else None
        self.reward = plugins.reward_mode(reward) if isinstance(reward, str) else reward
        self.reward_name = reward if isinstance(reward, str) else getattr(reward, "name", type(reward).__name__)
        self.arena = Arena(lanes=lanes, action_ticks=action_ticks, self_play=True, threads=threads, seed=seed,
                           **match_config)
        self.recorder = None
        apl = self.arena.agents_per_lane   # SEATS rows a lane: the learner team's seats, then the other team's
        rows = [np.arange(i * apl, i * apl + (apl if i < self_play_lanes else SEATS_PER_TEAM)) for i in range(lanes)]
        self.learner_rows = np.concatenate(rows)
        self.agents = len(self.learner_rows)
        self.learner_lane = self.learner_rows // apl
        self._other_team_row = (self.learner_rows % apl) >= SEATS_PER_TEAM   # self-play rows of the lane's other team
        self._current = [None] * lanes   # the Fixture of the running episode
        self._next = [None] * lanes      # and of the next one, chosen when the running one began
        self._episodes = np.zeros(lanes, dtype=np.int64)
        self._learner_team = np.zeros(lanes, dtype=np.int64)
        self._starts = np.ones(lanes, dtype=bool)
        self._full = np.zeros((self.arena.agents, HEADS), dtype=np.int32)
        self._lane_steps = np.zeros(lanes, dtype=np.int64)    # steps since the lane's episode began
        self._every = np.ones((lanes, 2), dtype=np.int64)     # each team's controller: steps between decisions
        self._next_every = np.ones((lanes, 2), dtype=np.int64)

    # ---- opponents -------------------------------------------------------
    def _chooser(self, opponents) -> Callable:
        if callable(opponents):
            return opponents
        pool = [plugins.opponent(o) if isinstance(o, str) else o for o in (opponents or ())]
        if not pool:
            raise ArgumentRangeError("lanes without self-play need opponents: a list of names or Opponent "
                                     "objects, or a callable choose(lane) -> Opponent")
        return lambda lane: pool[(lane + int(self._episodes[lane]) * self.lanes) % len(pool)]

    @staticmethod
    def _controller(chosen, lane: int) -> Opponent:
        if isinstance(chosen, str):
            chosen = plugins.opponent(chosen)
        if not isinstance(chosen, Opponent):
            raise ArgumentRangeError(f"the opponent chooser returned {chosen!r} for lane {lane}; it must return "
                                     "a gota_arena.opponents.Opponent, a registered opponent name or a Fixture")
        return chosen

    def _pick(self, lane: int) -> Fixture:
        """Choose the lane's next episode and set it up in the arena (it starts at the lane's next start)."""
        chosen = self._choose(lane)
        fixture = chosen if isinstance(chosen, Fixture) else Fixture(self._controller(chosen, lane))
        for team, controller in enumerate(fixture.controllers()):
            every = 1 if controller is None else decision_every(controller, self.arena.action_ticks, self.arena.upkeep)
            self._next_every[lane, team] = every
        self._next[lane] = fixture
        learner, opponent = fixture.controllers()
        if learner is not None and learner.script is not None:
            self.arena.set_learner_script(lane, learner.script)
        else:   # a bot, or rows whose actions the step supplies
            self.arena.set_learner_bot(lane, None if learner is None else learner.bot)
        if opponent.script is not None:
            self.arena.set_opponent_script(lane, opponent.script)
        else:
            self.arena.set_opponent(lane, opponent.bot or "external")
        if fixture.seed is not None:
            self.arena.set_next_seed(lane, fixture.seed)
        return fixture

    def opponent(self, lane: int) -> str:
        """The name of who plays the lane's other team in the running episode."""
        return SELF if lane < self.self_play_lanes else self._current[lane].opponent.name

    # ---- reset / step ------------------------------------------------------
    def reset(self, seed: int = 0):
        """Start every lane (lane i plays seed * lanes + i, or its fixture's seed); returns
        (obs, masks) of the learner rows."""
        self._episodes[:] = 0
        for lane in range(self.self_play_lanes, self.lanes):
            self._current[lane] = self._pick(lane)
            self._every[lane] = self._next_every[lane]
        self._lane_steps[:] = 0
        out = self.arena.reset(seed)
        if self.recorder is not None:
            self.recorder.after_reset()
        self.reward.reset(out.signals)
        self._after_start(range(self.lanes))
        self._starts[:] = True
        return self.arena.obs[self.learner_rows], self.arena.masks[self.learner_rows]

    def _after_start(self, lanes) -> None:
        for lane in lanes:
            self._learner_team[lane] = self.arena.lane(lane)["learner_team"]
            if lane >= self.self_play_lanes:
                self._episodes[lane] += 1
                self._pick(lane)   # for the episode after this one

    def _controller_actions(self) -> None:
        """The rows of the Python controllers that decide this step (grouped by controller, in lane
        and team order); a learner team that a controller plays never takes the caller's actions."""
        groups = {}
        apl, team_size = self.arena.agents_per_lane, SEATS_PER_TEAM
        for lane in range(self.self_play_lanes, self.lanes):
            for team, controller in enumerate(self._current[lane].controllers()):
                if team == LEARNER and controller is not None:
                    self._full[lane * apl:lane * apl + team_size] = 0
                if controller is not None and not controller.native and \
                        self._lane_steps[lane] % self._every[lane, team] == 0:
                    groups.setdefault(id(controller), (controller, []))[1].append((lane, team))
        for controller, seats in groups.values():
            lanes, teams = (np.asarray(column, dtype=np.int64) for column in zip(*seats))
            first = lanes * apl + teams * team_size
            rows = (first[:, None] + np.arange(team_size)).ravel()
            # a stable id per seat: lane * 5 + seat on the other team, (lanes + lane) * 5 + seat on the learner's
            slots = ((lanes + self.lanes * (teams == LEARNER))[:, None] * team_size + np.arange(team_size)).ravel()
            seats_batch = SeatBatch(self.arena.obs[rows], self.arena.masks[rows], rows // apl, slots,
                                    np.repeat(self._starts[lanes], team_size))
            self._full[rows] = check_actions(controller.name, controller.act(seats_batch), seats_batch.masks)

    def step(self, actions):
        """One decision of every learner row; returns (obs, masks, rewards, dones, episodes)."""
        actions = np.asarray(actions)
        if actions.shape != (self.agents, HEADS):
            raise ArgumentRangeError(f"actions must have shape ({self.agents}, {HEADS}) (learner rows x heads), "
                                     f"got {actions.shape}")
        self._full[:] = 0
        self._full[self.learner_rows] = actions
        self._controller_actions()
        if self.recorder is not None:
            self.recorder.before_step(self._full)
        out = self.arena.step(self._full)
        if self.recorder is not None:
            self.recorder.after_step()   # before _after_start: a restarted lane's episode is its _next one
        team_rewards = check_rewards(self.reward_name, self.reward.rewards(out.signals), self.lanes)
        team = self._learner_team[self.learner_lane] ^ self._other_team_row
        rewards = team_rewards[self.learner_lane, team]
        dones = out.terminals[self.learner_rows].astype(bool)
        finished = np.flatnonzero(out.stats["finished"])
        episodes = [self._episode(lane, out.stats[lane], out.signals[lane]) for lane in finished.tolist()]
        self._starts[:] = False
        self._lane_steps += 1
        if len(finished):
            self._starts[finished] = True
            self._lane_steps[finished] = 0
            for lane in finished.tolist():
                self._current[lane] = self._next[lane]
                self._every[lane] = self._next_every[lane]
            self._after_start(finished.tolist())
        return self.arena.obs[self.learner_rows], self.arena.masks[self.learner_rows], rewards, dones, episodes

    def _episode(self, lane: int, stats, signals) -> dict:
        record = {name: stats[name].item() for name in stats.dtype.names}
        fixture = self._current[lane]
        record.update(lane=lane, opponent=self.opponent(lane), glory=record["potential"],
                      game=None if fixture is None else fixture.game, signals=signals.copy())
        return record

    def close(self) -> None:
        self.arena.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


__all__ = ["LearnerEnv", "Fixture", "SELF"]
