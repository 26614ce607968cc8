"""Play a list of games on one arena, every lane busy, every core used.

A ``Game`` is (seed, red entrant, blue entrant). The games are played in a
``LearnerEnv`` whose chooser deals them out: each lane plays one game after
another, and a lane's next game is set when its current one begins (the lane
restarts inside the step that ends a game), as a ``Fixture``: its seed, and who
plays the learner team and the other team. The seed fixes which team is the
arena's learner team, so the red and blue entrants are mapped onto them per
game. A native bot or a script plays inside the simulator; a Python entrant is
asked for its team's rows by the env. Lanes with nothing left to play run
``idle`` against ``idle`` until the last game ends, and their results are
ignored.

Entrants that record their decision interval (policies, ``Opponent.play``) act
at it: the arena steps at ``action_ticks``, a divisor of every such interval
(``arena_settings``), and an entrant trained at k ticks decides every k /
action_ticks steps from its game's start, its seats noop (orders held) between.
So two policies trained at different intervals can meet, each at its own.

A game's result depends only on its seed and its two entrants (lanes are
isolated, bots are seeded, checkpoints play greedily), not on the lane or the
batch it ran in: results can be cached and resumed.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional

import numpy as np

from ..arena import learner_team
from ..constants import MAX_BATTLE_TICKS, Result, Team
from ..contract import HEADS
from ..learner_env import Fixture, LearnerEnv
from ..opponents import BotOpponent, Opponent
from ..policies import PlaySettingsError, acting_threads
from ..rewards import OUTCOME, TEAM_SCORE, TEAM_XP

RESULTS = {int(r): r.name.lower() for r in sorted(Result) if r != Result.RUNNING}   # 1 "win", 2 "draw", 3 "timeout"


@dataclass(frozen=True)
class Game:
    seed: int
    red: str
    blue: str

    @property
    def key(self) -> str:
        return f"{self.seed}:{self.red}:{self.blue}"


@dataclass(frozen=True)
class ArenaSettings:
    """What the arena of a set of entrants runs at."""

    action_ticks: int    # ticks a step: divides every entrant's own interval
    max_ticks: int
    upkeep: bool
    match: dict


def arena_settings(entrants: Dict[str, Opponent], action_ticks: int = 4, max_ticks: int = MAX_BATTLE_TICKS,
                   upkeep: Optional[bool] = None) -> ArenaSettings:
    """The one arena every entrant can play in as it was trained. Python entrants
    without recorded settings act at ``action_ticks``; bots and scripts play inside
    the simulator at any interval. PlaySettingsError, naming the entrants, when
    recorded settings disagree with each other or with ``max_ticks`` / ``upkeep``."""
    recorded = {name: e.play for name, e in entrants.items() if not e.native and e.play is not None}
    unrecorded = any(not e.native and e.play is None for e in entrants.values())
    intervals = [p.action_ticks for p in recorded.values()] + ([action_ticks] if unrecorded or not recorded else [])
    for name, p in recorded.items():
        if p.max_ticks != max_ticks:
            raise PlaySettingsError(f"entrant {name!r} was trained with max_ticks={p.max_ticks}, the games here "
                                    f"end at max_ticks={max_ticks}: set max_ticks={p.max_ticks} to play it as trained")
    for what in ("upkeep", "match"):
        values = {name: getattr(p, what) for name, p in recorded.items()}
        if upkeep is not None and what == "upkeep":
            values["this evaluation"] = bool(upkeep)
        if len({repr(v) for v in values.values()}) > 1:
            listed = "; ".join(f"{name}: {value}" for name, value in values.items())
            raise PlaySettingsError(f"entrants were trained with different {what} settings ({listed}); one arena "
                                    "cannot honour them all: evaluate them in separate runs")
    first = next(iter(recorded.values()), None)
    return ArenaSettings(math.gcd(*intervals), max_ticks, first.upkeep if first else (True if upkeep is None else upkeep),
                         dict(first.match) if first else {})


def play(games: List[Game], entrants: Dict[str, Opponent], lanes: int, threads: int = 0, action_ticks: int = 4,
         max_ticks: int = MAX_BATTLE_TICKS, on_result: Callable[[dict], None] = None, record: Iterable[str] = (),
         replay_dir=None) -> List[dict]:
    """Play every game; returns one result dict per game (in finishing order).
    ``action_ticks`` is the interval of the entrants that record none; each
    entrant that does acts at its own (``arena_settings``).
    ``record``: keys of the games to write as replay files to ``replay_dir``
    (``{seed}_{red}_{blue}.gotareplay``, checked to the same final hash; the
    result then names the file under "replay")."""
    queue = list(games)
    results = []
    if not queue:
        return results
    lanes = max(1, min(lanes, len(queue)))
    playing = {name: entrants[name] for g in queue for name in (g.red, g.blue)}
    settings = arena_settings(playing, action_ticks, max_ticks)
    idle = BotOpponent("idle")
    dealt = [None] * lanes   # the game each lane starts next

    def deal(lane: int) -> Fixture:
        game = queue.pop(0) if queue else None
        dealt[lane] = game
        if game is None:
            return Fixture(idle, learner=idle)   # nothing left to play: not counted
        red, blue = entrants[game.red], entrants[game.blue]
        learner, other = (red, blue) if learner_team(game.seed) == Team.RED else (blue, red)
        return Fixture(other, learner=learner, seed=game.seed, game=game)

    with acting_threads(), LearnerEnv(lanes=lanes, self_play_lanes=0, opponents=deal, reward="leaderboard",
                                      action_ticks=settings.action_ticks, threads=threads, max_ticks=max_ticks,
                                      upkeep=int(settings.upkeep), **settings.match) as env:
        env.recorder = _recorder(env.arena, dealt, set(record), replay_dir)
        env.reset()
        noop = np.zeros((env.agents, HEADS), dtype=np.int32)   # every learner row is an entrant's
        while len(results) < len(games):
            *_, episodes = env.step(noop)
            for episode in episodes:
                if episode["game"] is None:
                    continue
                result = _result(episode)
                if env.recorder and episode["game"].key in env.recorder.saved:
                    result["replay"] = str(env.recorder.saved.pop(episode["game"].key))
                results.append(result)
                if on_result:
                    on_result(result)
    return results


def _recorder(arena, dealt: list, keys: set, directory):
    """An ArenaRecorder (gota_arena.replay) of the games named in ``keys``: each
    lane's episode is recorded when the game starting on it is one of them."""
    if not keys:
        return None
    if directory is None:
        raise ValueError("games.play: record= needs replay_dir= (the folder for the replay files)")
    from ..replay import SUFFIX, ArenaRecorder

    def select(lane: int, info: dict):
        game = dealt[lane]           # the game the lane starts now (its next one is dealt after the hooks)
        return {"game": game.key} if game is not None and game.key in keys and game.seed == info["seed"] else None

    rec = ArenaRecorder(arena, lanes=range(arena.lanes), directory=directory, keep=False, select=select,
                        name=lambda r: re.sub(r"[^A-Za-z0-9._-]", "_", r.source["game"]) + SUFFIX,
                        on_replay=lambda r: rec.saved.__setitem__(r.source["game"], r.path))
    rec.saved = {}
    return rec


