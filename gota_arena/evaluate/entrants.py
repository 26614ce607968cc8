"""Entrants of a leaderboard: what plays one team of a game.

An entrant is written in the config as
- a registered opponent name: a native bot (``base``) or a plugin's opponent;
- ``{name: ..., opponent: <registered name>, options: {...}}``;
- ``{name: ..., checkpoint: <path of a saved policy>}``: a policy checkpoint,
  played greedily (its most likely action).
Every entrant becomes a ``gota_arena.opponents.Opponent``. An entrant that
cannot be built (a missing, corrupt or foreign checkpoint, an unknown name) is
reported with the reason and left out; the rest of the leaderboard still runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .. import plugins
from ..errors import GotaError
from ..opponents import Opponent, PolicyOpponent
from ..policies import load_policy


@dataclass
class Entrant:
    name: str
    opponent: Optional[Opponent] = None
    source: str = ""
    error: Optional[str] = None
    spec: dict = field(default_factory=dict)


def parse(entry) -> dict:
    """A config entry as a dict with ``name`` and one of ``opponent`` / ``checkpoint``."""
    if isinstance(entry, str):
        return {"name": entry, "opponent": entry}
    spec = dict(entry)
    if "checkpoint" not in spec and "opponent" not in spec:
        if "name" not in spec:
            raise GotaError(f"leaderboard entrant {entry!r} needs a name and an opponent or a checkpoint")
        spec["opponent"] = spec["name"]
    spec.setdefault("name", spec.get("opponent") or spec.get("checkpoint"))
    return spec


def build(entry, device: str = "cpu") -> Entrant:
    spec = parse(entry)
    name = str(spec["name"])
    try:
        if "checkpoint" in spec:
            policy = load_policy(str(spec["checkpoint"]), device=device)
            opponent = PolicyOpponent(policy, name=name, deterministic=True)
            return Entrant(name, opponent, f"checkpoint {spec['checkpoint']} ({policy.adapter})", spec=spec)
        opponent = plugins.opponent(str(spec["opponent"]), **dict(spec.get("options") or {}))
        opponent.name = name
        kind = "native bot" if opponent.bot else "BASIC script" if opponent.script is not None else "plugin opponent"
        return Entrant(name, opponent, f"{kind} {spec['opponent']}", spec=spec)
    except GotaError as error:
        return Entrant(name, None, str(spec.get("checkpoint") or spec.get("opponent")), error=str(error), spec=spec)


__all__ = ["Entrant", "build", "parse"]
