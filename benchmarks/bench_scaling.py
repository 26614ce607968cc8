"""Data-parallel training speed: agent-steps per second of PPO with 1 and 2 ranks
(torchrun, gloo on CPU) on this machine.

    python benchmarks/bench_scaling.py --write          # and the bench_scaling section of benchmarks/RESULTS.md
    python benchmarks/bench_scaling.py --updates 3      # print only

Each configuration is ``torchrun --standalone --nproc_per_node=<ranks> -m
gota_arena +experiment=selfplay env.lanes=<lanes per rank>`` (no evaluation,
TensorBoard, plots or checkpoints in between) for ``--warmup`` + ``--updates``
whole updates; reported: the median over the timed updates of rank 0's
``charts/SPS`` (all ranks' agent-steps of an update / its rollout + learning
time, gradient all-reduce included), and the whole command's wall time
(torchrun and process start-up included). Configurations:
- 1 rank x 12 lanes: the single-process run, as configured (learning on every core);
- 1 rank x 12 lanes, ``trainer.learn_threads=1``: faster on a machine other jobs keep busy;
- 2 ranks x 12 lanes: weak scaling, the global batch doubles;
- 2 ranks x 6 lanes: strong scaling, the same global batch as 1 x 12.
Each rank takes cores / ranks simulator and learning threads. "vs 1 rank" is
against the faster of the two single-rank runs.
"""
import argparse
import csv
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sim import cpu_model, nproc  # noqa: E402
from results import RESULTS, add_write_option, write_section  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## bench_scaling"
CONFIGS = ((1, 12, ()), (1, 12, ("trainer.learn_threads=1",)), (2, 12, ()), (2, 6, ()))   # ranks, lanes, overrides


def measure(ranks: int, lanes: int, updates: int, warmup: int, extra: list) -> dict:
    agents = lanes * 10                  # self-play: both teams learn
    batch = agents * 64 * ranks          # the selfplay experiment's num_steps is 64
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        command = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc_per_node={ranks}",
                   "-m", "gota_arena", "+experiment=selfplay", f"env.lanes={lanes}", "eval.enabled=false",
                   "trainer.tensorboard=false", "trainer.plots=false", "trainer.progress=false",
                   "trainer.checkpoint_every=1000000", f"trainer.total_steps={batch * (warmup + updates)}",
                   *extra, f"hydra.run.dir={run}"]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "plugins"),
                                                           os.environ.get("PYTHONPATH", "")]))
        start = time.perf_counter()
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        if result.returncode != 0:
            raise SystemExit(f"bench_scaling: {ranks} x {lanes} failed:\n{result.stderr[-3000:]}")
        with open(run / "metrics.csv", newline="") as f:
            rows = list(csv.DictReader(f))[warmup:]
    sps = [float(r["charts/SPS"]) for r in rows]
    return {"ranks": ranks, "lanes": lanes, "batch": batch, "sps": statistics.median(sps), "runs": sps,
            "rollout_s": statistics.median(float(r["time/rollout_s"]) for r in rows),
            "learn_s": statistics.median(float(r["time/learn_s"]) for r in rows), "wall": wall}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=5, help="timed updates per configuration (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed first updates (default 1)")
    add_write_option(parser)
    parser.add_argument("overrides", nargs="*", help="more config overrides for every run")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()[0]
    results = []
    for ranks, lanes, overrides in CONFIGS:
        r = measure(ranks, lanes, args.updates, args.warmup, [*overrides, *args.overrides])
        r["name"] = f"{ranks} x {lanes}" + "".join(f", {o}" for o in overrides)
        results.append(r)
        print(f"{r['name']}: {r['sps']:,.0f} agent-steps/s (global batch {r['batch']:,}; "
              f"per update {', '.join(f'{x:,.0f}' for x in r['runs'])}; rollout {r['rollout_s']:.2f} s, "
              f"learning {r['learn_s']:.2f} s; command {r['wall']:.0f} s)")
    load_after = os.getloadavg()[0]
    shared = max(load_before, load_after) > nproc()
    load = (f"load average (1 min) {load_before:.2f} before, {load_after:.2f} after, on {nproc()} CPUs"
            + (": the machine was shared with other jobs, figures are low and noisy" if shared else ""))
    print(load)
    base = max(r["sps"] for r in results if r["ranks"] == 1)
    if args.write:
        command = "python benchmarks/bench_scaling.py" + "".join(
            " " + a for a in (sys.argv[1:] if argv is None else argv))
        lines = [f"- date: {datetime.date.today().isoformat()}",
                 f"- command: `{command}`",
                 f"- machine: {nproc()} CPUs (nproc), {cpu_model()}; Python {platform.python_version()}; {load}",
                 "- what: `torchrun --standalone --nproc_per_node=<ranks> -m gota_arena +experiment=selfplay "
                 "env.lanes=<lanes per rank>` (gloo, default MLP, 64-decision rollouts), no evaluation or "
                 f"checkpoints; median of rank 0's agent-steps/s (all ranks) over {args.updates} updates after "
                 f"{args.warmup} warm-up update(s); each rank takes cores / ranks threads",
                 "", "| ranks x lanes | global batch | agent-steps/s (median) | vs 1 rank | rollout s | learning s "
                 "| command wall s |", "|---|---|---|---|---|---|---|"]
        for r in results:
            lines.append(f"| {r['name']} | {r['batch']:,} | **{r['sps']:,.0f}** | "
                         f"{r['sps'] / base:.2f}x | {r['rollout_s']:.2f} | {r['learn_s']:.2f} | {r['wall']:.0f} |")
        lines += ["", "- per update: " + "; ".join(
            f"{r['name']}: " + ", ".join(f"{x:,.0f}" for x in r["runs"]) for r in results)]
        write_section(SECTION, lines)
        print(f"wrote {SECTION} in {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
