"""The plugin manager: bundled plugins, then installed ones (entry points).

    from gota_arena import plugins
    plugins.opponent("base")                 # an Opponent, by name
    plugins.names("reward_modes")            # every registered reward mode
    with plugins.registered(my_plugin):      # an inline plugin, for tests
        ...
    plugins.reload()                         # re-read entry points (GOTA_LOAD_PLUGINS changed)
"""
from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import re
from dataclasses import dataclass
from importlib import metadata
from typing import Callable

import pluggy

from . import __version__, hookspecs
from .errors import PluginError

BUILTIN_PLUGINS = ("gota_bundled.bots", "gota_bundled.scripts", "gota_bundled.rewards", "gota_bundled.policies",
                   "gota_bundled.ppo")
ENTRY_POINT_GROUP = "gota_arena"
KINDS = {"opponents": "gota_register_opponents", "reward_modes": "gota_register_reward_modes",
         "policies": "gota_register_policies"}
SINGULAR = {"opponents": "opponent", "reward_modes": "reward mode", "policies": "policy"}

_manager = None
_sources = {}   # plugin name -> (version, source)


@dataclass(frozen=True)
class Registration:
    name: str
    factory: Callable
    description: str
    plugin: str


def _selected(name: str) -> bool:
    chosen = os.environ.get("GOTA_LOAD_PLUGINS")
    return chosen is None or name in {n.strip() for n in chosen.split(",") if n.strip()}


def _register(pm: pluggy.PluginManager, plugin, name) -> str:
    """Register ``plugin``; a hook with a wrong name or signature is a PluginError."""
    name = name or pm.get_canonical_name(plugin)
    if pm.is_registered(plugin):
        raise PluginError(f"plugin {name!r} is already loaded, as {pm.get_name(plugin)!r}")
    if pm.has_plugin(name):
        raise PluginError(f"a plugin named {name!r} is already loaded; register yours under another name, "
                          "or leave the installed one out with GOTA_LOAD_PLUGINS")
    try:
        pm.register(plugin, name=name)
        pm.check_pending()
    except pluggy.PluginValidationError as error:
        if pm.is_registered(plugin):
            pm.unregister(plugin)
        raise PluginError(f"plugin {name!r}: {error}; hooks are the gota_* functions of "
                          "gota_arena/hookspecs.py (see docs/plugins.md)") from None
    return name


def manager() -> pluggy.PluginManager:
    """The process's plugin manager, loaded on first use."""
    global _manager
    if _manager is not None:
        return _manager
    pm = pluggy.PluginManager("gota_arena")
    pm.add_hookspecs(hookspecs)
    for module in BUILTIN_PLUGINS:
        _register(pm, importlib.import_module(module), module)
        _sources[module] = (__version__, "bundled")
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if not _selected(ep.name) or pm.has_plugin(ep.name):
            continue
        dist = ep.dist.name if ep.dist else "?"
        try:
            plugin = ep.load()
        except Exception as error:
            raise PluginError(f"plugin {ep.name!r} ({ep.value}, from {dist}) failed to import: "
                              f"{type(error).__name__}: {error}. Fix or uninstall it, or leave it out "
                              f"with GOTA_LOAD_PLUGINS=<the plugins to load>") from error
        _register(pm, plugin, ep.name)
        _sources[ep.name] = (ep.dist.version if ep.dist else "?", f"entry point of {dist}")
    _manager = pm
    return pm


def reload() -> pluggy.PluginManager:
    """Forget the loaded plugins and load them again: after installing one or
    changing ``GOTA_LOAD_PLUGINS`` (tests: ``gota_arena.testing.isolated_plugins``)."""
    global _manager
    _manager = None
    _sources.clear()
    return manager()


@contextlib.contextmanager
def registered(plugin, name: str = None):
    """Register ``plugin`` for the duration of the block (tests, notebooks)."""
    pm = manager()
    name = _register(pm, plugin, name)
    try:
        _sources[name] = ("-", "registered at run time")
        yield plugin
    finally:
        if pm.is_registered(plugin):
            pm.unregister(plugin)
        _sources.pop(name, None)


def registrations(kind: str) -> dict:
    """Every registration of a kind ("opponents", "reward_modes", "policies") by name."""
    if kind not in KINDS:
        raise PluginError(f"unknown plugin kind {kind!r}; the kinds are {', '.join(KINDS)}")
    pm = manager()
    found = {}
    for impl in getattr(pm.hook, KINDS[kind]).get_hookimpls():   # registration order
        plugin = impl.plugin_name

        def register(name, factory, description="", _plugin=plugin):
            if not isinstance(name, str) or not name or not callable(factory):
                raise PluginError(f"plugin {_plugin!r} registered {kind} with name {name!r} and factory "
                                  f"{factory!r}; register(name: str, factory: callable, description='')")
            if name in found:
                raise PluginError(f"{SINGULAR[kind]} {name!r} is registered twice: by plugin "
                                  f"{found[name].plugin!r} and by plugin {_plugin!r}; rename one or leave one "
                                  f"out (GOTA_LOAD_PLUGINS)")
            found[name] = Registration(name, factory, description, _plugin)

        try:
            impl.function(register=register)
        except PluginError:
            raise
        except Exception as error:
            raise PluginError(f"plugin {plugin!r} raised in {KINDS[kind]}: {type(error).__name__}: {error}") \
                from error
    return found


