"""The bundled bots by name: the simulator plays a seat itself when its config key
``bot_<seat>`` names a bot (ids ``GOTA_BOT_*`` in native/gota.h; docs/bots.md).

    Match(seed=1, bots={"red": "base", "blue": "puller"})
    Match(seed=1, bots={0: "puller", "blue": "idle"})     # seat 0 a bot, 1..4 external
    bot_config({"red": "rusher"})  -> {"bot_0": 4, ..., "bot_4": 4}

Keys of ``bots``: "red" / "blue" (all five seats of the team), or a seat 0..9 (a
seat key wins over its team key). Values: a bot name (case-insensitive) or id.
"""
from __future__ import annotations

from typing import Mapping

from ._native import ffi, lib
from .constants import SEATS, Team, team_seats
from .errors import ConfigRangeError, ConfigTypeError

_TEAMS = {team.name.lower(): team_seats(team) for team in (Team.RED, Team.BLUE)}


def bot_names() -> tuple:
    """The bot names in id order: ("external", "idle", "random", "base", "rusher",
    "baseline", "puller"); "external" (id 0) is a seat driven from outside."""
    return tuple(ffi.string(lib.gota_bot_name(i)).decode() for i in range(lib.GOTA_BOTS))


def bot_id(bot) -> int:
    """The id of a bot name or id; raises ConfigRangeError naming the known bots."""
    names = bot_names()
    if isinstance(bot, str):
        key = bot.strip().lower()
        if key in names:
            return names.index(key)
        raise ConfigRangeError(f"unknown bot {bot!r}; the bots are {', '.join(names[1:])} "
                               "('external' leaves a seat to your commands)")
    if isinstance(bot, bool) or not hasattr(type(bot), "__index__"):
        raise ConfigTypeError(f"a bot is a name or an id, got {type(bot).__name__} {bot!r}; "
                              f"the bots are {', '.join(names[1:])}")
    if not 0 <= int(bot) < len(names):
        raise ConfigRangeError(f"unknown bot id {bot!r}; ids are 0..{len(names) - 1} "
                               f"({', '.join(f'{i}={n}' for i, n in enumerate(names))})")
    return int(bot)


def bot_name(bot: int) -> str:
    """The name of bot id ``bot``."""
    return bot_names()[bot_id(bot)]


def bot_config(bots: Mapping) -> dict:
    """Config keys ``bot_0``..``bot_9`` for a ``bots`` mapping (see the module doc);
    only the seats it names appear in the result."""
    if not isinstance(bots, Mapping):
        raise ConfigTypeError(f"bots must be a mapping like {{'red': 'base', 'blue': 'puller'}}, "
                              f"got {type(bots).__name__}")
    out = {}
    seat_keys = {}
    for key, value in bots.items():
        if isinstance(key, str) and key.strip().lower() in _TEAMS:
            for seat in _TEAMS[key.strip().lower()]:
                out[f"bot_{seat}"] = bot_id(value)
        elif not isinstance(key, (bool, str)) and hasattr(type(key), "__index__") and 0 <= int(key) < SEATS:
            seat_keys[f"bot_{int(key)}"] = bot_id(value)
        else:
            raise ConfigRangeError(f"bots key {key!r} is not a team ('red', 'blue') or a seat 0..9")
    out.update(seat_keys)
    return out
