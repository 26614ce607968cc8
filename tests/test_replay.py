"""Replay files (gota_arena.replay, docs/replays.md): record, save, load, replay to
the same hash; damaged, edited and foreign files are refused clearly and nothing
is half-played."""
import dataclasses
import os
import struct

import numpy as np
import pytest

from gota_arena.arena import Arena
from gota_arena.contract import INFO
from gota_arena.errors import GotaError, ReplayError
from gota_arena import replay as R

SIZES = np.array([8, 25, 49, 4, 6])
MAX_TICKS = 480


def random_actions(rng, agents):
    return (rng.integers(0, 1 << 30, size=(agents, 5)) % SIZES).astype(np.int32)


def record(arena, lanes, steps, rng, directory=None, **kw):
    """Step the arena through a recorder; returns the recorder and, per lane, the
    (tick, hash) of every decision the arena made (for an independent check)."""
    rec = R.ArenaRecorder(arena, lanes=lanes, directory=directory, **kw)
    seen = {i: {} for i in lanes}
    for _ in range(steps):
        for i in lanes:
            lane = arena.lane(i)
            seen[i][(lane["seed"], lane["tick"])] = arena.lane_hash(i)
        rec.step(random_actions(rng, arena.agents))
    return rec, seen


def check_against_lane(r, seen):
    """Every decision of the replay hashes as the arena's lane did at that tick."""
    compared = 0
    for d in R.decisions(r):
        want = seen.get((r.seed, d.tick))
        if want is not None and not d.final:
            assert d.match.hash() == want, f"seed {r.seed} tick {d.tick}"
            compared += 1
    assert compared == len(range(0, r.final_tick, r.action_ticks))


