"""A leaderboard run: build the entrants, schedule the games, play what is not
played yet, rank, write the reports.

Finished games are appended to ``games.jsonl`` in the output directory as they
end (one line each, flushed), so an interrupted run resumes without replaying
them: a game is identified by its seed and its red and blue entrants, and its
result depends on nothing else.

A leaderboard can be split among jobs (a Hydra sweep, docs/scaling.md): with
``shards=N``, job ``shard=i`` plays every N-th game of the schedule from the
i-th into its own folder (games.jsonl and ``shard.json``) and ranks nothing;
``merge(<folder above the shards>)`` checks that every shard is there and
complete and writes the report the single run would have written.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import List, Optional

from .. import plugins
from ..constants import MAX_BATTLE_TICKS
from ..errors import GotaError
from ..files import write_text_atomic
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
    action_ticks: int = 4                # ticks a decision of the Python entrants that record none
    max_ticks: int = MAX_BATTLE_TICKS
    device: str = "cpu"
    replays: list = field(default_factory=list)   # game keys ("seed:red:blue") to keep as replays in DIR/replays
    shards: int = 1                      # jobs the games are split among
    shard: int = 0                       # the one this is, 0..shards-1

    def __post_init__(self):
        if self.shards < 1 or not 0 <= self.shard < self.shards:
            raise ValueError(f"leaderboard.shard={self.shard} with leaderboard.shards={self.shards}: the shard must "
                             f"be in 0..shards-1 (and shards >= 1)")

    def run(self, directory: str, quiet: bool = False) -> List[dict]:
        """Play what is not played yet and write the report: the ranked table. A shard
        (``shards > 1``) plays its share only, writes ``shard.json`` and returns its game results."""
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
        settings = games_mod.arena_settings(playing, self.action_ticks, self.max_ticks)   # refuse before playing
        paced = [f"{name} every {o.play.action_ticks if o.play else self.action_ticks} ticks"
                 for name, o in playing.items() if not o.native]
        if paced:
            say(f"leaderboard: policies act as trained: {', '.join(paced)} (the arena steps "
                f"{settings.action_ticks} ticks at a time)")
        against = [a for a in (entrants_mod.parse(x)["name"] for x in self.against) if a in playing]
        games = games_mod.schedule(list(playing), self.games_per_pairing, self.seed, against)
        if self.shards > 1:
            games = games[self.shard::self.shards]
        log = os.path.join(directory, "games.jsonl")
        done = _read_log(log)
        todo = [g for g in games if g.key not in done]
        share = f" (shard {self.shard} of {self.shards})" if self.shards > 1 else ""
        say(f"leaderboard: {len(playing)} entrants, {len(games)} games{share} "
            f"({len(games) - len(todo)} already played)")
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
        if self.shards > 1:
            shared = {k: v for k, v in asdict(self).items() if k != "shard"}   # the same in every shard
            write_text_atomic(os.path.join(directory, SHARD), json.dumps(
                {"shard": self.shard, "config": shared, "entrants": list(playing), "left_out": errors,
                 "games": [g.key for g in games]}, indent=1))
            say(f"leaderboard: shard {self.shard} of {self.shards} played; the report of all shards: "
                "python -m gota_arena leaderboard-merge <the folder above the shards' folders>")
            return results
        return _rank(directory, list(playing), results, errors, asdict(self), say)


SHARD = "shard.json"


def merge(directory: str, out: Optional[str] = None, quiet: bool = False) -> List[dict]:
    """The report of a leaderboard split into shards: the shards' folders are found under
    ``directory`` (a Hydra sweep folder); the report goes to ``out`` (default ``directory``).
    GotaError when a shard is missing, unfinished, repeated or of another leaderboard."""
    say = (lambda *a: None) if quiet else print
    found = sorted(Path(directory).rglob(SHARD))
    if not found:
        raise GotaError(f"no {SHARD} under {directory}: give the sweep folder of a leaderboard run with "
                        "leaderboard.shards > 1 (its jobs' folders hold the shards)")
    shards, first = {}, json.loads(found[0].read_text())
    for path in found:
        meta = json.loads(path.read_text())
        if meta["config"] != first["config"] or meta["entrants"] != first["entrants"]:
            raise GotaError(f"{path.parent} and {found[0].parent} are shards of different leaderboards "
                            "(their configs differ): merge one sweep folder at a time")
        if meta["shard"] in shards:
            raise GotaError(f"shard {meta['shard']} is in two folders, {shards[meta['shard']][0]} and "
                            f"{path.parent}: merge one sweep folder at a time")
        shards[meta["shard"]] = (path.parent, meta)
    config = first["config"]
    missing = sorted(set(range(config["shards"])) - set(shards))
    if missing:
        raise GotaError(f"shard(s) {', '.join(map(str, missing))} of {config['shards']} missing under {directory}: "
                        f"run them (leaderboard.shard=<i> leaderboard.shards={config['shards']}) into this sweep "
                        "folder (hydra.sweep.dir) first")
    done = {}
    for index, (folder, meta) in sorted(shards.items()):
        played = _read_log(os.path.join(folder, "games.jsonl"))
        left = [key for key in meta["games"] if key not in played]
        if left:
            raise GotaError(f"shard {index} ({folder}) has {len(left)} of its {len(meta['games'])} games left: "
                            "run it again with the same overrides and hydra.sweep.dir to finish it")
        done.update((key, played[key]) for key in meta["games"])
    entrants, errors = first["entrants"], first["left_out"]
    against = [a for a in (entrants_mod.parse(x)["name"] for x in config["against"]) if a in entrants]
    games = games_mod.schedule(entrants, config["games_per_pairing"], config["seed"], against)
    say(f"leaderboard: merged {len(shards)} shards, {len(games)} games")
    return _rank(out or directory, entrants, [done[g.key] for g in games], errors, config, say)


def _rank(directory: str, names: List[str], results: List[dict], errors: dict, config: dict, say) -> List[dict]:
    """Rank the results, write the reports, tell the hooks; the ranked table."""
    rows = ratings.table(names, results)
    matrix = ratings.matrix(names, results)
    paths = report.write(directory, rows, matrix, errors, config)
    say(report.text_table(rows))
    say(f"leaderboard: wrote {', '.join(paths.values())}")
    plugins.notify("gota_evaluation_finished", report=EvaluationFinished(rows, directory))
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


__all__ = ["Leaderboard", "merge", "SHARD"]
