"""Torch policies for the five-head action under the conditional mask.

The action distribution (``ActionDistribution``) follows gota_arena/masking.py
exactly: the verb is sampled from ``mask.verb``; the ability from
``mask.cast_target_ability`` (castTarget) or ``mask.cast_point_ability``
(castPoint); the item from ``mask.use_item`` (useItem) or ``mask.use_item_at``
(useItemAt); the target from the target row the verb (and ability) reads; the
point unmasked. A head the verb does not use is set to 0 and left out of the
log-probability and the entropy (its mask allows entry 0 only, so its
log-probability and entropy are exactly 0).

The heads are **conditional on the verb**: the network emits one set of target
logits per target row (7 x 25), one set of point logits per verb that aims a
point (walk, attackMove, castPoint, useItemAt: 4 x 49), one set of ability
logits per casting verb (2 x 4) and one set of item logits per item verb
(2 x 6), next to the 8 verb logits: 399 logits in all. The sampled verb (and
ability) picks the set: where to walk and where to aim a spell are separate
choices, at the cost of a slightly wider output layer.

Entropy (for the bonus): the verb's entropy plus the entropies of the heads the
chosen verb uses (given that verb and its ability). Simple, zero for heads a
verb does not use, and never NaN: masked logits are set to -1e9 (not -inf) and
every head always allows at least one entry (docs/contract.md, "Masks").

Policies (the Policy protocol of gota_arena/policies.py):

    policy = MLPPolicy(hidden=256, layers=2)      # or LSTMPolicy(hidden=256), EntityPolicy(embed=32)
    out = policy.act(obs, masks)                  # numpy in, numpy out, no grad
    log_prob, entropy, value, state = policy.evaluate(obs_t, masks_t, actions_t, state, starts_t)   # torch, for PPO

Observations may be normalised by a running mean and variance (``obs_norm``),
kept as buffers next to the weights, so a saved policy carries them.
"""
from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from .contract import INFO, LAYOUT, VERB_TARGET_ROW
from .masking import (ABILITY, ATTACK_MOVE, CAST_POINT, CAST_TARGET, ITEM, POINT, TARGET, USE_ITEM, USE_ITEM_AT,
                       USES, VERB, WALK)
from .policies import PolicyOutput

# action columns (= head order) VERB, TARGET, POINT, ABILITY, ITEM: from C, through masking
VERBS, TARGETS, POINTS, ABILITIES, ITEMS = INFO.verbs, INFO.targets, INFO.points, INFO.abilities, INFO.items
_ROWS = LAYOUT["mask.target_rows"]
TARGET_ROWS = _ROWS.count
# the verbs that read the point, ability and item heads, in verb order: one logit set each.
# Spelled out (they fix the logit layout of saved weights) and checked against C's verb table.
POINT_VERBS = (WALK, ATTACK_MOVE, CAST_POINT, USE_ITEM_AT)
ABILITY_VERBS = (CAST_TARGET, CAST_POINT)
ITEM_VERBS = (USE_ITEM, USE_ITEM_AT)
for _head, _verbs in ((POINT, POINT_VERBS), (ABILITY, ABILITY_VERBS), (ITEM, ITEM_VERBS)):
    assert _verbs == tuple(np.flatnonzero(USES[:, _head]).tolist()), "the verb table of C changed"

# logit layout of the conditional heads: verb | target rows | point sets | ability sets | item sets
_SIZES = (VERBS, TARGET_ROWS * TARGETS, len(POINT_VERBS) * POINTS, len(ABILITY_VERBS) * ABILITIES,
          len(ITEM_VERBS) * ITEMS)
LOGITS = sum(_SIZES)
_OFF = np.cumsum((0,) + _SIZES)

NEG = -1e9   # masked logit: exp() underflows to exactly 0, arithmetic stays finite


def _table(verbs: tuple) -> list:
    """index of each verb in ``verbs``, -1 for the others"""
    return [verbs.index(v) if v in verbs else -1 for v in range(VERBS)]


