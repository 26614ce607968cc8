"""Soak: ``python benchmarks/soak.py [--minutes 10] [--write]``.

Random play through the public API for a fixed time, in one process and one
thread (``Arena(threads=1)``), checking invariants as it goes and sampling the
resident memory; it PASSES only when no invariant broke and memory stayed flat.

What it does, each iteration one operation drawn at random (after a first tour
that does each operation once, so that even a run of seconds covers them all):

- **step** (most iterations): an ``Arena`` of 8 lanes steps on random legal
  actions (``masking.sample_actions``); on 15 % of the steps up to a quarter of
  the rows are replaced by random in-range heads, most of them illegal under the
  mask (the arena takes them, they decode to noops).
- **bad step**: a step the API must refuse before any lane moves: a head out of
  range, a wrong shape or dtype, a ragged list, ``None``, a string.
- **bad call**: an out-of-range lane or agent, a bad seed or bot for
  ``lane``/``lane_hash``/``agent_seat``/``set_next_seed``/``set_opponent``/
  ``reset``, or ``Arena(...)`` arguments that must be refused.
- **next seed** / **opponent**: ``set_next_seed(lane, seed)`` (now and then a seed
  near 2**31 - 1, the top of the range) and ``set_opponent(lane, bot)``, which
  take effect at the lane's next start.
- **reset**: ``reset(seed)`` with a new seed, or ``reset(-1)``.
- **recreate**: close the whole Arena, check that every call on it raises
  ``ClosedMatchError``, and make a new one: two in three are self-play arenas
  whose lanes 4..7 play bundled bots (``set_opponent``), one in three plays the
  learner's five against a rotation of bundled bots; the action ticks (1, 2, 4,
  8) and ``max_ticks`` (480..2,880, so lanes finish and restart often) drawn anew.
- **match**: a ``Match`` with a random config gets 10..40 random calls: commands
  and action heads (mostly in range, some not), steps, the views (hero,
  seat_stats, observe, mask, events, units_of, vision, visible, spells,
  team_score, signals, find_path, ...), sometimes a run to its end and a step
  after it; then it is closed and every call must raise ``ClosedMatchError``
  naming the call ("... was closed; create a new Match"), while a units view
  and the events taken before the close stay readable.

Invariants, checked at every operation: no crash; every refusal is the typed
error its call documents (a ``GotaError`` subclass, never a bare exception); a
refused step, call or command changes no state hash (the lanes' or the match's)
and, for the arena, no byte of its observation, mask and signal buffers; every
observation finite, every mask 0/1 with at least one verb allowed; terminals
and truncations 0/1, equal over a lane's rows and matching ``stats.finished``;
the ``leaderboard`` reward mode's rewards finite; a running lane advances by
exactly ``action_ticks``; a lane that finished restarts inside the step at tick
0 with the seed and opponent the API promises (its own seed + lanes, or the seed
``set_next_seed`` gave, and the bot ``set_opponent`` gave); the rows of a bot
played inside a self-play lane observe zeros and allow only noop.

Memory: VmRSS of /proc/self/status every ``--sample-every`` seconds. **Flat**
means: after a warm-up of 60 s (a fifth of the run when it is shorter than
5 minutes), no sample exceeds the first sample after the warm-up by more than
max(8 MiB, 2 % of that sample). Why these numbers: the warm-up covers what a
process allocates once (the plugins and reward mode, the simulator's shared
tables, numpy's and the allocator's pools); 8 MiB is more than one whole 8-lane
arena (about 6.2 MiB, its 8 matches and buffers) plus a Match (0.7 MiB), so an
allocator that keeps one closed arena's memory for reuse does not fail the
soak, while a leak of one arena per re-create, of one match per lane restart,
or of a few bytes per step over the run does (the report says how small a leak
per step, restart, re-create and Match the bound would still have caught); the
2 % is for a process much larger than this one's. The maximum (not the last
sample) is compared, so a leak freed before the end still counts.

``--write`` writes the ``## soak`` section of benchmarks/RESULTS.md (through
benchmarks/results.py, as the other benchmarks do); without it nothing is
written. Exits 0 on PASS, 1 on FAIL.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import resource
import sys
import time
import traceback
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sim import cpu_model, nproc  # noqa: E402
from results import RESULTS, add_write_option, write_section  # noqa: E402

from gota_arena import (  # noqa: E402
    ActionError, ArgumentRangeError, ArgumentTypeError, ClosedMatchError, ConfigError, ConfigRangeError,
    GotaError, GotaIndexError, Match, MatchOverError, Verb, plugins,
)
from gota_arena.arena import HEAD_SIZES, Arena  # noqa: E402
from gota_arena.bots import bot_id, bot_names  # noqa: E402
from gota_arena.masking import illegal_rows, sample_actions, verb_mask  # noqa: E402

SECTION = "## soak"
BOTS = bot_names()[1:]                  # idle, random, base, rusher, baseline, puller
INT32_MAX = 2**31 - 1
MIB = 2**20
WARMUP_S = 60.0
BOUND_BYTES = 8 * MIB
BOUND_SHARE = 0.02
MATCH_ERRORS = (ArgumentRangeError, ArgumentTypeError, GotaIndexError, ConfigError)
# operation -> weight of the draw (per iteration)
WEIGHTS = {"step": 0.90, "bad_step": 0.03, "bad_call": 0.025, "next_seed": 0.015, "opponent": 0.015,
           "reset": 0.004, "match": 0.0075, "recreate": 0.0002}
OPS = tuple(WEIGHTS)
PROBS = np.array([WEIGHTS[o] for o in OPS]) / sum(WEIGHTS.values())


def rss_bytes() -> int:
    """VmRSS of /proc/self/status (the resident set now), or the peak from getrusage off Linux."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def memory_verdict(samples: list, warmup: float) -> dict:
    """Flat or not, from samples [(seconds, rss bytes, steps)]: the first sample at or after
    ``warmup`` is the baseline; flat when no later sample exceeds it by more than
    max(BOUND_BYTES, BOUND_SHARE * baseline)."""
    after = [s for s in samples if s[0] >= warmup]
    if len(after) < 2:
        return {"judged": False, "flat": False, "why": f"fewer than 2 samples after the {warmup:.0f} s warm-up"}
    base = after[0][1]
    bound = max(BOUND_BYTES, BOUND_SHARE * base)
    peak = max(s[1] for s in after)
    return {"judged": True, "flat": peak - base <= bound, "baseline": base, "bound": bound, "peak": peak,
            "growth": peak - base, "end_growth": after[-1][1] - base, "t0": after[0][0], "t1": after[-1][0],
            "steps": after[-1][2] - after[0][2]}


