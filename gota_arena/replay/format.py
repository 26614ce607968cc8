"""The replay file (docs/replays.md): the Replay record, its bytes (a fixed
prefix of magic, format version, header and payload sizes and SHA-256, a JSON
header, a zlib-compressed payload of the records column by column and the
sources of the BASIC scripts that played seats), reading with every check, and
atomic writing."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

from .. import __version__
from .._native import lib
from ..bots import bot_id, bot_names
from ..constants import MAX_BATTLE_TICKS, SEATS, Result
from ..contract import HEAD_SIZES, HEADS, INFO
from ..errors import ReplayError
from ..files import write_bytes_atomic
from ..heroes import class_name
from .fingerprint import hex64, rules_fingerprint

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
        from ..basic import BasicSyntaxError, compile as compile_basic
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
                f"commands={len(self.commands)} hash={hex64(self.final_hash)}>")

    # ---- files ----
    def header(self) -> dict:
        """The JSON header of the file (everything but the records)."""
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "package": self.package_version,
            "contract": {"version": int(self.contract_version), "hash": hex64(self.contract_hash)},
            "rules": dict(self.rules),
            "config": {k: int(v) for k, v in self.config.items()},
            "bots": list(self.bots),
            "classes": [int(c) for c in self.classes],
            "class_names": [class_name(int(c)) for c in self.classes],
            "action_ticks": int(self.action_ticks),
            "start_hash": hex64(self.start_hash),
            "checkpoints": [[int(t), hex64(h)] for t, h in self.checkpoints],
            "final": {"tick": int(self.final_tick), "hash": hex64(self.final_hash), "result": self.result,
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
        """Write the file atomically (gota_arena.files.write_bytes_atomic: a
        temporary file in the same folder, fsync, rename); returns the path."""
        path = Path(path)
        write_bytes_atomic(path, self.to_bytes())
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
        fail(f"recorded under contract version {replay.contract_version} hash {hex64(replay.contract_hash)}, "
             f"this build has version {INFO.version} hash {hex64(INFO.hash)}: its action heads would decode "
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
