"""The plugin manager: every plugin is found through the ``gota_arena`` entry-point
group, gota-arena's own (``plugins/gota_bundled``) like anyone's.

    from gota_arena import plugins
    plugins.opponent("base")                 # an Opponent, by name
    plugins.names("reward_modes")            # every registered reward mode
    with plugins.registered(my_plugin):      # an inline plugin, for tests
        ...
    plugins.reload()                         # re-read entry points (GOTA_LOAD_PLUGINS changed)

``GOTA_LOAD_PLUGINS`` chooses among the installed plugins (comma-separated
entry-point names): unset, every one loads; set, gota-arena's own plugins and
the ones it names load (``""``: gota-arena's own only, ``*``: every one), and
``-name`` leaves a plugin out, a bundled one included. An installed plugin that
is broken (it fails to import, has a hook with a wrong name or signature, or
raises in a hook) is left out with a ``PluginWarning`` that names it, the error
and how to leave it out; the others keep working.
"""
from __future__ import annotations

import contextlib
import inspect
import os
import re
import warnings
from dataclasses import dataclass
from importlib import metadata
from typing import Callable

import pluggy

from . import hookspecs
from .errors import PluginError, PluginWarning

ENTRY_POINT_GROUP = "gota_arena"
DISTRIBUTION = "gota-arena"   # the entry points of this distribution are the bundled plugins
KINDS = {"opponents": "gota_register_opponents", "reward_modes": "gota_register_reward_modes",
         "policies": "gota_register_policies"}
SINGULAR = {"opponents": "opponent", "reward_modes": "reward mode", "policies": "policy"}

_manager = None
_sources = {}        # plugin name -> (version, source)
_installed = set()   # names of the loaded plugins that came from entry points (left out when broken)


@dataclass(frozen=True)
class Registration:
    name: str
    factory: Callable
    description: str
    plugin: str


class _Duplicate(PluginError):
    """Two plugins register one name: an error of neither alone."""


def _canonical(dist: str) -> str:
    return dist.lower().replace("_", "-").replace(".", "-")


def _selection():
    """GOTA_LOAD_PLUGINS as (None: load every plugin) or (named, left_out, everything)."""
    chosen = os.environ.get("GOTA_LOAD_PLUGINS")
    if chosen is None:
        return None
    items = [item.strip() for item in chosen.split(",") if item.strip()]
    left_out = {item[1:].strip() for item in items if item.startswith("-")}
    named = {item for item in items if not item.startswith("-")}
    return named - {"*"}, left_out, "*" in named


def _warn(message: str) -> None:
    warnings.warn(message, PluginWarning, stacklevel=3)


def _leave_out_hint(name: str) -> str:
    return f"fix or uninstall it, or leave it out with GOTA_LOAD_PLUGINS=-{name} (docs/plugins.md)"


def _register(pm: pluggy.PluginManager, plugin, name) -> str:
    """Register ``plugin``; a hook with a wrong name or signature is a PluginError."""
    name = name or pm.get_canonical_name(plugin)
    if pm.is_registered(plugin):
        raise PluginError(f"plugin {name!r} is already loaded, as {pm.get_name(plugin)!r}")
    if pm.has_plugin(name):
        raise PluginError(f"a plugin named {name!r} is already loaded; register yours under another name, "
                          "or leave the installed one out with GOTA_LOAD_PLUGINS=-<its name>")
    try:
        pm.register(plugin, name=name)
        pm.check_pending()
    except pluggy.PluginValidationError as error:
        if pm.is_registered(plugin):
            pm.unregister(plugin)
        raise PluginError(f"plugin {name!r}: {error}; hooks are the gota_* functions of "
                          "gota_arena/hookspecs.py (see docs/plugins.md)") from None
    return name


def _entry_points() -> list:
    """The group's entry points: gota-arena's own first, then the others; each by name."""
    found = sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)
    return [ep for ep in found if _bundled(ep)] + [ep for ep in found if not _bundled(ep)]


def _bundled(ep) -> bool:
    """Is ``ep`` an entry point of gota-arena itself?"""
    return ep.dist is not None and _canonical(ep.dist.name) == DISTRIBUTION


