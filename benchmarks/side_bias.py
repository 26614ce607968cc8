"""Side bias: ``python benchmarks/side_bias.py [--seeds 200] [--procs 2] [--write]``.

Mirror matches: every bundled bot (docs/bots.md) plays itself, five seats a team,
one full match (28,800 battle ticks at most) per seed, on seeds no other part of the
project plays (7,000,000 up by default). With the same bot on both sides a fair
simulator gives red half of the decided games; a row reports red's wins, blue's
wins, the matches without a winner (timeout or draw) and red's share of the
decided games with its 95 % Wilson interval. ``idle`` never attacks, so its
matches all time out and its share is undefined ("-").

The seeded draft (docs/simulator.md) gives one team a fixed set of five classes
and the other the rest, by a coin flip per seed: with bundled bots the team that
drafts first always plays classes 0, 2, 4, 6, 8 and the other 1, 3, 5, 7, 9, and
one set can beat the other nearly every time. So the table also splits each
bot's decided games by which side drafted first (red won-lost with red first,
then with blue first): a side bias shows in both halves, a stronger class set
only swaps sides with the draft, and an unlucky coin count (say 115 of 200 seeds
with blue first) moves the overall share without any side bias. The
draft-balanced share is the mean of red's shares in the two halves, what the
overall share would be with as many seeds of each draft. Prints the table and the
CPU time the matches took; with ``--write`` it also writes the table to the
``## side_bias`` section of benchmarks/RESULTS.md (the other sections are kept).
Figures are reported, never asserted.
"""
import argparse
import datetime
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "plugins")]

from gota_arena import Kind, Match  # noqa: E402
from gota_arena.evaluate.ratings import wilson  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sim import cpu_model, nproc  # noqa: E402
from results import RESULTS, add_write_option, write_section  # noqa: E402

SECTION = "## side_bias"
BOTS = ("idle", "random", "base", "rusher", "baseline", "puller")
FIRST_SEED = 7_000_000


def play(job):
    """One mirror match: (bot, seed) -> (bot, seed, winner 'red'/'blue'/None, result, ticks, CPU seconds,
    whether red drafted first)."""
    bot, seed = job
    start = time.process_time()
    with Match(seed=seed, bots={"red": bot, "blue": bot}) as m:
        units = m.units
        # a bot's first pick is class 0 (the first free class of a missing role): red drafted
        # first when its seat 0 (hero id 100) plays it
        red_first = int(units["sub"][(units["kind"] == Kind.HERO) & (units["id"] == 100)][0]) == 0
        m.run()
        info = m.info
    seconds = time.process_time() - start
    winner = info.winner if info.result == "win" else None
    return bot, seed, winner, info.result, info.tick, seconds, red_first


def measure(bots, seeds, procs: int):
    """Per-bot counts and the per-match records, in (bot, seed) order."""
    jobs = [(bot, seed) for bot in bots for seed in seeds]
    with Pool(procs) as pool:
        games = sorted(pool.imap_unordered(play, jobs, chunksize=4),
                       key=lambda g: (bots.index(g[0]), g[1]))
    rows = []
    for bot in bots:
        mine = [g for g in games if g[0] == bot]
        red = sum(g[2] == "red" for g in mine)
        blue = sum(g[2] == "blue" for g in mine)
        split = {first: [sum(g[2] == side and g[6] == first for g in mine) for side in ("red", "blue")]
                 for first in (True, False)}
        rows.append({"bot": bot, "matches": len(mine), "red": red, "blue": blue, "split": split,
                     "none": len(mine) - red - blue, "interval": wilson(red, red + blue),
                     "median_ticks": int(statistics.median(g[4] for g in mine)),
                     "cpu": sum(g[5] for g in mine)})
    return rows, games


