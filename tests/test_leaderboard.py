"""The leaderboard evaluator (gota_arena.evaluate)."""
import json
import math

import pytest

from gota_arena import plugins
from gota_arena.evaluate import Leaderboard
from gota_arena.evaluate.games import Game, schedule
from gota_arena.evaluate.ratings import table, wilson
from gota_arena.policies import save_policy

LADDER = dict(entrants=["idle", "random", "base"], games_per_pairing=1, lanes=6, max_ticks=7200)


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder")
    return out, Leaderboard(**LADDER).run(str(out), quiet=True)


def test_known_ladder_is_ranked(ladder):
    out, rows = ladder
    assert [r["entrant"] for r in rows] == ["base", "random", "idle"]
    assert all(r["games"] == 4 for r in rows)
    for name in ("leaderboard.csv", "leaderboard.json", "leaderboard.md", "leaderboard.png", "games.jsonl"):
        assert (out / name).stat().st_size > 0
    saved = json.loads((out / "leaderboard.json").read_text())
    assert saved["table"][0]["entrant"] == "base"
    assert sum(saved["matrix"]["base"]["idle"]) == 2


def test_resume_plays_nothing_again_and_is_deterministic(ladder, tmp_path):
    out, rows = ladder
    lines = (out / "games.jsonl").read_text().splitlines()
    again = Leaderboard(**LADDER).run(str(out), quiet=True)
    assert (out / "games.jsonl").read_text().splitlines() == lines   # nothing replayed
    assert again == rows
    # an interrupted run: half the games logged (and a torn last line) -> the rest is played, same table
    (tmp_path / "games.jsonl").write_text("\n".join(lines[:3]) + "\n{\"key\": \"torn")
    resumed = Leaderboard(**LADDER).run(str(tmp_path), quiet=True)
    assert resumed == rows


def test_schedule_plays_each_seed_from_both_sides():
    games = schedule(["a", "b", "c"], 2, 100)
    assert len(games) == 3 * 2 * 2
    by_seed = {}
    for g in games:
        by_seed.setdefault(g.seed, []).append((g.red, g.blue))
    assert all(len(v) == 2 and v[0] == v[1][::-1] for v in by_seed.values())
    fixed = schedule(["a", "b", "base"], 1, 0, against=["base"])
    assert {(g.red, g.blue) for g in fixed} == {("a", "base"), ("base", "a"), ("b", "base"), ("base", "b")}


def test_wilson_interval():
    lo, hi = wilson(8, 10)
    assert math.isclose(lo, 0.4902, abs_tol=1e-3) and math.isclose(hi, 0.9433, abs_tol=1e-3)
    assert wilson(0, 0) == (0.0, 0.0)


def test_table_counts_and_order():
    results = [
        {"key": "1", "red": "a", "blue": "b", "winner": "red", "result": "win", "red_score": 900, "blue_score": 100,
         "red_glory": 900, "blue_glory": 0},
        {"key": "2", "red": "b", "blue": "a", "winner": None, "result": "timeout", "red_score": 0, "blue_score": 0,
         "red_glory": 0, "blue_glory": 0},
    ]
    rows = table(["a", "b"], results)
    a, b = rows
    assert a["entrant"] == "a" and (a["wins"], a["losses"], a["timeouts"]) == (1, 0, 1)
    assert (b["wins"], b["losses"], b["timeouts"]) == (0, 1, 1)
    assert a["mean_glory"] == 450 and a["rating"] > b["rating"]


def test_the_table_says_how_it_ranks(tmp_path):
    """A higher win rate with more losses ranks lower; the table says why (docs/leaderboard.md)."""
    from gota_arena.evaluate import report
    from gota_arena.evaluate.ratings import matrix

    def game(key, red, blue, winner):
        return {"key": key, "red": red, "blue": blue, "winner": winner, "result": "win" if winner else "timeout",
                "red_score": 0, "blue_score": 0, "red_glory": 0, "blue_glory": 0}

    # base.bas: 2 wins, 2 losses (win rate 0.5); rusher: 1 win, 3 timeouts (win rate 0.25)
    results = [game("1", "base.bas", "idle", "red"), game("2", "idle", "base.bas", "blue"),
               game("3", "base.bas", "idle", "blue"), game("4", "idle", "base.bas", "red"),
               game("5", "rusher", "idle", "red"), game("6", "idle", "rusher", None),
               game("7", "rusher", "idle", None), game("8", "idle", "rusher", None)]
    names = ["base.bas", "rusher", "idle"]
    rows = table(names, results)
    assert [r["entrant"] for r in rows][:2] == ["rusher", "base.bas"]
    assert rows[0]["win_rate"] < rows[1]["win_rate"]
    ranking = ("ranked by (wins - losses) per game, then mean score, then mean Glory, then mean team XP, "
               "then rating")
    text = report.text_table(rows)
    assert ranking in text and "neither a win nor a loss" in text
    assert text.index(ranking) > text.index("rusher"), "under the table"
    assert "R" + ranking[1:] in report.markdown(rows, matrix(names, results), {})


