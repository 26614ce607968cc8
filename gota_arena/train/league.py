"""The opponent pool of the lanes without self-play: registered opponents
(bundled bots, plugins' opponents) by name and, in a league, frozen snapshots
of the learner.

    league = League(pool=["idle", "random", "base"], rule="pfsp", snapshots=True, directory=run_dir / "league")
    env = LearnerEnv(lanes=8, self_play_lanes=2, opponents=league.choose)   # one draw per lane and episode
    league.add_snapshot(policy, update=10)          # every opponent.snapshot_every updates
    league.record(episode)                          # the episode dicts of LearnerEnv.step
    league.table()                                  # the win-rate table (league.json in the run)

Rules (``opponent.rule``):
- ``uniform``: every entry (registered opponents and snapshots) alike;
- ``latest``: the newest snapshot; the registered opponents, uniformly, until there is one;
- ``pfsp``: prioritized fictitious self-play: weight ``(1 - p) ** k`` where p is
  the learner's recent win rate against the entry (the last ``window``
  episodes, with one pseudo-episode at 0.5 so a new entry starts at p = 0.5),
  but never below ``pfsp_floor``: an entry that is never drawn keeps its old p, so
  without a floor a beaten opponent is never met again and can be forgotten;
  all weights 0 falls back to uniform.

Snapshots are policy files written with ``gota_arena.policies.save_policy`` in
``directory`` (the state and the table name them relative to it, so a run
folder can move) and played by ``PolicyOpponent``; the oldest leaves the pool
beyond ``max_snapshots`` (its file stays). The draws use the league's own
numpy Generator, whose state is part of ``state_dict`` (checkpoints).
"""
from __future__ import annotations

import json
import os
from collections import deque
from pathlib import Path
from typing import Optional

import numpy as np

from .. import plugins
from ..files import write_text_atomic
from ..opponents import Opponent, PolicyOpponent
from ..policies import load_policy, save_policy

SNAPSHOT_PREFIX = "snapshot@"


class Entry:
    def __init__(self, name: str, kind: str, path: Optional[str] = None, update: int = 0, window: int = 50):
        self.name, self.kind, self.path, self.update = name, kind, path, update
        self.recent = deque(maxlen=window)   # 1 win, 0 otherwise
        self.games = self.wins = 0
        self.glory = 0.0
        self.opponent: Optional[Opponent] = None

    def win_rate(self) -> float:
        """recent win rate with one pseudo-episode at 0.5"""
        return (sum(self.recent) + 0.5) / (len(self.recent) + 1)

    def row(self) -> dict:
        return {"name": self.name, "kind": self.kind, "games": self.games, "wins": self.wins,
                "win_rate": self.wins / self.games if self.games else None,
                "recent_win_rate": sum(self.recent) / len(self.recent) if self.recent else None,
                "mean_glory": self.glory / self.games if self.games else None,
                "update": self.update, "file": os.path.basename(self.path) if self.path else None}


