"""Lockstep arena speed and memory: ``python benchmarks/bench_arena.py [--quick]``.

Self-play arena (64 lanes, 10 agents each, action_ticks 4, observations and
conditional masks written every step) driven by uniformly random *masked*
actions (gota_arena.masking.sample_actions: verb among the allowed verbs, then
the ability or item the verb uses among the allowed ones, then the target among
the allowed slots of the verb's target row; the point head is unmasked). The same
trajectory (same seeds, same sampler seed) is timed with threads=1 and threads=2:
after a warm-up, repetitions of a fixed number of steps, the two thread counts in
turn; the medians are reported for the arena (time inside ``Arena.step`` only), the
sampler alone and the whole loop, and the scaling is the median of the paired
repetitions' ratios. Memory per lane is the RSS growth of a 256-lane arena after a
few steps, over 256, measured first (before other arenas could leave freed memory).
With ``--write`` it also writes the ``## bench_arena`` section of
benchmarks/RESULTS.md (not with --quick). Figures are printed, never asserted.
"""
import argparse
import contextlib
import datetime
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sim import cpu_model, nproc, rss_bytes  # noqa: E402
from results import RESULTS, add_write_option, write_section  # noqa: E402

from gota_arena.arena import Arena  # noqa: E402
from gota_arena.masking import sample_actions  # noqa: E402

SECTION = "## bench_arena"
TARGET_PER_CORE = 100_000     # agent-steps/s per core (issue target)
TARGET_SCALING = 1.8          # 2 threads vs 1
TARGET_LANE_BYTES = 2 ** 20   # per lane


def timed_rep(run: dict, steps: int) -> tuple:
    """One repetition of `steps` steps of a run: seconds inside step(), inside the
    sampler, of the whole loop, and the process CPU seconds (all threads) inside step()."""
    arena, rng, out = run["arena"], run["rng"], run["out"]
    t_step = t_sample = cpu_step = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        t0 = time.perf_counter()
        actions = sample_actions(out.masks, rng)
        c1, t1 = time.process_time(), time.perf_counter()
        out = arena.step(actions)
        t2, c2 = time.perf_counter(), time.process_time()
        t_sample += t1 - t0
        t_step += t2 - t1
        cpu_step += c2 - c1
    run["out"] = out
    return t_step, t_sample, time.perf_counter() - start, cpu_step


def timed_runs(args) -> dict:
    """1 and 2 threads on the same trajectory (same seeds, same sampler seed): each
    warms up, then their repetitions alternate (1, 2, 1, 2, ...) so that both see the
    same moments of this shared machine. Per thread count: what the arena reports and
    its repetitions (timed_rep)."""
    with contextlib.ExitStack() as stack:
        runs = {}
        for threads in (1, 2):
            arena = stack.enter_context(Arena(lanes=args.lanes, action_ticks=args.action_ticks, self_play=True,
                                              threads=threads, seed=args.seed))
            rng = np.random.default_rng(args.seed)
            out = arena.reset(args.seed)
            for _ in range(args.warmup):
                out = arena.step(sample_actions(out.masks, rng))
            runs[threads] = {"arena": arena, "rng": rng, "out": out, "reps": []}
        for _ in range(args.reps):
            for run in runs.values():
                run["reps"].append(timed_rep(run, args.steps))
        return {threads: {"threads": run["arena"].threads, "agents": run["arena"].agents,
                          "tick": run["arena"].lane(0)["tick"], "hash": run["arena"].lane_hash(0),
                          "reps": run["reps"]}
                for threads, run in runs.items()}


def lane_bytes(lanes: int, steps: int, seed: int) -> float:
    """RSS growth per lane of a new arena of `lanes` lanes after `steps` masked random steps."""
    rng = np.random.default_rng(seed)
    with Arena(lanes=2, self_play=True) as warm:   # one-time tables, allocator arenas
        out = warm.step(np.zeros((warm.agents, 5), np.int32))
    before = rss_bytes()
    with Arena(lanes=lanes, self_play=True, seed=seed) as arena:
        out = arena.reset(seed)
        for _ in range(steps):
            out = arena.step(sample_actions(out.masks, rng))
        after = rss_bytes()
    return (after - before) / lanes


