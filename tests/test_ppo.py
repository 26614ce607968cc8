"""The pieces of training: the masked five-head distribution, GAE, the PPO update
on a batch alone, checkpoints, the league, resume = uninterrupted, the event
hooks (gota_arena/train)."""
import csv
import dataclasses
import itertools
import json
import math
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("omegaconf")

from gota_arena import hookimpl, plugins  # noqa: E402
from gota_arena.config import Config, TrainerConfig  # noqa: E402
from gota_arena.contract import INFO, LAYOUT  # noqa: E402
from gota_arena.learner_env import LearnerEnv  # noqa: E402
from gota_arena.masking import (  # noqa: E402
    CAST_POINT, CAST_TARGET, USE_ITEM_AT, USES, ability_mask, illegal_rows, item_mask, target_mask, verb_mask,
)
from gota_arena.nets import LOGITS, ActionDistribution, EntityPolicy, LSTMPolicy, MLPPolicy  # noqa: E402
from gota_arena.policies import load_policy, save_policy  # noqa: E402
from gota_arena.train.checkpoint import load_checkpoint, rng_state, save_checkpoint, set_rng_state  # noqa: E402
from gota_arena.train.league import League  # noqa: E402
from gota_arena.train.ppo import train  # noqa: E402
from gota_arena.train.report import LOSSES  # noqa: E402
from gota_arena.train.update import Batch, compute_gae, ppo_update  # noqa: E402
from gota_bundled.policies import RandomPolicy  # noqa: E402

V, TG, PT, AB, IT = range(5)


def random_masks(n: int, rng: np.random.Generator) -> np.ndarray:
    """Conditional masks that keep the contract's invariants (docs/contract.md, "Masks"):
    a verb is allowed exactly when its ability/item/anchor choices exist."""
    m = np.zeros((n, INFO.mask_size), dtype=np.uint8)
    rows = np.zeros((n, 7, 25), dtype=np.uint8)

    def bits(rows, width):   # each row with its own density
        return (rng.random((rows, width)) < rng.random((rows, 1))).astype(np.uint8)

    cta, cpa, ui, uia = bits(n, 4), bits(n, 4), bits(n, 6), bits(n, 6)
    rows[:, 0] = bits(n, 25)
    rows[:, 0, 0] = 0
    for a in range(4):
        r = bits(n, 25)
        r[np.arange(n), rng.integers(0, 25, n)] = 1          # non-empty
        rows[:, 1 + a] = r * cta[:, a:a + 1]
    rows[:, 5] = bits(n, 25) * cpa.any(1, keepdims=True)
    rows[:, 5, 0] |= cpa.any(1).astype(np.uint8)              # self is always present
    rows[:, 6] = bits(n, 25) * uia.any(1, keepdims=True)
    rows[:, 6, 0] |= uia.any(1).astype(np.uint8)
    verb = np.zeros((n, 8), dtype=np.uint8)
    verb[:, 0] = 1
    verb[:, 1:3] = bits(n, 2)
    verb[:, 3] = rows[:, 0].any(1)
    verb[:, 4], verb[:, 5], verb[:, 6], verb[:, 7] = cta.any(1), cpa.any(1), ui.any(1), uia.any(1)
    for name, block in (("mask.verb", verb), ("mask.cast_target_ability", cta), ("mask.target_rows", rows.reshape(n, -1)),
                        ("mask.cast_point_ability", cpa), ("mask.use_item", ui), ("mask.use_item_at", uia)):
        m[:, LAYOUT[name].slice()] = block
    return m


@pytest.fixture(scope="module")
def env_masks():
    """Masks and observations from real matches (heroes alive, casting, some dead)."""
    with LearnerEnv(lanes=2, self_play_lanes=2, reward="xp", threads=1) as env:
        obs, masks = env.reset(seed=3)
        keep_obs, keep_masks = [], []
        policy = RandomPolicy(seed=1)
        for step in range(600):
            out = policy.act(obs, masks)
            obs, masks, *_ = env.step(out.actions)
            if step % 50 == 49:
                keep_obs.append(obs.copy())
                keep_masks.append(masks.copy())
    return np.concatenate(keep_obs), np.concatenate(keep_masks)


# ---- the masked distribution -------------------------------------------------------------------

