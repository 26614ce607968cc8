"""Replays of BASIC script seats (docs/replays.md): a replay file carries each
distinct script's source and SHA-256; it replays to the same hash, a changed
script is refused before anything plays, and frames and the viewer command work
with script seats (leaderboard games of script entrants:
test_leaderboard_replays.py)."""
import dataclasses
import hashlib
import io
import json
import struct

import numpy as np
import pytest

from gota_arena import frames as F
from gota_arena import replay as R
from gota_arena.arena import Arena
from gota_arena.basic import bundled_scripts, compile_file
from gota_arena.errors import ReplayError
from gota_arena.sim import Match
from gota_arena.viewer import cli

TICKS = 2400


@pytest.fixture(scope="module")
def scripted(tmp_path_factory):
    """base.bas (red) against rusher.bas (blue), both from the bundled plugin by
    name, plus a raw command on a script seat: saved and loaded back."""
    with R.RecordingMatch(seed=5, max_ticks=TICKS, scripts={"red": "base.bas", "blue": "rusher.bas"}) as m:
        m.step(300)
        m.level(2, 3)                 # a raw command on a script seat is recorded like any other
        m.run()
        live = m.replay()
        live.decisions_of_seat_7 = m.script_status(7).decisions
    path = live.save(tmp_path_factory.mktemp("scripts") / "bas.gotareplay")
    return live, R.load(path)


def test_script_match_round_trip(scripted):
    live, r = scripted
    sources = bundled_scripts()
    assert r.format_version == R.FORMAT_VERSION == 2
    assert r.bots == ("script",) * 10
    assert r.players == ("base.bas",) * 5 + ("rusher.bas",) * 5
    assert [s.name for s in r.scripts] == ["base.bas", "rusher.bas"]      # each distinct script once
    assert r.script_seats == (0,) * 5 + (1,) * 5
    for s in r.scripts:
        assert s.source == sources[s.name].read_bytes()
    assert r.final_tick == TICKS and r.final_hash == live.final_hash and len(r.commands) == 1
    assert R.verify(r) == r.final_hash
    with R.replay(r) as m:            # the seats really are played by the scripts again
        assert m.script_status(0).program == "base.bas" and m.script_status(7).program == "rusher.bas"
        assert m.script_status(7).decisions == live.decisions_of_seat_7 > TICKS


def test_a_changed_script_is_refused_before_anything_plays(scripted, tmp_path, monkeypatch):
    _, r = scripted
    base, rusher = r.scripts
    edited = dataclasses.replace(rusher, source=rusher.source.replace(b"mod 6 <> 0", b"mod 3 <> 0"))
    assert edited.source != rusher.source
    changed = dataclasses.replace(r, scripts=(base, edited), path=None)
    # in memory: refused by the replayer before a match is built
    built = []
    monkeypatch.setattr(Match, "from_config", classmethod(lambda cls, c: built.append(c)))
    with pytest.raises(ReplayError) as e:
        R.verify(changed)
    message = str(e.value)
    assert "'rusher.bas' (seats 5, 6, 7, 8, 9) was changed" in message and "Nothing was played" in message
    assert built == []
    monkeypatch.undo()
    # in a file whose own checksum is valid: refused by load
    path = changed.save(tmp_path / "changed.gotareplay")
    with pytest.raises(ReplayError, match=r"'rusher.bas' .* was changed: its source hashes to SHA-256") as e:
        R.load(path)
    assert str(path) in str(e.value)


def test_a_script_that_no_longer_compiles_is_refused(scripted):
    _, r = scripted
    base, rusher = r.scripts
    broken = dataclasses.replace(rusher, source=rusher.source + b"\nif 1 then\n")
    broken = dataclasses.replace(broken, sha256=hashlib.sha256(broken.source).hexdigest())
    with pytest.raises(ReplayError, match="'rusher.bas' does not compile in this build"):
        R.verify(dataclasses.replace(r, scripts=(base, broken), path=None))


