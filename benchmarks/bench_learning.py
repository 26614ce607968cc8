"""Does PPO learn? Train against `idle`, then against `idle` and `random` (one
drawn per episode, starting from the idle-trained weights), and evaluate the
policy before and after, acting greedily and by sampling.

    python benchmarks/bench_learning.py --write                # and its section of RESULTS.md, bench_learning.png
    python benchmarks/bench_learning.py --idle-steps 2000000 --random-steps 2000000 --matches 10
    python benchmarks/bench_learning.py -- trainer.learn_threads=0   # extra overrides after -- (an idle machine)

Each phase is ``python -m gota_arena +experiment=vs_bundled opponent.pool=[<pool>]``
(plus the benchmark's settings below) run through ``gota_arena.train.ppo.train``;
its run folder (metrics.csv, plots, checkpoints) stays under
``runs/bench_learning/<time>/`` (with ``--write`` also report.json). An evaluation is ``--matches`` full matches
against each of idle and random, all at once, with the greedy policy (the most
likely entry of each head) and the sampling one (each lane's first match; a win
= the enemy god destroyed; Glory = the winners' team score). Target: within 30
CPU-minutes of training (this process's CPU time, which a shared machine does
not stretch as it does wall time), >= 90 % wins against idle and against random
with the policy acting as declared (``ACTING``).
"""
import argparse
import csv
import json
import os
import platform
import sys
import time
from datetime import date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402
from results import add_write_option, save_figure, write_section  # noqa: E402

from gota_arena import plugins  # noqa: E402
from gota_arena.evaluate.quick import evaluate, format_table  # noqa: E402
from gota_arena.policies import PlaySettings, load_policy  # noqa: E402
from gota_arena.train.cli import compose  # noqa: E402
from gota_arena.train.ppo import train  # noqa: E402

# the benchmark's settings on top of the vs_bundled experiment
# (16 ticks a decision: the simulator is the smaller part of a step, so about 1.7 times the game per
# CPU-second; lr 1e-3: at 3e-4 the policy hardly moved, approx_kl ~0.005; docs/training.md)
SETTINGS = ["env.lanes=16", "env.action_ticks=16", "trainer.gamma=0.99", "trainer.learning_rate=1e-3",
            "trainer.update_epochs=3", "trainer.learn_threads=1", "trainer.checkpoint_every=1000", "eval.enabled=false",
            "trainer.progress_every=60"]
TARGET = 0.9
BUDGET_CPU_MIN = 30   # the budget: CPU time of this process (wall time stretches on a shared machine)
ACTING = "sampling"   # how the trained policy is declared to act (it acts so in training); greedy is reported too
# (opponent pool, the phase's own settings) of each phase; a pool plays one opponent per episode, drawn
# uniformly. idle stays in phase 2 so that learning to beat random does not unlearn beating idle; phase 2
# fine-tunes at lr 3e-4: restarting at 1e-3 (with a fresh optimizer) knocked the policy off (approx_kl 0.06
# on its first update) and its training win rate against random fell to about 20 % before recovering
PHASES = ((["idle"], []), (["idle", "random"], ["trainer.learning_rate=3e-4"]))


def run_eval(policy, cfg, matches: int, deterministic: bool) -> list:
    policy.eval()
    torch.manual_seed(12345)
    return evaluate(policy, ["idle", "random"], matches=matches, deterministic=deterministic, seed=cfg.eval.seed,
                    threads=cfg.env.threads, settings=PlaySettings.of_env(cfg.env), hook=False)


def evaluations(report: list, title: str, policy, cfg, matches: int) -> list:
    for deterministic in (True, False):
        t = time.perf_counter()
        rows = run_eval(policy, cfg, matches, deterministic)
        name = f"{title}, {'greedy' if deterministic else 'sampling'} policy"
        print(f"{name}:\n" + format_table(rows), flush=True)
        report.append((name, rows, time.perf_counter() - t))
    return rows


