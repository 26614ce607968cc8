"""PPO on the LearnerEnv, in the manner of CleanRL's ppo.py: one function that
reads top to bottom (setup; then per update: rollout, advantages, update,
metrics, checkpoint), metrics namespaced ``charts/`` and ``losses/``.

    from gota_arena.train.ppo import train
    summary = train(cfg, run_dir)          # cfg: gota_arena.config.Config (dataclass or OmegaConf)

Its parts: ``rollout.py`` (acting: a batch from the LearnerEnv), ``update.py``
(learning: GAE and ``ppo_update`` on a batch alone), ``state.py`` (the policy,
optimizer, league, counters and RNG states a checkpoint saves and a resume
takes up), ``league.py``, ``report.py``; the quick evaluation at the end is
gota_arena/evaluate/quick.py.

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
from ..config import TrainerConfig, self_play_lanes
from ..errors import PluginError
from ..evaluate.quick import evaluate
from ..files import write_text_atomic
from ..hookspecs import CheckpointSaved, EpisodeEnd
from ..learner_env import SELF, LearnerEnv
from ..policies import PlaySettings, load_policy
from . import distributed
from .checkpoint import TrainingError
from .league import League
from .report import Reporter, print_summary
from .rollout import Rollout
from .state import CHECKPOINT, POLICY, TrainingState
from .update import ppo_update


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

    # ---- seeding (apart per rank), device, threads (a rank's share of the cores) ----------------
    seed = distributed.rank_seed(T["seed"], ddp.rank)
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    device = ddp.device
    act_threads = T["torch_threads"] or ddp.cores
    learn_threads = T["learn_threads"] or ddp.cores
    sim_threads = E["threads"] or (ddp.cores if ddp.world > 1 else 0)   # 0: the arena's one per core
    torch.set_num_threads(act_threads)

    # ---- the policy and its optimizer ------------------------------------------------------
    policy = _trainable_policy(P, T, E, stream).to(device)
    policy.play = PlaySettings.of_env(E)   # saved with the weights: evaluators play it as it was trained
    ddp.broadcast_module(policy)   # every rank starts from rank 0's weights
    optimizer = torch.optim.Adam(policy.parameters(), lr=T["learning_rate"], eps=1e-5)
    hyperparameters = TrainerConfig(**T)

    # ---- opponents: self-play lanes, the pool / league -----------------------------------------
    lanes = E["lanes"]
    n_self = self_play_lanes(cfg)
    league = None
    if n_self < lanes:
        league = League(pool=O["pool"], rule=O["rule"], options=O["options"], snapshots=O["snapshots"],
                        max_snapshots=O["max_snapshots"], pfsp_power=O["pfsp_power"], pfsp_floor=O["pfsp_floor"],
                        window=O["window"], deterministic=O["deterministic"], directory=run_dir / "league",
                        seed=seed + 1, device=str(device))

    # ---- the environment and the rollout storage ---------------------------------------------
    reward = plugins.reward_mode(R["name"], **R["options"])
    env = LearnerEnv(lanes=lanes, self_play_lanes=n_self, opponents=league.choose if league else None,
                     reward=reward, action_ticks=E["action_ticks"], threads=sim_threads,
                     max_ticks=E["max_ticks"], upkeep=int(E["upkeep"]), **E["match"])
    N, S = env.agents, T["num_steps"]
    global_batch = N * S * ddp.world
    num_updates = max(1, math.ceil(T["total_steps"] / global_batch))
    rollout = Rollout(env, policy, S, device)

    # ---- resume or start -----------------------------------------------------------------------------
    state = TrainingState(policy, optimizer, league, plain)
    if T["resume"]:
        state.resume(run_dir, ddp)
    elif (run_dir / CHECKPOINT).exists():
        raise TrainingError(f"{run_dir} already holds a run ({run_dir / CHECKPOINT}); continue it with "
                            "trainer.resume=true or start a new one in another hydra.run.dir")
    if ddp.main:
        write_text_atomic(run_dir / "config.yaml", OmegaConf.to_yaml(OmegaConf.create(plain)))

    def snapshot() -> None:
        """Rank 0 writes the snapshot file; every rank adds it to its pool (and loads it once it is there)."""
        league.add_snapshot(policy, state.update, state.global_step, write=ddp.main)
        ddp.barrier()

    if league is not None and O["snapshots"] and not any(e.kind == "snapshot" for e in league.entries):
        snapshot()

    kinds = ([SELF] if n_self else []) + (list(O["pool"]) if league else []) + (
        ["snapshot"] if league and O["snapshots"] else [])
    budget = num_updates * global_batch   # total_steps rounded up to whole updates: what the run will do
    reporter = Reporter(run_dir, kinds, budget, tensorboard=T["tensorboard"], progress=T["progress"],
                        progress_every=T["progress_every"], resume_step=state.global_step if T["resume"] else None,
                        stream=stream, title=plain["name"], quiet=not ddp.main)
    if state.windows is not None:
        reporter.restore(state.windows)
    else:   # a fresh run, or a checkpoint from before the windows were kept
        reporter.episodes = state.episodes
    state.start_clock()
    reporter.started = state.started - state.elapsed   # the time column counts the whole run's wall seconds
    ranks = (f" on each of {ddp.world} ranks ({ddp.backend}, {sim_threads} simulator threads each)"
             if ddp.world > 1 else "")
    reporter.write(f"gota-arena {__version__} train: {plain['name']}: {lanes} lanes ({n_self} self-play), "
                   f"{N} agents{ranks}, {global_batch:,} agent-steps per update, {num_updates} updates "
                   f"({budget:,} agent-steps), policy {P['name']} ({_options(policy.config)}), reward {R['name']}, "
                   f"device {device}"
                   + (f"; resumed at update {state.update}, step {state.global_step:,}" if T["resume"] else ""))
    reporter.write(f"run dir: {run_dir}")
    match_decisions = math.ceil(E["max_ticks"] / E["action_ticks"])
    if T["checkpoint_every"] * S < match_decisions and num_updates > T["checkpoint_every"]:
        reporter.write(f"warning: a segment (trainer.checkpoint_every={T['checkpoint_every']} updates x "
                       f"{S} decisions) is shorter than a match that times out ({match_decisions} decisions): "
                       "such matches are cut before they end; raise trainer.checkpoint_every")

    def checkpoint(reason: str) -> None:
        """Every rank calls it; rank 0 writes and tells the plugins."""
        path = state.save(run_dir, ddp, reason, reporter.windows())
        if path is not None:
            plugins.notify("gota_checkpoint_saved", checkpoint=CheckpointSaved(
                path=path, global_step=state.global_step, metrics=dict(reporter.last)))

    rollout_episodes, rollout_returns = [], []   # this rank's, for rank 0's report under torchrun

    def finished(step: int, returns: list, episodes: list) -> None:
        """Episodes that ended in a step of the rollout, counted at once: the league's next draws read them."""
        for value in returns:
            reporter.episode_return(value)
        rollout_returns.extend(returns)
        for e in episodes:
            reporter.episode(e)
            if league is not None:
                league.record(e)
        rollout_episodes.extend(episodes)
        if episodes and ddp.main:
            plugins.notify("gota_episode_end", episode=EpisodeEnd(
                stats=_lane_stats(episodes), opponents=[e["opponent"] for e in episodes],
                global_step=state.global_step + (step + 1) * N * ddp.world))

    rollout.start(_env_seed(T["seed"], state.update, lanes, ddp.rank, ddp.world))
    if state.update == 0 and rollout.normalizes:
        ddp.update_obs_stats(policy, rollout.next_obs)   # a first estimate before any normalised observation is stored
    digests = distributed.DigestLog.from_env(ddp.rank)   # GOTA_DIGESTS: the ranks-in-sync check
    interrupted = stopped = False
    state.mark()
    try:
        with _Interrupt() as stop:
            while state.update < num_updates:
                state.mark()   # the state at the end of the last update, for a checkpoint if this rollout is dropped
                saved_windows = reporter.windows()   # what a dropped rollout must not leave in the report
                if T["anneal_lr"]:
                    optimizer.param_groups[0]["lr"] = (1.0 - state.update / num_updates) * T["learning_rate"]
                t0 = time.perf_counter()

                # ---- rollout ------------------------------------------------------------------------
                rollout_episodes.clear()
                rollout_returns.clear()
                rollout.collect(finished, stop=lambda: stop.hit and ddp.world == 1)   # several ranks agree below
                if ddp.any(stop.hit):
                    reporter.restore(saved_windows)
                    interrupted = True
                    break
                state.global_step += global_batch
                if ddp.world > 1:   # rank 0 reports the other ranks' episodes too
                    for episodes, returns in (ddp.gather((rollout_episodes, rollout_returns)) or [])[1:]:
                        for value in returns:
                            reporter.episode_return(value)
                        for e in episodes:
                            reporter.episode(e)
                        if episodes:
                            plugins.notify("gota_episode_end", episode=EpisodeEnd(
                                stats=_lane_stats(episodes), opponents=[e["opponent"] for e in episodes],
                                global_step=state.global_step))
                t_rollout = time.perf_counter() - t0

                # ---- advantages: GAE, bootstrapped where the rollout cuts an episode --------------------------
                batch = rollout.batch(T["gamma"], T["gae_lambda"])

                # ---- optimize the policy and value network ----------------------------------------------------
                t1 = time.perf_counter()
                torch.set_num_threads(learn_threads)
                stats = ppo_update(policy, optimizer, batch, hyperparameters, ddp)
                torch.set_num_threads(act_threads)
                # the running observation statistics move once per update, after learning, by every rank's rollout
                if rollout.normalizes:
                    raw_sum, raw_sq = ddp.sum_(rollout.raw_sum), ddp.sum_(rollout.raw_sq)
                    policy.update_obs_moments(global_batch, raw_sum / global_batch,
                                              (raw_sq / global_batch - (raw_sum / global_batch) ** 2).clamp(min=0))
                t_learn = time.perf_counter() - t1
                state.update += 1
                if digests:
                    digests.write(state.update, state.global_step, policy, batch.obs)

                # ---- metrics -------------------------------------------------------------------------------------
                reporter.log(state.update, state.global_step, {
                    "charts/learning_rate": optimizer.param_groups[0]["lr"],
                    "charts/SPS": global_batch / (t_rollout + t_learn),
                    "charts/reward_mean": rollout.rewards.mean().item(),
                    **stats, "time/rollout_s": t_rollout, "time/learn_s": t_learn})

                # ---- league snapshots and checkpoints (a checkpoint closes a segment) -------------------------------
                if league is not None and O["snapshots"] and state.update % O["snapshot_every"] == 0:
                    snapshot()
                stopping = stop_after is not None and state.update >= stop_after
                if state.update % T["checkpoint_every"] == 0 or state.update == num_updates or stopping:
                    state.mark()
                    checkpoint("final" if state.update == num_updates else "stop" if stopping else "periodic")
                    if stopping and state.update < num_updates:
                        stopped = True
                        break
                    if state.update < num_updates:
                        rollout.start(_env_seed(T["seed"], state.update, lanes, ddp.rank, ddp.world))
    finally:
        env.close()

    elapsed, cpu = state.seconds()
    summary = {"run_dir": str(run_dir), "name": plain["name"], "updates": state.update,
               "global_step": state.global_step, "seconds": elapsed, "cpu_seconds": cpu,
               "interrupted": interrupted or stopped, "checkpoint": str(run_dir / CHECKPOINT),
               "policy": str(run_dir / POLICY), "metrics": str(reporter.csv_path),
               "tensorboard": str(run_dir / "tensorboard") if reporter.tb is not None else None,
               "win_rate": {k: reporter.win_rate(k) for k in reporter.kinds},
               "glory": {k: reporter.mean_glory(k) for k in reporter.kinds}, "evaluation": None, "plots": None,
               "resume_command": resume_command}
    if interrupted:
        checkpoint("interrupted")
        reporter.write(f"interrupted: saved the state after update {state.update} (step {state.global_step:,}) in "
                       f"{run_dir / CHECKPOINT}" + (f"\ncontinue with: {resume_command}" if resume_command else ""))
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
    print_summary(summary, reporter, stream)
    return summary


def _trainable_policy(P: dict, T: dict, E: dict, stream):
    """The policy the run trains, built from its name and options, from ``trainer.init_from``'s
    weights where that is set (a new run); PluginError when PPO cannot train it."""
    policy = plugins.policy(P["name"], **P["options"])
    problems = trainable_problems(policy)
    if problems:
        plugin = plugins.registrations("policies")[P["name"]].plugin
        raise PluginError(f"policy {P['name']!r} (plugin {plugin!r}) cannot be trained by PPO: {'; '.join(problems)}. "
                          "PPO trains a torch.nn.Module with forward_act, evaluate and get_value: see "
                          "docs/plugins.md, 'Policies PPO can train'")
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
    return policy


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


__all__ = ["train", "trainable_problems", "TrainingError", "CHECKPOINT", "TRAINABLE"]
