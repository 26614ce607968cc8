"""Quick evaluation: a policy against registered opponents, every match at once.

    rows = evaluate(policy, opponents=("idle", "random", "base"), matches=4)
    for r in rows: print(r["opponent"], r["win_rate"], r["mean_glory"])

Each opponent gets ``matches`` lanes of a LearnerEnv without self-play (the
policy plays the learner team, five rows a lane; sides alternate with the lane
seeds), and each lane's first episode counts. A win is the other god destroyed;
Glory is the team score of the winners (0 for a loss, a draw or a timeout).
``gota_evaluation_finished`` is called with the table.

The policy plays as it was trained: at its ``play`` settings (ticks a decision,
upkeep, match keys, max ticks; gota_arena.policies.PlaySettings). ``settings``
serves a policy that has none (a file saved before they were recorded, a
hand-built policy); given for a policy that has them, they must agree.
``max_ticks`` is the one setting a caller may change, on request: shorter
evaluation matches.
"""
from __future__ import annotations

import time
from typing import Optional, Sequence

import numpy as np

from .. import plugins
from ..constants import MAX_BATTLE_TICKS, Result
from ..hookspecs import EvaluationFinished
from ..learner_env import LearnerEnv
from ..policies import PlaySettings, PlaySettingsError, acting_threads


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
    timeout), win_rate, mean_glory, mean_ticks, action_ticks, steps and seconds
    (of the whole evaluation)."""
    play = play_settings(policy, settings)
    opponents = list(opponents)
    built = [plugins.opponent(name) for name in opponents]
    lanes = matches * len(opponents)
    config = dict(play.match, max_ticks=int(max_ticks or play.max_ticks), upkeep=int(play.upkeep))
    start = time.perf_counter()
    with acting_threads(), LearnerEnv(lanes=lanes, self_play_lanes=0, opponents=lambda lane: built[lane // matches],
                                      reward="leaderboard", action_ticks=play.action_ticks, threads=threads,
                                      **config) as env:
        obs, masks = env.reset(seed=seed)
        state = policy.initial_state(env.agents)
        starts = np.ones(env.agents, dtype=bool)
        first = {}
        steps = 0
        while len(first) < lanes:
            out = policy.act(obs, masks, state=state, episode_start=starts, deterministic=deterministic)
            state = out.state
            obs, masks, _, dones, episodes = env.step(out.actions)
            starts = dones
            steps += 1
            for e in episodes:
                first.setdefault(e["lane"], e)
    rows = []
    for k, name in enumerate(opponents):
        eps = [first[lane] for lane in range(k * matches, (k + 1) * matches)]
        wins = sum(e["outcome"] == 1 for e in eps)
        no_winner = sum(e["result"] in (Result.DRAW, Result.TIMEOUT) for e in eps)
        rows.append({"opponent": name, "matches": len(eps), "wins": int(wins),
                     "losses": int(len(eps) - wins - no_winner), "no_winner": int(no_winner),
                     "win_rate": wins / len(eps), "mean_glory": float(np.mean([e["glory"] for e in eps])),
                     "mean_ticks": float(np.mean([e["ticks"] for e in eps])), "action_ticks": play.action_ticks,
                     "steps": steps,
                     "seconds": time.perf_counter() - start})
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
