"""The training command end to end, in subprocesses: ``python -m gota_arena
+experiment=...`` with tiny budgets, resume, Ctrl-C, a bad config; and plugin
names and options on the command line, through the compose API."""
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("hydra")

from gota_arena import hookimpl  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# a tiny budget: 2 lanes, 8-decision rollouts, short matches and evaluation
TINY = ["env.lanes=2", "env.threads=1", "env.max_ticks=120", "trainer.num_steps=8", "trainer.num_minibatches=2",
        "trainer.update_epochs=1", "policy.options.hidden=16", "eval.matches=1", "eval.max_ticks=40",
        "trainer.progress_every=0"]


def gota(*args, timeout=180, **kwargs) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "gota_arena", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env, **kwargs)


def ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout


def test_selfplay_run_directory(tmp_path):
    run = tmp_path / "sp"
    four = [o if not o.startswith("env.lanes=") else "env.lanes=4" for o in TINY]   # a quarter self-play: 1 lane
    out = ok(gota("+experiment=selfplay", "trainer.total_steps=800", *four, f"hydra.run.dir={run}"))
    assert "selfplay: 4 lanes (1 self-play), 25 agents" in out   # a quarter of the lanes self-play, the rest idle
    assert "done: selfplay: 800 agent-steps" in out and "learning curves" in out
    for name in ("checkpoints/last.pt", "policy.safetensors", "metrics.csv", "config.yaml", "eval.json",
                 "summary.json", "plots/learning_curves.png", ".hydra/config.yaml", ".hydra/overrides.yaml"):
        assert (run / name).is_file(), name
    assert list((run / "tensorboard").glob("events.out.tfevents.*"))
    rows = (run / "metrics.csv").read_text().splitlines()
    assert rows[0].startswith("time,update,global_step,charts/SPS") and "charts/win_rate/self" in rows[0]
    assert len(rows) == 1 + 4
    evaluation = json.loads((run / "eval.json").read_text())
    assert [r["opponent"] for r in evaluation] == ["idle", "random", "base"]
    assert "name: selfplay" in (run / "config.yaml").read_text()
    assert (run / "plots/learning_curves.png").read_bytes()[:4] == b"\x89PNG"

    # continue the run: a larger budget, the same overrides
    out = ok(gota("+experiment=selfplay", "trainer.total_steps=1600", *four, f"hydra.run.dir={run}",
                  "trainer.resume=true"))
    assert "resumed at update 4, step 800" in out and "done: selfplay: 1,600 agent-steps" in out
    assert len((run / "metrics.csv").read_text().splitlines()) == 1 + 8

    # a new start in a run directory that holds a run is refused
    result = gota("+experiment=selfplay", "trainer.total_steps=1600", *four, f"hydra.run.dir={run}")
    assert result.returncode == 2 and "trainer.resume=true" in result.stderr


def test_vs_bundled_run_directory(tmp_path):
    run = tmp_path / "vb"
    out = ok(gota("+experiment=vs_bundled", "trainer.total_steps=400", *TINY, "eval.enabled=false",
                  "trainer.plots=false", "trainer.tensorboard=false", f"hydra.run.dir={run}"))
    assert "vs_bundled: 2 lanes (0 self-play), 10 agents" in out
    table = json.loads((run / "league.json").read_text())
    assert [e["name"] for e in table["entries"]] == ["idle", "random", "base"]
    assert sum(e["games"] for e in table["entries"]) >= 2     # max_ticks 120: every lane ended once
    assert "charts/win_rate/idle" in (run / "metrics.csv").read_text().splitlines()[0]
    assert not (run / "eval.json").exists() and not (run / "plots").exists()


def test_league_experiment_composes():
    out = ok(gota("+experiment=league", "--cfg", "job"))
    assert "name: league" in out and "rule: pfsp" in out and "snapshots: true" in out


def test_beat_bots_pfsp_experiment_continues_the_bundled_ppo():
    out = ok(gota("+experiment=beat_bots_pfsp", "--cfg", "job"))
    assert "rule: pfsp" in out and "pfsp_floor: 0.1" in out and "init_from: ppo" in out