def test_the_heatmap_shows_every_entrant_that_played_a_trained_policy_too(tmp_path):
    from gota_arena.evaluate import report
    from gota_arena.evaluate.ratings import matrix

    def game(key, red, blue, winner):
        return {"key": key, "red": red, "blue": blue, "winner": winner, "result": "win" if winner else "timeout",
                "red_score": 500 if winner == "red" else 0, "blue_score": 500 if winner == "blue" else 0,
                "red_glory": 0, "blue_glory": 0}

    names = ["ppo", "idle", "base"]   # ppo: the bundled trained policy, a checkpoint entrant
    results = [game("1", "ppo", "idle", "red"), game("2", "idle", "ppo", "blue"),
               game("3", "ppo", "base", "blue"), game("4", "base", "ppo", None), game("5", "base", "idle", "red")]
    rows, pairs = table(names, results), matrix(names, results)
    heatmap = report.figure(rows, pairs).axes[0]
    shown = [t.get_text() for t in heatmap.get_xticklabels()]
    assert sorted(shown) == sorted(names) and [t.get_text() for t in heatmap.get_yticklabels()] == shown
    rate = heatmap.get_images()[0].get_array()
    ppo, idle, base = (shown.index(n) for n in ("ppo", "idle", "base"))
    assert rate[ppo, idle] == 1.0 and rate[ppo, base] == 0.25 and rate[base, ppo] == 0.75
    paths = report.write(str(tmp_path), rows, pairs, {}, {})
    assert open(paths["png"], "rb").read(4) == b"\x89PNG"


def test_bad_checkpoints_are_left_out_and_the_rest_runs(tmp_path):
    corrupt = tmp_path / "corrupt.safetensors"
    corrupt.write_bytes(b"not a checkpoint")
    foreign = tmp_path / "foreign.safetensors"
    save_policy(plugins.policy("random"), str(foreign))
    data = bytearray(foreign.read_bytes())
    at = data.find(b'"contract_hash":"') + len(b'"contract_hash":"')
    data[at:at + 4] = b"dead"
    foreign.write_bytes(bytes(data))
    entrants = ["idle", "base", {"name": "missing", "checkpoint": str(tmp_path / "none.safetensors")},
                {"name": "corrupt", "checkpoint": str(corrupt)}, {"name": "foreign", "checkpoint": str(foreign)}]
    rows = Leaderboard(entrants=entrants, games_per_pairing=1, lanes=2, max_ticks=2400).run(str(tmp_path / "lb"),
                                                                                             quiet=True)
    assert {r["entrant"] for r in rows} == {"base", "idle"}
    left = json.loads((tmp_path / "lb" / "leaderboard.json").read_text())["left_out"]
    assert "does not exist" in left["missing"]
    assert "corrupt" in left["corrupt"] or "not a readable" in left["corrupt"]
    assert "contract" in left["foreign"]


def test_a_policy_checkpoint_plays(tmp_path):
    path = tmp_path / "random.safetensors"
    save_policy(plugins.policy("random", seed=3), str(path))
    rows = Leaderboard(entrants=[{"name": "rand-policy", "checkpoint": str(path)}, "idle"], games_per_pairing=1,
                       lanes=2, max_ticks=480).run(str(tmp_path / "lb"), quiet=True)
    assert {r["entrant"] for r in rows} == {"rand-policy", "idle"} and all(r["games"] == 2 for r in rows)


def test_game_key_names_seed_and_sides():
    assert Game(5, "a", "b").key == "5:a:b"


