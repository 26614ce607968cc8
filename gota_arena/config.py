"""Structured configs of a training run (Hydra + OmegaConf), one dataclass per
config group of ``conf/``:

    env       the arena: lanes, threads, action ticks, max ticks, upkeep, extra match keys (draft, waves)
    policy    a registered policy adapter by name (mlp, lstm, entity, or a plugin's) and its options
    opponent  who plays the other team: the share of self-play lanes, the pool of registered
              opponents, league snapshots and the rule that draws an opponent per episode
    reward    a registered reward mode by name and its options
    trainer   PPO hyper-parameters, budget, device, seed, checkpoints, logging
    eval      the quick evaluation at the end of a run

``register()`` stores ``Config`` in Hydra's ConfigStore as ``base_config``;
``conf/config.yaml`` lists it first in its defaults, so every value the YAML
files or the command line set is checked against these types: a misspelled key
or a wrong type stops the run before anything starts, with Hydra's message.
Names of plugins (policy, reward mode, opponents) are checked against the
registries right after composition (``check_names``), with their options.

A plugin's options are free dicts (``FREE_DICTS``): whatever keys the plugin's
factory takes, set the obvious way on the command line
(``reward.options.per=50``, ``reward.options={per: 50}``,
``opponent.options.my_bot.level=2``); the factory checks them. The options of a
policy or reward mode default to none, so the factory's own defaults apply and
the **name decides them**: ``policy.name=lstm`` (or ``policy=lstm``) never
inherits another policy's options. ``register()`` also makes ``policy=<name>``
and ``reward=<name>`` work for every registered name that ``conf/`` has no file
for (a plugin's).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Optional

from .constants import MAX_BATTLE_TICKS


class Rule(Enum):
    """How a lane's next opponent is drawn from the pool (docs/training.md, "League")."""

    latest = "latest"     # the newest snapshot (the bots until there is one)
    uniform = "uniform"   # every entry alike
    pfsp = "pfsp"         # prioritized fictitious self-play: weight (1 - p)^k


RULES = tuple(r.value for r in Rule)


@dataclass
class EnvConfig:
    lanes: int = 8                       # matches stepped together (on each rank under torchrun)
    threads: int = 0                     # simulator threads, 0 = one per core (a rank's share under torchrun)
    action_ticks: int = 4                # ticks per decision (24 ticks = 1 s)
    max_ticks: int = MAX_BATTLE_TICKS    # battle ticks before a timeout (28,800 = 20 min, the most)
    upkeep: bool = True                  # ability points, shopping, buyback done for the agents
    match: Dict[str, int] = field(default_factory=dict)   # more simulator keys: wave_interval, class_0..class_9


@dataclass
class PolicyConfig:
    name: str = "entity"                 # a registered policy adapter (python -m gota_arena plugins)
    options: Dict[str, Any] = field(default_factory=dict)   # the adapter's factory options; none: its defaults


@dataclass
class OpponentConfig:
    self_play_share: float = 1.0         # share of lanes where both teams are the learner (10 agents each)
    pool: List[str] = field(default_factory=lambda: ["idle", "random", "base"])   # registered opponent names
    options: Dict[str, Dict[str, Any]] = field(default_factory=dict)   # per pool name: factory options
    snapshots: bool = False              # league: frozen snapshots of the learner join the pool
    snapshot_every: int = 10             # updates between snapshots
    max_snapshots: int = 10              # the oldest snapshot leaves the pool beyond this
    rule: Rule = Rule.uniform            # latest | uniform | pfsp: how an episode's opponent is drawn
    pfsp_power: float = 2.0              # pfsp weight (1 - p)^k, p = recent win rate against the opponent
    pfsp_floor: float = 0.0              # pfsp: no entry's weight below this, so a beaten opponent is still met
    window: int = 50                     # episodes per opponent in the recent win rate
    deterministic: bool = False          # snapshots play greedily


@dataclass
class RewardConfig:
    name: str = "advantage"              # a registered reward mode: leaderboard, xp, xp_outcome, advantage, ...
    options: Dict[str, Any] = field(default_factory=dict)


@dataclass
class TrainerConfig:
    total_steps: int = 1_000_000         # agent-steps (one learner row, one decision), all ranks together
    num_steps: int = 64                  # decisions per rollout (the batch is agents x num_steps)
    learning_rate: float = 3e-4
    anneal_lr: bool = True
    gamma: float = 0.995
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 2
    norm_adv: bool = True
    clip_coef: float = 0.2
    clip_vloss: bool = True
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: Optional[float] = None
    seed: int = 1
    device: str = "cpu"                  # cpu | cuda | cuda:N (under torchrun: cuda, each rank on cuda:LOCAL_RANK)
    backend: str = "auto"                # torchrun's process group: auto (gloo on CPU, nccl on CUDA) | gloo | nccl
    torch_threads: int = 1               # torch threads while acting (small batches)
    learn_threads: int = 0               # torch threads while learning, 0 = one per core (a rank's share)
    checkpoint_every: int = 250          # updates; a checkpoint also starts fresh matches (docs/training.md)
    keep_policies: bool = True           # keep each checkpoint's policy too (checkpoints/policy_<agent-steps>.safetensors)
    resume: bool = False                 # continue the run in hydra.run.dir from its checkpoint
    init_from: Optional[str] = None      # start from the weights of a saved policy (.safetensors), new optimizer
    progress: bool = True                # the live progress line
    progress_every: float = 5.0          # seconds between progress lines
    tensorboard: bool = True
    plots: bool = True


