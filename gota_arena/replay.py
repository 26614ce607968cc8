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

A file is a fixed prefix (magic, format version, header and payload sizes, SHA-256),
a JSON header and a zlib-compressed payload: the action records column by column,
then the sources of the BASIC scripts that played seats (each with its SHA-256 in
the header; a script seat replays from its source).
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import struct
import tempfile
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

import numpy as np

from . import __version__
from ._native import ffi, lib
from .basic import seat_programs
from .bots import bot_id, bot_names
from .constants import MAX_BATTLE_TICKS, SEATS, Kind, Result, Team, team_seats
from .contract import HEAD_SIZES, HEADS, INFO
from .errors import GotaError, ReplayError, check, config_keys
from .files import fsync_directory
from .heroes import class_name
from .sim import Match, _config_values, _name

FORMAT_VERSION = 2          # 2: BASIC script seats (sources in the payload)
READABLE_VERSIONS = (1, 2)  # version 1 is version 2 without scripts
MAGIC = b"GOTAREPL"
SUFFIX = ".gotareplay"
FORMAT_NAME = "gota-replay"
COMPRESSION = "zlib"
OUT_OF_RANGE = 255          # a head outside its range, stored canonically (decodes the same: invalid)
SET_HP = -1                 # command verb of a recorded Match.set_hp (target = unit slot, x = hp)
DEFAULT_CHECKPOINT_TICKS = 1200

# the prefix: magic and version are fixed for every format version; the rest is the same in 1 and 2
_HEAD = struct.Struct("<8sI")         # magic, format version
_REST = struct.Struct("<IQ32s")       # header bytes, payload bytes, SHA-256(header + payload)
_PREFIX_SIZE = _HEAD.size + _REST.size

# records in memory; in the file they are stored column by column (docs/replays.md)
ACTION_DTYPE = np.dtype([("tick", "<u4"), ("seat", "u1"), ("heads", "u1", (HEADS,))])
COMMAND_DTYPE = np.dtype([("index", "<u4"), ("tick", "<u4"), ("seat", "u1"), ("verb", "<i4"), ("target", "<i4"),
                          ("x", "<i4"), ("z", "<i4"), ("slot", "<i4"), ("item", "<i4")])
_COMMAND_INTS = ("verb", "target", "x", "z", "slot", "item")


SCRIPT = "script"           # the bot name of a seat played by a BASIC script (GOTA_BOT_SCRIPT)


def _hex(value: int) -> str:
    return f"0x{int(value):016x}"


def _bot_name(bot: int) -> str:
    return SCRIPT if bot == lib.GOTA_BOT_SCRIPT else bot_names()[bot]


@dataclass(frozen=True)
class ReplayScript:
    """A BASIC script that played seats of a replay: its file name, the SHA-256
    of its source (hex) and the source."""

    name: str
    sha256: str
    source: bytes

    @classmethod
    def of(cls, program) -> "ReplayScript":
        return cls(Path(program.name).name or "script.bas", program.sha256, program.source)


# ---- the rules fingerprint ---------------------------------------------------------
def _splitmix(state: int):
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


@functools.lru_cache(maxsize=None)
def rules_fingerprint() -> dict:
    """What this build's simulator does, as two state hashes (computed once per
    process, about 0.15 s): ``sim``, a 720-tick match whose ten seats get fixed
    pseudo-random action heads and ability points through the contract; ``bots``,
    a 720-tick match of the six bundled bots. The simulator has no version
    number, so this is its identity: any change of rules, content, decoding or
    bots that shows within 720 ticks changes it."""
    with Match(seed=20260611) as m:
        state = 1
        for step in range(90):
            for seat in range(SEATS):
                if step % 12 == 0:
                    state, r = _splitmix(state)
                    m.level(seat, r % 4)
                heads = []
                for size in HEAD_SIZES:
                    state, r = _splitmix(state)
                    heads.append(r % size)
                m.act(seat, heads)
            m.step(8)
        sim = m.hash()
    bots = {seat: name for seat, name in enumerate(("idle", "random", "base", "rusher", "baseline",
                                                    "puller", "base", "rusher", "baseline", "puller"))}
    with Match(seed=20260612, bots=bots) as m:
        m.step(720)
        with_bots = m.hash()
    return {"sim": _hex(sim), "bots": _hex(with_bots)}


