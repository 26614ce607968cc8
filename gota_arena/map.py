"""The shared, immutable map: tiles, lane routes, neutral camps, landmarks in the
team frame, and a PNG renderer.

Tiles are row-major: ``tiles[tz, tx]``, tz the row (south), tx the column (east).
World units put the map centre at (0, 0); tile (tx, tz) covers
``x in [(tx - MAP_TILES/2) * TILE, ... + TILE)``.

**The team frame** (docs/contract.md): every position a seat observes is in its
team's frame, world coordinates for red and negated for blue (the map is
point-symmetric), in tiles from the centre / 64 (the observation's
``x*s/64tiles``). The landmarks a scripted opponent or a reward aims at, in that
frame and in tiles from the centre (so the same numbers for both teams; multiply
an observed position by 64 to compare), read from the simulator on first use:

    OWN_GOD, ENEMY_GOD    (x, z) of the seat's own god and of the enemy god
    LANES                 three routes, each ((x, z), ...) from the own gate to the enemy gate;
                          LANES[k] is world lane k for red and world lane 2 - k for blue
    to_team_frame(team, x, z)    a world point (world units) in a team's frame, in tiles
"""
from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ._native import ffi, lib
from .constants import MAP_TILES, TILE, Kind, Material, Team
from .errors import ArgumentRangeError, check
from .files import atomic_path
from .layout import TILE_DTYPE

HALF_WORLD = MAP_TILES * TILE // 2  # world units from the centre to an edge


class Camp(NamedTuple):
    x: int      # world units
    z: int
    tier: int


@functools.lru_cache(maxsize=1)
def map_tiles() -> np.ndarray:
    """Read-only (MAP_TILES, MAP_TILES) structured array (layout.TILE_DTYPE) with the
    fields level, material, walkable and region; ``map_tiles()['level']`` is a view."""
    tiles = np.zeros((MAP_TILES, MAP_TILES), dtype=TILE_DTYPE)
    check(lib.gota_map_tiles(ffi.from_buffer("GotaTile[]", tiles), tiles.size), "gota_map_tiles")
    tiles.flags.writeable = False
    return tiles


def lane_route(lane: int) -> list:
    """Waypoints [(x, z), ...] of lane 0..2 in world units, red end first."""
    what = f"lane_route(lane={lane!r})"
    if isinstance(lane, bool) or not isinstance(lane, int) or not -(2**31) <= lane < 2**31:
        raise ArgumentRangeError(f"{what}: lane must be an integer 0..2")
    return _pairs(lambda out, cap, count: lib.gota_map_lane(lane, out, cap, count), what,
                  "lanes are 0, 1 and 2")


def camps() -> list:
    """The neutral camps as [Camp(x, z, tier), ...]."""
    cap = 64
    while True:
        out = np.zeros(3 * cap, dtype=np.int32)
        count = ffi.new("int32_t *")
        code = lib.gota_map_camps(ffi.from_buffer("int32_t[]", out), out.size, count)
        if code == lib.GOTA_ERR_BUFFER and cap < 4096:
            cap *= 4
            continue
        check(code, "camps()")
        return [Camp(*map(int, out[3 * i: 3 * i + 3])) for i in range(count[0])]


def _pairs(call, what: str, range_hint: str) -> list:
    cap = 128  # waypoints
    while True:
        out = np.zeros(2 * cap, dtype=np.int32)
        count = ffi.new("int32_t *")
        code = call(ffi.from_buffer("int32_t[]", out), out.size, count)
        if code == lib.GOTA_ERR_BUFFER and cap < 65536:
            cap *= 4
            continue
        check(code, what, range_hint if code in (lib.GOTA_ERR_RANGE, lib.GOTA_ERR_INDEX) else "")
        return [(int(out[2 * i]), int(out[2 * i + 1])) for i in range(count[0])]


# ---- the team frame -----------------------------------------------------------
_TEAM_FRAME = ("OWN_GOD", "ENEMY_GOD", "LANES")


