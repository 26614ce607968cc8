"""Heroes of a match: commands, hero details, per-seat stats, spell warnings, scores.

``HeroControls`` is mixed into ``Match``; every method maps one C call of gota.h.
A command is always answered: ``Match.command`` returns the game's ``ActionError``
(``ActionError.OK`` when accepted), exactly as a native bot or a BASIC script gets
it; only calls that make no sense at all (a seat outside 0..9, a closed match)
raise.

    with Match(seed=3) as m:
        m.level(0, slot=1)                        # learn the W ability of seat 0
        m.step(24)
        answer = m.cast(0, slot=1, target=enemy_id)
        print(answer.name, m.hero(0).mana, m.seat_stats(0).xp)
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Optional

from ._native import ffi, lib
from .constants import SEATS, ActionError, Team, Verb
from .contract import SEAT_RANGES
from .errors import ArgumentRangeError, ArgumentTypeError, check



def class_name(hero_class: int) -> str:
    """The name of hero class 0..9."""
    name = lib.gota_class_name(_int(hero_class, "hero class"))
    if name == ffi.NULL:
        raise ArgumentRangeError(f"hero class {hero_class!r} does not exist; classes are 0..9")
    return ffi.string(name).decode()


def item_name(item: int) -> str:
    """The name of shop item 1..22."""
    name = lib.gota_item_name(_int(item, "item"))
    if name == ffi.NULL:
        raise ArgumentRangeError(f"item {item!r} does not exist; items are 1..22")
    return ffi.string(name).decode()


def ability_name(hero_class: int, slot: int) -> str:
    """The name of ability ``slot`` (0..3 = Q, W, E, R) of a hero class."""
    name = lib.gota_ability_name(_int(hero_class, "hero class"), _int(slot, "slot"))
    if name == ffi.NULL:
        raise ArgumentRangeError(f"no ability {slot!r} of class {hero_class!r}; classes 0..9, slots 0..3")
    return ffi.string(name).decode()


def _record(cls, cdata):
    """A frozen dataclass from a C struct of the same field names (arrays become tuples)."""
    values = {}
    for f in fields(cls):
        value = getattr(cdata, f.name)
        values[f.name] = tuple(value) if isinstance(value, ffi.CData) else value
    return cls(**values)


def _point(point, what: str) -> tuple:
    """``point`` as (x, z); ArgumentTypeError naming the call for anything else."""
    try:
        x, z = point
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"{what}(point={point!r}): point must be a pair (x, z) of world coordinates") from None
    return x, z


@dataclass(frozen=True)
class SeatStats:
    """Per-seat statistics since reset (GotaSeatStats)."""

    score: int
    outcome: int
    xp: int
    gold_earned: int
    kills: int
    assists: int
    deaths: int
    last_hits: int
    neutral_kills: int
    tower_damage: int
    structure_kills: int
    hero_damage: int
    damage_taken: int
    push_depth: int
    god_damage: int
    level: int
    gold: int
    team: int
    hero_class: int
    alive: int
    commands: int
    invalid_actions: int
    script_errors: int       # BASIC runtime errors (each disables the seat's script; docs/basic.md)
    healing: int             # HP its heal abilities restored to its team's heroes (a reward signal, not hashed)


@dataclass(frozen=True)
class HeroInfo:
    """A hero's details beyond its unit row (GotaHero)."""

    seat: int
    unit_index: int
    hero_class: int
    level: int
    xp: int
    gold: int
    mana: int
    max_mana: int
    points: int
    rank: tuple
    charges: tuple
    cooldown: tuple
    recharge: tuple
    item: tuple
    item_count: tuple
    hp_item_cooldown: int
    mana_item_cooldown: int
    portal_cooldown: int
    channel: int
    stun: int
    root: int
    silence: int
    deaths: int
    respawn_ticks: int
    buyback_price: int
    last_error: int
    order: int
    order_x: int
    order_z: int
    move_speed: int
    attack_period: int


@dataclass(frozen=True)
class SpellWarning:
    """A pending spell as a team sees it (GotaSpell); caster_id is -1 when hidden."""

    caster_id: int
    team: int
    hero_class: int
    ability: int
    x: int
    z: int
    aim_x: int
    aim_z: int
    dir_x: int          # forward axis, Q16
    dir_z: int
    impact_tick: int
    shape: int
    radius: int
    inner: int
    width: int
    angle: int
    harmful: int


def _int(value, what: str) -> int:
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ArgumentTypeError(f"{what} must be an integer, got {type(value).__name__} {value!r}")
    value = int(value)
    if not -(2**31) <= value < 2**31:
        raise ArgumentRangeError(f"{what}={value} does not fit a 32-bit integer")
    return value


def _team(team, what: str) -> int:
    """A team as its int: a name ('red', 'blue') or a number (the C call checks its range)."""
    if isinstance(team, str):
        member = Team.__members__.get(team.strip().upper())
        if member is None:
            raise ArgumentRangeError(f"{what}: unknown team {team!r}; teams are red and blue")
        return int(member)
    return _int(team, "team")


