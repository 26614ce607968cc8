"""Regenerate tests/data/golden_hashes.json: ``python -m tests.regen_golden``.

Run it only when a rule change is meant to change the simulation, and say so in the
commit: the golden hashes pin every authoritative field of full matches.
"""
import json
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "data" / "golden_hashes.json"
SEEDS = (1, 2, 3)
TICKS = 28800
REGENERATE = "python -m tests.regen_golden"


SCRIPT_EVERY = 48


def script(m) -> None:
    """The heroes' fixed script, the same as native/gota_demo.c's: spend points
    R, W, E, Q; with a target, cast W at it and E and R at its position; without
    one, attack-move to the enemy god."""
    from gota_arena import Kind

    units = m.units.copy()
    by_id = {int(u["id"]): u for u in units if u["kind"] != Kind.NONE}
    for seat in range(10):
        hero = m.hero(seat)
        me = units[hero.unit_index]
        for slot in (3, 1, 2, 0):
            m.level(seat, slot)
        if not me["alive"]:
            continue
        target = by_id.get(int(me["target_id"])) if me["target_id"] >= 0 else None
        if target is not None:
            m.cast(seat, 1, target=int(target["id"]))
            m.cast(seat, 2, point=(int(target["x"]), int(target["z"])))
            m.cast(seat, 3, point=(int(target["x"]), int(target["z"])))
        else:
            for god in units[(units["kind"] == Kind.GOD) & (units["team"] != me["team"])]:
                m.attack_move(seat, int(god["x"]), int(god["z"]))


def play(seed: int, ticks: int = TICKS, match=None):
    """A full scripted match (or ``ticks`` of it); returns (info, hash)."""
    from gota_arena import Match

    m = match or Match(seed=seed, max_ticks=ticks)
    try:
        while not m.over:
            script(m)
            m.step(SCRIPT_EVERY)
        return m.info, m.hash()
    finally:
        m.close()


def main() -> None:
    data = {"regenerate": REGENERATE}
    for seed in SEEDS:
        info, value = play(seed)
        data[str(seed)] = {"ticks": info.tick, "result": info.result, "hash": f"0x{value:016x}"}
        print(f"seed {seed}: {data[str(seed)]}")
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(data, indent=2) + "\n")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