def table(rows) -> str:
    lines = ["| bot | matches | red wins | blue wins | no winner | red share of decided | 95 % interval | "
             "red drafted first: red-blue | blue drafted first: red-blue | red share, draft-balanced | "
             "median ticks |",
             "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        decided = r["red"] + r["blue"]
        if decided:
            lo, hi = r["interval"]
            share, interval = f"{100 * r['red'] / decided:.1f} %", f"[{100 * lo:.1f}, {100 * hi:.1f}] %"
            if not lo <= 0.5 <= hi:
                interval += " (excludes 50 %)"
        else:
            share, interval = "-", "- (no decided game)"
        split = " | ".join("-".join(str(n) for n in r["split"][first]) for first in (True, False))
        halves = [r["split"][first] for first in (True, False)]
        balanced = (f"{100 * sum(red / (red + blue) for red, blue in halves) / 2:.1f} %"
                    if all(red + blue for red, blue in halves) else "-")
        lines.append(f"| {r['bot']} | {r['matches']} | {r['red']} | {r['blue']} | {r['none']} | {share} | "
                     f"{interval} | {split} | {balanced} | {r['median_ticks']} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200, help="mirror matches per bot (default 200)")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED,
                        help=f"first seed; seeds are first..first+N-1 (default {FIRST_SEED:,})")
    parser.add_argument("--procs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--bots", nargs="+", default=list(BOTS), choices=BOTS, metavar="BOT",
                        help=f"bots to measure (default all: {' '.join(BOTS)})")
    parser.add_argument("--games", metavar="FILE", help="also write every match as a JSON line to FILE")
    add_write_option(parser)
    args = parser.parse_args(argv)
    seeds = range(args.first_seed, args.first_seed + args.seeds)

    start = time.perf_counter()
    rows, games = measure(list(args.bots), seeds, args.procs)
    wall = time.perf_counter() - start
    cpu = sum(r["cpu"] for r in rows)
    ticks = sum(g[4] for g in games)
    text = table(rows)
    seed_text = f"seeds {seeds.start:,}..{seeds.stop - 1:,}"
    print(text)
    print(f"{len(games)} matches ({args.seeds} a bot, {seed_text}), {ticks:,} ticks, "
          f"{cpu:.0f} s CPU in the matches ({ticks / cpu:,.0f} ticks/s), {wall:.0f} s wall on {args.procs} processes")
    if args.games:
        with open(args.games, "w") as f:
            for bot, seed, winner, result, n, _s, red_first in games:
                f.write(json.dumps({"bot": bot, "seed": seed, "winner": winner, "result": result, "ticks": n,
                                    "red_drafted_first": red_first}) + "\n")
    if args.write:
        command = f"python benchmarks/side_bias.py --seeds {args.seeds} --procs {args.procs}"
        if args.first_seed != FIRST_SEED:
            command += f" --first-seed {args.first_seed}"
        if list(args.bots) != list(BOTS):
            command += " --bots " + " ".join(args.bots)
        command += " --write"
        write_section(SECTION, [
            f"- date: {datetime.date.today().isoformat()}",
            f"- command: `{command}`",
            f"- matches: each bot against itself (five seats a team), {args.seeds} a bot, one per seed, "
            f"{seed_text}, full matches (28,800 ticks at most)",
            "- red share: red's wins over the decided games (a win is a destroyed god; no winner is a timeout "
            "or a draw), with its 95 % Wilson interval; a fair simulator gives 50 %",
            "- red drafted first / blue drafted first: red's wins - blue's wins among the seeds where that side's "
            "draft came first (it then plays classes 0, 2, 4, 6, 8); draft-balanced: the mean of red's shares "
            "in the two",
            f"- cost: {cpu:.0f} s CPU in the matches ({ticks:,} ticks, {ticks / cpu:,.0f} ticks/s); "
            f"{wall:.0f} s wall on {args.procs} processes ({nproc()} CPUs, {cpu_model()})",
            "", text, ""])
        print(f"wrote the {SECTION} section of {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
