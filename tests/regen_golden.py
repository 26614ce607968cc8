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


def play(seed: int, ticks: int = TICKS):
    """A full match under the fixed hero script (gota_arena.script, the same as
    native/gota_demo.c); returns (info, hash)."""
    from gota_arena import Match, script

    with Match(seed=seed, max_ticks=ticks) as m:
        script.run(m)
        return m.info, m.hash()


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
