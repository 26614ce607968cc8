"""The shared map: point symmetry, lanes, camps, and the PNG renderer."""
import os

import numpy as np
import pytest

from gota_arena import MAP_TILES, Match, Material
from gota_arena import map as gmap
from tests.conftest import ROOT


def test_tiles_are_symmetric_under_180_degree_rotation():
    tiles = gmap.map_tiles()
    assert tiles.shape == (MAP_TILES, MAP_TILES) and not tiles.flags.writeable
    for field in ("level", "material", "walkable"):
        assert np.array_equal(tiles[field], tiles[field][::-1, ::-1]), field
    assert set(np.unique(tiles["material"])) <= {int(m) for m in Material}
    assert tiles["walkable"].any() and not tiles["walkable"].all()


def test_three_lanes_mirror_each_other():
    routes = [gmap.lane_route(lane) for lane in range(3)]
    assert all(len(route) >= 2 for route in routes)
    # rotating the map maps each lane, walked from the other end, onto a lane
    rotated = [[(-x, -z) for x, z in reversed(route)] for route in routes]
    assert sorted(rotated) == sorted(routes)


def test_fourteen_camps_in_mirrored_pairs():
    camps = gmap.camps()
    assert len(camps) == 14
    spots = {(c.x, c.z, c.tier) for c in camps}
    assert all((-x, -z, tier) in spots for x, z, tier in spots)
    for c in camps:
        tx, tz = gmap.world_to_tile(c.x, c.z)
        assert 0 <= tx < MAP_TILES and 0 <= tz < MAP_TILES


def test_world_and_tile_coordinates_agree():
    for tx, tz in ((0, 0), (57, 58), (115, 115)):
        assert gmap.world_to_tile(*gmap.tile_centre(tx, tz)) == (tx, tz)


def _read_png(path) -> np.ndarray:
    """The pixels of a PNG file (8-bit RGB, as the renderer writes it)."""
    Image = pytest.importorskip("PIL.Image")
    with Image.open(path) as img:
        assert (img.format, img.mode) == ("PNG", "RGB")
        return np.asarray(img)


def test_renders_a_valid_png(tmp_path):
    path = tmp_path / "map.png"
    gmap.render_map_png(path, scale=2)
    pixels = _read_png(path)
    assert pixels.shape == (2 * MAP_TILES, 2 * MAP_TILES, 3)
    assert np.array_equal(pixels, gmap.render_image(scale=2)), "the file holds exactly the rendered picture"


def test_renders_a_match(tmp_path):
    with Match(seed=1) as m:
        m.step(1200)  # a few creep waves on the lanes
        plain = gmap.render_image(scale=6)
        drawn = gmap.render_image(m, scale=6)
        assert drawn.shape == plain.shape == (6 * MAP_TILES, 6 * MAP_TILES, 3)
        assert (drawn != plain).any(axis=2).sum() > 500
        gmap.render_map_png(tmp_path / "match.png", m)
    assert np.array_equal(_read_png(tmp_path / "match.png"), drawn)
    if os.environ.get("GOTA_WRITE_DOCS") == "1":  # refresh the picture in the docs
        with Match(seed=1) as m:
            m.step(1200)
            gmap.render_map_png(ROOT / "docs" / "map.png", m)


def test_team_frame_landmarks():
    """OWN_GOD, ENEMY_GOD and LANES are what a seat of either team observes (times 64)."""
    from gota_arena import Team
    from gota_arena.contract import LAYOUT

    assert gmap.OWN_GOD == (47.5, -47.5) and gmap.ENEMY_GOD == (-47.5, 47.5)
    self_block = LAYOUT["obs.self"]
    x_col = self_block.offset + self_block.features.index("x*s/64tiles")
    z_col = self_block.offset + self_block.features.index("z*s/64tiles")
    with Match(seed=3) as m:
        gods = {int(u["team"]): (int(u["x"]), int(u["z"])) for u in m.units_of(kind="god")}
        for team, other in ((Team.RED, Team.BLUE), (Team.BLUE, Team.RED)):
            assert gmap.to_team_frame(team, *gods[team]) == gmap.OWN_GOD
            assert gmap.to_team_frame(team, *gods[other]) == gmap.ENEMY_GOD
        m.run(max_ticks=48)
        for seat in (0, 7):
            unit = m.units[m.hero(seat).unit_index]
            team = Team.RED if seat < 5 else Team.BLUE
            x, z = gmap.to_team_frame(team, int(unit["x"]), int(unit["z"]))
            obs = m.observe(seat)
            assert np.allclose(obs[[x_col, z_col]] * 64, (x, z), atol=1e-4), seat
    # each team sees the lanes as LANES, from its own gate: world lane k for red, 2 - k for blue
    for k, lane in enumerate(gmap.LANES):
        assert lane[0][0] > 0 > lane[-1][0], "own gate first (red's side is +x)"
        assert lane == tuple(gmap.to_team_frame("red", x, z) for x, z in gmap.lane_route(k))
        assert lane == tuple(gmap.to_team_frame("blue", x, z) for x, z in reversed(gmap.lane_route(2 - k)))
    assert {"OWN_GOD", "ENEMY_GOD", "LANES"} <= set(dir(gmap))