@pytest.fixture(scope="module")
def self_play(tmp_path_factory):
    """Two self-play lanes, action_ticks 6, random actions, each lane finishing
    and restarting twice."""
    directory = tmp_path_factory.mktemp("replays")
    rng = np.random.default_rng(11)
    with Arena(lanes=2, action_ticks=6, self_play=True, threads=1, max_ticks=MAX_TICKS, seed=3) as a:
        rec, seen = record(a, [0, 1], 2 * MAX_TICKS // 6 + 3, rng, directory=directory)
    return rec, seen, directory


@pytest.fixture(scope="module")
def small(self_play):
    return self_play[0].replays[0]


def test_self_play_round_trip(self_play):
    rec, seen, directory = self_play
    assert sorted(r.seed for r in rec.replays) == [6, 7, 8, 9]   # seed 3 * 2 lanes + lane, then + lanes
    assert sorted(p.name for p in directory.iterdir()) == [f"seed{s:010d}.gotareplay" for s in (6, 7, 8, 9)]
    for r in rec.replays:
        assert r.final_tick == MAX_TICKS and r.result == "timeout" and r.action_ticks == 6
        assert r.bots == ("external",) * 10 and len(r.classes) == 10
        assert r.source["kind"] == "arena" and r.source["self_play"] is True
        assert len(r.actions) > 300 and (r.actions["heads"][:, 0] != 0).all()   # noops are not stored
        loaded = R.load(r.path)
        assert loaded.final_hash == r.final_hash and loaded.start_hash == r.start_hash
        assert loaded.actions.tobytes() == r.actions.tobytes() and loaded.config == r.config
        assert loaded.checkpoints == r.checkpoints
        assert R.verify(loaded) == r.final_hash
        check_against_lane(loaded, seen[r.source["lane"]])
    assert not [p for p in directory.iterdir() if p.name.startswith(".")]   # no temporary files left


@pytest.mark.parametrize("action_ticks", [4, 7])
def test_against_bots_round_trip(action_ticks):
    rng = np.random.default_rng(action_ticks)
    with Arena(lanes=2, action_ticks=action_ticks, self_play=False, threads=1, opponents=("base", "puller"),
               max_ticks=MAX_TICKS, seed=1) as a:
        steps = -(-MAX_TICKS // action_ticks) + 2
        rec, seen = record(a, [0, 1], steps, rng)
    assert len(rec.replays) == 2
    for r in rec.replays:
        learner = r.source["learner_team"]
        bots = set(r.bots[5:] if learner == "red" else r.bots[:5])
        assert bots == {r.source["opponent"]} and r.source["opponent"] in ("base", "puller")
        assert (r.actions["seat"] // 5 == (0 if learner == "red" else 1)).all()
        data = r.to_bytes()
        again = R.Replay.from_bytes(data)
        assert R.verify(again) == r.final_hash
        check_against_lane(again, seen[r.source["lane"]])


def test_self_play_lane_against_a_bot():
    """set_opponent: the other team's rows become a bot's; their actions are ignored."""
    rng = np.random.default_rng(5)
    with Arena(lanes=1, action_ticks=8, self_play=True, threads=1, max_ticks=240, seed=0) as a:
        a.set_opponent(0, "rusher")
        rec = R.ArenaRecorder(a, lanes=0)
        for _ in range(30 + 30 + 2):   # the first episode (external), then one against the rusher
            rec.step(random_actions(rng, a.agents))
    first, second = rec.replays[:2]
    assert first.bots == ("external",) * 10
    assert second.source["opponent"] == "rusher" and set(second.bots) == {"external", "rusher"}
    mine = [s for s in range(10) if second.bots[s] == "external"]
    assert set(second.actions["seat"].tolist()) <= set(mine)
    for r in (first, second):
        assert R.verify(r) == r.final_hash


def test_dead_heroes_are_skipped_as_the_batch_does():
    """Rows of dead heroes are not applied by the batch and not recorded: the
    records are exactly the non-noop rows whose observation says alive."""
    rng = np.random.default_rng(11)
    with Arena(lanes=1, action_ticks=8, self_play=False, threads=1, opponents=("rusher",), max_ticks=7200) as a:
        rec = R.ArenaRecorder(a, lanes=0)
        applied = skipped = 0
        while not rec.replays:
            actions = random_actions(rng, a.agents)
            alive = a.obs[:, 0] == 1.0           # self feature 0: the hero is alive
            live = actions[:, 0] != 0
            applied += int((live & alive).sum())
            skipped += int((live & ~alive).sum())
            rec.step(actions)
    r = rec.replays[0]
    assert skipped > 0 and len(r.actions) == applied
    assert R.verify(r) == r.final_hash


def test_recording_match_round_trip(tmp_path):
    rng = np.random.default_rng(2)
    with R.RecordingMatch(seed=4, max_ticks=900, bots={"blue": "baseline"}, checkpoint_ticks=100) as m:
        for slot in (3, 1):
            m.level(0, slot)
        m.attack_move(1, 0, 0)
        m.act(2, [0, 3, 3, 0, 0])                   # a noop: not stored
        m.act(3, [1, 0, 99, 0, 0])                  # a point head out of range: stored as 255, invalid
        while m.tick < 600:
            for seat in range(5):
                m.act(seat, random_actions(rng, 1)[0])
            m.step(int(rng.integers(1, 30)))
        m.set_hp(m.hero(0).unit_index, 50)
        m.buy(4, 1)
        m.step(13)
        r = m.replay()
        final = m.hash()
    assert r.final_hash == final and r.action_ticks == 0 and len(r.commands) >= 5
    assert r.bots[5:] == ("baseline",) * 5 and len(r.checkpoints) >= 6
    assert (r.actions["heads"] == R.OUT_OF_RANGE).any()
    path = r.save(tmp_path / "m.gotareplay")
    loaded = R.load(path)
    assert loaded.commands.tobytes() == r.commands.tobytes()
    with R.replay(loaded) as again:
        assert again.hash() == final and again.tick == r.final_tick


def test_recording_match_reset_starts_over():
    with R.RecordingMatch(seed=1, max_ticks=300) as m:
        m.act(0, [1, 0, 5, 0, 0])
        m.step(50)
        m.reset(9)
        m.act(1, [2, 0, 7, 0, 0])
        m.step(20)
        r = m.replay()
        assert r.seed == 9 and len(r.actions) == 1 and R.verify(r) == m.hash()


def test_play_and_decisions(small):
    ticks, finals = [], []

    def on_decision(d):
        ticks.append(d.tick)
        finals.append(d.final)
        assert d.match.tick == d.tick

    with R.play(small, on_decision) as m:
        assert m.hash() == small.final_hash
    assert ticks == list(range(0, small.final_tick, small.action_ticks)) + [small.final_tick]
    assert finals[-1] and not any(finals[:-1])


# ---- refused files ---------------------------------------------------------------
def write_edited(r, tmp_path, name="edited.gotareplay", **changes):
    """A well-formed file (valid checksum) whose content was changed."""
    edited = dataclasses.replace(r, **changes)
    return edited.save(tmp_path / name)


def refused_load(path, *words):
    with pytest.raises(ReplayError) as e:
        R.load(path)
    message = str(e.value)
    assert str(path) in message
    for w in words:
        assert w in message, message
    return message


def test_damaged_files_are_refused(small, tmp_path):
    data = bytearray(open(small.path, "rb").read())
    header_size = struct.unpack_from("<I", data, 12)[0]
    prefix = 12 + 4 + 8 + 32

    flipped = bytearray(data)
    flipped[-5] ^= 0x40                                 # a byte of the action records
    (tmp_path / "flip").write_bytes(flipped)
    refused_load(tmp_path / "flip", "damaged or edited", "SHA-256")

    header = data[prefix:prefix + header_size].decode()
    seed = f'"seed":{small.seed}'
    assert seed in header
    other = header.replace(seed, f'"seed":{small.seed + 100}', 1)
    edited = data[:prefix] + other.encode() + data[prefix + header_size:]
    edited[12:16] = struct.pack("<I", len(other.encode()))
    (tmp_path / "seed").write_bytes(edited)
    refused_load(tmp_path / "seed", "damaged or edited")

    (tmp_path / "short").write_bytes(data[:-100])
    refused_load(tmp_path / "short", "truncated")
    (tmp_path / "tiny").write_bytes(data[:10])
    refused_load(tmp_path / "tiny")
    (tmp_path / "long").write_bytes(data + b"\0")
    refused_load(tmp_path / "long", "trailing bytes")

    version = bytearray(data)
    version[8:12] = struct.pack("<I", R.FORMAT_VERSION + 1)
    (tmp_path / "version").write_bytes(version)
    refused_load(tmp_path / "version", f"format version {R.FORMAT_VERSION + 1}", "newer gota_arena")

    (tmp_path / "other").write_bytes(b"PK\x03\x04" + bytes(data[4:]))
    refused_load(tmp_path / "other", "not a gota replay file")
    with pytest.raises(ReplayError, match="cannot be read"):
        R.load(tmp_path / "missing.gotareplay")


def test_other_contract_is_refused(small, tmp_path):
    path = write_edited(small, tmp_path, contract_hash=INFO.hash ^ 1)
    refused_load(path, "contract", "decode differently")
    inspected = R.load(path, check_contract=False)      # readable for inspection, not replayable
    with pytest.raises(ReplayError, match="contract"):
        R.verify(inspected)


def nothing_played(r, *words, check_rules=True):
    """The replay is refused by replay() and by play(): the callback never runs."""
    calls = []
    with pytest.raises(ReplayError) as e:
        R.play(r, calls.append, check_rules=check_rules)
    assert calls == []
    message = str(e.value)
    for w in words:
        assert w in message, message
    with pytest.raises(ReplayError):
        R.replay(r, check_rules=check_rules)
    return message


def test_edited_config_is_refused_before_playing(small, tmp_path):
    for change in ({"seed": small.seed + 1}, {"max_ticks": MAX_TICKS + 24}, {"wave_interval": 240}):
        path = write_edited(small, tmp_path, config={**small.config, **change})
        message = nothing_played(R.load(path), "Nothing was played")
        assert str(path) in message
        assert "tick 0" in message or "draft differs" in message
    path = write_edited(small, tmp_path, classes=tuple(reversed(small.classes)))
    nothing_played(R.load(path), "draft differs")
    path = write_edited(small, tmp_path, bots=("external",) * 9 + ("wizard",))
    nothing_played(R.load(path), "'wizard'", "Nothing was played")
    path = write_edited(small, tmp_path, config={**small.config, "fog": 1})
    nothing_played(R.load(path), "fog", "unknown")


def test_edited_actions_diverge_and_are_refused(small, tmp_path):
    actions = small.actions.copy()
    k = len(actions) // 2
    actions["heads"][k, 2] = (actions["heads"][k, 2] + 17) % 49      # another point for one walk/cast
    actions["heads"][k, 0] = 1                                        # make it a walk: it matters
    path = write_edited(small, tmp_path, actions=actions)
    message = nothing_played(R.load(path), "diverged", "still matched at tick")
    assert str(path) in message
    # a decision that was never played at all: the hash at the end differs
    fewer = write_edited(small, tmp_path, "fewer.gotareplay", actions=small.actions[:-40])
    nothing_played(R.load(fewer), "diverged")


def test_other_rules_are_refused(small, tmp_path):
    path = write_edited(small, tmp_path, rules={"sim": "0x0000000000000001", "bots": "0x0000000000000002"})
    r = R.load(path)
    nothing_played(r, "rules changed", "check_rules=False")
    assert R.verify(r, check_rules=False) == small.final_hash   # the hashes still decide


def test_inconsistent_records_are_refused(small, tmp_path):
    late = small.actions.copy()
    late["tick"][-1] = small.final_tick + 6
    with pytest.raises(ReplayError, match="after the final tick"):
        write_edited(small, tmp_path, actions=late)
    off = small.actions.copy()
    off["tick"][len(off) // 2] += 1
    with pytest.raises(ReplayError, match="decision grid|backwards"):
        write_edited(small, tmp_path, actions=off)


# ---- the recorder ------------------------------------------------------------------
def test_recorder_refuses_a_wrong_config():
    with Arena(lanes=1, threads=1, max_ticks=MAX_TICKS) as a:
        with pytest.raises(ReplayError, match="match_config"):
            R.ArenaRecorder(a, lanes=0, match_config={"max_ticks": MAX_TICKS + 1})
        with pytest.raises(ReplayError, match="lane 3 does not exist"):
            R.ArenaRecorder(a, lanes=3)


def test_recorder_drops_an_episode_it_did_not_see(recwarn):
    rng = np.random.default_rng(0)
    with Arena(lanes=1, action_ticks=8, threads=1, max_ticks=160) as a:
        rec = R.ArenaRecorder(a, lanes=0)
        rec.step(random_actions(rng, a.agents))
        a.step(random_actions(rng, a.agents))           # behind the recorder's back
        for _ in range(45):
            rec.step(random_actions(rng, a.agents))
    assert any("dropped the episode" in str(w.message) for w in recwarn.list)
    assert [r.seed for r in rec.replays] == [1]         # the next episode is recorded whole
    assert R.verify(rec.replays[0]) == rec.replays[0].final_hash


@pytest.mark.parametrize("on_error", ["raise", "warn"])
def test_recorder_check_failure(on_error, recwarn):
    """An episode whose replay does not reproduce the lane (here: a checkpoint
    spoiled in memory) is never written; the recorder goes on with the next one."""
    rng = np.random.default_rng(4)
    with Arena(lanes=2, action_ticks=8, threads=1, max_ticks=160) as a:
        rec = R.ArenaRecorder(a, lanes=[0, 1], checkpoint_ticks=0, on_error=on_error)
        for _ in range(10):
            rec.step(random_actions(rng, a.agents))
        tick, h = rec._episodes[0].hashes[5]
        rec._episodes[0].hashes[5] = (tick, h ^ 1)
        for _ in range(9):
            rec.step(random_actions(rng, a.agents))
        if on_error == "raise":
            with pytest.raises(ReplayError, match=f"diverged: at tick {tick}"):
                rec.step(random_actions(rng, a.agents))
        else:
            rec.step(random_actions(rng, a.agents))
            assert any("not saved" in str(w.message) for w in recwarn.list)
        assert [r.seed for r in rec.replays] == [1]        # lane 1 of the same step was still taken
        for _ in range(20):
            rec.step(random_actions(rng, a.agents))
    assert [r.seed for r in rec.replays] == [1, 2, 3]


def test_replay_error_is_a_gota_error():
    assert issubclass(ReplayError, GotaError)


def test_full_match_size(tmp_path):
    """Opt-in (GOTA_REPLAY_FULL=1): a full 28,800-tick self-play match with random
    actions, recorded, saved and replayed; prints the file size."""
    if not os.environ.get("GOTA_REPLAY_FULL"):
        pytest.skip("set GOTA_REPLAY_FULL=1 to record a full match")
    rng = np.random.default_rng(7)
    with Arena(lanes=1, action_ticks=4, self_play=True, threads=1) as a:
        rec = R.ArenaRecorder(a, lanes=0, directory=tmp_path)
        while not rec.replays:
            rec.step(random_actions(rng, a.agents))
    r = rec.replays[0]
    print(f"full match: {r.final_tick} ticks, {len(r.actions)} actions, {os.path.getsize(r.path)} bytes")
    assert R.verify(R.load(r.path)) == r.final_hash