def test_inconsistent_script_seats_are_refused(scripted, tmp_path):
    _, r = scripted
    for change, words in (({"script_seats": (0,) * 10}, "a recorded script plays no seat"),
                          ({"script_seats": (0,) * 9 + (2,)}, "script index 2"),
                          ({"bots": ("base",) + ("script",) * 9}, "seat 0 is played by 'base'")):
        with pytest.raises(ReplayError, match=words):
            dataclasses.replace(r, **change).save(tmp_path / "bad.gotareplay")


def test_format_version_1_files_still_load(tmp_path):
    """A file written before scripts were recorded (format 1: no script fields,
    no sources in the payload) loads and replays."""
    with R.RecordingMatch(seed=2, max_ticks=480, bots={"red": "base", "blue": "rusher"}) as m:
        m.run()
        r = m.replay()
    data = r.to_bytes()
    header_size = struct.unpack_from("<I", data, 12)[0]
    header = json.loads(data[56:56 + header_size])
    assert header.pop("scripts") == [] and header.pop("script_seats") == []
    header["version"] = 1
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    payload = data[56 + header_size:]
    old = (b"GOTAREPL" + struct.pack("<I", 1) + struct.pack("<IQ32s", len(text), len(payload),
                                                             hashlib.sha256(text + payload).digest()) + text + payload)
    (tmp_path / "v1.gotareplay").write_bytes(old)
    loaded = R.load(tmp_path / "v1.gotareplay")
    assert loaded.format_version == 1 and loaded.scripts == () and loaded.players == r.bots
    assert R.verify(loaded) == r.final_hash


def test_frames_of_a_script_replay(scripted):
    _, r = scripted
    fr = F.record(r, every=240)
    assert fr.count == 11 and np.array_equal(fr.ticks, np.arange(0, TICKS + 1, 240))
    assert fr.meta["bots"] == list(r.players)


def test_arena_lanes_against_scripts_are_recorded():
    """Lanes whose opponent (and, for evaluation, learner team) is a script."""
    base = compile_file(bundled_scripts()["base.bas"])
    rusher = compile_file(bundled_scripts()["rusher.bas"])
    rng = np.random.default_rng(4)
    with Arena(lanes=2, action_ticks=6, threads=1, max_ticks=480, seed=7) as a:
        a.set_opponent_script(0, rusher)
        a.set_opponent_script(1, rusher)
        a.set_learner_script(1, base)
        rec = R.ArenaRecorder(a, lanes=[0, 1])
        rec.reset(0)
        for _ in range(480 // 6 + 1):
            rec.step((rng.integers(0, 1 << 30, size=(a.agents, 5)) % [8, 25, 49, 4, 6]).astype(np.int32))
    assert len(rec.replays) == 2
    by_lane = {r.source["lane"]: r for r in rec.replays}
    agents, scripted = by_lane[0], by_lane[1]
    assert agents.source["opponent"] == "rusher.bas" and len(agents.actions) > 0
    assert sorted(set(agents.players)) == ["external", "rusher.bas"]
    assert sorted(set(scripted.players)) == ["base.bas", "rusher.bas"] and len(scripted.actions) == 0
    for r in rec.replays:
        assert R.verify(R.Replay.from_bytes(r.to_bytes())) == r.final_hash


def test_viewer_command_records_and_shows_scripts(tmp_path):
    out = io.StringIO()
    code = cli.replay_command(["--record", "--seed", "3", "--bots", "red=base.bas,blue=rusher", "--ticks", "600",
                               "--out", str(tmp_path / "s.gotareplay"), "--html"], stdout=out)
    assert code == 0, out.getvalue()
    r = R.load(tmp_path / "s.gotareplay")
    assert r.players == ("base.bas",) * 5 + ("rusher",) * 5
    page = (tmp_path / "s.html").read_text()
    assert "base.bas (red) vs rusher (blue)" in page
