"""Command line: ``python -m gota_arena demo [--seed N] [--ticks N]``.

Subcommands: ``demo``, play one seeded full match and print a summary; ``replay``,
the viewer page and pictures of a replay file (gota_arena/viewer/cli.py).
"""
import argparse
import sys
import time
from collections import Counter

from . import __version__, script
from .constants import MAX_BATTLE_TICKS, TICKS_PER_SECOND, Kind, Team
from .errors import GotaError
from .heroes import class_name
from .sim import Match

_DRAIN_TICKS = 240  # read the event log this often (it keeps the newest 4,096)


def demo(seed: int, ticks: int) -> int:
    """One full match, ten heroes under the fixed script (gota_arena.script)."""
    spawned, died, fallen = Counter(), Counter(), Counter()
    with Match(seed=seed, max_ticks=ticks) as match:
        sim_seconds = 0.0
        while not match.over:
            script.give_orders(match)
            start = time.perf_counter()
            match.step(script.EVERY)
            sim_seconds += time.perf_counter() - start
            for e in match.new_events():
                if e.kind == Kind.CREEP and e.type == "spawn":
                    spawned[e.team] += 1
                elif e.kind == Kind.CREEP and e.type == "death":
                    died[e.team] += 1
                elif e.type == "structure":
                    fallen[e.team] += 1
        info = match.info
        print(f"gota-arena {__version__} demo: seed {seed}, {info.tick} ticks "
              f"({info.tick / TICKS_PER_SECOND / 60:.1f} game minutes), ten heroes under a fixed script")
        print(f"  speed        {info.tick / max(sim_seconds, 1e-9):,.0f} ticks/s "
              f"({sim_seconds:.2f} s simulated time)")
        winner = f", {info.winner} wins" if info.winner else ""
        print(f"  result       {info.result}{winner}; god hp red {info.god_hp[0]}, blue {info.god_hp[1]}")
        red, blue = Team.RED, Team.BLUE
        print(f"  structures   destroyed: red lost {fallen[red]}, blue lost {fallen[blue]}")
        print(f"  creeps       spawned red {spawned[red]}, blue {spawned[blue]}; "
              f"died red {died[red]}, blue {died[blue]}")
        for name, team, seats in (("red", red, range(0, 5)), ("blue", blue, range(5, 10))):
            score, glory = match.team_score(team)
            heroes = ", ".join(
                f"{class_name(s.hero_class)} L{s.level} {s.kills}/{s.deaths}/{s.assists}"
                for s in (match.seat_stats(seat) for seat in seats))
            print(f"  {name:<5}        score {score}, glory {glory}: {heroes}")
        print(f"  final hash   0x{match.hash():016x}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="gota-arena", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"gota-arena {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    demo_cmd = commands.add_parser("demo", help="play one seeded full match of ten scripted heroes and print a summary")
    demo_cmd.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    demo_cmd.add_argument("--ticks", type=int, default=MAX_BATTLE_TICKS,
                          help=f"battle ticks before a timeout (default {MAX_BATTLE_TICKS})")
    commands.add_parser("replay", add_help=False,
                        help="write the HTML viewer (and pictures) of a replay file, or record a bot match; "
                             "'replay --help' for its options")
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["replay"]:     # its own parser (gota_arena/viewer/cli.py)
        from .viewer.cli import replay_command
        return replay_command(argv[1:])
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            return demo(args.seed, args.ticks)
    except GotaError as error:
        parser.exit(2, f"gota-arena {args.command}: {error}\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
