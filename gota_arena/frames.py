"""Frames of a replayed match: what a viewer draws, every few ticks, as compact
numpy arrays (docs/viewer.md).

    from gota_arena import frames
    fr = frames.record("match.gotareplay", every=6)    # replayed, hash-checked, then kept
    fr.units_at(fr.frame_of(2400))                     # the units drawn at tick 2400
    payload = fr.payload()                             # what the HTML viewer embeds

The simulator exports one tick in one C call (``gota_match_frame``, native/sim/frames.c):
every unit with position, hp, team, kind, class, target and seen-by-team flags;
the spells in flight; the ten heroes' panels; both teams' fog. ``FrameRecorder``
takes those calls at chosen ticks of a live match; ``record`` replays a replay
file through ``gota_arena.replay.decisions`` and keeps the frames only when the
replay reached its final hash (a replay that does not match raises
``ReplayError`` and nothing is returned).

Compact form (``Frames``): every unit is a *track* (its id, kind, team, class,
seat, the first frame and the number of frames it is drawn in: structures and
heroes for the whole match, other units while alive); ``samples`` hold each
track's frames back to back (positions in 1/256 tile from the map's north-west
corner as uint16, hp as a 0..255 fraction of max hp, the flags, the target's
track). ``payload()`` delta-encodes and zlib-compresses the columns for the
HTML viewer; ``decode_payload`` reverses it (the JavaScript decoder does the same).
"""
from __future__ import annotations

import base64
import json
import os
import zlib
from dataclasses import dataclass, field
from typing import Iterable, Optional

import numpy as np

from . import __version__
from ._native import ffi, lib
from .constants import MAP_TILES, MAX_UNITS, TICKS_PER_SECOND, TILE, EventType, Kind
from .errors import check
from .heroes import ability_name, class_name
from .layout import EVENT_DTYPE, struct_dtype

UNIT_DTYPE = struct_dtype("GotaFrameUnit")
SPELL_DTYPE = struct_dtype("GotaFrameSpell")
HERO_DTYPE = struct_dtype("GotaFrameHero")
FOG_BYTES = lib.GOTA_FRAME_FOG_BYTES
SPELL_CAP = 512
SEATS = lib.GOTA_SEATS
POS_SCALE = 256                       # frame positions: 1/256 tile
HALF_WORLD = MAP_TILES * TILE // 2
PAYLOAD_FORMAT = "gota-frames"
PAYLOAD_VERSION = 1

# flags (GotaFrameUnit.flags)
ALIVE = lib.GOTA_FRAME_ALIVE
SEEN_RED = lib.GOTA_FRAME_SEEN_RED
SEEN_BLUE = lib.GOTA_FRAME_SEEN_BLUE
EXPOSED = lib.GOTA_FRAME_EXPOSED
STUNNED = lib.GOTA_FRAME_STUNNED
ROOTED = lib.GOTA_FRAME_ROOTED
SILENCED = lib.GOTA_FRAME_SILENCED
CHANNELING = lib.GOTA_FRAME_CHANNELING
RETURNING = lib.GOTA_FRAME_RETURNING
SWINGING = lib.GOTA_FRAME_SWINGING
FLAG_NAMES = {"alive": ALIVE, "seen_red": SEEN_RED, "seen_blue": SEEN_BLUE, "exposed": EXPOSED,
              "stunned": STUNNED, "rooted": ROOTED, "silenced": SILENCED, "channeling": CHANNELING,
              "returning": RETURNING, "swinging": SWINGING}

# the compact arrays
TRACK_DTYPE = np.dtype([("id", "<i4"), ("kind", "i1"), ("team", "i1"), ("sub", "i1"), ("lane", "i1"),
                        ("seat", "i1"), ("first", "<i4"), ("count", "<i4"), ("offset", "<i8")])
SAMPLE_DTYPE = np.dtype([("x", "<u2"), ("z", "<u2"), ("hp", "u1"), ("flags", "<u2"), ("target", "<i4")])
HERO_FRAME_FIELDS = ("hp", "max_hp", "mana", "max_mana", "level", "xp", "gold", "kills", "deaths", "assists",
                     "last_hits", "respawn_ticks", "score", "facing")
HERO_FRAME_DTYPE = np.dtype([(name, "<i4") for name in HERO_FRAME_FIELDS] + [("item", "<i4", (6,)),
                                                                              ("item_count", "<i4", (6,))])
