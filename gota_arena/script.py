"""A fixed hero script: the same orders native/gota_demo.c gives, issued through the
command API, so a Python match and the C demo reach the same state hash.

Every ``EVERY`` ticks, for each seat: spend points R, W, E, Q; a living hero with a
target casts W at it and E and R at its position; one without a target attack-moves
to the enemy god. It is not a bot (bots live in the simulator); it exists to drive
full ten-hero matches for golden hashes, benchmarks and the demo.
"""
from .constants import SEATS, Kind

EVERY = 48


def give_orders(match) -> None:
    """One round of the script's commands for all ten seats."""
    units = match.units.copy()
    by_id = {int(u["id"]): u for u in units if u["kind"] != Kind.NONE}
    gods = units[units["kind"] == Kind.GOD]
    for seat in range(SEATS):
        hero = match.hero(seat)
        me = units[hero.unit_index]
        for slot in (3, 1, 2, 0):
            match.level(seat, slot)
        if not me["alive"]:
            continue
        target = by_id.get(int(me["target_id"])) if me["target_id"] >= 0 else None
        if target is not None:
            match.cast(seat, 1, target=int(target["id"]))
            match.cast(seat, 2, point=(int(target["x"]), int(target["z"])))
            match.cast(seat, 3, point=(int(target["x"]), int(target["z"])))
        else:
            for god in gods[gods["team"] != me["team"]]:
                match.attack_move(seat, int(god["x"]), int(god["z"]))


def run(match, on_step=None) -> None:
    """Play ``match`` to its end under the script; ``on_step(match)`` after each step."""
    while not match.over:
        give_orders(match)
        match.step(EVERY)
        if on_step:
            on_step(match)
