"""``ppo``: a policy trained with this package's own PPO recipe (docs/training.md,
``+experiment=beat_bots``), shipped so that anyone who installs gota-arena can
play against, evaluate or fine-tune a trained player at once:

    opponent.pool=[ppo]                  # an opponent in training (greedy)
    leaderboard.entrants=[ppo, base]     # a leaderboard entrant
    trainer.init_from=ppo                # a starting point (or policy.name=ppo)

The weights are ``trained/ppo.safetensors`` (with the settings it was trained
under: it plays at its own decision interval everywhere), and
``trained/ppo.yaml`` is the config of the run that made them.
"""
import importlib.util
from pathlib import Path

from gota_arena import hookimpl

WEIGHTS = Path(__file__).resolve().parent / "trained" / "ppo.safetensors"
CONFIG = WEIGHTS.with_suffix(".yaml")


def trained_policy(device: str = "cpu"):
    """The trained policy, ready to act or to train further."""
    from gota_arena.policies import load_policy
    return load_policy(str(WEIGHTS), device=device)


def ppo_opponent(deterministic: bool = True):
    from gota_arena.opponents import PolicyOpponent
    policy = trained_policy()
    policy.eval()
    return PolicyOpponent(policy, name="ppo", deterministic=deterministic)


@hookimpl
def gota_register_opponents(register):
    if importlib.util.find_spec("torch") is not None:
        register("ppo", ppo_opponent, "the bundled trained PPO policy (greedy; deterministic=false samples)")


@hookimpl
def gota_register_policies(register):
    if importlib.util.find_spec("torch") is not None:
        register("ppo", trained_policy, "the bundled trained PPO policy (an entity network) with its weights, to train further")