@dataclass
class EvalConfig:
    enabled: bool = True
    opponents: List[str] = field(default_factory=lambda: ["idle", "random", "base"])
    matches: int = 2                     # per opponent, all played at once
    deterministic: bool = True           # greedy policy
    max_ticks: Optional[int] = None      # None: as trained (env.max_ticks); set: shorter evaluation matches
    seed: int = 100_000


@dataclass
class LeaderboardConfig:
    """``task: leaderboard`` (conf/experiment/leaderboard.yaml; docs/leaderboard.md)."""

    # registered opponent names, or {name, opponent, options} / {name, checkpoint} entries
    entrants: List[Any] = field(default_factory=lambda: ["idle", "random", "base", "rusher", "baseline", "puller"])
    against: List[str] = field(default_factory=list)   # empty: each against each; else each against these
    games_per_pairing: int = 2           # seeds per pairing, each played from both sides
    seed: int = 1000                     # first seed of the schedule
    lanes: int = 8                       # games played at once
    threads: int = 0                     # simulator threads, 0 = one per core
    action_ticks: int = 4                # ticks a decision of entrants that record none (a policy plays at its own)
    max_ticks: int = MAX_BATTLE_TICKS
    device: str = "cpu"                  # where checkpoint entrants run
    replays: List[str] = field(default_factory=list)   # game keys "seed:red:blue" kept as replay files
    shards: int = 1                      # split the games among this many jobs (a Hydra sweep; docs/scaling.md)
    shard: int = 0                       # the share this job plays, 0..shards-1; merged by leaderboard-merge