# ---- the replay --------------------------------------------------------------------
@dataclass(eq=False)
class Replay:
    """One recorded match (docs/replays.md). ``actions`` (ACTION_DTYPE) are the
    contract actions that were applied, in the order they were applied; ``commands``
    (COMMAND_DTYPE, RecordingMatch only) raw commands, each applied before action
    ``index``. ``checkpoints`` are (tick, state hash) pairs taken before the actions
    of that tick; ``start_hash`` is the hash at tick 0 and ``final_hash`` at
    ``final_tick``."""

    config: dict                 # every config key of the simulator, as recorded
    bots: tuple                  # the bot name of each seat ("external" for none): authoritative
    classes: tuple               # the drafted class of each seat (empty for a match without heroes)
    action_ticks: int            # ticks between decisions (0: decisions only where actions are)
    actions: np.ndarray
    commands: np.ndarray
    start_hash: int
    checkpoints: tuple           # ((tick, hash), ...), increasing ticks
    final_tick: int
    final_hash: int
    result: str                  # 'running', 'win', 'draw' or 'timeout'
    winner: Optional[str] = None  # 'red' or 'blue' for a win
    source: dict = field(default_factory=dict)   # who recorded it (arena lane, match): free JSON
    scripts: tuple = ()          # ReplayScript of each distinct script that played seats
    script_seats: tuple = ()     # per seat the index into scripts, -1 none (empty: no scripts)
    contract_version: int = INFO.version
    contract_hash: int = INFO.hash
    rules: dict = field(default_factory=lambda: dict(rules_fingerprint()))
    package_version: str = __version__
    format_version: int = FORMAT_VERSION
    path: Optional[str] = field(default=None, compare=False)   # the file it was loaded from / saved to

    # ---- views ----
    @property
    def seed(self) -> int:
        return int(self.config["seed"])

    @property
    def name(self) -> str:
        """How errors name this replay: its file, else its seed and source."""
        if self.path:
            return f"replay file {self.path}"
        where = self.source.get("kind", "recording")
        if "lane" in self.source:
            where += f" lane {self.source['lane']}"
        return f"replay of seed {self.seed} ({where})"

    @property
    def players(self) -> tuple:
        """Who played each seat: the bot name, or the script's file name."""
        return tuple(self.scripts[self.script_seats[seat]].name if bot == SCRIPT else bot
                     for seat, bot in enumerate(self.bots))

    def match_config(self) -> dict:
        """The config to build the match with: the recorded keys, with the bot keys
        taken from the bot names (names are authoritative across builds) and the
        script seats' programs compiled from the recorded sources (``scripts``)."""
        config = dict(self.config)
        for seat, bot in enumerate(self.bots):
            config[f"bot_{seat}"] = lib.GOTA_BOT_SCRIPT if bot == SCRIPT else bot_id(bot)
        if self.scripts:
            programs = self.programs()
            config["scripts"] = {seat: programs[k] for seat, k in enumerate(self.script_seats) if k >= 0}
        return config

    def programs(self) -> list:
        """The scripts compiled, in ``scripts`` order (ReplayError when one does not
        compile here, or its source does not match its SHA-256)."""
        from .basic import BasicSyntaxError, compile as compile_basic
        key = tuple((s.sha256, s.source) for s in self.scripts)
        cached = getattr(self, "_programs", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        problem = _script_tampering(self)
        if problem:
            raise ReplayError(f"{self.name}: {problem}. Nothing was played.")
        out = []
        for script in self.scripts:
            try:
                out.append(compile_basic(script.source, name=script.name))
            except BasicSyntaxError as e:
                raise ReplayError(f"{self.name}: its script {script.name!r} does not compile in this build ({e}); "
                                  f"replay it with the gota_arena that recorded it (package "
                                  f"{self.package_version}). Nothing was played.") from None
        self._programs = (key, out)
        return out

    def __repr__(self) -> str:
        return (f"<Replay seed={self.seed} ticks={self.final_tick} {self.result} actions={len(self.actions)} "
                f"commands={len(self.commands)} hash={_hex(self.final_hash)}>")

    # ---- files ----
    def header(self) -> dict:
        """The JSON header of the file (everything but the records)."""
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "package": self.package_version,
            "contract": {"version": int(self.contract_version), "hash": _hex(self.contract_hash)},
            "rules": dict(self.rules),
            "config": {k: int(v) for k, v in self.config.items()},
            "bots": list(self.bots),
            "classes": [int(c) for c in self.classes],
            "class_names": [class_name(int(c)) for c in self.classes],
            "action_ticks": int(self.action_ticks),
            "start_hash": _hex(self.start_hash),
            "checkpoints": [[int(t), _hex(h)] for t, h in self.checkpoints],
            "final": {"tick": int(self.final_tick), "hash": _hex(self.final_hash), "result": self.result,
                      "winner": self.winner},
            "actions": int(len(self.actions)),
            "commands": int(len(self.commands)),
            "compression": COMPRESSION,
            "source": self.source,
            "scripts": [{"name": s.name, "sha256": s.sha256, "bytes": len(s.source)} for s in self.scripts],
            "script_seats": [int(k) for k in self.script_seats],
        }

    def to_bytes(self) -> bytes:
        problem = _inconsistency(self)
        if problem:
            raise ReplayError(f"{self.name}: cannot be written: {problem}")
        actions = np.ascontiguousarray(self.actions, dtype=ACTION_DTYPE)
        commands = np.ascontiguousarray(self.commands, dtype=COMMAND_DTYPE)
        ticks = actions["tick"].astype("<u4")
        deltas = np.diff(ticks, prepend=np.uint32(0)).astype("<u4")   # ticks never decrease
        columns = [deltas, actions["seat"], np.ascontiguousarray(actions["heads"].T)]
        columns += [commands["index"].astype("<u4"), commands["tick"].astype("<u4"), commands["seat"]]
        columns += [commands[name].astype("<i4") for name in _COMMAND_INTS]
        columns += [np.frombuffer(s.source, dtype="u1") for s in self.scripts]
        payload = zlib.compress(b"".join(np.ascontiguousarray(c).tobytes() for c in columns), 9)
        header = json.dumps(self.header(), sort_keys=True, separators=(",", ":")).encode()
        digest = hashlib.sha256(header + payload).digest()
        return (_HEAD.pack(MAGIC, FORMAT_VERSION) + _REST.pack(len(header), len(payload), digest)
                + header + payload)

    def save(self, path) -> Path:
        """Write the file atomically (a temporary file in the same folder, fsync,
        rename); returns the path."""
        path = Path(path)
        data = self.to_bytes()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            os.fchmod(fd, 0o644)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        fsync_directory(path.parent)
        self.path = str(path)
        return path

    @classmethod
    def load(cls, path, check_contract: bool = True) -> "Replay":
        return load(path, check_contract)

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "replay data", check_contract: bool = True) -> "Replay":
        return _parse(bytes(data), name, check_contract)


