"""Bad files give clear errors and lose nothing: a truncated training checkpoint or
policy file, a checkpoint of another policy or contract, and a run killed (SIGKILL)
while it writes a checkpoint, which must resume and lose at most the interval
since its last checkpoint (gota_arena/train/checkpoint.py, ppo.py, policies.py)."""
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("omegaconf")
pytest.importorskip("safetensors")

from gota_arena import PluginError  # noqa: E402
from gota_arena.config import Config  # noqa: E402
from gota_arena.contract import INFO  # noqa: E402
from gota_arena.policies import load_policy, read_policy_metadata  # noqa: E402
from gota_arena.train.checkpoint import CheckpointError, load_checkpoint, save_checkpoint  # noqa: E402
from gota_arena.train.ppo import TrainingError, train  # noqa: E402
from gota_arena.train.state import kept_policy  # noqa: E402

AGENTS, STEPS = 5, 8   # one lane against a bot: five learner rows; decisions per rollout


def tiny_config(updates: int = 2, policy: str = "mlp", **trainer) -> Config:
    cfg = Config()
    cfg.env.lanes, cfg.env.threads, cfg.env.max_ticks = 1, 1, 240
    cfg.opponent.self_play_share, cfg.opponent.pool = 0.0, ["idle"]
    cfg.policy.name = policy
    cfg.policy.options = {"hidden": 16, "layers": 1}
    cfg.trainer.num_steps, cfg.trainer.num_minibatches, cfg.trainer.update_epochs = STEPS, 1, 1
    cfg.trainer.total_steps = AGENTS * STEPS * updates
    cfg.trainer.checkpoint_every = 1
    cfg.trainer.tensorboard = cfg.trainer.plots = cfg.trainer.progress = False
    cfg.eval.enabled = False
    for k, v in trainer.items():
        setattr(cfg.trainer, k, v)
    return cfg


