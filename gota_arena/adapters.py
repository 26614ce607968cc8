"""Gymnasium and PettingZoo adapters over the lockstep arena (docs/arena.md).

    from gota_arena.adapters import GotaVectorEnv, GotaParallelEnv

    envs = GotaVectorEnv(lanes=16, action_ticks=4)          # one sub-env per agent: 160
    obs, infos = envs.reset(seed=0)                         # infos["action_mask"]: conditional form
    obs, rewards, terminations, truncations, infos = envs.step(envs.action_space.sample())

    env = GotaParallelEnv(self_play=True)                   # one match, agents red_0..blue_4
    obs, infos = env.reset(seed=0)                          # obs[agent]: {"observation", "action_mask"}

Both need the optional extra: ``pip install 'gota-arena[gym]'`` (gymnasium, pettingzoo).
``flatten_masks`` turns conditional masks into the flat form (docs/contract.md "Flat form").
Rewards come from a reward mode (``reward=``, a registered name or a
``gota_arena.rewards.RewardMode``; default ``leaderboard``): each agent gets its team's.
"""
from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
    from pettingzoo import ParallelEnv
except ImportError as exc:  # the core package works without them
    raise ImportError("gota_arena.adapters needs gymnasium and pettingzoo: "
                      "pip install 'gota-arena[gym]'") from exc

from . import plugins
from .arena import SIGNAL_INDEX, Arena
from .constants import SEATS_PER_TEAM, Team, team_seats
from .contract import HEAD_NAMES, HEAD_SIZES, INFO, LAYOUT, MASK_FLAT_SIZE, MASK_SIZE, OBS_SIZE, ContractVerb, TargetRow
from .rewards import RewardMode, check_rewards

NVEC = np.array(HEAD_SIZES, dtype=np.int64)
_VERB = LAYOUT["mask.verb"].slice()
_CAST_TARGET = LAYOUT["mask.cast_target_ability"].slice()
_ROWS = LAYOUT["mask.target_rows"]
_CAST_POINT = LAYOUT["mask.cast_point_ability"].slice()
_USE_ITEM = LAYOUT["mask.use_item"].slice()
_USE_ITEM_AT = LAYOUT["mask.use_item_at"].slice()
_FLAT = {name: LAYOUT["head." + name].slice() for name in HEAD_NAMES}
assert [_FLAT[h].start for h in HEAD_NAMES] == list(np.cumsum(np.r_[0, NVEC[:-1]]))   # heads in order
# the verbs of target rows 0 (attackTarget), 5 (castPoint) and 6 (useItemAt); rows 1..4 follow the castTarget abilities
_ATTACK_TARGET, _CAST_POINT_VERB, _USE_ITEM_AT_VERB = (int(ContractVerb[name]) for name in (
    "ATTACK_TARGET", "CAST_POINT", "USE_ITEM_AT"))
assert (TargetRow.ATTACK, TargetRow.CAST + INFO.abilities, TargetRow.ITEM_AT) == \
    (0, TargetRow.CAST_POINT, _ROWS.count - 1)   # the gate below lists the rows in order


def flatten_masks(masks: np.ndarray) -> np.ndarray:
    """Conditional masks uint8[..., 203] -> flat masks uint8[..., 92], as
    ``contract_mask_flatten`` does: verb as is; target = the union of the rows
    of the allowed verbs and castTarget abilities; point all ones; ability =
    castTarget | castPoint abilities; item = useItem | useItemAt; an empty head
    gets entry 0."""
    masks = np.asarray(masks, dtype=np.uint8)
    m = masks.reshape(-1, MASK_SIZE)
    verb = m[:, _VERB]
    gate = np.concatenate([verb[:, _ATTACK_TARGET, None], m[:, _CAST_TARGET],
                           verb[:, _CAST_POINT_VERB, None], verb[:, _USE_ITEM_AT_VERB, None]], axis=1)
    rows = m[:, _ROWS.slice()].reshape(-1, _ROWS.count, _ROWS.width)
    target = np.einsum("nr,nrt->nt", gate, rows) != 0     # sums of at most 7 ones
    ability = (m[:, _CAST_TARGET] | m[:, _CAST_POINT]) != 0
    item = (m[:, _USE_ITEM] | m[:, _USE_ITEM_AT]) != 0
    for head in (target, ability, item):
        head[:, 0] |= ~head.any(axis=1)
    point = np.ones((len(m), INFO.points), dtype=bool)
    flat = np.concatenate([verb != 0, target, point, ability, item], axis=1).view(np.uint8)
    return flat.reshape(masks.shape[:-1] + (MASK_FLAT_SIZE,))


def _observation_space() -> spaces.Box:
    return spaces.Box(-np.inf, np.inf, shape=(OBS_SIZE,), dtype=np.float32)