def to_team_frame(team, x, z) -> tuple:
    """World point (x, z) (world units) in ``team``'s frame, in tiles from the centre:
    as a seat of that team observes it (times 64)."""
    s = -1.0 if int(_lookup_team(team)) == Team.BLUE else 1.0
    return s * x / TILE + 0.0, s * z / TILE + 0.0   # + 0.0: no negative zeros


def _lookup_team(team) -> Team:
    if isinstance(team, str):
        try:
            return Team[team.upper()]
        except KeyError:
            raise ArgumentRangeError(f"team must be red or blue, got {team!r}") from None
    if isinstance(team, bool) or int(team) not in (Team.RED, Team.BLUE):
        raise ArgumentRangeError(f"team must be red (0) or blue (1), got {team!r}")
    return Team(int(team))


@functools.lru_cache(maxsize=1)
def _landmarks() -> dict:
    """The team-frame landmarks, from a fresh match's gods and the lane routes."""
    from .sim import Match

    with Match(seed=0) as match:
        gods = {int(u["team"]): (int(u["x"]), int(u["z"])) for u in match.units_of(kind=Kind.GOD)}
    own, enemy = to_team_frame(Team.RED, *gods[Team.RED]), to_team_frame(Team.RED, *gods[Team.BLUE])
    assert (own, enemy) == (to_team_frame(Team.BLUE, *gods[Team.BLUE]), to_team_frame(Team.BLUE, *gods[Team.RED]))
    lanes = tuple(tuple(to_team_frame(Team.RED, x, z) for x, z in lane_route(k)) for k in range(3))
    return {"OWN_GOD": own, "ENEMY_GOD": enemy, "LANES": lanes}


def __getattr__(name: str):
    """OWN_GOD, ENEMY_GOD and LANES, computed on first use (PEP 562)."""
    if name in _TEAM_FRAME:
        return _landmarks()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list:
    return sorted(set(globals()) | set(_TEAM_FRAME))


def world_to_tile(x: int, z: int) -> tuple:
    """The (tx, tz) tile holding world point (x, z)."""
    return (x + HALF_WORLD) // TILE, (z + HALF_WORLD) // TILE


def tile_centre(tx: int, tz: int) -> tuple:
    """World coordinates of the centre of tile (tx, tz)."""
    return tx * TILE - HALF_WORLD + TILE // 2, tz * TILE - HALF_WORLD + TILE // 2


# ---- rendering -----------------------------------------------------------------
_MATERIAL_RGB = {
    Material.GRASS: (104, 156, 74),
    Material.ROAD: (196, 170, 118),
    Material.ROCK: (118, 112, 104),
    Material.TREES: (30, 78, 38),
    Material.TRAIL: (222, 208, 164),
    Material.WALL: (132, 132, 136),
    Material.WATER: (58, 108, 196),
}
_LEVEL_SHADE = {-1: 0.85, 0: 1.0, 1: 1.12, 2: 1.26}  # castles (level 2) the lightest
_TEAM_RGB = {Team.RED: (214, 38, 38), Team.BLUE: (38, 86, 226), Team.NEUTRAL: (242, 206, 34)}
_RUIN_RGB = (60, 56, 52)
_OUTLINE_RGB = (12, 12, 12)


def terrain_image(scale: int = 6) -> np.ndarray:
    """(MAP_TILES*scale, MAP_TILES*scale, 3) uint8 RGB picture of the terrain."""
    tiles = map_tiles()
    lut = np.full((256, 3), 255, dtype=np.float64)  # unknown materials show white
    for material, rgb in _MATERIAL_RGB.items():
        lut[int(material)] = rgb
    rgb = lut[tiles["material"]]
    shade = np.ones(tiles.shape)
    for level, factor in _LEVEL_SHADE.items():
        shade[tiles["level"] == level] = factor
    rgb = np.clip(rgb * shade[..., None], 0, 255).astype(np.uint8)
    return np.repeat(np.repeat(rgb, scale, axis=0), scale, axis=1)


def _pixel(v: int, scale: int) -> int:
    return (int(v) + HALF_WORLD) * scale // TILE


