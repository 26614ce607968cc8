"""Leaderboard outputs: the terminal table, leaderboard.{csv,json,md} and a PNG
(win-rate matrix heatmap, ratings with their uncertainty). Files are written
atomically (temp file, then rename)."""
from __future__ import annotations

import csv
import io
import json
import os
from typing import List

from ..files import atomic_path, write_text_atomic

COLUMNS = ("rank", "entrant", "games", "wins", "losses", "draws", "timeouts", "win_rate", "win_rate_lo",
           "win_rate_hi", "mean_score", "mean_glory", "mean_xp", "rating", "rating_mu", "rating_sigma")


# how ratings.table orders the rows (docs/leaderboard.md, "Ranking follows ...")
RANKING = ("ranked by (wins - losses) per game, then mean score, then mean Glory, then mean team XP, then rating;",
           "a draw or timeout is neither a win nor a loss, so a higher win rate with more losses can rank lower")


def text_table(rows: List[dict]) -> str:
    lines = [f"{'#':>2}  {'entrant':<22} {'games':>5}  {'W-L-D-T':<13} {'win rate (95% CI)':<22} "
             f"{'score':>7} {'glory':>7} {'xp':>7} {'rating':>7}"]
    for r in rows:
        wldt = f"{r['wins']}-{r['losses']}-{r['draws']}-{r['timeouts']}"
        ci = f"{r['win_rate']:.2f} [{r['win_rate_lo']:.2f}, {r['win_rate_hi']:.2f}]"
        lines.append(f"{r['rank']:>2}  {r['entrant']:<22} {r['games']:>5}  {wldt:<13} {ci:<22} "
                     f"{r['mean_score']:>7.0f} {r['mean_glory']:>7.0f} {r['mean_xp']:>7.0f} {r['rating']:>7.2f}")
    return "\n".join(lines + list(RANKING))


def markdown(rows: List[dict], matrix: dict, errors: dict) -> str:
    out = ["| # | entrant | games | W | L | D | T | win rate [95% CI] | mean score | mean Glory | mean team XP | rating (mu ± sigma) |",
           "|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"]
    for r in rows:
        out.append(f"| {r['rank']} | {r['entrant']} | {r['games']} | {r['wins']} | {r['losses']} | {r['draws']} | "
                   f"{r['timeouts']} | {r['win_rate']:.2f} [{r['win_rate_lo']:.2f}, {r['win_rate_hi']:.2f}] | "
                   f"{r['mean_score']:.0f} | {r['mean_glory']:.0f} | {r['mean_xp']:.0f} | {r['rating']:.2f} "
                   f"({r['rating_mu']:.1f} ± {r['rating_sigma']:.1f}) |")
    ranking = " ".join(RANKING)
    out += ["", ranking[0].upper() + ranking[1:] + "."]
    names = [r["entrant"] for r in rows]
    out += ["", "Wins-draws/timeouts-losses of the row against the column:", "",
            "| | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for a in names:
        cells = ["-" if a == b else "-".join(str(v) for v in matrix[a][b]) for b in names]
        out.append(f"| {a} | " + " | ".join(cells) + " |")
    if errors:
        out += ["", "Left out:", ""] + [f"- {name}: {why}" for name, why in errors.items()]
    return "\n".join(out) + "\n"


def write(directory: str, rows: List[dict], matrix: dict, errors: dict, config: dict) -> dict:
    os.makedirs(directory, exist_ok=True)
    paths = {k: os.path.join(directory, f"leaderboard.{k}") for k in ("csv", "json", "md", "png")}
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    write_text_atomic(paths["csv"], buf.getvalue())
    write_text_atomic(paths["json"], json.dumps({"table": rows, "matrix": matrix, "left_out": errors,
                                                 "config": config}, indent=2))
    write_text_atomic(paths["md"], markdown(rows, matrix, errors))
    plot(paths["png"], rows, matrix)
    return paths


def plot(path: str, rows: List[dict], matrix: dict) -> None:
    with atomic_path(path) as tmp:
        figure(rows, matrix).savefig(tmp, format="png", dpi=110)


def figure(rows: List[dict], matrix: dict):
    """The win-rate heatmap and the ratings of every ranked entrant, whatever it is: a bot, a
    script, a plugin's opponent or a policy checkpoint (shown by its entrant name)."""
    import numpy as np
    from matplotlib.figure import Figure   # no pyplot: no global figure state, no backend to choose

    names = [r["entrant"] for r in rows]
    n = len(names)
    rate = np.full((n, n), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if a != b and sum(matrix[a][b]):
                w, d, l = matrix[a][b]
                rate[i, j] = (w + 0.5 * d) / (w + d + l)
    fig = Figure(figsize=(4 + 1.6 * n, 1.5 + 0.6 * n), layout="tight")
    ax1, ax2 = fig.subplots(1, 2)
    im = ax1.imshow(rate, vmin=0, vmax=1, cmap="RdYlGn")
    ax1.set_xticks(range(n), names, rotation=45, ha="right")
    ax1.set_yticks(range(n), names)
    for i in range(n):
        for j in range(n):
            if not np.isnan(rate[i, j]):
                ax1.text(j, i, f"{rate[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax1.set_title("score of row vs column (win 1, draw/timeout 0.5)")
    fig.colorbar(im, ax=ax1, fraction=0.046)
    mu = [r["rating_mu"] for r in rows]
    sigma = [r["rating_sigma"] for r in rows]
    ax2.errorbar(mu, range(n), xerr=[3 * s for s in sigma], fmt="o", capsize=4)
    ax2.set_yticks(range(n), names)
    ax2.invert_yaxis()
    ax2.set_xlabel("openskill mu ± 3 sigma")
    ax2.set_title("ratings")
    return fig


__all__ = ["write", "text_table", "markdown", "plot", "figure"]
