"""PPO on the LearnerEnv, in the manner of CleanRL's ppo.py: one function that
reads top to bottom (setup, rollout, GAE, minibatch epochs, logging,
checkpoints), ``b_`` for the flattened batch and ``mb_`` for a minibatch,
metrics namespaced ``charts/`` and ``losses/``.

    from gota_arena.train.ppo import train
    summary = train(cfg, run_dir)          # cfg: gota_arena.config.Config (dataclass or OmegaConf)

What is particular to GotA:
- an agent is a learner row of the LearnerEnv: 10 per self-play lane (both
  teams learn), 5 per lane against an opponent drawn from the pool/league;
- the action is the five-head conditional distribution of
  ``gota_arena.nets`` (masked logits; per-head log-probs and entropies);
- the run is cut in **segments** of ``trainer.checkpoint_every`` updates: a
  checkpoint closes a segment and the next one starts fresh matches (the
  simulator cannot save a match in progress). Episodes cut at a segment end
  are bootstrapped, not treated as lost. So a resumed run continues exactly as
  the uninterrupted one would have (weights, optimizer, counters, RNG states,
  league, matches), given the same config and torch threads;
- Ctrl-C (SIGINT) or SIGTERM: the rollout in progress is dropped, the state at
  the end of the last update is saved, and ``train`` returns with
  ``interrupted=True``; a second signal stops at once;
- under ``torchrun`` each rank plays its own ``env.lanes`` lanes and the
  gradients are averaged (``train/distributed.py``, docs/scaling.md);
  ``trainer.total_steps`` counts the agent-steps of all ranks, rank 0 alone
  writes the run folder, reports and evaluates.
"""
from __future__ import annotations

import json
import math
import random
import signal
import sys
import time
from pathlib import Path
from typing import Optional

import numpy as np
import torch
from omegaconf import OmegaConf

from .. import __version__, plugins
from ..arena import LANE_STATS_DTYPE
from ..config import self_play_lanes
from ..contract import INFO
from ..errors import GotaError, PluginError
from ..files import remove_leftovers, write_text_atomic
from ..hookspecs import CheckpointSaved, EpisodeEnd
from ..learner_env import SELF, LearnerEnv
from ..policies import PlaySettings, load_policy, save_policy
from . import distributed
from .checkpoint import (
    FORMAT, CheckpointError, TrainingError, load_checkpoint, restart_hint, rng_state, save_checkpoint, set_rng_state,
)
from .evaluate import evaluate, format_table
from .league import League
from .report import Reporter, _fmt_time

CHECKPOINT = Path("checkpoints") / "last.pt"
# config keys that may change when a run is resumed (budget, logging, evaluation, thread counts: a
# resumed run on a busier machine may take fewer threads; float sums then differ in the last bits)
RESUMABLE = ("trainer.total_steps", "trainer.resume", "trainer.progress", "trainer.progress_every",
             "trainer.tensorboard", "trainer.plots", "trainer.backend", "trainer.torch_threads",
             "trainer.learn_threads", "env.threads", "eval")


def _plain(cfg) -> dict:
    if OmegaConf.is_config(cfg):
        return OmegaConf.to_container(cfg, resolve=True, enum_to_str=True)
    return json.loads(json.dumps(OmegaConf.to_container(OmegaConf.structured(cfg), enum_to_str=True)))


def _env_seed(seed: int, update: int, lanes: int, rank: int = 0, world: int = 1) -> int:
    """The arena seed of ``rank``'s segment starting after ``update`` (lane i plays
    seed * lanes + i, so no two lanes of any ranks share a match seed)."""
    return (seed * 7919 + update) % ((2 ** 31 - 1) // (lanes * world)) * world + rank


class _Interrupt:
    """SIGINT/SIGTERM: the first sets ``hit``; a second one raises KeyboardInterrupt."""

    def __init__(self):
        self.hit = False
        self._old = {}

    def __enter__(self):
        import threading
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def _handle(self, signum, frame):
        if self.hit:
            raise KeyboardInterrupt
        self.hit = True

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)