# ---- reading -------------------------------------------------------------------------
_RERECORD = "record the match again"


def load(path, check_contract: bool = True) -> Replay:
    """Read and check a replay file: magic, format version, size, SHA-256, header
    fields, contract hash and the records. Raises ReplayError naming the file and
    the problem; a returned Replay is complete and consistent. ``check_contract=False``
    reads a replay of another contract (to inspect it; it cannot be replayed)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ReplayError(f"replay file {path}: cannot be read ({e.strerror or e})") from None
    replay = _parse(data, f"replay file {path}", check_contract)
    replay.path = str(path)
    return replay


def _parse(data: bytes, name: str, check_contract: bool = True) -> Replay:
    def fail(problem: str, todo: str = _RERECORD):
        raise ReplayError(f"{name}: {problem}; {todo}")

    if len(data) < _HEAD.size or data[:len(MAGIC)] != MAGIC:
        fail(f"not a gota replay file (it does not start with {MAGIC!r})",
             f"replay files are written by gota_arena.replay (suffix {SUFFIX})")
    _, version = _HEAD.unpack_from(data)
    if version not in READABLE_VERSIONS:
        newer = "a newer" if version > FORMAT_VERSION else "an older"
        fail(f"format version {version}, but this gota_arena ({__version__}) reads format versions "
             f"{', '.join(map(str, READABLE_VERSIONS))} only", f"open it with {newer} gota_arena, the one that wrote it")
    if len(data) < _PREFIX_SIZE:
        fail(f"truncated: {len(data)} bytes, shorter than the {_PREFIX_SIZE}-byte prefix")
    header_size, payload_size, digest = _REST.unpack_from(data, _HEAD.size)
    expected = _PREFIX_SIZE + header_size + payload_size
    if len(data) != expected:
        what = "truncated" if len(data) < expected else "has trailing bytes"
        fail(f"{what}: the prefix announces {expected} bytes, the file has {len(data)} "
             "(an interrupted copy or download?)", "copy it again, or " + _RERECORD)
    body = data[_PREFIX_SIZE:]
    if hashlib.sha256(body).digest() != digest:
        fail("damaged or edited: the SHA-256 of its header and records does not match the one stored in it",
             "copy it again from its source, or " + _RERECORD)
    try:
        header = json.loads(body[:header_size].decode())
    except (UnicodeDecodeError, ValueError) as e:
        fail(f"malformed JSON header ({e})")
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME or header.get("version") != version:
        fail(f"the header is not a {FORMAT_NAME} version {version} header")
    try:
        replay = _from_header(header)
        n_act, n_cmd = int(header["actions"]), int(header["commands"])
        script_sizes = [int(s["bytes"]) for s in header.get("scripts", [])] if version >= 2 else []
        if header.get("compression") != COMPRESSION:
            raise ValueError(f"unknown compression {header.get('compression')!r}")
    except ReplayError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as e:   # OverflowError: int(Infinity)
        fail(f"malformed header ({type(e).__name__}: {e})")
    if n_act < 0 or n_cmd < 0 or any(n < 0 for n in script_sizes):
        fail("malformed header (negative record counts or script sizes)")
    if check_contract and (replay.contract_hash != INFO.hash or replay.contract_version != INFO.version):
        fail(f"recorded under contract version {replay.contract_version} hash {_hex(replay.contract_hash)}, "
             f"this build has version {INFO.version} hash {_hex(INFO.hash)}: its action heads would decode "
             "differently", f"replay it with the gota_arena that recorded it (package {replay.package_version})")
    sizes = [4 * n_act, n_act, HEADS * n_act, 4 * n_cmd, 4 * n_cmd, n_cmd] + [4 * n_cmd] * len(_COMMAND_INTS)
    sizes += script_sizes
    try:
        raw = zlib.decompress(body[header_size:])
    except zlib.error as e:
        fail(f"the records do not decompress ({e})")
    if len(raw) != sum(sizes):
        fail(f"the records hold {len(raw)} bytes, the header's counts ({n_act} actions, {n_cmd} commands) "
             f"need {sum(sizes)}")
    cols, at = [], 0
    for size in sizes:
        cols.append(raw[at:at + size])
        at += size
    actions = np.zeros(n_act, dtype=ACTION_DTYPE)
    deltas = np.frombuffer(cols[0], dtype="<u4").astype(np.uint64)
    ticks = np.cumsum(deltas, dtype=np.uint64)
    if n_act and int(ticks[-1]) > 0xFFFFFFFF:
        fail("action ticks overflow")
    actions["tick"] = ticks
    actions["seat"] = np.frombuffer(cols[1], dtype="u1")
    actions["heads"] = np.frombuffer(cols[2], dtype="u1").reshape(HEADS, n_act).T
    commands = np.zeros(n_cmd, dtype=COMMAND_DTYPE)
    commands["index"] = np.frombuffer(cols[3], dtype="<u4")
    commands["tick"] = np.frombuffer(cols[4], dtype="<u4")
    commands["seat"] = np.frombuffer(cols[5], dtype="u1")
    for k, key in enumerate(_COMMAND_INTS):
        commands[key] = np.frombuffer(cols[6 + k], dtype="<i4")
    replay.actions, replay.commands = actions, commands
    first = 6 + len(_COMMAND_INTS)
    replay.scripts = tuple(dataclasses.replace(s, source=cols[first + k]) for k, s in enumerate(replay.scripts))
    problem = _inconsistency(replay)
    if problem:
        fail(problem)
    problem = _script_tampering(replay)
    if problem:
        fail(problem, "record the match again, or restore the script from the file it came from")
    return replay


def _from_header(h: dict) -> Replay:
    final = h["final"]

    def hash_of(text) -> int:
        if not isinstance(text, str) or not text.startswith("0x"):
            raise ValueError(f"a hash must be a 0x-prefixed hex string, got {text!r}")
        return int(text, 16)

    config = h["config"]
    if not isinstance(config, dict) or not all(isinstance(v, int) and not isinstance(v, bool)
                                               for v in config.values()):
        raise ValueError("config must map keys to integers")
    return Replay(
        config=dict(config),
        bots=tuple(str(b) for b in h["bots"]),
        classes=tuple(int(c) for c in h["classes"]),
        action_ticks=int(h["action_ticks"]),
        actions=np.zeros(0, ACTION_DTYPE),
        commands=np.zeros(0, COMMAND_DTYPE),
        start_hash=hash_of(h["start_hash"]),
        checkpoints=tuple((int(t), hash_of(x)) for t, x in h["checkpoints"]),
        final_tick=int(final["tick"]),
        final_hash=hash_of(final["hash"]),
        result=str(final["result"]),
        winner=None if final["winner"] is None else str(final["winner"]),
        source=dict(h.get("source") or {}),
        contract_version=int(h["contract"]["version"]),
        contract_hash=hash_of(h["contract"]["hash"]),
        rules={str(k): str(v) for k, v in dict(h["rules"]).items()},
        package_version=str(h["package"]),
        format_version=int(h["version"]),
        scripts=tuple(ReplayScript(str(s["name"]), str(s["sha256"]), b"") for s in h.get("scripts", [])),
        script_seats=tuple(int(k) for k in h.get("script_seats", [])),
    )


def _script_tampering(r: Replay) -> str:
    """Which recorded script's source no longer matches its SHA-256, or ''."""
    for k, script in enumerate(r.scripts):
        got = hashlib.sha256(script.source).hexdigest()
        if got != script.sha256:
            seats = [s for s, i in enumerate(r.script_seats) if i == k]
            return (f"the script {script.name!r} (seats {', '.join(map(str, seats))}) was changed: its source "
                    f"hashes to SHA-256 {got[:16]}..., the recording says {script.sha256[:16]}...")
    return ""


