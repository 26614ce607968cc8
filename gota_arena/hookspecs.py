"""Every hook of gota-arena: the whole manual a plugin author needs.

A plugin is a module (or any object) with functions named after these hooks and
marked ``@gota_arena.hookimpl``. Every plugin is found through the
``gota_arena`` entry-point group of its distribution, the bundled ones in
``plugins/gota_bundled`` too (gota-arena's own pyproject.toml lists them):

    [project.entry-points.gota_arena]
    my_plugin = "my_package.my_module"

Hook names start with ``gota_``; a misspelled one, or one with other
arguments, leaves the plugin out with a ``PluginWarning`` at start-up (an
error for a plugin registered in the process). The environment variable
``GOTA_LOAD_PLUGINS`` chooses which installed plugins load: unset, all of
them; set, gota-arena's own plus the entry-point names it lists (comma-separated;
``*`` for all), less those written ``-name``. ``python -m gota_arena plugins``
lists what is loaded and what each registers.

Importing this module loads neither the simulator nor torch.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import pluggy

hookspec = pluggy.HookspecMarker("gota_arena")
hookimpl = pluggy.HookimplMarker("gota_arena")

# A registration callback: register(name, factory, description="").
Register = Callable[..., None]


# ---------------------------------------------------------------------------
# Registration: called whenever the registries are built (at the start of a
# run, by `gota-arena plugins`, by tests). Names are global across plugins:
# two plugins registering one name is an error naming both.
# ---------------------------------------------------------------------------

@hookspec
def gota_register_opponents(register: Register) -> None:
    """Register opponents by name.

    Call ``register(name, factory, description="")`` once per opponent.
    ``factory(**options)`` is called when a run asks for ``name`` (options come
    from the config, e.g. ``opponent.options``) and must return a
    ``gota_arena.opponents.Opponent``: either one with ``bot`` set to a native
    bot name (the simulator plays those seats; ``act`` is never called), a
    ``gota_arena.basic.ScriptOpponent`` of a ``.bas`` file (the simulator runs
    the BASIC script on those seats; docs/basic.md), or one whose ``act(seats)`` maps a ``SeatBatch`` (observations, masks, lanes,
    episode starts of every seat it plays, all lanes at once) to int32 actions
    ``[n, 5]`` that the masks allow.
    """


@hookspec
def gota_register_reward_modes(register: Register) -> None:
    """Register reward modes by name.

    Call ``register(name, factory, description="")``. ``factory(**options)``
    returns a ``gota_arena.rewards.RewardMode``: ``reset(signals)`` is called
    after the arena resets, with the reward signals ``int64 [lanes, 2,
    SIGNALS]``; ``rewards(signals)`` is called after every step and returns
    finite per-team rewards ``float [lanes, 2]`` (team 0 = red, 1 = blue).
    A lane whose ``done`` signal is 1 restarts: the mode settles its episode and
    starts the lane's potentials afresh. Subclass ``PotentialReward`` for the
    common case.
    """


@hookspec
def gota_register_policies(register: Register) -> None:
    """Register policy adapters by name.

    Call ``register(name, factory, description="")``. ``factory(**config)``
    builds a fresh policy (the protocol of ``gota_arena/policies.py``) from its
    config (the ``policy`` config group's options; none set: the factory's
    defaults); ``gota_arena.policies.load_policy`` calls the same factory with
    the config stored in a checkpoint, then loads the weights. PPO trains a
    policy that is a ``torch.nn.Module`` with ``forward_act``, ``evaluate`` and
    ``get_value`` (docs/plugins.md, "Policies PPO can train";
    ``gota_arena.train.ppo.trainable_problems`` says what one lacks).
    """


# ---------------------------------------------------------------------------
# Events: called by the trainer and the evaluator at a few named points; every
# plugin that implements the hook is called; return values are ignored.
# ---------------------------------------------------------------------------

@dataclass
class EpisodeEnd:
    """Lanes that finished in one step (one entry per finished lane).

    ``stats`` is a structured array (``gota_arena.arena.LANE_STATS_DTYPE``)
    from the learner team's side; ``opponents`` the opponent name per entry;
    ``global_step`` the trainer's agent-step counter (0 outside training).
    """

    stats: Any
    opponents: list
    global_step: int = 0


@dataclass
class CheckpointSaved:
    """A checkpoint was written (atomically) to ``path`` at ``global_step``."""

    path: str
    global_step: int
    metrics: dict = field(default_factory=dict)


@dataclass
class EvaluationFinished:
    """A leaderboard or evaluation finished; ``table`` holds one dict per entrant."""

    table: list
    output_dir: Optional[str] = None


@hookspec
def gota_episode_end(episode: EpisodeEnd) -> None:
    """Called after each step in which lanes finished, with their lane stats."""


@hookspec
def gota_checkpoint_saved(checkpoint: CheckpointSaved) -> None:
    """Called after the trainer saved a checkpoint."""


@hookspec
def gota_evaluation_finished(report: EvaluationFinished) -> None:
    """Called when an evaluation run has its final table."""