def _disk(img, cx, cy, r, rgb, outline=None):
    h, w, _ = img.shape
    y0, y1, x0, x1 = max(cy - r - 1, 0), min(cy + r + 2, h), max(cx - r - 1, 0), min(cx + r + 2, w)
    if y0 >= y1 or x0 >= x1:
        return
    yy, xx = np.ogrid[y0:y1, x0:x1]
    d2 = (yy - cy) ** 2 + (xx - cx) ** 2
    if outline is not None:
        img[y0:y1, x0:x1][d2 <= (r + 1) ** 2] = outline
    img[y0:y1, x0:x1][d2 <= r * r] = rgb


def _square(img, cx, cy, half, rgb, outline=None):
    h, w, _ = img.shape
    if outline is not None:
        img[max(cy - half - 1, 0):min(cy + half + 2, h), max(cx - half - 1, 0):min(cx + half + 2, w)] = outline
    img[max(cy - half, 0):min(cy + half + 1, h), max(cx - half, 0):min(cx + half + 1, w)] = rgb


def _frame(img, cx, cy, half, rgb):
    h, w, _ = img.shape
    y0, y1, x0, x1 = max(cy - half, 0), min(cy + half + 1, h), max(cx - half, 0), min(cx + half + 1, w)
    if y0 < y1 and x0 < x1:
        img[y0, x0:x1] = img[y1 - 1, x0:x1] = rgb
        img[y0:y1, x0] = img[y0:y1, x1 - 1] = rgb


def render_image(match=None, scale: int = 6) -> np.ndarray:
    """The map picture as an RGB array; with a Match, its structures and units on top
    (red/blue teams, neutrals yellow; gods big, towers squares, creeps small dots)."""
    img = terrain_image(scale)
    for camp in camps():  # camp spots: hollow yellow squares
        _frame(img, _pixel(camp.x, scale), _pixel(camp.z, scale), scale, _TEAM_RGB[Team.NEUTRAL])
    if match is None:
        return img
    units = match.units_of()
    order = {Kind.CREEP: 0, Kind.NEUTRAL: 1, Kind.HERO: 2, Kind.BARRACKS: 3, Kind.TOWER: 4, Kind.GOD: 5}
    for u in sorted(units, key=lambda u: order.get(int(u["kind"]), 0)):
        kind, alive = int(u["kind"]), bool(u["alive"])
        cx, cy = _pixel(u["x"], scale), _pixel(u["z"], scale)
        rgb = _TEAM_RGB.get(int(u["team"]), (255, 255, 255))
        if kind == Kind.GOD:
            _disk(img, cx, cy, int(2.2 * scale), rgb if alive else _RUIN_RGB, _OUTLINE_RGB)
        elif kind == Kind.TOWER:
            _square(img, cx, cy, int(0.8 * scale), rgb if alive else _RUIN_RGB, _OUTLINE_RGB)
        elif kind == Kind.BARRACKS:
            _square(img, cx, cy, int(0.6 * scale), rgb if alive else _RUIN_RGB, (235, 235, 235))
        elif not alive:
            continue  # corpses of mobile units are not drawn
        elif kind == Kind.HERO:
            _disk(img, cx, cy, max(scale * 2 // 3, 2), rgb, (250, 250, 250))
        elif kind == Kind.NEUTRAL:
            _disk(img, cx, cy, max(scale // 2, 2), _TEAM_RGB[Team.NEUTRAL], _OUTLINE_RGB)
        else:  # creeps
            _disk(img, cx, cy, max(scale // 3, 1), rgb)
    return img


def render_map_png(path, match=None, scale: int = 6) -> None:
    """Write a PNG of the map (and of ``match``'s structures and units) to ``path``,
    atomically; needs Pillow (the ``viewer`` extra)."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("render_map_png needs Pillow: pip install pillow (or gota-arena[viewer])") from None
    with atomic_path(path) as tmp:
        Image.fromarray(render_image(match, scale)).save(tmp, format="PNG")
