"""Does a trained policy beat the bundled bots? It plays each of the six bundled bots
on seeds no training run plays, every seed from both sides, greedily and at the
settings it was trained under (the leaderboard does both), and reports per bot
wins, losses and timeouts with the 95 % Wilson interval of the win rate. With a
run folder it also reports the training's agent-steps, wall and CPU time.

    python benchmarks/bench_beat_bots.py runs/beat_bots/<time>          # that run's policy.safetensors
    python benchmarks/bench_beat_bots.py --policy ppo                   # the bundled policy
    python benchmarks/bench_beat_bots.py runs/beat_bots/<time> --write  # and its section of RESULTS.md
    python benchmarks/bench_beat_bots.py RUN --curves STAGE1 STAGE2 RUN --write
        # and beat_bots_curves.png: the learning curves of the runs of a curriculum, end to end

A curriculum's stages are separate runs (each starts from the one before with
``trainer.init_from``); ``--curves`` puts their metrics.csv on one agent-steps axis,
in the order given, with a line where each stage starts.

A run keeps each checkpoint's policy (trainer.keep_policies); to pick one, play them
on other seeds (``--policy RUN/checkpoints/policy_<steps>.safetensors --first-seed
6000000``), and measure only the one picked on the evaluation seeds.

Target (``+experiment=beat_bots``): >= 90 % wins against each bot (a timeout is
not a win), on >= 40 games a bot, half from each side. Evaluation seeds start at
5,000,000; a training run with trainer.seed=1 plays seeds below 200,000.
"""
import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from results import add_write_option, save_figure, write_section  # noqa: E402

from gota_arena.evaluate import Leaderboard  # noqa: E402
from gota_arena.evaluate.ratings import wilson  # noqa: E402
from gota_arena.train.report import learning_curves, read_metrics  # noqa: E402

BOTS = ["idle", "random", "base", "rusher", "baseline", "puller"]
TARGET = 0.9
EVAL_SEED = 5_000_000


def play(entrant, games_per_side: int, lanes: int, first_seed: int = EVAL_SEED) -> tuple:
    """(per-bot rows, seconds): the entrant against every bot, ``games_per_side`` seeds from each side."""
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        Leaderboard(entrants=[entrant, *BOTS], against=BOTS, games_per_pairing=games_per_side, seed=first_seed,
                    lanes=lanes).run(out, quiet=True)
        seconds = time.perf_counter() - start
        games = [json.loads(line) for line in Path(out, "games.jsonl").read_text().splitlines()]
    name = entrant if isinstance(entrant, str) else entrant["name"]
    rows = []
    for bot in BOTS:
        mine = [g for g in games if name in (g["red"], g["blue"]) and bot in (g["red"], g["blue"])]
        wins = sum(g["winner"] is not None and g[g["winner"]] == name for g in mine)
        timeouts = sum(g["winner"] is None for g in mine)
        lo, hi = wilson(wins, len(mine))
        rows.append({"bot": bot, "games": len(mine), "wins": wins, "losses": len(mine) - wins - timeouts,
                     "timeouts": timeouts, "win_rate": wins / len(mine), "low": lo, "high": hi,
                     "mean_ticks": sum(g["ticks"] for g in mine) / len(mine)})
    return rows, seconds


def table(rows: list) -> list:
    lines = ["| bot | games | wins | losses | timeouts | win rate | 95 % interval | mean ticks |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['bot']} | {r['games']} | {r['wins']} | {r['losses']} | {r['timeouts']} | "
                     f"**{r['win_rate']:.0%}** | {r['low']:.0%}-{r['high']:.0%} | {r['mean_ticks']:,.0f} |")
    return lines


