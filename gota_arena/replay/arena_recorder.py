"""Recording lanes of an Arena: ArenaRecorder, which keeps the actions each
recorded lane applies and, when its episode ends, replays it to check it and
emits a verified Replay (docs/replays.md)."""
from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from .._native import ffi, lib
from ..basic import seat_programs
from ..constants import SEATS, Kind, Result, Team, team_seats
from ..errors import GotaError, ReplayError, check
from ..sim import Match, _config_values, _name
from .fingerprint import hex64
from .format import (ACTION_DTYPE, COMMAND_DTYPE, DEFAULT_CHECKPOINT_TICKS, SUFFIX, Replay, ReplayScript,
                     _bot_name)
from .playback import _run
from .recording import _config_bytes, _match_config_struct, _script_records

@dataclass
class _Episode:
    lane: int
    seed: int
    config: dict
    bots: tuple
    classes: tuple
    agents: list            # (row j, seat) of the lane's rows played from outside (not bots)
    scripts: dict           # Replay fields of the script seats (_script_records)
    start_hash: int
    source: dict
    tick: int = 0
    hashes: list = field(default_factory=list)     # checkpoints: (decision tick, hash before its actions)
    chunks: list = field(default_factory=list)     # ACTION_DTYPE arrays


class ArenaRecorder:
    """Records chosen lanes of an Arena and emits one verified Replay per finished
    episode (written to ``directory`` as ``{prefix}seed{seed:010d}.gotareplay`` when
    given; kept in ``replays`` unless ``keep=False``).

    Drive the arena through the recorder (``reset``, ``step``), or call the hooks
    around your own calls: ``after_reset()`` after ``arena.reset``,
    ``before_step(actions)`` and ``after_step()`` around ``arena.step``. A lane is
    recorded from its next start at tick 0. Per step the recorder keeps the
    applied actions (rows played from outside, hero alive, verb not noop) and,
    once per ``checkpoint_ticks`` (0: every decision), the lane's state hash. When
    a recorded lane finishes (the arena restarts it inside the step, so its last
    state is gone), the recorder replays the episode in a Match, checks every
    checkpoint and the lane's final stats and reward signals, and takes the final
    hash from that replay (about 2 s for a full 28,800-tick match).
    ``select(lane, lane_info)``, when given, is asked at each episode start
    whether to record it: falsy skips the episode, a dict records it and is
    merged into the replay's ``source`` (evaluation: ``{"game": key}``);
    ``name(replay)`` names its file in ``directory``.
    ``on_error="warn"`` drops an episode that fails this with a warning instead of
    raising ReplayError (after the step's other lanes were taken).

    The lane's config is read from the lane's own match; ``match_config`` (every
    key but seed and bots) overrides it. Either way it is checked against the
    lane's state hash at tick 0 before anything is recorded.
    """

    def __init__(self, arena, lanes=(0,), directory=None, match_config=None,
                 checkpoint_ticks: int = DEFAULT_CHECKPOINT_TICKS, on_error: str = "raise", prefix: str = "",
                 keep: bool = True, on_replay: Optional[Callable[[Replay], None]] = None,
                 select: Optional[Callable[[int, dict], object]] = None,
                 name: Optional[Callable[[Replay], str]] = None):
        if on_error not in ("raise", "warn"):
            raise ReplayError(f"on_error={on_error!r}: use 'raise' or 'warn'")
        self.arena = arena
        if isinstance(lanes, int):
            lanes = (lanes,)
        self.lanes = tuple(int(i) for i in lanes)
        for i in self.lanes:
            if not 0 <= i < arena.lanes:
                raise ReplayError(f"ArenaRecorder: lane {i} does not exist; the arena has lanes 0..{arena.lanes - 1}")
        self.directory = None if directory is None else Path(directory)
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)
        if dataclasses.is_dataclass(match_config):
            match_config = dataclasses.asdict(match_config)
        self.match_config = None if match_config is None else dict(match_config)
        self.checkpoint_ticks = int(checkpoint_ticks)
        self.on_error = on_error
        self.prefix = prefix
        self.keep = keep
        self.on_replay = on_replay
        self.select = select
        self.name = name
        self.replays: list = []
        self.paths: list = []
        self._episodes = {i: None for i in self.lanes}
        self._pending = None
        self._seat_stats = ffi.new("GotaSeatStats *")
        for i in self.lanes:
            if arena.lane(i)["tick"] == 0:
                self._start(i)

    # ---- driving the arena ----
    def reset(self, seed: int = 0):
        out = self.arena.reset(seed)
        self.after_reset()
        return out

    def step(self, actions):
        self.before_step(actions)
        try:
            out = self.arena.step(actions)
        except BaseException:
            self._pending = None
            raise
        self.after_step()
        return out

    # ---- hooks ----
    def after_reset(self) -> None:
        """Every recorded lane starts a new episode (a partial one is dropped)."""
        self._pending = None
        for i in self.lanes:
            self._start(i)

    def before_step(self, actions) -> None:
        """Note the actions each recorded lane will apply: rows played from outside
        whose hero is alive and whose verb is not noop (what batch.c applies)."""
        array = self.arena.check_actions(actions)
        apl = self.arena.agents_per_lane
        pending = {}
        for i in self.lanes:
            ep = self._episodes[i]
            info = self.arena.lane(i)
            if ep is not None and (info["seed"] != ep.seed or info["tick"] != ep.tick):
                self._lose(i, f"lane {i} is at seed {info['seed']} tick {info['tick']}, the recorder expected seed "
                              f"{ep.seed} tick {ep.tick} (arena.reset or step called without the recorder's hooks)")
                ep = None
            if ep is None:
                if info["tick"] == 0:
                    ep = self._start(i)
                if ep is None:        # mid-episode, or not selected
                    continue
            rows = array[i * apl:(i + 1) * apl]
            mptr = self._lane_match(i)
            picked = []
            for j, seat in ep.agents:
                if rows[j, 0] == 0:
                    continue   # noop: issues nothing
                check(lib.gota_match_seat_stats(mptr, seat, self._seat_stats), "ArenaRecorder seat_stats")
                if self._seat_stats.alive:
                    picked.append((j, seat))
            rec = np.zeros(len(picked), ACTION_DTYPE)
            if picked:
                rec["tick"] = ep.tick
                rec["seat"] = [s for _, s in picked]
                rec["heads"] = rows[[j for j, _ in picked]]
            pending[i] = rec
        self._pending = pending

    def after_step(self) -> list:
        """Take the step's results; returns the Replays finished in this step."""
        pending, self._pending = self._pending, None
        ended = []
        stats, signals = self.arena.stats, self.arena.signals
        for i in self.lanes:
            ep = self._episodes[i]
            done = bool(stats[i]["finished"])
            if ep is not None and (pending is None or i not in pending):
                self._lose(i, f"lane {i} was stepped without before_step(actions)")
                ep = None
            if ep is not None:
                ep.chunks.append(pending[i])
                if done:
                    ended.append((ep, stats[i].copy(), signals[i].copy()))
                else:
                    ep.tick = self.arena.lane(i)["tick"]
                    every, last = self.checkpoint_ticks, ep.hashes[-1][0]
                    if every <= 0 or ep.tick // every != last // every:
                        ep.hashes.append((ep.tick, self.arena.lane_hash(i)))
            if done or ep is None:
                self._episodes[i] = None
                if self.arena.lane(i)["tick"] == 0:
                    self._start(i)
        # every lane is in step again before the finished episodes are checked (and may raise)
        finished, error = [], None
        for ep, st, sig in ended:
            try:
                r = self._finish(ep, st, sig)
            except ReplayError as e:
                error = error or e
                continue
            if r is not None:
                finished.append(r)
        if error is not None:
            raise error
        return finished

    # ---- internals ----
    def _lane_match(self, lane: int):
        out = ffi.new("const GotaMatch **")
        check(lib.gota_batch_lane_match(self.arena._handle("ArenaRecorder"), lane, out), f"lane {lane} match")
        return out[0]

    def _lane_config(self, lane: int, info: dict) -> dict:
        """The lane's full config: ``match_config`` with the lane's seed and bots, or
        read from the lane's match (gota_match_config if the build has it, else
        the GotaConfig at the start of the match: world.h keeps it first)."""
        if self.match_config is not None:
            config = {k: v for k, v in self.match_config.items() if k != "seed" and not k.startswith("bot_")}
            config["seed"] = info["seed"]
            lane_config = _config_values(_match_config_struct(self._lane_match(lane)))
            for seat in range(SEATS):   # the lane's own: learner bots and scripts included
                config[f"bot_{seat}"] = lane_config[f"bot_{seat}"]
            return config
        mptr = self._lane_match(lane)
        config = _config_values(_match_config_struct(mptr))
        mi = ffi.new("GotaMatchInfo *")
        check(lib.gota_match_info(mptr, mi), "gota_match_info")
        if config["seed"] != mi.seed or config["max_ticks"] != mi.max_ticks:
            raise ReplayError(f"ArenaRecorder: cannot read lane {lane}'s config from its match in this build; "
                              "pass match_config= (the arena's match config keys)")
        return config

    def _start(self, lane: int) -> Optional[_Episode]:
        info = self.arena.lane(lane)
        if info["tick"] != 0:
            self._episodes[lane] = None
            return None
        chosen = True if self.select is None else self.select(lane, info)
        if not chosen:
            self._episodes[lane] = None
            return None
        config = self._lane_config(lane, info)
        programs = seat_programs(self._lane_match(lane))
        want = self.arena.lane_hash(lane)
        try:
            m = Match.from_config(dict(config, scripts=programs) if programs else config)
        except GotaError as e:
            raise ReplayError(f"ArenaRecorder: lane {lane}'s config {config} does not make a match ({e}); "
                              "pass the arena's match config as match_config=") from None
        with m:
            got = m.hash()
            classes = tuple(m.hero(s).hero_class for s in range(SEATS)) if m.config.heroes else ()
            config = dataclasses.asdict(m.config)
            same = _config_bytes(m._handle("ArenaRecorder")) == _config_bytes(self._lane_match(lane))
        if not same:
            raise ReplayError(f"ArenaRecorder: a match built from lane {lane}'s config {config} is not configured "
                              "like the lane: the lane sets a config field that the simulator's key list "
                              "(gota_config_keys) does not name, or match_config= differs from the arena's; "
                              "fix the key list, or pass every key the Arena was given as match_config=")
        if got != want:
            raise ReplayError(f"ArenaRecorder: a match built from lane {lane}'s config hashes to {hex64(got)} at tick "
                              f"0, the lane to {hex64(want)}; pass the arena's match config as match_config= "
                              "(every key the Arena was given)")
        bots = tuple(_bot_name(int(config[f"bot_{s}"])) for s in range(SEATS))
        scripts = _script_records(programs)
        apl = self.arena.agents_per_lane
        agents = []
        for j in range(apl):
            _, seat = self.arena.agent_seat(lane * apl + j)
            if bots[seat] == "external":
                agents.append((j, seat))
        other = [seat for seat in range(SEATS) if seat not in team_seats(info["learner_team"])]
        opponent = (ReplayScript.of(programs[other[0]]).name if other[0] in programs
                    else _bot_name(info["opponent"]))
        source = {"kind": "arena", "lane": lane, "learner_team": _name(Team, info["learner_team"]),
                  "opponent": opponent, "self_play": bool(self.arena.self_play)}
        if isinstance(chosen, dict):
            source.update(chosen)
        ep = _Episode(lane=lane, seed=info["seed"], config=config, bots=bots, classes=classes, agents=agents,
                      scripts=scripts, start_hash=want, source=source, hashes=[(0, want)])
        self._episodes[lane] = ep
        return ep

    def _lose(self, lane: int, why: str) -> None:
        warnings.warn(f"ArenaRecorder: dropped the episode of lane {lane}: {why}; recording resumes at the "
                      "lane's next start", RuntimeWarning, stacklevel=3)
        self._episodes[lane] = None

    def _finish(self, ep: _Episode, stats, signals) -> Optional[Replay]:
        actions = np.concatenate(ep.chunks) if ep.chunks else np.zeros(0, ACTION_DTYPE)
        r = Replay(config=ep.config, bots=ep.bots, classes=ep.classes, action_ticks=self.arena.action_ticks,
                   actions=actions, commands=np.zeros(0, COMMAND_DTYPE), start_hash=ep.start_hash,
                   checkpoints=tuple(ep.hashes), final_tick=int(stats["ticks"]), final_hash=0,
                   result=_name(Result, int(stats["result"])), winner=None, source=ep.source, **ep.scripts)
        try:
            gen = _run(r, dict(ep.hashes), None, check_rules=False)
            try:
                while True:
                    next(gen)
            except StopIteration as stop:
                m = stop.value
            with m:
                diff = _lane_differences(m, ep, stats, signals)
                if diff:
                    raise ReplayError(f"{r.name}: the replayed episode differs from the lane's: {diff}")
                r.final_hash = m.hash()
                r.winner = m.info.winner
        except ReplayError as e:
            if self.on_error == "raise":
                raise
            warnings.warn(f"ArenaRecorder: lane {ep.lane} seed {ep.seed} not saved: {e}", RuntimeWarning,
                          stacklevel=3)
            return None
        if self.directory is not None:
            file = self.name(r) if self.name is not None else f"{self.prefix}seed{ep.seed:010d}{SUFFIX}"
            path = r.save(self.directory / file)
            self.paths.append(path)
        if self.keep:
            self.replays.append(r)
        if self.on_replay is not None:
            self.on_replay(r)
        return r


