"""``python -m gota_arena replay``: the viewer page and pictures of a replay file,
or a bot match recorded to a replay file (docs/viewer.md).

    python -m gota_arena replay match.gotareplay                  # writes match.html, prints its path
    python -m gota_arena replay match.gotareplay --out view.html --fog red
    python -m gota_arena replay match.gotareplay --png 2400       # match-t2400.png
    python -m gota_arena replay match.gotareplay --gif 2400:4800  # match-2400-4800.gif
    python -m gota_arena replay --record --seed 3 --bots red=base,blue=puller --out m.gotareplay [--html]
    python -m gota_arena replay --record --bots red=base.bas,blue=my_bot.bas --out s.gotareplay   # BASIC scripts

Every output replays the file to its final hash first; a replay that does not
match (other version, damaged file, changed rules) is reported and nothing is
written (exit status 2).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Optional

from ..constants import MAX_BATTLE_TICKS

PROG = "gota-arena replay"
DEFAULT_BOTS = "red=puller,blue=baseline"


def parse_bots(spec: str) -> dict:
    """'red=base,blue=puller,7=random' -> {'red': 'base', 'blue': 'puller', 7: 'random'}
    (a name ending in .bas is a BASIC script: registered, or a file's path)."""
    out = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, sep, bot = part.partition("=")
        if not sep or not bot.strip():
            raise argparse.ArgumentTypeError(f"--bots {spec!r}: each entry is TEAM=BOT or SEAT=BOT "
                                             "(red=base,blue=puller,7=random)")
        key = key.strip().lower()
        bot = bot.strip()
        out[int(key) if key.isdigit() else key] = bot if bot.lower().endswith(".bas") else bot.lower()
    return out


def parse_segment(text: str) -> tuple:
    start, sep, end = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(start), int(end)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--gif {text!r}: give START:END in ticks, e.g. 2400:4800") from None


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="The viewer page (HTML) and pictures (PNG, GIF) of a replay "
                                "file, or a bot match recorded to a replay file.",
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="\n".join(__doc__.splitlines()[2:8]))
    p.add_argument("file", nargs="?", help="the replay file (with --record: where to write it, like --out)")
    p.add_argument("--out", help="the HTML page to write (default: FILE with .html); with --record: the replay file")
    p.add_argument("--html", action="store_true", help="also write the HTML page (with --png/--gif or --record)")
    p.add_argument("--png", type=int, metavar="TICK", help="write a PNG minimap of this tick")
    p.add_argument("--gif", type=parse_segment, metavar="START:END", help="write an animated GIF of these ticks")
    p.add_argument("--fog", choices=("red", "blue", "none"), default="none",
                   help="whose fog of war: the page's initial view and the pictures (default none)")
    p.add_argument("--png-out", metavar="PATH", help="the PNG to write (default: FILE-tTICK.png)")
    p.add_argument("--gif-out", metavar="PATH", help="the GIF to write (default: FILE-START-END.gif)")
    p.add_argument("--every", type=int, default=6, help="page: a frame every N ticks (default 6)")
    p.add_argument("--gif-every", type=int, default=12, help="GIF: a picture every N ticks (default 12)")
    p.add_argument("--fps", type=int, default=15, help="GIF: pictures per second (default 15)")
    p.add_argument("--scale", type=int, default=None, help="pictures: pixels per tile (default 6 PNG, 4 GIF)")
    p.add_argument("--no-rules-check", action="store_true",
                   help="replay even if the rules fingerprint differs (the state hashes still decide)")
    rec = p.add_argument_group("recording a bot match")
    rec.add_argument("--record", action="store_true", help="play a bot match and write its replay file")
    rec.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    rec.add_argument("--bots", type=parse_bots, default=parse_bots(DEFAULT_BOTS),
                     help=f"who plays: TEAM=BOT or SEAT=BOT, comma separated (default {DEFAULT_BOTS}); "
                          "a BOT ending in .bas is a BASIC script (base.bas, rusher.bas, puller.bas or a file); "
                          "seats without a bot stand still")
    rec.add_argument("--ticks", type=int, default=MAX_BATTLE_TICKS,
                     help=f"battle ticks before a timeout (default {MAX_BATTLE_TICKS})")
    return p


def record_match(seed: int, bots: dict, ticks: int, out) -> Path:
    """Play a bot match to its end and save its replay; returns the path. Names
    ending in .bas are BASIC scripts (the replay file carries their sources)."""
    from ..replay import RecordingMatch

    scripts = {k: v for k, v in bots.items() if v.lower().endswith(".bas")}
    bots = {k: v for k, v in bots.items() if k not in scripts}
    with RecordingMatch(seed=seed, max_ticks=ticks, bots=bots, scripts=scripts) as m:
        m.run()
        return m.replay(source={"kind": "match", "command": "replay --record"}).save(out)


def replay_command(argv=None, stdout=None) -> int:
    """Run ``gota-arena replay`` with ``argv`` (without the word 'replay'); returns the exit status."""
    from .. import replay as R
    from ..errors import GotaError
    from ..sim import outcome
    from . import build, pictures

    out_stream = stdout or sys.stdout
    p = parser()
    args = p.parse_args(argv)
    fog = None if args.fog == "none" else args.fog
    check_rules = not args.no_rules_check
    try:
        if args.record:
            path = args.out or args.file
            if not path:
                p.error("--record needs --out FILE (the replay file to write)")
            if args.out and args.file and args.out != args.file:
                p.error("--record: give the replay file once (FILE or --out)")
            started = time.perf_counter()
            path = record_match(args.seed, args.bots, args.ticks, path)
            took = time.perf_counter() - started
            print(path, file=out_stream)
            replay, html_out = R.load(path), (build.default_html_path(path) if args.html else None)
            print(f"  recorded seed {args.seed} in {took:.1f} s (wall time); "
                  f"{outcome(replay.result, replay.winner, replay.final_tick)}", file=sys.stderr)
        else:
            if not args.file:
                p.error("give the replay file (or --record to make one)")
            replay = R.load(args.file)
            pictures_only = args.png is not None or args.gif is not None
            html_out = args.out or (build.default_html_path(args.file) if args.html or not pictures_only else None)
        stem = Path(replay.path)
        base = stem.with_suffix("") if stem.suffix else stem
        if html_out is not None:
            frames = _frames(replay, args.every, check_rules)
            written = build.write(frames, html_out, fog=fog)
            print(written, file=out_stream)
        if args.png is not None:
            png = args.png_out or f"{base}-t{args.png}.png"
            print(pictures.png_of_tick(replay, args.png, png, scale=args.scale or 6, fog=fog,
                                       check_rules=check_rules), file=out_stream)
        if args.gif is not None:
            start, end = args.gif
            gif = args.gif_out or f"{base}-{start}-{end}.gif"
            print(pictures.gif_of_segment(replay, start, end, gif, every=args.gif_every, fps=args.fps,
                                          scale=args.scale or 4, fog=fog, check_rules=check_rules), file=out_stream)
    except (GotaError, ValueError, OSError) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 2
    return 0


def _frames(replay, every: int, check_rules: bool):
    from .. import frames as F
    return F.record(replay, every=every, check_rules=check_rules)


def main(argv: Optional[list] = None) -> int:
    return replay_command(argv)


if __name__ == "__main__":
    sys.exit(main())