def curve(run_dir: Path, offset: int, minutes: float, phase: str, kinds: list) -> list:
    """(agent-steps, seconds, episode return, win rate, Glory, episodes, phase, opponent) per update and opponent."""
    with open(run_dir / "metrics.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return [(offset + int(r["global_step"]), minutes * 60 + float(r["time"]), r["charts/episode_return"],
             r[f"charts/win_rate/{kind}"], r[f"charts/glory/{kind}"], r["charts/episodes"], phase, kind)
            for r in rows for kind in kinds]


def plot(points: list):
    """The learning curves as a matplotlib figure."""
    from matplotlib.figure import Figure   # no pyplot: no global figure state, no backend to choose

    fig = Figure(figsize=(15, 4))
    axes = fig.subplots(1, 3)
    for phase, kind in dict.fromkeys((p[6], p[7]) for p in points):
        pts = [p for p in points if (p[6], p[7]) == (phase, kind)]
        for ax, col, title in ((axes[0], 2, "episode return (recent mean)"), (axes[1], 3, "win rate (recent)"),
                               (axes[2], 4, "Glory (recent mean)")):
            xy = [(p[0], float(p[col])) for p in pts if p[col] != ""]
            if xy:
                ax.plot([x for x, _ in xy], [y for _, y in xy], label=f"phase {phase}: vs {kind}")
            ax.set_title(title)
            ax.set_xlabel("agent-steps")
            ax.grid(alpha=0.3)
    axes[1].legend()
    fig.tight_layout()
    return fig


