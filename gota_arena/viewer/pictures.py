"""Pictures of a replay for reports (Pillow): a PNG minimap of any tick and an
animated GIF of a segment, drawn from the same frames as the HTML viewer
(gota_arena.frames) and in its colours. docs/viewer.md.

    from gota_arena.viewer import pictures
    pictures.png_of_tick("match.gotareplay", 2400, "t2400.png")            # fog="red" for red's view
    pictures.gif_of_segment("match.gotareplay", 2400, 4800, "fight.gif")    # every 12 ticks, 15 fps

Both replay the whole file to its final hash first (a replay that does not
match raises ReplayError and nothing is written).
"""
from __future__ import annotations

import functools
import math
import os
from pathlib import Path
from typing import Optional

import numpy as np

from .. import frames as F
from ..constants import MAP_TILES, TICKS_PER_SECOND, Kind
from ..files import atomic_path
from ..heroes import class_name
from ..map import camps, terrain_image

TEAM_RGB = {0: (214, 38, 38), 1: (38, 86, 226), 2: (242, 206, 34)}
TEAM_LIGHT = {0: (255, 128, 128), 1: (143, 176, 255), 2: (255, 224, 102)}
RUIN_RGB = (60, 56, 52)
HP_RGB = (82, 208, 83)
CAPTION = 18                     # pixels of caption strip under the map
TRANSPARENT = 255                # GIF: the palette index of "unchanged since the last picture"


def _pil():
    try:
        from PIL import Image, ImageDraw
    except ImportError:  # pragma: no cover - pillow is in the viewer and test extras
        raise ImportError("pictures need Pillow: pip install pillow (or gota-arena[viewer])") from None
    return Image, ImageDraw


@functools.lru_cache(maxsize=4)
def _terrain(scale: int):
    Image, ImageDraw = _pil()
    img = Image.fromarray(terrain_image(scale))
    d = ImageDraw.Draw(img)
    half = MAP_TILES * F.TILE // 2
    for c in camps():
        x, z = (c.x + half) * scale / F.TILE, (c.z + half) * scale / F.TILE
        d.rectangle([x - scale, z - scale, x + scale, z + scale], outline=TEAM_RGB[2])
    return img


def _short(cls: int) -> str:
    from .build import class_short
    return class_short(class_name(cls))


def _clock(tick: int) -> str:
    s = tick // TICKS_PER_SECOND
    return f"{s // 60}:{s % 60:02d}"


