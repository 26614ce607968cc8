"""What a person sees of a run: the live progress line, the metrics (CSV and
TensorBoard), the learning curves (PNG) and the final summary.

Metric names are namespaced as in CleanRL: ``charts/...`` (speed, returns,
win rate and Glory per opponent kind), ``losses/...`` (PPO). The CSV has one
row per update with a fixed set of columns; an opponent kind is a registered
opponent name, ``self`` (self-play lanes) or ``snapshot`` (league snapshots).
"""
from __future__ import annotations

import csv
import io
import math
import sys
import time
from collections import deque
from pathlib import Path
from typing import List, Optional

from ..evaluate.quick import format_table
from ..files import atomic_path, write_text_atomic
from .league import SNAPSHOT_PREFIX

LOSSES = ("losses/policy_loss", "losses/value_loss", "losses/entropy", "losses/old_approx_kl",
          "losses/approx_kl", "losses/clipfrac", "losses/explained_variance")
CHARTS = ("charts/SPS", "charts/learning_rate", "charts/reward_mean", "charts/episodes", "charts/episode_return",
          "charts/episode_ticks")
TIMES = ("time/rollout_s", "time/learn_s")
WINDOW = 100   # recent episodes per kind in the win rate and Glory


def kind_of(opponent: str) -> str:
    return "snapshot" if opponent.startswith(SNAPSHOT_PREFIX) else opponent


