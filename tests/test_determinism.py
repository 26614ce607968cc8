"""Full scripted matches (ten heroes fighting, up to 28,800 ticks) give the same
state hash for the same seed: in one process, in fresh processes, interleaved with
other matches, across -O0 and -O2 native builds, and against the golden hashes in
tests/data/golden_hashes.json."""
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from gota_arena import MAX_BATTLE_TICKS, Match, script
from tests.conftest import NATIVE, ROOT, have_toolchain
from tests.regen_golden import GOLDEN, REGENERATE, SEEDS, play

TICKS = MAX_BATTLE_TICKS
SEED = SEEDS[0]


@pytest.fixture(scope="module")
def reference():
    """seed -> hash of a full match played alone in this process."""
    return {seed: play(seed, TICKS)[1] for seed in SEEDS}


def test_full_match_runs_to_the_end():
    info, _ = play(SEED, TICKS)
    assert info.tick == TICKS or info.result in ("win", "draw")
    assert info.result != "running"
    plain = Match(seed=SEED, heroes=0)      # a creep-only match runs to the timeout
    plain.run()
    assert plain.info.result == "timeout" and plain.info.tick == TICKS


def test_same_seed_same_hash_in_one_process(reference):
    assert play(SEED, TICKS)[1] == reference[SEED]
    assert len(set(reference.values())) == len(SEEDS), "different seeds should differ"


def test_same_hash_in_fresh_processes(reference):
    code = f"from tests.regen_golden import play\nprint(hex(play({SEED}, {TICKS})[1]))"

    def fresh(_):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return int(done.stdout.strip(), 16)

    with ThreadPoolExecutor(2) as pool:
        hashes = list(pool.map(fresh, range(2)))
    assert hashes == [reference[SEED]] * 2


def test_interleaved_matches_match_solo_runs(reference):
    """Six matches alive at once, stepped one tick each in turn."""
    matches = [Match(seed=seed, max_ticks=TICKS) for seed in (*SEEDS, 4, 5, 6)]
    try:
        live = list(matches)
        while live:
            for m in live:
                if m.tick % script.EVERY == 0:
                    script.give_orders(m)
                m.step(1)
            live = [m for m in live if not m.over]
        for seed, m in zip(SEEDS, matches):
            assert m.hash() == reference[seed], f"seed {seed}"
    finally:
        for m in matches:
            m.close()


def test_golden_hashes(reference):
    assert GOLDEN.exists(), f"{GOLDEN} is missing; run `{REGENERATE}`"
    golden = json.loads(GOLDEN.read_text())
    assert golden.get("regenerate") == REGENERATE
    for seed in SEEDS:
        entry = golden.get(str(seed))
        assert entry, f"no golden hash for seed {seed}; run `{REGENERATE}`"
        assert entry["ticks"] == TICKS or entry.get("result") in ("win", "draw")
        assert int(entry["hash"], 16) == reference[seed], (
            f"seed {seed}: hash 0x{reference[seed]:016x} != golden {entry['hash']}. If a rule change is "
            f"meant to change the simulation, run `{REGENERATE}` and say so in the commit.")


@pytest.mark.skipif(not have_toolchain(), reason="make or cc is not installed")
def test_same_hash_at_O0_and_O2(reference):
    def build_and_run(opt):
        done = subprocess.run(["make", "-C", str(NATIVE), "demo", f"OPT={opt}"], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        demo = NATIVE / "build" / f"gota_demo{opt}"
        done = subprocess.run([str(demo), str(SEED), str(TICKS)], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        found = re.search(r"hash=0x([0-9a-fA-F]{16})", done.stdout)
        assert found, done.stdout
        return int(found.group(1), 16)

    with ThreadPoolExecutor(2) as pool:
        o0, o2 = pool.map(build_and_run, ("-O0", "-O2"))
    assert o0 == o2, f"-O0 0x{o0:016x} != -O2 0x{o2:016x}"
    assert o2 == reference[SEED], (f"native 0x{o2:016x} != Python Match 0x{reference[SEED]:016x}; if native/ "
                                   f"changed since the last `pip install -e .`, run it again to rebuild the extension")