def render(fr: F.Frames, f: int, scale: int = 6, fog: Optional[str] = None, caption: bool = True):
    """The map at frame ``f`` as a PIL RGB image (MAP_TILES * scale pixels square, plus a
    caption strip): terrain, fog of ``fog`` ('red', 'blue' or None), structures,
    creeps, camps, spell areas, heroes with hp bars and class letters, recent deaths."""
    Image, ImageDraw = _pil()
    size = MAP_TILES * scale
    img = Image.new("RGB", (size, size + (CAPTION if caption else 0)), (20, 22, 26))
    img.paste(_terrain(scale), (0, 0))
    team_view = {"red": 0, "blue": 1}.get(fog) if fog else None
    if fog and team_view is None:
        raise ValueError(f"fog={fog!r}: use 'red', 'blue' or None")
    if team_view is not None:
        hidden = fr.fog_at(f)[team_view] == 0
        shade = Image.fromarray(np.where(hidden, 150, 0).astype(np.uint8), "L").resize((size, size), Image.NEAREST)
        img.paste(Image.new("RGB", (size, size), (0, 0, 0)), (0, 0), shade)
    d = ImageDraw.Draw(img, "RGBA")
    k = scale / F.POS_SCALE                       # frame position -> pixels
    w = scale / F.TILE                            # world units -> pixels
    units = fr.units_at(f)
    seen_bit = {0: F.SEEN_RED, 1: F.SEEN_BLUE}.get(team_view, 0)

    def visible(u) -> bool:
        return team_view is None or int(u["team"]) == team_view or bool(int(u["flags"]) & seen_bit)

    def bar(x, y, width, frac, rgb=HP_RGB):
        d.rectangle([x - width / 2 - 1, y - 1, x + width / 2 + 1, y + 2], fill=(0, 0, 0, 170))
        d.rectangle([x - width / 2, y, x - width / 2 + width * frac, y + 1], fill=rgb)

    order = {Kind.BARRACKS: 0, Kind.TOWER: 1, Kind.GOD: 2, Kind.CREEP: 3, Kind.NEUTRAL: 4, Kind.HERO: 6}
    units = units[np.argsort([order.get(int(kd), 5) for kd in units["kind"]], kind="stable")]
    for u in units:
        kind, team, flags = int(u["kind"]), int(u["team"]), int(u["flags"])
        x, z, alive, hp = float(u["x"]) * k, float(u["z"]) * k, bool(flags & F.ALIVE), int(u["hp"]) / 255
        if kind in (Kind.TOWER, Kind.BARRACKS, Kind.GOD):
            half = {Kind.TOWER: 1.25, Kind.BARRACKS: 0.95, Kind.GOD: 1.8}[kind] * scale
            fill = TEAM_RGB.get(team, (255, 255, 255)) if alive else RUIN_RGB
            if alive and not flags & F.EXPOSED:
                fill = fill + (185,)
            outline = (255, 224, 102) if alive and flags & F.EXPOSED else (17, 17, 17)
            box = [x - half, z - half, x + half, z + half]
            (d.ellipse if kind == Kind.GOD else d.rectangle)(box, fill=fill, outline=outline, width=max(scale // 4, 1))
            if alive and hp < 1:
                bar(x, z + half + 2, 2 * half + 4, hp)
        elif kind in (Kind.CREEP, Kind.NEUTRAL):
            if not visible(u):
                continue
            r = scale * (0.45 if kind == Kind.NEUTRAL else 0.32)
            fill = TEAM_RGB[2] if kind == Kind.NEUTRAL else TEAM_LIGHT.get(team, (255, 255, 255))
            edge = (34, 34, 34) if kind == Kind.NEUTRAL else TEAM_RGB.get(team, (0, 0, 0))
            d.ellipse([x - r, z - r, x + r, z + r], fill=fill, outline=edge)
    for s in fr.spells_at(f):
        ab = fr.abilities.get(str(int(s["ability"])))
        if ab is None or (team_view is not None and not int(s["seen"]) & (1 << team_view)):
            continue
        _spell(d, s, ab, k, w)
    for u in units[units["kind"] == Kind.HERO]:
        flags = int(u["flags"])
        if not flags & F.ALIVE or not visible(u):
            continue
        x, z, team = float(u["x"]) * k, float(u["z"]) * k, int(u["team"])
        r = max(scale * 1.0, 4)
        controlled = flags & (F.STUNNED | F.ROOTED | F.SILENCED)
        d.ellipse([x - r, z - r, x + r, z + r], fill=TEAM_RGB.get(team), outline=(199, 125, 255) if controlled else
                  (255, 255, 255), width=max(scale // 4, 1))
        if scale >= 5:
            d.text((x, z + 0.5), _short(int(u["sub"])), fill=(255, 255, 255), anchor="mm")
        bar(x, z - r - 4, 2.4 * r, int(u["hp"]) / 255)
    tick = int(fr.ticks[f])
    for e in fr.events:
        age = tick - int(e["tick"])
        if age < 0:
            break
        hero, structure = int(e["kind"]) == Kind.HERO, int(e["type"]) == F.EventType.STRUCTURE
        if (hero or structure) and age <= 120:
            x, z, r = float(e["x"]) * k, float(e["z"]) * k, scale * 1.1
            alpha = int(255 * (1 - age / 120))
            d.line([x - r, z - r, x + r, z + r], fill=(255, 255, 255, alpha), width=max(scale // 3, 2))
            d.line([x + r, z - r, x - r, z + r], fill=(255, 255, 255, alpha), width=max(scale // 3, 2))
    if caption:
        heroes = fr.heroes
        kills = (int(heroes["kills"][f, :5].sum()), int(heroes["kills"][f, 5:].sum())) if heroes.size else (0, 0)
        seed = fr.meta.get("seed", "?")
        view = f", {fog}'s view" if fog else ""
        text = f"seed {seed}  {_clock(tick)} (tick {tick})  kills red {kills[0]} : {kills[1]} blue{view}"
        d.text((4, size + CAPTION / 2), text, fill=(230, 230, 230), anchor="lm")
    return img


def _spell(d, s, ab: dict, k: float, w: float) -> None:
    x, z = float(s["x"]) * k, float(s["z"]) * k
    theta = int(s["dir"]) / 65536 * 2 * math.pi
    rgb = TEAM_RGB.get(int(s["team"]), (255, 255, 255)) if ab["harmful"] else HP_RGB
    fill, line = rgb + (90,), rgb + (230,)
    cast, shape = ab["cast"], ab["shape"]
    if cast == F.lib.GOTA_FRAME_CAST_AREA:
        r = ab["radius"] * w
        cos, sin = math.cos(theta), math.sin(theta)

        def at(fx, fz):                      # spell frame (forward fz, lateral fx) -> pixels
            return x + fz * cos - fx * sin, z + fz * sin + fx * cos

        if shape in (1, 5):
            d.ellipse([x - r, z - r, x + r, z + r], fill=fill if shape == 1 else None, outline=line, width=2)
            if shape == 5:
                ri = ab["inner"] * w
                d.ellipse([x - ri, z - ri, x + ri, z + ri], outline=line, width=1)
        elif shape == 2:
            half = ab["angle"] / 2
            d.pieslice([x - r, z - r, x + r, z + r], math.degrees(theta) - half, math.degrees(theta) + half,
                       fill=fill, outline=line)
        else:
            hw = ab["width"] * w / 2
            d.polygon([at(-hw, 0), at(hw, 0), at(hw, r), at(-hw, r)], fill=fill, outline=line)
    elif cast == F.lib.GOTA_FRAME_CAST_PROJECTILE:
        d.line([x - 8 * math.cos(theta), z - 8 * math.sin(theta), x, z], fill=line, width=2)
        d.ellipse([x - 2, z - 2, x + 2, z + 2], fill=(255, 255, 255))
    else:
        ax, az = float(s["aim_x"]) * k, float(s["aim_z"]) * k
        d.ellipse([ax - 3, az - 3, ax + 3, az + 3], outline=(255, 255, 255), width=2)


def _load(replay):
    from .. import replay as R
    return R.load(replay) if isinstance(replay, (str, os.PathLike)) else replay


def png_of_tick(replay, tick: int, out, scale: int = 6, fog: Optional[str] = None,
                check_rules: bool = True) -> Path:
    """A PNG of the map at ``tick`` (0..final tick; ``fog`` 'red'/'blue' shows that
    team's view). The replay is checked to its final hash first."""
    r = _load(replay)
    tick = int(tick)
    if not 0 <= tick <= r.final_tick:
        raise ValueError(f"tick {tick} is outside the replay's ticks 0..{r.final_tick}")
    fr = F.record(r, every=max(r.final_tick, 1), start=tick, end=tick, check_rules=check_rules)
    out = Path(out)
    with atomic_path(out) as tmp:
        render(fr, fr.frame_of(tick), scale, fog).save(tmp, format="PNG", optimize=True)
    return out


def gif_of_segment(replay, start: int, end: int, out, every: int = 12, fps: int = 15, scale: int = 4,
                   fog: Optional[str] = None, check_rules: bool = True) -> Path:
    """An animated GIF of ticks ``start``..``end``: a picture every ``every`` ticks,
    ``fps`` pictures a second (the default 12 ticks at 15 fps is 7.5 times real
    time). The replay is checked to its final hash first."""
    Image, _ = _pil()
    r = _load(replay)
    start, end = int(start), int(end)
    if not 0 <= start < end <= r.final_tick:
        raise ValueError(f"segment {start}:{end} must satisfy 0 <= start < end <= {r.final_tick} (the final tick)")
    fr = F.record(r, every=every, start=start, end=end, check_rules=check_rules)
    pictures = [render(fr, f, scale, fog) for f in range(fr.count)]
    palette = _palette(pictures[len(pictures) // 2])
    indexed = [np.asarray(p.quantize(palette=palette, dither=Image.Dither.NONE)) for p in pictures]
    # each picture after the first keeps only what changed: the rest is the transparent
    # index and shows the picture below (disposal 1), which compresses to almost nothing
    frames = []
    for i, a in enumerate(indexed):
        b = a if i == 0 else np.where(a == indexed[i - 1], TRANSPARENT, a).astype(np.uint8)
        img = Image.fromarray(b, "P")
        img.putpalette(palette.getpalette()[:3 * 256])
        frames.append(img)
    out = Path(out)
    with atomic_path(out) as tmp:
        frames[0].save(tmp, format="GIF", save_all=True, append_images=frames[1:], duration=round(1000 / fps),
                       loop=0, optimize=False, disposal=1, transparency=TRANSPARENT)
    return out


def _palette(sample):
    """One palette for every picture: the sample's colours plus the team colours."""
    Image, _ = _pil()
    extra = Image.new("RGB", (8, 8))
    for i, rgb in enumerate(list(TEAM_RGB.values()) + list(TEAM_LIGHT.values()) + [HP_RGB, RUIN_RGB,
                                                                                    (255, 255, 255), (0, 0, 0)]):
        extra.putpixel((i % 8, i // 8), rgb)
    both = Image.new("RGB", (sample.width + 8, max(sample.height, 8)))
    both.paste(sample, (0, 0))
    both.paste(extra, (sample.width, 0))
    return both.quantize(colors=TRANSPARENT, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


__all__ = ["render", "png_of_tick", "gif_of_segment"]
