"""Playing a replay back: every check that can be made before a tick is played,
then the match replayed to its final tick with its state hash compared at every
checkpoint (docs/replays.md)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Optional

import numpy as np

from .. import __version__
from .._native import ffi, lib
from ..bots import bot_names
from ..constants import SEATS
from ..contract import HEADS, INFO
from ..errors import GotaError, ReplayError, check, config_keys
from ..sim import Match
from .fingerprint import hex64, rules_fingerprint
from .format import _COMMAND_INTS, _RERECORD, SCRIPT, SET_HP, Replay, _inconsistency, load

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
        fail(f"recorded under contract {hex64(r.contract_hash)} (version {r.contract_version}), this build has "
             f"{hex64(INFO.hash)} (version {INFO.version})",
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
            fail("the simulator's rules changed since it was recorded (fingerprint "
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
            raise ReplayError(f"{r.name}: the match at tick 0 hashes to {hex64(got)}, the recording to "
                              f"{hex64(r.start_hash)}: the config, the map or the rules differ from the "
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
                    raise _diverged(r, f"at tick {t} the state hashes to {hex64(got)}, the recording to "
                                       f"{hex64(expected)}", last_good)
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
                raise _diverged(r, f"the final state (tick {info.tick}) hashes to {hex64(got)}, the recording to "
                                   f"{hex64(final_hash)}", last_good)
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