def names(kind: str) -> list:
    return sorted(registrations(kind))


def create(kind: str, name: str, /, **options):
    """Build the registered ``name`` of ``kind`` with ``options``."""
    found = registrations(kind)
    if kind == "opponents" and name not in found and isinstance(name, str) and name.lower().endswith(".bas"):
        return _script_by_path(name, **options)
    if name not in found:
        known = ", ".join(sorted(found)) or "none"
        raise PluginError(f"unknown {SINGULAR[kind]} {name!r}; the known ones are: {known} "
                          f"(installed plugins add more: see `python -m gota_arena plugins`)")
    entry = found[name]
    try:
        inspect.signature(entry.factory).bind(**options)
    except TypeError as error:
        raise PluginError(f"{SINGULAR[kind]} {name!r} (plugin {entry.plugin!r}) rejected its "
                          f"options {options}: {error}") from error
    except ValueError:   # no signature to check (a builtin): let the call decide
        pass
    return entry.factory(**options)


def _script_by_path(path: str, **options):
    """``opponent=path/to/bot.bas``: a BASIC script that no plugin registered, by its path."""
    from .basic import ScriptOpponent
    if not os.path.isfile(path):
        known = ", ".join(n for n in sorted(registrations("opponents")) if n.endswith(".bas")) or "none"
        raise PluginError(f"opponent {path!r}: no such BASIC script file, and no plugin registers that name "
                          f"(registered scripts: {known})")
    try:
        return ScriptOpponent(path, **options)
    except TypeError as error:
        raise PluginError(f"opponent {path!r} (a BASIC script) rejected its options {options}: {error}") from error


def opponent(name: str, /, **options):
    return create("opponents", name, **options)


def reward_mode(name: str, /, **options):
    return create("reward_modes", name, **options)


def policy(name: str, /, **options):
    return create("policies", name, **options)


_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "cf.", "vs.")
_MARKUP = (
    (re.compile(r":[\w.+-]+:`([^`<]*?)\s*(?:<[^`>]*>)?`"), r"\1"),   # reST roles: :class:`Match`, :ref:`a <b>`
    (re.compile(r"``(.+?)``"), r"\1"),                                 # reST inline literals
    (re.compile(r"`([^`<]+?)\s*<[^`>]*>`__?"), r"\1"),                # reST links: `text <url>`_
    (re.compile(r"`([^`]+?)`_{0,2}"), r"\1"),                          # Markdown code, reST default role
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1"),                     # Markdown links and images
    (re.compile(r"\*\*(\S(?:.*?\S)?)\*\*"), r"\1"),                       # bold
    (re.compile(r"(?<![\w*])\*(\S(?:[^*]*?\S)?)\*(?![\w*])"), r"\1"),      # emphasis
)


def summary(text) -> str:
    """The first sentence of a docstring (or description) as plain text: the first
    paragraph's lines joined, reST and Markdown markup stripped (``code``, `code`,
    :role:`x`, **bold**, *emphasis*, links), cut after its first full stop. A
    paragraph that leads into an example (it ends in ':') ends in a full stop."""
    if not text:
        return ""
    paragraph = inspect.cleandoc(str(text)).strip().split("\n\n")[0]
    plain = " ".join(paragraph.split())
    for pattern, replacement in _MARKUP:
        plain = pattern.sub(replacement, plain)
    for end in re.finditer(r"[.!?][\"')\]]*(?=\s|$)", plain):
        sentence = plain[:end.end()]
        if not sentence.lower().endswith(_ABBREVIATIONS):
            return sentence
    return plain.rstrip(":") + "." if plain.endswith(":") else plain


def describe() -> list:
    """One dict per loaded plugin: name, version, source, hooks and what it registers."""
    pm = manager()
    rows = []
    regs = {kind: registrations(kind) for kind in KINDS}
    for name, plugin in pm.list_name_plugin():
        version, source = _sources.get(name, ("-", "?"))
        hooks = sorted(h.name for h in pm.get_hookcallers(plugin) or ())
        registers = {kind: sorted(r.name for r in regs[kind].values() if r.plugin == name) for kind in KINDS}
        rows.append({"name": name, "version": version, "source": source, "hooks": hooks, "registers": registers})
    return rows


__all__ = ["manager", "reload", "registered", "registrations", "names", "create", "opponent", "reward_mode", "policy",
           "describe", "summary", "Registration", "BUILTIN_PLUGINS", "ENTRY_POINT_GROUP"]