def _result(episode: dict) -> dict:
    """A game's result from its episode record (the learner team's stats, both teams' signals)."""
    game, signals = episode["game"], episode["signals"]
    teams = (Team.RED, Team.BLUE)
    outcome = [int(signals[t, OUTCOME]) for t in teams]
    score = [int(signals[t, TEAM_SCORE]) for t in teams]
    xp = [int(signals[t, TEAM_XP]) for t in teams]
    winner = "red" if outcome[Team.RED] == 1 else "blue" if outcome[Team.BLUE] == 1 else None
    result = int(episode["result"])
    return {"key": game.key, "seed": game.seed, "red": game.red, "blue": game.blue,
            "result": RESULTS.get(result, str(result)), "winner": winner, "ticks": int(episode["ticks"]),
            "red_score": score[0], "blue_score": score[1], "red_xp": xp[0], "blue_xp": xp[1],
            "red_glory": score[0] if winner == "red" else 0, "blue_glory": score[1] if winner == "blue" else 0}


def schedule(names: Iterable[str], games_per_pairing: int, seed: int, against: Iterable[str] = ()) -> List[Game]:
    """Each pairing (each against each, or each against the ``against`` set) on
    ``games_per_pairing`` seeds, every seed played from both sides."""
    names = list(names)
    fixed = list(against)
    if fixed:
        pairs = [(a, b) for a in names if a not in fixed for b in fixed]
    else:
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    games = []
    for p, (a, b) in enumerate(pairs):
        for k in range(games_per_pairing):
            s = seed + 10 * (p * games_per_pairing + k)
            games += [Game(s, a, b), Game(s, b, a)]
    return games


__all__ = ["Game", "ArenaSettings", "arena_settings", "play", "schedule", "learner_team"]
