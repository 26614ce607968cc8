"""From game results to a ranked table: counts, Wilson intervals, openskill
ratings, mean leaderboard score and Glory, and the pairwise matrix.

Ranking follows the GotA league (win/loss, then Score, then Glory): entrants
are ordered by (wins - losses) per game, then mean score, then mean Glory, then
mean team XP (which separates teams that only ever time out), then the
openskill ordinal (mu - 3 sigma; a draw or a timeout is a tie). The rating is
reported for every entrant; it is the ranking's last word because sequential
updates make it depend on game order when records are equal.
"""
from __future__ import annotations

import math
from typing import Dict, List

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple:
    """The Wilson score interval of a win rate (0, 0) for no games."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _ratings(names: List[str], results: List[dict]) -> Dict[str, tuple]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rating = {n: model.rating(name=n) for n in names}
    for r in sorted(results, key=lambda r: r["key"]):   # a fixed order: the same table on resume
        red, blue = rating[r["red"]], rating[r["blue"]]
        ranks = [0, 1] if r["winner"] == "red" else [1, 0] if r["winner"] == "blue" else [0, 0]
        [[red], [blue]] = model.rate([[red], [blue]], ranks=ranks)
        rating[r["red"]], rating[r["blue"]] = red, blue
    return {n: (rating[n].mu, rating[n].sigma, rating[n].ordinal()) for n in names}


def table(names: List[str], results: List[dict]) -> List[dict]:
    rows = {n: {"entrant": n, "games": 0, "wins": 0, "losses": 0, "draws": 0, "timeouts": 0,
                "score_sum": 0, "glory_sum": 0, "xp_sum": 0} for n in names}
    for r in results:
        for side, other in (("red", "blue"), ("blue", "red")):
            row = rows[r[side]]
            row["games"] += 1
            row["score_sum"] += r[f"{side}_score"]
            row["glory_sum"] += r[f"{side}_glory"]
            row["xp_sum"] += r.get(f"{side}_xp", 0)
            if r["winner"] == side:
                row["wins"] += 1
            elif r["winner"] == other:
                row["losses"] += 1
            elif r["result"] == "timeout":
                row["timeouts"] += 1
            else:
                row["draws"] += 1
    ratings = _ratings(names, results)
    out = []
    for n, row in rows.items():
        g = row["games"]
        lo, hi = wilson(row["wins"], g)
        mu, sigma, ordinal = ratings[n]
        out.append({"entrant": n, "games": g, "wins": row["wins"], "losses": row["losses"], "draws": row["draws"],
                    "timeouts": row["timeouts"], "win_rate": row["wins"] / g if g else 0.0,
                    "win_rate_lo": lo, "win_rate_hi": hi, "mean_score": row["score_sum"] / g if g else 0.0,
                    "mean_glory": row["glory_sum"] / g if g else 0.0, "mean_xp": row["xp_sum"] / g if g else 0.0,
                    "rating_mu": mu, "rating_sigma": sigma,
                    "rating": ordinal})
    out.sort(key=lambda r: (-(r["wins"] - r["losses"]) / max(r["games"], 1), -r["mean_score"], -r["mean_glory"],
                            -r["mean_xp"], -r["rating"], r["entrant"]))
    for rank, row in enumerate(out, 1):
        row["rank"] = rank
    return out


def matrix(names: List[str], results: List[dict]) -> Dict[str, Dict[str, List[int]]]:
    """matrix[a][b] = [wins, draws or timeouts, losses] of a against b."""
    m = {a: {b: [0, 0, 0] for b in names if b != a} for a in names}
    for r in results:
        for side, other in (("red", "blue"), ("blue", "red")):
            a, b = r[side], r[other]
            m[a][b][0 if r["winner"] == side else 2 if r["winner"] == other else 1] += 1
    return m


__all__ = ["wilson", "table", "matrix"]
