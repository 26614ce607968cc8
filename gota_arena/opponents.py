"""Opponents: who plays the other team of a lane.

An opponent is either
- a **native bot** (``Opponent.bot`` is its name): the simulator plays those
  seats inside the tick and ``act`` is never called; or
- a **BASIC script** (``Opponent.script`` is a compiled ``gota_arena.basic.Program``,
  ``ScriptOpponent``): the simulator runs it on those seats inside the tick, one
  VM per seat, and ``act`` is never called; or
- a **Python opponent**: ``act(seats)`` is called once per step with every seat
  it plays in every lane (a ``SeatBatch``) and returns int32 actions ``[n, 5]``
  that the seats' masks allow. A frozen policy checkpoint is one
  (``PolicyOpponent``).

A Python opponent with ``play`` settings (a policy trained at its own decision
interval, gota_arena.policies.PlaySettings) decides every ``play.action_ticks``
ticks whatever the arena's interval, as long as that interval divides its own:
between its decisions its seats get noops, so their orders are held
(``decision_every``).

Opponents are registered by plugins (``gota_register_opponents``) and built by
name with ``gota_arena.plugins.opponent(name, **options)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from .contract import INFO
from .errors import PluginError
from .masking import HEAD_SIZES, illegal_rows
from .policies import PlaySettingsError


@dataclass
class SeatBatch:
    """The seats an opponent plays in one step, one row each (views: copy what you keep)."""

    obs: np.ndarray            # float32 [n, OBS_SIZE], the seat's team view
    masks: np.ndarray          # uint8 [n, MASK_SIZE], the conditional mask
    lanes: np.ndarray          # int64 [n], the lane of each row (rows of one lane are in seat order)
    slots: np.ndarray          # int64 [n], a stable id of the seat: key recurrent state by it (lane * 5 + seat
    #                            in team; seats of an evaluation's learner team: (lanes + lane) * 5 + seat)
    episode_start: np.ndarray  # bool [n], the row's episode began with this observation


class Opponent:
    """Base class: set ``bot`` to a native bot's name, or override ``act``."""

    name: str = "opponent"
    bot: Optional[str] = None
    script = None   # a gota_arena.basic.Program played inside the simulator (ScriptOpponent)
    play = None     # PlaySettings of a Python opponent that must play as it was trained; None: any settings

    @property
    def native(self) -> bool:
        """Played inside the simulator (a bot or a script): ``act`` is never called."""
        return self.bot is not None or self.script is not None

    def act(self, seats: SeatBatch) -> np.ndarray:
        raise NotImplementedError(f"opponent {self.name!r} has no bot and no act()")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class BotOpponent(Opponent):
    """A native bot by name (docs/bots.md)."""

    def __init__(self, bot: str):
        self.name = self.bot = bot


class PolicyOpponent(Opponent):
    """A policy playing the other team: a frozen snapshot or a checkpoint.
    Recurrent state is kept per seat slot; the policy clears it at episode starts."""

    def __init__(self, policy, name: str = "policy", deterministic: bool = False):
        self.policy, self.name, self.deterministic = policy, name, deterministic
        self.play = getattr(policy, "play", None)
        self._state = None   # tuple of [layers, slots, ...] arrays/tensors

    def act(self, seats: SeatBatch) -> np.ndarray:
        state = self.policy.initial_state(len(seats.obs))
        if state is not None and self._state is not None:
            self._grow(int(seats.slots.max()) + 1)
            state = tuple(part[:, seats.slots] for part in self._state)
        out = self.policy.act(seats.obs, seats.masks, state=state, episode_start=seats.episode_start,
                              deterministic=self.deterministic)
        if out.state is not None:
            if self._state is None:
                self._state = tuple(part[:, :0] for part in out.state)
            self._grow(int(seats.slots.max()) + 1)
            for full, part in zip(self._state, out.state):
                full[:, seats.slots] = part
        return out.actions

    def _grow(self, slots: int) -> None:
        have = self._state[0].shape[1]
        if slots > have:
            pad = self.policy.initial_state(slots - have)
            self._state = tuple(_cat_seats(full, p) for full, p in zip(self._state, pad))


def _cat_seats(a, b):
    """Concatenate numpy arrays or torch tensors along the seat axis (1)."""
    if isinstance(a, np.ndarray):
        return np.concatenate((a, b), axis=1)
    import torch
    return torch.cat((a, b), dim=1)


def decision_every(opponent: Opponent, action_ticks: int, upkeep: bool) -> int:
    """Arena steps between the opponent's decisions in an arena of ``action_ticks``
    ticks a step and the given upkeep: 1 unless it plays at its own recorded
    interval. PlaySettingsError when the arena cannot honour its settings."""
    play = None if opponent.native else opponent.play
    if play is None:
        return 1
    if play.action_ticks % action_ticks:
        raise PlaySettingsError(
            f"{opponent.name!r} was trained at {play.action_ticks} ticks a decision and cannot play in an arena "
            f"of {action_ticks} ticks a step ({action_ticks} does not divide {play.action_ticks}): use an "
            f"action_ticks that divides {play.action_ticks}, e.g. {play.action_ticks}")
    if bool(play.upkeep) != bool(upkeep):
        raise PlaySettingsError(
            f"{opponent.name!r} was trained with upkeep={'on' if play.upkeep else 'off'} and cannot play in an "
            f"arena with upkeep={'on' if upkeep else 'off'}: set upkeep={str(play.upkeep).lower()}")
    return play.action_ticks // action_ticks


def check_actions(name: str, actions, masks: np.ndarray) -> np.ndarray:
    """An opponent's answer as int32 [n, 5]; PluginError naming the opponent when it
    has the wrong shape, a head out of range, or an action its mask forbids."""
    n = len(masks)
    array = np.asarray(actions)
    if array.shape != (n, INFO.heads) or not np.issubdtype(array.dtype, np.integer):
        raise PluginError(f"opponent {name!r} returned {array.dtype} {array.shape}; it must return integer "
                          f"actions of shape ({n}, {INFO.heads}): verb, target, point, ability, item per seat")
    sizes = np.array(HEAD_SIZES)
    bad = (array < 0) | (array >= sizes)
    if bad.any():
        row, head = (int(v) for v in np.argwhere(bad)[0])
        raise PluginError(f"opponent {name!r} returned head {head} = {int(array[row, head])} for row {row}; "
                          f"head sizes are {tuple(HEAD_SIZES)}")
    illegal = illegal_rows(masks, array)
    if illegal.any():
        row = int(np.flatnonzero(illegal)[0])
        raise PluginError(f"opponent {name!r} returned {array[row].tolist()} for row {row}, which its mask "
                          "forbids; sample from the conditional mask (gota_arena.masking)")
    return array.astype(np.int32, copy=False)


__all__ = ["Opponent", "BotOpponent", "PolicyOpponent", "SeatBatch", "check_actions", "decision_every"]