def _inconsistency(r: Replay) -> str:
    """What is structurally wrong with a replay, or ''."""
    if len(r.bots) != SEATS:
        return f"{len(r.bots)} bot names, one per seat (10) expected"
    if len(r.classes) not in (0, SEATS):
        return f"{len(r.classes)} drafted classes, 0 or 10 expected"
    if len(r.script_seats) not in (0, SEATS):
        return f"{len(r.script_seats)} script seats, 0 or 10 expected"
    seats = r.script_seats or (-1,) * SEATS
    for seat, (bot, k) in enumerate(zip(r.bots, seats)):
        if (bot == SCRIPT) != (k >= 0) or k >= len(r.scripts):
            return f"seat {seat} is played by {bot!r} with script index {k} (of {len(r.scripts)} scripts)"
    if set(range(len(r.scripts))) - set(seats):
        return "a recorded script plays no seat"
    if "seed" not in r.config:
        return "the config has no seed"
    if r.final_tick < 0 or r.action_ticks < 0:
        return "negative final tick or action_ticks"
    if r.final_tick > MAX_BATTLE_TICKS:
        return f"final tick {r.final_tick} beyond the longest match ({MAX_BATTLE_TICKS} ticks)"
    a, c = r.actions, r.commands
    if len(a):
        ticks = a["tick"].astype(np.int64)
        if (np.diff(ticks) < 0).any():
            return "action ticks go backwards"
        if ticks[-1] > r.final_tick:
            return f"an action at tick {int(ticks[-1])}, after the final tick {r.final_tick}"
        if r.action_ticks and (ticks % r.action_ticks).any():
            return f"an action off the decision grid (every {r.action_ticks} ticks)"
        if (a["seat"] >= SEATS).any():
            return "an action for a seat outside 0..9"
        sizes = np.array(HEAD_SIZES)
        heads = a["heads"].astype(np.int64)
        if ((heads >= sizes) & (heads != OUT_OF_RANGE)).any():
            return "an action head outside its range"
    if len(c):
        if (np.diff(c["index"].astype(np.int64)) < 0).any() or int(c["index"].max()) > len(a):
            return "command positions out of order"
        if (c["seat"] >= SEATS).any():
            return "a command for a seat outside 0..9"
        # the merged sequence (command k before action index k) must not go back in time
        ct = c["tick"].astype(np.int64)
        if (np.diff(ct) < 0).any() or ct[-1] > r.final_tick:
            return "command ticks out of order"
        idx = c["index"].astype(np.int64)
        at = a["tick"].astype(np.int64)
        after = idx < len(a)
        if (ct[after] > at[idx[after]]).any():
            return "a command later than the action it precedes"
        before = idx > 0
        if (ct[before] < at[idx[before] - 1]).any():
            return "a command earlier than the action it follows"
    ticks = [t for t, _ in r.checkpoints]
    if ticks != sorted(set(ticks)) or (ticks and (ticks[0] < 0 or ticks[-1] > r.final_tick)):
        return "checkpoint ticks out of order"
    if r.result not in {m.name.lower() for m in Result}:
        return f"unknown result {r.result!r}"
    return ""