def _load(pm: pluggy.PluginManager, ep) -> None:
    """Import and register one entry point; a broken plugin is left out with a warning."""
    dist = ep.dist.name if ep.dist else "?"
    version = ep.dist.version if ep.dist else "?"
    try:
        plugin = ep.load()
    except Exception as error:
        _warn(f"plugin {ep.name!r} ({ep.value}, from {dist} {version}) failed to import: "
              f"{type(error).__name__}: {error}; it is left out: {_leave_out_hint(ep.name)}")
        return
    try:
        _register(pm, plugin, ep.name)
    except PluginError as error:
        _warn(f"{error}; it is left out: {_leave_out_hint(ep.name)}")
        return
    _sources[ep.name] = (version, "bundled" if _bundled(ep) else f"entry point of {dist}")
    _installed.add(ep.name)


def manager() -> pluggy.PluginManager:
    """The process's plugin manager, loaded on first use."""
    global _manager
    if _manager is not None:
        return _manager
    pm = pluggy.PluginManager("gota_arena")
    pm.add_hookspecs(hookspecs)
    selection = _selection()
    points = _entry_points()
    if not any(_bundled(ep) for ep in points):
        _warn("gota-arena's own plugins (the bundled bots, scripts, reward modes and policies) are not "
              f"registered: its installed metadata has no {ENTRY_POINT_GROUP!r} entry points (an install "
              "older than them, or the package run from its folder without installing it); reinstall it: "
              "pip install -e . in its repository")
    for ep in points:
        if pm.has_plugin(ep.name):
            continue   # one name, two distributions: the first wins
        if selection is not None:
            named, left_out, everything = selection
            if ep.name in left_out or not (_bundled(ep) or everything or ep.name in named):
                continue
        _load(pm, ep)
    if selection is not None:
        known = sorted({ep.name for ep in points})
        for name in sorted(selection[0] | selection[1]):
            if name not in known:
                _warn(f"GOTA_LOAD_PLUGINS names {name!r}, which is no installed plugin; the installed ones "
                      f"are: {', '.join(known) or 'none'} (python -m gota_arena plugins)")
    _manager = pm
    return pm


def bundled() -> list:
    """The names of the loaded plugins that gota-arena itself ships (its own entry points)."""
    manager()
    return [name for name, (_, source) in _sources.items() if source == "bundled"]


def _leave_out(name: str, message: str) -> None:
    """Drop a loaded entry-point plugin that failed in a hook, with a warning."""
    pm = manager()
    plugin = pm.get_plugin(name)
    if plugin is not None:
        pm.unregister(plugin)
    _sources.pop(name, None)
    _installed.discard(name)
    _warn(f"{message}; it is left out: {_leave_out_hint(name)}")


def reload() -> pluggy.PluginManager:
    """Forget the loaded plugins and load them again: after installing one or
    changing ``GOTA_LOAD_PLUGINS`` (tests: ``gota_arena.testing.isolated_plugins``)."""
    global _manager
    _manager = None
    _sources.clear()
    _installed.clear()
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
                raise _Duplicate(f"{SINGULAR[kind]} {name!r} is registered twice: by plugin "
                                 f"{found[name].plugin!r} and by plugin {_plugin!r}; rename one or leave one "
                                 f"out (GOTA_LOAD_PLUGINS=-<plugin>)")
            found[name] = Registration(name, factory, description, _plugin)

        try:
            impl.function(register=register)
        except _Duplicate as error:
            raise PluginError(str(error)) from None
        except Exception as error:
            message = (str(error) if isinstance(error, PluginError) else
                       f"plugin {plugin!r} raised in {KINDS[kind]}: {type(error).__name__}: {error}")
            if plugin not in _installed:   # registered in this process (tests, notebooks): the caller's error
                if isinstance(error, PluginError):
                    raise
                raise PluginError(message) from error
            _leave_out(plugin, message)
            found = {name: entry for name, entry in found.items() if entry.plugin != plugin}
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


def notify(hook: str, **event) -> None:
    """Call event hook ``hook`` (``gota_episode_end``, ``gota_checkpoint_saved``,
    ``gota_evaluation_finished``) of every plugin, as the trainer and the evaluator
    do. An installed plugin whose hook raises is left out with a warning; the run
    goes on. (A plugin registered in this process raises as usual.)"""
    for impl in getattr(manager().hook, hook).get_hookimpls():
        try:
            impl.function(**event)
        except Exception as error:
            if impl.plugin_name not in _installed:
                raise
            _leave_out(impl.plugin_name, f"plugin {impl.plugin_name!r} raised in {hook}: "
                                         f"{type(error).__name__}: {error}")


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
           "notify", "describe", "summary", "bundled", "Registration", "ENTRY_POINT_GROUP"]
