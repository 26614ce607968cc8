"""Data-parallel PPO across processes and machines: ``torch.distributed``,
started by ``torchrun`` (one rank per process; docs/scaling.md).

    with setup(device="cpu", backend="auto") as ddp:  # without torchrun: one rank, every call below a no-op
        ddp.rank, ddp.world, ddp.main, ddp.device, ddp.cores
        ddp.broadcast_module(policy)       # rank 0's initial weights on every rank
        ddp.average_gradients(policy)      # after backward(), before clipping and the optimizer step
        ddp.sum_(tensor) / ddp.mean(x) / ddp.any(flag)
        ddp.gather(obj)                    # a list of every rank's obj on rank 0, None elsewhere
        ddp.barrier()

What keeps the ranks' weights identical: the same initial weights (broadcast
from rank 0, or the same checkpoint), gradients averaged over all ranks before
every optimizer step (an explicit all-reduce: the policies' PPO methods are not
``forward``, so DDP's hooks would not see them), the observation statistics
folded from every rank's rollout, and the early stop on ``target_kl`` decided
on the all-reduced kl. What sets them apart: their seeds (``rank_seed``), hence
their matches, opponent draws and minibatch orders.

The backend follows the device: ``gloo`` on CPU, ``nccl`` on CUDA, where each
rank uses ``cuda:LOCAL_RANK``. A rank's share of the cores is
``cores // LOCAL_WORLD_SIZE`` (simulator and learning threads default to it).

``GOTA_DIGESTS=<folder>`` (a check, for tests and debugging): after every
update each rank appends ``<update> <global_step> <weights sha256> <rollout
sha256>`` to ``<folder>/rank-<rank>.txt``; in a healthy run the weights column
is the same on every rank and the rollout column differs.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Optional

import torch
import torch.distributed as dist

from ..errors import GotaError

BACKENDS = ("auto", "gloo", "nccl")
DIGESTS_ENV = "GOTA_DIGESTS"


class DistributedError(GotaError):
    """A multi-process run cannot start as configured (the message says why and what to do)."""


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


def world_size() -> int:
    """The number of ranks torchrun started (1 without torchrun)."""
    return _env_int("WORLD_SIZE", 1)


def check_launch() -> None:
    """Refuse torchrun options a run cannot honour (DistributedError says what to do instead)."""
    if world_size() > 1 and _env_int("TORCHELASTIC_MAX_RESTARTS", 0) > 0:
        # restarted workers do not reconnect a gloo group (torch 2.13: "Gloo connectFullMesh failed")
        raise DistributedError("torchrun --max-restarts is not supported: restarted ranks cannot rejoin the process "
                               "group; use --max-restarts=0 (the default) and continue a stopped run with "
                               "trainer.resume=true and its hydra.run.dir")


def rank_seed(seed: int, rank: int) -> int:
    """The seed of a rank's generators (torch, numpy, Python, the league): rank 0 keeps ``seed``."""
    return (seed + 1_000_003 * rank) % 2 ** 63