def train(cfg, run_dir, stop_after: Optional[int] = None, stream=None, resume_command: Optional[str] = None) -> dict:
    """Train as ``cfg`` says, writing everything under ``run_dir``; returns a
    summary dict. ``stop_after``: stop (as after Ctrl-C, with a checkpoint)
    once that many updates are done in total (tests). ``resume_command``: the
    command line that continues this run, shown to the person. Under torchrun
    every rank calls it (docs/scaling.md)."""
    plain = _plain(cfg)
    with distributed.setup(plain["trainer"]["device"], plain["trainer"]["backend"]) as ddp:
        return _train(cfg, plain, Path(run_dir), ddp, stop_after, stream or sys.stdout, resume_command)


def _train(cfg, plain: dict, run_dir: Path, ddp: distributed.Distributed, stop_after: Optional[int], stream,
           resume_command: Optional[str]) -> dict:
    E, P, O, R, T, V = (plain[k] for k in ("env", "policy", "opponent", "reward", "trainer", "eval"))
    if ddp.main:
        run_dir.mkdir(parents=True, exist_ok=True)
    ckpt_path = run_dir / CHECKPOINT

    # ---- seeding (apart per rank), device, threads (a rank's share of the cores) ----------------
    seed = distributed.rank_seed(T["seed"], ddp.rank)
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    device = ddp.device
    cores = ddp.cores
    act_threads = T["torch_threads"] or cores
    learn_threads = T["learn_threads"] or cores
    sim_threads = E["threads"] or (cores if ddp.world > 1 else 0)   # 0: the arena's one per core
    torch.set_num_threads(act_threads)

    # ---- the policy and its optimizer ------------------------------------------------------
    policy = plugins.policy(P["name"], **P["options"])
    problems = trainable_problems(policy)
    if problems:
        plugin = plugins.registrations("policies")[P["name"]].plugin
        raise PluginError(f"policy {P['name']!r} (plugin {plugin!r}) cannot be trained by PPO: {'; '.join(problems)}. "
                          "PPO trains a torch.nn.Module with forward_act, evaluate and get_value: see "
                          "docs/plugins.md, 'Policies PPO can train'")
    # observation normalisation is the policy's own, if it has any (docs/plugins.md)
    normalizes = callable(getattr(policy, "normalize", None))
    prepare = policy.normalize if normalizes else (lambda o: o)
    normalized = {"normalized": True} if normalizes else {}
    if T["init_from"] and not T["resume"]:
        source = _starting_point(T["init_from"])
        if source.adapter != policy.adapter or source.config != policy.config:
            raise TrainingError(f"trainer.init_from={T['init_from']} is a {source.adapter} policy with "
                                f"{source.config}; this run builds {policy.adapter} with {policy.config}: "
                                f"train it with policy={source.adapter} and its options, or start from a "
                                f"{policy.adapter} policy file")
        policy.load_state_dict(source.state_dict())
        if source.play is not None and source.play != PlaySettings.of_env(E):
            print(f"note: trainer.init_from={T['init_from']} was trained under {source.play.describe()}; this run "
                  f"trains it under {PlaySettings.of_env(E).describe()}, and its policy file records those",
                  file=stream)
    policy = policy.to(device)
    policy.play = PlaySettings.of_env(E)   # saved with the weights: evaluators play it as it was trained
    ddp.broadcast_module(policy)   # every rank starts from rank 0's weights
    recurrent = bool(getattr(policy, "recurrent", False))
    optimizer = torch.optim.Adam(policy.parameters(), lr=T["learning_rate"], eps=1e-5)

    # ---- opponents: self-play lanes, the pool / league -----------------------------------------
    lanes = E["lanes"]
    n_self = self_play_lanes(cfg)
    league = None
    if n_self < lanes:
        league = League(pool=O["pool"], rule=O["rule"], options=O["options"], snapshots=O["snapshots"],
                        max_snapshots=O["max_snapshots"], pfsp_power=O["pfsp_power"], pfsp_floor=O["pfsp_floor"],
                        window=O["window"],
                        deterministic=O["deterministic"], directory=run_dir / "league",
                        seed=seed + 1, device=str(device))

    # ---- the environment -------------------------------------------------------------------
    reward = plugins.reward_mode(R["name"], **R["options"])
    env = LearnerEnv(lanes=lanes, self_play_lanes=n_self, opponents=league.choose if league else None,
                     reward=reward, action_ticks=E["action_ticks"], threads=sim_threads,
                     max_ticks=E["max_ticks"], upkeep=int(E["upkeep"]), **E["match"])
    N, S = env.agents, T["num_steps"]
    batch_size = N * S                   # this rank's
    global_batch = batch_size * ddp.world
    minibatches = min(T["num_minibatches"], N if recurrent else batch_size)
    num_updates = max(1, math.ceil(T["total_steps"] / global_batch))

    # ---- rollout storage -------------------------------------------------------------------------
    obs = torch.zeros((S, N, INFO.obs_size), device=device)
    masks = torch.zeros((S, N, INFO.mask_size), dtype=torch.bool, device=device)
    actions = torch.zeros((S, N, INFO.heads), dtype=torch.long, device=device)
    logprobs = torch.zeros((S, N), device=device)
    rewards = torch.zeros((S, N), device=device)
    dones = torch.zeros((S, N), device=device)
    values = torch.zeros((S, N), device=device)

    # ---- resume or start -----------------------------------------------------------------------------
    global_step, update, elapsed_before, episodes_before, cpu_before = 0, 0, 0.0, 0, 0.0
    if T["resume"]:
        if not ckpt_path.exists():
            raise TrainingError(f"trainer.resume=true but {ckpt_path} does not exist: point hydra.run.dir at "
                                "the folder of the run to continue (it holds checkpoints/last.pt)")
        ck = load_checkpoint(ckpt_path)   # CheckpointError: missing, truncated, damaged, not a checkpoint
        try:
            if ck["contract_hash"] != f"{INFO.hash:016x}":
                raise CheckpointError(f"{ckpt_path} was made for contract {ck['contract_hash']} (gota-arena "
                                      f"{ck.get('gota_arena', '?')}), this build has {INFO.hash:016x}: its "
                                      "observations and actions differ, so it cannot be resumed with this "
                                      f"gota-arena ({__version__}); resume it with the version that wrote it, or "
                                      "start a new run in another hydra.run.dir")
            old = json.loads(ck["config"])
            saved = (ck.get("adapter"), json.loads(ck.get("policy_config", "null")))
            if saved[0] is not None and saved != (policy.adapter, json.loads(json.dumps(policy.config))):
                raise CheckpointError(f"{ckpt_path} holds a {saved[0]} policy with {saved[1]}; this run builds "
                                      f"{policy.adapter} with {policy.config}; resume with the run's own policy "
                                      f"overrides (see {run_dir / 'config.yaml'}), or start a new run in another "
                                      "hydra.run.dir")
            # policy options are compared as built (above): none set and the defaults spelled out are the same
            changed = [k for k in _diff(old, plain) if not k.startswith(RESUMABLE + ("policy.options",))]
            if changed:
                raise TrainingError(f"the config differs from the checkpoint's ({ckpt_path}) in "
                                    f"{', '.join(changed)}; resume with the run's own overrides (see "
                                    f"{run_dir / 'config.yaml'}); only the budget, logging, evaluation and thread counts may change")
            if ck.get("world_size", 1) != ddp.world:
                raise TrainingError(f"{ckpt_path} was written by a run of {ck.get('world_size', 1)} rank(s); "
                                    f"resume it with as many (this one has {ddp.world}): the ranks' matches and "
                                    "RNG states are in the checkpoint")
            policy.load_state_dict(ck["model"])
            optimizer.load_state_dict(ck["optimizer"])
            mine = ck if ddp.rank == 0 else ck["other_ranks"][ddp.rank - 1]   # this rank's RNG and league states
            if league is not None:
                league.load_state_dict(mine["league"])
            set_rng_state(mine["rng"])
            global_step, update = int(ck["global_step"]), int(ck["update"])
            elapsed_before, episodes_before = float(ck["elapsed"]), int(ck["episodes"])
            cpu_before = float(ck.get("cpu", 0.0))
        except (GotaError, FileNotFoundError):
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, RuntimeError, OverflowError) as error:
            raise CheckpointError(f"training checkpoint {ckpt_path} is damaged: it reads, but "
                                  f"{type(error).__name__}: {error}; {restart_hint(ckpt_path)}") from None
        if ddp.main:
            # a run killed in a write leaves its temporary behind, and one killed between its
            # checkpoint and its policy file an older policy.safetensors: both are put right now
            for folder in (run_dir, ckpt_path.parent, run_dir / "league"):
                remove_leftovers(folder)
            save_policy(policy, str(run_dir / "policy.safetensors"),
                        extra={"update": update, "global_step": global_step})
    elif ckpt_path.exists():
        raise TrainingError(f"{run_dir} already holds a run ({ckpt_path}); continue it with trainer.resume=true "
                            "or start a new one in another hydra.run.dir")
    if ddp.main:
        write_text_atomic(run_dir / "config.yaml", OmegaConf.to_yaml(OmegaConf.create(plain)))

    def snapshot() -> None:
        """Rank 0 writes the snapshot file; every rank adds it to its pool (and loads it once it is there)."""
        league.add_snapshot(policy, update, global_step, write=ddp.main)
        ddp.barrier()

    if league is not None and O["snapshots"] and not any(e.kind == "snapshot" for e in league.entries):
        snapshot()

    kinds = ([SELF] if n_self else []) + (list(O["pool"]) if league else []) + (
        ["snapshot"] if league and O["snapshots"] else [])
    budget = num_updates * global_batch   # total_steps rounded up to whole updates: what the run will do
    reporter = Reporter(run_dir, kinds, budget, tensorboard=T["tensorboard"], progress=T["progress"],
                        progress_every=T["progress_every"], resume_step=global_step if T["resume"] else None,
                        stream=stream, title=plain["name"], quiet=not ddp.main)
    reporter.episodes = episodes_before
    start_time, start_cpu = time.perf_counter(), time.process_time()   # wall and CPU time (all threads)
    ranks = (f" on each of {ddp.world} ranks ({ddp.backend}, {sim_threads} simulator threads each)"
             if ddp.world > 1 else "")
    reporter.write(f"gota-arena {__version__} train: {plain['name']}: {lanes} lanes ({n_self} self-play), "
                   f"{N} agents{ranks}, {global_batch:,} agent-steps per update, {num_updates} updates "
                   f"({budget:,} agent-steps), policy {P['name']} ({_options(policy.config)}), reward {R['name']}, "
                   f"device {device}"
                   + (f"; resumed at update {update}, step {global_step:,}" if T["resume"] else ""))
    reporter.write(f"run dir: {run_dir}")
    match_decisions = math.ceil(E["max_ticks"] / E["action_ticks"])
    if T["checkpoint_every"] * S < match_decisions and num_updates > T["checkpoint_every"]:
        reporter.write(f"warning: a segment (trainer.checkpoint_every={T['checkpoint_every']} updates x "
                       f"{S} decisions) is shorter than a match that times out ({match_decisions} decisions): "
                       "such matches are cut before they end; raise trainer.checkpoint_every")

    def checkpoint(reason: str) -> Optional[str]:
        """Every rank calls it (its RNG and league states go to rank 0); rank 0 writes."""
        states = ddp.gather({"rng": saved_rng, "league": saved_league})
        if not ddp.main:
            return None
        payload = {"format": FORMAT, "contract_hash": f"{INFO.hash:016x}", "gota_arena": __version__,
                   "config": json.dumps(plain), "adapter": policy.adapter, "policy_config": json.dumps(policy.config),
                   "model": policy.state_dict(), "optimizer": optimizer.state_dict(),
                   "update": update, "global_step": global_step, "episodes": reporter.episodes,
                   "elapsed": elapsed_before + time.perf_counter() - start_time,
                   "cpu": cpu_before + time.process_time() - start_cpu,
                   "rng": saved_rng, "league": saved_league, "reason": reason,
                   "world_size": ddp.world, "other_ranks": states[1:]}
        path = save_checkpoint(ckpt_path, payload)
        save_policy(policy, str(run_dir / "policy.safetensors"), extra={"update": update, "global_step": global_step})
        if league is not None:
            league.save_table(run_dir / "league.json")
        plugins.notify("gota_checkpoint_saved", checkpoint=CheckpointSaved(path=path, global_step=global_step,
                                                                           metrics=dict(reporter.last)))
        return path

    def start_segment():
        o, m = env.reset(seed=_env_seed(T["seed"], update, lanes, ddp.rank, ddp.world))
        return (torch.as_tensor(o, device=device), torch.as_tensor(m, device=device) != 0,
                torch.ones(N, device=device), policy.initial_state(N), np.zeros(N))

    next_obs, next_masks, next_done, state, ep_return = start_segment()
    if update == 0 and normalizes:
        ddp.update_obs_stats(policy, next_obs)   # a first estimate before any normalised observation is stored
    digests = distributed.DigestLog.from_env(ddp.rank)   # GOTA_DIGESTS: the ranks-in-sync check
    interrupted = stopped = False
    saved_rng, saved_league = rng_state(), (league.state_dict() if league else {})
    try:
        with _Interrupt() as stop:
            while update < num_updates:
                # the state at the end of the last update, for a checkpoint if this rollout is dropped
                saved_rng, saved_league = rng_state(), (league.state_dict() if league else {})
                saved_episodes = reporter.episodes
                if T["anneal_lr"]:
                    optimizer.param_groups[0]["lr"] = (1.0 - update / num_updates) * T["learning_rate"]
                t0 = time.perf_counter()

                # ---- rollout ------------------------------------------------------------------------
                initial_state = None if state is None else tuple(s.clone() for s in state)
                rollout_episodes, rollout_returns = [], []   # for rank 0's report, under torchrun
                raw_sum = torch.zeros(INFO.obs_size, dtype=torch.float64, device=device)
                raw_sq = torch.zeros(INFO.obs_size, dtype=torch.float64, device=device)
                policy.eval()
                for step in range(S):
                    if normalizes:
                        raw = next_obs.double()
                        raw_sum += raw.sum(0)
                        raw_sq += (raw * raw).sum(0)
                    x = prepare(next_obs)
                    obs[step], masks[step], dones[step] = x, next_masks, next_done
                    with torch.no_grad():
                        action, logprob, value, state = policy.forward_act(
                            x, next_masks, state, next_done.bool(), **normalized)
                    values[step], actions[step], logprobs[step] = value, action, logprob
                    o, m, r, d, episodes = env.step(action.to(torch.int32).cpu().numpy())
                    rewards[step] = torch.as_tensor(r, device=device)
                    next_obs = torch.as_tensor(o, device=device)
                    next_masks = torch.as_tensor(m, device=device) != 0
                    next_done = torch.as_tensor(d, device=device, dtype=torch.float32)
                    ep_return += r
                    if d.any():
                        for value_ in ep_return[d]:
                            reporter.episode_return(value_)
                        rollout_returns += ep_return[d].tolist()
                        ep_return[d] = 0.0
                    if episodes:
                        for e in episodes:
                            reporter.episode(e)
                            if league is not None:
                                league.record(e)
                        rollout_episodes += episodes
                        if ddp.main:
                            plugins.notify("gota_episode_end", episode=EpisodeEnd(
                                stats=_lane_stats(episodes), opponents=[e["opponent"] for e in episodes],
                                global_step=global_step + (step + 1) * N * ddp.world))
                    if stop.hit and ddp.world == 1:
                        break   # several ranks finish the rollout and agree below
                if ddp.any(stop.hit):
                    reporter.episodes = saved_episodes
                    interrupted = True
                    break
                global_step += global_batch
                if ddp.world > 1:   # rank 0 reports the other ranks' episodes too
                    for episodes, returns in (ddp.gather((rollout_episodes, rollout_returns)) or [])[1:]:
                        for value_ in returns:
                            reporter.episode_return(value_)
                        for e in episodes:
                            reporter.episode(e)
                        if episodes:
                            plugins.notify("gota_episode_end", episode=EpisodeEnd(
                                stats=_lane_stats(episodes), opponents=[e["opponent"] for e in episodes],
                                global_step=global_step))
                t_rollout = time.perf_counter() - t0

                # ---- GAE: advantages and returns ------------------------------------------------------
                with torch.no_grad():
                    next_value = policy.get_value(prepare(next_obs), state, next_done.bool(), **normalized)
                    advantages = compute_gae(rewards, values, dones, next_value, next_done, T["gamma"], T["gae_lambda"])
                    returns = advantages + values

                # ---- flatten the batch ----------------------------------------------------------------------
                b_obs = obs.reshape(-1, INFO.obs_size)
                b_masks = masks.reshape(-1, INFO.mask_size)
                b_actions = actions.reshape(-1, INFO.heads)
                b_logprobs = logprobs.reshape(-1)
                b_advantages = advantages.reshape(-1)
                b_returns = returns.reshape(-1)
                b_values = values.reshape(-1)
                b_dones = dones.reshape(-1)

                # ---- optimize the policy and value network ----------------------------------------------------
                t1 = time.perf_counter()
                torch.set_num_threads(learn_threads)
                policy.train()
                clipfracs = []
                if recurrent:   # minibatches of whole sequences (agents), time-major inside
                    groups = N // minibatches
                    env_inds = np.arange(N)
                    flat_inds = np.arange(batch_size).reshape(S, N)
                for epoch in range(T["update_epochs"]):
                    if recurrent:
                        perm = torch.randperm(N).numpy()
                        chunks = [perm[i:i + groups] for i in range(0, N - groups + 1, groups)]
                    else:
                        perm = torch.randperm(batch_size, device=device)
                        size = batch_size // minibatches
                        chunks = [perm[i:i + size] for i in range(0, batch_size - size + 1, size)]
                    for chunk in chunks:
                        if recurrent:
                            mb_envs = env_inds[chunk]
                            mb_inds = torch.as_tensor(flat_inds[:, mb_envs].ravel(), device=device)
                            mb_state = tuple(s[:, mb_envs] for s in initial_state)
                        else:
                            mb_inds, mb_state = chunk, None
                        newlogprob, entropy, newvalue, _ = policy.evaluate(
                            b_obs[mb_inds], b_masks[mb_inds], b_actions[mb_inds], mb_state,
                            b_dones[mb_inds].bool(), **normalized)
                        logratio = newlogprob - b_logprobs[mb_inds]
                        ratio = logratio.exp()
                        with torch.no_grad():
                            old_approx_kl = (-logratio).mean()
                            approx_kl = ((ratio - 1) - logratio).mean()
                            clipfracs.append(((ratio - 1.0).abs() > T["clip_coef"]).float().mean().item())

                        mb_advantages = b_advantages[mb_inds]
                        if T["norm_adv"]:
                            mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)

                        # policy loss
                        pg_loss1 = -mb_advantages * ratio
                        pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - T["clip_coef"], 1 + T["clip_coef"])
                        pg_loss = torch.max(pg_loss1, pg_loss2).mean()

                        # value loss
                        if T["clip_vloss"]:
                            v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
                            v_clipped = b_values[mb_inds] + torch.clamp(
                                newvalue - b_values[mb_inds], -T["clip_coef"], T["clip_coef"])
                            v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
                            v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
                        else:
                            v_loss = 0.5 * ((newvalue - b_returns[mb_inds]) ** 2).mean()

                        entropy_loss = entropy.mean()
                        loss = pg_loss - T["ent_coef"] * entropy_loss + v_loss * T["vf_coef"]

                        optimizer.zero_grad()
                        loss.backward()
                        ddp.average_gradients(policy)
                        torch.nn.utils.clip_grad_norm_(policy.parameters(), T["max_grad_norm"])
                        optimizer.step()

                    if T["target_kl"] is not None and ddp.mean(approx_kl) > T["target_kl"]:
                        break   # decided on the ranks' mean kl: every rank stops at the same epoch
                torch.set_num_threads(act_threads)
                # the running observation statistics move once per update, after learning, by every rank's rollout
                if normalizes:
                    ddp.sum_(raw_sum)
                    ddp.sum_(raw_sq)
                    policy.update_obs_moments(global_batch, raw_sum / global_batch,
                                              (raw_sq / global_batch - (raw_sum / global_batch) ** 2).clamp(min=0))
                t_learn = time.perf_counter() - t1
                update += 1
                if digests:
                    digests.write(update, global_step, policy, obs)

                # ---- metrics -------------------------------------------------------------------------------------
                y_pred, y_true = b_values.cpu().numpy(), b_returns.cpu().numpy()
                var_y = np.var(y_true)
                explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y
                metrics = {
                    "charts/learning_rate": optimizer.param_groups[0]["lr"],
                    "charts/SPS": global_batch / (t_rollout + t_learn),
                    "charts/reward_mean": rewards.mean().item(),
                    "losses/value_loss": v_loss.item(), "losses/policy_loss": pg_loss.item(),
                    "losses/entropy": entropy_loss.item(), "losses/old_approx_kl": old_approx_kl.item(),
                    "losses/approx_kl": approx_kl.item(), "losses/clipfrac": float(np.mean(clipfracs)),
                    "losses/explained_variance": float(explained_var),
                    "time/rollout_s": t_rollout, "time/learn_s": t_learn,
                }
                reporter.log(update, global_step, metrics)

                # ---- league snapshots and checkpoints (a checkpoint closes a segment) -------------------------------
                if league is not None and O["snapshots"] and update % O["snapshot_every"] == 0:
                    snapshot()
                stopping = stop_after is not None and update >= stop_after
                if update % T["checkpoint_every"] == 0 or update == num_updates or stopping:
                    saved_rng, saved_league = rng_state(), (league.state_dict() if league else {})
                    checkpoint("final" if update == num_updates else "stop" if stopping else "periodic")
                    if stopping and update < num_updates:
                        stopped = True
                        break
                    if update < num_updates:
                        next_obs, next_masks, next_done, state, ep_return = start_segment()
    finally:
        env.close()

    elapsed = elapsed_before + time.perf_counter() - start_time
    cpu = cpu_before + time.process_time() - start_cpu
    summary = {"run_dir": str(run_dir), "name": plain["name"], "updates": update, "global_step": global_step,
               "seconds": elapsed, "cpu_seconds": cpu, "interrupted": interrupted or stopped, "checkpoint": str(ckpt_path),
               "policy": str(run_dir / "policy.safetensors"), "metrics": str(reporter.csv_path),
               "tensorboard": str(run_dir / "tensorboard") if reporter.tb is not None else None,
               "win_rate": {k: reporter.win_rate(k) for k in reporter.kinds},
               "glory": {k: reporter.mean_glory(k) for k in reporter.kinds}, "evaluation": None, "plots": None,
               "resume_command": resume_command}
    if interrupted:
        checkpoint("interrupted")
        reporter.write(f"interrupted: saved the state after update {update} (step {global_step:,}) in {ckpt_path}"
                       + (f"\ncontinue with: {resume_command}" if resume_command else ""))
    if interrupted or stopped or not ddp.main:   # rank 0 alone evaluates, plots and sums up
        reporter.close()
        return summary

    # ---- the end: quick evaluation, plots, summary ------------------------------------------------------------
    if V["enabled"]:
        shorter = f", max_ticks={V['max_ticks']} (eval.max_ticks)" if V["max_ticks"] else ""
        reporter.write(f"evaluating: greedy={V['deterministic']} vs {', '.join(V['opponents'])}, "
                       f"{V['matches']} matches each, as trained ({policy.play.describe()}){shorter} ...")
        policy.eval()
        rows = evaluate(policy, V["opponents"], matches=V["matches"], deterministic=V["deterministic"],
                        seed=V["seed"], threads=sim_threads, max_ticks=V["max_ticks"], output_dir=str(run_dir))
        write_text_atomic(run_dir / "eval.json", json.dumps(rows, indent=1))
        summary["evaluation"] = rows
    if T["plots"]:
        summary["plots"] = reporter.plot()
    reporter.close()
    write_text_atomic(run_dir / "summary.json", json.dumps(summary, indent=1, default=str))
    _print_summary(summary, reporter, stream)
    return summary


