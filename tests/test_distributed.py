"""Data-parallel training under torchrun (gota_arena/train/distributed.py): two
ranks on this machine stay in sync, rank 0 alone writes the run folder, resume
of a multi-rank run, and the errors of a bad multi-rank setup."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("hydra")

from gota_arena.train import distributed  # noqa: E402
from gota_arena.train.checkpoint import load_checkpoint  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# one self-play lane per rank (10 agents), 8-decision rollouts: 160 agent-steps per update over 2 ranks
TINY = ["+experiment=selfplay", "env.lanes=1", "env.max_ticks=120", "trainer.num_steps=8",
        "trainer.num_minibatches=2", "trainer.update_epochs=1", "policy.options.hidden=16", "eval.enabled=false",
        "trainer.plots=false", "trainer.progress_every=0"]

# Loaded by every rank (PYTHONPATH): an audit hook that logs each write-like file
# operation under the run folder to <log>-<rank>, so the test sees who wrote what.
AUDIT = '''
import os, sys
_run, _log = os.environ.get("AUDIT_RUN_DIR"), os.environ.get("AUDIT_LOG")
if _run and _log:
    _run = os.path.realpath(_run)
    _log = f"{_log}-{os.environ.get('RANK', 'none')}"
    _busy = []
    _WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    _PATH_ARG = {"os.rename": 1, "os.replace": 1, "os.remove": 0, "os.rmdir": 0, "os.mkdir": 0,
                 "os.truncate": 0, "os.link": 1, "os.symlink": 1}

    def _hook(event, args):
        if _busy:
            return
        if event == "open":
            path, flags = args[0], args[2]
            if not isinstance(path, (str, bytes, os.PathLike)) or not isinstance(flags, int) or not flags & _WRITE:
                return
        elif event in _PATH_ARG:
            path = args[_PATH_ARG[event]]
        else:
            return
        _busy.append(1)
        try:
            real = os.path.realpath(os.fsdecode(path))
            if (real == _run or real.startswith(_run + os.sep)) and not (event == "os.mkdir" and real == _run):
                with open(_log, "a") as f:   # Hydra makes the run folder on every rank: that alone is allowed
                    f.write(f"{event} {real}\\n")
        finally:
            _busy.pop()

    sys.addaudithook(_hook)
'''


def torchrun(args, tmp_path, ranks=2, timeout=240, **env) -> subprocess.CompletedProcess:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(AUDIT)
    path = os.pathsep.join([str(site), str(ROOT), str(ROOT / "plugins"), os.environ.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc_per_node={ranks}",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, PYTHONPATH=path, PYTHONUNBUFFERED="1", **env))


def digests(folder: Path, rank: int) -> list:
    return [line.split() for line in (folder / f"rank-{rank}.txt").read_text().splitlines()]


def test_two_ranks_stay_in_sync_and_rank_0_alone_writes_the_run_folder(tmp_path):
    run, dig, audit = tmp_path / "run", tmp_path / "digests", tmp_path / "audit"
    result = torchrun(["-m", "gota_arena", *TINY, "opponent.self_play_share=1.0", "trainer.total_steps=320", f"hydra.run.dir={run}"], tmp_path,
                      GOTA_DIGESTS=str(dig), AUDIT_RUN_DIR=str(run), AUDIT_LOG=str(audit))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    out = result.stdout
    assert out.count("gota-arena 0.1.0 train: selfplay") == 1, out   # rank 0 alone reports
    assert "10 agents on each of 2 ranks (gloo" in out and "160 agent-steps per update, 2 updates" in out
    assert "done: selfplay: 320 agent-steps" in out

    # the same weights on both ranks after every update; different matches (seeded apart)
    zero, one = digests(dig, 0), digests(dig, 1)
    assert [r[:2] for r in zero] == [r[:2] for r in one] == [["1", "160"], ["2", "320"]]
    assert [r[2] for r in zero] == [r[2] for r in one]
    assert zero[0][2] != zero[1][2], "the weights must change in an update"
    assert all(a[3] != b[3] for a, b in zip(zero, one)), "the ranks must play different matches"
    from gota_arena.policies import load_policy
    assert distributed.weights_digest(load_policy(str(run / "policy.safetensors"))) == zero[-1][2]

    # what rank 0 wrote: one metrics row per update, one TensorBoard file, a 2-rank checkpoint
    rows = (run / "metrics.csv").read_text().splitlines()
    assert len(rows) == 1 + 2 and rows[2].split(",")[2] == "320"
    assert len(list((run / "tensorboard").glob("events.out.tfevents.*"))) == 1
    ck = load_checkpoint(run / "checkpoints" / "last.pt")
    assert ck["world_size"] == 2 and len(ck["other_ranks"]) == 1 and ck["global_step"] == 320
    assert not torch.equal(ck["rng"]["torch"], ck["other_ranks"][0]["rng"]["torch"])
    # and nobody else: the audit hook saw rank 0 write there, rank 1 nothing
    written = Path(f"{audit}-0").read_text()
    assert "metrics.csv" in written and "last.pt" in written and ".hydra" in written
    assert not Path(f"{audit}-1").exists(), Path(f"{audit}-1").read_text()


@pytest.mark.slow
def test_a_two_rank_run_resumes_as_if_uninterrupted(tmp_path):
    """4 updates at once, or 2 then a resume to 4: the same weights and matches on both ranks."""
    script = tmp_path / "stop_after.py"   # the CLI has no stop_after; train() does
    script.write_text("import os, sys\nfrom gota_arena.train.cli import compose\n"
                      "from gota_arena.train.ppo import train\ncfg = compose(sys.argv[3:])\n"
                      "train(cfg, sys.argv[1], stop_after=int(sys.argv[2]) or None, stream=open(os.devnull, 'w'))\n")
    league = [*TINY[1:], "+experiment=league", "env.lanes=2", "trainer.total_steps=640", "trainer.checkpoint_every=2",
              "opponent.snapshot_every=1", "trainer.tensorboard=false"]
    for name, stop, resume in (("whole", 0, "false"), ("cut", 2, "false"), ("cut", 0, "true")):
        result = torchrun([str(script), str(tmp_path / name), str(stop), *league, f"trainer.resume={resume}"],
                          tmp_path, GOTA_DIGESTS=str(tmp_path / f"digests-{name}"))
        assert result.returncode == 0, result.stderr[-3000:]
    for rank in (0, 1):
        assert digests(tmp_path / "digests-whole", rank) == digests(tmp_path / "digests-cut", rank)
    a, b = (load_checkpoint(tmp_path / n / "checkpoints" / "last.pt") for n in ("whole", "cut"))
    assert a["update"] == b["update"] == 4 and all(torch.equal(a["model"][k], b["model"][k]) for k in a["model"])


# ---- a bad multi-rank setup: a message that says what to change ----------------------------------------

def test_setup_rejects_nccl_on_cpu_and_cuda_without_a_gpu():
    with pytest.raises(distributed.DistributedError, match="trainer.backend=nccl needs trainer.device=cuda"):
        distributed.setup("cpu", "nccl")
    with pytest.raises(distributed.DistributedError, match="trainer.backend='mpi': must be one of auto, gloo, nccl"):
        distributed.setup("cpu", "mpi")
    if not torch.cuda.is_available():
        with pytest.raises(distributed.DistributedError, match="torch sees no CUDA device .*; use trainer.device=cpu"):
            distributed.setup("cuda", "auto")


def test_setup_without_torchrun_is_one_rank(monkeypatch):
    for name in ("WORLD_SIZE", "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE"):
        monkeypatch.delenv(name, raising=False)
    with distributed.setup("cpu") as ddp:
        assert (ddp.rank, ddp.world, ddp.main, ddp.backend) == (0, 1, True, None)
        assert ddp.gather("x") == ["x"] and ddp.mean(3) == 3.0 and ddp.any(False) is False


def test_torchrun_command_lines(monkeypatch):
    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "2")
    monkeypatch.setenv("RANK", "1")
    monkeypatch.setenv("TORCHELASTIC_RUN_ID", "abc")
    with pytest.raises(distributed.DistributedError, match="Hydra sweep .-m/--multirun. cannot run inside it"):
        distributed.hydra_overrides(["-m", "+experiment=selfplay"])
    # every rank: the same folder, named by the rendezvous id; rank 1: Hydra writes no files
    assert distributed.hydra_overrides(["+experiment=selfplay"]) == [
        "hydra.run.dir=runs/${name}/torchrun-abc", "hydra.output_subdir=null", "hydra/job_logging=stdout"]
    assert distributed.hydra_overrides(["hydra.run.dir=x"]) == ["hydra.output_subdir=null", "hydra/job_logging=stdout"]
    monkeypatch.setenv("TORCHELASTIC_RUN_ID", "none")
    with pytest.raises(distributed.DistributedError, match="give hydra.run.dir=<folder>"):
        distributed.hydra_overrides([])
    assert distributed.launch_command() == ["torchrun", "--standalone", "--nproc_per_node=2", "-m", "gota_arena"]
    monkeypatch.setenv("TORCHELASTIC_MAX_RESTARTS", "1")
    with pytest.raises(distributed.DistributedError, match="torchrun --max-restarts is not supported"):
        distributed.hydra_overrides(["hydra.run.dir=x"])


def test_resume_with_another_number_of_ranks_is_refused(tmp_path):
    from gota_arena.train.cli import compose
    from gota_arena.train.ppo import TrainingError, train

    cfg = compose([*TINY, "trainer.total_steps=80", "trainer.tensorboard=false", "trainer.progress=false"])
    train(cfg, tmp_path, stream=open(os.devnull, "w"))
    path = tmp_path / "checkpoints" / "last.pt"
    ck = load_checkpoint(path)
    ck["world_size"] = 2   # as if two ranks had written it
    torch.save(ck, path)
    cfg.trainer.resume = True
    with pytest.raises(TrainingError, match="written by a run of 2 rank.s.; resume it with as many .this one has 1."):
        train(cfg, tmp_path, stream=open(os.devnull, "w"))


def test_ranks_leave_the_group_together_unless_one_failed(monkeypatch):
    # a rank that left first could abort at exit (a gloo worker still freeing the last gather's tensors)
    calls = []
    monkeypatch.setattr(distributed.dist, "init_process_group", lambda backend: calls.append("init"))
    monkeypatch.setattr(distributed.dist, "barrier", lambda device_ids=None: calls.append("barrier"))
    monkeypatch.setattr(distributed.dist, "destroy_process_group", lambda: calls.append("destroy"))
    monkeypatch.setattr(distributed.dist, "is_initialized", lambda: "init" in calls and "destroy" not in calls)
    rank = distributed.Distributed(torch.device("cpu"), rank=1, world=2, backend="gloo")
    with rank:
        pass
    assert calls == ["init", "barrier", "destroy"]
    calls.clear()
    with pytest.raises(RuntimeError), rank:
        raise RuntimeError("a rank failed")   # its peers may never reach a barrier: leave at once
    assert calls == ["init", "destroy"]
