"""A leaderboard run: build the entrants, schedule the games, play what is not
played yet, rank, write the reports.

Finished games are appended to ``games.jsonl`` in the output directory as they
end (one line each, flushed), so an interrupted run resumes without replaying
them: a game is identified by its seed and its red and blue entrants, and its
result depends on nothing else.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import List, Optional

from .. import plugins
from ..hookspecs import EvaluationFinished
from . import entrants as entrants_mod
from . import games as games_mod
from . import ratings, report


@dataclass
class Leaderboard:
    entrants: list                       # names, or dicts {name, opponent | checkpoint, options}
    games_per_pairing: int = 2           # seeds per pairing; each seed is played from both sides
    against: list = field(default_factory=list)   # empty: each against each; else each against these
    seed: int = 1000                     # first seed of the schedule
    lanes: int = 8                       # games played at once
    threads: int = 0                     # 0: one per core
    action_ticks: int = 4
    max_ticks: int = 28_800
    device: str = "cpu"
    replays: list = field(default_factory=list)   # game keys ("seed:red:blue") to keep as replays in DIR/replays

    def run(self, directory: str, quiet: bool = False) -> List[dict]:
        say = (lambda *a: None) if quiet else print
        os.makedirs(directory, exist_ok=True)
        built = [entrants_mod.build(e, self.device) for e in self.entrants]
        names = [e.name for e in built]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            raise ValueError(f"leaderboard entrant names must be unique; repeated: {', '.join(sorted(dupes))}")
        errors = {e.name: e.error for e in built if e.error}
        for name, why in errors.items():
            say(f"leaderboard: left out {name!r}: {why}")
        playing = {e.name: e.opponent for e in built if not e.error}
        against = [a for a in (entrants_mod.parse(x)["name"] for x in self.against) if a in playing]
        games = games_mod.schedule(list(playing), self.games_per_pairing, self.seed, against)
        log = os.path.join(directory, "games.jsonl")
        done = _read_log(log)
        todo = [g for g in games if g.key not in done]
        say(f"leaderboard: {len(playing)} entrants, {len(games)} games ({len(games) - len(todo)} already played)")
        with open(log, "a") as f:
            def record(result):
                f.write(json.dumps(result) + "\n")
                f.flush()
                done[result["key"]] = result
                say(f"  {len(done):>4}/{len(games)}  seed {result['seed']:>6}  {result['red']} (red) vs "
                    f"{result['blue']} (blue): {result['winner'] or result['result']} after {result['ticks']} ticks")

            games_mod.play(todo, playing, self.lanes, self.threads, self.action_ticks, self.max_ticks, record,
                           record=self.replays, replay_dir=os.path.join(directory, "replays"))
        results = [done[g.key] for g in games]
        rows = ratings.table(list(playing), results)
        matrix = ratings.matrix(list(playing), results)
        paths = report.write(directory, rows, matrix, errors, asdict(self))
        say(report.text_table(rows))
        say(f"leaderboard: wrote {', '.join(paths.values())}")
        plugins.manager().hook.gota_evaluation_finished(report=EvaluationFinished(rows, directory))
        return rows


def _read_log(path: str) -> dict:
    """Results already played; a torn last line (a crash mid-write) is ignored."""
    done = {}
    if not os.path.exists(path):
        return done
    with open(path) as f:
        for line in f:
            try:
                result = json.loads(line)
                done[result["key"]] = result
            except (json.JSONDecodeError, KeyError, TypeError):
                continue
    return done


__all__ = ["Leaderboard"]
