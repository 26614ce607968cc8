"""The lockstep arena: N lanes stepped together by the native batch (native/batch/batch.c;
docs/arena.md).

    with Arena(lanes=8, action_ticks=4, self_play=False, opponents=("base", "puller")) as arena:
        out = arena.reset(seed=0)          # out.obs, out.masks, ...
        out = arena.step(actions)          # actions: int32 [agents, 5]
        out.signals, out.terminals, out.stats[out.stats["finished"] == 1]

Every buffer is allocated once and handed to C; ``reset`` and ``step`` return views
of the same arrays, which the next call overwrites (copy what you keep). Agents are
lane-major; within a lane the learner team's seats in seat order, then (self-play)
the other team's. Lane i of ``reset(seed)`` plays seed * lanes + i; seed -1
continues each lane's own sequence. A finished lane restarts inside ``step``.
The arena writes per-team reward signals, not rewards: a reward mode
(``gota_arena.rewards``, e.g. ``leaderboard``) turns ``signals`` into rewards, as
``LearnerEnv`` and the Gymnasium/PettingZoo adapters do.
"""
from __future__ import annotations

import operator
import os
from dataclasses import dataclass
from typing import Optional

import numpy as np

from ._native import ffi, lib
from .bots import bot_id, bot_names
from .constants import SEATS, SEATS_PER_TEAM, SIGNAL_FIELDS, SIGNALS, Signal
from .contract import HEAD_NAMES, HEAD_RANGES, HEADS, MASK_SIZE, OBS_SIZE
from .contract import HEAD_SIZES as _HEAD_SIZES
from .errors import ArgumentRangeError, ArgumentTypeError, ClosedMatchError, ConfigRangeError, check
from .layout import struct_dtype
from .sim import _config_struct

HEAD_SIZES = np.array(_HEAD_SIZES, dtype=np.int64)
# reward signals, read from C (gota_arena.constants.Signal): name -> index of signals[lane, team, :]
SIGNAL_INDEX = {s.name.lower(): int(s) for s in Signal}

LANE_STATS_DTYPE = struct_dtype("GotaLaneStats")   # finished, outcome, ticks, ... as laid out by C


def learner_team(seed: int) -> int:
    """The team (0 red, 1 blue) the learner plays in a lane started with ``seed`` (C decides:
    gota_batch_seed_team)."""
    team = int(lib.gota_batch_seed_team(int(seed)))
    if team < 0:
        raise ArgumentRangeError(f"seed {seed} is negative; lane seeds are 0..2**31-1")
    return team


@dataclass(frozen=True)
class StepResult:
    """Views of the arena's buffers after a step (overwritten by the next call)."""

    obs: np.ndarray          # float32 [agents, OBS_SIZE]
    masks: np.ndarray        # uint8 [agents, MASK_SIZE]
    terminals: np.ndarray    # uint8 [agents]
    truncations: np.ndarray  # uint8 [agents]
    stats: np.ndarray        # LANE_STATS_DTYPE [lanes]
    signals: np.ndarray      # int64 [lanes, 2, SIGNALS]


def _int(value, what: str) -> int:
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ArgumentTypeError(f"{what} must be an integer, got {type(value).__name__} {value!r}")
    return operator.index(value)


# ---- memory ---------------------------------------------------------------------------------
MEMORY_CHECK_ENV = "GOTA_ARENA_MEMORY_CHECK"   # "0": create arenas without the memory check


def memory_needed(lanes: int, self_play: bool = True, threads: int = 0) -> int:
    """Bytes an ``Arena(lanes, self_play=..., threads=...)`` allocates: the native
    batch (``gota_batch_bytes``: sizeof its matches, ~0.7 MB a lane, and tables) and
    the numpy buffers the Arena owns (observations, masks, actions, ...)."""
    lanes, threads = _int(lanes, "lanes"), _int(threads, "threads")
    out = ffi.new("int64_t *")
    check(lib.gota_batch_bytes(lanes, 1 if self_play else 0, threads, out),
          f"memory_needed(lanes={lanes}, threads={threads})",
          f"lanes must be 1..{lib.GOTA_BATCH_MAX_LANES} and threads >= 0")
    agents = lanes * (SEATS if self_play else SEATS_PER_TEAM)   # rows a lane: both teams, or the learner's
    # observations, masks, terminals, truncations, actions (no rewards: the arena writes signals)
    per_agent = 4 * OBS_SIZE + MASK_SIZE + 1 + 1 + 4 * HEADS
    per_lane = LANE_STATS_DTYPE.itemsize + 8 * 2 * SIGNALS
    return int(out[0]) + agents * per_agent + lanes * per_lane