class Soak:
    """The loop's state: the arena and what the API promises about its lanes, counters,
    violations, RSS samples."""

    def __init__(self, seed: int = 0, lanes: int = 8, log=print):
        self.rng = np.random.default_rng(seed)
        self.lanes = lanes
        self.log = log
        self.arena = None
        self.counts = {k: 0 for k in (
            "iterations", "steps", "agent_steps", "step_seconds", "mixed_steps", "illegal_rows", "episodes",
            "refused_steps", "refused_calls", "next_seeds", "top_seeds", "opponents", "resets", "recreates",
            "closed_calls", "matches", "match_calls", "match_refusals", "match_answers", "match_over",
            "match_closed_calls")}
        self.counts["step_seconds"] = 0.0
        self.violations = {}         # kind -> count
        self.examples = []           # the first few, with the iteration
        self.new_arena()

    # ---- bookkeeping -------------------------------------------------------------------------------
    def violation(self, kind: str, detail: str) -> None:
        self.violations[kind] = self.violations.get(kind, 0) + 1
        if len(self.examples) < 20:
            self.examples.append(f"iteration {self.counts['iterations']}: {kind}: {detail}")
            self.log(f"VIOLATION {self.examples[-1]}")

    def expect_refusal(self, call, expected, what: str):
        """Run ``call``; it must raise ``expected``. Returns the error (or None)."""
        try:
            call()
        except expected as error:
            return error
        except GotaError as error:
            self.violation("wrong error class", f"{what} raised {type(error).__name__}, expected "
                           f"{getattr(expected, '__name__', expected)}: {error}")
            return error
        except Exception as error:   # noqa: BLE001 -- an untyped error is what the soak looks for
            self.violation("untyped error", f"{what} raised {type(error).__name__}: {error}")
            return error
        self.violation("not refused", f"{what} returned instead of raising {getattr(expected, '__name__', expected)}")
        return None

    # ---- the arena and what it promises ------------------------------------------------------------------
    def new_arena(self) -> None:
        rng = self.rng
        self.self_play = bool(rng.random() < 2 / 3)
        self.action_ticks = int(rng.choice([1, 2, 4, 8]))
        max_ticks = int(rng.choice([480, 960, 1920, 2880]))
        opponents = tuple(rng.choice(BOTS, size=int(rng.integers(1, 4)), replace=False))
        seed = int(rng.integers(0, 100_000))
        self.arena = Arena(lanes=self.lanes, action_ticks=self.action_ticks, self_play=self.self_play, threads=1,
                           opponents=opponents, seed=seed, max_ticks=max_ticks)
        self.ids = [bot_id(o) for o in opponents]
        self.forced = [None] * self.lanes        # set_opponent: bot id from the next start on, None = default
        self.pending = [None] * self.lanes       # set_next_seed: the seed of the next start, once
        if self.self_play:
            for lane in range(self.lanes // 2, self.lanes):
                bot = str(rng.choice(BOTS))
                self.arena.set_opponent(lane, bot)
                self.forced[lane] = bot_id(bot)
        self.mode = plugins.reward_mode("leaderboard")
        self.do_reset(seed)

    def expected_opponent(self, lane: int, seed: int) -> int:
        if self.forced[lane] is not None:
            return self.forced[lane]
        return 0 if self.self_play else self.ids[(seed // 10) % len(self.ids)]

    def started(self, lane: int, seed: int, what: str) -> None:
        """The lane just started: check its seed, side and opponent, remember them."""
        info = self.arena.lane(lane)
        want = {"seed": seed, "learner_team": (seed % 10) // 5, "opponent": self.expected_opponent(lane, seed),
                "tick": 0}
        got = {k: info[k] for k in want}
        if got != want:
            self.violation("lane start", f"{what}: lane {lane} is {got}, the API promises {want}")
        self.seeds[lane] = info["seed"]
        self.opponent_now[lane] = info["opponent"]
        self.pending[lane] = None

    def next_seed(self, lane: int) -> int:
        """The seed a lane's next start takes by itself: its seed + lanes (wrapping past 2**31 - 1)."""
        if self.pending[lane] is not None:
            return self.pending[lane]
        return (self.seeds[lane] + self.lanes) % (INT32_MAX + 1)

    def do_reset(self, seed: int) -> None:
        if seed == -1:
            want = [self.next_seed(i) for i in range(self.lanes)]
        else:
            want = [self.pending[i] if self.pending[i] is not None else seed * self.lanes + i
                    for i in range(self.lanes)]
        self.out = self.arena.reset(seed)
        self.mode.reset(self.out.signals)
        self.seeds = [0] * self.lanes
        self.opponent_now = [0] * self.lanes
        for lane in range(self.lanes):
            self.started(lane, want[lane], f"reset({seed})")
        self.ticks = [0] * self.lanes
        self.check_buffers("reset")

    def hashes(self) -> list:
        return [self.arena.lane_hash(i) for i in range(self.lanes)]

    def snapshot(self) -> tuple:
        out = self.out
        return (self.hashes(), [self.arena.lane(i) for i in range(self.lanes)], out.obs.tobytes(),
                out.masks.tobytes(), out.signals.tobytes())

    def check_buffers(self, what: str) -> None:
        out = self.out
        if not np.isfinite(out.obs).all():
            self.violation("observation not finite", what)
        if not ((out.masks == 0) | (out.masks == 1)).all():
            self.violation("mask not 0/1", what)
        if not verb_mask(out.masks).any(axis=1).all():
            self.violation("mask allows no verb", what)
        if self.self_play:   # a bot inside a self-play lane: its rows observe zeros and allow only noop
            per = self.arena.agents_per_lane
            for lane in range(self.lanes):
                if self.opponent_now[lane] != 0:
                    rows = slice(lane * per + per // 2, (lane + 1) * per)
                    verbs = verb_mask(out.masks[rows])
                    if out.obs[rows].any() or not (verbs[:, 0].all() and not verbs[:, 1:].any()):
                        self.violation("bot rows not inert", f"{what}: lane {lane}")

    # ---- operations ---------------------------------------------------------------------------------
    def op_step(self) -> None:
        rng, arena = self.rng, self.arena
        actions = sample_actions(self.out.masks, rng)
        if rng.random() < 0.15:   # random in-range heads on some rows: mostly illegal under the mask
            rows = rng.choice(arena.agents, size=int(rng.integers(1, arena.agents // 4 + 1)), replace=False)
            actions[rows] = rng.integers(0, HEAD_SIZES, size=(len(rows), len(HEAD_SIZES)))
            self.counts["mixed_steps"] += 1
            self.counts["illegal_rows"] += int(illegal_rows(self.out.masks, actions).sum())
        start = time.perf_counter()
        try:
            out = arena.step(actions)
        except Exception as error:   # noqa: BLE001
            self.violation("step of legal actions raised", f"{type(error).__name__}: {error}; lanes "
                           f"{[arena.lane(i) for i in range(self.lanes)]}")
            self.replace_arena()
            return
        self.counts["step_seconds"] += time.perf_counter() - start
        self.counts["steps"] += 1
        self.counts["agent_steps"] += arena.agents
        self.out = out
        rewards = self.mode.rewards(out.signals)
        if np.shape(rewards) != (self.lanes, 2) or not np.isfinite(rewards).all():
            self.violation("rewards not finite", f"shape {np.shape(rewards)}")
        per = arena.agents_per_lane
        for flags, name in ((out.terminals, "terminals"), (out.truncations, "truncations")):
            if not ((flags == 0) | (flags == 1)).all():
                self.violation(f"{name} not 0/1", str(np.unique(flags)))
        term = out.terminals.reshape(self.lanes, per)
        trunc = out.truncations.reshape(self.lanes, per)
        finished = out.stats["finished"]
        if (term != term[:, :1]).any() or (term[:, 0] != finished).any() or (trunc > term).any():
            self.violation("terminals disagree", f"terminals {term[:, 0]}, finished {finished}")
        for lane in range(self.lanes):
            if finished[lane]:
                self.counts["episodes"] += 1
                if int(out.stats["seed"][lane]) != self.seeds[lane]:
                    self.violation("lane stats", f"lane {lane} finished seed {int(out.stats['seed'][lane])}, "
                                   f"it played {self.seeds[lane]}")
                self.started(lane, self.next_seed(lane), "restart in step")
                self.ticks[lane] = 0
            else:
                tick = arena.lane(lane)["tick"]
                if tick != self.ticks[lane] + self.action_ticks:
                    self.violation("lane tick", f"lane {lane} at tick {tick}, was {self.ticks[lane]}, "
                                   f"action_ticks {self.action_ticks}")
                self.ticks[lane] = tick
        self.check_buffers("step")

    def replace_arena(self) -> None:
        """After an unexpected error: a new arena, so the soak goes on from a known state."""
        try:
            self.arena.close()
        except Exception as error:   # noqa: BLE001
            self.violation("close raised", f"{type(error).__name__}: {error}")
        self.new_arena()

    def op_bad_step(self) -> None:
        rng, arena = self.rng, self.arena
        legal = sample_actions(self.out.masks, rng)
        kind = int(rng.integers(0, 7))
        if kind <= 1:   # one head out of range, above or below
            bad = legal.copy()
            a, h = int(rng.integers(0, arena.agents)), int(rng.integers(0, len(HEAD_SIZES)))
            bad[a, h] = int(HEAD_SIZES[h]) + int(rng.integers(0, 1000)) if kind == 0 else -1 - int(rng.integers(0, 9))
            expected = ArgumentRangeError
        elif kind == 2:
            bad = legal.astype(np.int64)
            bad[int(rng.integers(0, arena.agents)), 0] = 2**40
            expected = ArgumentRangeError
        elif kind == 3:
            shapes = [(arena.agents - 1, 5), (arena.agents, 4), (arena.agents * 5,), (1, arena.agents, 5), (0, 5)]
            bad = np.zeros(shapes[int(rng.integers(0, len(shapes)))], np.int32)
            expected = ArgumentTypeError
        elif kind == 4:
            bad = legal.astype(rng.choice([np.float32, np.float64]))
            expected = ArgumentTypeError
        elif kind == 5:
            bad = [[0, 0, 0, 0, 0], [0]] + [[0] * 5] * (arena.agents - 2)
            expected = ArgumentTypeError
        else:
            bad = [None, "noop", object(), b"\0" * 5][int(rng.integers(0, 4))]
            expected = ArgumentTypeError
        before = self.snapshot()
        self.expect_refusal(lambda: arena.step(bad), expected, f"Arena.step(kind {kind})")
        self.counts["refused_steps"] += 1
        if self.snapshot() != before:
            self.violation("refused step changed state", f"kind {kind}")

    def op_bad_call(self) -> None:
        rng, arena, n = self.rng, self.arena, self.lanes
        k = int(rng.integers(0, 1000))
        lane = int(rng.integers(0, n))
        calls = [
            (lambda: arena.lane(n + k), GotaIndexError, "lane(lanes + k)"),
            (lambda: arena.lane(-1 - k), GotaIndexError, "lane(-1 - k)"),
            (lambda: arena.lane_hash(n + k), GotaIndexError, "lane_hash(lanes + k)"),
            (lambda: arena.agent_seat(arena.agents + k), GotaIndexError, "agent_seat(agents + k)"),
            (lambda: arena.set_next_seed(lane, -2 - k), ArgumentRangeError, "set_next_seed(lane, -2 - k)"),
            (lambda: arena.set_next_seed(lane, INT32_MAX + 1 + k), ArgumentRangeError, "set_next_seed(lane, 2**31+k)"),
            (lambda: arena.set_next_seed(n + k, 1), GotaIndexError, "set_next_seed(lanes + k, 1)"),
            (lambda: arena.set_next_seed(lane, 1.5), ArgumentTypeError, "set_next_seed(lane, 1.5)"),
            (lambda: arena.set_opponent(lane, "nobody"), ConfigRangeError, "set_opponent(lane, 'nobody')"),
            (lambda: arena.set_opponent(lane, 7 + k), ConfigRangeError, "set_opponent(lane, 7 + k)"),
            (lambda: arena.set_opponent(n + k, "base"), GotaIndexError, "set_opponent(lanes + k, 'base')"),
            (lambda: arena.reset(-2 - k), ArgumentRangeError, "reset(-2 - k)"),
            (lambda: arena.reset(INT32_MAX // n + 1 + k), ArgumentRangeError, "reset(too large)"),
            (lambda: arena.reset("0"), ArgumentTypeError, "reset('0')"),
            (lambda: Arena(lanes=0), ArgumentRangeError, "Arena(lanes=0)"),
            (lambda: Arena(lanes=1, action_ticks=25 + k), ArgumentRangeError, "Arena(action_ticks=25 + k)"),
            (lambda: Arena(lanes=1, opponents=("nobody",)), ConfigRangeError, "Arena(opponents=('nobody',))"),
            (lambda: Arena(lanes=1, bot_3=1), ConfigRangeError, "Arena(bot_3=1)"),
            (lambda: Arena(lanes=1, max_ticks=-1 - k), ConfigRangeError, "Arena(max_ticks < 0)"),
        ]
        if not self.self_play:
            calls.append((lambda: arena.set_opponent(lane, "external"), ConfigRangeError,
                          "set_opponent(lane, 'external') without self-play"))
        call, expected, what = calls[int(rng.integers(0, len(calls)))]
        before = self.snapshot()
        self.expect_refusal(call, expected, what)
        self.counts["refused_calls"] += 1
        if self.snapshot() != before:
            self.violation("refused call changed state", what)

    def op_next_seed(self) -> None:
        rng = self.rng
        lane = int(rng.integers(0, self.lanes))
        if rng.random() < 0.1:
            seed = None
        elif rng.random() < 0.1:   # near the top of the range: the lane's own sequence must wrap, not fail
            seed = INT32_MAX - int(rng.integers(0, 2 * self.lanes))
            self.counts["top_seeds"] += 1
        else:
            seed = int(rng.integers(0, INT32_MAX + 1))
        self.arena.set_next_seed(lane, seed)
        self.pending[lane] = seed
        self.counts["next_seeds"] += 1

    def op_opponent(self) -> None:
        rng = self.rng
        lane = int(rng.integers(0, self.lanes))
        choices = [None, *BOTS] + (["external"] if self.self_play else [])
        bot = choices[int(rng.integers(0, len(choices)))]
        self.arena.set_opponent(lane, bot)
        self.forced[lane] = None if bot is None else bot_id(bot)
        self.counts["opponents"] += 1

    def op_reset(self) -> None:
        rng = self.rng
        seed = -1 if rng.random() < 0.3 else int(rng.integers(0, INT32_MAX // self.lanes))
        self.do_reset(seed)
        self.counts["resets"] += 1

    def op_recreate(self) -> None:
        arena = self.arena
        arena.close()
        arena.close()   # twice: a no-op
        for what, call in (("step", lambda: arena.step(np.zeros((arena.agents, 5), np.int32))),
                           ("reset", lambda: arena.reset(0)), ("lane", lambda: arena.lane(0)),
                           ("lane_hash", lambda: arena.lane_hash(0)), ("agent_seat", lambda: arena.agent_seat(0)),
                           ("set_next_seed", lambda: arena.set_next_seed(0, 1)),
                           ("set_opponent", lambda: arena.set_opponent(0, "base"))):
            error = self.expect_refusal(call, ClosedMatchError, f"closed Arena.{what}")
            if error is not None and "closed" not in str(error):
                self.violation("unclear error", f"closed Arena.{what}: {error}")
            self.counts["closed_calls"] += 1
        if not arena.closed or "closed" not in repr(arena):
            self.violation("closed arena", repr(arena))
        self.new_arena()
        self.counts["recreates"] += 1

    # ---- Match -------------------------------------------------------------------------------------
    def match_config(self) -> dict:
        rng = self.rng
        config = {"seed": int(rng.integers(0, INT32_MAX + 1)), "max_ticks": int(rng.integers(120, 2401))}
        if rng.random() < 0.05:
            config["heroes"] = 0
        bots = {}
        for team in ("red", "blue"):
            if rng.random() < 0.5:
                bots[team] = str(rng.choice(BOTS))
        if bots:
            config["bots"] = bots
        return config

    def value(self, usual: int, low: int, high: int):
        """``usual`` mostly; else an integer from low..high, or now and then anything."""
        rng = self.rng
        r = rng.random()
        if r < 0.8:
            return usual
        if r < 0.97:
            return int(rng.integers(low, high))
        return [None, "x", 1.5, 2**40, -2**40, True][int(rng.integers(0, 6))]

    def match_call(self, m: Match):
        """One random call: (what, callable)."""
        rng = self.rng
        seat = self.value(int(rng.integers(0, 10)), -3, 13)
        team = self.value(["red", "blue"][int(rng.integers(0, 2))], -2, 4)
        k = int(rng.integers(0, 16))
        if k <= 4:
            verb = self.value(Verb(int(rng.choice(list(Verb)))), -2, 16)
            if isinstance(verb, int) and rng.random() < 0.3:
                verb = ["stop", "walk", "attack", "bogus", "Cast_Point"][int(rng.integers(0, 5))]
            args = {"target": self.value(int(rng.integers(95, 1300)), -5, 60),
                    "x": self.value(int(rng.integers(-3_480_000, 3_480_000)), -4_000_000, 4_000_000),
                    "z": self.value(int(rng.integers(-3_480_000, 3_480_000)), -4_000_000, 4_000_000),
                    "slot": self.value(int(rng.integers(0, 6)), -3, 60),
                    "item": self.value(int(rng.integers(0, 23)), -3, 60)}
            return f"command({seat!r}, {verb!r}, {args})", lambda: m.command(seat, verb, **args)
        if k <= 6:
            heads = rng.integers(0, HEAD_SIZES)
            if rng.random() < 0.2:
                heads = [rng.integers(-3, 60, 5), list(rng.integers(-3, 60, 4)), [1, 2, "x", 0, 0], None,
                         np.array([0, 0, 0, 0, 2**40])][int(rng.integers(0, 5))]
            return f"act({seat!r}, {heads!r})", lambda: m.act(seat, heads)
        if k <= 8:
            ticks = self.value(int(rng.integers(1, 49)), -3, 1)
            return f"step({ticks!r})", lambda: m.step(ticks)
        index = self.value(int(rng.integers(0, 200)), -5, 5000)
        views = [
            ("hero", lambda: m.hero(seat)), ("seat_stats", lambda: m.seat_stats(seat)),
            ("observe", lambda: self.finite(m.observe(seat), "Match.observe")),
            ("mask", lambda: self.binary(m.mask(seat, flat=bool(rng.random() < 0.5)), "Match.mask")),
            ("events", lambda: m.events(self.value(int(rng.integers(0, 50)), -3, 0))),
            ("new_events", m.new_events), ("units_of", lambda: m.units_of(kind=self.value("tower", -2, 12),
                                                                             team=team, alive=True)),
            ("structures", lambda: m.structures(team=team)), ("vision", lambda: m.vision(team)),
            ("visible", lambda: m.visible(team, index)), ("spells", lambda: m.spells(team)),
            ("team_score", lambda: m.team_score(team)), ("signals", m.signals), ("walkable", m.walkable),
            ("find_path", lambda: m.find_path((int(rng.integers(-3_000_000, 3_000_000)), 0),
                                              (0, self.value(int(rng.integers(-3_000_000, 3_000_000)),
                                                             -4_000_000, 4_000_000)))),
            ("info", lambda: m.info), ("decode", lambda: m.decode(seat, rng.integers(0, HEAD_SIZES))),
            ("set_hp", lambda: m.set_hp(index, self.value(int(rng.integers(1, 3000)), -5, 1))),
        ]
        what, call = views[int(rng.integers(0, len(views)))]
        return f"{what} (seat {seat!r}, team {team!r}, index {index!r})", call

    def finite(self, obs, what):
        if not np.isfinite(obs).all():
            self.violation("observation not finite", what)
        return obs

    def binary(self, mask, what):
        if not ((mask == 0) | (mask == 1)).all():
            self.violation("mask not 0/1", what)
        return mask

    def op_match(self) -> None:
        rng = self.rng
        config = self.match_config()
        m = Match(**config)
        self.counts["matches"] += 1
        for _ in range(int(rng.integers(10, 41))):
            what, call = self.match_call(m)
            before = m.hash()
            self.counts["match_calls"] += 1
            try:
                answer = call()
            except MATCH_ERRORS as error:
                self.counts["match_refusals"] += 1
                if m.hash() != before:
                    self.violation("refused match call changed state", f"{what}: {type(error).__name__}: {error}")
                continue
            except MatchOverError:
                if not m.over:
                    self.violation("MatchOverError while running", what)
                continue
            except GotaError as error:
                self.violation("wrong error class", f"{config}: {what} raised {type(error).__name__}: {error}")
                continue
            except Exception as error:   # noqa: BLE001
                self.violation("untyped error", f"{config}: {what} raised {type(error).__name__}: {error}")
                continue
            if isinstance(answer, ActionError):
                self.counts["match_answers"] += 1
        if rng.random() < 0.25:   # to the end, then a step must say it is over, and a reset start again
            if not m.over:        # a random call may have ended it already (a short max_ticks)
                m.run()
            error = self.expect_refusal(lambda: m.step(1), MatchOverError, "step after the end")
            if error is not None and "reset" not in str(error):
                self.violation("unclear error", f"step after the end: {error}")
            if m.info.result == "running":
                self.violation("run did not end the match", str(m.info))
            m.reset(int(rng.integers(0, INT32_MAX + 1)))
            if m.tick != 0 or m.over:
                self.violation("reset after the end", str(m.info))
            self.counts["match_over"] += 1
        units, events = m.units, m.events()
        m.close()
        for what, call in (("info", lambda: m.info), ("hash", m.hash), ("step", lambda: m.step(1)),
                           ("command", lambda: m.command(0, "stop")), ("act", lambda: m.act(0, [0] * 5)),
                           ("observe", lambda: m.observe(0)), ("mask", lambda: m.mask(0)), ("events", m.events),
                           ("new_events", m.new_events), ("hero", lambda: m.hero(0)),
                           ("seat_stats", lambda: m.seat_stats(0)), ("units", lambda: m.units),
                           ("vision", lambda: m.vision("red")), ("team_score", lambda: m.team_score("blue")),
                           ("signals", m.signals), ("reset", lambda: m.reset(1)), ("run", m.run)):
            error = self.expect_refusal(call, ClosedMatchError, f"closed Match.{what}")
            if error is not None and ("closed" not in str(error) or "create a new Match" not in str(error)):
                self.violation("unclear error", f"closed Match.{what}: {error}")
            self.counts["match_closed_calls"] += 1
        # what was read before the close stays readable (the view keeps the native table alive)
        if len(units) and int(units["hp"].astype(np.int64).sum()) < 0 or not all(e.tick >= 0 for e in events):
            self.violation("view after close", "a units view or the events read nonsense after close")
        m.close()

    # ---- the loop ------------------------------------------------------------------------------------
    def run(self, seconds: float, sample_every: float, progress_every: float = 60.0) -> dict:
        t0 = time.perf_counter()
        cpu0 = time.process_time()
        loads = [os.getloadavg()]
        samples = [(0.0, rss_bytes(), 0)]
        next_sample = sample_every
        next_progress = progress_every
        while True:
            now = time.perf_counter() - t0
            if now >= next_sample:
                samples.append((now, rss_bytes(), self.counts["steps"]))
                next_sample += sample_every
            if now >= next_progress:
                loads.append(os.getloadavg())
                self.log(f"{now / 60:5.1f} min: RSS {samples[-1][1] / MIB:.1f} MiB, {self.counts['steps']:,} "
                         f"steps, {self.counts['episodes']:,} episodes, {self.counts['matches']:,} matches, "
                         f"load {loads[-1][0]:.2f}, violations {sum(self.violations.values())}")
                next_progress += progress_every
            if now >= seconds and self.counts["iterations"] >= len(OPS):   # every operation at least once
                break
            i = self.counts["iterations"]
            op = OPS[i] if i < len(OPS) else OPS[int(self.rng.choice(len(OPS), p=PROBS))]
            try:
                getattr(self, "op_" + op)()
            except Exception as error:   # noqa: BLE001 -- whatever escapes an operation is a violation
                self.violation("unexpected error", f"{op}: {type(error).__name__}: {error}\n"
                               + "".join(traceback.format_exc(limit=4)))
                self.replace_arena()
            self.counts["iterations"] += 1
        wall = time.perf_counter() - t0
        samples.append((wall, rss_bytes(), self.counts["steps"]))
        loads.append(os.getloadavg())
        self.arena.close()
        return {"seconds": wall, "cpu": time.process_time() - cpu0, "samples": samples, "loads": loads}


def run_soak(seconds: float, seed: int = 0, lanes: int = 8, sample_every: float = 5.0, warmup: float = None,
             log=print) -> dict:
    """Run the soak for ``seconds``; a report: counts, violations, samples, memory verdict, PASS or not."""
    warmup = min(WARMUP_S, seconds / 5) if warmup is None else warmup
    soak = Soak(seed=seed, lanes=lanes, log=log)
    ran = soak.run(seconds, sample_every=min(sample_every, max(seconds / 50, 0.01)),
                   progress_every=60.0 if seconds >= 120 else max(seconds, 1.0) * 2)
    memory = memory_verdict(ran["samples"], warmup)
    report = {**ran, "counts": soak.counts, "violations": soak.violations, "examples": soak.examples,
              "memory": memory, "warmup": warmup, "lanes": lanes, "seed": seed,
              "agents": soak.arena.agents if soak.arena else 0}
    report["passed"] = not soak.violations and memory["judged"] and memory["flat"]
    return report


def table(samples: list) -> list:
    """Rows (minute, RSS MiB, steps) at each whole minute: the first sample at or after it, and the last."""
    rows, minute = [], 0
    for t, rss, steps in samples:
        if t >= minute * 60:
            rows.append((minute, rss, steps))
            minute = int(t // 60) + 1
    if rows[-1][2] != samples[-1][2] or len(rows) == 1:
        rows.append((samples[-1][0] / 60, samples[-1][1], samples[-1][2]))
    return rows


def summary(r: dict) -> list:
    """The report as markdown lines (printed, and written with --write)."""
    c, mem, wall = r["counts"], r["memory"], r["seconds"]
    lines = [
        f"- verdict: **{'PASS' if r['passed'] else 'FAIL'}** ("
        + ("no invariant broken" if not r["violations"] else
           f"{sum(r['violations'].values())} invariant violations: "
           + ", ".join(f"{k} x{v}" for k, v in r["violations"].items()))
        + "; memory " + (("flat" if mem["flat"] else "NOT flat") if mem["judged"] else f"not judged: {mem['why']}")
        + ")",
        f"- throughput: {c['steps']:,} arena steps ({c['agent_steps']:,} agent-steps) in {wall:,.0f} s: "
        f"**{c['steps'] / wall:,.1f} steps/s, {c['agent_steps'] / wall:,.0f} agent-steps/s** over the whole loop; "
        f"{c['agent_steps'] / max(c['step_seconds'], 1e-9):,.0f} agent-steps/s inside Arena.step "
        f"({c['step_seconds']:,.0f} s of it); the process got {r['cpu']:,.0f} s of CPU in {wall:,.0f} s "
        f"({100 * r['cpu'] / wall:.0f} % of one core)",
        f"- load average (1 min) over the run: {', '.join(f'{x[0]:.2f}' for x in r['loads'])} on {nproc()} CPUs",
        f"- done: {c['iterations']:,} operations; {c['episodes']:,} lane restarts at a finished episode (seed and "
        f"opponent checked), {c['resets']:,} resets, {c['recreates']:,} arena re-creates ({c['closed_calls']:,} "
        f"calls on closed arenas), {c['next_seeds']:,} set_next_seed ({c['top_seeds']:,} near 2**31 - 1), "
        f"{c['opponents']:,} set_opponent; {c['mixed_steps']:,} steps with random in-range rows "
        f"({c['illegal_rows']:,} rows illegal under the mask); {c['refused_steps']:,} refused steps and "
        f"{c['refused_calls']:,} refused calls (typed error, state unchanged); {c['matches']:,} Match objects, "
        f"{c['match_calls']:,} random calls on them ({c['match_answers']:,} commands answered, "
        f"{c['match_refusals']:,} refused with a typed error), {c['match_over']:,} run to their end, "
        f"{c['match_closed_calls']:,} calls after close",
    ]
    if mem["judged"]:
        after = max(mem["steps"], 1)
        share = mem["steps"] / max(c["steps"], 1)
        per = lambda n: f"{mem['bound'] / max(n * share, 1):,.0f} B"   # noqa: E731
        lines.append(
            f"- memory: baseline {mem['baseline'] / MIB:.1f} MiB at {mem['t0']:.0f} s (after the {r['warmup']:.0f} s "
            f"warm-up); peak after it {mem['peak'] / MIB:.1f} MiB (**{mem['growth'] / MIB:+.1f} MiB**), at the end "
            f"{mem['end_growth'] / MIB:+.1f} MiB; bound max(8 MiB, 2 %) = {mem['bound'] / MIB:.1f} MiB. A leak "
            f"would have been caught at about {mem['bound'] / after:,.0f} B per step, {per(c['episodes'])} per "
            f"lane restart, {per(c['matches'])} per Match, {per(c['recreates'])} per arena re-create")
    lines += ["", "| minute | RSS MiB | steps so far |", "|---:|---:|---:|"]
    lines += [f"| {m:.1f} | {rss / MIB:.1f} | {steps:,} |" if isinstance(m, float) else
              f"| {m} | {rss / MIB:.1f} | {steps:,} |" for m, rss, steps in table(r["samples"])]
    if r["examples"]:
        lines += ["", "First violations:", ""] + [f"- {e.splitlines()[0]}" for e in r["examples"]]
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to run (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the soak's random choices")
    parser.add_argument("--lanes", type=int, default=8, help="lanes of each arena (default 8)")
    parser.add_argument("--sample-every", type=float, default=5.0, help="seconds between RSS samples")
    add_write_option(parser)
    args = parser.parse_args(argv)
    seconds = args.minutes * 60
    print(f"soak: {args.minutes:g} minutes, {args.lanes} lanes, seed {args.seed}, one thread")
    report = run_soak(seconds, seed=args.seed, lanes=args.lanes, sample_every=args.sample_every)
    lines = summary(report)
    print("\n".join(lines))
    if args.write:
        command = "python benchmarks/soak.py" + "".join(" " + a for a in (sys.argv[1:] if argv is None else argv))
        write_section(SECTION, [
            f"- date: {datetime.date.today().isoformat()}",
            f"- command: `{command}` (niceness {os.nice(0)}; the load below is of the whole machine)",
            f"- machine: {nproc()} CPUs (nproc), {cpu_model()}; Python {platform.python_version()}",
            f"- what: {args.minutes:g} minutes of random play in one process, one thread: arenas of {args.lanes} "
            f"lanes (self-play lanes, lanes against bundled bots), random legal and mask-illegal actions, refused "
            f"steps and calls, lane restarts, resets, arena re-creates, Match objects with random calls and "
            f"calls after close (benchmarks/soak.py says what and which invariants); flat memory: after a "
            f"{report['warmup']:.0f} s warm-up no RSS sample more than max(8 MiB, 2 %) above the first",
            *lines,
        ])
        print(f"wrote {SECTION} in {RESULTS}")
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
