"""The lockstep arena (gota_arena.arena, native/batch/batch.c)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from gota_arena import ArgumentRangeError, ArgumentTypeError
from gota_arena.arena import SIGNAL_INDEX, SIGNALS, Arena
from gota_arena.contract import MASK_SIZE, OBS_SIZE

SIZES = np.array([8, 25, 49, 4, 6])


def random_actions(rng, agents):
    return (rng.integers(0, 1 << 30, size=(agents, 5)) % SIZES).astype(np.int32)


def test_counts_and_shapes():
    with Arena(lanes=3, self_play=False) as a:
        assert a.agents == 15
        assert a.obs.shape == (15, OBS_SIZE) and a.masks.shape == (15, MASK_SIZE)
        out = a.step(np.zeros((15, 5), np.int32))
        assert out.obs is a.obs and out.terminals.shape == (15,) and out.terminals.dtype == np.uint8
        assert not hasattr(out, "rewards")   # rewards are a reward mode's (gota_arena.rewards), from signals
        assert out.stats.shape == (3,) and out.signals.shape == (3, 2, SIGNALS)
        assert a.lane(1)["tick"] == 4
    with Arena(lanes=3, self_play=True) as a:
        assert a.agents == 30
        assert a.agent_seat(12) == (1, 2)


def test_seeds_sides_opponents():
    with Arena(lanes=1, self_play=False, opponents=("base", "rusher"), seed=5) as a:
        assert a.lane(0)["learner_team"] == 1 and a.lane(0)["opponent"] == 3
        assert a.agent_seat(0) == (0, 5)
        a.reset(14)
        assert a.lane(0)["learner_team"] == 0 and a.lane(0)["opponent"] == 4
        a.reset(-1)
        assert a.lane(0)["seed"] == 15


def run(threads, steps=40, lanes=2):
    rng = np.random.default_rng(3)
    hashes, chunks = [], []
    with Arena(lanes=lanes, action_ticks=6, self_play=True, threads=threads, max_ticks=120, seed=2) as a:
        for _ in range(steps):
            out = a.step(random_actions(rng, a.agents))
            chunks.append((out.obs.copy(), out.masks.copy(), out.terminals.copy(),
                           out.stats.copy(), out.signals.copy()))
            hashes.append([a.lane_hash(i) for i in range(lanes)])
    return hashes, chunks


def test_determinism_and_threads():
    h1, c1 = run(1)
    h2, c2 = run(1)
    h3, c3 = run(2)
    assert h1 == h2 == h3
    for x, y, z in zip(c1, c2, c3):
        for p, q, r in zip(x, y, z):
            assert p.tobytes() == q.tobytes() == r.tobytes()


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs CPU affinity control and at least 2 usable CPUs")
def test_threads_follow_cpu_affinity():
    """threads=0 (and any larger request) is capped at the CPUs the process may run on, not the machine's."""
    code = ("import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
            "from gota_arena.arena import Arena; "
            "print(Arena(lanes=4, threads=0).threads, Arena(lanes=4, threads=2).threads)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "1"]
    with Arena(lanes=4, threads=0) as a:
        assert a.threads == min(4, len(os.sched_getaffinity(0)))


def test_lane_restart():
    with Arena(lanes=2, action_ticks=24, self_play=False, max_ticks=240) as a:
        finishes = 0
        for step in range(25):
            out = a.step(np.zeros((10, 5), np.int32))
            done = out.stats["finished"] == 1
            finishes += int(done.sum())
            if (step + 1) % 10 == 0:
                assert done.all()
                assert (out.stats["ticks"] == 240).all() and (out.stats["outcome"] == -1).all()
                assert out.terminals.all() and out.truncations.all()
                assert (out.signals[:, :, SIGNAL_INDEX["done"]] == 1).all()
                assert a.lane(0)["tick"] == 0
            else:
                assert not done.any() and not out.terminals.any()
        assert finishes >= 4
        assert a.lane(0)["seed"] == 4 and a.lane(1)["seed"] == 5


def test_bad_actions_raise_before_running():
    with Arena(lanes=2, self_play=False) as a:
        tick = a.lane(0)["tick"]
        with pytest.raises(ArgumentTypeError, match="shape"):
            a.step(np.zeros((10, 4), np.int32))
        with pytest.raises(ArgumentTypeError, match="integers"):
            a.step(np.zeros((10, 5), np.float32))
        for head, bad in enumerate((8, 25, 49, 4, 6)):
            actions = np.zeros((10, 5), np.int32)
            actions[3, head] = bad
            with pytest.raises(ArgumentRangeError, match=r"actions\[3, %d\]" % head):
                a.step(actions)
        actions = np.zeros((10, 5), np.int32)
        actions[0, 0] = -1
        with pytest.raises(ArgumentRangeError):
            a.step(actions)
        assert a.lane(0)["tick"] == tick
        with pytest.raises(ArgumentRangeError):
            a.reset(-2)


def test_bad_arguments_and_close():
    with pytest.raises(ArgumentRangeError):
        Arena(lanes=0)
    with pytest.raises(ArgumentRangeError):
        Arena(lanes=1, action_ticks=25)
    with pytest.raises(Exception):
        Arena(lanes=1, opponents=("external",))
    a = Arena(lanes=1)
    a.close()
    a.close()
    with pytest.raises(Exception, match="closed"):
        a.step(np.zeros((10, 5), np.int32))


def test_set_opponent_per_lane():
    with Arena(lanes=2, self_play=True, max_ticks=240) as a:
        a.set_opponent(1, "puller")
        a.reset(0)
        assert a.lane(0)["opponent"] == 0 and a.lane(1)["opponent"] == 6
        bot_rows = a.obs[15:20]
        assert not bot_rows.any() and (a.masks[15:20].sum(axis=1) == 1).all()
        assert a.obs[10:15].any()
        a.set_opponent(1, None)
        a.reset(-1)
        assert a.lane(1)["opponent"] == 0
    with Arena(lanes=1, self_play=False) as a:
        with pytest.raises(Exception, match="only a self-play arena"):
            a.set_opponent(0, "external")
        with pytest.raises(Exception, match="unknown bot"):
            a.set_opponent(0, "nobody")


def test_arena_argument_errors_name_the_arena():
    from gota_arena.errors import ArgumentRangeError, ClosedMatchError
    with pytest.raises(ArgumentRangeError, match=r"threads=1099511627776 must be in 0\.\.65536"):
        Arena(lanes=1, threads=2 ** 40)
    arena = Arena(lanes=1)
    arena.close()
    with pytest.raises(ClosedMatchError, match="this Arena was closed; create a new Arena"):
        arena.reset(0)


# ---- memory: an arena that cannot fit is refused before anything is allocated -------------------------

def test_memory_estimate_comes_from_the_c_sizes_and_the_buffers():
    from gota_arena import arena as arena_mod
    from gota_arena._native import ffi, lib
    native = ffi.new("int64_t *")
    assert lib.gota_batch_bytes(65536, 1, 1, native) == lib.GOTA_OK
    need = arena_mod.memory_needed(65536, self_play=True, threads=1)
    buffers = 65536 * 10 * (4 * OBS_SIZE + MASK_SIZE)   # the observations and masks alone
    assert need > native[0] + buffers
    assert 40 * 2**30 < need < 60 * 2**30, "65,536 self-play lanes take about 48 GiB"
    assert arena_mod.memory_needed(8, self_play=False) < arena_mod.memory_needed(8, self_play=True)
    assert lib.gota_batch_bytes(0, 1, 0, native) == lib.GOTA_ERR_RANGE
    with pytest.raises(ArgumentRangeError, match="lanes must be 1..65536"):
        arena_mod.memory_needed(65537)


def test_memory_estimate_is_not_below_what_an_arena_takes():
    """The resident memory a small arena adds stays within its estimate."""
    from gota_arena.arena import memory_needed

    def resident():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    if not os.path.exists("/proc/self/statm"):
        pytest.skip("needs /proc")
    with Arena(lanes=1, threads=1):   # the map and vision tables, shared by every later match, are built once
        pass
    before = resident()
    with Arena(lanes=16, self_play=True, threads=1) as a:
        a.step(np.zeros((a.agents, 5), np.int32))
        grown = resident() - before
    estimate = memory_needed(16, self_play=True, threads=1)
    assert grown <= 1.1 * estimate, (grown, estimate)   # measured: 1.00x (freed pages reused can make it less)


def test_an_arena_too_big_for_the_memory_is_refused(monkeypatch):
    from gota_arena import ConfigError
    from gota_arena import arena as arena_mod
    from gota_arena.errors import ConfigRangeError
    monkeypatch.setattr(arena_mod, "available_memory", lambda: (8 * 2**30, "the memory available (MemAvailable)"))
    with pytest.raises(ConfigRangeError) as refused:
        Arena(lanes=65536)   # passes the lanes range 1..65536, but needs ~50 GiB
    message = str(refused.value)
    assert isinstance(refused.value, ConfigError)
    needed = f"needs about {arena_mod.memory_needed(65536, self_play=True) / 2**30:.1f} GiB"
    for words in ("Arena(lanes=65536) " + needed, "GiB of memory",
                  "the memory available (MemAvailable) is 8.0 GiB", "use fewer lanes", "GOTA_ARENA_MEMORY_CHECK=0"):
        assert words in message, message
    with Arena(lanes=2, self_play=False, threads=1) as a:   # a small one still fits
        assert a.lanes == 2
    monkeypatch.setattr(arena_mod, "available_memory", lambda: (1 * 2**20, "the physical memory"))
    with pytest.raises(ConfigRangeError, match=r"Arena\(lanes=2\) needs .* MiB .* the physical memory is 1.0 MiB"):
        Arena(lanes=2, self_play=False, threads=1)
    monkeypatch.setenv("GOTA_ARENA_MEMORY_CHECK", "0")   # the way around a wrong figure
    with Arena(lanes=2, self_play=False, threads=1) as a:
        assert a.lanes == 2


def test_available_memory_reads_the_system():
    from gota_arena.arena import available_memory
    available, what = available_memory()
    if available is None:
        pytest.skip("this system tells no memory figure")
    physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert 0 < available <= physical and what
