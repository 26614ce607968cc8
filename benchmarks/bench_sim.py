"""Single-match simulator speed and memory: ``python benchmarks/bench_sim.py [--matches 5]``.

Plays N full matches (different seeds) one after another through ``Match`` in two
kinds: ten heroes fighting under the fixed script of gota_arena.script (until a god
falls) and creep-only matches (heroes=0, 28,800 ticks). Prints ticks/s per run and
the medians (time inside the simulator's step calls only), the peak RSS and the
memory of one match (RSS growth over 20 new matches); with ``--write`` it also
writes them to the ``## bench_sim`` section of benchmarks/RESULTS.md. Figures are
printed, never asserted.
"""
import argparse
import datetime
import os
import platform
import re
import resource
import statistics
import sys
import time
from pathlib import Path

from gota_arena import MAX_BATTLE_TICKS, Match, script
from results import RESULTS, add_write_option, write_section

SECTION = "## bench_sim"


def rss_bytes() -> int:
    """Current resident set size (Linux /proc; falls back to the peak)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return peak_rss_bytes()


def peak_rss_bytes() -> int:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # Linux reports KiB


def nproc() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or "unknown"
    found = re.search(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)
    return found.group(1).strip() if found else platform.machine()


def play(seed: int, ticks: int, heroes: bool):
    """(ticks, seconds inside step, result) of one full match."""
    with Match(seed=seed, max_ticks=ticks, heroes=int(heroes)) as m:
        seconds = 0.0
        while not m.over:
            if heroes:
                script.give_orders(m)
            start = time.perf_counter()
            m.step(script.EVERY if heroes else ticks)
            seconds += time.perf_counter() - start
        info = m.info
    return info.tick, seconds, info.result


def match_bytes(count: int = 20) -> float:
    """RSS growth per live match, over ``count`` new matches."""
    Match(seed=0).close()  # warm up: shared tables, allocator arenas
    before = rss_bytes()
    matches = [Match(seed=seed) for seed in range(count)]
    after = rss_bytes()
    for m in matches:
        m.close()
    return (after - before) / count


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5, help="full matches to play (default 5)")
    parser.add_argument("--ticks", type=int, default=MAX_BATTLE_TICKS, help="max ticks per match")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match (then +1, +2, ...)")
    add_write_option(parser)
    args = parser.parse_args(argv)

    medians, lines = {}, []
    for kind, heroes in (("ten scripted heroes", True), ("creeps only", False)):
        rates = []
        for k in range(args.matches):
            seed = args.seed + k
            ticks, seconds, result = play(seed, args.ticks, heroes)
            rates.append(ticks / seconds)
            print(f"{kind}, seed {seed}: {ticks} ticks in {seconds:.3f} s = {rates[-1]:,.0f} ticks/s ({result})")
        medians[kind] = statistics.median(rates)
        print(f"{kind}: median {medians[kind]:,.0f} ticks/s over {len(rates)} matches")
        lines.append(f"- {kind}: ticks/s per match {', '.join(f'{r:,.0f}' for r in rates)}; "
                     f"median **{medians[kind]:,.0f} ticks/s**")
    per_match = match_bytes()
    peak = peak_rss_bytes()
    print(f"peak RSS {peak / 2**20:.1f} MiB; one match {per_match / 2**10:,.0f} KiB (RSS growth over 20 matches)")

    if args.write:
        command = "python benchmarks/bench_sim.py" + ("" if argv is None and len(sys.argv) == 1
                                                      else " " + " ".join(sys.argv[1:] if argv is None else argv))
        write_section(SECTION, [
            f"- date: {datetime.date.today().isoformat()}",
            f"- command: `{command}`",
            f"- machine: {nproc()} CPUs (nproc), {cpu_model()}; Python {platform.python_version()}",
            f"- matches: {args.matches} of each kind, up to {args.ticks} ticks, single-threaded, "
            f"seeds {args.seed}..{args.seed + args.matches - 1}; time inside step() only",
            *lines,
            f"- peak RSS: {peak / 2**20:.1f} MiB",
            f"- memory per match: {per_match / 2**10:,.0f} KiB (RSS growth over 20 new matches)",
        ])
        print(f"wrote {SECTION} in {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
