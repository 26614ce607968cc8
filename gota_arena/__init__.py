"""gota-arena: a trainer framework around a fast native simulator of the 5v5 MOBA
Gods of the Arena (GotA).

    from gota_arena import Match
    with Match(seed=1) as m:
        m.run()
        print(m.info, hex(m.hash()))
"""
__version__ = "0.1.0"

from .constants import (  # noqa: E402
    MAP_TILES, MAX_BATTLE_TICKS, MAX_UNITS, TICKS_PER_SECOND, TILE,
    ActionError, CreepKind, ErrorCode, EventType, Kind, Material, Region, Result, Team, Tier, Verb,
)
from .errors import (  # noqa: E402
    ArgumentRangeError, ArgumentTypeError, ClosedMatchError, ConfigConflictError, ConfigError, ConfigRangeError,
    ConfigTypeError, GotaBufferError, GotaError, GotaIndexError, GotaMemoryError, InternalError,
    MatchOverError, NullPointerError, PluginError, ReplayError, UnknownConfigKeyError,
)
from .heroes import HeroInfo, SeatStats, SpellWarning, ability_name, class_name, item_name  # noqa: E402
from .sim import Event, Match, MatchConfig, MatchInfo  # noqa: E402
from .bots import bot_config, bot_id, bot_name, bot_names  # noqa: E402
from .hookspecs import hookimpl  # noqa: E402
from .basic import BasicSyntaxError  # noqa: E402

__all__ = [
    "__version__", "hookimpl", "Match", "MatchConfig", "MatchInfo", "Event",
    "bot_names", "bot_name", "bot_id", "bot_config",
    "HeroInfo", "SeatStats", "SpellWarning", "class_name", "item_name", "ability_name",
    "Kind", "Team", "Tier", "CreepKind", "EventType", "Result", "Material", "Region", "ErrorCode",
    "Verb", "ActionError",
    "TILE", "MAP_TILES", "TICKS_PER_SECOND", "MAX_BATTLE_TICKS", "MAX_UNITS",
    "GotaError", "ConfigError", "ConfigConflictError", "UnknownConfigKeyError", "ConfigRangeError", "ConfigTypeError",
    "ArgumentRangeError", "ArgumentTypeError", "GotaIndexError", "GotaBufferError", "NullPointerError",
    "MatchOverError", "PluginError", "ReplayError", "GotaMemoryError", "InternalError", "ClosedMatchError",
    "BasicSyntaxError",
]