def test_beat_bots_sharpen_experiment_is_beat_bots_pfsp_with_a_longer_horizon():
    out = ok(gota("+experiment=beat_bots_sharpen", "--cfg", "job"))
    assert "name: beat_bots_sharpen" in out and "rule: pfsp" in out and "init_from: ppo" in out
    assert "gamma: 0.995" in out and "ent_coef: 0.003" in out and "total_steps: 20000000" in out


def test_ctrl_c_saves_a_checkpoint_and_exits_cleanly(tmp_path):
    run = tmp_path / "int"
    proc = subprocess.Popen([sys.executable, "-m", "gota_arena", "+experiment=selfplay", "trainer.total_steps=10000000",
                             *TINY, "eval.enabled=false", f"hydra.run.dir={run}"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            line = proc.stdout.readline()
            if line.startswith("[") and "step" in line:   # a progress line: updates are running
                break
        else:
            pytest.fail("no progress line")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, out + err
    assert "Traceback" not in err, err
    assert "interrupted: saved the state after update" in out and "trainer.resume=true" in out
    from gota_arena.train.checkpoint import load_checkpoint
    from gota_arena.train.state import kept_policy
    ck = load_checkpoint(run / "checkpoints" / "last.pt")
    assert ck["reason"] == "interrupted" and ck["update"] >= 1
    # no half-written leftovers: the checkpoint and the kept policy of the update it saved, nothing else
    kept = kept_policy(run, ck["global_step"]).name
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["last.pt", kept]


@pytest.mark.parametrize("override,message", [
    ("trainer.totl_steps=5", "Key 'totl_steps' not in 'TrainerConfig'"),
    ("trainer.total_steps=many", "could not be converted to Integer"),
    ("opponent.rule=best", "expected one of [latest, uniform, pfsp]"),
    ("reward.name=nope", "unknown reward mode 'nope'; the known ones are: advantage"),
    ("policy.options.activation=gelu", "activation must be one of"),
])
def test_a_bad_config_fails_before_anything_runs(tmp_path, override, message):
    run = tmp_path / "bad"
    result = gota("+experiment=vs_bundled", override, f"hydra.run.dir={run}", timeout=120)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert not run.exists(), "nothing may run (no run directory) on a bad config"


def test_unknown_opponent_name_lists_the_known_ones(tmp_path):
    result = gota("+experiment=vs_bundled", "opponent.pool=[idle,nobot]", f"hydra.run.dir={tmp_path / 'x'}")
    assert result.returncode == 2
    assert "unknown opponent 'nobot'; the known ones are:" in result.stderr and "puller" in result.stderr


def test_plugins_and_demo_subcommands():
    out = ok(gota("plugins"))
    assert "gota_bundled.policies" in out and "mlp" in out and "lstm" in out and "gota_bundled.bots" in out
    out = ok(gota("demo", "--ticks", "240"))
    assert "demo: seed 1, 240 ticks" in out


def test_demo_says_game_time_apart_from_wall_time_and_names_its_columns(capsys):
    """Game time in ticks and m:ss (24 ticks a game second), wall time apart from it,
    how the match ended and when, and a hero table that names kills, deaths and assists."""
    from gota_arena.__main__ import demo

    assert demo(seed=1, ticks=240) == 0
    out = capsys.readouterr().out
    assert "game time    240 ticks = 0:10 (10.0 s of game time, 24 ticks a game second)" in out
    assert re.search(r"wall time +\d+\.\d\d s of real time stepping the simulator: [\d,]+ ticks/s", out), out
    assert "simulated time" not in out
    assert "result       timed out at tick 240 (0:10 game time): no god fell" in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("  heroes"))
    assert lines[header].split()[1:] == ["seat", "team", "hero", "level", "kills", "deaths", "assists"]
    rows = [line.split() for line in lines[header + 1:header + 11]]
    assert [row[0] for row in rows] == [str(seat) for seat in range(10)]
    assert all(row[-4:] == ["1", "0", "0", "0"] for row in rows), rows   # level 1, no kills in 10 s


def test_help_lists_every_experiment_and_a_mistyped_command_is_named():
    out = ok(gota("--help"))
    for experiment in sorted(p.stem for p in (ROOT / "conf" / "experiment").glob("*.yaml")):
        assert f"+experiment={experiment} " in out, experiment
    for typo, meant in (("plugin", "plugins"), ("demos", "demo")):
        result = gota(typo)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert f"unknown command '{typo}'; did you mean '{meant}'?" in result.stderr


# ---------------------------------------------------------------------------
# Plugin names and options on the command line, through Hydra's compose API
# (gota_arena.train.cli.compose: what `python -m gota_arena <overrides>` composes,
# checked the same way)
# ---------------------------------------------------------------------------

class Per:
    """A reward mode with one option, for the options tests."""

    def __init__(self, per: int = 1):
        self.per = per


class Verbs:
    """A policy adapter of another shape than mlp: other options, other defaults."""

    adapter = "linear_verbs"

    def __init__(self, scale: float = 1.0):
        self.config = {"scale": scale}


class OptionPlugin:
    @hookimpl
    def gota_register_reward_modes(self, register):
        register("per_mode", Per)

    @hookimpl
    def gota_register_policies(self, register):
        register("linear_verbs", Verbs)

    @hookimpl
    def gota_register_opponents(self, register):
        from gota_arena.opponents import BotOpponent
        register("leveled", lambda level=1: BotOpponent("base"))


@pytest.fixture
def option_plugin():
    from gota_arena import plugins
    from gota_arena.testing import isolated_plugins

    with isolated_plugins(), plugins.registered(OptionPlugin(), name="option_plugin"):
        yield


def composed(*overrides):
    from omegaconf import OmegaConf

    from gota_arena.train.cli import compose

    cfg = compose(["+experiment=vs_bundled", *overrides])
    return {group: OmegaConf.to_container(cfg[group], resolve=True) for group in ("policy", "reward", "opponent")}


@pytest.mark.parametrize("overrides", [["reward.options.per=50"], ["reward.options={per: 50}"],
                                       ["+reward.options.per=50"], ["reward.options={per: 7}", "reward.options.per=50"]])
def test_plugin_options_the_obvious_way(option_plugin, overrides):
    cfg = composed("reward.name=per_mode", *overrides)
    assert cfg["reward"] == {"name": "per_mode", "options": {"per": 50}}


def test_options_are_checked_by_the_plugin(option_plugin):
    from gota_arena import PluginError

    with pytest.raises(PluginError, match=r"reward mode 'per_mode' \(plugin 'option_plugin'\) rejected its options "
                                          r"\{'pr': 50\}"):
        composed("reward.name=per_mode", "reward.options.pr=50")
    cfg = composed("opponent.pool=[leveled]", "opponent.options.leveled.level=2")
    assert cfg["opponent"]["options"] == {"leveled": {"level": 2}}
    with pytest.raises(PluginError, match="opponent 'leveled'.*rejected its options"):
        composed("opponent.pool=[leveled]", "opponent.options={leveled: {levle: 2}}")


@pytest.mark.parametrize("choice", ["policy.name=linear_verbs", "policy=linear_verbs"])
def test_the_policy_name_decides_its_default_options(option_plugin, choice):
    """Choosing a policy by name takes that policy's own defaults, never another's options."""
    cfg = composed(choice)
    assert cfg["policy"] == {"name": "linear_verbs", "options": {}}
    cfg = composed(choice, "policy.options.scale=0.5")
    assert cfg["policy"] == {"name": "linear_verbs", "options": {"scale": 0.5}}


def test_bundled_policies_default_to_their_own_options():
    from gota_arena import plugins

    assert composed()["policy"] == {"name": "entity", "options": {}}
    for choice in ("mlp", "lstm", "entity"):
        for overrides in ([f"policy={choice}"], [f"policy.name={choice}"]):
            cfg = composed(*overrides, "policy.options.hidden=16")
            assert cfg["policy"] == {"name": choice, "options": {"hidden": 16}}, overrides
    assert plugins.policy("entity").config == {"embed": 32, "hidden": 256, "layers": 2, "activation": "relu",
                                               "obs_norm": True, "norm_clip": 5.0}
    assert plugins.policy("mlp").config == {"hidden": 256, "layers": 2, "activation": "tanh", "obs_norm": True,
                                            "norm_clip": 5.0}


def test_a_plugin_reward_mode_by_group_choice(option_plugin):
    assert composed("reward=per_mode", "reward.options.per=3")["reward"] == {"name": "per_mode",
                                                                           "options": {"per": 3}}
