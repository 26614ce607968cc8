"""Viewer benchmark: exporting the frames of a full replayed match and writing its
HTML page, and the page's size; PNG and GIF times; optionally the time a headless
Chromium takes to open the page (when tests/chromium.py finds one).

    python benchmarks/bench_viewer.py               # print only
    python benchmarks/bench_viewer.py --write       # and the ## bench_viewer section of RESULTS.md

Each match is a bot match recorded to a replay file first (not timed), then:
  replay   verify the replay to its final hash (the simulation alone, for scale)
  frames   gota_arena.frames.record(every=N): replay + a frame every N ticks (one pass, hash-checked)
  page     payload (delta + zlib) and the HTML written (gota_arena.viewer.build.write)
Figures are printed, never asserted. Single-threaded; run on an otherwise idle machine.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "plugins")]

from gota_arena import frames as F  # noqa: E402
from gota_arena import replay as R  # noqa: E402
from gota_arena.replay import RecordingMatch  # noqa: E402
from gota_arena.viewer import build, pictures  # noqa: E402
from results import RESULTS, add_write_option, write_section  # noqa: E402

LOAD = os.getloadavg()
SECTION = "## bench_viewer"
MATCHES = (("base", "base", 1), ("puller", "puller", 1))


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def timed(fn, *args, **kw):
    start = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - start


def browser_load_seconds(html: Path):
    try:
        sys.path.insert(0, str(ROOT))
        from tests.chromium import Chromium, find_chromium
    except ImportError:
        return None
    if find_chromium() is None:
        return None
    with Chromium() as b:
        start = time.perf_counter()
        page = b.open(html.as_uri(), 1280, 900)
        page.evaluate("window.gotaViewer.ready", await_promise=True, timeout=120)
        seconds = time.perf_counter() - start
        return seconds if not b.errors else None


def bench_match(red: str, blue: str, seed: int, every: int, directory: Path, browser: bool) -> dict:
    path = directory / f"{red}-{blue}-{seed}.gotareplay"
    with RecordingMatch(seed=seed, bots={"red": red, "blue": blue}) as m:
        m.run()
        m.replay().save(path)
    r = R.load(path)
    _, t_replay = timed(R.verify, r)
    fr, t_frames = timed(F.record, r, every=every)
    html = directory / f"{path.stem}.html"
    _, t_page = timed(build.write, fr, html)
    payload = fr.payload()["meta"]
    out = {"match": f"{red} vs {blue}, seed {seed}", "ticks": r.final_tick, "result": r.result,
           "winner": r.winner, "replay_bytes": path.stat().st_size, "t_replay": t_replay, "t_frames": t_frames,
           "t_page": t_page, "html_bytes": html.stat().st_size, "frames": fr.count, "tracks": len(fr.tracks),
           "samples": len(fr.samples), "raw": payload["raw_bytes"], "zlib": payload["compressed_bytes"]}
    fr12 = F.record(r, every=2 * every)
    html12 = directory / f"{path.stem}-every{2 * every}.html"
    build.write(fr12, html12)
    out["html12_bytes"] = html12.stat().st_size
    _, out["t_png"] = timed(pictures.png_of_tick, r, r.final_tick // 2, directory / "mid.png")
    gif_end = min(r.final_tick, 4800)
    gif, out["t_gif"] = timed(pictures.gif_of_segment, r, gif_end - 2400, gif_end, directory / "seg.gif")
    out["gif_bytes"] = gif.stat().st_size
    out["t_browser"] = browser_load_seconds(html) if browser else None
    return out


def report(results: list, every: int, command: str) -> list:
    lines = [
        f"- date: {date.today().isoformat()}",
        f"- command: `{command}`",
        f"- machine: {os.cpu_count()} CPUs (nproc), {cpu_model()}; Python {platform.python_version()}; "
        f"load average {LOAD[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end (a shared machine: "
        "times are upper bounds)",
        f"- matches: bot matches (ten bot seats) recorded to replay files, then replayed; frames every {every} ticks, "
        "fog every 24; times are wall-clock seconds on one core, one run each",
        "- replay: verifying the replay file to its final hash (the simulation alone); frames: "
        "`gota_arena.frames.record` (one hash-checked replay plus a frame every "
        f"{every} ticks); page: payload encoding + writing the HTML",
        "",
        "| match | ticks | replay file | replay s | frames s | page s | frames + page s | HTML | HTML (every "
        f"{2 * every}) | frames / tracks / samples | PNG s | GIF 2,400 ticks | browser opens |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for x in results:
        browser = f"{x['t_browser']:.1f} s" if x["t_browser"] is not None else "n/a"
        lines.append(
            f"| {x['match']} ({x['result']}) | {x['ticks']:,} | {x['replay_bytes']:,} B | {x['t_replay']:.2f} | "
            f"{x['t_frames']:.2f} | {x['t_page']:.2f} | **{x['t_frames'] + x['t_page']:.2f}** | "
            f"**{x['html_bytes'] / 1e6:.2f} MB** | {x['html12_bytes'] / 1e6:.2f} MB | "
            f"{x['frames']:,} / {x['tracks']:,} / {x['samples']:,} | {x['t_png']:.2f} | "
            f"{x['t_gif']:.1f} s, {x['gif_bytes'] / 1e3:,.0f} KB | {browser} |")
    x = results[0]
    lines += ["", f"The frames of {x['match']} are {x['raw'] / 1e6:.1f} MB as encoded columns and "
              f"{x['zlib'] / 1e6:.2f} MB after zlib; the page embeds them as base64 (4/3) with the map, "
              "the code and the styles. Frame export costs about "
              f"{(x['t_frames'] - x['t_replay']) / x['frames'] * 1e6:.0f} µs a frame on top of the simulation "
              "(one `gota_match_frame` call, the event log, numpy packing). PNG and GIF times include their own "
              "hash-checked replay of the file."]
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=6, help="a frame every N ticks (default 6, the page's default)")
    parser.add_argument("--no-browser", action="store_true", help="skip the headless Chromium load time")
    add_write_option(parser)
    parser.add_argument("--keep", metavar="DIR", help="keep the replays, pages and pictures in DIR")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(args.keep or tmp)
        directory.mkdir(parents=True, exist_ok=True)
        results = []
        for red, blue, seed in MATCHES:
            x = bench_match(red, blue, seed, args.every, directory, not args.no_browser)
            print({k: (round(v, 3) if isinstance(v, float) else v) for k, v in x.items()}, flush=True)
            results.append(x)
    command = "python benchmarks/bench_viewer.py" + "".join(" " + a for a in (sys.argv[1:] if argv is None else argv))
    lines = report(results, args.every, command)
    print("\n".join(lines))
    if args.write:
        write_section(SECTION, lines)
        print(f"wrote {SECTION} in {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
