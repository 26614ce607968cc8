"""Opponent scripts in GotA BASIC (docs/basic.md): compile, play, inspect.

    from gota_arena import Match
    from gota_arena.basic import compile_file, ScriptOpponent

    base = compile_file("plugins/gota_bundled/bas/base.bas")     # BasicSyntaxError on bad source
    with Match(seed=1, scripts={"red": base, "blue": "rusher.bas"}) as m:   # a Program, a path or a registered name
        m.run()
        print(m.script_status(0), m.script_log(0))

    env = LearnerEnv(lanes=4, opponents=[ScriptOpponent("my_bot.bas")])   # played inside the simulator

A compiled ``Program`` is immutable and shared: every seat that plays it gets
its own VM (variables, arrays, private log) inside the match. A seat whose
script hits a runtime error (a limit, division by zero, a bad index) idles for
the rest of the match; ``script_status`` and ``script_log`` say why, and the
seat's stats count it (``script_errors``).
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional, Union

from ._native import ffi, lib
from .constants import SCRIPT_ACTION_ERROR_NAMES, SCRIPT_ERROR_NAMES, SEATS, Team, team_seats
from .errors import ArgumentRangeError, ArgumentTypeError, ConfigRangeError, GotaError, check
from .opponents import Opponent

_TEAMS = {team.name.lower(): team_seats(team) for team in (Team.RED, Team.BLUE)}
_ERROR_CAP = 1024
_LOG_CAP = 1 << 16
_POSITION = re.compile(r"^(.*?):(\d+):(\d+): (.*)$", re.S)
ERROR_KINDS = SCRIPT_ERROR_NAMES   # error_code -> name, from C (gota_script_error_name)


class BasicSyntaxError(GotaError, SyntaxError):
    """A script that does not compile: ``filename``, ``lineno``, ``column`` and
    ``reason`` (what was expected); ``str()`` is "file:line:col: reason"."""

    def __init__(self, text: str, code: int = 0):
        match = _POSITION.match(text)
        if match:
            self.filename, line, col, self.reason = match.group(1), int(match.group(2)), int(match.group(3)), \
                match.group(4)
        else:
            self.filename, line, col, self.reason = "script", 0, 0, text
        GotaError.__init__(self, text, code)
        self.lineno, self.column = line, col
        self.msg, self.offset, self.text = text, col, None
        self.args = (text,)

    def __str__(self) -> str:
        return self.msg


class Program:
    """A compiled BASIC program (``compile`` / ``compile_file``)."""

    def __init__(self, ptr, name: str, path: Optional[str] = None):
        self._ptr = ffi.gc(ptr, lib.gota_basic_free)
        self.name = name
        self.path = path
        info = ffi.new("GotaBasicInfo *")
        check(lib.gota_basic_info(self._ptr, info), "gota_basic_info")
        self.info = {k: int(getattr(info, k)) for k in ("instructions", "ops", "globals", "arrays", "elements",
                                                        "subs", "source_bytes", "memory", "source_hash")}

    @property
    def ptr(self):
        return self._ptr

    @property
    def source(self) -> bytes:
        """The source it was compiled from (replay files carry it)."""
        size = self.info["source_bytes"]
        buf = ffi.new("char[]", max(size, 1))
        n = ffi.new("int32_t *")
        check(lib.gota_basic_source(self._ptr, buf, size, n), "gota_basic_source")
        return ffi.buffer(buf, n[0])[:]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.source).hexdigest()

    def __repr__(self) -> str:
        return (f"Program({self.name!r}: {self.info['instructions']} instructions, {self.info['globals']} "
                f"globals, {self.info['arrays']} arrays, {self.info['subs']} subs)")


def compile(source: Union[str, bytes], name: str = "script.bas", path: Optional[str] = None) -> Program:  # noqa: A001
    """Compile BASIC source; raises BasicSyntaxError naming file:line:col and what was expected."""
    if isinstance(source, str):
        source = source.encode("utf-8")
    if not isinstance(source, (bytes, bytearray)):
        raise ArgumentTypeError(f"a BASIC source is str or bytes, got {type(source).__name__}")
    out = ffi.new("GotaBasicProgram **")
    err = ffi.new("char[]", _ERROR_CAP)
    code = lib.gota_basic_compile(bytes(source), len(source), str(name).encode("utf-8", "replace"), out, err,
                                  _ERROR_CAP)
    if code == lib.GOTA_ERR_RANGE:
        raise BasicSyntaxError(ffi.string(err).decode("utf-8", "replace"), code)
    check(code, f"compile({name!r})")
    return Program(out[0], str(name), path)


def compile_file(path: Union[str, os.PathLike]) -> Program:
    """Compile a ``.bas`` file (its path names it in diagnostics)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as error:
        raise ArgumentRangeError(f"cannot read BASIC script {str(p)!r}: {error.strerror or error}") from None
    except ValueError as error:   # a path no file can have (an embedded NUL byte)
        raise ArgumentRangeError(f"cannot read BASIC script {str(p)!r}: {error}") from None
    return compile(data, name=str(path), path=str(p))


