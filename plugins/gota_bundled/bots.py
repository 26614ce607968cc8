"""Every native bot (docs/bots.md) as an opponent, by its own name."""
from gota_arena import bot_names, hookimpl
from gota_arena.opponents import BotOpponent

DESCRIPTIONS = {
    "idle": "does nothing; stays in its spawn room",
    "random": "random commands from its own seeded stream",
    "base": "base.bas: nearest enemy, potions, class gear",
    "rusher": "rusher.bas: the team gathers and rushes the god",
    "baseline": "baseline.bas: base plus its W strike",
    "puller": "puller.bas: lanes, last hits, spells, retreats, camp pulls",
}


@hookimpl
def gota_register_opponents(register):
    for name in bot_names()[1:]:   # 0 is "external": no bot
        register(name, lambda _bot=name: BotOpponent(_bot), f"native bot: {DESCRIPTIONS.get(name, name)}")