def table_md(rows: list) -> list:
    out = ["| opponent | matches | wins | losses | no winner | win rate | mean Glory | mean ticks |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['opponent']} | {r['matches']} | {r['wins']} | {r['losses']} | {r['no_winner']} | "
                   f"{r['win_rate']:.0%} | {r['mean_glory']:.0f} | {r['mean_ticks']:.0f} |")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--idle-steps", type=int, default=1_000_000, help="agent-steps of phase 1")
    ap.add_argument("--random-steps", type=int, default=1_600_000, help="agent-steps of phase 2")
    ap.add_argument("--matches", type=int, default=10, help="evaluation matches per opponent")
    add_write_option(ap, "its section of benchmarks/RESULTS.md, bench_learning.png and the run's report.json")
    ap.add_argument("overrides", nargs="*")
    args = ap.parse_args()
    base = ROOT / "runs" / "bench_learning" / datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    load0 = os.getloadavg()[0]
    overrides = SETTINGS + list(args.overrides)

    def config(pool: list, settings: list, steps: int, init_from=None):
        extra = [f"opponent.pool=[{','.join(pool)}]", f"trainer.total_steps={steps}"]
        if init_from:
            extra.append(f"trainer.init_from={init_from}")
        # the command line's overrides come after the phase's settings, so they win
        return compose(["+experiment=vs_bundled", *SETTINGS, *settings, *args.overrides, *extra])

    report = {"phases": [], "evaluations": []}
    cfg = config(*PHASES[0], args.idle_steps)
    torch.manual_seed(cfg.trainer.seed)   # the same initial weights as the run's (train seeds, then builds)
    policy = plugins.policy(cfg.policy.name, **cfg.policy.options)
    evaluations(report["evaluations"], "before training", policy, cfg, args.matches)

    points, offset, init = [], 0, None
    for (pool, settings), steps in zip(PHASES, (args.idle_steps, args.random_steps)):
        name = "+".join(pool)
        cfg = config(pool, settings, steps, init)
        run_dir = base / f"vs_{'_'.join(pool)}"
        t, cpu = time.perf_counter(), time.process_time()
        summary = train(cfg, run_dir)
        if summary["interrupted"]:
            print(f"interrupted: the run of phase vs {name} is in {run_dir}")
            return 130
        wall, cpu = time.perf_counter() - t, time.process_time() - cpu
        report["phases"].append({"pool": pool, "steps": summary["global_step"], "wall": wall, "cpu": cpu,
                                 "run_dir": str(run_dir.relative_to(ROOT))})
        points += curve(run_dir, offset, sum(p["wall"] for p in report["phases"][:-1]) / 60, name, pool)
        offset += summary["global_step"]
        init = str(run_dir / "policy.safetensors")
        policy = load_policy(init)
        evaluations(report["evaluations"], f"after training vs {name}", policy, cfg, args.matches)
    load1 = os.getloadavg()[0]

    train_wall = sum(p["wall"] for p in report["phases"])
    train_cpu = sum(p["cpu"] for p in report["phases"])
    greedy, sampling = report["evaluations"][-2][1], report["evaluations"][-1][1]
    met = {mode: all(r["win_rate"] >= TARGET for r in rows) and train_cpu <= BUDGET_CPU_MIN * 60
           for mode, rows in (("greedy", greedy), ("sampling", sampling))}
    lines = [f"- date: {date.today().isoformat()}",
             "- command: `python benchmarks/bench_learning.py" + "".join(f" {a}" for a in sys.argv[1:]) + "`",
             f"- machine: {os.cpu_count()} CPUs (nproc), {platform.processor() or platform.machine()}; Python "
             f"{platform.python_version()}; load average (1 min) {load0:.2f} before, {load1:.2f} after "
             "(other jobs shared the machine when the load is above 2)",
             "- setup: `+experiment=vs_bundled` (MLP, reward `advantage`) with "
             + " ".join(f"`{o}`" for o in overrides) + "; "
             + ", then ".join(f"phase {i + 1} against `{'`, `'.join(pool)}`" + "".join(f" with `{o}`" for o in settings)
                            for i, (pool, settings) in enumerate(PHASES))
             + ", each phase from the weights of the one before (`trainer.init_from`)",
             f"- evaluation: {args.matches} full matches against each bot (sides alternate with the seed), each "
             "lane's first match, with the greedy policy (the most likely entry of each head) and with the "
             "sampling policy (as trained); a win = the enemy god destroyed; the policy acts by "
             f"{ACTING} (the way it is declared to act)", ""]
    for p in report["phases"]:
        lines.append(f"- phase vs {', '.join(p['pool'])}: {p['steps']:,} agent-steps in {p['wall'] / 60:.1f} min wall "
                     f"({p['steps'] / p['wall']:,.0f} agent-steps/s; {p['cpu'] / 60:.1f} CPU-min of this "
                     f"process); run folder `{p['run_dir']}`")
    for title, rows, secs in report["evaluations"]:
        lines += ["", f"{title} ({secs:.0f} s):", ""] + table_md(rows)
    lines += ["", "Learning curve (recent means over the last 100 episodes per opponent, from metrics.csv; "
              "wall minutes of training, both phases; episode return and episodes over all opponents of the "
              "phase):", "",
              "| agent-steps | phase | minutes | episodes | episode return | opponent | win rate | Glory |",
              "|---|---|---|---|---|---|---|---|"]
    steps = list(dict.fromkeys(p[0] for p in points))
    shown = set(steps[::max(1, len(steps) // 16)] + steps[-1:])
    fmt = lambda v, pct=False: "-" if v == "" else (f"{float(v):.0%}" if pct else f"{float(v):.2f}")
    for p in points:
        if p[0] in shown:
            lines.append(f"| {p[0]:,} | vs {p[6]} | {p[1] / 60:.1f} | {p[5]} | {fmt(p[2])} | {p[7]} | "
                         f"{fmt(p[3], True)} | {'-' if p[4] == '' else f'{float(p[4]):.0f}'} |")
    lines += ["", "![learning curve](bench_learning.png)", ""]
    for mode, rows in (("greedy", greedy), ("sampling", sampling)):
        lines.append(f"- target: within {BUDGET_CPU_MIN} CPU-minutes of training, >= {TARGET:.0%} wins against idle "
                     f"and random, {mode} policy{' (declared)' if mode == ACTING else ''}: "
                     f"**{'met' if met[mode] else 'NOT met'}** (training {train_cpu / 60:.1f} CPU-min, "
                     f"{train_wall / 60:.1f} min wall; "
                     "final win rates " + ", ".join(f"{r['opponent']} {r['win_rate']:.0%}" for r in rows) + ")")
    lines.append("")
    print("\n".join(lines))
    if args.write:
        (base / "report.json").write_text(json.dumps(report, indent=1, default=str))
        save_figure(plot(points), "bench_learning.png")
        write_section("## bench_learning", lines)
        print(f"wrote the bench_learning section of benchmarks/RESULTS.md, bench_learning.png and {base}/report.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
