"""gota-example-plugin: one module, four hooks (docs/plugins.md).

- ``example_charger``, an opponent: a scripted team that reads only the
  observation and the conditional mask. Each hero casts an allowed targeted
  ability at the weakest allowed target, else attacks the weakest enemy in
  reach, else attack-moves toward the enemy god.
- ``example_push``, a reward mode: enemy tower HP destroyed / 1000 as a
  potential, plus ``outcome`` x the outcome (+1 win, -1 otherwise) on the
  final step.
- ``example_linear``, a policy PPO can train (``policy=example_linear``): linear
  logits for the five conditional heads and a linear value. It lives in
  ``gota_example_linear`` (it imports torch), registered where torch is
  installed and imported only when it is built.
- ``gota_episode_end``: counts finished episodes and the learner's wins in
  ``EPISODES``.
"""
import importlib.util
import math

import numpy as np

from gota_arena import hookimpl
from gota_arena.contract import HEADS, LAYOUT
from gota_arena.map import ENEMY_GOD
from gota_arena.masking import (ABILITY, ATTACK_MOVE, ATTACK_TARGET, CAST_TARGET, POINT, TARGET, VERB,
                                ability_mask, target_mask, verb_mask)
from gota_arena.opponents import Opponent
from gota_arena.rewards import OUTCOME, TOWER_HP, PotentialReward

__version__ = "0.1.0"

SELF, OBJECT = LAYOUT["obs.self"], LAYOUT["obs.object"]
X, Z = SELF.offset + SELF.features.index("x*s/64tiles"), SELF.offset + SELF.features.index("z*s/64tiles")
HP = OBJECT.features.index("hp/2000")
# ENEMY_GOD: the enemy god in the team frame, in tiles from the map centre (the same
# for both teams: blue sees the map rotated 180 degrees); observed positions x 64.
RING_12_TILES = 1 + 2 * 16   # point head: ring 2 (12 tiles), direction 0 (docs/contract.md, "Points")


def weakest(allowed: np.ndarray, hp: np.ndarray) -> np.ndarray:
    """Per row, the allowed slot with the least HP (slot 0 where none is allowed)."""
    return np.where(allowed, hp, np.inf).argmin(axis=1)


class Charger(Opponent):
    """Cast, else attack the weakest, else attack-move toward the enemy god."""

    name = "example_charger"
    deterministic = True   # the same observations and masks give the same actions

    def act(self, seats):
        n = len(seats.masks)
        actions = np.zeros((n, HEADS), dtype=np.int32)   # noop: always allowed
        verbs = verb_mask(seats.masks)
        hp = seats.obs[:, OBJECT.slice()].reshape(n, OBJECT.count, OBJECT.width)[:, :, HP]

        # 1. a targeted ability: the first castable one, at its weakest allowed target
        cast = np.full(n, CAST_TARGET)
        ability = ability_mask(seats.masks, cast).argmax(axis=1)
        target = weakest(target_mask(seats.masks, cast, ability), hp)
        rows = verbs[:, CAST_TARGET]
        actions[rows, VERB], actions[rows, ABILITY], actions[rows, TARGET] = CAST_TARGET, ability[rows], target[rows]

        # 2. else a basic attack on the weakest unit in reach
        attack = np.full(n, ATTACK_TARGET)
        target = weakest(target_mask(seats.masks, attack, np.zeros(n, dtype=np.int64)), hp)
        rows = verbs[:, ATTACK_TARGET] & (actions[:, VERB] == 0)
        actions[rows, VERB], actions[rows, TARGET] = ATTACK_TARGET, target[rows]

        # 3. else attack-move 12 tiles toward the enemy god (the direction nearest to it of 16)
        dx, dz = ENEMY_GOD[0] - seats.obs[:, X] * 64, ENEMY_GOD[1] - seats.obs[:, Z] * 64
        direction = np.rint(np.arctan2(dz, dx) / (math.pi / 8)).astype(np.int64) % 16
        rows = verbs[:, ATTACK_MOVE] & (actions[:, VERB] == 0)
        actions[rows, VERB], actions[rows, POINT] = ATTACK_MOVE, RING_12_TILES + direction[rows]
        return actions


class Push(PotentialReward):
    """Enemy tower HP destroyed / 1000, plus ``outcome`` x the outcome on the final step."""

    name = "example_push"
    scale = 1.0 / 1000.0

    def __init__(self, outcome: float = 1.0):
        self.outcome = float(outcome)

    def potential(self, signals):
        return -signals[:, ::-1, TOWER_HP].astype(np.float64)   # the other team's tower HP, negated

    def final(self, signals):
        return self.outcome * signals[:, :, OUTCOME]


def linear_policy(init_std: float = 0.01):
    """The factory: torch is imported here, when a run builds the policy."""
    from gota_example_linear import LinearPolicy
    return LinearPolicy(init_std=init_std)


EPISODES = {"episodes": 0, "wins": 0}


@hookimpl
def gota_register_opponents(register):
    register("example_charger", Charger, "example plugin: casts, hits the weakest, charges the enemy god")


@hookimpl
def gota_register_reward_modes(register):
    register("example_push", Push, "example plugin: enemy tower HP destroyed / 1000 + outcome")


@hookimpl
def gota_register_policies(register):
    if importlib.util.find_spec("torch") is not None:
        register("example_linear", linear_policy, "example plugin: a linear policy PPO can train (init_std)")


@hookimpl
def gota_episode_end(episode):
    EPISODES["episodes"] += len(episode.stats)
    EPISODES["wins"] += int((episode.stats["outcome"] == 1).sum())
