"""Training checkpoints: one file, written atomically, read back without pickle.

    save_checkpoint(path, payload)      # temp file in the same folder, fsync, os.replace, fsync the folder
    payload = load_checkpoint(path)     # torch.load(weights_only=True): tensors and plain data only

A crash (or Ctrl-C, or SIGKILL) during a save leaves the previous checkpoint
intact: the new file replaces it in one rename. A file that cannot be read
(truncated by a copy, a full disk) or is not a checkpoint raises
``CheckpointError`` naming the file and what to do. ``rng_state()`` / ``set_rng_state()``
capture Python's, numpy's and torch's (CPU and CUDA) global generators as
tensors and plain data, so they travel in the same file.
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import torch

from ..errors import GotaError
from ..files import atomic_path

FORMAT = "gota-train/1"


class TrainingError(GotaError):
    """A run cannot start or continue as configured (the message says why and what to do)."""


class CheckpointError(TrainingError, ValueError):
    """A training checkpoint cannot be read, is damaged, or belongs to another run,
    policy or contract; the message names the file and what to do."""


def restart_hint(path) -> str:
    """What to do about a checkpoint that cannot be resumed."""
    policy = Path(path).parent.parent / "policy.safetensors"
    return ("restore the file from a copy, or start a new run (another hydra.run.dir) from its weights with "
            f"trainer.init_from={policy} (the optimizer, league and RNG states are then lost)")


def save_checkpoint(path, payload: dict) -> str:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        torch.save(payload, f)
    return str(path)


def load_checkpoint(path) -> dict:
    """The payload of a checkpoint file; CheckpointError for a missing, unreadable
    (truncated, damaged) or foreign file."""
    if not os.path.isfile(path):
        raise CheckpointError(f"training checkpoint {path} does not exist")
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:   # torch's reader: RuntimeError, pickle/zip/EOF errors, ... for a bad file
        raise CheckpointError(f"training checkpoint {path} cannot be read ({type(error).__name__}: "
                              f"{str(error).strip().splitlines()[0] if str(error).strip() else 'no detail'}); "
                              f"it is truncated or damaged: {restart_hint(path)}") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise CheckpointError(f"{path} is not a gota-arena training checkpoint (format {FORMAT}); "
                              f"{restart_hint(path)}")
    return payload


def rng_state() -> dict:
    py = random.getstate()
    kind, keys, pos, has_gauss, gauss = np.random.get_state()
    state = {"python": (py[0], torch.tensor(py[1], dtype=torch.int64), py[2]),
             "numpy": (kind, torch.from_numpy(keys.astype(np.int64)), int(pos), int(has_gauss), float(gauss)),
             "torch": torch.get_rng_state()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: dict) -> None:
    version, keys, gauss = state["python"]
    random.setstate((version, tuple(int(k) for k in keys.tolist()), gauss))
    kind, keys, pos, has_gauss, gauss = state["numpy"]
    np.random.set_state((kind, keys.numpy().astype(np.uint32), pos, has_gauss, gauss))
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


__all__ = ["save_checkpoint", "load_checkpoint", "rng_state", "set_rng_state", "FORMAT", "TrainingError",
           "CheckpointError"]
