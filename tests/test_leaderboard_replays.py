"""Chosen leaderboard games are kept as replay files (games.play(record=...),
Leaderboard(replays=[...])) that replay to their final hash and feed the viewer,
BASIC script entrants included."""
import json

import numpy as np

from gota_arena import frames as F
from gota_arena import plugins
from gota_arena import replay as R
from gota_arena.evaluate import Leaderboard
from gota_arena.evaluate.games import Game, play
from gota_arena.policies import save_policy


def test_chosen_games_are_recorded(tmp_path):
    path = tmp_path / "random.safetensors"
    save_policy(plugins.policy("random", seed=3), str(path))
    entrants = [{"name": "rand-policy", "checkpoint": str(path)}, "base"]
    board = Leaderboard(entrants=entrants, games_per_pairing=1, lanes=2, max_ticks=480, seed=1000,
                        replays=["1000:rand-policy:base", "1000:base:rand-policy"])
    board.run(str(tmp_path / "lb"), quiet=True)
    files = sorted(p.name for p in (tmp_path / "lb" / "replays").iterdir())
    assert files == ["1000_base_rand-policy.gotareplay", "1000_rand-policy_base.gotareplay"]
    logged = [json.loads(line) for line in (tmp_path / "lb" / "games.jsonl").read_text().splitlines()]
    assert {g["key"] for g in logged if "replay" in g} == {"1000:rand-policy:base", "1000:base:rand-policy"}
    for name in files:
        r = R.load(tmp_path / "lb" / "replays" / name)
        assert R.verify(r) == r.final_hash and r.final_tick == 480
        red, blue = r.source["game"].split(":")[1:]
        assert r.bots[:5] == (("base",) * 5 if red == "base" else ("external",) * 5)
        assert r.bots[5:] == (("base",) * 5 if blue == "base" else ("external",) * 5)
        assert len(r.actions) > 100                   # the policy's actions, applied and stored
        fr = F.record(r, every=24)
        assert fr.count == 21 and np.array_equal(fr.ticks, np.arange(0, 481, 24))


def test_games_not_chosen_are_not_recorded(tmp_path):
    games = [Game(7, "base", "idle"), Game(7, "idle", "base"), Game(17, "base", "idle")]
    entrants = {name: plugins.opponent(name) for name in ("base", "idle")}
    results = play(games, entrants, lanes=2, max_ticks=480, record=["17:base:idle"], replay_dir=tmp_path)
    assert sorted(r["key"] for r in results) == ["17:base:idle", "7:base:idle", "7:idle:base"]
    assert [p.name for p in tmp_path.iterdir()] == ["17_base_idle.gotareplay"]
    (chosen,) = [r for r in results if "replay" in r]
    r = R.load(chosen["replay"])
    assert r.seed == 17 and r.bots == ("base",) * 5 + ("idle",) * 5 and len(r.actions) == 0
    assert R.verify(r) == r.final_hash


def test_leaderboard_replays_of_script_entrants(tmp_path):
    board = Leaderboard(entrants=["base.bas", "rusher.bas"], games_per_pairing=1, lanes=2, max_ticks=480,
                        seed=1000, replays=["1000:base.bas:rusher.bas"])
    board.run(str(tmp_path / "lb"), quiet=True)
    (path,) = (tmp_path / "lb" / "replays").iterdir()
    assert path.name == "1000_base.bas_rusher.bas.gotareplay"
    r = R.load(path)
    assert r.players == ("base.bas",) * 5 + ("rusher.bas",) * 5
    assert R.verify(r) == r.final_hash and r.final_tick == 480
    fr = F.record(r, every=24)
    assert fr.count == 21 and fr.meta["bots"] == list(r.players)