# ---- replaying -----------------------------------------------------------------------
@dataclass(frozen=True)
class Decision:
    """One stop of a replay: the match at ``tick`` before the records of that tick
    are applied (``actions`` and ``commands``, the slices of the replay's arrays).
    ``final`` marks the last stop (the final tick; a recorded Match can still have
    records there). Read ``match``; never step, reset or command it."""

    tick: int
    match: Match
    actions: np.ndarray
    commands: np.ndarray
    final: bool


def _check_build(r: Replay, check_rules: bool) -> None:
    """Everything that can be checked before a single tick is played."""
    def fail(problem: str, todo: str):
        raise ReplayError(f"{r.name}: {problem}; {todo}. Nothing was played.")

    problem = _inconsistency(r)
    if problem:
        fail(problem, _RERECORD)
    if r.contract_hash != INFO.hash or r.contract_version != INFO.version:
        fail(f"recorded under contract {_hex(r.contract_hash)} (version {r.contract_version}), this build has "
             f"{_hex(INFO.hash)} (version {INFO.version})",
             f"replay it with the gota_arena that recorded it (package {r.package_version})")
    known = set(config_keys())
    unknown = sorted(set(r.config) - known)
    if unknown:
        fail(f"config keys {', '.join(unknown)} are unknown to this build",
             f"replay it with the gota_arena that recorded it (package {r.package_version})")
    for seat, bot in enumerate(r.bots):
        if bot != SCRIPT and bot not in bot_names():
            fail(f"seat {seat} was played by bot {bot!r}, which this build does not have "
                 f"(bots: {', '.join(bot_names())})",
                 f"replay it with the gota_arena that recorded it (package {r.package_version})")
    r.programs()   # a changed script is refused here, before anything plays
    if check_rules:
        mine = rules_fingerprint()
        parts = ["sim"] + (["bots"] if any(b not in ("external", SCRIPT) for b in r.bots) else [])
        changed = [p for p in parts if r.rules.get(p) != mine[p]]
        if changed:
            fail(f"the simulator's rules changed since it was recorded (fingerprint "
                 + ", ".join(f"{p} {r.rules.get(p)} then, {mine[p]} now" for p in changed)
                 + f"; recorded by package {r.package_version}, this is {__version__})",
                 "replay it with the build that recorded it, or pass check_rules=False to try anyway "
                 "(the state hashes still decide)")