# the signals that sum seat statistics over a team: signal -> the GotaSeatStats fields
_SIGNAL_STATS = {"gold_earned": ("gold_earned",), "last_hits": ("last_hits",), "neutral_kills": ("neutral_kills",),
                 "kills": ("kills",), "deaths": ("deaths",), "assists": ("assists",), "hero_damage": ("hero_damage",),
                 "structure_damage": ("tower_damage", "god_damage"), "healing": ("healing",)}


def _lane_differences(m: Match, ep: _Episode, stats, signals) -> str:
    """How a replayed match differs from the lane's finishing stats and signals."""
    info = m.info
    units = m.units
    t = int(stats["learner_team"])
    got, want = {}, {}

    def put(key, mine, theirs):
        if int(mine) != int(theirs):
            got[key], want[key] = int(mine), int(theirs)

    put("ticks", info.tick, stats["ticks"])
    put("result", Result[info.result.upper()], stats["result"])
    put("seed", info.seed, stats["seed"])
    score, glory = m.team_score(t)
    put("score", score, stats["score"])
    put("potential", glory, stats["potential"])
    seat_stats = [m.seat_stats(s) for s in range(SEATS)]
    put("xp", sum(seat_stats[s].xp for s in team_seats(t)), stats["xp"])
    put("kills", sum(seat_stats[s].kills for s in team_seats(t)), stats["kills"])
    towers = units[units["kind"] == Kind.TOWER]
    put("towers_destroyed", ((towers["team"] == 1 - t) & (towers["alive"] == 0)).sum(), stats["towers_destroyed"])
    gods = units[units["kind"] == Kind.GOD]
    from ..arena import SIGNAL_INDEX
    for team in (0, 1):
        sig = signals[team]
        put(f"signal team_xp[{team}]", sum(seat_stats[s].xp for s in team_seats(team)),
            sig[SIGNAL_INDEX["team_xp"]])
        put(f"signal team_score[{team}]", m.team_score(team)[0], sig[SIGNAL_INDEX["team_score"]])
        mine = towers[(towers["team"] == team) & (towers["alive"] != 0)]
        put(f"signal tower_hp[{team}]", int(mine["hp"].astype(np.int64).sum()), sig[SIGNAL_INDEX["tower_hp"]])
        god = gods[gods["team"] == team]
        put(f"signal god_hp[{team}]", int(god["hp"][0]) if len(god) and god["alive"][0] else 0,
            sig[SIGNAL_INDEX["god_hp"]])
        for name, fields in _SIGNAL_STATS.items():
            put(f"signal {name}[{team}]", sum(getattr(seat_stats[s], f) for s in team_seats(team) for f in fields),
                sig[SIGNAL_INDEX[name]])
    return ", ".join(f"{k} {got[k]} (lane {want[k]})" for k in got)