FRAME_SPELL_DTYPE = np.dtype([("frame", "<i4"), ("caster", "<i4"), ("ability", "<i2"), ("team", "i1"),
                              ("seen", "u1"), ("x", "<u2"), ("z", "<u2"), ("aim_x", "<u2"), ("aim_z", "<u2"),
                              ("origin_x", "<u2"), ("origin_z", "<u2"), ("dir", "<u2"), ("left", "<i4"),
                              ("target", "<i4")])
FRAME_EVENT_DTYPE = np.dtype([("tick", "<i4"), ("type", "i1"), ("kind", "i1"), ("team", "i1"), ("sub", "i1"),
                              ("unit", "<i4"), ("other", "<i4"), ("unit_id", "<i4"), ("other_id", "<i4"),
                              ("value", "<i4"), ("x", "<u2"), ("z", "<u2")])
KEPT_EVENTS = (EventType.DEATH, EventType.STRUCTURE, EventType.EXPOSED, EventType.GAME_OVER)
_KEEP_EVENT = np.zeros(256, bool)
_KEEP_EVENT[[int(t) for t in KEPT_EVENTS]] = True
_EVENT_CAP = 4096
EVENT_TICKS = 240                     # FrameRecorder reads the event log at least this often


def quantize(v) -> np.ndarray:
    """World units to frame positions (1/256 tile from the north-west corner), uint16."""
    q = (np.asarray(v, dtype=np.int64) + HALF_WORLD) * POS_SCALE // TILE
    return np.clip(q, 0, 0xFFFF).astype(np.uint16)


