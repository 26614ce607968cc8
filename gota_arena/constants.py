"""Enums and sizes of the simulator, read from the C #defines of native/gota.h.

No number is retyped here: each enum collects the ``lib.GOTA_<PREFIX>_*`` constants
the compiler checked against the header, so the C side stays the single source.
"""
from enum import IntEnum, IntFlag

from ._native import lib


def _collect(prefix: str) -> dict:
    return {name[len(prefix):]: getattr(lib, name) for name in sorted(dir(lib)) if name.startswith(prefix)}


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


def game_clock(tick: int) -> str:
    """Game time of a tick as the viewer's clock shows it, m:ss (TICKS_PER_SECOND ticks a game second)."""
    seconds = int(tick) // TICKS_PER_SECOND
    return f"{seconds // 60}:{seconds % 60:02d}"


__all__ = [
    "Kind", "Team", "Tier", "CreepKind", "EventType", "Result", "Material", "Region", "ErrorCode",
    "Verb", "ActionError",
    "TILE", "MAP_TILES", "TICKS_PER_SECOND", "MAX_BATTLE_TICKS", "MAX_UNITS", "STRUCTURE_KINDS",
    "game_clock",
]