def _fmt_time(seconds: float) -> str:
    seconds = int(max(0, seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s"


class Reporter:
    def __init__(self, run_dir, kinds, total_steps: int, tensorboard: bool = True, progress: bool = True,
                 progress_every: float = 5.0, resume_step: Optional[int] = None, stream=None, title: str = "",
                 quiet: bool = False):
        """``quiet``: count episodes and build rows but write nothing (no files, no lines):
        a torchrun rank other than 0."""
        self.run_dir = Path(run_dir)
        self.quiet = quiet
        self.title = title or self.run_dir.name
        self.kinds = list(dict.fromkeys(kinds))
        self.total_steps = total_steps
        self.progress, self.progress_every = progress, progress_every
        self.stream = stream or sys.stdout
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.columns = (["time", "update", "global_step"] + list(CHARTS)
                        + [f"charts/win_rate/{k}" for k in self.kinds] + [f"charts/glory/{k}" for k in self.kinds]
                        + list(LOSSES) + list(TIMES))
        self.outcomes = {k: deque(maxlen=WINDOW) for k in self.kinds}
        self.glory = {k: deque(maxlen=WINDOW) for k in self.kinds}
        self.returns = deque(maxlen=WINDOW * 5)
        self.ticks = deque(maxlen=WINDOW)
        self.episodes = 0
        self.started = time.perf_counter()
        self._last_print = 0.0
        self._line_open = False
        self.last = {}
        self.csv_path = self.run_dir / "metrics.csv"
        self._csv = self._writer = self.tb = None
        if not quiet:
            self._open_csv(resume_step)
        if tensorboard and not quiet:
            try:
                from torch.utils.tensorboard import SummaryWriter
                self.tb = SummaryWriter(str(self.run_dir / "tensorboard"),
                                        purge_step=None if resume_step is None else resume_step + 1)
            except ImportError as error:   # tensorboard is optional
                self.write(f"tensorboard logging off: {error}")

    # ---- CSV --------------------------------------------------------------------------
    def _open_csv(self, resume_step: Optional[int]) -> None:
        rows = []
        if resume_step is not None and self.csv_path.exists():
            with open(self.csv_path, newline="") as f:
                rows = [r for r in csv.DictReader(f) if _step_of(r) is not None and _step_of(r) <= resume_step]
        kept = io.StringIO(newline="")
        writer = csv.DictWriter(kept, self.columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
        write_text_atomic(self.csv_path, kept.getvalue())
        self._csv = open(self.csv_path, "a", newline="")
        self._writer = csv.DictWriter(self._csv, self.columns, extrasaction="ignore")

    # ---- inputs --------------------------------------------------------------------------
    def episode(self, record: dict) -> None:
        kind = kind_of(record["opponent"])
        if kind not in self.outcomes:
            self.outcomes[kind], self.glory[kind] = deque(maxlen=WINDOW), deque(maxlen=WINDOW)
        self.outcomes[kind].append(1.0 if record["outcome"] == 1 else 0.0)
        self.glory[kind].append(float(record["glory"]))
        self.ticks.append(record["ticks"])
        self.episodes += 1

    def windows(self) -> dict:
        """The episode count and the rolling windows the charts are read from, as plain data:
        a checkpoint keeps them, so a resumed run's curves go on where they were."""
        return {"episodes": self.episodes, "returns": list(self.returns), "ticks": list(self.ticks),
                "outcomes": {k: list(q) for k, q in self.outcomes.items()},
                "glory": {k: list(q) for k, q in self.glory.items()}}

    def restore(self, windows: dict) -> None:
        """Take up what ``windows()`` gave (of this run, or of its checkpoint)."""
        self.episodes = int(windows["episodes"])
        self.returns = deque(windows["returns"], maxlen=WINDOW * 5)
        self.ticks = deque(windows["ticks"], maxlen=WINDOW)
        for name, into in (("outcomes", self.outcomes), ("glory", self.glory)):
            for kind, values in windows[name].items():
                into[kind] = deque(values, maxlen=WINDOW)

    def episode_return(self, value: float) -> None:
        self.returns.append(float(value))

    def win_rate(self, kind: str) -> float:
        q = self.outcomes.get(kind)
        return sum(q) / len(q) if q else math.nan

    def mean_glory(self, kind: str) -> float:
        q = self.glory.get(kind)
        return sum(q) / len(q) if q else math.nan

    # ---- one row per update -------------------------------------------------------------------
    def log(self, update: int, global_step: int, metrics: dict, force_print: bool = False) -> dict:
        row = dict(metrics)
        row["charts/episodes"] = self.episodes
        row["charts/episode_return"] = sum(self.returns) / len(self.returns) if self.returns else math.nan
        row["charts/episode_ticks"] = sum(self.ticks) / len(self.ticks) if self.ticks else math.nan
        for k in self.kinds:
            row[f"charts/win_rate/{k}"] = self.win_rate(k)
            row[f"charts/glory/{k}"] = self.mean_glory(k)
        row.update(time=round(time.perf_counter() - self.started, 3), update=update, global_step=global_step)
        if self._writer is not None:
            self._writer.writerow({k: ("" if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()})
            self._csv.flush()
        if self.tb is not None:
            for k, v in row.items():
                if "/" in k and isinstance(v, (int, float)) and not math.isnan(v):
                    self.tb.add_scalar(k, v, global_step)
        self.last = row
        now = time.perf_counter()
        if self.progress and (force_print or now - self._last_print >= self.progress_every):
            self._last_print = now
            self.write(self.progress_line(row), transient=True)
        return row

    def progress_line(self, row: dict) -> str:
        step = row["global_step"]
        pct = 100.0 * step / max(1, self.total_steps)
        sps = row.get("charts/SPS", math.nan)
        eta = (self.total_steps - step) / sps if sps and sps == sps and sps > 0 else math.nan
        wins = " ".join(f"{k} {self.win_rate(k):.0%}" for k in self.kinds if self.outcomes.get(k))
        glory = [self.mean_glory(k) for k in self.kinds if self.glory.get(k)]
        ret = row["charts/episode_return"]
        reward = row.get("charts/reward_mean", math.nan)
        ticks = row["charts/episode_ticks"]
        zero_sum = self.kinds == ["self"]   # pure self-play: every reward has its opposite
        parts = [f"[{pct:5.1f}%] step {step:,}/{self.total_steps:,}", f"{sps:,.0f} steps/s",
                 f"reward/step {reward:+.4f}" if reward == reward and not zero_sum else "",
                 f"episodes {self.episodes}" + (f" ({ticks:,.0f} ticks)" if ticks == ticks else ""),
                 "" if zero_sum else f"return {ret:+.2f}" if ret == ret else "return -",
                 f"win {wins}" if wins else "win -",
                 f"Glory {sum(glory) / len(glory):.0f}" if glory else "Glory -",
                 f"eta {_fmt_time(eta)}" if eta == eta else ""]
        return " | ".join(p for p in parts if p)

    def write(self, text: str, transient: bool = False) -> None:
        """A line for the person watching; on a terminal the progress line is redrawn in place."""
        if self.quiet:
            return
        if self.tty and transient:
            self.stream.write("\r\033[K" + text)
            self._line_open = True
        else:
            if self._line_open:
                self.stream.write("\n")
                self._line_open = False
            self.stream.write(text + "\n")
        self.stream.flush()

    # ---- the end -------------------------------------------------------------------------------
    def plot(self) -> Optional[str]:
        """Learning curves from metrics.csv as plots/learning_curves.png."""
        rows = read_metrics(self.csv_path)
        if not rows:
            return None
        fig = learning_curves(rows, self.kinds, self.title)
        path = self.run_dir / "plots" / "learning_curves.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format="png", dpi=90)
        return str(path)

    def close(self) -> None:
        if self._line_open:
            self.stream.write("\n")
            self._line_open = False
        if self._csv is not None:
            self._csv.close()
        if self.tb is not None:
            self.tb.close()


def _step_of(row: dict) -> Optional[int]:
    """A metrics row's global_step; None for a row cut short (a run killed while writing it)."""
    if None in row.values() or None in row:   # fewer fields than the header, or more
        return None
    try:
        return int(row["global_step"])
    except (KeyError, TypeError, ValueError):
        return None


def read_metrics(csv_path) -> List[dict]:
    with open(csv_path, newline="") as f:
        return list(csv.DictReader(f))


def steps_formatter(last_step: float):
    """Agent-step tick labels in one unit along the whole axis: 0, 0.5M, 1M or 0, 20k, 40k."""
    from matplotlib.ticker import FuncFormatter

    scale, unit = (1e6, "M") if last_step >= 1e6 else (1e3, "k") if last_step >= 1e3 else (1, "")
    return FuncFormatter(lambda x, _pos: f"{x / scale:g}{unit}" if x else "0")


def learning_curves(rows: List[dict], kinds: List[str], title: str):
    """The learning-curves figure of metrics.csv rows: six panels over one agent-steps axis,
    win rate and Glory with one line per opponent kind (in the colour it has in both)."""
    import numpy as np
    from matplotlib.figure import Figure   # no pyplot: no global figure state, no backend to choose
    from matplotlib.ticker import PercentFormatter

    steps = np.array([int(r["global_step"]) for r in rows])

    def values(key):
        # NaN where the row has no value: a kind's line starts at its first finished episodes
        return np.array([float(r[key]) if r.get(key, "") != "" else np.nan for r in rows])

    # a marker on every point while there are few: a line of one point would not show
    style = {"marker": "o", "markersize": 3} if len(rows) <= 30 else {}
    fig = Figure(figsize=(15, 8.5), layout="constrained")
    axes = fig.subplots(2, 3, sharex=True)
    (ret, win, glory), (entropy, value_loss, sps) = axes
    for ax, key, panel_title in ((ret, "charts/episode_return", f"episode return (mean, last {WINDOW * 5} agents)"),
                                 (entropy, "losses/entropy", "policy entropy"),
                                 (value_loss, "losses/value_loss", "value loss"),
                                 (sps, "charts/SPS", "speed (agent-steps/s)")):
        ax.plot(steps, values(key), color="C0", **style)
        ax.set_title(panel_title)
    for ax, prefix, panel_title in ((win, "charts/win_rate/", f"win rate per opponent (last {WINDOW} episodes)"),
                                    (glory, "charts/glory/", f"Glory per opponent (mean, last {WINDOW} episodes)")):
        for i, kind in enumerate(kinds):
            # each line thinner than the one under it: equal rates (all 0% early on) still show every kind
            width = 1.2 + 1.6 * (len(kinds) - 1 - i) / max(len(kinds) - 1, 1)
            ax.plot(steps, values(prefix + kind), color=f"C{i}", linewidth=width, label=kind, **style)
        ax.set_title(panel_title)
    for ax in axes.flat:
        ax.grid(alpha=0.3)
        if not any(np.isfinite(line.get_ydata()).any() for line in ax.lines):
            ax.text(0.5, 0.5, "no data yet", transform=ax.transAxes, ha="center", va="center", color="grey")
    win.axhline(0.5, color="grey", linestyle=":", linewidth=1)   # even: the self-play line sits here
    win.set_ylim(-0.05, 1.05)
    win.yaxis.set_major_formatter(PercentFormatter(1.0))
    # from step 0, so a line that starts late is seen to start late
    ret.set_xlim(0, max(int(steps[-1]), 1))
    ret.xaxis.set_major_formatter(steps_formatter(steps[-1]))
    fig.supxlabel("agent-steps")
    if kinds:   # one legend for both per-opponent panels, beside them: it covers no data
        fig.legend(handles=win.get_lines()[:len(kinds)], title="opponent", loc="outside right upper")
    fig.suptitle(f"{title}: learning curves", fontsize="x-large")
    return fig


def print_summary(s: dict, reporter: Reporter, stream) -> None:
    """The end of a run for the person: speed, recent win rates, the evaluation, where everything is."""
    w = stream.write
    sps = s["global_step"] / max(s["seconds"], 1e-9)
    w(f"\ndone: {s['name']}: {s['global_step']:,} agent-steps in {_fmt_time(s['seconds'])} "
      f"({sps:,.0f} agent-steps/s; {s['cpu_seconds'] / 60:,.1f} CPU-minutes), {s['updates']} updates, "
      f"{reporter.episodes} episodes\n")
    wins = ", ".join(f"{k} {v:.0%}" for k, v in s["win_rate"].items() if v == v)
    if wins:
        w(f"  recent win rate  {wins}\n")
    if s["evaluation"]:
        w("  evaluation (greedy policy, each lane's first match):\n")
        w(format_table(s["evaluation"]) + "\n")
    w(f"  run dir          {s['run_dir']}\n")
    w(f"  checkpoint       {s['checkpoint']}\n")
    w(f"  policy           {s['policy']}\n")
    w(f"  metrics          {s['metrics']}\n")
    if s["tensorboard"]:
        w(f"  tensorboard      tensorboard --logdir {s['tensorboard']}\n")
    if s["plots"]:
        w(f"  learning curves  {s['plots']}\n")
    if s.get("resume_command"):
        more = " ".join(t for t in s["resume_command"].split(" ") if not t.startswith("trainer.total_steps="))
        w(f"  train on         {more} trainer.total_steps=<more>\n")
    stream.flush()


__all__ = ["Reporter", "kind_of", "read_metrics", "learning_curves", "print_summary", "LOSSES", "CHARTS"]
