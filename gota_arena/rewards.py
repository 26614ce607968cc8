"""Reward modes: the per-lane reward signals of a step -> per-team rewards.

The arena writes ``signals[lane, team, field]`` (int64) after every step, with
the fields of ``SIGNAL_FIELDS``: team_xp, team_score, tower_hp, god_hp,
outcome (+1 won, -1 lost/draw/timeout, on the finishing step only), done, and
the team's counters since the match began: gold_earned, last_hits,
neutral_kills, kills, deaths, assists, hero_damage, structure_damage, healing
(docs/plugins.md says what each counts; a per-step value is the change).
On the step a lane finishes, its signals are the finished match's; the lane has
already restarted, so the mode settles the episode and starts the lane's
potentials afresh from the start values seen at ``reset`` (every match starts
with the same signals: no XP, full towers and gods, score 0).

A mode returns ``float [lanes, 2]`` (red, blue); the arena env hands each agent
its team's reward. The bundled modes (plugins/gota_bundled/rewards.py) are
those of docs/rules.md section 8.
"""
from __future__ import annotations

import numpy as np

from .constants import Signal
from .errors import PluginError

# field indexes of signals[lane, team, :], read from C (GOTA_SIGNAL_*)
TEAM_XP, TEAM_SCORE, TOWER_HP, GOD_HP, OUTCOME, DONE = (int(Signal[k]) for k in (
    "TEAM_XP", "TEAM_SCORE", "TOWER_HP", "GOD_HP", "OUTCOME", "DONE"))
GOLD_EARNED, LAST_HITS, NEUTRAL_KILLS, KILLS, DEATHS, ASSISTS = (int(Signal[k]) for k in (
    "GOLD_EARNED", "LAST_HITS", "NEUTRAL_KILLS", "KILLS", "DEATHS", "ASSISTS"))
HERO_DAMAGE, STRUCTURE_DAMAGE, HEALING = (int(Signal[k]) for k in ("HERO_DAMAGE", "STRUCTURE_DAMAGE", "HEALING"))


class RewardMode:
    """The interface: ``reset(signals)`` after the arena resets, then
    ``rewards(signals) -> float [lanes, 2]`` after every step."""

    name = "reward"

    def reset(self, signals: np.ndarray) -> None:
        raise NotImplementedError

    def rewards(self, signals: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class PotentialReward(RewardMode):
    """reward = scale * (potential now - potential at the last step), plus
    ``final(signals)`` on the step a lane finishes. Subclasses define
    ``potential(signals) -> float64 [lanes, 2]`` and may define ``final``."""

    scale = 1.0

    def potential(self, signals: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def final(self, signals: np.ndarray) -> np.ndarray:
        return np.zeros(signals.shape[:2])

    def reset(self, signals: np.ndarray) -> None:
        self._start = self.potential(signals).astype(np.float64)
        self._last = self._start.copy()

    def rewards(self, signals: np.ndarray) -> np.ndarray:
        now = self.potential(signals)
        done = signals[:, 0, DONE] != 0
        out = self.scale * (now - self._last)
        if done.any():
            out[done] += self.final(signals)[done]
        self._last = np.where(done[:, None], self._start, now)
        return out.astype(np.float32)


def check_rewards(name: str, rewards, lanes: int) -> np.ndarray:
    """A mode's output as float32 [lanes, 2]; PluginError naming the mode otherwise."""
    array = np.asarray(rewards)
    if array.shape != (lanes, 2) or not np.issubdtype(array.dtype, np.number):
        raise PluginError(f"reward mode {name!r} returned {array.dtype} {array.shape}; it must return "
                          f"numbers of shape ({lanes}, 2): one reward per lane and team (red, blue)")
    if not np.isfinite(array).all():
        lane, team = (int(v) for v in np.argwhere(~np.isfinite(array))[0])
        raise PluginError(f"reward mode {name!r} returned {array[lane, team]} for lane {lane}, team {team}; "
                          "rewards must be finite")
    return array.astype(np.float32, copy=False)


__all__ = ["RewardMode", "PotentialReward", "check_rewards",
           "TEAM_XP", "TEAM_SCORE", "TOWER_HP", "GOD_HP", "OUTCOME", "DONE",
           "GOLD_EARNED", "LAST_HITS", "NEUTRAL_KILLS", "KILLS", "DEATHS", "ASSISTS", "HERO_DAMAGE",
           "STRUCTURE_DAMAGE", "HEALING"]
