"""The HTML viewer (gota_arena/viewer): one self-contained page per replay, loaded
from disk by a real headless Chromium (Debian's ``chromium`` package, started by
the test over the DevTools pipe: tests/chromium.py), played, seeked, fogged and
photographed, with no console errors.

``GOTA_WRITE_DOCS=1 python -m pytest tests/test_viewer.py`` also redraws
docs/viewer.png from a full bot match."""
import io
import os
import re
import time
from pathlib import Path

import numpy as np
import pytest

from gota_arena import frames as F
from gota_arena.replay import RecordingMatch
from gota_arena.viewer import build
from tests.chromium import Chromium, ChromiumMissing, find_chromium

ROOT = Path(__file__).resolve().parent.parent
TICKS = 2400
WIDTH, HEIGHT = 1280, 900


def record_bot_match(path, seed=1, max_ticks=TICKS):
    with RecordingMatch(seed=seed, max_ticks=max_ticks, bots={"red": "puller", "blue": "baseline"}) as m:
        m.run()
        m.replay().save(path)
    return path


@pytest.fixture(scope="module")
def page_path(tmp_path_factory):
    d = tmp_path_factory.mktemp("viewer")
    replay = record_bot_match(d / "bots.gotareplay")
    return build.replay_to_html(replay)


@pytest.fixture(scope="module")
def browser():
    if find_chromium() is None:
        pytest.skip("no Chromium on this machine: install Debian's chromium package (apt-get install chromium) "
                    "or set GOTA_CHROMIUM to a Chromium binary")
    try:
        b = Chromium()
    except ChromiumMissing as e:
        pytest.skip(str(e))
    yield b
    b.close()


def test_page_is_self_contained(page_path):
    text = page_path.read_text()
    assert page_path.name == "bots.html"
    assert "{{" not in text and "/*{{" not in text            # every placeholder filled
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)   # nothing loaded from anywhere
    assert "fetch(" not in text and "XMLHttpRequest" not in text and "import(" not in text
    assert text.count("<script") == 3 and text.count("</script>") == 3    # the data cannot close its element
    assert 'id="gota-frames"' in text and 'id="gota-map"' in text
    assert page_path.stat().st_size < 400_000


def test_viewer_loads_plays_and_shows_the_map(page_path, browser):
    page = browser.open(page_path.as_uri(), WIDTH, HEIGHT)
    state = page.evaluate("window.gotaViewer.ready.then(v => v.state)", await_promise=True, timeout=30)
    assert state["tick"] == 0 and state["units"] >= 36 + 10          # structures and heroes drawn at tick 0
    meta = page.evaluate("gotaViewer.meta.frames")
    assert meta == TICKS // 6 + 1
    # play at 64x: the clock moves, units are drawn
    page.evaluate("gotaViewer.setSpeed(64); gotaViewer.play()")
    deadline = time.monotonic() + 10
    state = page.evaluate("gotaViewer.state")
    while state["tick"] <= 200 and time.monotonic() < deadline:   # 64x plays the 2,400 ticks in seconds
        time.sleep(0.05)
        state = page.evaluate("gotaViewer.state")
    assert state["tick"] > 200 and (state["playing"] or state["tick"] == TICKS), state   # at the end it stops
    assert state["units"] > 50
    page.evaluate("gotaViewer.pause()")
    # the timeline: its markers seek
    markers = page.evaluate("document.querySelectorAll('#timeline .ev').length")
    assert markers >= 1
    page.evaluate("document.querySelector('#timeline .ev').click()")
    first = page.evaluate("gotaViewer.meta.timeline[0].tick")
    assert page.evaluate("gotaViewer.state.tick") == max(first - 48, 0)
    # fog per team, then off again
    page.evaluate("gotaViewer.seek(1800); gotaViewer.setFog('red')")
    red_view = page.evaluate("gotaViewer.state.units")
    page.evaluate("gotaViewer.setFog('none')")
    everything = page.evaluate("gotaViewer.state.units")
    assert red_view < everything
    assert page.evaluate("document.getElementById('heroes').rows.length") == 10
    assert page.evaluate("document.getElementById('clock').textContent").startswith("1:15 / 1:40")
    # the picture: the map, the units and the timeline are there
    page.evaluate("gotaViewer.seek(2280)")
    png = page.screenshot()
    check_screenshot(png, page)
    assert browser.errors == [], browser.errors
    assert page.evaluate("document.getElementById('error').style.display") != "block"