class Distributed:
    """One rank's view of the process group (a single rank without torchrun)."""

    def __init__(self, device: torch.device, rank: int = 0, world: int = 1, local_rank: int = 0,
                 local_world: int = 1, backend: Optional[str] = None):
        self.device, self.rank, self.world = device, rank, world
        self.local_rank, self.local_world, self.backend = local_rank, local_world, backend
        self.main = rank == 0
        affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        self.cores = max(1, affinity // local_world)   # never more busy threads than cores on a node
        self._owns_group = False

    # ---- the process group -------------------------------------------------------------------
    def __enter__(self) -> "Distributed":
        if self.world > 1 and not dist.is_initialized():
            dist.init_process_group(self.backend)
            self._owns_group = True
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._owns_group and dist.is_initialized():
            if exc_type is None:
                # leave together: a gloo worker thread may still hold the last gather's tensors;
                # were this rank to exit first, it would free them during interpreter shutdown,
                # without a GIL to take, and abort ("terminate called without an active exception")
                self.barrier()
            dist.destroy_process_group()
        self._owns_group = False

    def barrier(self) -> None:
        if self.world > 1:
            dist.barrier(device_ids=[self.device.index] if self.backend == "nccl" else None)

    # ---- collectives (no-ops on one rank) -------------------------------------------------------
    def broadcast_module(self, module: torch.nn.Module) -> None:
        """Rank 0's parameters and buffers on every rank."""
        if self.world > 1:
            for tensor in module.state_dict().values():
                dist.broadcast(tensor, src=0)

    def average_gradients(self, module: torch.nn.Module) -> None:
        """Replace every gradient by its mean over the ranks (one flat all-reduce). Parameters
        without a gradient are skipped: the graph, hence that set, is the same on every rank."""
        if self.world == 1:
            return
        grads = [p.grad for p in module.parameters() if p.grad is not None]
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)   # a sum: gloo has no AVG; every rank gets the same bits
        flat /= self.world
        offset = 0
        for g in grads:
            g.copy_(flat[offset:offset + g.numel()].view_as(g))
            offset += g.numel()

    def update_obs_stats(self, policy, obs: torch.Tensor) -> None:
        """Fold every rank's batch of raw observations into the policy's running statistics
        (``update_obs_moments``; on one rank ``update_obs_stats`` where the policy has it)."""
        if self.world == 1 and callable(getattr(policy, "update_obs_stats", None)):
            policy.update_obs_stats(obs)
            return
        raw = obs.reshape(obs.shape[0], -1).double()
        moments = self.sum_(torch.stack([raw.sum(0), (raw * raw).sum(0)]))
        n = raw.shape[0] * self.world
        mean = moments[0] / n
        policy.update_obs_moments(n, mean, (moments[1] / n - mean * mean).clamp(min=0))

    def sum_(self, tensor: torch.Tensor) -> torch.Tensor:
        """All-reduce ``tensor`` in place to its sum over the ranks; returns it."""
        if self.world > 1:
            dist.all_reduce(tensor)
        return tensor

    def mean(self, value) -> float:
        """The mean of a number (or a one-element tensor) over the ranks."""
        if self.world == 1:
            return float(value)
        t = torch.tensor([float(value)], dtype=torch.float64, device=self.device)
        return float(self.sum_(t).item() / self.world)

    def any(self, flag: bool) -> bool:
        """True on every rank when it is true on one (e.g. a rank got Ctrl-C)."""
        if self.world == 1:
            return bool(flag)
        return self.sum_(torch.tensor([1.0 if flag else 0.0], device=self.device)).item() > 0

    def gather(self, obj) -> Optional[list]:
        """Every rank's picklable ``obj``, in rank order, on rank 0; None on the other ranks."""
        if self.world == 1:
            return [obj]
        out = [None] * self.world if self.main else None
        dist.gather_object(obj, out, dst=0)
        return out


def setup(device: str = "cpu", backend: str = "auto") -> Distributed:
    """This process's rank, from torchrun's environment (RANK, WORLD_SIZE, LOCAL_RANK,
    LOCAL_WORLD_SIZE); use it as a context manager: it joins the process group and leaves
    it at the end. Checks the device and backend with a message that says what to change."""
    check_launch()
    world, rank = world_size(), _env_int("RANK", 0)
    local_rank, local_world = _env_int("LOCAL_RANK", 0), _env_int("LOCAL_WORLD_SIZE", 1)
    if backend not in BACKENDS:
        raise DistributedError(f"trainer.backend={backend!r}: must be one of {', '.join(BACKENDS)}")
    if device.startswith("cuda"):
        if not torch.cuda.is_available():
            raise DistributedError(f"trainer.device={device} but torch sees no CUDA device "
                                   f"(torch {torch.__version__}); use trainer.device=cpu")
        if world > 1:
            if device != "cuda":
                raise DistributedError(f"trainer.device={device}: under torchrun each rank uses cuda:LOCAL_RANK; "
                                       "use trainer.device=cuda (CUDA_VISIBLE_DEVICES picks the GPUs)")
            if local_rank >= torch.cuda.device_count():
                raise DistributedError(f"LOCAL_RANK {local_rank} but torch sees {torch.cuda.device_count()} CUDA "
                                       "device(s) on this node: start at most one process per GPU "
                                       f"(torchrun --nproc_per_node={torch.cuda.device_count()})")
            device = f"cuda:{local_rank}"
            torch.cuda.set_device(device)
    elif backend == "nccl":
        raise DistributedError(f"trainer.backend=nccl needs trainer.device=cuda (NCCL moves GPU tensors only), "
                               f"got trainer.device={device}; on CPU use trainer.backend=gloo or auto")
    chosen = None
    if world > 1:
        if not dist.is_available():
            raise DistributedError(f"torch {torch.__version__} was built without torch.distributed; "
                                   "install a build with it to train on several ranks")
        chosen = backend if backend != "auto" else "nccl" if device.startswith("cuda") else "gloo"
        if chosen == "nccl" and not dist.is_nccl_available():
            raise DistributedError(f"this torch build ({torch.__version__}) has no NCCL; use trainer.backend=gloo")
    return Distributed(torch.device(device), rank, world, local_rank, local_world, chosen)