def _open_match(r: Replay) -> Match:
    try:
        m = Match.from_config(r.match_config())
    except GotaError as e:
        raise ReplayError(f"{r.name}: its config does not make a match in this build ({e}); "
                          f"replay it with the gota_arena that recorded it (package {r.package_version}). "
                          "Nothing was played.") from None
    try:
        classes = tuple(m.hero(s).hero_class for s in range(SEATS)) if m.config.heroes else ()
        if tuple(r.classes) != classes:
            raise ReplayError(f"{r.name}: the draft differs: recorded classes {list(r.classes)}, this build drafts "
                              f"{list(classes)} for seed {r.seed}; the rules or the file changed, "
                              f"{_RERECORD}. Nothing was played.")
        got = m.hash()
        if got != r.start_hash:
            raise ReplayError(f"{r.name}: the match at tick 0 hashes to {_hex(got)}, the recording to "
                              f"{_hex(r.start_hash)}: the config, the map or the rules differ from the "
                              f"recording's; {_RERECORD}. Nothing was played.")
    except BaseException:
        m.close()
        raise
    return m


def _diverged(r: Replay, what: str, last_good: int) -> ReplayError:
    return ReplayError(f"{r.name}: the replay diverged: {what}; it still matched at tick {last_good}. "
                       f"The file was edited, or the simulator changed (recorded by package {r.package_version}, "
                       f"this is {__version__}); {_RERECORD} or use the build that recorded it")


