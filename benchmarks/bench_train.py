"""End-to-end training speed: agent-steps per second of PPO (simulator + policy
inference + learning), with each experiment's own policy, on this machine.

    python benchmarks/bench_train.py --write         # selfplay and vs_bundled; and their section of RESULTS.md
    python benchmarks/bench_train.py --updates 6     # print only

Each run composes the experiment exactly as ``python -m gota_arena
+experiment=<name>`` does (without evaluation, TensorBoard or plots), trains
``--updates`` updates after ``--warmup`` untimed ones, and reports the median
update: agent-steps/s over the whole update, and the share spent collecting
the rollout (simulator + inference) and learning (the PPO epochs).
Target: >= 5,000 agent-steps/s for the default self-play run.
"""
import argparse
import csv
import io
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gota_arena.policies import read_policy_metadata  # noqa: E402
from gota_arena.train.cli import compose  # noqa: E402
from gota_arena.train.ppo import train  # noqa: E402
from results import add_write_option, write_section  # noqa: E402

TARGET = 5000


def measure(experiment: str, updates: int, warmup: int, extra: list) -> dict:
    probe = compose([f"+experiment={experiment}", *extra])
    agents = probe.env.lanes * 10 if probe.opponent.self_play_share >= 1 else None
    cfg = compose([f"+experiment={experiment}", "eval.enabled=false", "trainer.tensorboard=false",
                   "trainer.plots=false", "trainer.progress=false", *extra])
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        cpu = time.process_time()
        # the budget: warmup + updates whole updates (a batch is agents x num_steps)
        from gota_arena.config import self_play_lanes
        n_self = self_play_lanes(cfg)
        agents = n_self * 10 + (cfg.env.lanes - n_self) * 5
        batch = agents * cfg.trainer.num_steps
        cfg.trainer.total_steps = batch * (warmup + updates)
        cfg.trainer.checkpoint_every = 10 ** 6
        summary = train(cfg, Path(tmp) / "run", stream=io.StringIO())
        built = json.loads(read_policy_metadata(str(Path(tmp) / "run" / "policy.safetensors"))["config"])
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        with open(Path(tmp) / "run" / "metrics.csv", newline="") as f:
            rows = list(csv.DictReader(f))[warmup:]
    per = [batch / (float(r["time/rollout_s"]) + float(r["time/learn_s"])) for r in rows]
    rollout = [float(r["time/rollout_s"]) for r in rows]
    learn = [float(r["time/learn_s"]) for r in rows]
    return {"experiment": experiment, "lanes": cfg.env.lanes, "agents": agents, "batch": batch,
            "updates": len(rows), "sps": statistics.median(per), "runs": per,
            "rollout_sps": batch / statistics.median(rollout), "learn_sps": batch / statistics.median(learn),
            "rollout_share": statistics.median(r / (r + l) for r, l in zip(rollout, learn)),
            "wall": wall, "cpu": cpu, "steps": summary["global_step"],
            "threads": (cfg.env.threads, cfg.trainer.torch_threads, cfg.trainer.learn_threads),
            "epochs": cfg.trainer.update_epochs, "policy": cfg.policy.name, "hidden": built.get("hidden")}


def section(results: list, command: str, load: tuple) -> list:
    lines = [f"- date: {date.today().isoformat()}",
             f"- command: `{command}`",
             f"- machine: {os.cpu_count()} CPUs (nproc), {platform.processor() or platform.machine()}; "
             f"Python {platform.python_version()}; load average (1 min) {load[0]:.2f} before, {load[1]:.2f} after",
             "- what: whole PPO updates of `python -m gota_arena +experiment=<name>` (policy "
             f"{results[0]['policy']}, hidden {results[0]['hidden']}, {results[0]['epochs']} epochs, 4 minibatches): "
             "the rollout (simulator + "
             "policy inference + masks) and the learning (PPO epochs), timed per update; median update after "
             "a warm-up update",
             "", "| experiment | lanes | agents | batch | agent-steps/s (median) | rollout only | learning only | "
             "rollout share | updates |", "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['experiment']} | {r['lanes']} | {r['agents']} | {r['batch']:,} | **{r['sps']:,.0f}** | "
                     f"{r['rollout_sps']:,.0f} | {r['learn_sps']:,.0f} | {r['rollout_share']:.0%} | {r['updates']} |")
    main = results[0]
    met = "met" if main["sps"] >= TARGET else "NOT met"
    lines += ["", f"- per update ({main['experiment']}): " + ", ".join(f"{v:,.0f}" for v in main["runs"]),
              f"- target: >= {TARGET:,} agent-steps/s end to end ({main['experiment']}, its default policy): "
              f"**{met}** ({main['sps']:,.0f})",
              "- threads: simulator one per core; torch 1 thread while acting, one per core while learning "
              "(trainer.torch_threads / trainer.learn_threads)", ""]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--updates", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--experiments", default="selfplay,vs_bundled")
    add_write_option(ap)
    ap.add_argument("overrides", nargs="*", help="more config overrides, e.g. trainer.learn_threads=1")
    args = ap.parse_args()
    load0 = os.getloadavg()[0]
    results = []
    for name in args.experiments.split(","):
        r = measure(name, args.updates, args.warmup, args.overrides)
        results.append(r)
        print(f"{name}: {r['sps']:,.0f} agent-steps/s (rollout only {r['rollout_sps']:,.0f}, learning only "
              f"{r['learn_sps']:,.0f}, rollout share {r['rollout_share']:.0%}; {r['agents']} agents, "
              f"batch {r['batch']:,}); per update " + ", ".join(f"{v:,.0f}" for v in r["runs"]))
    load1 = os.getloadavg()[0]
    command = "python benchmarks/bench_train.py" + "".join(f" {a}" for a in sys.argv[1:])
    if args.write:
        write_section("## bench_train", section(results, command, (load0, load1)))
        print("wrote the bench_train section of benchmarks/RESULTS.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