def seat_programs(match_ptr) -> dict:
    """{seat: Program} of the script seats of a native match (a Match's handle or
    an arena lane's match), each named as its status names it."""
    out = {}
    status = ffi.new("GotaScriptStatus *")
    ptr = ffi.new("GotaBasicProgram **")
    for seat in range(SEATS):
        check(lib.gota_match_script_program(match_ptr, seat, ptr), "gota_match_script_program")
        if ptr[0] != ffi.NULL:
            prog = Program(ptr[0], "")   # owns the new reference from here on
            check(lib.gota_match_script_status(match_ptr, seat, status), "gota_match_script_status")
            prog.name = ffi.string(status.program).decode("utf-8", "replace")
            out[seat] = prog
    return out


def program(script) -> Program:
    """A Program from a Program, the path of a .bas file, or the name of a
    registered script opponent ("base.bas", "rusher.bas", a plugin's)."""
    if isinstance(script, Program):
        return script
    if isinstance(script, str) and not Path(script).exists():
        from . import plugins
        if script in plugins.registrations("opponents"):
            found = getattr(plugins.opponent(script), "script", None)
            if isinstance(found, Program):
                return found
    if isinstance(script, (str, os.PathLike)):
        return compile_file(script)
    raise ArgumentTypeError(f"a script is a Program or the path of a .bas file, got {type(script).__name__} "
                            f"{script!r}")


def script_seats(scripts: Mapping) -> dict:
    """{seat: Program} from {"red"/"blue"/seat: Program or path} (a seat key wins over its team key)."""
    if not isinstance(scripts, Mapping):
        raise ArgumentTypeError(f"scripts must be a mapping like {{'red': 'base.bas'}}, got {type(scripts).__name__}")
    out, seat_keys, cache = {}, {}, {}

    def load(value):
        key = id(value) if isinstance(value, Program) else str(value)
        if key not in cache:
            cache[key] = program(value)
        return cache[key]

    for key, value in scripts.items():
        if isinstance(key, str) and key.strip().lower() in _TEAMS:
            for seat in _TEAMS[key.strip().lower()]:
                out[seat] = load(value)
        elif not isinstance(key, (bool, str)) and hasattr(type(key), "__index__") and 0 <= int(key) < SEATS:
            seat_keys[int(key)] = load(value)
        else:
            raise ConfigRangeError(f"scripts key {key!r} is not a team ('red', 'blue') or a seat 0..9")
    out.update(seat_keys)
    return out


@dataclass(frozen=True)
class ScriptStatus:
    """A script seat's state (gota_match_script_status), counted since the match's reset.

    ``commands`` counts every command the script issued (walkTo, castPoint,
    buyItem, ..., draftHero; the draft's included), ``refused`` those the rules
    refused, and ``refused_by`` says why: {Action* constant name: count} of the
    nonzero reasons, as ``lastActionError()`` named them ("ActionAbilityLocked":
    a cast of an ability not learned; docs/basic.md, "Constants").
    """

    active: bool             # a script plays the seat
    disabled: bool           # a runtime error stopped it: the seat idles for the rest of the match
    error_kind: str          # "none", "instruction limit", "division by zero", ...
    error: str               # "file:line:col: runtime error: ..."
    program: str
    decisions: int           # decisions run (every tick, dead or alive, and the draft's)
    instructions: int        # counted instructions run in all
    last_instructions: int   # of the latest decision
    last_work: int
    log_bytes: int           # bytes ever written to the private log
    commands: int            # commands issued
    refused: int             # of them refused
    refused_by: dict         # {"ActionAbilityLocked": 12, ...}: the refused ones by reason, nonzero only


def _script_seat(seat, what: str) -> int:
    """``seat`` as an int 0..9; ArgumentTypeError / ArgumentRangeError naming the call otherwise."""
    if isinstance(seat, bool) or not hasattr(type(seat), "__index__"):
        raise ArgumentTypeError(f"{what}: seat must be an integer 0..9, got {type(seat).__name__} {seat!r}")
    if not 0 <= int(seat) < SEATS:
        raise ArgumentRangeError(f"{what}: seat {seat!r} must be 0..9")
    return int(seat)


