"""Exceptions raised for the C return codes, with messages that say what was wrong and
how to fix it.

Every gota_* call returns GOTA_OK or a negative GOTA_ERR_* code. ``check(code, what)``
turns a code into one of the classes below; ``what`` names the call and the argument
(``"vision(team=5)"``) so the message points at the bad input.
"""
import difflib

from ._native import ffi, lib


class GotaError(Exception):
    """Base class of every gota_arena error. ``code`` is the C code (0 when the
    error was found in Python)."""

    def __init__(self, message: str, code: int = 0):
        super().__init__(message)
        self.code = code


class ConfigError(GotaError, ValueError):
    """A match configuration is invalid."""


class UnknownConfigKeyError(ConfigError, KeyError):
    """GOTA_ERR_UNKNOWN_KEY: the config key is not known."""

    __str__ = Exception.__str__  # KeyError would quote the message


class ConfigRangeError(ConfigError):
    """GOTA_ERR_RANGE for a config value."""


class ConfigTypeError(ConfigError, TypeError):
    """A config value is not an integer."""


class ConfigConflictError(ConfigError):
    """GOTA_ERR_CONFLICT: config values contradict each other (one class on two seats)."""


class PluginError(GotaError, ValueError):
    """A plugin, or a name looked up among the plugins, is wrong: a name registered
    twice, an unknown name, a plugin failing at import, an opponent's illegal
    action, a reward mode's NaN. The message names the plugin."""


class PluginWarning(UserWarning):
    """An installed plugin is broken (it fails to import, has a hook with a wrong
    name or signature, or raises in a hook) and is left out, or ``GOTA_LOAD_PLUGINS``
    names a plugin that is not installed. The message names the plugin, the error
    and how to leave it out."""


class ArgumentRangeError(GotaError, ValueError):
    """GOTA_ERR_RANGE for an argument of a call (ticks, team, seed, ...)."""


class ArgumentTypeError(GotaError, TypeError):
    """An argument of a call has the wrong type (a str where an integer belongs)."""


class GotaIndexError(GotaError, IndexError):
    """GOTA_ERR_INDEX: a unit, seat or tile index is out of range."""


class GotaBufferError(GotaError, BufferError):
    """GOTA_ERR_BUFFER: a caller buffer is too small."""


class NullPointerError(GotaError, ValueError):
    """GOTA_ERR_NULL: a required handle or buffer was NULL."""


class MatchOverError(GotaError):
    """GOTA_ERR_OVER: the match has ended; reset it before stepping again."""


class GotaMemoryError(GotaError, MemoryError):
    """GOTA_ERR_NOMEM: the simulator could not allocate memory."""


class InternalError(GotaError):
    """GOTA_ERR_INTERNAL: an invariant of the simulator failed."""


class ClosedMatchError(GotaError):
    """The Match (or Arena) was closed; its native state is gone."""

    def __init__(self, what: str = "", owner: str = "Match"):
        prefix = f"{what}: " if what else ""
        super().__init__(f"{prefix}this {owner} was closed; create a new {owner}")


class ReplayError(GotaError, ValueError):
    """A replay file cannot be read or does not replay to its recorded state: not a
    replay file, another format version, a damaged or edited file, another
    contract or rules, or a simulation that diverged (gota_arena.replay). The
    message names the file (or the recording) and what to do."""


_CLASSES = {
    lib.GOTA_ERR_NULL: NullPointerError,
    lib.GOTA_ERR_UNKNOWN_KEY: UnknownConfigKeyError,
    lib.GOTA_ERR_RANGE: ArgumentRangeError,
    lib.GOTA_ERR_BUFFER: GotaBufferError,
    lib.GOTA_ERR_OVER: MatchOverError,
    lib.GOTA_ERR_NOMEM: GotaMemoryError,
    lib.GOTA_ERR_INTERNAL: InternalError,
    lib.GOTA_ERR_INDEX: GotaIndexError,
    lib.GOTA_ERR_CONFLICT: ConfigConflictError,
}

_HINTS = {
    lib.GOTA_ERR_NULL: "pass a live handle and non-NULL buffers",
    lib.GOTA_ERR_BUFFER: "pass a larger buffer",
    lib.GOTA_ERR_OVER: "the match has ended; call reset(seed) before stepping again",
    lib.GOTA_ERR_NOMEM: "free other matches or memory and try again",
    lib.GOTA_ERR_INTERNAL: "reset the match; please report the seed and tick, this is a simulator bug",
    lib.GOTA_ERR_CONFLICT: "give every seat a different class (class_0..class_9), or -1 to let the draft choose",
}


def error_text(code: int) -> str:
    """The C library's name for a code (gota_error_text)."""
    text = lib.gota_error_text(code)
    return ffi.string(text).decode() if text != ffi.NULL else f"error {code}"


def check(code: int, what: str, hint: str = "") -> int:
    """Return ``code`` if it is GOTA_OK (or positive), else raise the matching
    GotaError whose message names ``what`` and says how to fix it."""
    if code >= 0:
        return code
    raise make_error(code, what, hint)


def make_error(code: int, what: str, hint: str = "") -> GotaError:
    cls = _CLASSES.get(code, GotaError)
    hint = hint or _HINTS.get(code, "")
    message = f"{what}: {error_text(code)}"
    if hint:
        message += f"; {hint}"
    return cls(message, code)


# ---- configuration keys --------------------------------------------------------
def config_keys() -> list:
    """The config keys the simulator knows (gota_config_keys)."""
    return ffi.string(lib.gota_config_keys()).decode().split()


def config_range(key: str):
    """(lo, hi) allowed for a config key, or None if the key is unknown."""
    lo, hi = ffi.new("int64_t *"), ffi.new("int64_t *")
    if lib.gota_config_range(key.encode(), lo, hi) != lib.GOTA_OK:
        return None
    return lo[0], hi[0]


def unknown_key_error(key: str, code: int = lib.GOTA_ERR_UNKNOWN_KEY) -> ConfigError:
    known = config_keys()
    message = f"unknown config key {key!r}; known keys: {', '.join(known)}"
    close = difflib.get_close_matches(key, known, n=1)
    if close:
        message += f" (did you mean {close[0]!r}?)"
    return UnknownConfigKeyError(message, code)


def range_error(key: str, value, cls=ConfigRangeError, code: int = lib.GOTA_ERR_RANGE, what: str = "") -> GotaError:
    bounds = config_range(key)
    allowed = f"out of range {bounds[0]}..{bounds[1]}" if bounds else "out of range"
    prefix = f"{what}: " if what else ""
    return cls(f"{prefix}{key}={value} is {allowed}", code)


def config_error(code: int, key: str, value) -> GotaError:
    """The error for gota_config_set(cfg, key, value) returning ``code``."""
    if code == lib.GOTA_ERR_UNKNOWN_KEY:
        return unknown_key_error(key, code)
    if code == lib.GOTA_ERR_RANGE:
        return range_error(key, value, code=code)
    return make_error(code, f"config {key}={value}")