_ROW_BASE = list(VERB_TARGET_ROW)   # target row of each verb (castTarget: + ability), -1 none
_MASK = {name: LAYOUT["mask." + name].slice() for name in (
    "verb", "cast_target_ability", "cast_point_ability", "use_item", "use_item_at")}


class _Tables:
    """The small lookup tables on one device (cached per device)."""

    _cache = {}

    def __init__(self, device):
        long = dict(dtype=torch.long, device=device)
        self.point_set = torch.tensor(_table(POINT_VERBS), **long)
        self.ability_set = torch.tensor(_table(ABILITY_VERBS), **long)
        self.item_set = torch.tensor(_table(ITEM_VERBS), **long)
        self.row_base = torch.tensor(_ROW_BASE, **long)
        self.uses = torch.tensor(USES, dtype=torch.bool, device=device)
        self.first = {k: torch.arange(k, device=device) == 0 for k in (TARGETS, POINTS, ABILITIES, ITEMS)}

    @classmethod
    def on(cls, device) -> "_Tables":
        key = str(device)
        if key not in cls._cache:
            cls._cache[key] = cls(device)
        return cls._cache[key]


def _masked_log_softmax(logits: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    return torch.log_softmax(logits.masked_fill(~allowed, NEG), dim=-1)


def _entropy(logp: torch.Tensor) -> torch.Tensor:
    return -(logp.exp() * logp).sum(-1)


def _sample(logp: torch.Tensor, allowed: torch.Tensor, deterministic: bool) -> torch.Tensor:
    """Gumbel-max over the allowed entries only (a masked entry scores -inf: never chosen)."""
    if deterministic:
        scores = logp
    else:
        scores = logp - torch.empty_like(logp).exponential_().log()
    return scores.masked_fill(~allowed, -math.inf).argmax(-1)


class ActionDistribution:
    """The conditional five-head distribution of a batch: ``logits [n, LOGITS]``
    from a network, ``masks`` the conditional masks (uint8 or bool ``[n, 203]``)."""

    def __init__(self, logits: torch.Tensor, masks: torch.Tensor):
        if masks.dtype != torch.bool:
            masks = masks != 0
        self.n = n = logits.shape[0]
        self.t = _Tables.on(logits.device)
        self.idx = torch.arange(n, device=logits.device)
        self.masks = masks
        self.verb = logits[:, _OFF[0]:_OFF[1]]
        self.target = logits[:, _OFF[1]:_OFF[2]].reshape(n, TARGET_ROWS, TARGETS)
        self.point = logits[:, _OFF[2]:_OFF[3]].reshape(n, len(POINT_VERBS), POINTS)
        self.ability = logits[:, _OFF[3]:_OFF[4]].reshape(n, len(ABILITY_VERBS), ABILITIES)
        self.item = logits[:, _OFF[4]:_OFF[5]].reshape(n, len(ITEM_VERBS), ITEMS)
        self.verb_allowed = masks[:, _MASK["verb"]]
        self.verb_logp = _masked_log_softmax(self.verb, self.verb_allowed)

    # ---- one head given the verbs (and abilities) --------------------------
    def _choose(self, uses, allowed, size):
        """allowed where the verb uses the head, entry 0 only elsewhere"""
        return torch.where(uses[:, None], allowed, self.t.first[size])

    def _ability(self, verbs):
        logits = self.ability[self.idx, self.t.ability_set[verbs].clamp(min=0)]
        m = self.masks
        allowed = torch.where((verbs == CAST_TARGET)[:, None], m[:, _MASK["cast_target_ability"]],
                              m[:, _MASK["cast_point_ability"]])
        allowed = self._choose(self.t.uses[verbs, ABILITY], allowed, ABILITIES)
        return _masked_log_softmax(logits, allowed), allowed

    def _item(self, verbs):
        logits = self.item[self.idx, self.t.item_set[verbs].clamp(min=0)]
        m = self.masks
        allowed = torch.where((verbs == USE_ITEM)[:, None], m[:, _MASK["use_item"]], m[:, _MASK["use_item_at"]])
        allowed = self._choose(self.t.uses[verbs, ITEM], allowed, ITEMS)
        return _masked_log_softmax(logits, allowed), allowed

    def _target(self, verbs, abilities):
        base = self.t.row_base[verbs]
        row = torch.where(verbs == CAST_TARGET, base + abilities, base).clamp(min=0)
        logits = self.target[self.idx, row]
        rows = self.masks[:, _ROWS.slice()].reshape(self.n, TARGET_ROWS, TARGETS)
        allowed = self._choose(self.t.uses[verbs, TARGET], rows[self.idx, row], TARGETS)
        return _masked_log_softmax(logits, allowed), allowed

    def _point(self, verbs):
        logits = self.point[self.idx, self.t.point_set[verbs].clamp(min=0)]
        allowed = self.t.uses[verbs, POINT][:, None].expand(-1, POINTS) | self.t.first[POINTS]
        return _masked_log_softmax(logits, allowed), allowed

    # ---- the distribution ----------------------------------------------------
    def sample(self, deterministic: bool = False):
        """(actions long ``[n, 5]`` (verb, target, point, ability, item), legal under
        the mask; their log-probabilities ``[n]``). ``deterministic``: the most
        likely entry of each head in turn."""
        verbs = _sample(self.verb_logp, self.verb_allowed, deterministic)
        logp = self.verb_logp.gather(1, verbs[:, None])[:, 0]
        chosen = [verbs, None, None, None, None]
        for head in (ABILITY, ITEM, TARGET, POINT):
            if head == ABILITY:
                head_logp, allowed = self._ability(verbs)
            elif head == ITEM:
                head_logp, allowed = self._item(verbs)
            elif head == TARGET:
                head_logp, allowed = self._target(verbs, chosen[ABILITY])
            else:
                head_logp, allowed = self._point(verbs)
            pick = _sample(head_logp, allowed, deterministic)
            chosen[head] = pick
            # a head the verb does not use allows entry 0 only: its log-probability is exactly 0
            logp = logp + head_logp.gather(1, pick[:, None])[:, 0]
        return torch.stack(chosen, dim=1), logp

    def log_prob_entropy(self, actions: torch.Tensor):
        """(log-probability, entropy) of each row's action; the entropy is the
        verb's plus that of every head the row's verb uses."""
        actions = actions.long()
        verbs, abilities = actions[:, VERB], actions[:, ABILITY]
        logp = self.verb_logp.gather(1, verbs[:, None])[:, 0]
        entropy = _entropy(self.verb_logp)
        for head, (head_logp, _) in ((ABILITY, self._ability(verbs)), (ITEM, self._item(verbs)),
                                     (TARGET, self._target(verbs, abilities)), (POINT, self._point(verbs))):
            uses = self.t.uses[verbs, head]
            logp = logp + torch.where(uses, head_logp.gather(1, actions[:, head, None])[:, 0], 0.0)
            entropy = entropy + torch.where(uses, _entropy(head_logp), 0.0)
        return logp, entropy

    def log_prob(self, actions: torch.Tensor) -> torch.Tensor:
        return self.log_prob_entropy(actions)[0]


def _layer(layer: nn.Linear, std: float = math.sqrt(2), bias: float = 0.0) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


_ACTIVATIONS = {"tanh": nn.Tanh, "relu": nn.ReLU}


class _TorchPolicy(nn.Module):
    """What the torch policies share: observation normalisation, numpy ``act``
    and the PPO-facing torch methods. A policy's network maps observations to
    features (``_hidden_step``, ``_hidden_seq``); ``_logits`` and ``_value`` map
    features to the 399 logits and the value (by default two linear layers over
    a feature vector, made by ``_linear_heads``)."""

    adapter = "?"
    recurrent = False

    def __init__(self, hidden: int, activation: str, obs_norm: bool, norm_clip: float):
        super().__init__()
        if activation not in _ACTIVATIONS:
            raise TypeError(f"activation must be one of {sorted(_ACTIVATIONS)}, got {activation!r}")
        if int(hidden) < 1:
            raise TypeError(f"hidden must be a positive integer, got {hidden!r}")
        self.obs_norm, self.norm_clip = bool(obs_norm), float(norm_clip)
        self.register_buffer("obs_mean", torch.zeros(INFO.obs_size))
        self.register_buffer("obs_var", torch.ones(INFO.obs_size))
        self.register_buffer("obs_count", torch.zeros((), dtype=torch.float64))

    def _linear_heads(self, hidden: int) -> None:
        self.actor = _layer(nn.Linear(hidden, LOGITS), std=0.01)
        self.critic = _layer(nn.Linear(hidden, 1), std=1.0)

    def _logits(self, features) -> torch.Tensor:
        return self.actor(features)

    def _value(self, features) -> torch.Tensor:
        return self.critic(features)[:, 0]

    @property
    def device(self) -> torch.device:
        return self.obs_mean.device

    # ---- observation normalisation ------------------------------------------
    @torch.no_grad()
    def update_obs_stats(self, obs: torch.Tensor) -> None:
        """Fold a batch of raw observations into the running mean and variance."""
        obs = obs.reshape(-1, INFO.obs_size).to(self.obs_mean.device, torch.float64)
        self.update_obs_moments(obs.shape[0], obs.mean(0), obs.var(0, unbiased=False))

    @torch.no_grad()
    def update_obs_moments(self, n: int, mean: torch.Tensor, var: torch.Tensor) -> None:
        """Fold a batch given by its size, mean and (biased) variance (parallel Welford)."""
        if not self.obs_norm or n == 0:
            return
        mean, var = mean.to(self.obs_mean.device, torch.float64), var.to(self.obs_mean.device, torch.float64)
        total = self.obs_count + n
        delta = mean - self.obs_mean.double()
        new_mean = self.obs_mean.double() + delta * n / total
        m2 = self.obs_var.double() * self.obs_count + var * n + delta.square() * self.obs_count * n / total
        self.obs_mean.copy_(new_mean)
        self.obs_var.copy_(m2 / total)
        self.obs_count.copy_(total)

    def normalize(self, obs: torch.Tensor) -> torch.Tensor:
        if not self.obs_norm:
            return obs
        return ((obs - self.obs_mean) / (self.obs_var + 1e-8).sqrt()).clamp(-self.norm_clip, self.norm_clip)

    # ---- the Policy protocol (numpy) ------------------------------------------
    def _tensors(self, obs, masks, episode_start):
        device = self.device
        obs_t = torch.as_tensor(np.asarray(obs, dtype=np.float32), device=device)
        masks_t = torch.as_tensor(np.asarray(masks, dtype=np.uint8), device=device) != 0
        starts_t = None if episode_start is None else torch.as_tensor(
            np.asarray(episode_start, dtype=bool), device=device)
        return obs_t, masks_t, starts_t

    @torch.no_grad()
    def act(self, obs, masks, state=None, episode_start=None, deterministic: bool = False) -> PolicyOutput:
        """Actions for a batch of seats: numpy in (float32 [n, 1407], uint8 [n, 203]), numpy out."""
        obs_t, masks_t, starts_t = self._tensors(obs, masks, episode_start)
        actions, logp, value, state = self.forward_act(obs_t, masks_t, state, starts_t, deterministic)
        return PolicyOutput(actions.to(torch.int32).cpu().numpy(), logp.float().cpu().numpy(),
                            value.float().cpu().numpy(), state)

    # ---- torch methods for PPO --------------------------------------------------
    # ``normalized=True``: ``obs`` went through ``normalize`` already (PPO stores
    # normalised observations, so acting and learning see the same inputs).
    def forward_act(self, obs, masks, state=None, episode_start=None, deterministic: bool = False,
                    normalized: bool = False):
        """(actions long [n, 5], log_prob [n], value [n], new state) from tensors."""
        x = obs if normalized else self.normalize(obs)
        features, state = self._hidden_step(x, state, episode_start)
        actions, logp = ActionDistribution(self._logits(features), masks).sample(deterministic)
        return actions, logp, self._value(features), state

    def evaluate(self, obs, masks, actions, state=None, episode_start=None, normalized: bool = False):
        """(log_prob, entropy, value, final state) of given actions, with grad.
        Recurrent policies take time-major ``[T * n]`` rows of the ``n`` sequences of ``state``."""
        x = obs if normalized else self.normalize(obs)
        features, state = self._hidden_seq(x, state, episode_start)
        dist = ActionDistribution(self._logits(features), masks)
        logp, entropy = dist.log_prob_entropy(actions)
        return logp, entropy, self._value(features), state

    def get_value(self, obs, state=None, episode_start=None, normalized: bool = False) -> torch.Tensor:
        x = obs if normalized else self.normalize(obs)
        features, _ = self._hidden_step(x, state, episode_start)
        return self._value(features)


class MLPPolicy(_TorchPolicy):
    """``layers`` fully connected layers of ``hidden`` units, shared by the
    conditional policy heads and the value head."""

    adapter = "mlp"

    def __init__(self, hidden: int = 256, layers: int = 2, activation: str = "tanh", obs_norm: bool = True,
                 norm_clip: float = 5.0):
        super().__init__(hidden, activation, obs_norm, norm_clip)
        self._linear_heads(int(hidden))
        if int(layers) < 1:
            raise TypeError(f"layers must be a positive integer, got {layers!r}")
        self.config = {"hidden": int(hidden), "layers": int(layers), "activation": activation,
                       "obs_norm": bool(obs_norm), "norm_clip": float(norm_clip)}
        act = _ACTIVATIONS[activation]
        body, width = [], INFO.obs_size
        for _ in range(int(layers)):
            body += [_layer(nn.Linear(width, int(hidden))), act()]
            width = int(hidden)
        self.body = nn.Sequential(*body)

    def initial_state(self, n: int):
        return None

    def _hidden_step(self, x, state, episode_start):
        return self.body(x), None

    def _hidden_seq(self, x, state, episode_start):
        return self.body(x), None


class LSTMPolicy(_TorchPolicy):
    """A fully connected layer, then an LSTM; the state is reset where an
    episode starts. ``initial_state(n)`` is ``(h, c)``, each ``[1, n, hidden]``."""

    adapter = "lstm"
    recurrent = True

    def __init__(self, hidden: int = 256, activation: str = "tanh", obs_norm: bool = True, norm_clip: float = 5.0):
        super().__init__(hidden, activation, obs_norm, norm_clip)
        self._linear_heads(int(hidden))
        self.config = {"hidden": int(hidden), "activation": activation, "obs_norm": bool(obs_norm),
                       "norm_clip": float(norm_clip)}
        self.hidden = int(hidden)
        self.body = nn.Sequential(_layer(nn.Linear(INFO.obs_size, self.hidden)), _ACTIVATIONS[activation]())
        self.lstm = nn.LSTM(self.hidden, self.hidden)
        for name, param in self.lstm.named_parameters():
            if "bias" in name:
                nn.init.constant_(param, 0)
            elif "weight" in name:
                nn.init.orthogonal_(param, 1.0)

    def initial_state(self, n: int):
        zeros = torch.zeros(1, n, self.hidden, device=self.device)
        return zeros, zeros.clone()

    def _reset(self, state, starts):
        if starts is None:
            return state
        keep = (~starts.bool()).float().view(1, -1, 1)
        return state[0] * keep, state[1] * keep

    def _hidden_step(self, x, state, episode_start):
        if state is None:
            state = self.initial_state(x.shape[0])
        state = self._reset(state, episode_start)
        out, state = self.lstm(self.body(x)[None], state)
        return out[0], state

    def _hidden_seq(self, x, state, episode_start):
        """``x`` is time-major ``[T * n, ...]`` for the ``n`` sequences of ``state``."""
        if state is None:
            state = self.initial_state(x.shape[0])
        n = state[0].shape[1]
        x = self.body(x).reshape(-1, n, self.hidden)
        steps = x.shape[0]
        if episode_start is None:
            starts, cuts = None, [0, steps]
        else:
            # one LSTM call per stretch without an episode start inside (starts are rare)
            starts = episode_start.reshape(-1, n)
            inner = torch.nonzero(starts[1:].any(dim=1)).flatten() + 1
            cuts = [0] + inner.tolist() + [steps]
        outs = []
        for a, b in zip(cuts[:-1], cuts[1:]):
            if starts is not None:
                state = self._reset(state, starts[a])
            out, state = self.lstm(x[a:b], state)
            outs.append(out)
        return torch.cat(outs).reshape(-1, self.hidden), state


_OBJECTS, _ABILITIES, _ITEMS = LAYOUT["obs.object"], LAYOUT["obs.ability"], LAYOUT["obs.item"]


def _columns_outside(*blocks) -> np.ndarray:
    inside = np.zeros(INFO.obs_size, dtype=bool)
    for block in blocks:
        inside[block.slice()] = True
    return np.flatnonzero(~inside)


def _feature_columns(block, feature: str) -> slice:
    """the column of ``feature`` in every row of ``block``"""
    start = block.offset + block.features.index(feature)
    return slice(start, block.offset + block.size, block.width)


# the non-row part of the observation: self, spell warnings, summary, terrain, goal
_GLOBAL_COLUMNS = _columns_outside(_OBJECTS, _ABILITIES, _ITEMS)
# the flags that say whether a row is empty (docs/contract.md)
_OBJECT_PRESENT = _feature_columns(_OBJECTS, "present")
_ITEM_EMPTY = _feature_columns(_ITEMS, "item0_none")


class _RowEncoder(nn.Module):
    """Two layers shared by every row of an observation block: ``[n, obs]`` to
    ``[n, rows, embed]``. ``row_bias``: a learned bias per row position in the
    first layer, for blocks whose positions mean something (object slot groups,
    ability Q/W/E/R) that a row's features do not fully show."""

    def __init__(self, block, embed: int, activation, row_bias: bool):
        super().__init__()
        self.block = block.slice()
        self.rows, self.width = block.count, block.width
        self.first = _layer(nn.Linear(block.width, embed))
        self.second = _layer(nn.Linear(embed, embed))
        self.row_bias = nn.Parameter(torch.zeros(block.count, embed)) if row_bias else None
        self.act = activation()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows = x[:, self.block].reshape(-1, self.rows, self.width)
        bias = self.first.bias if self.row_bias is None else self.first.bias + self.row_bias
        h = torch.matmul(rows, self.first.weight.t()) + bias   # both biases in one pass over [n, rows, embed]
        return self.act(self.second(self.act(h)))


class _Pointer(nn.Module):
    """Logits that score rows: ``sets`` queries from the trunk, each dotted with
    every row embedding, ``[n, sets, rows]``. A target, an ability or an item is
    chosen by what its row holds, not by its position, and every row shares the
    weights that score it. (A linear key projection would add nothing: it folds
    into the query layer.)"""

    def __init__(self, hidden: int, embed: int, sets: int):
        super().__init__()
        self.sets, self.embed = sets, embed
        self.query = _layer(nn.Linear(hidden, sets * embed), std=0.01)   # near-uniform at the start, as the actor

    def forward(self, trunk: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
        query = self.query(trunk).reshape(-1, self.sets, self.embed)
        return torch.bmm(query, rows.transpose(1, 2)) / math.sqrt(self.embed)


def _pool(rows: torch.Tensor, present: torch.Tensor) -> torch.Tensor:
    """``[n, rows, embed]`` -> ``[n, 2 * embed]``: the mean of the present rows and
    the max of the present rows and zero (empty rows count as zeros: one pass,
    and 0 where no row is present)."""
    weight = present.unsqueeze(-1).to(rows.dtype)
    kept = rows * weight
    return torch.cat([kept.sum(1) / weight.sum(1).clamp(min=1), kept.amax(1)], dim=-1)


class EntityPolicy(_TorchPolicy):
    """Shared encoders over the observation's rows: each of the 25 object rows,
    4 ability rows and 6 item rows goes through its block's encoder (``embed``
    wide). Object and item rows are pooled (mean and max over the rows the
    observation says are present), ability rows are concatenated (Q/W/E/R are
    fixed slots); with an encoding of the rest (self, warnings, summary,
    terrain, goal) they feed a trunk of ``layers`` x ``hidden``. Verb, point and
    value heads are linear over the trunk; the target, ability and item logits
    are pointer heads that score each row's embedding against a query from the
    trunk (one query per target row, ability verb, item verb), in the 399-logit
    layout of ``ActionDistribution``. Feed-forward: ``initial_state`` is None.

    Presence flags (object ``present``, item ``item0_none``) skip normalisation,
    so the masks can be read from normalised observations too."""

    adapter = "entity"

    def __init__(self, embed: int = 32, hidden: int = 256, layers: int = 2, activation: str = "relu",
                 obs_norm: bool = True, norm_clip: float = 5.0):
        super().__init__(hidden, activation, obs_norm, norm_clip)
        if int(embed) < 1:
            raise TypeError(f"embed must be a positive integer, got {embed!r}")
        if int(layers) < 1:
            raise TypeError(f"layers must be a positive integer, got {layers!r}")
        embed, hidden = int(embed), int(hidden)
        self.config = {"embed": embed, "hidden": hidden, "layers": int(layers), "activation": activation,
                       "obs_norm": bool(obs_norm), "norm_clip": float(norm_clip)}
        act = _ACTIVATIONS[activation]
        flags = torch.zeros(INFO.obs_size, dtype=torch.bool)
        flags[_OBJECT_PRESENT] = flags[_ITEM_EMPTY] = True
        self.register_buffer("raw_columns", flags, persistent=False)
        self.register_buffer("global_columns", torch.as_tensor(_GLOBAL_COLUMNS), persistent=False)

        self.objects = _RowEncoder(_OBJECTS, embed, act, row_bias=True)
        self.abilities = _RowEncoder(_ABILITIES, embed, act, row_bias=True)
        self.items = _RowEncoder(_ITEMS, embed, act, row_bias=False)
        self.globals = nn.Sequential(_layer(nn.Linear(len(_GLOBAL_COLUMNS), hidden)), act())
        trunk, width = [], hidden + embed * (2 + _ABILITIES.count + 2)
        for _ in range(int(layers)):
            trunk += [_layer(nn.Linear(width, hidden)), act()]
            width = hidden
        self.trunk = nn.Sequential(*trunk)

        self.verb_head = _layer(nn.Linear(hidden, VERBS), std=0.01)
        self.point_head = _layer(nn.Linear(hidden, len(POINT_VERBS) * POINTS), std=0.01)
        self.target_head = _Pointer(hidden, embed, TARGET_ROWS)
        self.ability_head = _Pointer(hidden, embed, len(ABILITY_VERBS))
        self.item_head = _Pointer(hidden, embed, len(ITEM_VERBS))
        self.critic = _layer(nn.Linear(hidden, 1), std=1.0)

    def initial_state(self, n: int):
        return None

    def normalize(self, obs: torch.Tensor) -> torch.Tensor:
        if not self.obs_norm:
            return obs
        return torch.where(self.raw_columns, obs, super().normalize(obs))

    def _features(self, x):
        objects, abilities, items = self.objects(x), self.abilities(x), self.items(x)
        trunk = self.trunk(torch.cat([self.globals(x.index_select(1, self.global_columns)),
                                      _pool(objects, x[:, _OBJECT_PRESENT] > 0.5), abilities.flatten(1),
                                      _pool(items, x[:, _ITEM_EMPTY] < 0.5)], dim=-1))
        return trunk, objects, abilities, items

    def _hidden_step(self, x, state, episode_start):
        return self._features(x), None

    def _hidden_seq(self, x, state, episode_start):
        return self._features(x), None

    def _logits(self, features) -> torch.Tensor:
        trunk, objects, abilities, items = features
        return torch.cat([self.verb_head(trunk), self.target_head(trunk, objects).flatten(1),
                          self.point_head(trunk), self.ability_head(trunk, abilities).flatten(1),
                          self.item_head(trunk, items).flatten(1)], dim=-1)

    def _value(self, features) -> torch.Tensor:
        return self.critic(features[0])[:, 0]


__all__ = ["ActionDistribution", "MLPPolicy", "LSTMPolicy", "EntityPolicy", "LOGITS", "NEG"]
