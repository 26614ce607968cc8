"""One match of Gods of the Arena, for tests, debugging and replays.

``Match`` is a thin face over the C API: every rule, check and number lives in the
simulator; this module converts arguments, turns return codes into exceptions
(gota_arena.errors) and hands out numpy views of the C state.

    with Match(seed=7, max_ticks=2400) as m:
        m.run()
        print(m.info, hex(m.hash()))
        towers = m.units_of(kind="tower", alive=True)
"""
from __future__ import annotations

import dataclasses
import operator
import warnings
from dataclasses import dataclass
from typing import Mapping, Optional

import numpy as np

from ._native import ffi, lib
from .constants import (MAP_TILES, MAX_UNITS, SIGNALS, STRUCTURE_KINDS, TILE, EventType, Kind, Result, Team,
                        game_clock)
from .errors import (
    ArgumentRangeError,
    ArgumentTypeError,
    ClosedMatchError,
    ConfigTypeError,
    check,
    config_error,
    config_keys,
    config_range,
    make_error,
    range_error,
    unknown_key_error,
)
from .bots import bot_config
from .basic import ScriptControls
from .contract import ContractViews
from .heroes import HeroControls
from .layout import EVENT_DTYPE, UNIT_DTYPE

_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)
_EVENT_CHUNK = 4096  # the C log keeps the newest 4,096 events
_HALF_WORLD = MAP_TILES * TILE // 2
_TEAMS_HINT = f"teams are red={int(Team.RED)} and blue={int(Team.BLUE)}"


def _integer(value, what: str, error=ArgumentTypeError) -> int:
    """``value`` as a Python int; bools, floats and strings are refused."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise error(f"{what} must be an integer, got {type(value).__name__} {value!r}")
    return operator.index(value)


def _int32(value, what: str) -> int:
    value = _integer(value, what)
    if not _INT32[0] <= value <= _INT32[1]:
        raise ArgumentRangeError(f"{what}={value} does not fit a 32-bit integer ({_INT32[0]}..{_INT32[1]})")
    return value


def _enum_or_int(enum, value):
    try:
        return enum(value)
    except ValueError:
        return int(value)


def _name(enum, value) -> str:
    """Lower-case member name, or the number itself for a value the enum lacks."""
    member = _enum_or_int(enum, value)
    return member.name.lower() if isinstance(member, enum) else str(member)


_SIDES = (Team.RED, Team.BLUE)   # the teams that see: neutral units have no vision


def _lookup(enum, value, what: str, allowed=None):
    """An enum member from a member, an int or a case-insensitive name; ``allowed``:
    the members this call takes (default all), the only ones a refusal suggests."""
    allowed = tuple(enum) if allowed is None else allowed
    if isinstance(value, str):
        member = enum.__members__.get(value.upper())
        if member not in allowed:
            names = ", ".join(m.name.lower() for m in allowed)
            raise ArgumentRangeError(f"{what}={value!r} is not known here; use one of {names}")
        return member
    return _integer(value, what)


def _config_struct(config: Mapping):
    """A GotaConfig with the defaults and then each key of ``config`` set by the C
    side, which validates it; bad keys and values raise ConfigError."""
    cfg = ffi.new("GotaConfig *")
    check(lib.gota_config_default(cfg), "gota_config_default")
    for key, value in config.items():
        if not isinstance(key, str):
            raise ConfigTypeError(f"config keys must be strings, got {type(key).__name__} {key!r}")
        value = _integer(value, f"config {key}", ConfigTypeError)
        if not _INT64[0] <= value <= _INT64[1]:
            raise unknown_key_error(key) if config_range(key) is None else range_error(key, value)
        code = lib.gota_config_set(cfg, key.encode(), value)
        if code != lib.GOTA_OK:
            raise config_error(code, key, value)
    return cfg


def _config_values(cfg) -> dict:
    """Every config key of a GotaConfig, read back through gota_config_get."""
    value = ffi.new("int64_t *")
    out = {}
    for key in config_keys():
        check(lib.gota_config_get(cfg, key.encode(), value), f"config {key}")
        out[key] = int(value[0])
    return out


def _make_config_class():
    fields = [(key, int, dataclasses.field(default=value)) for key, value in _config_values(_config_struct({})).items()]

    def __post_init__(self):
        _config_struct(dataclasses.asdict(self))  # validate now, with the C checks

    cls = dataclasses.make_dataclass("MatchConfig", fields, frozen=True,
                                     namespace={"__post_init__": __post_init__})
    cls.__module__ = __name__
    cls.__doc__ = ("A validated match configuration. Its fields and defaults are those of "
                   "the C GotaConfig (gota_config_default); values are checked by gota_config_set.")
    return cls


MatchConfig = _make_config_class()


@dataclass(frozen=True)
class MatchInfo:
    """A snapshot of gota_match_info."""

    tick: int             # battle ticks since reset
    result: str           # 'running', 'win', 'draw' or 'timeout'
    winner: Optional[str]  # 'red' or 'blue' for a win, else None
    god_hp: tuple         # (red, blue)
    unit_count: int       # unit slots in use, corpses included
    nav_revision: int     # bumps when a building footprint appears or vanishes
    seed: int
    max_ticks: int


def outcome(result: str, winner: Optional[str], tick: int) -> str:
    """How a match ended and when, in words: 'red won at tick 7745 (5:22 game time)',
    'a draw at tick ...', 'timed out at tick ...' (MatchInfo's or a replay's result, winner, tick)."""
    when = f"at tick {tick} ({game_clock(tick)} game time)"
    if result == "win":
        return f"{winner} won {when}: the {'blue' if winner == 'red' else 'red'} god fell"
    if result == "draw":
        return f"a draw {when}: both gods fell on that tick"
    if result == "timeout":
        return f"timed out {when}: no god fell"
    return f"{result} {when}"


@dataclass(frozen=True)
class Event:
    """One entry of the match's event log (GotaEvent)."""

    type: str       # 'spawn', 'death', 'structure', 'wave', 'exposed', 'game_over'
    tick: int
    unit: int       # unit id
    other: int      # killer id, or -1
    kind: Kind      # the unit's kind
    team: Team      # the unit's team
    value: int      # event specific (creeps in a wave, winner team, ...)
    x: int          # world units
    z: int


