"""BASIC scripts: speed and a ladder against the C bots. ``python benchmarks/bench_basic.py
[--speed-seeds 3] [--matches 20] [--procs 2] [--write]``; or a compatibility table of a folder of
scripts: ``python benchmarks/bench_basic.py --scripts DIR [--seeds 4] [--procs 2] [--write]``.

Speed: full matches (28,800 battle ticks unless a god falls) with the bundled
``base.bas`` on all ten seats, one process, one core, time inside ``run()``;
the same seeds with the C bot ``base`` on all ten seats as the reference (the
simulator's own cost). Reports ticks/s by wall clock and by process CPU time (the
CPU figure is what one core delivers; the wall figure also shows the machine's
other load), and the instructions a script seat runs per tick.

Ladder: seeded full matches, A red on odd seeds and blue on even ones, five seats
of one player per team; each ``.bas`` port next to its C bot on the same seeds, so
"plays like it" can be read off the table. With ``--write`` it writes both to the ``## bench_basic``
section of benchmarks/RESULTS.md (other sections kept). Figures are reported,
never asserted.

Scripts (``--scripts DIR``): every ``.bas`` file under DIR (for instance the
original game's public players, fetched by the user; docs/basic.md,
"Compatibility"): whether it compiles (else the compiler's first error), and its
record in full matches against ``idle`` and ``base`` on seeds 1..N, the script
on all five seats of red on odd seeds and of blue on even ones, with the script
errors that stopped its seats and the share of its commands the rules refused
(over its seats and matches), with the most frequent reasons. Printed; written
to the ``## bench_basic_scripts`` section of RESULTS.md only with ``--write``.
"""
import argparse
import datetime
import os
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "plugins")]

from gota_arena import Match  # noqa: E402
from gota_arena.basic import BasicSyntaxError, bundled_scripts, compile_file  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bot_ladder import table  # noqa: E402
from bench_sim import cpu_model, nproc  # noqa: E402
from results import RESULTS, add_write_option, write_section  # noqa: E402

SECTION = "## bench_basic"
SCRIPTS_SECTION = "## bench_basic_scripts"
SCRIPT_OPPONENTS = ("idle", "base")
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


def play_script(job):
    """One full match of a script file (all five seats of a team) against a C bot: its
    outcome, the seats' script errors, and their commands summed over the seats: issued,
    refused, and a Counter of the refused ones by reason."""
    path, opponent, seed = job
    if path not in _PROGRAMS:
        _PROGRAMS[path] = compile_file(path)
    red_script = seed % 2 == 1
    team, other = ("red", "blue") if red_script else ("blue", "red")
    with Match(seed=seed, scripts={team: _PROGRAMS[path]}, bots={other: opponent}) as m:
        m.run()
        info = m.info
        seats = range(0, 5) if red_script else range(5, 10)
        statuses = [m.script_status(s) for s in seats]
    errors = [s.error for s in statuses if s.disabled]
    reasons = Counter()
    for s in statuses:
        reasons.update(s.refused_by)
    commands = (sum(s.commands for s in statuses), sum(s.refused for s in statuses), reasons)
    outcome = "timeout" if info.result != "win" else "win" if info.winner == team else "loss"
    return path, opponent, seed, outcome, info.tick, errors, commands


def refused_cell(issued: int, refused: int, reasons: Counter, top: int = 2) -> str:
    """The refused share of a script's commands and its `top` most frequent reasons,
    each as a share of all its commands: "12.3 % (ActionAbilityLocked 11.0 %)"."""
    if not issued:
        return "no commands"
    most = sorted(reasons.items(), key=lambda r: (-r[1], r[0]))[:top]
    detail = ", ".join(f"{name} {100 * n / issued:.1f} %" for name, n in most)
    return f"{100 * refused / issued:.1f} %" + (f" ({detail})" if detail else "")


