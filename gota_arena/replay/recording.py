"""Recording a match driven from Python: RecordingMatch, a Match that keeps what
is done to it as a Replay (docs/replays.md); and reading a match's config
struct, which the arena recorder shares."""
from __future__ import annotations

import dataclasses
from typing import Optional

import numpy as np

from .._native import ffi, lib
from ..basic import seat_programs
from ..constants import SEATS
from ..contract import HEAD_SIZES
from ..errors import ReplayError, check
from ..sim import Match
from .format import (ACTION_DTYPE, COMMAND_DTYPE, DEFAULT_CHECKPOINT_TICKS, OUT_OF_RANGE, SET_HP, Replay, ReplayScript,
                     _bot_name)

def _canonical_heads(heads) -> Optional[np.ndarray]:
    """Heads as stored: None for a noop (verb 0: issues nothing, never recorded),
    else uint8 with any out-of-range head as OUT_OF_RANGE (which decodes the same:
    an invalid action)."""
    heads = np.asarray(heads).astype(np.int64)
    if int(heads[0]) == 0:
        return None
    sizes = np.array(HEAD_SIZES)
    return np.where((heads >= 0) & (heads < sizes), heads, OUT_OF_RANGE).astype(np.uint8)


class RecordingMatch(Match):
    """A Match that records what is done to it: ``act`` (contract heads), ``command``
    and every command helper (``level``, ``walk``, ``cast``, ``buy``, ...), and
    ``set_hp``; ``reset`` starts a new recording. ``replay()`` returns the
    recording up to now as a Replay (final tick and hash are the current ones).

        with RecordingMatch(seed=1, bots={"blue": "base"}, checkpoint_ticks=1200) as m: ...
    """

    def __init__(self, checkpoint_ticks: int = DEFAULT_CHECKPOINT_TICKS, **config):
        self._checkpoint_ticks = int(checkpoint_ticks)
        super().__init__(**config)

    @classmethod
    def from_config(cls, config, checkpoint_ticks: int = DEFAULT_CHECKPOINT_TICKS) -> "RecordingMatch":
        if dataclasses.is_dataclass(config):
            config = dataclasses.asdict(config)
        match = cls.__new__(cls)
        match._checkpoint_ticks = int(checkpoint_ticks)
        match._open(dict(config))
        return match

    def _open(self, config: dict) -> None:
        super()._open(config)
        self._begin(dataclasses.asdict(self.config))

    def _begin(self, config: dict) -> None:
        with Match.from_config(config) as probe:
            if _config_bytes(probe._handle("RecordingMatch")) != _config_bytes(self._handle("RecordingMatch")):
                raise ReplayError(f"RecordingMatch: the match's config has a field that the simulator's key list "
                                  f"(gota_config_keys) does not name, so it cannot be recorded: {config}")
        self._rec_config = config
        self._rec_scripts = _script_records(seat_programs(self._handle("RecordingMatch")))
        self._rec_bots = tuple(_bot_name(int(config[f"bot_{s}"])) for s in range(SEATS))
        self._rec_classes = tuple(self.hero(s).hero_class for s in range(SEATS)) if config["heroes"] else ()
        self._rec_start = self.hash()
        self._rec_actions = []
        self._rec_commands = []
        self._rec_hashes = [(0, self._rec_start)]
        self._rec_tick = 0

    def _note_tick(self) -> int:
        tick = self.tick
        if tick != self._rec_tick:
            every = getattr(self, "_checkpoint_ticks", DEFAULT_CHECKPOINT_TICKS)
            last = self._rec_hashes[-1][0]
            if every <= 0 or tick // every != last // every:
                self._rec_hashes.append((tick, self.hash()))
            self._rec_tick = tick
        return tick

    def reset(self, seed: Optional[int] = None) -> None:
        super().reset(seed)
        if not hasattr(self, "_rec_config"):   # Match._open attaching scripts: _open begins the recording
            return
        config = dict(self._rec_config)
        config["seed"] = self.info.seed
        self._begin(config)

    def set_script(self, seat: int, script, redraft: bool = True) -> None:
        if not redraft and hasattr(self, "_rec_config"):
            raise ReplayError("RecordingMatch.set_script: a script changed in the middle of a match cannot be "
                              "replayed from tick 0; use redraft=True (the default: a new recording from a reset)")
        super().set_script(seat, script, redraft)

    def act(self, seat, heads):
        tick = self._note_tick()
        answer = super().act(seat, heads)   # raises before anything is issued, then nothing is recorded
        stored = _canonical_heads(heads)
        if stored is not None:
            self._rec_actions.append((tick, int(seat), tuple(int(h) for h in stored)))
        return answer

    def command(self, seat, verb, target: int = 0, x: int = 0, z: int = 0, slot: int = 0, item: int = 0):
        tick = self._note_tick()
        answer = super().command(seat, verb, target=target, x=x, z=z, slot=slot, item=item)
        if isinstance(verb, str):
            from ..constants import Verb
            verb = Verb[verb.upper()]
        self._rec_commands.append((len(self._rec_actions), tick, int(seat), int(verb), int(target), int(x), int(z),
                                   int(slot), int(item)))
        return answer

    def set_hp(self, index: int, hp: int) -> None:
        tick = self._note_tick()
        super().set_hp(index, hp)
        self._rec_commands.append((len(self._rec_actions), tick, 0, SET_HP, int(index), int(hp), 0, 0, 0))

    def replay(self, source: Optional[dict] = None) -> Replay:
        """The recording so far as a Replay, ending at the current tick and hash."""
        info = self.info
        actions = np.zeros(len(self._rec_actions), ACTION_DTYPE)
        if self._rec_actions:
            actions["tick"] = [a[0] for a in self._rec_actions]
            actions["seat"] = [a[1] for a in self._rec_actions]
            actions["heads"] = [a[2] for a in self._rec_actions]
        commands = np.zeros(len(self._rec_commands), COMMAND_DTYPE)
        for i, rec in enumerate(self._rec_commands):
            commands[i] = rec
        return Replay(
            config=dict(self._rec_config), bots=self._rec_bots, classes=self._rec_classes, action_ticks=0,
            actions=actions, commands=commands, start_hash=self._rec_start,
            checkpoints=tuple(h for h in self._rec_hashes if h[0] <= info.tick),
            final_tick=info.tick, final_hash=self.hash(), result=info.result, winner=info.winner,
            source=dict(source) if source is not None else {"kind": "match"}, **self._rec_scripts,
        )


def _script_records(programs: dict) -> dict:
    """Replay fields for {seat: Program}: each distinct source once (by SHA-256),
    seats referring to it."""
    if not programs:
        return {"scripts": (), "script_seats": ()}
    scripts, index, seats = [], {}, [-1] * SEATS
    for seat in sorted(programs):
        record = ReplayScript.of(programs[seat])
        if record.sha256 not in index:
            index[record.sha256] = len(scripts)
            scripts.append(record)
        seats[seat] = index[record.sha256]
    return {"scripts": tuple(scripts), "script_seats": tuple(seats)}


def _match_config_struct(mptr):
    """The GotaConfig of a match: gota_match_config where the build has it, else
    the struct at the start of the match (world.h keeps ``cfg`` first in GotaMatch);
    callers check what they read against gota_match_info and the state hash."""
    if hasattr(lib, "gota_match_config"):
        cfg = ffi.new("GotaConfig *")
        check(lib.gota_match_config(mptr, cfg), "gota_match_config")
        return cfg
    return ffi.cast("const GotaConfig *", mptr)


def _config_bytes(mptr) -> bytes:
    return bytes(ffi.buffer(_match_config_struct(mptr), ffi.sizeof("GotaConfig")))