# what PPO calls on a policy (docs/plugins.md, "Policies PPO can train")
TRAINABLE = ("initial_state", "forward_act", "evaluate", "get_value", "act", "state_dict", "load_state_dict")


def trainable_problems(policy) -> list:
    """Why PPO cannot train ``policy``, one phrase per problem; empty when it can.

    PPO trains a ``torch.nn.Module`` with ``adapter``, ``config`` and the methods
    of ``TRAINABLE``; ``recurrent`` (default False) says whether ``evaluate``
    takes whole sequences; a policy with ``normalize`` (its own observation
    normalisation) also keeps its statistics with ``update_obs_moments``."""
    problems = []
    if not isinstance(policy, torch.nn.Module):
        problems.append(f"it is a {type(policy).__name__}, not a torch.nn.Module")
    missing = [name for name in TRAINABLE if not callable(getattr(policy, name, None))]
    missing += [name for name in ("adapter", "config") if not hasattr(policy, name)]
    if missing:
        problems.append(f"it has no {', '.join(missing)}")
    if callable(getattr(policy, "normalize", None)) and not callable(getattr(policy, "update_obs_moments", None)):
        problems.append("it has normalize but no update_obs_moments(n, mean, var) to keep its statistics")
    if isinstance(policy, torch.nn.Module) and not any(p.requires_grad for p in policy.parameters()):
        problems.append("it has no parameters to learn")
    return problems