def _seat(seat) -> int:
    seat = _int(seat, "seat")
    if not 0 <= seat < SEATS:
        raise ArgumentRangeError(f"seat {seat} does not exist; seats are {SEAT_RANGES}")
    return seat


class HeroControls:
    """Hero methods of Match (needs ``self._handle(what)``)."""

    def _seat_call(self, what: str, seat):
        ptr = self._handle(what)
        seat = _seat(seat)
        if not self.config.heroes:
            raise ArgumentRangeError(f"{what}: this match has no heroes; create it with heroes=1")
        return ptr, seat

    # ---- commands ---------------------------------------------------------------
    def command(self, seat, verb, target: int = 0, x: int = 0, z: int = 0, slot: int = 0,
                item: int = 0) -> ActionError:
        """Issue one command for a seat's hero now; returns the game's answer."""
        what = f"command(seat={seat!r}, verb={verb!r})"
        ptr = self._handle(what)
        seat = _seat(seat)
        if isinstance(verb, str):
            try:
                verb = Verb[verb.upper()]
            except KeyError:
                names = ", ".join(v.name.lower() for v in Verb)
                raise ArgumentRangeError(f"{what}: unknown verb; use one of {names}") from None
        cmd = ffi.new("GotaCommand *", {
            "verb": _int(verb, "verb"), "target": _int(target, "target"), "x": _int(x, "x"),
            "z": _int(z, "z"), "slot": _int(slot, "slot"), "item": _int(item, "item")})
        answer = ffi.new("int32_t *")
        check(lib.gota_match_command(ptr, seat, cmd, answer), what)
        return ActionError(answer[0])

    def stop(self, seat) -> ActionError:
        return self.command(seat, Verb.STOP)

    def walk(self, seat, x: int, z: int) -> ActionError:
        return self.command(seat, Verb.WALK, x=x, z=z)

    def attack_move(self, seat, x: int, z: int) -> ActionError:
        return self.command(seat, Verb.ATTACK_MOVE, x=x, z=z)

    def attack(self, seat, target_id: int) -> ActionError:
        """Attack the unit with id ``target_id`` (0 clears the target)."""
        return self.command(seat, Verb.ATTACK, target=target_id)

    def cast(self, seat, slot: int, target: Optional[int] = None, point=None) -> ActionError:
        """Cast ability ``slot`` at unit id ``target`` or at ``point`` = (x, z)."""
        if (target is None) == (point is None):
            raise ArgumentTypeError("cast() needs exactly one of target=<unit id> or point=(x, z)")
        if target is not None:
            return self.command(seat, Verb.CAST_TARGET, target=target, slot=slot)
        x, z = _point(point, "cast")
        return self.command(seat, Verb.CAST_POINT, x=x, z=z, slot=slot)

    def use_item(self, seat, slot: int, point=None) -> ActionError:
        """Use inventory ``slot`` (0..5), at ``point`` = (x, z) for the portal scroll."""
        if point is None:
            return self.command(seat, Verb.USE_ITEM, slot=slot)
        x, z = _point(point, "use_item")
        return self.command(seat, Verb.USE_ITEM_AT, x=x, z=z, slot=slot)

    def buy(self, seat, item: int) -> ActionError:
        return self.command(seat, Verb.BUY, item=item)

    def level(self, seat, slot: int) -> ActionError:
        """Spend an ability point on ability ``slot`` (0..3)."""
        return self.command(seat, Verb.LEVEL, slot=slot)

    def buyback(self, seat) -> ActionError:
        return self.command(seat, Verb.BUYBACK)

    # ---- views ------------------------------------------------------------------
    def hero(self, seat) -> HeroInfo:
        what = f"hero({seat!r})"
        ptr, seat = self._seat_call(what, seat)
        out = ffi.new("GotaHero *")
        check(lib.gota_match_hero(ptr, seat, out), what)
        return _record(HeroInfo, out)

    def seat_stats(self, seat) -> SeatStats:
        what = f"seat_stats({seat!r})"
        ptr, seat = self._seat_call(what, seat)
        out = ffi.new("GotaSeatStats *")
        check(lib.gota_match_seat_stats(ptr, seat, out), what)
        return _record(SeatStats, out)

    def spells(self, team=None) -> list:
        """Pending spells ``team`` can see ('red', 'blue'), or all with None."""
        what = f"spells(team={team!r})"
        ptr = self._handle(what)
        t = -1 if team is None else _team(team, what)
        cap = 512
        out = ffi.new("GotaSpell[]", cap)
        count = ffi.new("int32_t *")
        check(lib.gota_match_spells(ptr, int(t), out, cap, count), what, "team is red, blue or None")
        return [_record(SpellWarning, out[i]) for i in range(count[0])]

    def team_score(self, team) -> tuple:
        """(score, glory) of a team, as docs/rules.md section 8 defines them."""
        what = f"team_score({team!r})"
        ptr = self._handle(what)
        t = _team(team, what)
        score, glory = ffi.new("int64_t *"), ffi.new("int64_t *")
        check(lib.gota_match_team_score(ptr, int(t), score, glory), what, "team is red or blue")
        return int(score[0]), int(glory[0])
