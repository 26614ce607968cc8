"""Frames for the viewer (gota_arena.frames, native/sim/frames.c): one tick's records
agree with the Match's own views; a replay's frames are what a live match shows;
the payload round-trips; a replay that does not match gives no frames."""
import numpy as np
import pytest

from gota_arena import frames as F
from gota_arena import replay as R
from gota_arena.constants import Kind, MAP_TILES
from gota_arena.errors import ReplayError
from gota_arena.replay import RecordingMatch
from gota_arena.sim import Match

BOTS = {"red": "puller", "blue": "baseline"}
TICKS = 2400


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A 2,400-tick bot match, recorded (with one external command), and the frames a
    live FrameRecorder took while it was played."""
    path = tmp_path_factory.mktemp("frames") / "bots.gotareplay"
    rec = F.FrameRecorder(fog_every=24)
    with RecordingMatch(seed=1, max_ticks=TICKS, bots={"red": "puller", 5: "baseline", 6: "baseline",
                                                         7: "baseline", 8: "baseline"}) as m:
        m.level(9, 1)
        m.attack_move(9, 0, 0)
        for tick in range(0, TICKS + 1, 12):
            if tick:
                m.step(12)
            rec.add(m, final=tick == TICKS)
        replay = m.replay()
    replay.save(path)
    return path, replay, rec.frames()


def test_frame_agrees_with_match_views():
    with Match(seed=4, bots=BOTS) as m:
        spells_seen = 0
        for _ in range(48):   # every 25 ticks: spells fly for a few dozen ticks at a time
            m.step(25)
            fr = F.frame(m)
            units = m.units
            live = units[units["kind"] != Kind.NONE]
            u = fr["units"]
            assert len(u) == len(live)
            for name in ("id", "x", "z", "hp", "max_hp", "target_id", "kind", "team", "sub", "lane"):
                assert np.array_equal(u[name], live[name]), name
            assert np.array_equal((u["flags"] & F.ALIVE) != 0, live["alive"] != 0)
            assert np.array_equal((u["flags"] & F.EXPOSED) != 0, live["exposed"] != 0)
            slots = np.flatnonzero(units["kind"] != Kind.NONE)
            assert np.array_equal(u["slot"], slots)
            for team, bit in (("red", F.SEEN_RED), ("blue", F.SEEN_BLUE)):
                seen = [m.visible(team, int(i)) for i in slots]
                assert np.array_equal((u["flags"] & bit) != 0, seen), team
                assert np.array_equal(fr["fog"][0 if team == "red" else 1], m.vision(team))
            for h in fr["heroes"]:
                info, stats = m.hero(int(h["seat"])), m.seat_stats(int(h["seat"]))
                assert (h["level"], h["gold"], h["mana"], h["kills"], h["deaths"]) == \
                    (info.level, info.gold, info.mana, stats.kills, stats.deaths)
                assert u["level"][u["seat"] == h["seat"]][0] == info.level
            warnings = m.spells()
            assert len(fr["spells"]) == len(warnings)
            for s, w in zip(fr["spells"], warnings):
                assert (s["caster_id"], s["x"], s["z"], s["aim_x"], s["impact_tick"], s["shape"], s["radius"]) == \
                    (w.caster_id, w.x, w.z, w.aim_x, w.impact_tick, w.shape, w.radius)
                assert s["seen"] & (1 << s["team"])
            spells_seen += len(warnings)
            assert fr["tick"] == m.tick
        assert spells_seen > 0


def test_replay_frames_equal_live_frames(recorded):
    path, replay, live = recorded
    fr = F.record(path, every=12)
    assert fr.count == live.count == TICKS // 12 + 1
    assert np.array_equal(fr.ticks, live.ticks)
    for name in ("tracks", "samples", "heroes", "spells", "fog_frames", "fog", "events"):
        assert np.array_equal(getattr(fr, name), getattr(live, name)), name
    assert fr.meta["final_hash"] == f"0x{replay.final_hash:016x}" and fr.meta["seed"] == 1
    assert fr.meta["bots"][9] == "external"


def test_tracks_and_lookups(recorded):
    _, _, fr = recorded
    t = fr.tracks
    assert (t["count"] > 0).all() and t["offset"][0] == 0
    assert np.array_equal(t["offset"][1:], np.cumsum(t["count"])[:-1])
    assert len(np.unique(t["id"])) == len(t)
    whole = np.isin(t["kind"], [Kind.HERO, Kind.GOD, Kind.TOWER, Kind.BARRACKS])
    assert (t["count"][whole] == fr.count).all() and whole.sum() == 10 + 36
    assert (t["kind"] == Kind.CREEP).sum() > 100
    # a frame's units: positions inside the map, heroes with their seats
    for f in (0, fr.count // 2, fr.count - 1):
        u = fr.units_at(f)
        assert (u["x"] <= MAP_TILES * F.POS_SCALE).all() and (u["z"] <= MAP_TILES * F.POS_SCALE).all()
        assert sorted(u["seat"][u["kind"] == Kind.HERO].tolist()) == list(range(10))
        mobile = ~np.isin(u["kind"], [Kind.HERO, Kind.GOD, Kind.TOWER, Kind.BARRACKS])
        assert (u["flags"][mobile] & F.ALIVE).all() and (u["hp"][mobile] > 0).all()
        fog = fr.fog_at(f)
        assert fog.shape == (2, MAP_TILES, MAP_TILES)
        assert f == 0 or fog[0].sum() > 500   # tick 0 is before the first vision phase
    assert fr.frame_of(0) == 0 and fr.frame_of(13) == 1 and fr.frame_of(10 ** 9) == fr.count - 1
    assert (fr.spells["caster"] >= 0).all() and len(fr.abilities) > 0
    for key, a in fr.abilities.items():
        assert int(key) == a["class"] * 4 + a["slot"] and a["name"]


def test_quantize_round_trip():
    xs = np.array([-F.HALF_WORLD, -1, 0, 1, 123_456, F.HALF_WORLD - 1])
    back = F.world(F.quantize(xs))
    assert (np.abs(back - xs) <= F.TILE // F.POS_SCALE).all()
    assert F.hp_fraction([0, 1, 50, 100], [100, 100, 100, 100]).tolist() == [0, 3, 128, 255]


def test_payload_round_trip(recorded):
    _, _, fr = recorded
    payload = fr.payload()
    cols = F.decode_payload(payload)
    assert np.array_equal(cols["ticks"], fr.ticks)
    for name in ("x", "z", "hp", "flags", "target"):
        assert np.array_equal(cols[f"sample.{name}"], fr.samples[name]), name
    for name in ("id", "first", "count", "kind", "seat"):
        assert np.array_equal(cols[f"track.{name}"], fr.tracks[name]), name
    assert np.array_equal(cols["hero.level"], fr.heroes["level"].T)
    assert np.array_equal(cols["hero.item"], fr.heroes["item"].transpose(1, 2, 0))
    assert np.array_equal(cols["fog.bits"], fr.fog)
    assert np.array_equal(cols["spell.dir"], fr.spells["dir"])
    assert np.array_equal(cols["event.tick"], fr.events["tick"])
    meta = payload["meta"]
    assert meta["frames"] == fr.count and meta["format"] == F.PAYLOAD_FORMAT
    assert meta["compressed_bytes"] < meta["raw_bytes"] / 5


def test_timeline_of_a_bot_match(recorded):
    _, _, fr = recorded
    line = fr.timeline()
    assert [e["tick"] for e in line] == sorted(e["tick"] for e in line)
    kinds = [e["type"] for e in line]
    if "kill" in kinds or "first_blood" in kinds:
        assert kinds[[k in ("kill", "first_blood") for k in kinds].index(True)] == "first_blood"
    assert all(e["label"] for e in line)


def test_sample_ticks():
    assert F.sample_ticks(30, every=12) == [0, 12, 24, 30]
    assert F.sample_ticks(100, every=12, start=5, end=40) == [5, 12, 24, 36, 40]
    assert F.sample_ticks(30, every=12, ticks=[7, 99]) == [0, 7, 12, 24, 30]
    with pytest.raises(ValueError):
        F.sample_ticks(30, every=0)
    with pytest.raises(ValueError):
        F.sample_ticks(30, start=40)


def test_segment_and_extra_ticks(recorded):
    path, _, _ = recorded
    fr = F.record(path, every=24, start=600, end=720, ticks=[601])
    assert fr.ticks.tolist() == [600, 601, 624, 648, 672, 696, 720]
    assert fr.fog_frames[0] == 0 and fr.fog_frames[-1] == fr.count - 1


def test_a_replay_that_does_not_match_gives_no_frames(recorded):
    _, replay, _ = recorded
    bad = R.Replay(**{**{f: getattr(replay, f) for f in ("config", "bots", "classes", "action_ticks", "actions",
                                                             "commands", "start_hash", "checkpoints", "final_tick",
                                                             "result", "winner", "source")},
                      "final_hash": replay.final_hash ^ 1})
    with pytest.raises(ReplayError, match="diverged"):
        F.record(bad, every=48)
    with pytest.raises(ReplayError, match="outside"):
        list(R.decisions(replay, stops=[TICKS + 5]))
