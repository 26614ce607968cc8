"""What a training run is at the end of an update, and what its checkpoint holds.

    state = TrainingState(policy, optimizer, league, plain)
    state.resume(run_dir, ddp)          # trainer.resume=true: the checkpoint's weights, optimizer, league, RNG, ...
    state.mark()                        # at the end of an update: the RNG and league states a checkpoint saves
    path = state.save(run_dir, ddp, reason, windows)    # every rank calls it; rank 0 writes

The checkpoint (format ``gota-train/1``, train/checkpoint.py) holds the policy's
weights and normalisation statistics, the optimizer, the update and step
counters, the wall and CPU seconds, the episodes so far and the report's rolling
windows (train/report.py: the charts go on after a resume), the RNG states of
Python, numpy and torch and the league's state (of every rank), the resolved
config, the policy's adapter and options and the contract hash. With it go
``policy.safetensors`` and the league's table ``league.json``; with
``trainer.keep_policies`` each checkpoint's policy also stays, as
``checkpoints/policy_<agent-steps>.safetensors``.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Optional

from .. import __version__
from ..contract import INFO
from ..errors import GotaError
from ..files import remove_leftovers
from ..policies import save_policy
from .checkpoint import (
    FORMAT, CheckpointError, TrainingError, load_checkpoint, restart_hint, rng_state, save_checkpoint, set_rng_state,
)
from .distributed import Distributed

CHECKPOINT = Path("checkpoints") / "last.pt"
POLICY = "policy.safetensors"


def kept_policy(run_dir: Path, global_step: int) -> Path:
    """Where trainer.keep_policies keeps the policy of the checkpoint at ``global_step``
    (zero-padded, so the files sort by agent-steps)."""
    return run_dir / CHECKPOINT.parent / f"policy_{global_step:012d}.safetensors"

# config keys that may change when a run is resumed (budget, logging, evaluation, thread counts: a
# resumed run on a busier machine may take fewer threads; float sums then differ in the last bits)
RESUMABLE = ("trainer.total_steps", "trainer.resume", "trainer.progress", "trainer.progress_every",
             "trainer.tensorboard", "trainer.plots", "trainer.keep_policies", "trainer.backend",
             "trainer.torch_threads", "trainer.learn_threads", "env.threads", "eval")


class TrainingState:
    """The policy, its optimizer, the league and the counters of a run (``plain``: its resolved config)."""

    def __init__(self, policy, optimizer, league, plain: dict):
        self.policy, self.optimizer, self.league, self.plain = policy, optimizer, league, plain
        self.update = self.global_step = 0
        self.episodes = 0                        # finished episodes before this process
        self.windows = None                      # the report's rolling windows at the checkpoint, if it has them
        self.elapsed = self.cpu = 0.0            # wall and CPU seconds (all threads) before this process
        self.start_clock()
        self.mark()

    def start_clock(self) -> None:
        self.started, self.started_cpu = time.perf_counter(), time.process_time()

    def seconds(self) -> tuple:
        """Wall and CPU seconds of the whole run so far."""
        return (self.elapsed + time.perf_counter() - self.started,
                self.cpu + time.process_time() - self.started_cpu)

    def mark(self) -> None:
        """Remember the RNG and league states now, the end of an update: what a checkpoint saves
        (a rollout dropped by Ctrl-C leaves no trace in it)."""
        self.rng = rng_state()
        self.league_state = self.league.state_dict() if self.league is not None else {}

    # ---- resume ----------------------------------------------------------------------------
    def resume(self, run_dir: Path, ddp: Distributed) -> None:
        """Take up the run's checkpoint: TrainingError or CheckpointError, saying what to do,
        when it is missing, damaged, or of another contract, policy, config or number of ranks."""
        path = run_dir / CHECKPOINT
        if not path.exists():
            raise TrainingError(f"trainer.resume=true but {path} does not exist: point hydra.run.dir at "
                                "the folder of the run to continue (it holds checkpoints/last.pt)")
        ck = load_checkpoint(path)   # CheckpointError: missing, truncated, damaged, not a checkpoint
        try:
            self._check(ck, path, run_dir, ddp.world)
            self.policy.load_state_dict(ck["model"])
            self.optimizer.load_state_dict(ck["optimizer"])
            mine = ck if ddp.rank == 0 else ck["other_ranks"][ddp.rank - 1]   # this rank's RNG and league states
            if self.league is not None:
                self.league.load_state_dict(mine["league"])
            set_rng_state(mine["rng"])
            self.update, self.global_step = int(ck["update"]), int(ck["global_step"])
            self.elapsed, self.episodes = float(ck["elapsed"]), int(ck["episodes"])
            self.cpu = float(ck.get("cpu", 0.0))
            self.windows = ck.get("windows")     # checkpoints before they were kept have none
        except (GotaError, FileNotFoundError):
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, RuntimeError, OverflowError) as error:
            raise CheckpointError(f"training checkpoint {path} is damaged: it reads, but "
                                  f"{type(error).__name__}: {error}; {restart_hint(path)}") from None
        if ddp.main:
            # a run killed in a write leaves its temporary behind, and one killed between its
            # checkpoint and its policy files an older policy.safetensors (and no kept policy of
            # the checkpoint's update): both are put right now
            for folder in (run_dir, path.parent, run_dir / "league"):
                remove_leftovers(folder)
            self._save_policies(run_dir)

    def _check(self, ck: dict, path: Path, run_dir: Path, world: int) -> None:
        policy = self.policy
        if ck["contract_hash"] != f"{INFO.hash:016x}":
            raise CheckpointError(f"{path} was made for contract {ck['contract_hash']} (gota-arena "
                                  f"{ck.get('gota_arena', '?')}), this build has {INFO.hash:016x}: its "
                                  "observations and actions differ, so it cannot be resumed with this "
                                  f"gota-arena ({__version__}); resume it with the version that wrote it, or "
                                  "start a new run in another hydra.run.dir")
        old = json.loads(ck["config"])
        saved = (ck.get("adapter"), json.loads(ck.get("policy_config", "null")))
        if saved[0] is not None and saved != (policy.adapter, json.loads(json.dumps(policy.config))):
            raise CheckpointError(f"{path} holds a {saved[0]} policy with {saved[1]}; this run builds "
                                  f"{policy.adapter} with {policy.config}; resume with the run's own policy "
                                  f"overrides (see {run_dir / 'config.yaml'}), or start a new run in another "
                                  "hydra.run.dir")
        # policy options are compared as built (above): none set and the defaults spelled out are the same
        changed = [k for k in _diff(old, self.plain) if not k.startswith(RESUMABLE + ("policy.options",))]
        if changed:
            raise TrainingError(f"the config differs from the checkpoint's ({path}) in "
                                f"{', '.join(changed)}; resume with the run's own overrides (see "
                                f"{run_dir / 'config.yaml'}); only the budget, logging, evaluation and thread "
                                "counts may change")
        if ck.get("world_size", 1) != world:
            raise TrainingError(f"{path} was written by a run of {ck.get('world_size', 1)} rank(s); "
                                f"resume it with as many (this one has {world}): the ranks' matches and "
                                "RNG states are in the checkpoint")

    # ---- save ----------------------------------------------------------------------------------
    def save(self, run_dir: Path, ddp: Distributed, reason: str, windows: dict) -> Optional[str]:
        """Every rank calls it (its marked RNG and league states go to rank 0); rank 0 writes
        the checkpoint, the policy file and the league's table, and returns the checkpoint's path.
        ``windows``: the report's episode count and rolling windows (Reporter.windows)."""
        states = ddp.gather({"rng": self.rng, "league": self.league_state})
        if not ddp.main:
            return None
        elapsed, cpu = self.seconds()
        policy = self.policy
        payload = {"format": FORMAT, "contract_hash": f"{INFO.hash:016x}", "gota_arena": __version__,
                   "config": json.dumps(self.plain), "adapter": policy.adapter,
                   "policy_config": json.dumps(policy.config),
                   "model": policy.state_dict(), "optimizer": self.optimizer.state_dict(),
                   "update": self.update, "global_step": self.global_step, "episodes": windows["episodes"],
                   "windows": windows,
                   "elapsed": elapsed, "cpu": cpu, "rng": self.rng, "league": self.league_state, "reason": reason,
                   "world_size": ddp.world, "other_ranks": states[1:]}
        path = save_checkpoint(run_dir / CHECKPOINT, payload)
        self._save_policies(run_dir)
        if self.league is not None:
            self.league.save_table(run_dir / "league.json")
        return path

    def _save_policies(self, run_dir: Path) -> None:
        """policy.safetensors, and with trainer.keep_policies the kept copy of this update's."""
        extra = {"update": self.update, "global_step": self.global_step}
        save_policy(self.policy, str(run_dir / POLICY), extra=extra)
        if self.plain["trainer"]["keep_policies"]:
            save_policy(self.policy, str(kept_policy(run_dir, self.global_step)), extra=extra)


def _diff(a, b, prefix="") -> list:
    out = []
    for k in sorted(set(a) | set(b)):
        key = f"{prefix}{k}"
        if isinstance(a.get(k), dict) and isinstance(b.get(k), dict):
            out += _diff(a[k], b[k], key + ".")
        elif a.get(k) != b.get(k):
            out.append(key)
    return out


__all__ = ["TrainingState", "CHECKPOINT", "POLICY", "RESUMABLE", "kept_policy"]
