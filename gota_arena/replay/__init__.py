"""Replay files: a match as its config (seed, draft, bots by name) and every external
action with its tick, replayed in the simulator to the same state hash
(docs/replays.md).

Record lanes of an arena, or a match driven from Python:

    rec = ArenaRecorder(arena, lanes=[0, 5], directory="replays")
    out = rec.reset(seed=0)                 # arena.reset + rec.after_reset()
    out = rec.step(actions)                 # rec.before_step, arena.step, rec.after_step
    rec.replays                             # finished, verified Replay objects (files in replays/)

    with RecordingMatch(seed=3, bots={"blue": "puller"}) as m:
        m.act(0, heads); m.level(1, 2); m.step(8) ...
        m.replay().save("one.gotareplay")

Replay one:

    r = load("replays/seed0000000005.gotareplay")   # ReplayError: not a replay, other version, damaged, other contract
    with replay(r) as m:                              # ReplayError: other rules, diverged (never a half-played match)
        print(m.info, hex(m.hash()))                  # == r.final_hash
    play(r, on_decision=lambda d: frames.append(d.match.units.copy()))   # verified first, then played again

The package, one job a module (every public name is here too):

    format          the file: Replay, its bytes, load (every check) and save (atomic)
    fingerprint     rules_fingerprint: the simulator's identity that a replay records
    playback        replay, verify, decisions, play: checked before and while playing
    recording       RecordingMatch: a Match that records what is done to it
    arena_recorder  ArenaRecorder: lanes of an Arena, one verified Replay per episode
"""
from ..errors import ReplayError
from .arena_recorder import ArenaRecorder
from .fingerprint import rules_fingerprint
from .format import (ACTION_DTYPE, COMMAND_DTYPE, COMPRESSION, DEFAULT_CHECKPOINT_TICKS, FORMAT_NAME, FORMAT_VERSION,
                     MAGIC, OUT_OF_RANGE, READABLE_VERSIONS, SCRIPT, SET_HP, SUFFIX, Replay, ReplayScript, load)
from .playback import Decision, decisions, play, replay, verify
from .recording import RecordingMatch

__all__ = ["Replay", "ReplayScript", "Decision", "ArenaRecorder", "RecordingMatch", "ReplayError", "load", "replay",
           "play", "decisions", "verify", "rules_fingerprint", "ACTION_DTYPE", "COMMAND_DTYPE", "FORMAT_VERSION",
           "READABLE_VERSIONS", "FORMAT_NAME", "MAGIC", "SUFFIX", "COMPRESSION", "OUT_OF_RANGE", "SET_HP", "SCRIPT",
           "DEFAULT_CHECKPOINT_TICKS"]