def _run(r: Replay, checkpoints: dict, final_hash: Optional[int], check_rules: bool,
         build_checked: bool = False, stops: Iterable[int] = ()) -> Iterator[Decision]:
    """Play ``r``, yielding a Decision at every stop (and at the extra ``stops``
    ticks asked for, 0..final tick); returns (StopIteration.value) the match at
    the final tick, verified against ``checkpoints`` and ``final_hash`` (None:
    not checked). Closes the match on any error."""
    if not build_checked:
        _check_build(r, check_rules)
    extra = _extra_stops(r, stops)
    m = _open_match(r)
    ok = False
    try:
        ptr = m._handle("replay")
        acts, cmds = r.actions, r.commands
        heads = np.ascontiguousarray(acts["heads"], dtype=np.int32)
        heads_buf = ffi.from_buffer("int32_t[]", heads)
        seats = acts["seat"].astype(np.int64).tolist()
        atick = acts["tick"].astype(np.int64)
        ctick = cmds["tick"].astype(np.int64)
        cindex = cmds["index"].astype(np.int64).tolist()
        answer = ffi.new("int32_t *")
        cmd = ffi.new("GotaCommand *")
        ran = ffi.new("int32_t *")
        stops = set(checkpoints) | set(atick.tolist()) | set(ctick.tolist()) | {0, r.final_tick} | extra
        if r.action_ticks:
            stops.update(range(0, r.final_tick, r.action_ticks))
        now, a, c, last_good = 0, 0, 0, 0
        for t in sorted(stops):
            if t > now:
                code = lib.gota_match_step(ptr, t - now, ran) if m.info.result == "running" else lib.GOTA_ERR_OVER
                done = now + (ran[0] if code == lib.GOTA_OK else 0)
                if code not in (lib.GOTA_OK, lib.GOTA_ERR_OVER):
                    check(code, f"replay step at tick {now}")
                if done != t:
                    info = m.info
                    raise _diverged(r, f"the match ended at tick {done} ({info.result}), the recording goes on "
                                       f"to tick {t}", last_good)
                now = t
            expected = checkpoints.get(t)
            if expected is not None:
                got = m.hash()
                if got != expected:
                    raise _diverged(r, f"at tick {t} the state hashes to {_hex(got)}, the recording to "
                                       f"{_hex(expected)}", last_good)
                last_good = t
            a_end = int(np.searchsorted(atick, t, side="right"))
            c_end = int(np.searchsorted(ctick, t, side="right"))
            yield Decision(t, m, acts[a:a_end], cmds[c:c_end], t == r.final_tick)
            for k in range(a, a_end + 1):
                while c < c_end and cindex[c] <= k:
                    _apply_command(ptr, cmds[c], cmd, answer)
                    c += 1
                if k < a_end:
                    check(lib.gota_match_act(ptr, seats[k], heads_buf + HEADS * k, answer),
                          f"replay act(seat={seats[k]}) at tick {t}")
            a = a_end
            if t == r.final_tick:
                break
        info = m.info
        if info.tick != r.final_tick or info.result != r.result or info.winner != r.winner:
            raise _diverged(r, f"it ends at tick {info.tick} with {info.result} ({info.winner}), the recording "
                               f"at tick {r.final_tick} with {r.result} ({r.winner})", last_good)
        if final_hash is not None:
            got = m.hash()
            if got != final_hash:
                raise _diverged(r, f"the final state (tick {info.tick}) hashes to {_hex(got)}, the recording to "
                                   f"{_hex(final_hash)}", last_good)
        ok = True
        return m
    finally:
        if not ok:
            m.close()


