"""Play a list of games on one arena, every lane busy, every core used.

A ``Game`` is (seed, red entrant, blue entrant). Each lane plays one game after
another: its next game's controllers and seed are set when its current game
begins (the lane restarts inside the step that ends a game). For each team:
a native bot is set in the simulator (``set_learner_bot`` / ``set_opponent``);
a Python entrant gets that team's rows every step. The seed fixes which team is
the arena's "learner" team, so the red and blue entrants are mapped onto the
learner and other team per game. Lanes with nothing left to play run ``idle``
against ``idle`` until the last game ends, and their results are ignored.

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

from ..arena import Arena, learner_team
from ..constants import MAX_BATTLE_TICKS, SEATS_PER_TEAM, Result, Team
from ..contract import HEADS
from ..opponents import Opponent, SeatBatch, check_actions
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


class _Lane:
    def __init__(self):
        self.game = None       # running
        self.pending = None    # the next start's game
        self.controllers = (None, None)   # (learner team, other team) of the running game


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
    every = {id(e): (e.play.action_ticks if e.play is not None else action_ticks) // settings.action_ticks
             for e in playing.values() if not e.native}   # steps between an entrant's decisions
    with acting_threads(), Arena(lanes=lanes, action_ticks=settings.action_ticks, self_play=True, threads=threads,
                                 max_ticks=max_ticks, upkeep=int(settings.upkeep), **settings.match) as arena:
        state = [_Lane() for _ in range(lanes)]
        recorder = _recorder(arena, state, set(record), replay_dir)

        def plan(lane: int) -> None:
            """Controllers and seed of the lane's next start."""
            game = queue.pop(0) if queue else None
            state[lane].pending = game
            if game is None:
                arena.set_learner_bot(lane, "idle")
                arena.set_opponent(lane, "idle")
                return
            red, blue = entrants[game.red], entrants[game.blue]
            mine, other = (red, blue) if learner_team(game.seed) == Team.RED else (blue, red)
            if mine.script is not None:
                arena.set_learner_script(lane, mine.script)
            else:
                arena.set_learner_bot(lane, mine.bot)
            if other.script is not None:
                arena.set_opponent_script(lane, other.script)
            else:
                arena.set_opponent(lane, other.bot or "external")
            arena.set_next_seed(lane, game.seed)

        def begin(lane: int) -> None:
            s = state[lane]
            s.game = s.pending
            if s.game is not None:
                red, blue = entrants[s.game.red], entrants[s.game.blue]
                s.controllers = (red, blue) if learner_team(s.game.seed) == Team.RED else (blue, red)
            plan(lane)

        for lane in range(lanes):
            plan(lane)
        arena.reset(-1)
        if recorder:
            recorder.after_reset()
        starts = np.ones(lanes, dtype=bool)
        lane_steps = np.zeros(lanes, dtype=np.int64)   # steps since the lane's game began
        for lane in range(lanes):
            begin(lane)
        actions = np.zeros((arena.agents, HEADS), dtype=np.int32)
        apl = arena.agents_per_lane   # self-play: every seat of a lane is a row, the learner team's first
        while any(s.game is not None for s in state):
            actions[:] = 0
            for opponent, rows in _python_rows(state, lane_steps, every, apl).items():
                rows = np.asarray(rows, dtype=np.int64)
                seats = SeatBatch(arena.obs[rows], arena.masks[rows], rows // apl, rows, starts[rows // apl])
                actions[rows] = check_actions(opponent.name, opponent.act(seats), seats.masks)
            if recorder:
                recorder.before_step(actions)
            out = arena.step(actions)
            if recorder:
                recorder.after_step()            # before begin(): a restarted lane's game is its pending one
            starts[:] = False
            lane_steps += 1
            for lane in np.flatnonzero(out.stats["finished"]).tolist():
                game = state[lane].game
                if game is not None:
                    result = _result(game, out.stats[lane], out.signals[lane])
                    if recorder and game.key in recorder.saved:
                        result["replay"] = str(recorder.saved.pop(game.key))
                    results.append(result)
                    if on_result:
                        on_result(result)
                starts[lane] = True
                lane_steps[lane] = 0
                begin(lane)
    return results


def _recorder(arena, state, keys: set, directory):
    """An ArenaRecorder (gota_arena.replay) of the games named in ``keys``: each
    lane's episode is recorded when the game starting on it is one of them."""
    if not keys:
        return None
    if directory is None:
        raise ValueError("games.play: record= needs replay_dir= (the folder for the replay files)")
    from ..replay import SUFFIX, ArenaRecorder

    def select(lane: int, info: dict):
        game = state[lane].pending           # the game the lane starts now (begin() runs after the hooks)
        return {"game": game.key} if game is not None and game.key in keys and game.seed == info["seed"] else None

    rec = ArenaRecorder(arena, lanes=range(arena.lanes), directory=directory, keep=False, select=select,
                        name=lambda r: re.sub(r"[^A-Za-z0-9._-]", "_", r.source["game"]) + SUFFIX,
                        on_replay=lambda r: rec.saved.__setitem__(r.source["game"], r.path))
    rec.saved = {}
    return rec


def _python_rows(state, lane_steps: np.ndarray, every: dict, agents_per_lane: int) -> dict:
    """Rows of every Python entrant that decides this step, grouped by entrant, over the running games
    (a lane's rows: the learner team's seats, then the other team's)."""
    groups = {}
    for lane, s in enumerate(state):
        if s.game is None:
            continue
        for side, controller in enumerate(s.controllers):
            if not controller.native and lane_steps[lane] % every[id(controller)] == 0:
                first = lane * agents_per_lane + side * SEATS_PER_TEAM
                groups.setdefault(controller, []).extend(range(first, first + SEATS_PER_TEAM))
    return groups


def _result(game: Game, stats, signals) -> dict:
    result = int(stats["result"])
    teams = (Team.RED, Team.BLUE)
    outcome = [int(signals[t, OUTCOME]) for t in teams]
    score = [int(signals[t, TEAM_SCORE]) for t in teams]
    xp = [int(signals[t, TEAM_XP]) for t in teams]
    winner = "red" if outcome[Team.RED] == 1 else "blue" if outcome[Team.BLUE] == 1 else None
    return {"key": game.key, "seed": game.seed, "red": game.red, "blue": game.blue,
            "result": RESULTS.get(result, str(result)), "winner": winner, "ticks": int(stats["ticks"]),
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