@pytest.mark.parametrize("scale", [1.0, 30.0, 1e4])
def test_masked_sampling_never_picks_a_masked_action(scale, env_masks):
    rng = np.random.default_rng(int(scale))
    masks = np.concatenate([random_masks(3000, rng), env_masks[1]])
    torch.manual_seed(0)
    m = torch.as_tensor(masks)
    for _ in range(5):
        logits = torch.randn(len(masks), LOGITS) * scale
        actions, logp = ActionDistribution(logits, m).sample()
        a = actions.numpy()
        assert not illegal_rows(masks, a).any()
        assert ((a == 0) | USES[a[:, V]]).all(), "a head the verb does not use must be 0"
        assert torch.isfinite(logp).all()
        greedy, _ = ActionDistribution(logits, m).sample(deterministic=True)
        assert not illegal_rows(masks, greedy.numpy()).any()


def test_every_legal_verb_and_head_entry_is_sampled():
    rng = np.random.default_rng(1)
    masks = random_masks(1, rng)
    while verb_mask(masks).sum() < 6:
        masks = random_masks(1, rng)
    many = np.repeat(masks, 20000, axis=0)
    actions, _ = ActionDistribution(torch.zeros(len(many), LOGITS), torch.as_tensor(many)).sample()
    seen = set(actions[:, V].tolist())
    assert seen == set(np.flatnonzero(verb_mask(masks)[0]).tolist())


def _numpy_log_prob(logits: np.ndarray, masks: np.ndarray, actions: np.ndarray) -> tuple:
    """log-prob and entropy of the conditional heads, written with masking.py's helpers."""
    def lsm(x, allowed):
        x = np.where(allowed, x, -np.inf)
        x = x - x.max(1, keepdims=True)
        out = x - np.log(np.exp(x).sum(1, keepdims=True))
        return out

    def ent(lp):
        p = np.exp(lp)
        return -(p * np.where(p > 0, lp, 0.0)).sum(1)

    n = len(actions)
    idx = np.arange(n)
    verbs, abilities = actions[:, V].astype(np.int64), actions[:, AB].astype(np.int64)
    verb_lp = lsm(logits[:, :8], verb_mask(masks))
    logp, entropy = verb_lp[idx, verbs], ent(verb_lp)
    target = logits[:, 8:183].reshape(n, 7, 25)
    point = logits[:, 183:379].reshape(n, 4, 49)
    ability = logits[:, 379:387].reshape(n, 2, 4)
    item = logits[:, 387:399].reshape(n, 2, 6)
    ab_set = np.where(verbs == CAST_POINT, 1, 0)
    it_set = np.where(verbs == USE_ITEM_AT, 1, 0)
    pt_set = np.select([verbs == 1, verbs == 2, verbs == CAST_POINT, verbs == USE_ITEM_AT], [0, 1, 2, 3], 0)
    row = np.select([verbs == 3, verbs == CAST_TARGET, verbs == CAST_POINT, verbs == USE_ITEM_AT],
                    [0, 1 + abilities, 5, 6], 0)
    heads = [(AB, lsm(ability[idx, ab_set], ability_mask(masks, verbs))),
             (IT, lsm(item[idx, it_set], item_mask(masks, verbs))),
             (TG, lsm(target[idx, row], target_mask(masks, verbs, abilities))),
             (PT, lsm(point[idx, pt_set], np.ones((n, 49), bool)))]
    for head, lp in heads:
        uses = USES[verbs, head]
        logp = logp + np.where(uses, lp[idx, actions[:, head]], 0.0)
        entropy = entropy + np.where(uses, ent(lp), 0.0)
    return logp, entropy


