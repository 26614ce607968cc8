"""The observation and action contract (docs/contract.md), read from C.

``LAYOUT`` maps every block name ("obs.self", "obs.object", "mask.verb",
"head.point", ...) to its offset, row count and row width; ``INFO`` holds the
sizes and the contract hash. Nothing is retyped here: a policy that stores
``INFO.hash`` with its weights can refuse an observation layout it was not
trained on.

The action side's numbers come from C as well (gota.h ``GOTA_CONTRACT_*`` and
``gota_contract_verb``), and every Python user imports them from here:

    Head.VERB .. Head.ITEM            the five heads, in order; HEAD_NAMES, HEAD_SIZES
    ContractVerb.NOOP .. USE_ITEM_AT  values of the verb head; VERB_NAMES ("noop", "attackMove", ...)
    VERB_USES[verb, head]             the decoder reads that head for that verb
    VERB_TARGET_ROW[verb]             its row of mask.target_rows (castTarget: + ability), -1 none
    TargetRow.ATTACK .. ITEM_AT       the rows of mask.target_rows; TARGET_ROWS

``ContractViews`` is mixed into ``Match``:

    obs = m.observe(seat)            # float32[OBS_SIZE], the seat's team view
    mask = m.mask(seat)              # uint8[MASK_SIZE] (conditional form)
    answer = m.act(seat, heads)      # five ints: verb, target, point, ability, item
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Optional

import numpy as np

from ._native import ffi, lib
from .constants import SEATS, ActionError, Team, _collect, team_seats
from .errors import ArgumentRangeError, ArgumentTypeError, check


@dataclass(frozen=True)
class ContractInfo:
    version: int
    obs_size: int
    mask_size: int
    mask_flat_size: int
    heads: int
    logits: int
    verbs: int
    targets: int
    points: int
    abilities: int
    items: int
    entries: int
    hash: int


@dataclass(frozen=True)
class Block:
    """One layout row: ``offset`` and ``count`` rows of ``width`` values; ``features``
    names the values of a row where the contract names them."""

    name: str
    offset: int
    count: int
    width: int
    features: tuple

    @property
    def size(self) -> int:
        return self.count * self.width

    def slice(self) -> slice:
        return slice(self.offset, self.offset + self.size)


def _info() -> ContractInfo:
    out = ffi.new("GotaContractInfo *")
    check(lib.gota_contract_info(out), "gota_contract_info")
    return ContractInfo(**{name: int(getattr(out, name)) for name in ContractInfo.__dataclass_fields__})


def _layout(entries: int) -> dict:
    out = ffi.new("GotaContractEntry *")
    blocks = {}
    for i in range(entries):
        check(lib.gota_contract_entry(i, out), f"gota_contract_entry({i})")
        names = []
        for f in range(out.width):
            name = lib.gota_contract_feature(i, f)
            if name == ffi.NULL:
                break
            names.append(ffi.string(name).decode())
        name = ffi.string(out.name).decode()
        blocks[name] = Block(name, int(out.offset), int(out.count), int(out.width), tuple(names))
    return blocks


def _verb(verb: int) -> dict:
    out = ffi.new("GotaContractVerb *")
    check(lib.gota_contract_verb(verb, out), f"gota_contract_verb({verb})")
    return {"name": ffi.string(out.name).decode(), "heads": int(out.heads), "target_row": int(out.target_row)}


INFO = _info()
LAYOUT = _layout(INFO.entries)
OBS_SIZE = INFO.obs_size
MASK_SIZE = INFO.mask_size
MASK_FLAT_SIZE = INFO.mask_flat_size

# the five action heads (GOTA_CONTRACT_HEAD_*): Head.VERB == 0 .. Head.ITEM == 4
Head = IntEnum("Head", _collect("GOTA_CONTRACT_HEAD_", by_value=True), module=__name__)
Head.__doc__ = "Columns of an action (the five heads, in order): GOTA_CONTRACT_HEAD_*."
HEADS = INFO.heads
HEAD_NAMES = tuple(h.name.lower() for h in Head)                  # "verb", "target", "point", "ability", "item"
HEAD_SIZES = tuple(LAYOUT["head." + name].width for name in HEAD_NAMES)
# values of the verb head (GOTA_CONTRACT_VERB_*), and what each one reads
ContractVerb = IntEnum("ContractVerb", _collect("GOTA_CONTRACT_VERB_", by_value=True), module=__name__)
ContractVerb.__doc__ = "Values of the verb head: GOTA_CONTRACT_VERB_* (not the engine's Verb they decode to)."
_VERBS = [_verb(v) for v in range(INFO.verbs)]
VERB_NAMES = tuple(v["name"] for v in _VERBS)                      # "noop", "walk", "attackMove", ...
VERB_USES = np.array([[(v["heads"] >> h) & 1 for h in range(HEADS)] for v in _VERBS], dtype=bool)
VERB_USES.flags.writeable = False
VERB_TARGET_ROW = tuple(v["target_row"] for v in _VERBS)
# rows of the mask block mask.target_rows (GOTA_CONTRACT_ROW_*)
TargetRow = IntEnum("TargetRow", _collect("GOTA_CONTRACT_ROW_", by_value=True), module=__name__)
TargetRow.__doc__ = "Rows of mask.target_rows: GOTA_CONTRACT_ROW_* (CAST is the first of one row per ability)."
TARGET_ROWS = lib.GOTA_CONTRACT_ROWS

# the C tables agree with one another (a mismatch is a build of mixed sources)
assert len(Head) == HEADS == lib.GOTA_CONTRACT_HEADS and list(Head) == list(range(HEADS))
assert [name for name, b in sorted(LAYOUT.items(), key=lambda kv: kv[1].offset) if name.startswith("head.")] \
    == ["head." + name for name in HEAD_NAMES]
assert HEAD_SIZES == (INFO.verbs, INFO.targets, INFO.points, INFO.abilities, INFO.items)
assert len(ContractVerb) == INFO.verbs == lib.GOTA_CONTRACT_VERBS and list(ContractVerb) == list(range(INFO.verbs))
assert TARGET_ROWS == LAYOUT["mask.target_rows"].count and LAYOUT["mask.target_rows"].width == INFO.targets
assert all(-1 <= row < TARGET_ROWS for row in VERB_TARGET_ROW)


# "0..4 (red) and 5..9 (blue)", for messages
SEAT_RANGES = " and ".join(f"{seats[0]}..{seats[-1]} ({team.name.lower()})"
                           for team in (Team.RED, Team.BLUE) for seats in (team_seats(team),))


def _seat(seat) -> int:
    if isinstance(seat, bool) or not hasattr(type(seat), "__index__"):
        raise ArgumentTypeError(f"seat must be an integer, got {type(seat).__name__} {seat!r}")
    seat = int(seat)
    if not 0 <= seat < SEATS:
        raise ArgumentRangeError(f"seat {seat} does not exist; seats are {SEAT_RANGES}")
    return seat


HEAD_RANGES = ", ".join(f"{name} 0..{size - 1}" for name, size in zip(HEAD_NAMES, HEAD_SIZES))


def _heads(heads) -> np.ndarray:
    try:
        array = np.asarray(heads)
    except (ValueError, TypeError) as error:   # ragged nested lists, objects numpy cannot take
        raise ArgumentTypeError(f"heads must be {HEADS} integers ({', '.join(HEAD_NAMES)}): "
                                f"{error}") from None
    if array.shape != (HEADS,) or not np.issubdtype(array.dtype, np.integer):
        raise ArgumentTypeError(f"heads must be {HEADS} integers ({', '.join(HEAD_NAMES)}), "
                                f"got {array.dtype} of shape {array.shape}")
    low, high = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    outside = [int(v) for v in array.tolist() if not low <= int(v) <= high]
    if outside:   # a cast would wrap them into other, valid-looking heads
        raise ArgumentRangeError(f"heads {array.tolist()}: {outside[0]} does not fit a 32-bit head; heads are "
                                 + HEAD_RANGES)
    return np.ascontiguousarray(array, dtype=np.int32)


_SEAT_HINT = f"seats are 0..{SEATS - 1} and the match must have heroes (heroes=1)"


class ContractViews:
    """Observation, mask and action methods of Match (needs ``self._handle(what)``)."""

    def observe(self, seat, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The seat's observation (float32[OBS_SIZE]), written into ``out`` if given."""
        what = f"observe({seat!r})"
        ptr = self._handle(what)
        seat = _seat(seat)
        if out is None:
            out = np.zeros(OBS_SIZE, dtype=np.float32)
        elif out.dtype != np.float32 or out.shape != (OBS_SIZE,) or not out.flags.c_contiguous:
            raise ArgumentTypeError(f"{what}: out must be a contiguous float32 array of shape ({OBS_SIZE},)")
        check(lib.gota_match_observe(ptr, seat, ffi.from_buffer("float[]", out), OBS_SIZE), what, _SEAT_HINT)
        return out

    def mask(self, seat, flat: bool = False) -> np.ndarray:
        """The seat's action mask: conditional (uint8[MASK_SIZE]) or flat (uint8[MASK_FLAT_SIZE])."""
        what = f"mask({seat!r}, flat={flat!r})"
        ptr = self._handle(what)
        seat = _seat(seat)
        size = MASK_FLAT_SIZE if flat else MASK_SIZE
        out = np.zeros(size, dtype=np.uint8)
        call = lib.gota_match_mask_flat if flat else lib.gota_match_mask
        check(call(ptr, seat, ffi.from_buffer("uint8_t[]", out), size), what, _SEAT_HINT)
        return out

    def decode(self, seat, heads) -> tuple:
        """(command dict, invalid) for five action heads, without issuing anything."""
        what = f"decode({seat!r}, {heads!r})"
        ptr = self._handle(what)
        seat, heads = _seat(seat), _heads(heads)
        cmd, invalid = ffi.new("GotaCommand *"), ffi.new("int32_t *")
        check(lib.gota_match_decode(ptr, seat, ffi.from_buffer("int32_t[]", heads), cmd, invalid), what, _SEAT_HINT)
        command = {name: int(getattr(cmd, name)) for name in ("verb", "target", "x", "z", "slot", "item")}
        return command, bool(invalid[0])

    def act(self, seat, heads) -> ActionError:
        """Decode five action heads and issue the command; the game's answer."""
        what = f"act({seat!r}, {heads!r})"
        ptr = self._handle(what)
        seat, heads = _seat(seat), _heads(heads)
        answer = ffi.new("int32_t *")
        check(lib.gota_match_act(ptr, seat, ffi.from_buffer("int32_t[]", heads), answer), what, _SEAT_HINT)
        return ActionError(answer[0])
