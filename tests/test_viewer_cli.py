"""``python -m gota_arena replay`` (gota_arena/viewer/cli.py) and the pictures
(gota_arena/viewer/pictures.py): record a bot match, write its page, a PNG and a
GIF; damaged or diverging replays are refused with a clear message and nothing
is written."""
import io
import subprocess
import sys
from pathlib import Path

import pytest

from gota_arena import replay as R
from gota_arena.__main__ import main
from gota_arena.viewer import cli, pictures

ROOT = Path(__file__).resolve().parent.parent
Image = pytest.importorskip("PIL.Image")


def run(argv):
    out = io.StringIO()
    code = cli.replay_command(argv, stdout=out)
    return code, out.getvalue().split()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    code, printed = run(["--record", "--seed", "3", "--bots", "red=base,blue=puller", "--ticks", "1200",
                         "--out", str(d / "m.gotareplay"), "--html"])
    assert code == 0
    return d, printed


def test_record_writes_a_replay_and_its_page(recorded):
    d, printed = recorded
    assert printed == [str(d / "m.gotareplay"), str(d / "m.html")]
    r = R.load(d / "m.gotareplay")
    assert r.seed == 3 and r.final_tick == 1200 and r.bots == ("base",) * 5 + ("puller",) * 5
    assert R.verify(r) == r.final_hash
    text = (d / "m.html").read_text()
    assert "gota-frames" in text and "GotA replay: seed 3" in text


def test_record_says_who_won_and_when_or_that_it_timed_out(tmp_path, capsys):
    code, printed = run(["--record", "--seed", "3", "--bots", "red=base,blue=idle",
                         "--out", str(tmp_path / "w.gotareplay")])
    assert code == 0 and printed == [str(tmp_path / "w.gotareplay")]   # standard output: only the paths
    r = R.load(tmp_path / "w.gotareplay")
    assert (r.result, r.winner) == ("win", "red")
    said = capsys.readouterr().err
    seconds = r.final_tick // 24   # 24 ticks a game second
    assert f"red won at tick {r.final_tick} ({seconds // 60}:{seconds % 60:02d} game time)" in said, said
    code, _ = run(["--record", "--seed", "3", "--bots", "red=base,blue=idle", "--ticks", "240",
                   "--out", str(tmp_path / "t.gotareplay")])
    assert code == 0
    assert "timed out at tick 240 (0:10 game time): no god fell" in capsys.readouterr().err


def test_page_and_pictures_of_a_replay(recorded, tmp_path):
    d, _ = recorded
    html = tmp_path / "view.html"
    code, printed = run([str(d / "m.gotareplay"), "--out", str(html), "--fog", "blue", "--every", "12"])
    assert code == 0 and printed == [str(html)]
    assert '"initial_fog":"blue"' in html.read_text()
    code, printed = run([str(d / "m.gotareplay"), "--png", "600", "--gif", "480:720", "--gif-every", "24"])
    assert code == 0
    png, gif = Path(printed[0]), Path(printed[1])
    assert png == d / "m-t600.png" and gif == d / "m-480-720.gif"
    with Image.open(png) as img:
        assert img.format == "PNG" and img.size == (116 * 6, 116 * 6 + pictures.CAPTION)
        assert len(img.convert("RGB").getcolors(1 << 16) or []) > 30
    with Image.open(gif) as img:
        assert img.format == "GIF" and img.n_frames == 11 and img.size == (116 * 4, 116 * 4 + pictures.CAPTION)


def test_the_main_entry_dispatches(recorded, tmp_path):
    d, _ = recorded
    out = tmp_path / "main.html"
    assert main(["replay", str(d / "m.gotareplay"), "--out", str(out), "--every", "24"]) == 0
    assert out.exists()


def test_python_dash_m(recorded, tmp_path):
    d, _ = recorded
    out = tmp_path / "dashm.png"
    env = {"PYTHONPATH": f"{ROOT}:{ROOT / 'plugins'}", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "gota_arena", "replay", str(d / "m.gotareplay"), "--png", "0",
                           "--png-out", str(out)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(out) and out.exists()


def test_a_damaged_replay_is_refused(recorded, tmp_path, capsys):
    d, _ = recorded
    data = bytearray((d / "m.gotareplay").read_bytes())
    data[-3] ^= 0x40
    bad = tmp_path / "bad.gotareplay"
    bad.write_bytes(bytes(data))
    code, printed = run([str(bad)])
    assert code == 2 and printed == []
    assert "damaged or edited" in capsys.readouterr().err
    assert not (tmp_path / "bad.html").exists()


def test_a_diverging_replay_writes_nothing(recorded, tmp_path, capsys):
    d, _ = recorded
    r = R.load(d / "m.gotareplay")
    r.final_hash ^= 1                      # a file whose checksum was recomputed after an edit
    r.path = None
    bad = r.save(tmp_path / "edited.gotareplay")
    code, printed = run([str(bad), "--png", "100", "--html"])
    assert code == 2 and printed == []
    assert "diverged" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["edited.gotareplay"]


def test_bad_arguments(recorded, capsys):
    d, _ = recorded
    with pytest.raises(SystemExit) as e:
        run([str(d / "m.gotareplay"), "--gif", "100"])
    assert e.value.code == 2 and "START:END" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run(["--record"])
    code, _ = run([str(d / "m.gotareplay"), "--gif", "700:600"])
    assert code == 2 and "segment" in capsys.readouterr().err
    code, _ = run([str(d / "m.gotareplay"), "--png", "99999"])
    assert code == 2 and "outside" in capsys.readouterr().err
    code, _ = run(["--record", "--bots", "red=nobody", "--out", str(d / "x.gotareplay")])
    assert code == 2 and "unknown bot" in capsys.readouterr().err