def script_table(folder: Path, seeds: int, procs: int):
    """(markdown table, notes) of every .bas file under folder."""
    files = sorted(p for p in folder.rglob("*.bas") if p.is_file())
    compiled, failed = [], {}
    for path in files:
        try:
            compile_file(path)
            compiled.append(str(path))
        except BasicSyntaxError as e:
            failed[str(path)] = str(e).replace(str(folder) + os.sep, "")
    jobs = [(p, opponent, seed) for p in compiled for opponent in SCRIPT_OPPONENTS for seed in range(1, seeds + 1)]
    results, commands = {}, {}
    with Pool(procs) as pool:
        for path, opponent, seed, outcome, ticks, errors, (issued, refused, reasons) in \
                pool.imap_unordered(play_script, jobs):
            results.setdefault((path, opponent), []).append((seed, outcome, ticks, errors))
            tally = commands.setdefault(path, [0, 0, Counter()])
            tally[0] += issued
            tally[1] += refused
            tally[2].update(reasons)
    lines = ["| script | compiles | " + " | ".join(f"vs {o}: W-L-T (mean ticks)" for o in SCRIPT_OPPONENTS)
             + " | seats stopped by script errors | commands refused |",
             "|---|---|" + "---|" * len(SCRIPT_OPPONENTS) + "---|---|"]
    notes = []
    for path in files:
        name = str(path.relative_to(folder))
        if str(path) in failed:
            lines.append(f"| {name} | no | " + " | ".join("-" for _ in SCRIPT_OPPONENTS) + " | - | - |")
            notes.append(f"- {name}: `{failed[str(path)]}`")
            continue
        cells, stopped, first_error = [], 0, None
        for opponent in SCRIPT_OPPONENTS:
            games = sorted(results.get((str(path), opponent), []))
            w = sum(g[1] == "win" for g in games)
            lo = sum(g[1] == "loss" for g in games)
            t = sum(g[1] == "timeout" for g in games)
            mean = statistics.mean(g[2] for g in games) if games else 0
            cells.append(f"{w}-{lo}-{t} ({mean:,.0f})")
            for g in games:
                stopped += len(g[3])
                if g[3] and first_error is None:
                    first_error = g[3][0].replace(str(folder) + os.sep, "")
        lines.append(f"| {name} | yes | " + " | ".join(cells) + f" | {stopped} of {10 * seeds} | "
                     f"{refused_cell(*commands.get(str(path), (0, 0, Counter())))} |")
        if first_error:
            notes.append(f"- {name}: `{first_error}`")
    return "\n".join(lines), notes


def scripts_main(args) -> None:
    folder = Path(args.scripts).resolve()
    if not folder.is_dir():
        raise SystemExit(f"--scripts {args.scripts}: not a folder of .bas files")
    load_before = load()
    start = time.perf_counter()
    text, notes = script_table(folder, args.seeds, args.procs)
    wall = time.perf_counter() - start
    load_after = load()
    print(text)
    print("\n".join(notes))
    print(f"{wall:.0f} s wall on {args.procs} processes; load average before {load_before}, after {load_after}")
    if args.write:
        write_section(SCRIPTS_SECTION, [
            f"- date: {datetime.date.today().isoformat()}",
            f"- command: `python benchmarks/bench_basic.py --scripts DIR --seeds {args.seeds} --procs {args.procs} "
            "--write` (DIR: the scripts' folder)",
            f"- every .bas file under DIR; full matches against {' and '.join(SCRIPT_OPPONENTS)}, seeds "
            f"1..{args.seeds}, the script on all five seats of red on odd seeds and of blue on even ones; W-L-T "
            "from the script's side; \"seats stopped\" counts script seats stopped by a runtime error; "
            "\"commands refused\": the share of the script's commands (every command and draftHero call of its "
            "seats in all its matches) the rules refused, and the most frequent reasons (the lastActionError "
            "constants of docs/basic.md) as shares of all its commands",
            "", text, "", *notes, ""])
        print(f"wrote the {SCRIPTS_SECTION} section of {RESULTS}")


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
    parser.add_argument("--scripts", metavar="DIR", help="instead: a compatibility table of every .bas file under DIR")
    parser.add_argument("--seeds", type=int, default=4, help="with --scripts: seeded matches per opponent (default 4)")
    args = parser.parse_args()
    if args.scripts:
        return scripts_main(args)
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