class _AgentRewards:
    """Per-agent rewards of an arena from a reward mode: each agent row gets
    its team's reward (rows: the learner team's 5, then the other team's)."""

    def __init__(self, arena: Arena, reward: Union[str, RewardMode]):
        self.mode = plugins.reward_mode(reward) if isinstance(reward, str) else reward
        self.name = reward if isinstance(reward, str) else getattr(reward, "name", type(reward).__name__)
        self.arena = arena
        agent = np.arange(arena.agents)
        self._lane = agent // arena.agents_per_lane
        self._other = (agent % arena.agents_per_lane) >= SEATS_PER_TEAM
        self._learner = np.zeros(arena.lanes, dtype=np.int64)   # learner team of each lane's running episode

    def _sides(self, lanes) -> None:
        for lane in lanes:
            self._learner[lane] = self.arena.lane(lane)["learner_team"]

    def reset(self, out) -> None:
        self.mode.reset(out.signals)
        self._sides(range(self.arena.lanes))

    def step(self, out) -> np.ndarray:
        """float32 [agents]; then the restarted lanes' new sides are read."""
        team_rewards = check_rewards(self.name, self.mode.rewards(out.signals), self.arena.lanes)
        rewards = team_rewards[self._lane, self._learner[self._lane] ^ self._other]
        self._sides(np.flatnonzero(out.stats["finished"]).tolist())
        return rewards


def _lane_stats(out, agents_per_lane: int) -> tuple:
    """(stats per agent row, bool rows) for the lanes that finished in the last
    step: outcome and score of the row's own team, ticks, result, team, seed."""
    agent = np.arange(len(out.terminals))
    lane, row = agent // agents_per_lane, agent % agents_per_lane
    learner = out.stats["learner_team"][lane]
    team = np.where(row < SEATS_PER_TEAM, learner, 1 - learner)   # rows: the learner team's 5, then the other's
    signals = out.signals[lane, team]
    done = out.stats["finished"][lane] == 1
    stats = {
        "outcome": np.where(done, signals[:, SIGNAL_INDEX["outcome"]], 0).astype(np.int32),
        "score": np.where(done, signals[:, SIGNAL_INDEX["team_score"]], 0),
        "ticks": out.stats["ticks"][lane],
        "result": out.stats["result"][lane],
        "team": np.where(done, team, -1).astype(np.int32),
        "seed": out.stats["seed"][lane],
    }
    return stats, done