class League:
    def __init__(self, pool=("base",), rule: str = "uniform", options: Optional[dict] = None,
                 snapshots: bool = False, max_snapshots: int = 10, pfsp_power: float = 2.0, pfsp_floor: float = 0.0, window: int = 50,
                 deterministic: bool = False, directory=None, seed: int = 0, device: str = "cpu"):
        self.rule = getattr(rule, "value", rule)
        if self.rule not in ("latest", "uniform", "pfsp"):
            raise ValueError(f"unknown rule {rule!r}: latest, uniform or pfsp")
        self.snapshots, self.max_snapshots = snapshots, max_snapshots
        if not 0.0 <= pfsp_floor <= 1.0:
            raise ValueError(f"pfsp_floor={pfsp_floor} is outside [0, 1]: it is the least weight an entry gets under pfsp")
        self.pfsp_power, self.pfsp_floor = pfsp_power, pfsp_floor
        self.window, self.deterministic = window, deterministic
        self.directory = Path(directory) if directory is not None else None
        self.device = device
        self.rng = np.random.default_rng(seed)
        self.entries = []
        options = options or {}
        for name in pool:
            entry = Entry(name, "opponent", window=window)
            entry.opponent = plugins.opponent(name, **dict(options.get(name, {})))
            self.entries.append(entry)
        self.retired = []   # snapshots that left the pool (kept in the table)

    # ---- the draw ----------------------------------------------------------------
    def _active(self) -> list:
        snaps = [e for e in self.entries if e.kind == "snapshot"]
        return [e for e in self.entries if e.kind != "snapshot"] + snaps[-self.max_snapshots:]

    def weights(self) -> tuple:
        """(entries, probabilities) of the next draw."""
        active = self._active()
        if self.rule == "latest":
            snaps = [e for e in active if e.kind == "snapshot"]
            if snaps:
                return [snaps[-1]], np.ones(1)
            active = [e for e in active if e.kind != "snapshot"]
            w = np.ones(len(active))
        elif self.rule == "pfsp":
            w = np.array([max((1.0 - e.win_rate()) ** self.pfsp_power, self.pfsp_floor) for e in active])
        else:
            w = np.ones(len(active))
        if w.sum() <= 0:
            w = np.ones(len(active))
        return active, w / w.sum()

    def choose(self, lane: int) -> Opponent:
        """The opponent of a lane's next episode (LearnerEnv's ``opponents`` callable)."""
        active, p = self.weights()
        entry = active[int(self.rng.choice(len(active), p=p))]
        if entry.opponent is None:
            entry.opponent = self._load(entry)
        return entry.opponent

    # ---- results -------------------------------------------------------------------
    def find(self, name: str) -> Optional[Entry]:
        for e in self.entries:
            if e.name == name:
                return e
        return None

    def record(self, episode: dict) -> None:
        """Count a finished episode (a LearnerEnv episode dict) against its opponent."""
        entry = self.find(episode["opponent"])
        if entry is None:
            return
        win = 1 if episode["outcome"] == 1 else 0
        entry.recent.append(win)
        entry.games += 1
        entry.wins += win
        entry.glory += float(episode.get("glory", 0))

    def table(self) -> list:
        return [e.row() for e in self.entries]

    # ---- snapshots ---------------------------------------------------------------------
    def add_snapshot(self, policy, update: int, global_step: int = 0, write: bool = True) -> Entry:
        """Freeze the learner: a policy file in ``directory`` and a new pool entry.
        ``write=False``: the entry only, for a file another process writes (the ranks
        of a torchrun run other than 0; it is read when first drawn)."""
        if self.directory is None:
            raise ValueError("a league with snapshots needs a directory for their files")
        name = f"{SNAPSHOT_PREFIX}{update}"
        path = self.directory / f"snapshot-{update:07d}.safetensors"
        if write:
            save_policy(policy, str(path), extra={"update": update, "global_step": global_step})
        entry = Entry(name, "snapshot", str(path), update, self.window)
        self.entries.append(entry)
        snaps = [e for e in self.entries if e.kind == "snapshot"]
        for old in snaps[:-self.max_snapshots]:
            old.opponent = None   # out of the pool: free its weights
        return entry

    def _load(self, entry: Entry) -> Opponent:
        import torch

        with torch.random.fork_rng(devices=[]):   # building the module must not draw from the learner's
            policy = load_policy(entry.path, device=self.device)   # generator: a resumed run loads later
        if hasattr(policy, "eval"):
            policy.eval()
        return PolicyOpponent(policy, name=entry.name, deterministic=self.deterministic)

    # ---- checkpoints ----------------------------------------------------------------------
    def state_dict(self) -> dict:
        return {"rng": json.dumps(self.rng.bit_generator.state),
                "entries": [{"name": e.name, "kind": e.kind, "file": os.path.basename(e.path or ""), "update": e.update,
                             "recent": list(e.recent), "games": e.games, "wins": e.wins, "glory": e.glory}
                            for e in self.entries]}

    def load_state_dict(self, state: dict) -> None:
        self.rng.bit_generator.state = json.loads(state["rng"])
        by_name = {e.name: e for e in self.entries}
        entries = []
        for row in state["entries"]:
            entry = by_name.get(row["name"])
            if entry is None:
                if row["kind"] != "snapshot":
                    continue   # an opponent no longer in the pool
                path = os.path.join(str(self.directory), row["file"])
                if not os.path.isfile(path):
                    raise FileNotFoundError(f"league snapshot {path!r} of the checkpoint is missing")
                entry = Entry(row["name"], "snapshot", path, row["update"], self.window)
            entry.recent.extend(row["recent"])
            entry.games, entry.wins, entry.glory = row["games"], row["wins"], row["glory"]
            entries.append(entry)
        entries += [e for e in self.entries if e not in entries]   # pool names new since the checkpoint
        self.entries = entries

    def save_table(self, path) -> str:
        """The win-rate table as JSON (atomic)."""
        return write_text_atomic(path, json.dumps({"rule": self.rule, "entries": self.table()}, indent=1))


__all__ = ["League", "Entry", "SNAPSHOT_PREFIX"]
