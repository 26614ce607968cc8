"""The bundled policy adapters: random (numpy) here; mlp, lstm and entity
(torch, gota_arena.nets) are registered when torch is installed, and
torch is imported only when one is built."""
import importlib.util

import numpy as np

from gota_arena import hookimpl
from gota_arena.contract import INFO
from gota_arena.masking import (ABILITY, ITEM, POINT, TARGET, USES, VERB, ability_mask, item_mask, sample_actions,
                                target_mask, verb_mask)
from gota_arena.policies import PolicyOutput


class RandomPolicy:
    """Uniformly random legal actions from the conditional mask; value 0."""

    adapter = "random"

    def __init__(self, seed: int = 0):
        self.config = {"seed": int(seed)}
        self._rng = np.random.default_rng(seed)

    def initial_state(self, n):
        return None

    def act(self, obs, masks, state=None, episode_start=None, deterministic=False):
        actions = sample_actions(masks, self._rng)
        return PolicyOutput(actions, self.log_prob(masks, actions), np.zeros(len(masks), np.float32), None)

    @staticmethod
    def log_prob(masks, actions):
        """log-probability of each action under uniform sampling of its used heads."""
        verbs, abilities = actions[:, VERB].astype(np.int64), actions[:, ABILITY].astype(np.int64)
        logp = -np.log(verb_mask(masks).sum(1))
        logp -= np.log(ability_mask(masks, verbs).sum(1)) * USES[verbs, ABILITY]
        logp -= np.log(item_mask(masks, verbs).sum(1)) * USES[verbs, ITEM]
        logp -= np.log(target_mask(masks, verbs, abilities).sum(1)) * USES[verbs, TARGET]
        logp -= np.log(float(INFO.points)) * USES[verbs, POINT]   # the point head is never masked
        return logp.astype(np.float32)

    def state_dict(self):
        return {}

    def load_state_dict(self, weights):
        if weights:
            raise ValueError(f"the random policy has no weights, got {sorted(weights)}")


# Lazy factories: torch is imported when a policy is built. Their signatures are
# the policies' own (gota_arena/nets.py), so options are checked by name.
def mlp(hidden: int = 256, layers: int = 2, activation: str = "tanh", obs_norm: bool = True, norm_clip: float = 5.0):
    from gota_arena.nets import MLPPolicy
    return MLPPolicy(hidden=hidden, layers=layers, activation=activation, obs_norm=obs_norm, norm_clip=norm_clip)


def lstm(hidden: int = 256, activation: str = "tanh", obs_norm: bool = True, norm_clip: float = 5.0):
    from gota_arena.nets import LSTMPolicy
    return LSTMPolicy(hidden=hidden, activation=activation, obs_norm=obs_norm, norm_clip=norm_clip)


def entity(embed: int = 32, hidden: int = 256, layers: int = 2, activation: str = "relu",
           obs_norm: bool = True, norm_clip: float = 5.0):
    from gota_arena.nets import EntityPolicy
    return EntityPolicy(embed=embed, hidden=hidden, layers=layers, activation=activation, obs_norm=obs_norm,
                        norm_clip=norm_clip)


@hookimpl
def gota_register_policies(register):
    register("random", RandomPolicy, "uniformly random legal actions (a baseline; no weights)")
    if importlib.util.find_spec("torch") is not None:
        register("mlp", mlp, "torch MLP with conditional masked heads (hidden, layers, activation, obs_norm)")
        register("lstm", lstm, "torch MLP layer + LSTM, state reset at episode starts (hidden, activation, obs_norm)")
        register("entity", entity, "torch shared row encoders, pooling and pointer target heads "
                 "(embed, hidden, layers, activation, obs_norm)")
