"""The project's own BASIC bots (docs/basic.md) as opponents, by file name.

Each is a ``ScriptOpponent``: the simulator runs the script on every seat of the
other team, one VM per seat. A third-party plugin registers its own ``.bas``
files the same way:

    @hookimpl
    def gota_register_opponents(register):
        register("my_bot.bas", lambda: ScriptOpponent(Path(__file__).parent / "my_bot.bas"), "my BASIC bot")

A config may also name any ``.bas`` file by path (``opponent=path/to/bot.bas``);
``gota_arena.plugins.opponent`` compiles it on the spot.
"""
from pathlib import Path

from gota_arena import hookimpl
from gota_arena.basic import ScriptOpponent

BAS = Path(__file__).resolve().parent / "bas"
SCRIPTS = {"base.bas": BAS / "base.bas", "rusher.bas": BAS / "rusher.bas", "puller.bas": BAS / "puller.bas"}
DESCRIPTIONS = {
    "base.bas": "the C bot base ported to BASIC: nearest enemy, potions, class gear",
    "rusher.bas": "the C bot rusher ported to BASIC: the team gathers and rushes the god",
    "puller.bas": "the C bot puller ported to BASIC: lanes, spells, retreats, camp pulls, then the push",
}


@hookimpl
def gota_register_opponents(register):
    for name, path in SCRIPTS.items():
        register(name, lambda _path=path, _name=name: ScriptOpponent(_path, name=_name),
                 f"BASIC script: {DESCRIPTIONS[name]}")