def quiet():
    return open(os.devnull, "w")


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished two-update run (checkpoints/last.pt, policy.safetensors); tests copy it."""
    run = tmp_path_factory.mktemp("runs") / "done"
    train(tiny_config(), run, stream=quiet())
    return run


@pytest.fixture
def run(finished_run, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(finished_run, copy)
    return copy


def truncate(path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * keep)])


def message_of(excinfo) -> str:
    return str(excinfo.value)


# ---- truncated files --------------------------------------------------------------------------------

def test_a_truncated_training_checkpoint_is_refused_naming_the_file_and_what_to_do(run):
    ckpt = run / "checkpoints" / "last.pt"
    truncate(ckpt)
    with pytest.raises(CheckpointError) as info:
        train(tiny_config(resume=True), run, stream=quiet())
    text = message_of(info)
    for words in (str(ckpt), "cannot be read", "truncated or damaged", "restore the file from a copy",
                  f"trainer.init_from={run / 'policy.safetensors'}"):
        assert words in text, text
    assert isinstance(info.value, TrainingError) and isinstance(info.value, ValueError)
    load_policy(str(run / "policy.safetensors"))   # what the message points at is whole
    for keep in (0.0, 0.01, 0.9, 0.999):   # cut anywhere
        truncate(ckpt, keep)
        with pytest.raises(CheckpointError, match="cannot be read|does not exist|not a gota-arena"):
            load_checkpoint(ckpt)


def test_a_truncated_policy_file_is_refused_naming_the_file(run):
    policy = run / "policy.safetensors"
    whole = policy.read_bytes()
    for keep in (0.0, 0.003, 0.5, 0.99):
        policy.write_bytes(whole[:int(len(whole) * keep)])
        with pytest.raises(PluginError) as info:
            load_policy(str(policy))
        text = message_of(info)
        assert str(policy) in text and ("truncated or corrupt" in text or "not a gota-arena policy" in text), text
    with pytest.raises(PluginError, match="truncated or corrupt"):   # as the start of a new run
        train(tiny_config(init_from=str(policy)), run.parent / "new", stream=quiet())


# ---- files of another policy or contract ----------------------------------------------------------------

def test_a_checkpoint_of_another_policy_is_refused(run):
    with pytest.raises(CheckpointError) as info:   # the run was mlp; resumed as entity
        train(tiny_config(resume=True, policy="entity"), run, stream=quiet())
    text = message_of(info)
    for words in (str(run / "checkpoints" / "last.pt"), "holds a mlp policy", "this run builds entity",
                  "resume with the run's own policy", "config.yaml"):
        assert words in text, text
    with pytest.raises(TrainingError) as info:   # its policy file as the start of an entity run
        train(tiny_config(policy="entity", init_from=str(run / "policy.safetensors")), run.parent / "new",
              stream=quiet())
    text = message_of(info)
    assert "policy.safetensors is a mlp policy" in text and "this run builds entity" in text, text
    assert "train it with policy=mlp" in text, text


def test_a_checkpoint_of_another_contract_is_refused(run):
    ckpt = run / "checkpoints" / "last.pt"
    payload = load_checkpoint(ckpt)
    payload["contract_hash"] = "0123456789abcdef"
    save_checkpoint(ckpt, payload)
    with pytest.raises(CheckpointError) as info:
        train(tiny_config(resume=True), run, stream=quiet())
    text = message_of(info)
    for words in (str(ckpt), "made for contract 0123456789abcdef", f"this build has {INFO.hash:016x}",
                  "resume it with the version that wrote it"):
        assert words in text, text


def test_a_policy_file_of_another_contract_is_refused(run):
    from safetensors.torch import load_file, save_file
    policy = str(run / "policy.safetensors")
    meta = read_policy_metadata(policy)
    save_file(load_file(policy), policy, metadata={**meta, "contract_hash": "0123456789abcdef"})
    with pytest.raises(PluginError) as info:
        load_policy(policy)
    text = message_of(info)
    assert policy in text and "made for contract 0123456789abcdef" in text and "retrain it" in text, text


def test_a_checkpoint_that_reads_but_lacks_its_parts_is_called_damaged(run):
    ckpt = run / "checkpoints" / "last.pt"
    payload = load_checkpoint(ckpt)
    for damage in (lambda p: p.pop("optimizer"), lambda p: p["model"].popitem(),
                   lambda p: p.update(config="{not json"), lambda p: p.update(rng="none")):
        broken = {**payload, "model": dict(payload["model"])}
        damage(broken)
        save_checkpoint(ckpt, broken)
        with pytest.raises(CheckpointError, match="is damaged: it reads, but") as info:
            train(tiny_config(resume=True), run, stream=quiet())
        assert str(ckpt) in message_of(info)


# ---- a run killed while it writes --------------------------------------------------------------------------

CHILD = r"""
import io, os, sys, time
import torch
import safetensors.torch
from tests.test_bad_files import tiny_config, quiet
from gota_arena.train.ppo import train

what, at, marker, run = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
calls = [0]

def hang_halfway():
    open(marker, "w").close()   # the parent now kills this process
    time.sleep(600)