def curriculum_figure(runs: list):
    """One learning-curves figure of the runs of a curriculum, each stage's agent-steps
    counted on from where the stage before it ended."""
    rows, starts, offset = [], [], 0
    for run in runs:
        stage = [r for r in read_metrics(Path(run) / "metrics.csv") if r.get("global_step")]
        if not stage:
            raise SystemExit(f"--curves {run}: its metrics.csv has no rows")
        starts.append(offset)
        for r in stage:
            rows.append({**r, "global_step": str(int(r["global_step"]) + offset)})
        offset += int(stage[-1]["global_step"])
    kinds = [k for k in ["self", *BOTS] if any(r.get(f"charts/win_rate/{k}") for r in rows)]
    fig = learning_curves(rows, kinds, f"the curriculum in {len(runs)} stages")
    for ax in fig.axes:
        for start in starts[1:]:
            ax.axvline(start, color="black", linestyle="--", linewidth=0.8)
    return fig


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", nargs="?", help="a training run folder (its policy.safetensors and summary.json)")
    ap.add_argument("--policy", help="a registered opponent name (e.g. ppo) or a policy file, instead of a run")
    ap.add_argument("--games-per-side", type=int, default=20, help="seeds per bot, each played from both sides")
    ap.add_argument("--lanes", type=int, default=24)
    ap.add_argument("--first-seed", type=int, default=EVAL_SEED,
                    help=f"seeds to play from (default {EVAL_SEED:,}, the evaluation's); other seeds, such as "
                         "6,000,000, pick among a run's kept policies without looking at the evaluation seeds")
    ap.add_argument("--curves", nargs="+", metavar="RUN",
                    help="with --write: also draw beat_bots_curves.png from these runs (a curriculum's stages, in order)")
    add_write_option(ap)
    args = ap.parse_args()
    if bool(args.run) == bool(args.policy):
        ap.error("give a run folder or --policy, one of them")
    if args.write and args.first_seed != EVAL_SEED:
        ap.error(f"--write records the evaluation, on seeds from {EVAL_SEED:,}: leave out --first-seed")
    if args.first_seed < 1_000_000:
        ap.error(f"--first-seed {args.first_seed}: the recipe's runs (trainer.seed 1 to 5) played seeds "
                 "below 1,000,000; choose one above")
    if args.curves and not args.write:
        ap.error("--curves draws a file of the repository: give --write too")
    for run in args.curves or []:
        if not (Path(run) / "metrics.csv").is_file():
            ap.error(f"--curves {run}: no metrics.csv there (give the run folders of the curriculum's stages)")
    if args.run:
        entrant = {"name": "trained", "checkpoint": str(Path(args.run) / "policy.safetensors")}
    elif args.policy.endswith(".safetensors"):
        entrant = {"name": "trained", "checkpoint": args.policy}
    else:
        entrant = args.policy
    load0 = os.getloadavg()[0]
    rows, seconds = play(entrant, args.games_per_side, args.lanes, args.first_seed)
    load1 = os.getloadavg()[0]
    lines = table(rows)
    met = all(r["win_rate"] >= TARGET for r in rows)
    lines += ["", f"- target: >= {TARGET:.0%} against each bot: **{'met' if met else 'NOT met'}**",
              f"- evaluation: {seconds / 60:.1f} min wall, {2 * args.games_per_side} games a bot from seed "
              f"{args.first_seed:,}, greedy, at the policy's own settings"]
    summary = Path(args.run or "", "summary.json")
    if args.run and summary.is_file():
        s = json.loads(summary.read_text())
        cpu = s.get("cpu_seconds")
        lines.append(f"- training: {s['global_step']:,} agent-steps, {s['seconds'] / 3600:.2f} h wall"
                     + (f", {cpu / 3600:.2f} CPU-hours" if cpu else ""))
    print("\n".join(lines))
    if args.write:
        command = "python benchmarks/bench_beat_bots.py" + "".join(f" {a}" for a in sys.argv[1:] if a != "--write")
        write_section("## bench_beat_bots", [
            f"- date: {date.today().isoformat()}", f"- command: `{command}`",
            f"- machine: {os.cpu_count()} CPUs (nproc), {platform.processor() or platform.machine()}; "
            f"load average (1 min) {load0:.2f} before, {load1:.2f} after", "", *lines])
        print("wrote the bench_beat_bots section of benchmarks/RESULTS.md")
        if args.curves:
            print(f"wrote {save_figure(curriculum_figure(args.curves), 'beat_bots_curves.png')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
