"""gota-arena: a trainer framework around a fast native simulator of the 5v5 MOBA
Gods of the Arena (GotA).

    from gota_arena import Match
    with Match(seed=1) as m:
        m.run()
        print(m.info, hex(m.hash()))

Importing the package is light: the names below and the submodules load (with
the C extension) when they are first used (PEP 562), so ``import
gota_arena.hookspecs`` -- all a plugin module needs to declare its hooks --
loads neither the simulator nor torch.
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

# public name -> the submodule that defines it
_EXPORTS = {
    **dict.fromkeys(("MAP_TILES", "MAX_BATTLE_TICKS", "MAX_UNITS", "TICKS_PER_SECOND", "TILE", "ActionError",
                     "CreepKind", "ErrorCode", "EventType", "Kind", "Material", "Region", "Result", "Team", "Tier",
                     "Verb"), "constants"),
    **dict.fromkeys(("ArgumentRangeError", "ArgumentTypeError", "ClosedMatchError", "ConfigConflictError",
                     "ConfigError", "ConfigRangeError", "ConfigTypeError", "GotaBufferError", "GotaError",
                     "GotaIndexError", "GotaMemoryError", "InternalError", "MatchOverError", "NullPointerError",
                     "PluginError", "PluginWarning", "ReplayError", "UnknownConfigKeyError"), "errors"),
    **dict.fromkeys(("HeroInfo", "SeatStats", "SpellWarning", "ability_name", "class_name", "item_name"), "heroes"),
    **dict.fromkeys(("Event", "Match", "MatchConfig", "MatchInfo"), "sim"),
    **dict.fromkeys(("bot_config", "bot_id", "bot_name", "bot_names"), "bots"),
    "hookimpl": "hookspecs",
    "BasicSyntaxError": "basic",
}

# the submodules, loaded on first attribute access (``gota_arena.plugins``) or import
_SUBMODULES = ("adapters", "arena", "basic", "bots", "config", "constants", "contract", "errors", "evaluate",
               "files", "frames", "heroes", "hookspecs", "layout", "learner_env", "map", "masking", "nets",
               "opponents", "plugins", "policies", "replay", "rewards", "script", "sim", "testing", "train", "viewer")

__all__ = [
    "__version__", "hookimpl", "Match", "MatchConfig", "MatchInfo", "Event",
    "bot_names", "bot_name", "bot_id", "bot_config",
    "HeroInfo", "SeatStats", "SpellWarning", "class_name", "item_name", "ability_name",
    "Kind", "Team", "Tier", "CreepKind", "EventType", "Result", "Material", "Region", "ErrorCode",
    "Verb", "ActionError",
    "TILE", "MAP_TILES", "TICKS_PER_SECOND", "MAX_BATTLE_TICKS", "MAX_UNITS",
    "GotaError", "ConfigError", "ConfigConflictError", "UnknownConfigKeyError", "ConfigRangeError", "ConfigTypeError",
    "ArgumentRangeError", "ArgumentTypeError", "GotaIndexError", "GotaBufferError", "NullPointerError",
    "MatchOverError", "PluginError", "PluginWarning", "ReplayError", "GotaMemoryError", "InternalError",
    "ClosedMatchError", "BasicSyntaxError",
]


def __getattr__(name: str):
    """Load a public name, or a submodule, on first use (PEP 562)."""
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value   # later lookups do not come here
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__) | set(_SUBMODULES))