def test_leaderboard_experiment_from_the_command_line(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "gota_arena", "+experiment=leaderboard",
                           "leaderboard.entrants=[idle,base]", "leaderboard.games_per_pairing=1",
                           "leaderboard.max_ticks=480", "leaderboard.lanes=2", f"hydra.run.dir={out}"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "leaderboard: wrote" in proc.stdout
    rows = json.loads((out / "leaderboard.json").read_text())["table"]
    assert {r["entrant"] for r in rows} == {"idle", "base"} and all(r["games"] == 2 for r in rows)
    bad = subprocess.run([sys.executable, "-m", "gota_arena", "+experiment=leaderboard", "leaderboard.lanes=0",
                          f"hydra.run.dir={tmp_path / 'bad'}"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "leaderboard" in bad.stderr and not (tmp_path / "bad").exists()


# ---- a leaderboard split among jobs (docs/scaling.md) ----------------------------------------------------

def test_a_leaderboard_split_among_joblib_jobs_gives_the_single_run_table(ladder, tmp_path):
    import subprocess
    import sys
    pytest.importorskip("hydra_plugins.hydra_joblib_launcher")
    sweep = tmp_path / "sweep"
    proc = subprocess.run([sys.executable, "-m", "gota_arena", "-m", "+experiment=leaderboard", "hydra/launcher=local",
                           "leaderboard.entrants=[idle,random,base]", "leaderboard.games_per_pairing=1",
                           f"leaderboard.lanes={LADDER['lanes']}", f"leaderboard.max_ticks={LADDER['max_ticks']}",
                           "leaderboard.threads=1", "leaderboard.shards=2", "leaderboard.shard=0,1",
                           f"hydra.sweep.dir={sweep}"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "(shard 0 of 2)" in proc.stdout and "(shard 1 of 2)" in proc.stdout
    shard_games = [len((sweep / str(i) / "games.jsonl").read_text().splitlines()) for i in (0, 1)]
    assert shard_games == [3, 3]                   # each job played half of the 6 games
    _, rows = ladder
    assert json.loads((sweep / "leaderboard.json").read_text())["table"] == rows   # merged when the sweep ended
    # the same merge as a command, into another folder
    out = tmp_path / "merged"
    proc = subprocess.run([sys.executable, "-m", "gota_arena", "leaderboard-merge", str(sweep), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((out / "leaderboard.json").read_text())["table"] == rows


def test_merge_refuses_missing_and_unfinished_shards(tmp_path):
    from gota_arena.errors import GotaError
    from gota_arena.evaluate.leaderboard import merge

    options = dict(entrants=["idle", "base"], games_per_pairing=1, lanes=1, max_ticks=480, shards=2)
    with pytest.raises(GotaError, match="no shard.json under"):
        merge(str(tmp_path))
    results = Leaderboard(shard=0, **options).run(str(tmp_path / "a"), quiet=True)
    assert len(results) == 1 and not (tmp_path / "a" / "leaderboard.json").exists()   # a shard ranks nothing
    with pytest.raises(GotaError, match="shard.s. 1 of 2 missing under"):
        merge(str(tmp_path))
    Leaderboard(shard=1, **options).run(str(tmp_path / "b"), quiet=True)
    (tmp_path / "b" / "games.jsonl").write_text("")   # as if the job had been stopped before its game ended
    with pytest.raises(GotaError, match=r"shard 1 \(.*b\) has 1 of its 1 games left"):
        merge(str(tmp_path))
    Leaderboard(shard=1, **dict(options, max_ticks=240)).run(str(tmp_path / "c"), quiet=True)
    with pytest.raises(GotaError, match="are shards of different leaderboards"):
        merge(str(tmp_path))
    with pytest.raises(ValueError, match="leaderboard.shard=2 with leaderboard.shards=2: the shard must be in"):
        Leaderboard(shard=2, **options)


def test_a_bad_shard_stops_the_command(tmp_path):
    import subprocess
    import sys
    bad = subprocess.run([sys.executable, "-m", "gota_arena", "+experiment=leaderboard", "leaderboard.shards=2",
                          "leaderboard.shard=2", f"hydra.run.dir={tmp_path / 'bad'}"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "leaderboard.shard: must be in 0..1 (leaderboard.shards=2), got 2" in bad.stderr
    assert not (tmp_path / "bad").exists()
