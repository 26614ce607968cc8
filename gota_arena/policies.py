"""Policy adapters: a policy built from config, acting on a batch of seats.

A ``Policy`` (usually a torch module; see gota_arena/train/nets.py) offers

    state = policy.initial_state(n)          # None for feed-forward policies,
                                             # else a tuple of [layers, n, ...] tensors
    out = policy.act(obs, masks, state=None, episode_start=None, deterministic=False)
    out.actions (int32 numpy [n, 5]), out.log_prob, out.value (float32 numpy [n]), out.state
    policy.adapter, policy.config            # the registered adapter name and its options
    policy.state_dict() / load_state_dict()  # tensors only (may be empty)

Policies are registered by plugins (``gota_register_policies``) and built with
``gota_arena.plugins.policy(name, **config)``. ``save_policy`` writes the weights
with safetensors (no pickle) and the adapter name, config and contract hash as
metadata; ``load_policy`` rebuilds the policy through its adapter and refuses a
file made for another observation/action contract.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from . import __version__
from .contract import INFO
from .errors import PluginError


@dataclass
class PolicyOutput:
    actions: np.ndarray           # int32 [n, 5]
    log_prob: np.ndarray          # float32 [n]
    value: np.ndarray             # float32 [n]
    state: Optional[Any] = None   # the recurrent state after this step, or None


def save_policy(policy, path: str, extra: Optional[dict] = None) -> str:
    """Write ``policy`` to ``path`` (a .safetensors file) atomically."""
    from safetensors.torch import save_file

    tensors = {k: v.detach().cpu().contiguous() for k, v in policy.state_dict().items()}
    meta = {"format": "gota-policy/1", "adapter": policy.adapter, "config": json.dumps(policy.config),
            "contract_hash": f"{INFO.hash:016x}", "gota_arena": __version__}
    meta.update({k: json.dumps(v) for k, v in (extra or {}).items()})
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".policy-", suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        save_file(tensors, tmp, metadata=meta)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return path


def read_policy_metadata(path: str) -> dict:
    """The metadata of a saved policy; PluginError for a missing or foreign file."""
    from safetensors import safe_open

    if not os.path.isfile(path):
        raise PluginError(f"policy checkpoint {path!r} does not exist")
    try:
        with safe_open(path, framework="pt") as f:
            meta = f.metadata() or {}
    except Exception as error:
        raise PluginError(f"policy checkpoint {path!r} is not a readable safetensors file "
                          f"({type(error).__name__}: {error}); it may be truncated or corrupt") from None
    if meta.get("format") != "gota-policy/1":
        raise PluginError(f"{path!r} is not a gota-arena policy (format {meta.get('format')!r}); "
                          "save policies with gota_arena.policies.save_policy")
    return meta


def load_policy(path: str, device: str = "cpu"):
    """Rebuild a saved policy through its adapter and load its weights."""
    from safetensors.torch import load_file

    from . import plugins

    meta = read_policy_metadata(path)
    if meta.get("contract_hash") != f"{INFO.hash:016x}":
        raise PluginError(f"policy checkpoint {path!r} was made for contract {meta.get('contract_hash')}, "
                          f"this build has {INFO.hash:016x}: observations and actions differ; retrain it "
                          "or use the gota-arena version it was trained with")
    policy = plugins.policy(meta["adapter"], **json.loads(meta["config"]))
    weights = load_file(path, device="cpu")
    try:
        policy.load_state_dict(weights)
    except Exception as error:
        raise PluginError(f"policy checkpoint {path!r} does not fit adapter {meta['adapter']!r}: {error}") from None
    if hasattr(policy, "to"):
        policy = policy.to(device)
    return policy


__all__ = ["PolicyOutput", "save_policy", "load_policy", "read_policy_metadata"]
