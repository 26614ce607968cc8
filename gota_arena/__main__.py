"""Command line of gota-arena (also the ``gota-arena`` script).

    python -m gota_arena +experiment=selfplay [key=value ...]   train (Hydra; docs/training.md)
    python -m gota_arena demo [--seed N] [--ticks N]            one seeded full match of scripted heroes
    python -m gota_arena plugins                                the loaded plugins and what they register
    python -m gota_arena replay FILE [--png TICK] [--gif A:B]   the viewer page / pictures of a replay (docs/viewer.md)
    python -m gota_arena leaderboard-merge DIR [--out DIR]      one report of a leaderboard split into shards

Anything that is not a subcommand goes to the Hydra training app: overrides
(``trainer.total_steps=2_000_000``), ``+experiment=...``, ``--cfg job``, ``--multirun``.
"""
import argparse
import sys
import textwrap
import time
from collections import Counter

from . import __version__, script
from .constants import MAX_BATTLE_TICKS, SEATS, SEATS_PER_TEAM, TICKS_PER_SECOND, Kind, Team, game_clock
from .errors import GotaError
from .heroes import class_name
from .sim import Match, outcome

_DRAIN_TICKS = 240  # read the event log this often (it keeps the newest 4,096)


def demo(seed: int, ticks: int) -> int:
    """One full match, ten heroes under the fixed script (gota_arena.script)."""
    spawned, died, fallen = Counter(), Counter(), Counter()
    with Match(seed=seed, max_ticks=ticks) as match:
        wall_seconds = 0.0
        while not match.over:
            script.give_orders(match)
            start = time.perf_counter()
            match.step(script.EVERY)
            wall_seconds += time.perf_counter() - start
            for e in match.new_events():
                if e.kind == Kind.CREEP and e.type == "spawn":
                    spawned[e.team] += 1
                elif e.kind == Kind.CREEP and e.type == "death":
                    died[e.team] += 1
                elif e.type == "structure":
                    fallen[e.team] += 1
        info = match.info
        print(f"gota-arena {__version__} demo: seed {seed}, {info.tick} ticks "
              f"({game_clock(info.tick)} game time), ten heroes under a fixed script")
        print(f"  game time    {info.tick:,} ticks = {game_clock(info.tick)} ({info.tick / TICKS_PER_SECOND:,.1f} s "
              f"of game time, {TICKS_PER_SECOND} ticks a game second)")
        print(f"  wall time    {wall_seconds:.2f} s of real time stepping the simulator: "
              f"{info.tick / max(wall_seconds, 1e-9):,.0f} ticks/s")
        print(f"  result       {outcome(info.result, info.winner, info.tick)}; "
              f"god hp red {info.god_hp[0]}, blue {info.god_hp[1]}")
        red, blue = Team.RED, Team.BLUE
        print(f"  structures   destroyed: red lost {fallen[red]}, blue lost {fallen[blue]}")
        print(f"  creeps       spawned red {spawned[red]}, blue {spawned[blue]}; "
              f"died red {died[red]}, blue {died[blue]}")
        print(f"  score        " + ", ".join(f"{name} {score} (Glory {glory})" for name, (score, glory) in
                                              (("red", match.team_score(red)), ("blue", match.team_score(blue)))))
        print(f"  heroes       {'seat':>4}  {'team':<4}  {'hero':<16} {'level':>5}  {'kills':>5} {'deaths':>6} "
              f"{'assists':>7}")
        for seat in range(SEATS):
            s = match.seat_stats(seat)
            team = Team(seat // SEATS_PER_TEAM).name.lower()
            print(f"               {seat:>4}  {team:<4}  {class_name(s.hero_class):<16} "
                  f"{s.level:>5}  {s.kills:>5} {s.deaths:>6} {s.assists:>7}")
        print(f"  final hash   0x{match.hash():016x}")
    return 0


def plugins_command() -> int:
    """Print every loaded plugin: name, version, source, hooks and registrations."""
    from . import plugins

    rows = plugins.describe()
    print(f"gota-arena {__version__}: {len(rows)} plugins loaded")
    for row in rows:
        print(f"\n{row['name']}  (version {row['version']}, {row['source']})")
        print(f"  hooks      {', '.join(row['hooks']) or '-'}")
        for kind, names in row["registers"].items():
            if names:
                found = plugins.registrations(kind)
                print(f"  {kind.replace('_', ' ')}:")
                for name in names:   # the first sentence, plain text (a description may be a docstring)
                    print(textwrap.fill(plugins.summary(found[name].description) or "-", width=100,
                                        initial_indent=f"    {name:<14} ", subsequent_indent=" " * 19))
    return 0


SUBCOMMANDS = ("demo", "plugins", "replay", "leaderboard-merge", "-h", "--help", "--version")
EPILOG = """training (any other arguments go to the Hydra app; docs/training.md):
  python -m gota_arena +experiment=selfplay              self-play, 3 of 4 lanes against idle (the main command)
  python -m gota_arena +experiment=vs_bundled            against a pool of bundled bots
  python -m gota_arena +experiment=league                bots and snapshots of itself, PFSP
  python -m gota_arena +experiment=beat_bots             the recipe behind the bundled ppo: the six bots, from a selfplay policy
  python -m gota_arena +experiment=beat_bots_pfsp        its later stages: the bots it loses to most, from the bundled ppo
  python -m gota_arena +experiment=beat_bots_sharpen     its last stage: beat_bots_pfsp, a longer horizon, less entropy
  python -m gota_arena +experiment=leaderboard           rank the bundled bots and ppo (docs/leaderboard.md)
  python -m gota_arena +experiment=selfplay trainer.total_steps=20_000_000 trainer.device=cuda
  python -m gota_arena +experiment=selfplay --cfg job    print the composed config
  torchrun --standalone --nproc_per_node=2 -m gota_arena +experiment=selfplay   on 2 ranks (docs/scaling.md)
  python -m gota_arena --hydra-help                      Hydra's own options"""


def _looks_like_a_command(word: str) -> bool:
    """A bare word: neither a subcommand nor anything Hydra takes (key=value, +key, ~key, --flag)."""
    return word not in SUBCOMMANDS and not word.startswith(("-", "+", "~")) and "=" not in word


def _plugin_warnings_as_lines() -> None:
    """A broken installed plugin is left out with a PluginWarning: on the command line,
    one line that says so (not Python's warning format with a source line)."""
    import warnings

    from .errors import PluginWarning

    show = warnings.showwarning

    def showwarning(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, PluginWarning):
            (file or sys.stderr).write(f"gota-arena: warning: {message}\n")
        else:
            show(message, category, filename, lineno, file, line)

    warnings.showwarning = showwarning


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    _plugin_warnings_as_lines()
    if argv and _looks_like_a_command(argv[0]):
        import difflib
        commands = [c for c in SUBCOMMANDS if not c.startswith("-")]
        close = difflib.get_close_matches(argv[0], commands, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        sys.stderr.write(f"gota-arena: unknown command '{argv[0]}'; {hint}the commands are {', '.join(commands)}; "
                         "anything else is a training override (key=value, +experiment=NAME); see --help\n")
        return 2
    if not argv or argv[0] not in SUBCOMMANDS:
        from .train.cli import run
        return run(argv)
    if argv[0] == "replay":     # its own parser (gota_arena/viewer/cli.py)
        from .viewer.cli import replay_command
        return replay_command(argv[1:])
    parser = argparse.ArgumentParser(prog="gota-arena", description=__doc__.splitlines()[0], epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"gota-arena {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    demo_cmd = commands.add_parser("demo", help="play one seeded full match of ten scripted heroes and print a summary")
    demo_cmd.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    demo_cmd.add_argument("--ticks", type=int, default=MAX_BATTLE_TICKS,
                          help=f"battle ticks before a timeout (default {MAX_BATTLE_TICKS})")
    commands.add_parser("plugins", help="list the loaded plugins: name, version, source, hooks, what they register")
    merge_cmd = commands.add_parser("leaderboard-merge", help="the report of a leaderboard split among jobs "
                                    "(leaderboard.shards): every shard's games under DIR, ranked together")
    merge_cmd.add_argument("dir", help="the sweep folder that holds the shards' folders")
    merge_cmd.add_argument("--out", help="where the report goes (default: DIR)")
    commands.add_parser("replay", add_help=False,
                        help="write the HTML viewer (and pictures) of a replay file, or record a bot match; "
                             "'replay --help' for its options")
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            return demo(args.seed, args.ticks)
        if args.command == "plugins":
            return plugins_command()
        if args.command == "leaderboard-merge":
            from .evaluate.leaderboard import merge
            merge(args.dir, args.out)
            return 0
    except GotaError as error:
        parser.exit(2, f"gota-arena {args.command}: {error}\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