class Match(HeroControls, ContractViews, ScriptControls):
    """One match: ``Match(**config)`` or ``Match.from_config(mapping)``.

    Config keys and their ranges come from the simulator (``gota_config_keys``);
    unknown keys and bad values raise ConfigError naming the key. ``bots=`` puts
    bundled bots on seats by name: ``Match(bots={"red": "base", "blue": "puller"})``
    fills the keys bot_0..bot_9 (gota_arena.bots); ``scripts=`` puts BASIC scripts
    (paths or compiled programs) on seats: ``Match(scripts={"red": "base.bas"})``
    (gota_arena.basic; the scripts draft their heroes). The native state
    is freed by ``close()`` (also on ``with`` exit and when the object is collected);
    every call after ``close()`` raises ClosedMatchError.
    """

    def __init__(self, **config):
        self._open(config)

    @classmethod
    def from_config(cls, config) -> "Match":
        """A match from a MatchConfig or a mapping of config keys to integers."""
        if dataclasses.is_dataclass(config):
            config = dataclasses.asdict(config)
        match = cls.__new__(cls)
        match._open(dict(config))
        return match

    def _open(self, config: dict) -> None:
        self._ptr = None
        scripts = None
        if "bots" in config or "scripts" in config:
            config = dict(config)
        if "bots" in config:  # bots={"red": "base", 7: "puller"} -> bot_0..bot_9 (gota_arena.bots)
            config.update(bot_config(config.pop("bots")))
        if "scripts" in config:  # scripts={"red": "base.bas"} -> BASIC seats (gota_arena.basic)
            scripts = config.pop("scripts")
        cfg = _config_struct(config)
        err = ffi.new("int *")
        ptr = lib.gota_match_new(cfg, err)
        if ptr == ffi.NULL:
            raise make_error(err[0], "gota_match_new")
        # freed when the last reference goes: this Match's, or a zero-copy view's (``units``)
        self._ptr = ffi.gc(ptr, lib.gota_match_free)
        self.config = MatchConfig(**_config_values(cfg))
        self._cursor = 0
        self._ran = ffi.new("int32_t *")
        self._info = ffi.new("GotaMatchInfo *")
        self._u64 = ffi.new("uint64_t *")
        if scripts:
            self._attach_scripts(scripts)

    # ---- lifetime -------------------------------------------------------------
    def _handle(self, what: str):
        ptr = getattr(self, "_ptr", None)
        if ptr is None:
            raise ClosedMatchError(what)
        return ptr

    def close(self) -> None:
        """Close the match: every later call raises ClosedMatchError. The native match
        is freed now, or when the last view of it (``units``) is gone. Idempotent."""
        self._ptr = None

    @property
    def closed(self) -> bool:
        return getattr(self, "_ptr", None) is None

    def __enter__(self) -> "Match":
        self._handle("with Match")
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        if self.closed:
            return "<Match closed>"
        info = self.info
        return f"<Match seed={info.seed} tick={info.tick} {info.result}>"

    # ---- stepping -------------------------------------------------------------
    def reset(self, seed: Optional[int] = None) -> None:
        """Restart at battle tick 0 with ``seed`` (default: the current seed)."""
        what = f"reset(seed={seed!r})"
        ptr = self._handle(what)
        seed = self.info.seed if seed is None else _integer(seed, "seed")
        if not _INT64[0] <= seed <= _INT64[1]:
            raise range_error("seed", seed, cls=ArgumentRangeError, what=what)
        code = lib.gota_match_reset(ptr, seed)
        if code == lib.GOTA_ERR_RANGE:
            raise range_error("seed", seed, cls=ArgumentRangeError, code=code, what=what)
        check(code, what)
        self._cursor = 0

    def step(self, ticks: int = 1) -> int:
        """Advance up to ``ticks`` (>= 1) ticks, stopping early when the match ends;
        returns the ticks run. Raises MatchOverError once the match has ended."""
        what = f"step(ticks={ticks!r})"
        ptr = self._handle(what)
        ticks = _int32(ticks, "ticks")
        code = lib.gota_match_step(ptr, ticks, self._ran)
        if code < 0:
            if code == lib.GOTA_ERR_OVER:
                info = self.info
                winner = f" ({info.winner} won)" if info.winner else ""
                raise make_error(code, what, f"it ended at tick {info.tick} with result "
                                 f"'{info.result}'{winner}; call reset(seed) to start a new match")
            raise make_error(code, what, "ticks must be >= 1" if code == lib.GOTA_ERR_RANGE else "")
        return self._ran[0]

    def run(self, max_ticks: Optional[int] = None) -> int:
        """Step until the match is over (or ``max_ticks`` more ticks ran); returns the
        ticks run."""
        budget = None if max_ticks is None else _integer(max_ticks, "max_ticks")
        if budget is not None and budget < 1:
            raise ArgumentRangeError(f"run(max_ticks={budget}): max_ticks must be >= 1 (or None)")
        total = 0
        while budget is None or total < budget:
            want = _INT32[1] if budget is None else min(budget - total, _INT32[1])
            total += self.step(want)
            if self.over:
                break
        return total

    # ---- state ----------------------------------------------------------------
    @property
    def info(self) -> MatchInfo:
        ptr = self._handle("info")
        check(lib.gota_match_info(ptr, self._info), "info")
        i = self._info
        return MatchInfo(
            tick=i.tick,
            result=_name(Result, i.result),
            winner=_name(Team, i.winner) if i.result == lib.GOTA_RESULT_WIN else None,
            god_hp=tuple(i.god_hp),
            unit_count=i.unit_count,
            nav_revision=i.nav_revision,
            seed=i.seed,
            max_ticks=i.max_ticks,
        )

    @property
    def tick(self) -> int:
        check(lib.gota_match_info(self._handle("tick"), self._info), "tick")
        return self._info.tick

    @property
    def over(self) -> bool:
        check(lib.gota_match_info(self._handle("over"), self._info), "over")
        return self._info.result != lib.GOTA_RESULT_RUNNING

    def hash(self) -> int:
        """The 64-bit state hash (gota_match_hash) as an unsigned int."""
        check(lib.gota_match_hash(self._handle("hash()"), self._u64), "hash()")
        return int(self._u64[0])

    def signals(self) -> np.ndarray:
        """The reward signals of this match as the arena hands them to reward modes:
        int64 [2, SIGNALS], red then blue, fields ``constants.Signal`` (gota_match_signals;
        docs/plugins.md). A fresh array each call."""
        out = np.zeros((2, SIGNALS), dtype=np.int64)
        check(lib.gota_match_signals(self._handle("signals()"), ffi.from_buffer("int64_t[]", out), out.size),
              "signals()")
        return out

    @property
    def units(self) -> np.ndarray:
        """Read-only, zero-copy structured view (dtype layout.UNIT_DTYPE) of the
        unit slots in use, corpses and free slots (kind NONE) included.

        The view reads the live C table: it is valid until the next call that changes
        the match (step, reset, set_hp). Copy it (``units.copy()``) to keep a
        snapshot. It keeps the native match alive: after close() it still reads the
        table as the match left it.
        """
        ptr = self._handle("units")
        table = ffi.new("const GotaUnit **")
        count = ffi.new("int32_t *")
        check(lib.gota_match_units(ptr, table, count), "units")
        # a pointer whose (no-op) destructor holds the native match: the numpy view
        # keeps the buffer, the buffer keeps this pointer, the pointer keeps the match
        anchored = ffi.gc(table[0], lambda _p, _keep=ptr: None)
        view = np.frombuffer(ffi.buffer(anchored, MAX_UNITS * ffi.sizeof("GotaUnit")), dtype=UNIT_DTYPE)
        view = view[: count[0]]
        view.flags.writeable = False
        return view

    def units_of(self, kind=None, team=None, alive=None) -> np.ndarray:
        """A filtered copy of ``units``. ``kind``/``team`` take an enum member, an int,
        a name ('tower', 'red') or a tuple of those; ``alive`` a bool."""
        units = self.units
        mask = units["kind"] != Kind.NONE
        for field, enum, wanted in (("kind", Kind, kind), ("team", Team, team)):
            if wanted is None:
                continue
            values = wanted if isinstance(wanted, (tuple, list, set, frozenset)) else (wanted,)
            mask &= np.isin(units[field], [_lookup(enum, v, field) for v in values])
        if alive is not None:
            mask &= (units["alive"] != 0) == bool(alive)
        return units[mask]  # boolean indexing copies

    def structures(self, team=None, alive=None) -> np.ndarray:
        """A copy of the gods, towers and barracks."""
        return self.units_of(kind=STRUCTURE_KINDS, team=team, alive=alive)

    # ---- events ---------------------------------------------------------------
    def events_array(self, since: int = 0):
        """Events with sequence number >= ``since`` as a structured array
        (layout.EVENT_DTYPE), and the next sequence number."""
        what = f"events(since={since!r})"
        ptr = self._handle(what)
        first = _integer(since, "since")
        buf = np.empty(_EVENT_CHUNK, dtype=EVENT_DTYPE)
        out = ffi.from_buffer("GotaEvent[]", buf)
        written, nxt = ffi.new("int32_t *"), ffi.new("int64_t *")
        parts = []
        while True:
            check(lib.gota_match_events(ptr, first, out, _EVENT_CHUNK, written, nxt), what,
                  "since must be a sequence number >= 0")
            n = written[0]
            if not parts and n and nxt[0] - n > first:
                warnings.warn(f"{what}: {nxt[0] - n - first} events were dropped from the "
                              f"{_EVENT_CHUNK}-entry log; read events more often", stacklevel=3)
            parts.append(buf[:n].copy())
            first = nxt[0]
            if n < _EVENT_CHUNK:
                break
        return np.concatenate(parts), first

    def events(self, since: int = 0) -> list:
        """Events with sequence number >= ``since``. The log keeps the newest 4,096: older
        ones asked for are gone, and a warning says how many (read more often)."""
        return _to_events(self.events_array(since)[0])

    def new_events(self) -> list:
        """Events since the previous new_events() call (or the last reset)."""
        array, self._cursor = self.events_array(self._cursor)
        return _to_events(array)

    # ---- vision, navigation ----------------------------------------------------
    def vision(self, team) -> np.ndarray:
        """(MAP_TILES, MAP_TILES) uint8, 1 where ``team`` sees the tile; row = z."""
        what = f"vision(team={team!r})"
        ptr = self._handle(what)
        team = _int32(_lookup(Team, team, "team", _SIDES), "team")
        out = np.zeros((MAP_TILES, MAP_TILES), dtype=np.uint8)
        code = lib.gota_match_vision(ptr, team, ffi.from_buffer("uint8_t[]", out), out.size)
        check(code, what, _TEAMS_HINT if code in (lib.GOTA_ERR_RANGE, lib.GOTA_ERR_INDEX) else "")
        return out

    def visible(self, team, index: int) -> bool:
        """Whether ``team`` currently sees unit slot ``index``."""
        what = f"visible(team={team!r}, index={index!r})"
        ptr = self._handle(what)
        team = _int32(_lookup(Team, team, "team", _SIDES), "team")
        index = _int32(index, "index")
        out = ffi.new("int32_t *")
        code = lib.gota_match_unit_visible(ptr, team, index, out)
        check(code, what, self._index_hint(index) if code == lib.GOTA_ERR_INDEX else
              _TEAMS_HINT if code == lib.GOTA_ERR_RANGE else "")
        return bool(out[0])

    def walkable(self) -> np.ndarray:
        """(MAP_TILES, MAP_TILES) uint8 live walkability (terrain and living buildings)."""
        ptr = self._handle("walkable()")
        out = np.zeros((MAP_TILES, MAP_TILES), dtype=np.uint8)
        check(lib.gota_match_walkable(ptr, ffi.from_buffer("uint8_t[]", out), out.size), "walkable()")
        return out

    def find_path(self, start_xz, goal_xz) -> list:
        """Waypoints [(x, z), ...] in world units from start to goal; [] if unreachable."""
        what = f"find_path({start_xz!r}, {goal_xz!r})"
        ptr = self._handle(what)
        try:
            sx, sz = start_xz
            gx, gz = goal_xz
        except (TypeError, ValueError):
            raise ArgumentTypeError(f"{what}: start and goal must be (x, z) pairs of world units") from None
        coords = [_int32(v, name) for v, name in ((sx, "start x"), (sz, "start z"), (gx, "goal x"), (gz, "goal z"))]
        cap = MAP_TILES * MAP_TILES  # no path visits a tile twice
        out = np.zeros(2 * cap, dtype=np.int32)
        count = ffi.new("int32_t *")
        code = lib.gota_match_find_path(ptr, *coords, ffi.from_buffer("int32_t[]", out), cap, count)
        check(code, what, f"start and goal must lie inside the map: |x| and |z| "
              f"below the edge at {_HALF_WORLD} world units" if code == lib.GOTA_ERR_RANGE else "")
        return [(int(out[2 * i]), int(out[2 * i + 1])) for i in range(count[0])]

    # ---- debugging --------------------------------------------------------------
    def set_hp(self, index: int, hp: int) -> None:
        """Set unit slot ``index``'s hit points (clamped to max_hp by the simulator)."""
        what = f"set_hp(index={index!r}, hp={hp!r})"
        ptr = self._handle(what)
        index, hp = _int32(index, "index"), _int32(hp, "hp")
        code = lib.gota_match_debug_set_hp(ptr, index, hp)
        check(code, what, self._index_hint(index) if code == lib.GOTA_ERR_INDEX else
              "hp must be >= 1 (it is clamped to max_hp)" if code == lib.GOTA_ERR_RANGE else "")

    def _index_hint(self, index: int) -> str:
        count = self.info.unit_count
        return (f"index {index} is not a live unit; use a slot 0..{count - 1} of a living unit "
                f"({count} of {MAX_UNITS} slots are in use)")


def _to_events(array: np.ndarray) -> list:
    names = {int(t): t.name.lower() for t in EventType}
    return [
        Event(
            type=names.get(int(e["type"]), str(int(e["type"]))),
            tick=int(e["tick"]),
            unit=int(e["unit"]),
            other=int(e["other"]),
            kind=_enum_or_int(Kind, int(e["kind"])),
            team=_enum_or_int(Team, int(e["team"])),
            value=int(e["value"]),
            x=int(e["x"]),
            z=int(e["z"]),
        )
        for e in array
    ]
