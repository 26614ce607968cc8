"""The observation and action contract (docs/contract.md), read from C.

``LAYOUT`` maps every block name ("obs.self", "obs.object", "mask.verb",
"head.point", ...) to its offset, row count and row width; ``INFO`` holds the
sizes and the contract hash. Nothing is retyped here: a policy that stores
``INFO.hash`` with its weights can refuse an observation layout it was not
trained on.

``ContractViews`` is mixed into ``Match``:

    obs = m.observe(seat)            # float32[OBS_SIZE], the seat's team view
    mask = m.mask(seat)              # uint8[MASK_SIZE] (conditional form)
    answer = m.act(seat, heads)      # five ints: verb, target, point, ability, item
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ._native import ffi, lib
from .constants import ActionError
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


INFO = _info()
LAYOUT = _layout(INFO.entries)
OBS_SIZE = INFO.obs_size
MASK_SIZE = INFO.mask_size
MASK_FLAT_SIZE = INFO.mask_flat_size


def _seat(seat) -> int:
    if isinstance(seat, bool) or not hasattr(type(seat), "__index__"):
        raise ArgumentTypeError(f"seat must be an integer, got {type(seat).__name__} {seat!r}")
    seat = int(seat)
    if not 0 <= seat < 10:
        raise ArgumentRangeError(f"seat {seat} does not exist; seats are 0..4 (red) and 5..9 (blue)")
    return seat


def _heads(heads) -> np.ndarray:
    try:
        array = np.asarray(heads)
    except (ValueError, TypeError) as error:   # ragged nested lists, objects numpy cannot take
        raise ArgumentTypeError(f"heads must be {INFO.heads} integers (verb, target, point, ability, item): "
                                f"{error}") from None
    if array.shape != (INFO.heads,) or not np.issubdtype(array.dtype, np.integer):
        raise ArgumentTypeError(f"heads must be {INFO.heads} integers (verb, target, point, ability, item), "
                                f"got {array.dtype} of shape {array.shape}")
    low, high = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    outside = [int(v) for v in array.tolist() if not low <= int(v) <= high]
    if outside:   # a cast would wrap them into other, valid-looking heads
        raise ArgumentRangeError(f"heads {array.tolist()}: {outside[0]} does not fit a 32-bit head; heads are "
                                 "verb 0..7, target 0..24, point 0..48, ability 0..3, item 0..5")
    return np.ascontiguousarray(array, dtype=np.int32)


_SEAT_HINT = "seats are 0..9 and the match must have heroes (heroes=1)"


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
