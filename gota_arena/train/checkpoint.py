"""Training checkpoints: one file, written atomically, read back without pickle.

    save_checkpoint(path, payload)      # temp file in the same folder, fsync, os.replace, fsync the folder
    payload = load_checkpoint(path)     # torch.load(weights_only=True): tensors and plain data only

A crash (or Ctrl-C) during a save leaves the previous checkpoint intact: the
new file replaces it in one rename. ``rng_state()`` / ``set_rng_state()``
capture Python's, numpy's and torch's (CPU and CUDA) global generators as
tensors and plain data, so they travel in the same file.
"""
from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import numpy as np
import torch

from ..files import fsync_directory

FORMAT = "gota-train/1"


def save_checkpoint(path, payload: dict) -> str:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(payload, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
        fsync_directory(path.parent)
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.remove(tmp)
    return str(path)


def load_checkpoint(path) -> dict:
    payload = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise ValueError(f"{path} is not a gota-arena training checkpoint (format {FORMAT})")
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


__all__ = ["save_checkpoint", "load_checkpoint", "rng_state", "set_rng_state", "FORMAT"]