def world(q) -> np.ndarray:
    """Frame positions back to world units (the centre of the 1/256-tile cell)."""
    return (np.asarray(q, dtype=np.int64) * TILE + TILE // (2 * POS_SCALE)) // POS_SCALE - HALF_WORLD


def hp_fraction(hp, max_hp) -> np.ndarray:
    """hp as 0..255 of max_hp, rounded up so that a living unit never shows 0."""
    hp = np.maximum(np.asarray(hp, dtype=np.int64), 0)
    top = np.maximum(np.asarray(max_hp, dtype=np.int64), 1)
    return np.minimum((hp * 255 + top - 1) // top, 255).astype(np.uint8)


# ---- one tick --------------------------------------------------------------------
class _Buffers:
    def __init__(self):
        self.units = np.zeros(MAX_UNITS, UNIT_DTYPE)
        self.spells = np.zeros(SPELL_CAP, SPELL_DTYPE)
        self.heroes = np.zeros(SEATS, HERO_DTYPE)
        self.fog = np.zeros(2 * FOG_BYTES, np.uint8)
        self._keep = (ffi.from_buffer("GotaFrameUnit[]", self.units), ffi.from_buffer("GotaFrameSpell[]", self.spells),
                      ffi.from_buffer("GotaFrameHero[]", self.heroes), ffi.from_buffer("uint8_t[]", self.fog))
        f = self.frame = ffi.new("GotaFrame *")
        f.units, f.units_cap = self._keep[0], MAX_UNITS
        f.spells, f.spells_cap = self._keep[1], SPELL_CAP
        f.heroes, f.heroes_cap = self._keep[2], SEATS
        self._fog_on = None

    def read(self, ptr, fog: bool) -> None:
        f = self.frame
        if fog != self._fog_on:
            f.fog, f.fog_cap = (self._keep[3], 2 * FOG_BYTES) if fog else (ffi.NULL, 0)
            self._fog_on = fog
        check(lib.gota_match_frame(ptr, f), "gota_match_frame")


def frame(match) -> dict:
    """One tick of a live Match as numpy copies of the C records:
    ``{"tick", "result", "winner", "units", "spells", "heroes", "fog"}`` (fog: (2, 116, 116)
    uint8, 1 where the team sees the tile; red then blue)."""
    buf = _Buffers()
    buf.read(match._handle("frames.frame"), fog=True)
    f = buf.frame
    bits = np.unpackbits(buf.fog.reshape(2, FOG_BYTES), axis=1, bitorder="little")[:, :MAP_TILES * MAP_TILES]
    return {"tick": f.tick, "result": f.result, "winner": f.winner,
            "units": buf.units[:f.unit_count].copy(), "spells": buf.spells[:f.spell_count].copy(),
            "heroes": buf.heroes[:f.hero_count].copy(), "fog": bits.reshape(2, MAP_TILES, MAP_TILES)}


class FrameRecorder:
    """Takes frames of a live match at the ticks you call ``add`` (one C call each)
    and the events in between; ``frames(meta)`` builds the compact ``Frames``.
    Fog is kept at most every ``fog_every`` ticks (and at the first and the
    ``final`` frame). Between frames more than EVENT_TICKS apart, call
    ``events(match)`` often enough that the 4,096-entry event log does not wrap."""

    def __init__(self, fog_every: int = 24):
        self.fog_every = max(int(fog_every), 1)
        self._buf = _Buffers()
        self._ticks, self._units, self._spells, self._heroes = [], [], [], []
        self._fog, self._fog_frames = [], []
        self._events = []
        self._event_next = 0
        self._ebuf = np.zeros(_EVENT_CAP, EVENT_DTYPE)
        self._eptr = ffi.from_buffer("GotaEvent[]", self._ebuf)
        self._info = ffi.new("GotaMatchInfo *")
        self._written, self._next = ffi.new("int32_t *"), ffi.new("int64_t *")
        self._event_tick = None
        self.dropped_events = 0
        self.result = None

    def events(self, match, force: bool = True) -> None:
        """Read the events since the last read (``add`` does it too). Without
        ``force`` it reads only when EVENT_TICKS ticks passed since the last read
        (far fewer than the 4,096 events the log keeps can happen in them)."""
        ptr = match._handle("FrameRecorder")
        if not force:
            check(lib.gota_match_info(ptr, self._info), "gota_match_info")
            if self._event_tick is not None and self._info.tick - self._event_tick < EVENT_TICKS:
                return
        while True:
            check(lib.gota_match_events(ptr, self._event_next, self._eptr, _EVENT_CAP, self._written, self._next),
                  "gota_match_events")
            n = self._written[0]
            if self._next[0] - n > self._event_next:
                self.dropped_events += int(self._next[0] - n - self._event_next)
            if n:
                e = self._ebuf[:n]
                keep = _KEEP_EVENT[e["type"] & 0xFF]
                if keep.any():
                    self._events.append(e[keep].tobytes())
            self._event_next = int(self._next[0])
            if n < _EVENT_CAP:
                break
        check(lib.gota_match_info(ptr, self._info), "gota_match_info")
        self._event_tick = self._info.tick

    def add(self, match, final: bool = False) -> None:
        """Take a frame of ``match`` now (``final``: the last one; also reads the
        remaining events and keeps the fog)."""
        ptr = match._handle("FrameRecorder.add")
        self.events(match, force=final)
        tick = self._info.tick
        if self._ticks and tick <= self._ticks[-1]:
            raise ValueError(f"FrameRecorder.add: tick {tick} is not after the last frame's tick {self._ticks[-1]}")
        fog = final or not self._fog_frames or \
            tick // self.fog_every != self._ticks[self._fog_frames[-1]] // self.fog_every
        self._buf.read(ptr, fog)
        f = self._buf.frame
        self._ticks.append(f.tick)
        self._units.append(self._buf.units[:f.unit_count].tobytes())
        self._spells.append(self._buf.spells[:f.spell_count].tobytes())
        self._heroes.append(self._buf.heroes[:f.hero_count].tobytes() if f.hero_count == SEATS else None)
        if fog:
            self._fog.append(self._buf.fog.tobytes())
            self._fog_frames.append(len(self._ticks) - 1)
        self.result = (f.result, f.winner)

    def __len__(self) -> int:
        return len(self._ticks)

    def frames(self, meta: Optional[dict] = None) -> "Frames":
        if not self._ticks:
            raise ValueError("FrameRecorder.frames: no frame was added")
        return _compact(self, dict(meta or {}))


# ---- the compact form ---------------------------------------------------------------
@dataclass(eq=False)
class Frames:
    """A match's frames in compact form (module docstring). ``ticks[f]`` is the
    tick of frame ``f``; ``fog[k]`` (2 teams x FOG_BYTES bits) belongs to frame
    ``fog_frames[k]`` and holds until the next one."""

    ticks: np.ndarray           # int32 (F,)
    tracks: np.ndarray          # TRACK_DTYPE (T,)
    samples: np.ndarray         # SAMPLE_DTYPE (S,)
    heroes: np.ndarray          # HERO_FRAME_DTYPE (F, 10), empty (F, 0) without heroes
    spells: np.ndarray          # FRAME_SPELL_DTYPE (K,)
    fog_frames: np.ndarray      # int32 (G,)
    fog: np.ndarray             # uint8 (G, 2, FOG_BYTES)
    events: np.ndarray          # FRAME_EVENT_DTYPE (E,)
    abilities: dict = field(default_factory=dict)   # "cls*4+slot" -> shape and names
    meta: dict = field(default_factory=dict)

    # ---- lookups ----
    @property
    def count(self) -> int:
        return len(self.ticks)

    def frame_of(self, tick: int) -> int:
        """The last frame at or before ``tick`` (the first frame for earlier ticks)."""
        return max(int(np.searchsorted(self.ticks, int(tick), side="right")) - 1, 0)

    def units_at(self, f: int) -> np.ndarray:
        """The units drawn at frame ``f``: a structured array with the track fields
        (id, kind, team, sub, lane, seat), ``track`` and the sample fields (x, z in
        frame positions, hp 0..255, flags, target track)."""
        t = self.tracks
        on = np.flatnonzero((t["first"] <= f) & (f < t["first"] + t["count"]))
        idx = t["offset"][on] + (f - t["first"][on])
        s = self.samples[idx]
        out = np.zeros(len(on), dtype=[("track", "<i4"), ("id", "<i4"), ("kind", "i1"), ("team", "i1"),
                                       ("sub", "i1"), ("lane", "i1"), ("seat", "i1"), ("x", "<u2"), ("z", "<u2"),
                                       ("hp", "u1"), ("flags", "<u2"), ("target", "<i4")])
        out["track"] = on
        for name in ("id", "kind", "team", "sub", "lane", "seat"):
            out[name] = t[name][on]
        for name in ("x", "z", "hp", "flags", "target"):
            out[name] = s[name]
        return out

    def spells_at(self, f: int) -> np.ndarray:
        lo, hi = np.searchsorted(self.spells["frame"], [f, f + 1])
        return self.spells[lo:hi]

    def fog_at(self, f: int) -> np.ndarray:
        """(2, 116, 116) uint8 visibility of red and blue at frame ``f`` (the last fog
        frame at or before it)."""
        k = max(int(np.searchsorted(self.fog_frames, f, side="right")) - 1, 0)
        bits = np.unpackbits(self.fog[k], axis=1, bitorder="little")[:, :MAP_TILES * MAP_TILES]
        return bits.reshape(2, MAP_TILES, MAP_TILES)

    def timeline(self) -> list:
        """The events a reader wants on a timeline, in order: first blood, hero
        kills, towers, barracks, the god, the end (dicts, as the viewer shows them)."""
        return _timeline(self)

    # ---- the viewer's payload ----
    def payload(self) -> dict:
        """JSON-ready dict: ``meta``, ``columns`` (name, dtype, shape, encoding, offset,
        size) and ``data``, the base64 of the zlib-compressed encoded columns."""
        return encode_payload(self)


def _compact(rec: FrameRecorder, meta: dict) -> Frames:
    ticks = np.asarray(rec._ticks, dtype=np.int32)
    counts = np.array([len(u) // UNIT_DTYPE.itemsize for u in rec._units])
    units = np.frombuffer(b"".join(rec._units), UNIT_DTYPE)
    frame_idx = np.repeat(np.arange(len(ticks), dtype=np.int32), counts)
    alive = (units["flags"] & ALIVE) != 0
    permanent = np.isin(units["kind"], [int(Kind.HERO), int(Kind.GOD), int(Kind.TOWER), int(Kind.BARRACKS)])
    keep = np.flatnonzero(alive | permanent)      # mobile units are drawn while alive
    order = keep[np.lexsort((frame_idx[keep], units["id"][keep]))]
    units, frame_idx = units[order], frame_idx[order]
    ids, first_pos, counts = np.unique(units["id"], return_index=True, return_counts=True)
    tracks = np.zeros(len(ids), TRACK_DTYPE)
    tracks["id"] = ids
    for name in ("kind", "team", "sub", "lane", "seat"):
        tracks[name] = units[name][first_pos]
    tracks["first"] = frame_idx[first_pos]
    tracks["count"] = counts
    tracks["offset"] = first_pos
    # a track's frames must follow each other (ids are never reused; a mobile unit
    # alive in two frames is alive in between)
    expected = np.arange(len(units)) - np.repeat(first_pos, counts) + np.repeat(tracks["first"], counts)
    if not np.array_equal(frame_idx, expected):
        raise RuntimeError("frames: a unit's frames are not consecutive (a unit id came back)")

    def track_of(unit_ids):
        unit_ids = np.asarray(unit_ids, dtype=np.int64)
        pos = np.clip(np.searchsorted(ids, unit_ids), 0, max(len(ids) - 1, 0))
        found = (len(ids) > 0) & (ids[pos] == unit_ids) if len(ids) else np.zeros(len(unit_ids), bool)
        return np.where(found, pos, -1).astype(np.int32)

    samples = np.zeros(len(units), SAMPLE_DTYPE)
    samples["x"] = quantize(units["x"])
    samples["z"] = quantize(units["z"])
    samples["hp"] = np.where((units["flags"] & ALIVE) != 0, hp_fraction(units["hp"], units["max_hp"]), 0)
    samples["flags"] = units["flags"]
    samples["target"] = np.where(units["target_id"] >= 0, track_of(units["target_id"]), -1)

    # heroes: exact numbers for the panels
    has_heroes = any(h is not None for h in rec._heroes)
    heroes = np.zeros((len(ticks), SEATS if has_heroes else 0), HERO_FRAME_DTYPE)
    if has_heroes:
        hero_units = units[units["kind"] == Kind.HERO]
        hero_frames = frame_idx[units["kind"] == Kind.HERO]
        empty = bytes(SEATS * HERO_DTYPE.itemsize)
        h = np.frombuffer(b"".join(empty if h is None else h for h in rec._heroes), HERO_DTYPE).reshape(-1, SEATS)
        for name in ("mana", "max_mana", "level", "xp", "gold", "kills", "deaths", "assists", "last_hits",
                     "respawn_ticks", "score", "item", "item_count"):
            heroes[name] = h[name]
        seat = hero_units["seat"].astype(np.int64)
        heroes["hp"][hero_frames, seat] = hero_units["hp"]
        heroes["max_hp"][hero_frames, seat] = hero_units["max_hp"]
        heroes["facing"][hero_frames, seat] = hero_units["facing"]

    # spells
    scounts = np.array([len(s) // SPELL_DTYPE.itemsize for s in rec._spells])
    raw = np.frombuffer(b"".join(rec._spells), SPELL_DTYPE)
    spells = np.zeros(len(raw), FRAME_SPELL_DTYPE)
    spells["frame"] = np.repeat(np.arange(len(ticks), dtype=np.int32), scounts)
    spells["caster"] = track_of(raw["caster_id"])
    spells["ability"] = raw["hero_class"] * 4 + raw["ability"]
    spells["team"] = raw["team"]
    spells["seen"] = raw["seen"]
    for name in ("x", "z", "aim_x", "aim_z", "origin_x", "origin_z"):
        spells[name] = quantize(raw[name])
    angle = np.arctan2(raw["dir_z"].astype(np.float64), raw["dir_x"].astype(np.float64))
    spells["dir"] = np.round(angle / (2 * np.pi) * 65536).astype(np.int64) & 0xFFFF
    spells["left"] = raw["impact_tick"] - ticks[spells["frame"]]
    spells["target"] = np.where(raw["target_id"] >= 0, track_of(raw["target_id"]), -1)
    abilities = {}
    for key in np.unique(spells["ability"]).tolist():
        r = raw[np.flatnonzero(spells["ability"] == key)[0]]
        cls, slot = divmod(int(key), 4)
        abilities[str(key)] = {"class": cls, "slot": slot, "name": ability_name(cls, slot), "cast": int(r["cast"]),
                               "shape": int(r["shape"]), "radius": int(r["radius"]), "inner": int(r["inner"]),
                               "width": int(r["width"]), "angle": int(r["angle"]), "harmful": int(r["harmful"])}

    # events
    ev = np.frombuffer(b"".join(rec._events), EVENT_DTYPE)
    events = np.zeros(len(ev), FRAME_EVENT_DTYPE)
    for name in ("tick", "type", "kind", "team", "value"):
        events[name] = ev[name]
    events["unit_id"], events["other_id"] = ev["unit"], ev["other"]
    events["unit"] = track_of(ev["unit"])
    events["other"] = np.where(ev["other"] >= 0, track_of(ev["other"]), -1)
    events["sub"] = -1
    known = events["unit"] >= 0
    events["sub"][known] = tracks["sub"][events["unit"][known]]
    events["x"], events["z"] = quantize(ev["x"]), quantize(ev["z"])

    fog = np.frombuffer(b"".join(rec._fog), np.uint8).reshape(-1, 2, FOG_BYTES).copy()
    meta.setdefault("first_tick", int(ticks[0]))
    meta.setdefault("last_tick", int(ticks[-1]))
    if rec.result is not None:
        result, winner = rec.result
        meta.setdefault("result_code", int(result))
        meta.setdefault("winner_code", int(winner))
    meta["dropped_events"] = rec.dropped_events
    return Frames(ticks=ticks, tracks=tracks, samples=samples, heroes=heroes, spells=spells,
                  fog_frames=np.asarray(rec._fog_frames, dtype=np.int32), fog=fog, events=events,
                  abilities=abilities, meta=meta)


# ---- recording a replay ---------------------------------------------------------------
def sample_ticks(final_tick: int, every: int = 6, start: int = 0, end: Optional[int] = None,
                 ticks: Iterable[int] = ()) -> list:
    """The ticks a recording keeps: every ``every`` ticks from ``start`` to ``end``
    (default the final tick; ``end`` itself included), plus ``ticks``."""
    every = int(every)
    if every < 1:
        raise ValueError(f"every={every}: frames are taken every 1 or more ticks")
    end = final_tick if end is None else min(int(end), final_tick)
    start = max(int(start), 0)
    if start > end:
        raise ValueError(f"start {start} is after end {end} (the replay has ticks 0..{final_tick})")
    first = -(-start // every) * every
    out = set(range(first, end + 1, every)) | {start, end}
    out |= {int(t) for t in ticks if 0 <= int(t) <= final_tick}
    return sorted(out)


def record(replay, every: int = 6, fog_every: int = 24, start: int = 0, end: Optional[int] = None,
           ticks: Iterable[int] = (), check_rules: bool = True) -> Frames:
    """Replay ``replay`` (a Replay or a file) and take a frame every ``every`` ticks
    from ``start`` to ``end`` (and at ``ticks``). The whole replay is played and
    checked to its final hash (gota_arena.replay.decisions): if it does not match,
    ReplayError is raised and nothing is returned."""
    from . import replay as R

    r = R.load(replay) if isinstance(replay, (str, os.PathLike)) else replay
    wanted = sample_ticks(r.final_tick, every, start, end, ticks)
    want = set(wanted)
    rec = FrameRecorder(fog_every=fog_every)
    last = None
    for d in R.decisions(r, check_rules=check_rules, stops=wanted):
        if d.tick in want and d.tick != last:
            rec.add(d.match, final=d.tick == wanted[-1])
            last = d.tick
        elif d.tick < wanted[-1]:
            rec.events(d.match, force=False)
    # decisions() ended without an error: the replay reached its final hash
    return rec.frames(replay_meta(r, every=every, fog_every=fog_every))


def replay_meta(r, every: int, fog_every: int) -> dict:
    """What the viewer shows about a replay (seed, teams, result, hashes)."""
    classes = list(r.classes)
    return {
        "seed": r.seed, "bots": list(r.players), "classes": classes,
        "class_names": [class_name(c) for c in classes], "result": r.result, "winner": r.winner,
        "final_tick": r.final_tick, "final_hash": f"0x{r.final_hash:016x}", "every": int(every),
        "fog_every": int(fog_every), "source": dict(r.source), "replay": os.path.basename(r.path) if r.path else None,
        "package": __version__, "contract": r.contract_version,
    }


# ---- the timeline ------------------------------------------------------------------
_TIER = {0: "outer", 1: "inner", 2: "gate", 3: "guard"}
_TEAM = {0: "red", 1: "blue", 2: "neutral"}
_LANE = {0: "top", 1: "mid", 2: "bottom"}


def _who(fr: Frames, track: int) -> str:
    """A unit as a reader names it: a hero by class and team, else its kind."""
    if track < 0:
        return "unknown"
    t = fr.tracks[track]
    kind, team = int(t["kind"]), _TEAM.get(int(t["team"]), "?")
    if kind == Kind.HERO:
        return f"{class_name(int(t['sub']))} ({team})"
    return {Kind.TOWER: f"a {team} tower", Kind.CREEP: f"{team} creeps", Kind.NEUTRAL: "neutrals",
            Kind.GOD: f"the {team} god", Kind.BARRACKS: f"{team} barracks"}.get(kind, "unknown")


def _timeline(fr: Frames) -> list:
    out = []
    first_blood = False
    tracks = fr.tracks
    for e in fr.events:
        kind, etype, tick = int(e["kind"]), int(e["type"]), int(e["tick"])
        team = _TEAM.get(int(e["team"]), str(int(e["team"])))
        unit, killer = int(e["unit"]), int(e["other"])
        killer_kind = int(tracks["kind"][killer]) if killer >= 0 else -1
        by = f" by {_who(fr, killer)}" if killer >= 0 else ""
        base = {"tick": tick, "team": team, "unit": unit, "other": killer, "x": int(e["x"]), "z": int(e["z"])}
        lane = _LANE.get(int(tracks["lane"][unit]), "") if unit >= 0 else ""
        if etype == EventType.DEATH and kind == Kind.HERO:
            kind_name = "first_blood" if not first_blood else "kill"
            first_blood = True
            label = ("first blood: " if kind_name == "first_blood" else "") + f"{_who(fr, unit)} killed{by}"
            out.append({**base, "type": kind_name, "label": label, "by_hero": killer_kind == Kind.HERO})
        elif etype == EventType.STRUCTURE:
            if kind == Kind.TOWER:
                tier = _TIER.get(int(e["sub"]), "")
                where = f" {lane}" if lane and tier != "guard" else ""
                out.append({**base, "type": "tower", "label": f"{team}{where} {tier} tower destroyed{by}"})
            elif kind == Kind.BARRACKS:
                where = f" {lane}" if lane else ""
                out.append({**base, "type": "barracks", "label": f"{team}{where} barracks destroyed{by}"})
            elif kind == Kind.GOD:
                out.append({**base, "type": "god", "label": f"the {team} god falls" + by.replace(" by ", " to ")})
        elif etype == EventType.GAME_OVER:
            winner = int(e["value"])
            out.append({**base, "type": "end", "label": f"{_TEAM.get(winner, 'nobody')} wins" if winner >= 0
                        else "the match ends without a winner"})
    return out


# ---- the payload ------------------------------------------------------------------------
def _delta(a: np.ndarray) -> np.ndarray:
    """Wrapping differences along the flattened array, first value kept."""
    flat = a.reshape(-1)
    out = flat.copy()
    if len(flat) > 1:
        with np.errstate(over="ignore"):
            out[1:] = flat[1:] - flat[:-1]
    return out


def _undelta(a: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.cumsum(a, dtype=a.dtype)


def _planes(raw: bytes, width: int) -> bytes:
    if width == 1 or not raw:
        return raw
    return np.frombuffer(raw, np.uint8).reshape(-1, width).T.tobytes()


def _unplanes(raw: bytes, width: int) -> bytes:
    if width == 1 or not raw:
        return raw
    return np.frombuffer(raw, np.uint8).reshape(width, -1).T.tobytes()


def _columns(fr: Frames) -> list:
    """(name, array, encoding): encoding is '' (raw), 'delta' (wrapping running
    difference), 'xor' (rows XOR the previous row), each optionally '+planes'
    (bytes of each value split into planes)."""
    t, s, sp, ev = fr.tracks, fr.samples, fr.spells, fr.events
    cols = [("ticks", fr.ticks.astype("<i4"), "delta")]
    for name in ("id", "kind", "team", "sub", "lane", "seat", "first", "count"):
        cols.append((f"track.{name}", t[name].astype(t.dtype[name].newbyteorder("<")),
                     "delta" if name in ("id", "first") else ""))
    cols += [("sample.x", s["x"], "delta+planes"), ("sample.z", s["z"], "delta+planes"),
             ("sample.hp", s["hp"], "delta"), ("sample.flags", s["flags"], "planes"),
             ("sample.target", s["target"].astype("<i4"), "delta+planes")]
    if fr.heroes.size:
        for name in HERO_FRAME_FIELDS:
            cols.append((f"hero.{name}", np.ascontiguousarray(fr.heroes[name].T).astype("<i4"), "delta+planes"))
        for name in ("item", "item_count"):
            cols.append((f"hero.{name}", np.ascontiguousarray(fr.heroes[name].transpose(1, 2, 0)).astype("<i4"),
                         "delta+planes"))
    for name in FRAME_SPELL_DTYPE.names:
        cols.append((f"spell.{name}", sp[name].astype(sp.dtype[name].newbyteorder("<")),
                     "delta+planes" if name in ("frame", "caster") else "planes"))
    cols += [("fog.frames", fr.fog_frames.astype("<i4"), "delta"), ("fog.bits", fr.fog, "xor")]
    for name in FRAME_EVENT_DTYPE.names:
        cols.append((f"event.{name}", ev[name].astype(ev.dtype[name].newbyteorder("<")),
                     "delta" if name == "tick" else ""))
    return cols


def encode_payload(fr: Frames) -> dict:
    parts, columns, at = [], [], 0
    for name, array, encoding in _columns(fr):
        array = np.ascontiguousarray(array)
        if "delta" in encoding:
            data = _delta(array)
        elif "xor" in encoding:
            data = array.copy()
            if len(array) > 1:
                data[1:] = array[1:] ^ array[:-1]
        else:
            data = array
        raw = data.tobytes()
        if "planes" in encoding:
            raw = _planes(raw, array.dtype.itemsize)
        columns.append({"name": name, "dtype": array.dtype.str, "shape": list(array.shape), "encoding": encoding,
                        "offset": at, "size": len(raw)})
        parts.append(raw)
        at += len(raw)
    blob = zlib.compress(b"".join(parts), 6)
    meta = dict(fr.meta)
    meta.update({"format": PAYLOAD_FORMAT, "version": PAYLOAD_VERSION, "frames": fr.count,
                 "tracks": int(len(fr.tracks)), "samples": int(len(fr.samples)), "pos_scale": POS_SCALE,
                 "tile": TILE, "map_tiles": MAP_TILES, "ticks_per_second": TICKS_PER_SECOND,
                 "abilities": fr.abilities, "timeline": fr.timeline(), "flags": FLAG_NAMES,
                 "raw_bytes": at, "compressed_bytes": len(blob)})
    return {"meta": meta, "columns": columns, "data": base64.b64encode(blob).decode("ascii")}


def decode_payload(payload: dict) -> dict:
    """The columns of a payload as numpy arrays (what the JavaScript viewer decodes)."""
    if isinstance(payload, (str, bytes)):
        payload = json.loads(payload)
    raw = zlib.decompress(base64.b64decode(payload["data"]))
    out = {}
    for c in payload["columns"]:
        dtype = np.dtype(c["dtype"])
        data = raw[c["offset"]:c["offset"] + c["size"]]
        if "planes" in c["encoding"]:
            data = _unplanes(data, dtype.itemsize)
        a = np.frombuffer(data, dtype=dtype).reshape(c["shape"]).copy()
        if "delta" in c["encoding"]:
            a = _undelta(a.reshape(-1)).reshape(c["shape"])
        elif "xor" in c["encoding"] and len(a) > 1:
            a = np.bitwise_xor.accumulate(a, axis=0)
        out[c["name"]] = a
    return out


def map_payload() -> dict:
    """The static map for the viewer: tiles (material, level, region) as base64
    bytes, lane routes, camps (all JSON)."""
    from .map import camps, lane_route, map_tiles

    tiles = map_tiles()
    enc = lambda a: base64.b64encode(zlib.compress(np.ascontiguousarray(a).astype(np.uint8).tobytes(), 9)).decode()
    return {"tiles": MAP_TILES, "tile_world": TILE, "material": enc(tiles["material"]), "level": enc(tiles["level"].astype(np.int16) + 1),
            "region": enc(tiles["region"]), "walkable": enc(tiles["walkable"]),
            "lanes": [[[int(x), int(z)] for x, z in lane_route(i)] for i in range(3)],
            "camps": [[c.x, c.z, c.tier] for c in camps()]}


__all__ = ["Frames", "FrameRecorder", "record", "frame", "sample_ticks", "encode_payload", "decode_payload",
           "map_payload", "quantize", "world", "hp_fraction", "UNIT_DTYPE", "SPELL_DTYPE", "HERO_DTYPE"]