class GotaVectorEnv(VectorEnv):
    """One Gymnasium sub-env per agent of an ``Arena`` (keyword arguments pass
    through: lanes, action_ticks, self_play, threads, opponents, seed, max_ticks, ...).
    ``reward`` names the reward mode (default ``leaderboard``) or is a ``RewardMode``;
    each agent gets its team's reward.

    Observations float32[agents, 1407]; actions MultiDiscrete([8, 25, 49, 4, 6])
    per agent. ``infos["action_mask"]`` holds the conditional masks uint8[agents, 203],
    ``infos["action_mask_flat"]`` the flat ones uint8[agents, 92]; when a lane
    finished, ``infos["lane_stats"]`` (outcome, score: the row's team; ticks,
    result, team, seed) with the bool rows in ``infos["_lane_stats"]``.

    Autoreset is ``AutoresetMode.SAME_STEP``: a finished lane restarts inside the
    step, so the observation returned with terminated/truncated already belongs
    to the next episode. The final observation is not kept: the native batch
    writes the new episode's observation over it in the same buffer. A terminal
    state needs no bootstrap value, and a truncation (a timeout at max_ticks,
    28,800 ticks by default) comes at most once per episode, once in 7,200
    decisions at action_ticks 4, so not bootstrapping it costs little.

    ``copy=True`` (default) returns fresh arrays; ``copy=False`` returns the
    arena's own buffers, overwritten by the next step.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}
    render_mode = None

    def __init__(self, lanes: int = 1, copy: bool = True, reward: Union[str, RewardMode] = "leaderboard",
                 **arena_kwargs):
        self.arena = Arena(lanes=lanes, **arena_kwargs)
        self.reward = _AgentRewards(self.arena, reward)
        self.copy = copy
        self.num_envs = self.arena.agents
        self.single_observation_space = _observation_space()
        self.single_action_space = spaces.MultiDiscrete(NVEC)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _out(self, out) -> tuple:
        obs, masks = (out.obs.copy(), out.masks.copy()) if self.copy else (out.obs, out.masks)
        everyone = np.ones(self.num_envs, dtype=bool)   # the "_key" rows of Gymnasium's vector infos
        infos = {"action_mask": masks, "_action_mask": everyone,
                 "action_mask_flat": flatten_masks(out.masks), "_action_mask_flat": everyone.copy()}
        return obs, infos

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple:
        """Restart every lane: lane i plays seed * lanes + i; no seed continues
        each lane's own sequence. options are accepted and ignored."""
        super().reset(seed=seed)
        out = self.arena.reset(-1 if seed is None else seed)
        self.reward.reset(out)
        return self._out(out)

    def step(self, actions) -> tuple:
        out = self.arena.step(actions)
        rewards = self.reward.step(out)
        obs, infos = self._out(out)
        truncations = out.truncations.astype(bool)
        terminations = out.terminals.astype(bool) & ~truncations
        if out.stats["finished"].any():
            infos["lane_stats"], infos["_lane_stats"] = _lane_stats(out, self.arena.agents_per_lane)
        return obs, rewards, terminations, truncations, infos

    def close_extras(self, **kwargs: Any) -> None:
        self.arena.close()

    def __enter__(self) -> "GotaVectorEnv":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class GotaParallelEnv(ParallelEnv):
    """A PettingZoo ParallelEnv over one match (a 1-lane ``Arena``; keyword
    arguments pass through: action_ticks, self_play, opponents, seed, max_ticks, ...).
    ``reward`` names the reward mode (default ``leaderboard``) or is a ``RewardMode``;
    each agent gets its team's reward.

    ``possible_agents`` are ``red_0..red_4, blue_0..blue_4`` (seats 0..9). In
    self-play all ten play; against a bot only the learner team's five, the team
    the seed picks ((seed mod 10) div 5: 0 red, 1 blue).

    ``obs[agent]`` is ``{"observation": float32[1407], "action_mask": the flat
    mask split per head}``, a tuple of five int8 arrays (8, 25, 49, 4, 6): the
    form ``MultiDiscrete.sample(mask=...)`` takes. ``infos[agent]["action_mask"]``
    holds the exact conditional mask uint8[203] (docs/contract.md "Masks").

    When the match ends every agent is terminated (truncated on a timeout),
    ``agents`` becomes empty and ``infos[agent]`` gets the outcome and score of
    its team, ticks and result. The arena has already restarted the lane, so the
    terminal observation is gone; the last step returns a zero observation with
    a noop-only mask instead, as the arena does for rows that do not act.
    ``reset(seed)`` starts that seed; ``reset()`` the lane's next seed.
    """

    metadata = {"name": "gota_arena_v0", "render_modes": [], "is_parallelizable": True}
    render_mode = None

    def __init__(self, self_play: bool = True, reward: Union[str, RewardMode] = "leaderboard", **arena_kwargs):
        arena_kwargs.setdefault("threads", 1)
        self.arena = Arena(lanes=1, self_play=self_play, **arena_kwargs)
        self.reward = _AgentRewards(self.arena, reward)
        self.possible_agents = [f"{team.name.lower()}_{i}" for team in (Team.RED, Team.BLUE)
                                for i in range(len(team_seats(team)))]
        self.observation_spaces = {a: spaces.Dict({
            "observation": _observation_space(),
            "action_mask": spaces.Tuple([spaces.MultiBinary(int(n)) for n in NVEC]),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.MultiDiscrete(NVEC) for a in self.possible_agents}
        self._actions = np.zeros((self.arena.agents, len(NVEC)), dtype=np.int32)
        self.agents = []
        self._rows = {}

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.MultiDiscrete:
        return self.action_spaces[agent]

    def _observe(self, out, terminal: bool = False) -> tuple:
        masks = out.masks.copy()
        obs = out.obs.copy()
        if terminal:
            obs[:] = 0
            masks[:] = 0
            masks[:, _VERB.start + ContractVerb.NOOP] = 1   # noop only
        flat = flatten_masks(masks).astype(np.int8)
        observations, infos = {}, {}
        for agent in self.agents:
            r = self._rows[agent]
            observations[agent] = {"observation": obs[r],
                                   "action_mask": tuple(flat[r, _FLAT[h]] for h in HEAD_NAMES)}
            infos[agent] = {"action_mask": masks[r]}
        return observations, infos

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple:
        out = self.arena.reset(-1 if seed is None else seed)
        self.reward.reset(out)
        seats = [self.arena.agent_seat(r)[1] for r in range(self.arena.agents)]
        self._rows = {self.possible_agents[seat]: r for r, seat in enumerate(seats)}
        self.agents = [a for a in self.possible_agents if a in self._rows]
        return self._observe(out)

    def step(self, actions: dict) -> tuple:
        if not self.agents:
            raise RuntimeError("no episode is running: call reset() first (also after an episode ends)")
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise ValueError(f"actions for agents not playing: {sorted(unknown)} (agents: {self.agents})")
        self._actions[:] = 0   # a missing agent plays noop
        for agent, action in actions.items():
            self._actions[self._rows[agent]] = action
        out = self.arena.step(self._actions)
        agent_rewards = self.reward.step(out)
        done = bool(out.stats["finished"][0])
        observations, infos = self._observe(out, terminal=done)
        rewards = {a: float(agent_rewards[self._rows[a]]) for a in self.agents}
        truncated = done and bool(out.truncations[0])
        terminations = dict.fromkeys(self.agents, done and not truncated)
        truncations = dict.fromkeys(self.agents, truncated)
        if done:
            stats, _ = _lane_stats(out, self.arena.agents_per_lane)
            for agent in self.agents:
                r = self._rows[agent]
                infos[agent].update({k: int(v[r]) for k, v in stats.items()})
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def close(self) -> None:
        self.arena.close()

    def __enter__(self) -> "GotaParallelEnv":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


__all__ = ["GotaVectorEnv", "GotaParallelEnv", "flatten_masks", "NVEC"]
