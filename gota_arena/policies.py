"""Policy adapters: a policy built from config, acting on a batch of seats.

A ``Policy`` (usually a torch module; see gota_arena/nets.py) offers

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

A policy plays as it was trained: the trainer sets ``policy.play`` (a
``PlaySettings``: ticks a decision, max ticks, upkeep, match keys), ``save_policy``
writes it and ``load_policy`` sets it again, and every evaluator plays the policy
under those settings or refuses with a ``PlaySettingsError`` that says which
setting cannot be honoured. A file written before settings were recorded loads
with ``play = None``: evaluators then play it at their own settings.
"""
from __future__ import annotations

import contextlib
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from . import __version__
from .contract import INFO
from .errors import GotaError, PluginError
from .files import atomic_path


class PlaySettingsError(GotaError):
    """A policy cannot be played under the settings it was trained under (the message says which and why)."""


@dataclass(frozen=True)
class PlaySettings:
    """The arena settings a policy was trained under, saved with its weights."""

    action_ticks: int                 # ticks per decision
    max_ticks: int                    # battle ticks before a timeout
    upkeep: bool                      # ability points, shopping, buyback done by the simulator
    match: dict = field(default_factory=dict)   # other simulator keys (wave_interval, class_0, ...)

    @classmethod
    def of_env(cls, env: dict) -> "PlaySettings":
        """From the ``env`` config group of a run."""
        return cls(int(env["action_ticks"]), int(env["max_ticks"]), bool(env["upkeep"]),
                   {k: int(v) for k, v in dict(env.get("match") or {}).items()})

    def to_json(self) -> str:
        return json.dumps({"action_ticks": self.action_ticks, "max_ticks": self.max_ticks,
                           "upkeep": self.upkeep, "match": self.match}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "PlaySettings":
        return cls.of_env(json.loads(text))

    def describe(self) -> str:
        keys = "".join(f", {k}={v}" for k, v in sorted(self.match.items()))
        return (f"{self.action_ticks} ticks a decision, max_ticks={self.max_ticks}, "
                f"upkeep={'on' if self.upkeep else 'off'}{keys}")


@dataclass
class PolicyOutput:
    actions: np.ndarray           # int32 [n, 5]
    log_prob: np.ndarray          # float32 [n]
    value: np.ndarray             # float32 [n]
    state: Optional[Any] = None   # the recurrent state after this step, or None


@contextlib.contextmanager
def acting_threads():
    """Torch on one thread while policies act in an evaluation: their batches are small,
    and more threads contend with the simulator's for the cores (a 5x slowdown measured
    on 2 cores). Nothing is done where torch is not loaded."""
    torch = sys.modules.get("torch")
    if torch is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def save_policy(policy, path: str, extra: Optional[dict] = None) -> str:
    """Write ``policy`` to ``path`` (a .safetensors file) atomically, with its
    ``play`` settings when it has them."""
    from safetensors.torch import save_file

    tensors = {k: v.detach().cpu().contiguous() for k, v in policy.state_dict().items()}
    meta = {"format": "gota-policy/1", "adapter": policy.adapter, "config": json.dumps(policy.config),
            "contract_hash": f"{INFO.hash:016x}", "gota_arena": __version__}
    play = getattr(policy, "play", None)
    if play is not None:
        meta["play"] = play.to_json()
    meta.update({k: json.dumps(v) for k, v in (extra or {}).items()})
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with atomic_path(path) as tmp:
        save_file(tensors, tmp, metadata=meta)
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
    damaged = (f"policy checkpoint {path!r} has damaged metadata", "save it again with gota_arena.policies.save_policy "
               "(a training run rewrites its policy.safetensors at each checkpoint)")
    try:
        adapter, config = meta["adapter"], json.loads(meta["config"])
        play = PlaySettings.from_json(meta["play"]) if "play" in meta else None
        if not isinstance(config, dict):
            raise TypeError(f"the adapter's config is a {type(config).__name__}, not a mapping")
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise PluginError(f"{damaged[0]} ({type(error).__name__}: {error}); {damaged[1]}") from None
    try:
        policy = plugins.policy(adapter, **config)
    except PluginError as error:   # an adapter no plugin registers here, options it does not take
        raise PluginError(f"policy checkpoint {path!r}: {error}") from None
    except Exception as error:   # the adapter's own check of its options (a size of -5, ...)
        raise PluginError(f"policy checkpoint {path!r}: adapter {adapter!r} refused the saved config {config} "
                          f"({type(error).__name__}: {error}); {damaged[1]}") from None
    try:
        weights = load_file(path, device="cpu")
    except Exception as error:
        raise PluginError(f"policy checkpoint {path!r}: its weights cannot be read ({type(error).__name__}: "
                          f"{error}); it may be truncated or corrupt, copy or save it again") from None
    for name, tensor in weights.items():
        if tensor.is_floating_point() and not bool(tensor.isfinite().all()):
            raise PluginError(f"policy checkpoint {path!r}: weight {name!r} holds NaN or infinite values; the file is "
                              "damaged or its training diverged: use an earlier snapshot or checkpoint")
    try:
        policy.load_state_dict(weights)
    except Exception as error:
        raise PluginError(f"policy checkpoint {path!r} does not fit adapter {adapter!r}: {error}") from None
    if hasattr(policy, "to"):
        policy = policy.to(device)
    policy.play = play
    return policy


__all__ = ["PolicyOutput", "PlaySettings", "PlaySettingsError", "acting_threads", "save_policy", "load_policy",
           "read_policy_metadata"]
