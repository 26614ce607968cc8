"""One self-contained HTML file per match: the viewer template (viewer.html) with
its CSS and JavaScript inlined and the map and the frames embedded as JSON
(docs/viewer.md). No server, no network: the file opens from disk.

    from gota_arena.viewer import build
    path = build.replay_to_html("match.gotareplay")          # match.html next to it
    html = build.html(frames.record("match.gotareplay"))     # the page as a string
"""
from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Optional

from .. import __version__
from .. import frames as F
from ..files import write_text_atomic
from ..heroes import class_name, item_name

_HERE = "gota_arena.viewer"
DEFAULT_EVERY = 6
DEFAULT_FOG_EVERY = 24


def _asset(name: str) -> str:
    return resources.files(_HERE).joinpath(name).read_text(encoding="utf-8")


def _script_json(value) -> str:
    """JSON safe inside a <script> element (no '</' or '<!--' can close it)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def class_short(name: str) -> str:
    """Two letters for a class on the map: initials of two words, else its first two letters."""
    words = name.split()
    return (words[0][0] + words[1][0]).upper() if len(words) > 1 else name[:2]


def viewer_meta() -> dict:
    """Names the page shows: class abbreviations and item names."""
    return {"class_short": [class_short(class_name(c)) for c in range(10)],
            "class_names_all": [class_name(c) for c in range(10)],
            "items": {str(i): item_name(i) for i in range(1, 23)}}


def title_of(meta: dict) -> str:
    bots = meta.get("bots") or []
    red = ", ".join(sorted(set(bots[:5]))) or "red"
    blue = ", ".join(sorted(set(bots[5:]))) or "blue"
    return f"GotA replay: seed {meta.get('seed', '?')}, {red} (red) vs {blue} (blue)"


def html(frames: F.Frames, title: Optional[str] = None, fog: Optional[str] = None) -> str:
    """The viewer page of ``frames`` as a string; ``fog`` ('red', 'blue') is the
    view it opens with (the reader can switch)."""
    if fog not in (None, "none", "red", "blue"):
        raise ValueError(f"fog={fog!r}: use 'red', 'blue' or None")
    payload = frames.payload()
    payload["meta"].update(viewer_meta())
    payload["meta"]["initial_fog"] = fog if fog in ("red", "blue") else "none"
    title = title or title_of(payload["meta"])
    page = _asset("viewer.html")
    safe_title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # code first, data last: the data can never be mistaken for a placeholder
    page = page.replace("/*{{CSS}}*/", _asset("viewer.css"))
    page = page.replace("/*{{JS}}*/", _asset("viewer.js").replace("</", "<\\/"))
    page = page.replace("{{VERSION}}", __version__).replace("{{TITLE}}", safe_title)
    head, _, tail = page.partition("{{MAP_JSON}}")
    page = head + _script_json(F.map_payload()) + tail
    head, _, tail = page.partition("{{FRAMES_JSON}}")
    return head + _script_json(payload) + tail


def write(frames: F.Frames, path, title: Optional[str] = None, fog: Optional[str] = None) -> Path:
    """Write the page atomically; returns the path."""
    path = Path(path)
    write_text_atomic(path, html(frames, title, fog))
    return path


def default_html_path(replay_path) -> Path:
    p = Path(replay_path)
    return p.with_name(p.stem + ".html") if p.suffix else p.with_name(p.name + ".html")


def replay_to_html(replay, out=None, every: int = DEFAULT_EVERY, fog_every: int = DEFAULT_FOG_EVERY,
                   start: int = 0, end: Optional[int] = None, check_rules: bool = True,
                   fog: Optional[str] = None) -> Path:
    """Replay a replay file (verified to its final hash) and write its viewer page
    (default: the replay's name with .html). Nothing is written for a replay
    that does not match (ReplayError)."""
    from .. import replay as R

    r = R.load(replay) if isinstance(replay, (str, os.PathLike)) else replay
    frames = F.record(r, every=every, fog_every=fog_every, start=start, end=end, check_rules=check_rules)
    if out is None:
        if r.path is None:
            raise ValueError("replay_to_html: give out= for a replay that was not loaded from a file")
        out = default_html_path(r.path)
    return write(frames, out, fog=fog)


__all__ = ["html", "write", "replay_to_html", "default_html_path", "class_short", "viewer_meta"]