def met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lanes", type=int, default=64)
    parser.add_argument("--action-ticks", type=int, default=4)
    parser.add_argument("--warmup", type=int, default=300, help="steps before timing (default 300: 1,200 ticks)")
    parser.add_argument("--steps", type=int, default=100, help="steps per repetition")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (the median is reported)")
    parser.add_argument("--memory-lanes", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true",
                        help="a short run (warm-up 20, 3 x 20 steps, 64 lanes for memory), never written")
    add_write_option(parser)
    args = parser.parse_args(argv)
    if args.quick:
        if args.write:
            parser.error("--quick figures are not written to RESULTS.md: drop --write, or run without --quick")
        args.warmup, args.steps, args.reps, args.memory_lanes = 20, 20, 3, 64

    load_before = os.getloadavg()
    per_lane = lane_bytes(args.memory_lanes, 10, args.seed)
    print(f"memory: {per_lane / 2**10:,.0f} KiB per lane (RSS growth of a {args.memory_lanes}-lane "
          f"self-play arena after 10 steps, / {args.memory_lanes})")

    results = timed_runs(args)
    for threads, r in results.items():
        steps = args.steps * r["agents"]
        arena_rates = [steps / rep[0] for rep in r["reps"]]
        loop_rates = [steps / rep[2] for rep in r["reps"]]
        sample_us = [1e6 * rep[1] / args.steps for rep in r["reps"]]
        cpu_rates = [steps / rep[3] for rep in r["reps"]]
        r.update(arena=statistics.median(arena_rates), loop=statistics.median(loop_rates),
                 sample_us=statistics.median(sample_us), cpu=statistics.median(cpu_rates), arena_rates=arena_rates)
        r["per_core"] = r["arena"] / r["threads"]
        print(f"threads={threads} (used {r['threads']}): arena {', '.join(f'{x:,.0f}' for x in arena_rates)} "
              f"agent-steps/s; median {r['arena']:,.0f} ({r['per_core']:,.0f} per core); whole loop "
              f"{r['loop']:,.0f}; per CPU-second inside step {r['cpu']:,.0f}; "
              f"sampler {r['sample_us']:,.0f} us per step of {r['agents']} agents; "
              f"lane 0 at tick {r['tick']}, hash {r['hash']:#018x}")
    load_after = os.getloadavg()
    load = f"load average (1 min) {load_before[0]:.2f} before, {load_after[0]:.2f} after, on {nproc()} CPUs"
    print(load)
    one, two = results[1], results[2]
    # paired: each 2-thread repetition against the 1-thread one just before it
    ratio = statistics.median(b / a for a, b in zip(one["arena_rates"], two["arena_rates"]))
    same = one["hash"] == two["hash"]
    print(f"2 threads vs 1: {ratio:.2f}x; same final state: {same}")
    best_per_core = max(one["per_core"], two["per_core"])
    verdicts = [
        f">= {TARGET_PER_CORE:,} agent-steps/s per core: {met(best_per_core >= TARGET_PER_CORE)} "
        f"({best_per_core:,.0f})",
        f"2 threads >= {TARGET_SCALING}x of 1: {met(ratio >= TARGET_SCALING)} ({ratio:.2f}x)",
        f"<= 1 MiB per lane: {met(per_lane <= TARGET_LANE_BYTES)} ({per_lane / 2**10:,.0f} KiB)",
    ]
    for v in verdicts:
        print("target " + v)

    if args.write:
        command = "python benchmarks/bench_arena.py" + "".join(" " + a for a in (sys.argv[1:] if argv is None else argv))
        ticks = args.warmup * args.action_ticks
        lines = [
            f"- date: {datetime.date.today().isoformat()}",
            f"- command: `{command}`",
            f"- machine: {nproc()} CPUs (nproc), {cpu_model()}; Python {platform.python_version()}; {load}",
            f"- arena: {args.lanes} self-play lanes ({one['agents']} agents), action_ticks {args.action_ticks}, "
            f"observations and conditional masks every step; random masked actions; warm-up {args.warmup} steps "
            f"({ticks:,} ticks), then {args.reps} x {args.steps} steps, the thread counts in turn, medians; the "
            f"same trajectory for both thread counts (same final state: {same})",
        ]
        for r in (one, two):
            lines.append(f"- threads={r['threads']}: arena (inside step) **{r['arena']:,.0f} agent-steps/s**, "
                         f"{r['per_core']:,.0f} per core (runs: {', '.join(f'{x:,.0f}' for x in r['arena_rates'])}); "
                         f"agent-steps per CPU-second inside step {r['cpu']:,.0f}; whole loop with the sampler "
                         f"{r['loop']:,.0f}; sampler {r['sample_us']:,.0f} us per step")
        lines += [
            f"- 2 threads vs 1: **{ratio:.2f}x** (median of the paired repetitions' ratios)",
            f"- memory: **{per_lane / 2**10:,.0f} KiB per lane** (RSS growth of a {args.memory_lanes}-lane arena "
            f"after 10 steps)",
            "- targets: " + "; ".join(verdicts),
        ]
        write_section(SECTION, lines)
        print(f"wrote {SECTION} in {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