def _options(config) -> str:
    """A policy's options as the header shows them: ``hidden=256, layers=2``."""
    return ", ".join(f"{k}={v}" for k, v in dict(config or {}).items()) or "no options"


def _starting_point(init_from: str):
    """``trainer.init_from``: a policy file, or the name of a registered policy that
    comes with weights (the bundled ``ppo``)."""
    if Path(init_from).exists() or init_from not in plugins.names("policies"):
        return load_policy(init_from)
    source = plugins.policy(init_from)
    if getattr(source, "play", None) is None:
        raise TrainingError(f"trainer.init_from={init_from} names a policy that was not trained; give a policy "
                            "file (.safetensors) or a registered policy that comes trained, such as ppo")
    return source


def _lane_stats(episodes: list) -> np.ndarray:
    """The LearnerEnv episode dicts back as lane stats (its ``opponent`` key is a
    name; the stats field is the opponent's bot id, 0 for a Python opponent or self-play)."""
    stats = np.zeros(len(episodes), dtype=LANE_STATS_DTYPE)
    for i, e in enumerate(episodes):
        for k in LANE_STATS_DTYPE.names:
            if k == "opponent":
                stats[i][k] = bot_ids().get(e["opponent"], 0)
            else:
                stats[i][k] = e[k]
    return stats


