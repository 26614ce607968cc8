"""Quick evaluation: a policy against registered opponents, every match at once.

    rows = evaluate(policy, opponents=("idle", "random", "base"), matches=4)
    for r in rows: print(r["opponent"], r["win_rate"], r["mean_glory"])

The matches are leaderboard games (``games.play``): the policy is an entrant
(``PolicyOpponent``) and meets each opponent in ``matches`` games, all in
lanes of one arena. Game i of the evaluation plays seed ``seed * lanes + i``
(opponent k has games ``k * matches`` to ``(k + 1) * matches - 1``), with the
policy on the team that seed gives the learner, so sides alternate with the
seeds. A win is the other god destroyed; Glory is the team score of the winners
(0 for a loss, a draw or a timeout). ``gota_evaluation_finished`` is called
with the table.

The policy plays as it was trained: at its ``play`` settings (ticks a decision,
upkeep, match keys, max ticks; gota_arena.policies.PlaySettings). ``settings``
serves a policy that has none (a file saved before they were recorded, a
hand-built policy); given for a policy that has them, they must agree.
``max_ticks`` is the one setting a caller may change, on request: shorter
evaluation matches, for every player.
"""
from __future__ import annotations

import dataclasses
import math
import time
from typing import Optional, Sequence

import numpy as np

from .. import plugins
from ..arena import learner_team
from ..constants import MAX_BATTLE_TICKS, Team
from ..hookspecs import EvaluationFinished
from ..opponents import PolicyOpponent
from ..policies import PlaySettings, PlaySettingsError
from .games import Game, play

EVALUATED = "the evaluated policy"   # its entrant name: no registered opponent's


def play_settings(policy, settings: Optional[PlaySettings] = None) -> PlaySettings:
    """The settings ``policy`` is played under: its own, else ``settings``, else the
    defaults of a run (4 ticks a decision, 28,800 max ticks, upkeep on)."""
    own = getattr(policy, "play", None)
    if own is not None and settings is not None and own != settings:
        raise PlaySettingsError(f"this policy was trained under {own.describe()}; it cannot be evaluated under "
                                f"{settings.describe()}: leave the settings to the policy")
    return own or settings or PlaySettings(action_ticks=4, max_ticks=MAX_BATTLE_TICKS, upkeep=True)


def evaluate(policy, opponents: Sequence[str] = ("idle", "random", "base"), matches: int = 4,
             deterministic: bool = True, seed: int = 100_000, threads: int = 0,
             settings: Optional[PlaySettings] = None, max_ticks: Optional[int] = None,
             output_dir: Optional[str] = None, hook: bool = True) -> list:
    """One row per opponent: opponent, matches, wins, losses, no_winner (draw or
    timeout), win_rate, mean_glory, mean_ticks, action_ticks, steps (decisions)
    and seconds (of the whole evaluation)."""
    start = time.perf_counter()
    evaluated = PolicyOpponent(policy, name=EVALUATED, deterministic=deterministic)
    evaluated.play = play_settings(policy, settings)
    entrants = {name: plugins.opponent(name) for name in opponents}
    entrants[EVALUATED] = evaluated
    if max_ticks:
        for entrant in entrants.values():
            if entrant.play is not None:
                entrant.play = dataclasses.replace(entrant.play, max_ticks=int(max_ticks))
    lanes = matches * len(opponents)
    games = []
    for k, name in enumerate(opponents):
        for i in range(k * matches, (k + 1) * matches):
            s = seed * lanes + i
            games.append(Game(s, EVALUATED, name) if learner_team(s) == Team.RED else Game(s, name, EVALUATED))
    results = {r["key"]: r for r in play(games, entrants, lanes, threads, max_ticks=evaluated.play.max_ticks)}
    ticks = evaluated.play.action_ticks
    steps = max(math.ceil(r["ticks"] / ticks) for r in results.values())   # every game began at step 0
    rows = []
    for k, name in enumerate(opponents):
        played = games[k * matches:(k + 1) * matches]
        mine = [(results[g.key], "red" if g.red == EVALUATED else "blue") for g in played]   # the policy's side
        wins = sum(r["winner"] == side for r, side in mine)
        no_winner = sum(r["winner"] is None for r, _ in mine)
        glory = [r[f"{side}_glory"] for r, side in mine]
        rows.append({"opponent": name, "matches": len(mine), "wins": int(wins),
                     "losses": int(len(mine) - wins - no_winner), "no_winner": int(no_winner),
                     "win_rate": wins / len(mine), "mean_glory": float(np.mean(glory)),
                     "mean_ticks": float(np.mean([r["ticks"] for r, _ in mine])), "action_ticks": ticks,
                     "steps": steps, "seconds": time.perf_counter() - start})
    if hook:
        plugins.notify("gota_evaluation_finished", report=EvaluationFinished(table=rows, output_dir=output_dir))
    return rows


def format_table(rows: list) -> str:
    lines = [f"  {'opponent':<10} {'matches':>7} {'wins':>5} {'losses':>6} {'no win':>6} {'win rate':>9} "
             f"{'Glory':>7} {'ticks':>7}"]
    for r in rows:
        lines.append(f"  {r['opponent']:<10} {r['matches']:>7} {r['wins']:>5} {r['losses']:>6} {r['no_winner']:>6} "
                     f"{r['win_rate']:>8.0%} {r['mean_glory']:>7.0f} {r['mean_ticks']:>7.0f}")
    return "\n".join(lines)


__all__ = ["evaluate", "format_table", "play_settings"]
