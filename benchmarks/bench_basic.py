"""BASIC scripts: speed and a ladder against the C bots. ``python benchmarks/bench_basic.py
[--speed-seeds 3] [--matches 20] [--procs 2] [--write]``.

Speed: full matches (28,800 battle ticks unless a god falls) with the bundled
``base.bas`` on all ten seats, one process, one core, time inside ``run()``;
the same seeds with the C bot ``base`` on all ten seats as the reference (the
simulator's own cost). Reports ticks/s by wall clock and by process CPU time (the
CPU figure is what one core delivers; the wall figure also shows the machine's
other load), and the instructions a script seat runs per tick.

Ladder: seeded full matches, A red on odd seeds and blue on even ones, five seats
of one player per team; each ``.bas`` port next to its C bot on the same seeds, so
"plays like it" can be read off the table. With ``--write`` it writes both to the
``## bench_basic`` section of benchmarks/RESULTS.md (other sections kept).
Figures are reported, never asserted.
"""
import argparse
import datetime
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "plugins")]

from gota_arena import Match  # noqa: E402
from gota_arena.basic import bundled_scripts, compile_file  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bot_ladder import table  # noqa: E402
from bench_sim import cpu_model, nproc  # noqa: E402
from results import RESULTS, add_write_option, write_section  # noqa: E402

SECTION = "## bench_basic"
PAIRINGS = (
    ("base.bas", "idle"), ("base", "idle"),
    ("base.bas", "base"), ("rusher.bas", "rusher"),   # each port against its C bot
    ("rusher.bas", "base"), ("rusher", "base"),
    ("base.bas", "rusher"), ("base", "rusher"),
    ("puller.bas", "puller"),
    ("puller.bas", "base"), ("puller", "base"),
)
_PROGRAMS = {}


def side(player: str):
    """Match keyword arguments for one team: a script (name.bas) or a C bot."""
    if player.endswith(".bas"):
        if player not in _PROGRAMS:
            _PROGRAMS[player] = compile_file(bundled_scripts()[player])
        return "scripts", _PROGRAMS[player]
    return "bots", player


def match_kwargs(red: str, blue: str, **config) -> dict:
    kw = {"scripts": {}, "bots": {}}
    for team, player in (("red", red), ("blue", blue)):
        key, value = side(player)
        kw[key][team] = value
    return {k: v for k, v in kw.items() if v} | config


def speed(seed: int, player: str):
    """(ticks, wall seconds, CPU seconds, instructions per script seat per tick) of one full match."""
    with Match(seed=seed, **match_kwargs(player, player)) as m:
        wall, cpu = time.perf_counter(), time.process_time()
        m.run()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        ticks = m.info.tick
        per_tick = 0.0
        if m.scripts:
            per_tick = statistics.mean(m.script_status(s).instructions for s in range(10)) / ticks
    return ticks, wall, cpu, per_tick


def play(job):
    a, b, seed = job
    a_red = seed % 2 == 1
    red, blue = (a, b) if a_red else (b, a)
    with Match(seed=seed, **match_kwargs(red, blue)) as m:
        start = time.perf_counter()
        m.run()
        seconds = time.perf_counter() - start
        info = m.info
    winner = None
    if info.result == "win":
        winner = a if (info.winner == "red") == a_red else b
    return a, b, seed, winner, info.result, info.tick, seconds


def ladder(matches: int, procs: int):
    jobs = [(a, b, seed) for a, b in PAIRINGS for seed in range(1, matches + 1)]
    rows = {}
    with Pool(procs) as pool:
        for a, b, seed, winner, result, n, s in pool.imap_unordered(play, jobs):
            row = rows.setdefault((a, b), {"a": 0, "b": 0, "none": 0, "ticks": []})
            row["a" if winner == a else "b" if winner == b else "none"] += 1
            row["ticks"].append(n)
    return [(a, b, rows[(a, b)]) for a, b in PAIRINGS]


def load() -> str:
    try:
        return ", ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "?"


def busy(*loads: str) -> bool:
    """Whether a 1-minute load average above 2 (the machine's cores) was seen."""
    return any(text != "?" and float(text.split(",")[0]) > 2 for text in loads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-seeds", type=int, default=3, help="full matches per speed figure (default 3)")
    parser.add_argument("--matches", type=int, default=20, help="seeded matches per ladder pairing (default 20)")
    parser.add_argument("--procs", type=int, default=2, help="ladder worker processes (default 2)")
    add_write_option(parser)
    args = parser.parse_args()
    load_before = load()
    lines = []
    figures = {}
    for player in ("base.bas", "base"):
        runs = [speed(seed, player) for seed in range(1, args.speed_seeds + 1)]
        wall = statistics.median(t / w for t, w, _, _ in runs)
        cpu = statistics.median(t / c for t, _, c, _ in runs)
        figures[player] = (wall, cpu)
        per = statistics.mean(p for *_, p in runs)
        label = "base.bas on all ten seats" if player.endswith(".bas") else "the C bot base on all ten seats"
        detail = ", ".join(f"{t:,} ticks {t / c:,.0f}/s" for t, _, c, _ in runs)
        extra = f"; {per:.0f} instructions per script seat per tick" if per else ""
        lines.append(f"- {label}: median **{cpu:,.0f} ticks/s** by CPU time, {wall:,.0f} by wall clock "
                     f"({detail}{extra})")
        print(lines[-1])
    script_cost = 1e6 * (1 / figures["base.bas"][1] - 1 / figures["base"][1])
    lines.append(f"- the scripts' share: {script_cost:.1f} us per tick for ten seats over the C bots' "
                 f"({script_cost / 10:.2f} us per seat per tick)")
    print(lines[-1])
    start = time.perf_counter()
    rows = ladder(args.matches, args.procs)
    wall = time.perf_counter() - start
    text = table(rows, args.matches)
    print(text)
    load_after = load()
    print(f"ladder: {len(rows) * args.matches} matches, {wall:.0f} s wall on {args.procs} processes; load average "
          f"before {load_before}, after {load_after}"
          + (" (above 2: other jobs shared the machine)" if busy(load_before, load_after) else ""))
    if args.write:
        write_section(SECTION, [
            f"- date: {datetime.date.today().isoformat()}",
            f"- command: `python benchmarks/bench_basic.py --speed-seeds {args.speed_seeds} --matches "
            f"{args.matches} --procs {args.procs} --write`",
            f"- machine: {nproc()} CPUs ({cpu_model()}); load average before {load_before}, after {load_after} "
            + ("(above 2: other jobs shared the machine, so the wall-clock figures are slowed; the CPU-time "
               "figure is the one-core figure)" if busy(load_before, load_after)
               else "(the CPU-time figure is the one-core figure)"),
            f"- speed: full matches, seeds 1..{args.speed_seeds}, one process, time inside run()",
            *lines,
            "- target of the issue: a base-like script on all ten seats keeps a full match at or above "
            f"10,000 ticks/s on one core: {'met' if figures['base.bas'][1] >= 10000 else 'NOT met'} "
            f"({figures['base.bas'][1]:,.0f} ticks/s of CPU time)",
            f"- ladder: {args.matches} matches per pairing, seeds 1..{args.matches}, A red on odd seeds, "
            "five seats of one player per team, full matches; each .bas port next to its C bot on the same seeds",
            "", text, ""])
        print(f"wrote the {SECTION} section of {RESULTS}")


if __name__ == "__main__":
    sys.exit(main())
