"""Enums and sizes of the simulator, read from the C #defines of native/gota.h.

No number is retyped here: each enum collects the ``lib.GOTA_<PREFIX>_*`` constants
the compiler checked against the header, so the C side stays the single source.
The contract's numbers (heads, contract verbs, mask rows) are in gota_arena.contract.
"""
from enum import IntEnum, IntFlag

from ._native import ffi, lib


def _collect(prefix: str, by_value: bool = False) -> dict:
    """{NAME: value} of the lib.<prefix>NAME constants, by name (or by value: the order of a C table)."""
    found = {name[len(prefix):]: getattr(lib, name) for name in sorted(dir(lib)) if name.startswith(prefix)}
    return dict(sorted(found.items(), key=lambda kv: kv[1])) if by_value else found


# one enum per family of #defines; member names drop the prefix (Kind.HERO, Team.RED)
Kind = IntEnum("Kind", _collect("GOTA_KIND_"), module=__name__)
Kind.__doc__ = "GotaUnit.kind: GOTA_KIND_* (NONE marks a free slot)."
Team = IntEnum("Team", _collect("GOTA_TEAM_"), module=__name__)
Team.__doc__ = "GotaUnit.team: GOTA_TEAM_*."
Tier = IntEnum("Tier", _collect("GOTA_TIER_"), module=__name__)
Tier.__doc__ = "GotaUnit.sub of a tower: GOTA_TIER_*."
CreepKind = IntEnum("CreepKind", _collect("GOTA_CREEP_"), module=__name__)
CreepKind.__doc__ = "GotaUnit.sub of a creep: GOTA_CREEP_*."
EventType = IntEnum("EventType", _collect("GOTA_EVENT_"), module=__name__)
EventType.__doc__ = "GotaEvent.type: GOTA_EVENT_*."
Result = IntEnum("Result", _collect("GOTA_RESULT_"), module=__name__)
Result.__doc__ = "GotaMatchInfo.result: GOTA_RESULT_*."
Material = IntEnum("Material", _collect("GOTA_MAT_"), module=__name__)
Material.__doc__ = "GotaTile.material: GOTA_MAT_*."
Region = IntFlag("Region", _collect("GOTA_REGION_"), module=__name__)
Region.__doc__ = "GotaTile.region bits: GOTA_REGION_*."
Verb = IntEnum("Verb", {k: v for k, v in _collect("GOTA_CMD_").items() if k != "VERBS"}, module=__name__)
Verb.__doc__ = "GotaCommand.verb: GOTA_CMD_*."
ActionError = IntEnum("ActionError", {k: v for k, v in _collect("GOTA_ACT_").items() if k != "CODES"},
                      module=__name__)
ActionError.__doc__ = "The game's answer to a command: GOTA_ACT_* (OK when accepted)."
ErrorCode = IntEnum("ErrorCode", {"OK": lib.GOTA_OK, **_collect("GOTA_ERR_")}, module=__name__)
ErrorCode.__doc__ = "Return codes of every gota_* call: GOTA_OK and GOTA_ERR_*."

# sizes and units
TILE = lib.GOTA_TILE                      # world units per tile
MAP_TILES = lib.GOTA_MAP_TILES            # the map is MAP_TILES x MAP_TILES tiles
TICKS_PER_SECOND = lib.GOTA_TICKS_PER_SECOND
MAX_BATTLE_TICKS = lib.GOTA_MAX_BATTLE_TICKS
MAX_UNITS = lib.GOTA_MAX_UNITS            # unit slots of one match
STRUCTURE_KINDS = (Kind.GOD, Kind.TOWER, Kind.BARRACKS)
SEATS = lib.GOTA_SEATS                    # seats 0..SEATS-1; seat s plays for team s // SEATS_PER_TEAM
SEATS_PER_TEAM = lib.GOTA_SEATS_PER_TEAM
assert SEATS == SEATS_PER_TEAM * len([t for t in Team if t != Team.NEUTRAL])


def team_seats(team) -> range:
    """The seats of a team (Team.RED / Team.BLUE or 0 / 1): range(0, 5) for red."""
    team = int(team)
    return range(team * SEATS_PER_TEAM, (team + 1) * SEATS_PER_TEAM)


# reward signals of the arena, per lane and team (GOTA_SIGNAL_*; docs/plugins.md):
# Signal.TEAM_XP == 0, ...; SIGNAL_FIELDS are their lower-case names in index order
Signal = IntEnum("Signal", _collect("GOTA_SIGNAL_", by_value=True), module=__name__)
Signal.__doc__ = "Fields of the arena's reward signals, signals[lane, team, field]: GOTA_SIGNAL_*."
SIGNALS = lib.GOTA_SIGNALS
SIGNAL_FIELDS = tuple(s.name.lower() for s in Signal)
assert list(Signal) == list(range(SIGNALS)), "GOTA_SIGNAL_* must number 0..GOTA_SIGNALS-1"


def _script_error_name(code: int) -> str:
    return ffi.string(lib.gota_script_error_name(code)).decode()


# runtime error kinds of a BASIC script (GotaScriptStatus.error_code): code -> name, 0 "none"
SCRIPT_ERROR_NAMES = {code: _script_error_name(code) for code in range(lib.GOTA_SCRIPT_ERRORS)}
# answers to a script's commands (lastActionError, the Action* constants of docs/basic.md):
# code -> name, 0 "NoActionError", 24 "ActionAbilityLocked", ...
SCRIPT_ACTION_ERROR_NAMES = {code: ffi.string(lib.gota_script_action_error_name(code)).decode()
                             for code in range(lib.GOTA_SCRIPT_ACTION_ERRORS)}


def game_clock(tick: int) -> str:
    """Game time of a tick as the viewer's clock shows it, m:ss (TICKS_PER_SECOND ticks a game second)."""
    seconds = int(tick) // TICKS_PER_SECOND
    return f"{seconds // 60}:{seconds % 60:02d}"


__all__ = [
    "Kind", "Team", "Tier", "CreepKind", "EventType", "Result", "Material", "Region", "ErrorCode",
    "Verb", "ActionError",
    "TILE", "MAP_TILES", "TICKS_PER_SECOND", "MAX_BATTLE_TICKS", "MAX_UNITS", "STRUCTURE_KINDS",
    "SEATS", "SEATS_PER_TEAM", "team_seats", "Signal", "SIGNALS", "SIGNAL_FIELDS", "SCRIPT_ERROR_NAMES",
    "SCRIPT_ACTION_ERROR_NAMES",
    "game_clock",
]