if what == "checkpoint":   # torch.save writes checkpoints/last.pt's temporary
    real = torch.save
    def save(obj, f, *args, **kwargs):
        calls[0] += 1
        if calls[0] < at:
            return real(obj, f, *args, **kwargs)
        data = io.BytesIO()
        real(obj, data)
        f.write(data.getvalue()[: len(data.getvalue()) // 2])
        f.flush()
        hang_halfway()
    torch.save = save
else:   # safetensors writes policy.safetensors's temporary (the kept policies are in checkpoints/)
    real = safetensors.torch.save_file
    def save_file(tensors, path, metadata=None):
        real(tensors, path, metadata=metadata)
        if os.path.dirname(os.path.abspath(path)) != os.path.abspath(run):
            return
        calls[0] += 1
        if calls[0] >= at:
            with open(path, "r+b") as f:
                f.truncate(os.path.getsize(path) // 2)
            hang_halfway()
    safetensors.torch.save_file = save_file
train(tiny_config(updates=4), run, stream=quiet())
"""


def _kill_while_writing(tmp_path, what: str, at: int):
    """Run a 4-update training in a subprocess whose ``at``-th write of ``what`` stops
    halfway; SIGKILL it there. The run's folder."""
    run, marker, script = tmp_path / "run", tmp_path / "writing", tmp_path / "child.py"
    script.write_text(CHILD)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    child = subprocess.Popen([sys.executable, str(script), what, str(at), str(marker), str(run)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            if child.poll() is not None:
                pytest.fail(f"the training subprocess ended ({child.returncode}) before the write: "
                            f"{child.stderr.read().decode()[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail("the training subprocess never reached the write")
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)
        assert child.wait(timeout=30) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stderr.close()
    return run


def _metric_updates(run):
    with open(run / "metrics.csv", newline="") as f:
        return [int(r["update"]) for r in csv.DictReader(f)]


def _saved_update(policy_path) -> int:
    return json.loads(read_policy_metadata(str(policy_path))["update"])


def test_a_run_killed_while_writing_a_checkpoint_resumes_losing_only_that_interval(tmp_path):
    run = _kill_while_writing(tmp_path, "checkpoint", at=3)   # killed halfway through update 3's checkpoint
    ckpt = run / "checkpoints" / "last.pt"
    assert load_checkpoint(ckpt)["update"] == 2, "the previous checkpoint is intact"
    assert [p.name for p in ckpt.parent.iterdir() if p.name.endswith(".tmp")], "killed inside the write"
    summary = train(tiny_config(updates=4, resume=True), run, stream=quiet())
    assert summary["updates"] == 4 and summary["global_step"] == 4 * AGENTS * STEPS
    assert load_checkpoint(ckpt)["update"] == 4
    kept = [kept_policy(run, update * AGENTS * STEPS).name for update in (1, 2, 3, 4)]
    assert sorted(os.listdir(ckpt.parent)) == ["last.pt", *kept], "the killed write's temporary is gone"
    assert _metric_updates(run) == [1, 2, 3, 4], "update 3 is played again, and logged once"
    assert _saved_update(run / "policy.safetensors") == 4


def test_a_run_killed_while_writing_its_policy_file_resumes_with_a_matching_one(tmp_path):
    run = _kill_while_writing(tmp_path, "policy", at=4)   # last.pt of update 4 is written, its policy file is not
    ckpt = load_checkpoint(run / "checkpoints" / "last.pt")
    assert ckpt["update"] == 4 and _saved_update(run / "policy.safetensors") == 3
    summary = train(tiny_config(updates=4, resume=True), run, stream=quiet())
    assert summary["updates"] == 4 and not summary["interrupted"]
    assert _saved_update(run / "policy.safetensors") == 4, "the policy file follows the checkpoint again"
    assert _saved_update(kept_policy(run, 4 * AGENTS * STEPS)) == 4
    policy = load_policy(str(run / "policy.safetensors"))
    for key, value in ckpt["model"].items():
        assert torch.equal(policy.state_dict()[key], value), key
    assert not [p for p in run.iterdir() if p.name.endswith(".tmp")]


def test_a_metrics_row_cut_short_by_a_kill_is_dropped_on_resume(tmp_path):
    from gota_arena.train.report import Reporter

    def reporter(resume_step=None):
        return Reporter(tmp_path, ["self"], 100, tensorboard=False, progress=False, resume_step=resume_step,
                        stream=quiet())

    first = reporter()
    for update in (1, 2, 3):
        first.log(update, 10 * update, {})
    first.close()
    metrics = tmp_path / "metrics.csv"
    text = metrics.read_text()
    metrics.write_text(text[:text.rindex("\n", 0, len(text) - 1) + 9])   # the kill: row 3 cut after 8 characters
    reporter(resume_step=30).close()   # the checkpoint was at update 3: a whole row 3 would be kept
    assert _metric_updates(tmp_path) == [1, 2]