@dataclass
class Config:
    task: str = "train"                  # train | leaderboard
    name: str = "train"                  # the run name (its output folder: runs/<name>/<time>)
    env: EnvConfig = field(default_factory=EnvConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    opponent: OpponentConfig = field(default_factory=OpponentConfig)
    reward: RewardConfig = field(default_factory=RewardConfig)
    trainer: TrainerConfig = field(default_factory=TrainerConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    leaderboard: LeaderboardConfig = field(default_factory=LeaderboardConfig)


# dicts whose keys are the plugins' (or the simulator's) to check, not the schema's:
# a new key needs no "+" on the command line
FREE_DICTS = ("env.match", "policy.options", "reward.options", "opponent.options")
# config groups whose options are registered names: group -> plugin kind
NAMED_GROUPS = {"policy": "policies", "reward": "reward_modes"}


def register(conf_dir=None) -> None:
    """Store the schema in Hydra's ConfigStore as ``base_config`` (with its
    ``FREE_DICTS`` open to new keys) and, for every registered policy and reward
    mode that ``conf_dir`` has no file for, a group option of that name, so that
    ``policy=<name>`` / ``reward=<name>`` choose it with its own default options."""
    import re
    from pathlib import Path

    from hydra.core.config_store import ConfigStore
    from omegaconf import OmegaConf

    from . import plugins
    from .errors import PluginError

    cs = ConfigStore.instance()
    node = OmegaConf.structured(Config)
    for key in FREE_DICTS:
        OmegaConf.set_struct(OmegaConf.select(node, key), False)
    cs.store(name="base_config", node=node)
    for group, kind in NAMED_GROUPS.items():
        try:
            names = plugins.names(kind)
        except PluginError:   # e.g. a name registered twice: check_names says so after composition
            continue
        for name in names:
            if re.fullmatch(r"[\w.-]+", name) and not (conf_dir and (Path(conf_dir) / group / f"{name}.yaml").exists()):
                cs.store(group=group, name=name, node={"name": name, "options": {}})


def check_values(cfg) -> None:
    """Ranges and choices the types cannot say; ValueError with the key's path."""
    def need(ok: bool, key: str, what: str) -> None:
        if not ok:
            raise ValueError(f"{key}: {what}")

    e, o, t, v = cfg.env, cfg.opponent, cfg.trainer, cfg.eval
    need(cfg.task in ("train", "leaderboard"), "task", f"must be train or leaderboard, got {cfg.task!r}")
    lb = cfg.leaderboard
    need(lb.games_per_pairing >= 1 and lb.lanes >= 1 and lb.threads >= 0, "leaderboard",
         "games_per_pairing and lanes must be >= 1, threads >= 0")
    need(lb.shards >= 1, "leaderboard.shards", f"must be >= 1, got {lb.shards}")
    need(0 <= lb.shard < lb.shards, "leaderboard.shard",
         f"must be in 0..{lb.shards - 1} (leaderboard.shards={lb.shards}), got {lb.shard}")
    need(e.lanes >= 1, "env.lanes", f"must be >= 1, got {e.lanes}")
    need(e.threads >= 0, "env.threads", f"must be >= 0 (0 = one per core), got {e.threads}")
    need(e.action_ticks >= 1, "env.action_ticks", f"must be >= 1, got {e.action_ticks}")
    need(e.max_ticks >= 1, "env.max_ticks", f"must be >= 1, got {e.max_ticks}")
    need(0.0 <= o.self_play_share <= 1.0, "opponent.self_play_share", f"must be in [0, 1], got {o.self_play_share}")
    need(o.snapshot_every >= 1, "opponent.snapshot_every", f"must be >= 1, got {o.snapshot_every}")
    need(o.max_snapshots >= 1, "opponent.max_snapshots", f"must be >= 1, got {o.max_snapshots}")
    need(o.window >= 1, "opponent.window", f"must be >= 1, got {o.window}")
    lanes_vs = e.lanes - self_play_lanes(cfg)
    need(lanes_vs == 0 or len(o.pool) > 0 or o.snapshots, "opponent.pool",
         "lanes without self-play need opponents: a pool of registered names or opponent.snapshots=true")
    need(t.total_steps >= 1, "trainer.total_steps", f"must be >= 1, got {t.total_steps}")
    need(t.num_steps >= 1, "trainer.num_steps", f"must be >= 1, got {t.num_steps}")
    need(t.num_minibatches >= 1, "trainer.num_minibatches", f"must be >= 1, got {t.num_minibatches}")
    need(t.update_epochs >= 1, "trainer.update_epochs", f"must be >= 1, got {t.update_epochs}")
    need(t.learning_rate > 0, "trainer.learning_rate", f"must be > 0, got {t.learning_rate}")
    need(0 < t.gamma <= 1 and 0 <= t.gae_lambda <= 1, "trainer.gamma/gae_lambda", "must be in (0, 1] and [0, 1]")
    need(t.checkpoint_every >= 1, "trainer.checkpoint_every", f"must be >= 1, got {t.checkpoint_every}")
    need(t.torch_threads >= 0 and t.learn_threads >= 0, "trainer.torch_threads/learn_threads", "must be >= 0")
    need(str(t.device) == "cpu" or str(t.device).startswith("cuda"), "trainer.device",
         f"must be cpu, cuda or cuda:N, got {t.device!r}")
    need(t.backend in ("auto", "gloo", "nccl"), "trainer.backend", f"must be auto, gloo or nccl, got {t.backend!r}")
    need(t.backend != "nccl" or str(t.device).startswith("cuda"), "trainer.backend",
         f"nccl needs trainer.device=cuda (NCCL moves GPU tensors only), got trainer.device={t.device}; "
         "on CPU use trainer.backend=gloo or auto")
    if str(t.device).startswith("cuda"):
        import torch
        need(torch.cuda.is_available(), "trainer.device",
             f"{t.device} but torch {torch.__version__} sees no CUDA device; use trainer.device=cpu")
    need(v.matches >= 1, "eval.matches", f"must be >= 1, got {v.matches}")
    need(0 <= t.seed < 2 ** 31 and 0 <= v.seed < 2 ** 31, "trainer.seed/eval.seed", "must be in 0..2**31-1")


def self_play_lanes(cfg) -> int:
    return int(round(cfg.opponent.self_play_share * cfg.env.lanes))


def check_names(cfg) -> None:
    """Every plugin name in the config is registered and accepts its options:
    PluginError listing the known names, or naming the rejected options."""
    from omegaconf import OmegaConf

    from . import plugins

    def plain(node):
        return OmegaConf.to_container(node, resolve=True) if OmegaConf.is_config(node) else dict(node or {})

    if cfg.task == "leaderboard":
        return   # entrants are built by the run itself: a bad one is left out and reported, the rest play
    plugins.policy(cfg.policy.name, **plain(cfg.policy.options))
    plugins.reward_mode(cfg.reward.name, **plain(cfg.reward.options))
    options = plain(cfg.opponent.options)
    if self_play_lanes(cfg) < cfg.env.lanes:
        for name in cfg.opponent.pool:
            plugins.opponent(name, **dict(options.get(name, {})))
    if cfg.eval.enabled:
        for name in cfg.eval.opponents:
            plugins.opponent(name)


__all__ = ["Config", "LeaderboardConfig", "EnvConfig", "PolicyConfig", "OpponentConfig", "RewardConfig", "TrainerConfig", "EvalConfig",
           "Rule", "register", "check_values", "check_names", "self_play_lanes", "RULES", "FREE_DICTS", "NAMED_GROUPS"]