class ScriptControls:
    """Match methods for script seats (mixed into gota_arena.Match)."""

    def set_script(self, seat: int, script, redraft: bool = True) -> None:
        """Play ``seat`` with a script (Program or path; None: the seat becomes
        external). With ``redraft`` the match is reset to its seed so the
        scripts draft their heroes, as at the start of a match."""
        ptr = self._handle(f"set_script({seat!r})")
        seat = _script_seat(seat, "set_script")
        prog = None if script is None else program(script)
        check(lib.gota_match_set_script(ptr, int(seat), ffi.NULL if prog is None else prog.ptr),
              f"set_script({seat}, {script!r})")
        if not hasattr(self, "_scripts"):
            self._scripts = {}
        if prog is None:
            self._scripts.pop(int(seat), None)
        else:
            self._scripts[int(seat)] = prog
        self._refresh_config()
        if redraft:
            self.reset()

    def _attach_scripts(self, scripts: Mapping) -> None:
        seats = script_seats(scripts)
        for seat, prog in seats.items():
            self.set_script(seat, prog, redraft=False)
        if seats:
            self.reset()

    def _refresh_config(self) -> None:
        from .sim import MatchConfig, _config_values
        cfg = ffi.new("GotaConfig *")
        check(lib.gota_match_config(self._handle("config"), cfg), "gota_match_config")
        self.config = MatchConfig(**_config_values(cfg))

    @property
    def scripts(self) -> dict:
        """{seat: Program} of the script seats."""
        return dict(getattr(self, "_scripts", {}))

    def script_status(self, seat: int) -> ScriptStatus:
        what = f"script_status({seat!r})"
        ptr = self._handle(what)
        seat = _script_seat(seat, "script_status")
        out = ffi.new("GotaScriptStatus *")
        check(lib.gota_match_script_status(ptr, int(seat), out), what, "seat must be 0..9")
        return ScriptStatus(bool(out.active), bool(out.disabled), ERROR_KINDS.get(int(out.error_code), "?"),
                            ffi.string(out.error).decode("utf-8", "replace"),
                            ffi.string(out.program).decode("utf-8", "replace"), int(out.decisions),
                            int(out.instructions), int(out.last_instructions), int(out.last_work),
                            int(out.log_bytes), int(out.commands), int(out.refused),
                            {name: int(out.refused_by[code]) for code, name in SCRIPT_ACTION_ERROR_NAMES.items()
                             if out.refused_by[code]})

    def script_log(self, seat: int) -> str:
        """The seat's private log: PRINT output and runtime errors (the newest 8 KiB)."""
        what = f"script_log({seat!r})"
        ptr = self._handle(what)
        seat = _script_seat(seat, "script_log")
        buf = ffi.new("char[]", _LOG_CAP)
        n = ffi.new("int32_t *")
        check(lib.gota_match_script_log(ptr, int(seat), buf, _LOG_CAP, n), what, "seat must be 0..9")
        return ffi.buffer(buf, n[0])[:].decode("utf-8", "replace")


class ScriptOpponent(Opponent):
    """An opponent played by a BASIC script inside the simulator (every seat of
    its team runs its own VM of the same program); ``act`` is never called."""

    def __init__(self, script, name: Optional[str] = None):
        self.script = program(script)
        self.name = name or Path(self.script.name).name

    def __repr__(self) -> str:
        return f"ScriptOpponent({self.name!r}, {self.script.name!r})"


def bundled_scripts() -> dict:
    """The BASIC scripts gota-arena's own plugins register as opponents:
    {name: path} (``base.bas``, ``rusher.bas``, ``puller.bas``), read from the
    plugin registry (empty where GOTA_LOAD_PLUGINS leaves them out)."""
    from . import plugins

    bundled = set(plugins.bundled())
    found = {}
    for name, entry in plugins.registrations("opponents").items():
        if entry.plugin in bundled and name.lower().endswith(".bas"):
            script = getattr(entry.factory(), "script", None)
            if isinstance(script, Program) and script.path:
                found[name] = Path(script.path)
    return found


__all__ = ["BasicSyntaxError", "Program", "compile", "compile_file", "program", "script_seats", "seat_programs", "ScriptStatus",
           "ScriptControls", "ScriptOpponent", "bundled_scripts", "ERROR_KINDS"]
