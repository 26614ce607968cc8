"""Bad files give clear errors: a truncated training checkpoint or policy file, a
checkpoint of another policy or contract (gota_arena/train/checkpoint.py, ppo.py,
policies.py)."""
import os
import shutil

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