# ---- the command line under torchrun ---------------------------------------------------------------

def hydra_overrides(argv) -> list:
    """Overrides a rank started by torchrun adds to its command line: one run folder for
    every rank, and Hydra's own files (.hydra/, the job log) written by rank 0 alone."""
    if world_size() <= 1:
        return []
    check_launch()
    if any(a in ("-m", "--multirun") or a.startswith("--multirun") for a in argv):
        raise DistributedError("torchrun starts one training run on several ranks; a Hydra sweep (-m/--multirun) "
                               "cannot run inside it: drop -m, or sweep with a Hydra launcher instead of torchrun "
                               "(docs/scaling.md)")
    extra = []
    if not any(a.startswith("hydra.run.dir=") for a in argv):
        run_id = os.environ.get("TORCHELASTIC_RUN_ID", "")
        if not run_id or run_id == "none":
            raise DistributedError("under torchrun every rank must use the same run folder: give "
                                   "hydra.run.dir=<folder> (on a filesystem all nodes share), or a rendezvous id "
                                   "(torchrun --rdzv-id=<job id>), which names it runs/<name>/torchrun-<id>")
        extra.append("hydra.run.dir=runs/${name}/torchrun-" + run_id)
    if _env_int("RANK", 0) != 0:
        extra += ["hydra.output_subdir=null", "hydra/job_logging=stdout"]
    return extra


def launch_command() -> list:
    """How this process was started, for the resume command: ``python -m gota_arena`` or
    the torchrun equivalent (multi-node rendezvous options are the person's own)."""
    world, local_world = world_size(), _env_int("LOCAL_WORLD_SIZE", 1)
    if world <= 1:
        return ["python", "-m", "gota_arena"]
    if world == local_world:
        return ["torchrun", "--standalone", f"--nproc_per_node={local_world}", "-m", "gota_arena"]
    return ["torchrun", f"--nnodes={world // local_world}", f"--nproc_per_node={local_world}",
            "--rdzv-backend=c10d", "--rdzv-endpoint=<host:port>", "-m", "gota_arena"]


# ---- the sync check --------------------------------------------------------------------------------

def weights_digest(module: torch.nn.Module) -> str:
    """sha256 of a module's parameters and buffers (names, dtypes, shapes, bytes)."""
    h = hashlib.sha256()
    for name, tensor in sorted(module.state_dict().items()):
        t = tensor.detach().cpu().contiguous()
        h.update(f"{name}:{t.dtype}:{tuple(t.shape)};".encode())
        h.update(t.view(-1).view(torch.uint8).numpy().tobytes())
    return h.hexdigest()


class DigestLog:
    """The ``GOTA_DIGESTS`` check: one line per update and rank (see the module docstring)."""

    def __init__(self, folder, rank: int):
        self.path = Path(folder) / f"rank-{rank}.txt"
        self.path.parent.mkdir(parents=True, exist_ok=True)

    @classmethod
    def from_env(cls, rank: int) -> Optional["DigestLog"]:
        folder = os.environ.get(DIGESTS_ENV)
        return cls(folder, rank) if folder else None

    def write(self, update: int, global_step: int, module: torch.nn.Module, rollout: torch.Tensor) -> None:
        data = rollout.detach().cpu().contiguous().view(-1).view(torch.uint8).numpy().tobytes()
        with open(self.path, "a") as f:
            f.write(f"{update} {global_step} {weights_digest(module)} {hashlib.sha256(data).hexdigest()}\n")


__all__ = ["Distributed", "DistributedError", "DigestLog", "setup", "check_launch", "rank_seed", "world_size",
           "hydra_overrides", "launch_command", "weights_digest", "BACKENDS", "DIGESTS_ENV"]