def _extra_stops(r: Replay, stops) -> set:
    """The extra stops asked for, as ints 0..final tick (ReplayError otherwise)."""
    if isinstance(stops, range) and stops.step > 0:
        stops = range(max(stops.start, 0), min(stops.stop, r.final_tick + 1), stops.step)
    try:
        extra = {int(t) for t in stops}
    except (TypeError, ValueError):
        raise ReplayError(f"{r.name}: stops must be ticks (integers), got {stops!r}") from None
    outside = sorted(t for t in extra if not 0 <= t <= r.final_tick)
    if outside:
        raise ReplayError(f"{r.name}: stops {outside[:5]} lie outside the replay's ticks 0..{r.final_tick}")
    return extra


def _apply_command(ptr, rec, cmd, answer) -> None:
    seat, verb = int(rec["seat"]), int(rec["verb"])
    if verb == SET_HP:
        check(lib.gota_match_debug_set_hp(ptr, int(rec["target"]), int(rec["x"])),
              f"replay set_hp(index={int(rec['target'])}) at tick {int(rec['tick'])}")
        return
    for key in _COMMAND_INTS:
        setattr(cmd, key, int(rec[key]))
    check(lib.gota_match_command(ptr, seat, cmd, answer), f"replay command(seat={seat}) at tick {int(rec['tick'])}")


def _checkpoints(r: Replay) -> dict:
    return dict(r.checkpoints)


def replay(r, check_rules: bool = True) -> Match:
    """Replay a Replay (or a file path) to its final tick and return the match
    there, its state hash checked at every checkpoint and at the end. Raises
    ReplayError (and closes the match) on any difference: a match is returned
    only when it replayed exactly. The caller closes it (``with replay(r) as m``)."""
    r = load(r) if isinstance(r, (str, os.PathLike)) else r
    gen = _run(r, _checkpoints(r), r.final_hash, check_rules)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return stop.value


def verify(r, check_rules: bool = True) -> int:
    """Replay and close; the final hash (equal to ``r.final_hash``) or ReplayError."""
    with replay(r, check_rules) as m:
        return m.hash()


def decisions(r, check_rules: bool = True, stops: Iterable[int] = ()) -> Iterator[Decision]:
    """A generator of the replay's stops (every decision tick, the final tick and
    the extra ``stops`` ticks, e.g. ``range(0, r.final_tick, 6)`` for a viewer),
    checked as it goes: a divergence raises ReplayError at the first checkpoint
    after it, so what was yielded before may belong to a diverged match. Use
    ``play(r, on_decision)`` for a replay checked before anything is handed out,
    or keep what was yielded only once the generator ended without an error."""
    r = load(r) if isinstance(r, (str, os.PathLike)) else r
    match = yield from _run(r, _checkpoints(r), r.final_hash, check_rules, stops=stops)
    match.close()


def play(r, on_decision: Optional[Callable[[Decision], None]] = None, verify_first: Optional[bool] = None,
         check_rules: bool = True, stops: Iterable[int] = ()) -> Match:
    """Replay ``r`` calling ``on_decision(decision)`` at every stop (decision ticks and
    the final tick), and return the match at the end (the caller closes it).
    With a callback, the replay is first verified to its final hash without it
    (``verify_first``, default True when there is a callback), so the callback
    never sees a match that will turn out not to replay; that costs one extra
    replay. ``stops``: extra ticks to stop at (as ``decisions``)."""
    r = load(r) if isinstance(r, (str, os.PathLike)) else r
    if verify_first is None:
        verify_first = on_decision is not None
    if verify_first:
        verify(r, check_rules)
    gen = _run(r, _checkpoints(r), r.final_hash, check_rules, build_checked=verify_first, stops=stops)
    try:
        while True:
            d = next(gen)
            if on_decision is not None:
                on_decision(d)
    except StopIteration as stop:
        return stop.value
    finally:
        gen.close()


# ---- recording -------------------------------------------------------------------------
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
            from .constants import Verb
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
            raise ReplayError(f"ArenaRecorder: a match built from lane {lane}'s config hashes to {_hex(got)} at tick "
                              f"0, the lane to {_hex(want)}; pass the arena's match config as match_config= "
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
    from .arena import SIGNAL_INDEX
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


__all__ = ["Replay", "ReplayScript", "Decision", "ArenaRecorder", "RecordingMatch", "ReplayError", "load", "replay", "play",
           "decisions", "verify", "rules_fingerprint", "ACTION_DTYPE", "COMMAND_DTYPE", "FORMAT_VERSION", "SUFFIX"]
