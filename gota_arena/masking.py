"""The conditional action mask in numpy (docs/contract.md, "Masks").

A decision is sampled verb first; the verb says which other heads it uses and
which mask block governs each one:

    verb            ability head              item head          target head         point
    noop            -                         -                  -                   -
    walk            -                         -                  -                   yes
    attackMove      -                         -                  -                   yes
    attackTarget    -                         -                  row 0               -
    castTarget      mask.cast_target_ability  -                  row 1 + ability     -
    castPoint       mask.cast_point_ability   -                  row 5 (anchor)      yes
    useItem         -                         mask.use_item      -                   -
    useItemAt       -                         mask.use_item_at   row 6 (anchor)      yes

The point head is never masked. A head a verb does not use is ignored by the
decoder; samplers set it to 0 and policies leave it out of log-probabilities.
``conditional_masks`` gives every head's mask for chosen verbs (and abilities),
so numpy samplers, torch policies and legality checks share one definition.

The verb ids, head columns, the table of the heads each verb reads and the
target rows all come from C (gota_arena.contract); the names here are plain
ints for numpy and torch.
"""
from __future__ import annotations

import numpy as np

from .contract import HEAD_SIZES, INFO, LAYOUT, VERB_TARGET_ROW, VERB_USES, ContractVerb, Head, TargetRow

NOOP, WALK, ATTACK_MOVE, ATTACK_TARGET, CAST_TARGET, CAST_POINT, USE_ITEM, USE_ITEM_AT = (
    int(ContractVerb[name]) for name in (
        "NOOP", "WALK", "ATTACK_MOVE", "ATTACK_TARGET", "CAST_TARGET", "CAST_POINT", "USE_ITEM", "USE_ITEM_AT"))
VERB, TARGET, POINT, ABILITY, ITEM = (int(Head[name]) for name in ("VERB", "TARGET", "POINT", "ABILITY", "ITEM"))

# USES[verb, head]: the verb reads that head (gota_contract_verb)
USES = VERB_USES
_ROW_OF_VERB = np.array(VERB_TARGET_ROW, dtype=np.int64)   # castTarget: the first of its rows

_VERB = LAYOUT["mask.verb"].slice()
_CAST_TARGET_ABILITY = LAYOUT["mask.cast_target_ability"].slice()
_CAST_POINT_ABILITY = LAYOUT["mask.cast_point_ability"].slice()
_USE_ITEM = LAYOUT["mask.use_item"].slice()
_USE_ITEM_AT = LAYOUT["mask.use_item_at"].slice()
_ROWS = LAYOUT["mask.target_rows"]
ROW_ATTACK, ROW_CAST, ROW_CAST_POINT, ROW_ITEM_AT = (int(TargetRow[name]) for name in (
    "ATTACK", "CAST", "CAST_POINT", "ITEM_AT"))


def verb_mask(masks: np.ndarray) -> np.ndarray:
    """bool [n, verbs]: the verbs allowed now."""
    return masks[:, _VERB] != 0


def ability_mask(masks: np.ndarray, verbs: np.ndarray) -> np.ndarray:
    """bool [n, abilities] for the chosen verbs; only entry 0 where the verb uses no ability."""
    out = np.zeros((len(verbs), INFO.abilities), dtype=bool)
    out[:, 0] = ~USES[verbs, ABILITY]
    out |= (verbs == CAST_TARGET)[:, None] & (masks[:, _CAST_TARGET_ABILITY] != 0)
    out |= (verbs == CAST_POINT)[:, None] & (masks[:, _CAST_POINT_ABILITY] != 0)
    return out


def item_mask(masks: np.ndarray, verbs: np.ndarray) -> np.ndarray:
    """bool [n, items] for the chosen verbs; only entry 0 where the verb uses no item."""
    out = np.zeros((len(verbs), INFO.items), dtype=bool)
    out[:, 0] = ~USES[verbs, ITEM]
    out |= (verbs == USE_ITEM)[:, None] & (masks[:, _USE_ITEM] != 0)
    out |= (verbs == USE_ITEM_AT)[:, None] & (masks[:, _USE_ITEM_AT] != 0)
    return out


def target_row(verbs: np.ndarray, abilities: np.ndarray) -> np.ndarray:
    """The target row each (verb, ability) reads, -1 where the verb uses no target."""
    row = _ROW_OF_VERB[verbs]
    cast = verbs == CAST_TARGET
    row[cast] += abilities[cast]
    return row


def target_mask(masks: np.ndarray, verbs: np.ndarray, abilities: np.ndarray) -> np.ndarray:
    """bool [n, targets] for the chosen verbs and abilities; only slot 0 where no target is used."""
    rows = masks[:, _ROWS.slice()].reshape(len(masks), _ROWS.count, _ROWS.width) != 0
    row = target_row(verbs, abilities)
    out = rows[np.arange(len(verbs)), np.maximum(row, 0)]
    out[row < 0] = False
    out[row < 0, 0] = True
    return out


def _pick(allowed: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly chosen allowed index per row (every row must allow one)."""
    weights = rng.random(allowed.shape) * allowed
    return weights.argmax(axis=1)


def sample_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uniformly random legal actions, int32 [n, 5], from conditional masks [n, MASK_SIZE]."""
    n = len(masks)
    actions = np.zeros((n, INFO.heads), dtype=np.int32)
    verbs = _pick(verb_mask(masks), rng)
    actions[:, VERB] = verbs
    actions[:, ABILITY] = _pick(ability_mask(masks, verbs), rng)
    actions[:, ITEM] = _pick(item_mask(masks, verbs), rng)
    actions[:, TARGET] = _pick(target_mask(masks, verbs, actions[:, ABILITY]), rng)
    actions[:, POINT] = np.where(USES[verbs, POINT], rng.integers(0, INFO.points, n), 0)
    return actions


def illegal_rows(masks: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """bool [n]: the action's verb, or a head that verb uses, is masked out."""
    idx = np.arange(len(actions))
    verbs = actions[:, VERB].astype(np.int64)
    abilities = actions[:, ABILITY].astype(np.int64)
    bad = ~verb_mask(masks)[idx, verbs]
    bad |= ~ability_mask(masks, verbs)[idx, abilities] & USES[verbs, ABILITY]
    bad |= ~item_mask(masks, verbs)[idx, actions[:, ITEM]] & USES[verbs, ITEM]
    bad |= ~target_mask(masks, verbs, abilities)[idx, actions[:, TARGET]] & USES[verbs, TARGET]
    return bad


__all__ = ["USES", "HEAD_SIZES", "verb_mask", "ability_mask", "item_mask", "target_row", "target_mask",
           "sample_actions", "illegal_rows"]