def bot_ids() -> dict:
    from ..bots import bot_id, bot_names
    return {name: bot_id(name) for name in bot_names()}


def compute_gae(rewards, values, dones, next_value, next_done, gamma: float, gae_lambda: float):
    """Generalized advantage estimates ``[T, N]``. ``dones[t]`` is 1 where ``obs[t]``
    begins an episode (the step before it ended one); ``next_done`` / ``next_value``
    belong to the observation after the rollout (its value bootstraps a cut episode)."""
    steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    lastgaelam = torch.zeros_like(rewards[0])
    for t in reversed(range(steps)):
        if t == steps - 1:
            nextnonterminal, nextvalues = 1.0 - next_done, next_value
        else:
            nextnonterminal, nextvalues = 1.0 - dones[t + 1], values[t + 1]
        delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
        lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
        advantages[t] = lastgaelam
    return advantages


def _diff(a, b, prefix="") -> list:
    out = []
    for k in sorted(set(a) | set(b)):
        key = f"{prefix}{k}"
        if isinstance(a.get(k), dict) and isinstance(b.get(k), dict):
            out += _diff(a[k], b[k], key + ".")
        elif a.get(k) != b.get(k):
            out.append(key)
    return out


def _print_summary(s: dict, reporter: Reporter, stream) -> None:
    w = stream.write
    sps = s["global_step"] / max(s["seconds"], 1e-9)
    w(f"\ndone: {s['name']}: {s['global_step']:,} agent-steps in {_fmt_time(s['seconds'])} "
      f"({sps:,.0f} agent-steps/s; {s['cpu_seconds'] / 60:,.1f} CPU-minutes), {s['updates']} updates, "
      f"{reporter.episodes} episodes\n")
    wins = ", ".join(f"{k} {v:.0%}" for k, v in s["win_rate"].items() if v == v)
    if wins:
        w(f"  recent win rate  {wins}\n")
    if s["evaluation"]:
        w("  evaluation (greedy policy, each lane's first match):\n")
        w(format_table(s["evaluation"]) + "\n")
    w(f"  run dir          {s['run_dir']}\n")
    w(f"  checkpoint       {s['checkpoint']}\n")
    w(f"  policy           {s['policy']}\n")
    w(f"  metrics          {s['metrics']}\n")
    if s["tensorboard"]:
        w(f"  tensorboard      tensorboard --logdir {s['tensorboard']}\n")
    if s["plots"]:
        w(f"  learning curves  {s['plots']}\n")
    if s.get("resume_command"):
        more = " ".join(t for t in s["resume_command"].split(" ") if not t.startswith("trainer.total_steps="))
        w(f"  train on         {more} trainer.total_steps=<more>\n")
    stream.flush()


__all__ = ["train", "compute_gae", "trainable_problems", "TrainingError", "CHECKPOINT", "TRAINABLE"]