def test_log_prob_and_entropy_match_a_numpy_reference(env_masks):
    rng = np.random.default_rng(2)
    masks = np.concatenate([random_masks(500, rng), env_masks[1][:300]])
    logits = rng.normal(size=(len(masks), LOGITS)).astype(np.float32) * 2
    dist = ActionDistribution(torch.as_tensor(logits), torch.as_tensor(masks))
    actions, sample_logp = dist.sample()
    logp, entropy = dist.log_prob_entropy(actions)
    ref_logp, ref_entropy = _numpy_log_prob(logits.astype(np.float64), masks, actions.numpy())
    np.testing.assert_allclose(logp.numpy(), ref_logp, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(sample_logp.numpy(), ref_logp, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(entropy.numpy(), ref_entropy, rtol=1e-4, atol=1e-4)


def test_uniform_logits_give_the_random_policys_log_prob(env_masks):
    masks = random_masks(400, np.random.default_rng(3))
    actions = RandomPolicy(seed=4).act(None, masks).actions
    logp, entropy = ActionDistribution(torch.zeros(len(masks), LOGITS), torch.as_tensor(masks)).log_prob_entropy(
        torch.as_tensor(actions))
    np.testing.assert_allclose(logp.numpy(), RandomPolicy.log_prob(masks, actions), rtol=1e-5, atol=1e-5)
    # uniform heads: the entropy is minus the log-probability of any action with the same verb
    np.testing.assert_allclose(entropy.numpy(), -logp.numpy(), rtol=1e-5, atol=1e-5)


def test_probabilities_of_all_legal_actions_sum_to_one():
    rng = np.random.default_rng(5)
    for _ in range(3):
        mask = random_masks(1, rng)
        logits = torch.randn(1, LOGITS) * 3
        actions = []
        for verb in np.flatnonzero(verb_mask(mask)[0]):
            ranges = [range(s) if USES[verb, h] else range(1) for h, s in enumerate((8, 25, 49, 4, 6))]
            ranges[V] = [verb]
            actions += list(itertools.product(*ranges))
        actions = np.array(actions)
        legal = ~illegal_rows(np.repeat(mask, len(actions), 0), actions)
        dist = ActionDistribution(logits.expand(len(actions), -1), torch.as_tensor(np.repeat(mask, len(actions), 0)))
        p = dist.log_prob(torch.as_tensor(actions)).exp().numpy()
        assert p[legal].sum() == pytest.approx(1.0, abs=1e-4)
        assert p[~legal].max(initial=0.0) == 0.0


def test_gradients_stay_finite_under_masks():
    masks = torch.as_tensor(random_masks(256, np.random.default_rng(6)))
    logits = (torch.randn(256, LOGITS) * 50).requires_grad_()
    dist = ActionDistribution(logits, masks)
    actions, _ = dist.sample()
    logp, entropy = dist.log_prob_entropy(actions)
    (logp.sum() + entropy.sum()).backward()
    assert torch.isfinite(logits.grad).all()


# ---- policies -------------------------------------------------------------------------------------

def test_policies_act_evaluate_and_round_trip(tmp_path, env_masks):
    obs, masks = env_masks
    torch.manual_seed(7)
    for policy in (plugins.policy("mlp", hidden=32), plugins.policy("lstm", hidden=16),
                   plugins.policy("entity", embed=8, hidden=32)):
        policy.update_obs_stats(torch.as_tensor(obs))
        n = len(obs)
        state = policy.initial_state(n)
        out = policy.act(obs, masks, state=state, episode_start=np.ones(n, bool))
        assert out.actions.dtype == np.int32 and out.actions.shape == (n, 5)
        assert not illegal_rows(masks, out.actions).any()
        logp, _, value, _ = policy.evaluate(torch.as_tensor(obs), torch.as_tensor(masks), torch.as_tensor(out.actions),
                                            state, torch.ones(n, dtype=torch.bool))
        np.testing.assert_allclose(logp.detach().numpy(), out.log_prob, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(value.detach().numpy(), out.value, rtol=1e-4, atol=1e-5)
        path = save_policy(policy, str(tmp_path / f"{policy.adapter}.safetensors"))
        again = load_policy(path)
        assert again.config == policy.config
        for key, tensor in policy.state_dict().items():
            assert torch.equal(tensor, again.state_dict()[key]), key
        greedy = policy.act(obs, masks, state=state, episode_start=np.ones(n, bool), deterministic=True).actions
        assert (again.act(obs, masks, state=again.initial_state(n), episode_start=np.ones(n, bool),
                          deterministic=True).actions == greedy).all()


def test_lstm_sequence_evaluation_matches_step_by_step_acting(env_masks):
    obs, masks = env_masks
    torch.manual_seed(8)
    policy = LSTMPolicy(hidden=16)
    n, steps = 4, 12
    rng = np.random.default_rng(9)
    pick = rng.integers(0, len(obs), (steps, n))
    starts = rng.random((steps, n)) < 0.2
    state0 = (torch.randn(1, n, 16), torch.randn(1, n, 16))
    state, logps, acts = state0, [], []
    for t in range(steps):
        a, lp, _, state = policy.forward_act(torch.as_tensor(obs[pick[t]]), torch.as_tensor(masks[pick[t]]), state,
                                             torch.as_tensor(starts[t]))
        logps.append(lp)
        acts.append(a)
    logp, _, _, final = policy.evaluate(torch.as_tensor(obs[pick.ravel()]), torch.as_tensor(masks[pick.ravel()]),
                                        torch.cat(acts), state0, torch.as_tensor(starts.ravel()))
    torch.testing.assert_close(logp, torch.cat(logps), rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(final[0], state[0], rtol=1e-4, atol=1e-5)


def test_entity_policy_reads_only_the_rows_that_are_present(env_masks):
    """Empty object and item rows (docs/contract.md) leave the value and every other
    row's logits alone, and presence flags survive normalisation."""
    obs, masks = env_masks
    torch.manual_seed(10)
    policy = EntityPolicy(embed=8, hidden=32)
    policy.update_obs_stats(torch.as_tensor(obs))
    objects, items = LAYOUT["obs.object"], LAYOUT["obs.item"]
    present = obs[:, objects.slice()].reshape(len(obs), objects.count, objects.width)[:, :, 0] > 0.5
    empty_items = obs[:, items.slice()].reshape(len(obs), items.count, items.width)[:, :, 0] > 0.5
    assert (~present).any() and empty_items.any() and present.any()
    x = policy.normalize(torch.as_tensor(obs))
    np.testing.assert_array_equal(x[:, objects.slice()].reshape(len(obs), objects.count, -1)[:, :, 0].numpy(),
                                  present.astype(np.float32))

    noisy = obs.copy()
    rng = np.random.default_rng(11)
    rows = noisy[:, objects.slice()].reshape(len(obs), objects.count, objects.width)
    rows[:, :, 1:] = np.where(present[:, :, None], rows[:, :, 1:], rng.normal(size=rows[:, :, 1:].shape))
    noisy[:, objects.slice()] = rows.reshape(len(obs), -1)
    slots = noisy[:, items.slice()].reshape(len(obs), items.count, items.width)
    slots[:, :, 1:] = np.where(empty_items[:, :, None], rng.normal(size=slots[:, :, 1:].shape), slots[:, :, 1:])
    noisy[:, items.slice()] = slots.reshape(len(obs), -1)

    with torch.no_grad():
        features = [policy._features(policy.normalize(torch.as_tensor(o))) for o in (obs, noisy)]
        logits = [policy._logits(f) for f in features]
        values = [policy._value(f) for f in features]
    torch.testing.assert_close(values[0], values[1])
    dist = [ActionDistribution(lg, torch.as_tensor(masks)) for lg in logits]
    torch.testing.assert_close(dist[0].verb, dist[1].verb)
    torch.testing.assert_close(dist[0].point, dist[1].point)
    keep = torch.as_tensor(present)[:, None, :].expand_as(dist[0].target)
    torch.testing.assert_close(dist[0].target[keep], dist[1].target[keep])
    assert not torch.equal(dist[0].target, dist[1].target), "an empty row still gets its own pointer logits"


def test_entity_policy_trains_with_ppo(tmp_path):
    cfg = tiny_config(total_steps=15 * 16 * 2)
    cfg.policy.name, cfg.policy.options = "entity", {"embed": 8, "hidden": 32, "layers": 1}
    summary = train(cfg, tmp_path, stream=open(os.devnull, "w"))
    assert summary["updates"] == 2 and not summary["interrupted"]
    weights = _weights(tmp_path)["model"]
    fresh = EntityPolicy(embed=8, hidden=32, layers=1)
    assert set(weights) == set(fresh.state_dict())
    assert all(torch.isfinite(w).all() for w in weights.values())
    assert weights["obs_count"] > 0
    assert not torch.equal(weights["target_head.query.weight"], fresh.state_dict()["target_head.query.weight"])
    snapshot = load_policy(str(sorted(tmp_path.rglob("snapshot-*.safetensors"))[-1]))   # the league's opponents
    assert isinstance(snapshot, EntityPolicy) and snapshot.config == fresh.config


# ---- GAE ---------------------------------------------------------------------------------------------

def test_gae_against_a_hand_computed_case():
    gamma, lam = 0.9, 0.5
    # one agent, 3 steps; the episode ends after step 1 (dones[2] = 1: obs[2] starts a new one)
    rewards = torch.tensor([[1.0], [2.0], [3.0]])
    values = torch.tensor([[0.5], [1.0], [1.5]])
    dones = torch.tensor([[0.0], [0.0], [1.0]])
    next_value, next_done = torch.tensor([2.0]), torch.tensor([0.0])
    adv = compute_gae(rewards, values, dones, next_value, next_done, gamma, lam)
    d2 = 3.0 + 0.9 * 2.0 - 1.5            # 3.3, bootstrapped from the value after the rollout
    d1 = 2.0 + 0.0 - 1.0                  # 1.0, the episode ended: no bootstrap
    d0 = 1.0 + 0.9 * 1.0 - 0.5            # 1.4
    a2 = d2
    a1 = d1                               # the chain stops at the episode end
    a0 = d0 + 0.9 * 0.5 * a1              # 1.85
    torch.testing.assert_close(adv[:, 0], torch.tensor([a0, a1, a2]))
    # next_done cuts the bootstrap of the last step
    adv = compute_gae(rewards, values, dones, next_value, torch.tensor([1.0]), gamma, lam)
    assert adv[2, 0].item() == pytest.approx(3.0 - 1.5)


# ---- the update on a batch alone ----------------------------------------------------------------------

def synthetic_batch(policy, steps: int = 8, agents: int = 6, seed: int = 0) -> Batch:
    """What a rollout stores, without an arena: random observations and masks, the
    policy's own actions, log-probs and values; episodes begin at step 0 and at random."""
    rng = np.random.default_rng(seed)
    obs = torch.as_tensor(rng.normal(size=(steps, agents, INFO.obs_size)), dtype=torch.float32)
    masks = torch.as_tensor(random_masks(steps * agents, rng)).reshape(steps, agents, -1) != 0
    dones = torch.as_tensor(rng.random((steps, agents)) < 0.2, dtype=torch.float32)
    dones[0] = 1
    initial_state = policy.initial_state(agents)
    state, actions, logprobs, values = initial_state, [], [], []
    policy.eval()
    with torch.no_grad():
        for t in range(steps):
            a, logp, v, state = policy.forward_act(obs[t], masks[t], state, dones[t].bool(), normalized=True)
            actions.append(a)
            logprobs.append(logp)
            values.append(v)
    values = torch.stack(values)
    advantages = torch.as_tensor(rng.normal(size=(steps, agents)), dtype=torch.float32)
    return Batch(obs, masks, torch.stack(actions), torch.stack(logprobs), values, dones, advantages,
                 advantages + values, initial_state)


def clipped_objective(policy, batch: Batch, clip_coef: float) -> float:
    """The clipped surrogate loss of the whole batch (advantages normalised over it)."""
    with torch.no_grad():
        logp, _, _, _ = policy.evaluate(batch.obs.reshape(-1, INFO.obs_size), batch.masks.reshape(-1, INFO.mask_size),
                                        batch.actions.reshape(-1, INFO.heads), batch.initial_state,
                                        batch.dones.reshape(-1).bool(), normalized=True)
    ratio = (logp - batch.logprobs.reshape(-1)).exp()
    adv = batch.advantages.reshape(-1)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    return torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip_coef, 1 + clip_coef)).mean().item()


@pytest.mark.parametrize("make", [lambda: MLPPolicy(hidden=32, layers=1), lambda: LSTMPolicy(hidden=16)],
                         ids=["mlp", "lstm"])
def test_ppo_update_scores_the_batch_under_its_own_masks(make):
    """At learning rate 0 the ratio of every minibatch is 1: each stored action is scored
    under the mask it was drawn under (whole sequences from their initial state for the LSTM)."""
    torch.manual_seed(0)
    policy = make()
    batch = synthetic_batch(policy)
    optimizer = torch.optim.Adam(policy.parameters(), lr=0.0)
    stats = ppo_update(policy, optimizer, batch, TrainerConfig(num_minibatches=2, update_epochs=2))
    assert abs(stats["losses/approx_kl"]) < 1e-6 and stats["losses/clipfrac"] == 0.0
    everything = torch.ones_like(batch.masks)   # the same actions, scored as if every action were allowed
    stats = ppo_update(policy, optimizer, dataclasses.replace(batch, masks=everything), TrainerConfig())
    assert stats["losses/approx_kl"] > 0.1


def test_ppo_update_lowers_the_clipped_loss_and_reports_its_kl():
    torch.manual_seed(1)
    policy = MLPPolicy(hidden=32, layers=1)
    batch = synthetic_batch(policy, steps=16, agents=8, seed=1)
    hp = TrainerConfig(num_minibatches=1, update_epochs=4, clip_coef=0.2)
    before = clipped_objective(policy, batch, hp.clip_coef)
    stats = ppo_update(policy, torch.optim.Adam(policy.parameters(), lr=3e-3), batch, hp)
    after = clipped_objective(policy, batch, hp.clip_coef)
    assert before == pytest.approx(0.0, abs=1e-5)   # ratio 1 and normalised advantages
    assert after < before - 0.01
    assert 0 < stats["losses/approx_kl"] < 1 and 0 < stats["losses/clipfrac"] <= 1
    assert all(math.isfinite(stats[key]) for key in LOSSES)


def test_ppo_update_stops_at_target_kl():
    def steps_taken(target_kl):
        torch.manual_seed(2)
        policy = MLPPolicy(hidden=32, layers=1)
        optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
        ppo_update(policy, optimizer, synthetic_batch(policy, seed=2),
                   TrainerConfig(num_minibatches=2, update_epochs=5, target_kl=target_kl))
        return int(optimizer.state[policy.actor.weight]["step"])

    assert steps_taken(None) == 10
    assert steps_taken(1e-9) == 2   # the kl of the first epoch is over the target: no second epoch


# ---- checkpoints ----------------------------------------------------------------------------------------

def test_checkpoint_round_trip_and_atomic_writes(tmp_path):
    torch.manual_seed(10)
    policy = MLPPolicy(hidden=8, layers=1)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    policy.actor.weight.sum().backward()
    opt.step()
    np.random.seed(11)
    payload = {"format": "gota-train/1", "model": policy.state_dict(), "optimizer": opt.state_dict(),
               "update": 3, "global_step": 1234, "rng": rng_state(), "league": {"rng": "{}", "entries": []},
               "config": json.dumps({"a": 1})}
    path = tmp_path / "ck" / "last.pt"
    save_checkpoint(path, payload)
    expected = [np.random.random(), torch.rand(3)]
    back = load_checkpoint(path)   # weights_only=True inside
    assert back["update"] == 3 and back["global_step"] == 1234
    for k, v in policy.state_dict().items():
        assert torch.equal(back["model"][k], v)
    opt2 = torch.optim.Adam(MLPPolicy(hidden=8, layers=1).parameters(), lr=1e-3)
    opt2.load_state_dict(back["optimizer"])
    set_rng_state(back["rng"])
    assert np.random.random() == expected[0] and torch.equal(torch.rand(3), expected[1])

    class Boom:
        def __reduce__(self):
            raise RuntimeError("disk full")

    with pytest.raises(Exception):
        save_checkpoint(path, {"format": "gota-train/1", "bad": Boom()})
    assert load_checkpoint(path)["update"] == 3, "a failed save must leave the previous checkpoint intact"
    assert os.listdir(path.parent) == ["last.pt"], "no temporary file is left behind"


# ---- league ---------------------------------------------------------------------------------------------------

def test_league_rules_and_state(tmp_path):
    league = League(pool=["idle", "random"], rule="pfsp", snapshots=True, pfsp_power=2.0, window=10,
                    directory=tmp_path, seed=0, max_snapshots=2)
    for _ in range(9):
        league.record({"opponent": "idle", "outcome": 1, "glory": 100})
    league.record({"opponent": "random", "outcome": -1, "glory": 0})
    entries, p = league.weights()
    w = dict(zip([e.name for e in entries], p))
    p_idle, p_random = (9 + 0.5) / 10, 0.5 / 2
    expected = np.array([(1 - p_idle) ** 2, (1 - p_random) ** 2])
    assert w["idle"] == pytest.approx(expected[0] / expected.sum())
    assert w["random"] == pytest.approx(expected[1] / expected.sum())
    league.pfsp_floor = 0.1   # idle's (1 - 0.95)^2 = 0.0025 is lifted to the floor
    w = dict(zip([e.name for e in league.weights()[0]], league.weights()[1]))
    assert w["idle"] == pytest.approx(0.1 / (0.1 + expected[1]))
    with pytest.raises(ValueError, match="pfsp_floor"):
        League(pool=["idle"], rule="pfsp", pfsp_floor=1.5)
    policy = MLPPolicy(hidden=8, layers=1)
    for update in (1, 2, 3):
        league.add_snapshot(policy, update)
    assert [e.name for e in league.weights()[0] if e.kind == "snapshot"] == ["snapshot@2", "snapshot@3"]
    league.rule = "latest"
    assert [e.name for e in league.weights()[0]] == ["snapshot@3"]
    opponent = league.choose(0)
    assert opponent.name == "snapshot@3" and opponent.policy.config == policy.config
    state = league.state_dict()
    draws = [league.rng.random() for _ in range(3)]
    again = League(pool=["idle", "random"], rule="latest", snapshots=True, window=10, directory=tmp_path,
                   max_snapshots=2)
    again.load_state_dict(state)
    assert [again.rng.random() for _ in range(3)] == draws
    assert again.table() == league.table()
    table = json.loads(open(league.save_table(tmp_path / "league.json")).read())
    assert table["entries"][0]["name"] == "idle" and table["entries"][0]["wins"] == 9


# ---- the loop ------------------------------------------------------------------------------------------------

def tiny_config(**trainer) -> Config:
    cfg = Config()
    cfg.env.lanes, cfg.env.threads, cfg.env.max_ticks = 2, 1, 240
    cfg.opponent.self_play_share = 0.5
    cfg.opponent.pool = ["idle", "random"]
    cfg.opponent.snapshots, cfg.opponent.snapshot_every, cfg.opponent.rule = True, 1, "pfsp"
    cfg.policy.options = {"hidden": 32, "layers": 1}
    cfg.trainer.num_steps, cfg.trainer.num_minibatches, cfg.trainer.update_epochs = 16, 2, 2
    cfg.trainer.total_steps = 15 * 16 * 4             # 15 agents: 4 updates
    cfg.trainer.checkpoint_every = 2
    cfg.trainer.tensorboard = cfg.trainer.plots = cfg.trainer.progress = False
    cfg.eval.enabled = False
    for k, v in trainer.items():
        setattr(cfg.trainer, k, v)
    return cfg


def _weights(run_dir):
    return load_checkpoint(os.path.join(run_dir, "checkpoints", "last.pt"))


def test_resume_gives_the_same_updates_as_an_uninterrupted_run(tmp_path):
    def config(**trainer):   # matches of 100 ticks: episodes end before the cut, so the charts' windows matter
        cfg = tiny_config(**trainer)
        cfg.env.max_ticks = 100
        return cfg

    whole = train(config(), tmp_path / "whole", stream=open(os.devnull, "w"))
    assert whole["updates"] == 4 and not whole["interrupted"]
    first = train(config(), tmp_path / "cut", stop_after=2, stream=open(os.devnull, "w"))
    assert first["interrupted"] and first["updates"] == 2
    second = train(config(resume=True), tmp_path / "cut", stream=open(os.devnull, "w"))
    assert second["updates"] == 4 and second["global_step"] == whole["global_step"]
    a, b = _weights(tmp_path / "whole"), _weights(tmp_path / "cut")
    for key in a["model"]:
        assert torch.equal(a["model"][key], b["model"][key]), key
    assert json.loads(a["league"]["rng"]) == json.loads(b["league"]["rng"])
    assert a["league"]["entries"] == b["league"]["entries"]
    def rows(run):   # every metric but the clock's
        with open(run / "metrics.csv", newline="") as f:
            return [{k: v for k, v in r.items() if k not in ("time", "charts/SPS") and not k.startswith("time/")}
                    for r in csv.DictReader(f)]

    whole_rows, cut_rows = rows(tmp_path / "whole"), rows(tmp_path / "cut")
    assert len(cut_rows) == 4 and cut_rows == whole_rows
    assert int(cut_rows[1]["charts/episodes"]) > 0 and cut_rows[2]["charts/win_rate/idle"] != ""
    with open(tmp_path / "cut" / "metrics.csv", newline="") as f:
        clock = [float(r["time"]) for r in csv.DictReader(f)]
    assert clock == sorted(clock)   # the whole run's wall seconds, on across the resume
    league = json.loads((tmp_path / "cut" / "league.json").read_text())
    assert [e["name"] for e in league["entries"]][:2] == ["idle", "random"]
    assert sum(e["kind"] == "snapshot" for e in league["entries"]) == 5   # updates 0..4
    kept = sorted((tmp_path / "cut" / "checkpoints").glob("policy_*.safetensors"))   # one per checkpoint
    assert [p.name for p in kept] == ["policy_000000000480.safetensors", "policy_000000000960.safetensors"]
    assert _tensors(kept[-1]) == _tensors(tmp_path / "cut" / "policy.safetensors")
    assert _tensors(kept[0]) != _tensors(kept[-1])


def _tensors(path) -> dict:
    from safetensors.torch import load_file
    return {k: v.tolist() for k, v in load_file(str(path)).items()}


def test_keep_policies_false_keeps_only_the_newest_policy(tmp_path):
    train(tiny_config(keep_policies=False), tmp_path / "run", stream=open(os.devnull, "w"))
    assert (tmp_path / "run" / "policy.safetensors").is_file()
    assert not list((tmp_path / "run" / "checkpoints").glob("policy_*"))


def test_resume_matches_when_snapshots_are_first_drawn_after_it(tmp_path):
    """A snapshot loaded after the resume (not before, as in the uninterrupted run) must
    not move the learner's RNG: loading builds a module, whose init draws from torch's."""
    def config(**trainer):
        cfg = tiny_config(total_steps=10 * 16 * 6, checkpoint_every=3, **trainer)
        cfg.opponent.self_play_share, cfg.opponent.snapshot_every = 0.0, 2
        return cfg

    train(config(), tmp_path / "whole", stream=open(os.devnull, "w"))
    train(config(), tmp_path / "cut", stop_after=3, stream=open(os.devnull, "w"))
    train(config(resume=True), tmp_path / "cut", stream=open(os.devnull, "w"))
    a, b = _weights(tmp_path / "whole"), _weights(tmp_path / "cut")
    assert a["update"] == b["update"] == 6
    for key in a["model"]:
        assert torch.equal(a["model"][key], b["model"][key]), key


def test_a_second_start_in_a_run_dir_needs_resume(tmp_path):
    train(tiny_config(total_steps=15 * 16), tmp_path, stream=open(os.devnull, "w"))
    from gota_arena.train.ppo import TrainingError
    with pytest.raises(TrainingError, match="trainer.resume=true"):
        train(tiny_config(), tmp_path, stream=open(os.devnull, "w"))
    with pytest.raises(TrainingError, match="differs from the checkpoint"):
        train(tiny_config(resume=True, gamma=0.5), tmp_path, stream=open(os.devnull, "w"))
    # thread counts may change: a run resumed on a busier machine takes fewer
    summary = train(tiny_config(resume=True, total_steps=16 * 16, torch_threads=1, learn_threads=1), tmp_path,
                    stream=open(os.devnull, "w"))
    assert summary["updates"] == 2


def test_event_hooks_are_called(tmp_path):
    seen = {"episodes": [], "checkpoints": [], "evaluations": []}

    class Recorder:
        @hookimpl
        def gota_episode_end(self, episode):
            seen["episodes"].append(episode)

        @hookimpl
        def gota_checkpoint_saved(self, checkpoint):
            seen["checkpoints"].append(checkpoint)

        @hookimpl
        def gota_evaluation_finished(self, report):
            seen["evaluations"].append(report)

    cfg = tiny_config()
    cfg.env.max_ticks = 60            # 15 decisions: episodes end inside a rollout
    cfg.policy.name, cfg.policy.options = "lstm", {"hidden": 16}
    cfg.eval.enabled, cfg.eval.opponents, cfg.eval.matches, cfg.eval.max_ticks = True, ["idle"], 1, 40
    with plugins.registered(Recorder()):
        summary = train(cfg, tmp_path, stream=open(os.devnull, "w"))
    assert seen["episodes"] and all(len(e.stats) == len(e.opponents) for e in seen["episodes"])
    assert {"self", "idle", "random"} & {o for e in seen["episodes"] for o in e.opponents}
    assert seen["episodes"][0].stats["ticks"][0] == 60
    assert [c.global_step for c in seen["checkpoints"]] == [15 * 16 * 2, 15 * 16 * 4]
    assert seen["evaluations"] and seen["evaluations"][0].table[0]["opponent"] == "idle"
    assert summary["evaluation"][0]["matches"] == 1


# ---- the learning curves -------------------------------------------------------------------------------------

def test_learning_curves_share_the_step_axis_and_draw_each_opponent_from_its_first_episode(tmp_path):
    from gota_arena.train.report import Reporter, learning_curves, read_metrics, steps_formatter

    reporter = Reporter(tmp_path, ["random", "idle"], total_steps=10 * 1280, tensorboard=False, progress=False)
    for update in range(1, 11):
        reporter.episode({"opponent": "random", "outcome": 1, "glory": 300, "ticks": 900})   # from the start
        if update >= 7:   # idle only late
            reporter.episode({"opponent": "idle", "outcome": 0, "glory": 50, "ticks": 900})
        reporter.episode_return(0.5)
        reporter.log(update, update * 1280, {"losses/entropy": 3.0, "losses/value_loss": 0.1, "charts/SPS": 900.0})
    png = reporter.plot()
    reporter.close()
    assert open(png, "rb").read(4) == b"\x89PNG"

    fig = learning_curves(read_metrics(reporter.csv_path), reporter.kinds, "curves")
    axes = fig.axes
    assert len(axes) == 6 and all(ax.get_shared_x_axes().joined(axes[0], ax) for ax in axes)
    assert fig.get_supxlabel() == "agent-steps" and not any(ax.get_xlabel() for ax in axes)
    assert axes[0].get_xlim()[0] == 0
    win = next(ax for ax in axes if ax.get_title().startswith("win rate"))
    glory = next(ax for ax in axes if ax.get_title().startswith("Glory"))
    for ax in (win, glory):
        lines = {line.get_label(): line for line in ax.get_lines() if not line.get_label().startswith("_")}
        assert list(lines) == ["random", "idle"]
        first_step = {}
        for kind, line in lines.items():
            x, y = np.asarray(line.get_xdata()), np.asarray(line.get_ydata(), dtype=float)
            first_step[kind] = x[np.isfinite(y)][0]   # no line (NaN, not 0) before the first episode
        assert first_step == {"random": 1280, "idle": 7 * 1280}
    win_rates = {line.get_label(): np.nanmax(line.get_ydata()) for line in win.get_lines()}
    assert win_rates["random"] == 1.0 and win_rates["idle"] == 0.0
    assert win.get_ylim()[0] <= 0 and win.get_ylim()[1] >= 1
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["random", "idle"]

    millions, thousands = steps_formatter(2e6), steps_formatter(60_000)
    assert [millions(x, 0) for x in (0, 5e5, 1e6, 1.5e6)] == ["0", "0.5M", "1M", "1.5M"]
    assert [thousands(x, 0) for x in (0, 20_000)] == ["0", "20k"]