def _read_int(path: str) -> Optional[int]:
    try:
        with open(path) as f:
            text = f.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None   # "max" (no limit) and the unreadable: None


def _cgroup_room() -> Optional[int]:
    """Bytes left under this process's cgroup memory limit (v2: memory.max minus
    memory.current; v1: memory.limit_in_bytes minus memory.usage_in_bytes), or
    None without a limit or a cgroup to read."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = [line.split(":", 2) for line in f.read().splitlines()]
    except OSError:
        return None
    root = "/sys/fs/cgroup"
    places = []   # (folder, limit file, usage file): the process's own cgroup first, then the mount's root
    for hierarchy, controllers, rel in (parts for parts in lines if len(parts) == 3):
        if hierarchy == "0" and not controllers:
            places += [(os.path.join(root, rel.lstrip("/")), "memory.max", "memory.current"),
                       (root, "memory.max", "memory.current")]
        elif "memory" in controllers.split(","):
            v1 = ("memory.limit_in_bytes", "memory.usage_in_bytes")
            places += [(os.path.join(root, "memory", rel.lstrip("/")), *v1), (os.path.join(root, "memory"), *v1)]
    rooms = []
    for folder, limit_file, usage_file in dict.fromkeys(places):
        limit, used = _read_int(os.path.join(folder, limit_file)), _read_int(os.path.join(folder, usage_file))
        if limit is not None and used is not None:
            rooms.append(max(0, limit - used))
    return min(rooms) if rooms else None


def available_memory() -> tuple:
    """``(bytes, what)``: the memory a new arena can take now, and where that figure
    comes from. It is MemAvailable of /proc/meminfo (the kernel's estimate of what
    can be allocated without swapping: free memory plus the cache it can drop),
    lowered to the room under this process's cgroup memory limit (a container, a
    SLURM job) when that is smaller. Not the physical memory: memory that other
    processes (a running training) hold is not there to take, and going past the
    rest means swapping or the out-of-memory killer. Without /proc (not Linux) the
    physical memory (os.sysconf) is all there is to go by; (None, ...) when nothing
    tells."""
    available = what = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    available, what = int(line.split()[1]) * 1024, "the memory available (MemAvailable)"
                    break
    except (OSError, ValueError, IndexError):
        pass
    if available is None:
        try:
            available = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
            what = "the physical memory"
        except (AttributeError, ValueError, OSError):
            return None, "unknown"
    room = _cgroup_room()
    if room is not None and room < available:
        available, what = room, "the room left under this process's cgroup memory limit"
    return available, what


def _gib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.1f} MiB"


def _check_memory(lanes: int, self_play: bool, threads: int) -> None:
    """ConfigRangeError when the arena would need more memory than the machine has to give."""
    if os.environ.get(MEMORY_CHECK_ENV, "1") == "0":
        return
    need = memory_needed(lanes, self_play, threads)
    available, what = available_memory()
    if available is None or need <= available:
        return
    per_lane = need / lanes
    fit = int(available // per_lane)
    raise ConfigRangeError(f"Arena(lanes={lanes}) needs about {_gib(need)} of memory ({_gib(per_lane)} a lane "
                           f"{'with' if self_play else 'without'} self-play: its match and its buffers), but "
                           f"{what} is {_gib(available)}; use fewer lanes (about {fit} fit now) or run it on a "
                           f"machine with more memory ({MEMORY_CHECK_ENV}=0 skips this check)")


class Arena:
    """``Arena(lanes, action_ticks=4, self_play=True, threads=0, opponents=("base",),
    seed=0, **match_config)``: match_config keys are the simulator's (max_ticks,
    class_0, upkeep, ...); the bot keys are set per lane from the seed. upkeep
    defaults to 1 here: ability points, shopping and buyback are done for the
    agents (as the original's policy.bas does); pass upkeep=0 to leave them to
    nobody."""

    def __init__(self, lanes: int = 1, action_ticks: int = 4, self_play: bool = True, threads: int = 0,
                 opponents=("base",), seed: int = 0, **match_config):
        self._ptr = None
        lanes = _int(lanes, "lanes")
        action_ticks = _int(action_ticks, "action_ticks")
        threads = _int(threads, "threads")
        if not 1 <= lanes <= lib.GOTA_BATCH_MAX_LANES:
            raise ArgumentRangeError(f"lanes={lanes} is out of range 1..{lib.GOTA_BATCH_MAX_LANES}")
        if not 1 <= action_ticks <= lib.GOTA_BATCH_MAX_ACTION_TICKS:
            raise ArgumentRangeError(f"action_ticks={action_ticks} is out of range 1..{lib.GOTA_BATCH_MAX_ACTION_TICKS}")
        if not 0 <= threads <= lib.GOTA_BATCH_MAX_LANES:   # never more threads than lanes are used
            raise ArgumentRangeError(f"threads={threads} must be in 0..{lib.GOTA_BATCH_MAX_LANES} "
                                     "(0 = one per core; more threads than cores or lanes are not started)")
        if isinstance(opponents, (str, int)):
            opponents = (opponents,)
        ids = [bot_id(o) for o in opponents]
        if not ids or 0 in ids:
            raise ConfigRangeError(f"opponents must name at least one bot other than 'external'; "
                                   f"the bots are {', '.join(bot_names()[1:])}")
        for key in match_config:
            if isinstance(key, str) and key.startswith("bot_"):
                raise ConfigRangeError(f"{key} is set per lane by the arena (opponents=...), not by the config")
        match_config.setdefault("upkeep", 1)   # agents get policy.bas's upkeep unless told otherwise
        cfg = _config_struct(match_config)
        _check_memory(lanes, bool(self_play), threads)   # before the native batch allocates
        self._opponents = ffi.new("int32_t[]", ids)
        err = ffi.new("int *")
        ptr = lib.gota_batch_new(cfg, lanes, action_ticks, 1 if self_play else 0, threads,
                                 self._opponents, len(ids), err)
        if ptr == ffi.NULL:
            check(err[0] if err[0] < 0 else lib.GOTA_ERR_INTERNAL, "Arena(...)")
        self._ptr = ffi.gc(ptr, lib.gota_batch_free)
        info = ffi.new("GotaBatchInfo *")
        check(lib.gota_batch_info(self._ptr, info), "gota_batch_info")
        self.lanes = int(info.lanes)
        self.agents = int(info.agents)
        self.agents_per_lane = int(info.agents_per_lane)
        self.action_ticks = int(info.action_ticks)
        self.upkeep = bool(match_config["upkeep"])
        self.self_play = bool(info.self_play)
        self.threads = int(info.threads)
        self.opponents = tuple(bot_names()[i] for i in ids)
        self.obs = np.zeros((self.agents, OBS_SIZE), dtype=np.float32)
        self.masks = np.zeros((self.agents, MASK_SIZE), dtype=np.uint8)
        self.terminals = np.zeros(self.agents, dtype=np.uint8)
        self.truncations = np.zeros(self.agents, dtype=np.uint8)
        self.stats = np.zeros(self.lanes, dtype=LANE_STATS_DTYPE)
        self.signals = np.zeros((self.lanes, 2, SIGNALS), dtype=np.int64)
        self._io = ffi.new("GotaBatchBuffers *")
        self._keep = []
        for name, array, ctype, shape in (
            ("obs", self.obs, "float[]", (self.agents, OBS_SIZE)),
            ("masks", self.masks, "uint8_t[]", (self.agents, MASK_SIZE)),
            ("terminals", self.terminals, "uint8_t[]", (self.agents,)),
            ("truncations", self.truncations, "uint8_t[]", (self.agents,)),
            ("stats", self.stats, "GotaLaneStats[]", (self.lanes,)),
            ("signals", self.signals, "int64_t[]", (self.lanes, 2, SIGNALS)),
        ):
            self._check_buffer(name, array, shape)
            buf = ffi.from_buffer(ctype, array)
            self._keep.append(buf)
            setattr(self._io, name, buf)
            setattr(self._io, name + "_cap", array.size)
        self._actions = np.zeros((self.agents, HEADS), dtype=np.int32)
        self._actions_buf = ffi.from_buffer("int32_t[]", self._actions)
        self.reset(seed)

    @staticmethod
    def _check_buffer(name: str, array: np.ndarray, shape: tuple) -> None:
        expected = {"stats": LANE_STATS_DTYPE}.get(name, array.dtype)
        if array.dtype != expected or array.shape != shape or not array.flags.c_contiguous:
            raise ArgumentTypeError(f"buffer {name!r} must be a C-contiguous {expected} array of shape {shape}, "
                                    f"got {array.dtype} {array.shape}")

    def _handle(self, what: str):
        if self._ptr is None:
            raise ClosedMatchError(what, owner="Arena")
        return self._ptr

    def _result(self) -> StepResult:
        return StepResult(self.obs, self.masks, self.terminals, self.truncations,
                          self.stats, self.signals)

    def reset(self, seed: int = 0) -> StepResult:
        """Rebuild every lane: lane i plays seed * lanes + i; -1 continues each lane."""
        what = f"Arena.reset({seed!r})"
        ptr = self._handle(what)
        seed = _int(seed, "seed")
        check(lib.gota_batch_reset(ptr, seed, self._io), what,
              "seed must be -1 or 0.. such that seed * lanes + lanes - 1 fits 32 bits")
        return self._result()

    def check_actions(self, actions) -> np.ndarray:
        """actions as a C-contiguous int32 [agents, HEADS] array; raises on a wrong
        shape, dtype or an out-of-range head."""
        try:
            array = np.asarray(actions)
        except (ValueError, TypeError) as error:   # ragged nested lists, objects numpy cannot take
            raise ArgumentTypeError(f"actions must be an int32 array of shape ({self.agents}, {HEADS}): "
                                    f"{error}") from None
        if array.shape != (self.agents, HEADS):
            raise ArgumentTypeError(f"actions must have shape ({self.agents}, {HEADS}) "
                                    f"(agents x {', '.join(HEAD_NAMES)}), got {array.shape}")
        if not np.issubdtype(array.dtype, np.integer):
            raise ArgumentTypeError(f"actions must be integers (int32), got {array.dtype}")
        bad = (array < 0) | (array >= HEAD_SIZES)
        if bad.any():
            agent, head = (int(v) for v in np.argwhere(bad)[0])
            raise ArgumentRangeError(f"actions[{agent}, {head}] = {int(array[agent, head])}: head "
                                     f"{HEAD_NAMES[head]} must be in 0..{int(HEAD_SIZES[head]) - 1} "
                                     f"({HEAD_RANGES})")
        return array

    def step(self, actions) -> StepResult:
        """One decision for every lane; returns views of the arena's buffers."""
        what = "Arena.step(actions)"
        ptr = self._handle(what)
        array = self.check_actions(actions)
        self._actions[...] = array
        check(lib.gota_batch_step(ptr, self._actions_buf, self._actions.size, self._io), what)
        return self._result()

    def lane(self, lane: int) -> dict:
        """The lane's current seed, learner team, opponent bot id, tick and result."""
        out = ffi.new("GotaBatchLane *")
        check(lib.gota_batch_lane(self._handle("Arena.lane"), _int(lane, "lane"), out), f"Arena.lane({lane})")
        return {k: int(getattr(out, k)) for k in ("seed", "learner_team", "opponent", "tick", "result")}

    def set_opponent(self, lane: int, opponent) -> None:
        """Who plays the lane's other team from its next start on (the restart
        after it finishes, or a reset): a bot name, "external" (self-play
        arenas: the other team's rows are agents) or None for the default.
        A self-play lane against a bot keeps its 10 rows; the bot's rows
        observe zeros, allow only noop and their actions are ignored."""
        bot = -1 if opponent is None else bot_id(opponent)
        if bot == 0 and not self.self_play:
            raise ConfigRangeError(f"set_opponent(lane={lane}, 'external'): only a self-play arena has rows "
                                   "for the other team; use a bot name or None")
        check(lib.gota_batch_set_opponent(self._handle("Arena.set_opponent"), _int(lane, "lane"), bot),
              f"Arena.set_opponent({lane}, {opponent!r})")

    def set_opponent_script(self, lane: int, script) -> None:
        """A BASIC script (a gota_arena.basic.Program or a .bas path) for the lane's
        other team from its next start on; each start gives its five seats fresh
        VMs (the script drafts). None goes back to the default opponent."""
        from .basic import program
        prog = None if script is None else program(script)
        check(lib.gota_batch_set_opponent_script(self._handle("Arena.set_opponent_script"), _int(lane, "lane"),
                                                 ffi.NULL if prog is None else prog.ptr),
              f"Arena.set_opponent_script({lane}, {script!r})")

    def set_learner_script(self, lane: int, script) -> None:
        """A BASIC script for the lane's learner team from its next start on
        (evaluation), or None for agents."""
        from .basic import program
        prog = None if script is None else program(script)
        check(lib.gota_batch_set_learner_script(self._handle("Arena.set_learner_script"), _int(lane, "lane"),
                                                ffi.NULL if prog is None else prog.ptr),
              f"Arena.set_learner_script({lane}, {script!r})")

    def set_learner_bot(self, lane: int, bot) -> None:
        """A bot for the lane's learner team from its next start on (evaluation:
        bot against bot or against a Python opponent), or None for agents."""
        bot = 0 if bot is None else bot_id(bot)
        check(lib.gota_batch_set_learner_bot(self._handle("Arena.set_learner_bot"), _int(lane, "lane"), bot),
              f"Arena.set_learner_bot({lane}, {bot!r})")

    def set_next_seed(self, lane: int, seed) -> None:
        """The seed of the lane's next start (its restart, or a reset), once; None withdraws it."""
        seed = -1 if seed is None else _int(seed, "seed")
        check(lib.gota_batch_set_next_seed(self._handle("Arena.set_next_seed"), _int(lane, "lane"), seed),
              f"Arena.set_next_seed({lane}, {seed})", "seed must be 0..2**31-1")

    def lane_hash(self, lane: int) -> int:
        out = ffi.new("uint64_t *")
        check(lib.gota_batch_lane_hash(self._handle("Arena.lane_hash"), _int(lane, "lane"), out),
              f"Arena.lane_hash({lane})")
        return int(out[0])

    def agent_seat(self, agent: int) -> tuple:
        """(lane, seat) of an agent."""
        lane, seat = ffi.new("int32_t *"), ffi.new("int32_t *")
        check(lib.gota_batch_agent_seat(self._handle("Arena.agent_seat"), _int(agent, "agent"), lane, seat),
              f"Arena.agent_seat({agent})")
        return int(lane[0]), int(seat[0])

    def close(self) -> None:
        if self._ptr is not None:
            ptr, self._ptr = self._ptr, None
            ffi.release(ptr)   # runs gota_batch_free now

    @property
    def closed(self) -> bool:
        return self._ptr is None

    def __enter__(self) -> "Arena":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{self.agents} agents"
        return (f"Arena(lanes={self.lanes}, action_ticks={self.action_ticks}, self_play={self.self_play}, "
                f"threads={self.threads}, opponents={self.opponents}; {state})")


__all__ = ["Arena", "StepResult", "LANE_STATS_DTYPE", "SIGNAL_FIELDS", "SIGNAL_INDEX", "SIGNALS", "HEAD_NAMES",
           "HEADS", "HEAD_SIZES", "learner_team", "memory_needed", "available_memory"]
