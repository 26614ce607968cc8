"""The Python face of one match: views, filters, events, vision, paths."""
import gc
import subprocess
import sys

import numpy as np
import pytest

from gota_arena import Kind, Match, MatchConfig, Team
from gota_arena import map as gmap
from gota_arena.errors import ClosedMatchError


def test_config_round_trip():
    with Match(seed=9, max_ticks=100) as m:
        assert m.config == MatchConfig(seed=9, max_ticks=100)
        info = m.info
        assert (info.seed, info.max_ticks, info.tick, info.result, info.winner) == (9, 100, 0, "running", None)
        assert m.run() == 100 and m.over and m.info.result == "timeout"


def test_units_view_is_live_and_read_only():
    with Match(seed=1) as m:
        units = m.units
        assert not units.flags.writeable
        assert len(units) == m.info.unit_count
        m.step(1)
        fresh = m.units
        assert fresh.__array_interface__["data"][0] == units.__array_interface__["data"][0]


def test_units_view_keeps_its_match_alive():
    units = Match(seed=1).units  # the Match itself is dropped at once
    gc.collect()
    assert (units["kind"] == Kind.GOD).sum() == 2


def test_filters_copy():
    with Match(seed=1) as m:
        towers = m.units_of(kind="tower", team=Team.RED, alive=True)
        assert len(towers) > 0 and towers.flags.writeable
        assert set(towers["kind"]) == {Kind.TOWER} and set(towers["team"]) == {Team.RED}
        structures = m.structures()
        assert set(structures["kind"]) == {Kind.GOD, Kind.TOWER, Kind.BARRACKS}
        assert len(m.units_of(kind=("god", "barracks"))) == len(m.units_of(kind=Kind.GOD)) + len(m.units_of(kind=5))


def test_events_and_cursor():
    with Match(seed=1) as m:
        m.step(600)
        first = m.new_events()
        assert first and m.new_events() == []
        assert {e.type for e in first} >= {"spawn", "wave"}
        assert m.events() == first
        m.step(600)
        later = m.new_events()
        assert later and later[0].tick > 600 - 1
        m.reset(1)
        assert m.new_events() == m.events()


def test_reset_replays_the_same_match():
    with Match(seed=4) as m:
        m.step(500)
        h = m.hash()
        m.reset(4)
        assert m.tick == 0
        m.step(500)
        assert m.hash() == h
        m.reset()  # same seed by default
        assert m.info.seed == 4


def test_vision_walkable_and_paths():
    with Match(seed=1) as m:
        m.step(48)
        for team in (Team.RED, Team.BLUE):
            seen = m.vision(team)
            assert seen.shape == (116, 116) and seen.dtype == np.uint8 and 0 < seen.sum() < seen.size
        walk = m.walkable()
        assert walk.sum() <= gmap.map_tiles()["walkable"].sum()
        lane = gmap.lane_route(1)
        path = m.find_path(lane[0], lane[-1])
        assert path and gmap.world_to_tile(*path[-1]) == gmap.world_to_tile(*lane[-1])
        bent = m.find_path(lane[0], gmap.lane_route(0)[-1])  # to the far end of another lane
        assert len(bent) >= 2
        assert isinstance(m.visible(0, 0), bool)


def test_set_hp():
    with Match(seed=1) as m:
        tower = int(np.flatnonzero(m.units["kind"] == Kind.TOWER)[0])
        m.set_hp(tower, 7)
        assert m.units[tower]["hp"] == 7
        m.set_hp(tower, 10**9)
        assert m.units[tower]["hp"] == m.units[tower]["max_hp"]


def test_units_view_outlives_close():
    """A zero-copy view stays readable after its Match is closed (it keeps the native
    match alive); before, reading it after close() read freed memory and crashed."""
    code = ("from gota_arena import Match\n"
            "with Match(seed=2) as m:\n    m.step(48)\n    v = m.units\n    hp = int(v['hp'].sum())\n"
            "import gc; gc.collect()\n"
            "assert int(v['hp'].sum()) == hp, 'the view changed after close'\n"
            "m2 = Match(seed=3); w = m2.units; m2.close(); del m2; gc.collect(); print(int(w['hp'].sum()) > 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "True", out.stderr
    m = Match(seed=4)
    m.close()
    gc.collect()
    with pytest.raises(ClosedMatchError):
        m.units


@pytest.mark.parametrize("big", [2 ** 32 + 1, 2 ** 40, -2 ** 31 - 1])
def test_act_refuses_heads_beyond_int32(big):
    """They used to wrap: 2**32 + 1 ran as a walk and answered OK."""
    from gota_arena.errors import ArgumentRangeError
    with Match(seed=2) as m:
        before = m.hash()
        with pytest.raises(ArgumentRangeError, match="does not fit a 32-bit head"):
            m.act(0, [big, 0, 1, 0, 0])
        assert m.hash() == before


def test_lost_events_are_said_and_a_bad_point_is_named():
    from gota_arena.errors import ArgumentTypeError
    with Match(seed=1) as m:
        m.step(28_000)
        with pytest.warns(UserWarning, match="events were dropped"):
            m.events()
        with pytest.raises(ArgumentTypeError, match=r"cast\(point=\(0,\)\): point must be a pair"):
            m.cast(0, slot=1, point=(0,))


def test_vision_suggests_only_the_teams_it_takes():
    from gota_arena.errors import ArgumentRangeError
    with Match(seed=1) as m:
        for team in ("green", "neutral"):
            with pytest.raises(ArgumentRangeError, match="use one of red, blue$"):
                m.vision(team)
        assert m.vision("Blue").shape == m.vision(0).shape
