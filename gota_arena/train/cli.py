"""The Hydra application behind ``python -m gota_arena [overrides]``.

    python -m gota_arena +experiment=selfplay                      # the main command
    python -m gota_arena +experiment=vs_bundled trainer.total_steps=20_000_000 trainer.device=cuda
    python -m gota_arena +experiment=selfplay hydra.run.dir=outputs/selfplay/<time> trainer.resume=true
    python -m gota_arena +experiment=league --cfg job                # print the composed config
    torchrun --standalone --nproc_per_node=2 -m gota_arena +experiment=selfplay   # data-parallel (docs/scaling.md)
    cfg = compose(["+experiment=selfplay", "trainer.total_steps=1000"]); train(cfg, run_dir)   # from Python

Configs live in ``conf/`` (groups env, policy, opponent, reward, trainer, eval,
experiment); their types in gota_arena/config.py. Before the run directory is
made, ``CheckConfig`` (a Hydra callback) checks value ranges and every plugin
name (policy, reward mode, opponents): a wrong one stops the run with the
message and nothing else happens. ``MergeShards`` (another callback) writes
the report of a leaderboard split among the jobs of a sweep once they are done.
"""
from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from hydra.experimental.callback import Callback

def _conf_dir() -> Path:
    """``conf/``: inside the installed package (a wheel or sdist install carries it
    as gota_arena/conf), else at the top of the repository (an editable install)."""
    package = Path(__file__).resolve().parents[1]
    packaged = package / "conf"
    return packaged if packaged.is_dir() else package.parent / "conf"


CONF_DIR = _conf_dir()
EXIT = {"code": 0}


class CheckConfig(Callback):
    """Hydra callback: stops the process (exit status 2) on a bad value or an
    unknown plugin name, before the run directory exists. (Hydra turns an
    exception in a callback into a warning, so this exits instead.)"""

    def _check(self, config) -> None:
        from ..config import check_names, check_values
        from ..errors import PluginError

        try:
            check_values(config)
            check_names(config)
        except (ValueError, TypeError, PluginError) as error:
            sys.stderr.write(f"Error in the config: {error}\n")
            sys.stderr.flush()
            raise SystemExit(2) from None

    def on_run_start(self, config, **kwargs) -> None:
        self._check(config)

    def on_multirun_start(self, config, **kwargs) -> None:
        self._check(config)


class MergeShards(Callback):
    """Hydra callback: at the end of a sweep of a leaderboard split into shards
    (``-m ... leaderboard.shards=N leaderboard.shard=0,..,N-1``), the report of all
    of them in the sweep folder, as ``python -m gota_arena leaderboard-merge <sweep folder>``."""

    def on_multirun_end(self, config, **kwargs) -> None:
        from ..errors import GotaError
        from ..evaluate.leaderboard import merge

        if config.get("task") != "leaderboard" or config.leaderboard.shards <= 1:
            return
        folder = config.hydra.sweep.dir
        try:
            merge(folder)
        except GotaError as error:   # e.g. this sweep ran only some of the shards
            sys.stderr.write(f"gota-arena: no merged leaderboard report yet: {error}\n")


def _task(cfg) -> None:
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    from ..errors import GotaError
    from .distributed import launch_command, world_size
    from .ppo import train

    hc = HydraConfig.get()
    run_dir = hc.runtime.output_dir
    if cfg.task == "leaderboard":
        if world_size() > 1:
            sys.stderr.write("gota-arena: error: a leaderboard runs in one process, not under torchrun; split it "
                             "among jobs with leaderboard.shards and a Hydra launcher (docs/scaling.md)\n")
            EXIT["code"] = 2
            return
        _leaderboard(cfg, run_dir, sweep=hc.mode == RunMode.MULTIRUN)
        return
    overrides = [o for o in hc.overrides.task if not o.startswith(("hydra.run.dir=", "trainer.resume="))]
    resume = shlex.join([*launch_command(), *overrides, f"hydra.run.dir={run_dir}", "trainer.resume=true"])
    try:
        summary = train(cfg, run_dir, resume_command=resume)
    except GotaError as error:
        sys.stderr.write(f"gota-arena: error: {error}\n")
        EXIT["code"] = 2
        return
    if summary["interrupted"]:
        EXIT["code"] = 130


def _leaderboard(cfg, run_dir: str, sweep: bool) -> None:
    from omegaconf import OmegaConf

    from ..errors import GotaError
    from ..evaluate import Leaderboard

    options = OmegaConf.to_container(cfg.leaderboard, resolve=True)
    try:
        Leaderboard(**options).run(run_dir)
    except (GotaError, ValueError) as error:
        if sweep:   # a job of a sweep: the launcher reports the failed job and the sweep fails
            raise GotaError(f"leaderboard job in {run_dir}: {error}") from None
        sys.stderr.write(f"gota-arena: error: {error}\n")
        EXIT["code"] = 2


def compose(overrides=()):
    """The config of ``python -m gota_arena <overrides>`` without running it (scripts,
    benchmarks, notebooks): an OmegaConf DictConfig, checked like the command line's."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from ..config import check_names, check_values, register

    register(CONF_DIR)
    with initialize_config_dir(version_base=None, config_dir=str(CONF_DIR)):
        cfg = hydra_compose("config", overrides=list(overrides))
    check_values(cfg)
    check_names(cfg)
    return cfg


def run(argv) -> int:
    """Run the Hydra app with ``argv`` as its command line; the exit status."""
    import hydra

    from ..config import register

    if not CONF_DIR.is_dir():
        sys.stderr.write(f"gota-arena: the training configs are missing ({CONF_DIR}); reinstall gota-arena "
                         "(pip install 'gota-arena[train]', or pip install -e '.[train]' in its repository)\n")
        return 2
    register(CONF_DIR)
    EXIT["code"] = 0
    if int(os.environ.get("WORLD_SIZE", "1") or 1) > 1:   # a rank started by torchrun
        from ..errors import GotaError
        from .distributed import hydra_overrides
        try:
            argv = [*argv, *hydra_overrides(argv)]
        except GotaError as error:
            sys.stderr.write(f"gota-arena: error: {error}\n")
            return 2
    app = hydra.main(version_base=None, config_path=str(CONF_DIR), config_name="config")(_task)
    saved = sys.argv
    sys.argv = [saved[0] if saved else "gota-arena", *argv]
    try:
        app()
    except KeyboardInterrupt:   # a second Ctrl-C, or one before training started
        sys.stderr.write("gota-arena: stopped (Ctrl-C)\n")
        return 130
    finally:
        sys.argv = saved
    return EXIT["code"]


__all__ = ["run", "compose", "CheckConfig", "MergeShards", "CONF_DIR"]