def test_pages_without_heroes_and_of_a_segment(tmp_path, browser):
    """A creep-only match (no hero panels) and a segment of a bot match both open cleanly."""
    with RecordingMatch(seed=2, max_ticks=960, heroes=0) as m:
        m.run()
        creeps = m.replay().save(tmp_path / "creeps.gotareplay")
    segment = record_bot_match(tmp_path / "bots.gotareplay", seed=2, max_ticks=1200)
    pages = [build.replay_to_html(creeps, every=12),
             build.write(F.record(segment, every=6, start=600, end=900), tmp_path / "segment.html", fog="red")]
    for html in pages:
        page = browser.open(html.as_uri(), WIDTH, HEIGHT)
        state = page.evaluate("window.gotaViewer.ready.then(v => v.state)", await_promise=True, timeout=30)
        page.evaluate("gotaViewer.setSpeed(64); gotaViewer.play()")
        time.sleep(0.5)
        moved = page.evaluate("gotaViewer.state.tick")
        assert moved > state["tick"], html
        assert browser.errors == [], (html, browser.errors)
    assert state["tick"] == 600 and state["fog"] == "red"
    assert page.evaluate("document.getElementById('clock').textContent").endswith("/ 0:37")


def rect(page, selector):
    r = page.evaluate(f"(() => {{ const r = document.querySelector('{selector}').getBoundingClientRect(); "
                      "return [r.left, r.top, r.right, r.bottom]; })()")
    return [int(round(v)) for v in r]


def check_screenshot(png: bytes, page):
    Image = pytest.importorskip("PIL.Image")
    img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    assert img.shape == (HEIGHT, WIDTH, 3)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 200              # not blank
    x0, y0, x1, y1 = rect(page, "#map")
    assert x1 - x0 > 400 and y1 - y0 > 400
    m = img[y0:y1, x0:x1]

    def share(rgb, tol=24):
        return (np.abs(m - np.array(rgb)).max(axis=2) <= tol).mean()

    assert share((30, 78, 38)) > 0.2          # forest (trees) is most of the map
    assert share((196, 170, 118)) > 0.05      # lane roads
    assert share((49, 92, 167)) > 0.01        # the river (level -1: shaded)
    r, g, b = m[..., 0], m[..., 1], m[..., 2]
    assert ((r > 150) & (g < 120) & (b < 120)).mean() > 0.001                 # red structures and units
    assert ((b > 180) & (r < 110) & (b - g > 60)).mean() > 0.001              # blue ones (not the river)
    tx0, ty0, tx1, ty1 = rect(page, "#timeline")
    strip = img[ty0 + 2:ty1 - 2, tx0 + 2:tx1 - 2]
    assert ty1 - ty0 >= 20 and len(np.unique(strip.reshape(-1, 3), axis=0)) > 8   # markers drawn on it


@pytest.mark.skipif(not os.environ.get("GOTA_WRITE_DOCS"), reason="set GOTA_WRITE_DOCS=1 to redraw docs/viewer.png")
def test_write_docs_screenshot(tmp_path, browser):
    replay = record_bot_match(tmp_path / "seed1.gotareplay", seed=1, max_ticks=28_800)
    html = build.replay_to_html(replay)
    page = browser.open(html.as_uri(), WIDTH, HEIGHT)
    page.evaluate("window.gotaViewer.ready", await_promise=True, timeout=60)
    page.evaluate("gotaViewer.seek(13296)")
    png = page.screenshot()
    check_screenshot(png, page)
    assert browser.errors == [], browser.errors
    (ROOT / "docs" / "viewer.png").write_bytes(png)
