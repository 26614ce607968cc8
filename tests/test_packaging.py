"""A wheel carries everything a non-editable install needs: the compiled
extension, the Hydra configs (conf/ ships as gota_arena/conf), the bundled
BASIC scripts and the viewer's files; installed on its own, it finds its configs."""
import importlib.util
import os
import subprocess
import sys
import zipfile

import pytest

from tests.conftest import ROOT, have_toolchain


def can_build_wheel() -> bool:
    """The venv's own setuptools can build the wheel without downloads (it
    carries bdist_wheel from version 70.1 on; older ones need the wheel package)."""
    if importlib.util.find_spec("setuptools") is None or importlib.util.find_spec("cffi") is None:
        return False
    import setuptools

    major, minor = (int(part) for part in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not have_toolchain(), reason="building a wheel compiles native/ (make or cc missing)"),
              pytest.mark.skipif(not can_build_wheel(), reason="this venv's setuptools cannot build a wheel offline")]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            "-w", str(out), str(ROOT)], capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stdout + build.stderr
    (path,) = out.glob("gota_arena-*.whl")
    return path


def test_wheel_holds_configs_scripts_viewer_and_extension(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    conf = {p.relative_to(ROOT).as_posix() for p in (ROOT / "conf").rglob("*.yaml")}
    assert conf and {"gota_arena/" + name for name in conf} <= names
    bas = {p.name for p in (ROOT / "plugins" / "gota_bundled" / "bas").glob("*.bas")}
    assert bas and {f"gota_bundled/bas/{name}" for name in bas} <= names
    assert {"gota_bundled/trained/ppo.safetensors", "gota_bundled/trained/ppo.yaml"} <= names   # the trained ppo
    assert {"gota_arena/viewer/viewer.html", "gota_arena/viewer/viewer.js", "gota_arena/viewer/viewer.css"} <= names
    assert any(name.startswith("gota_arena/_native") and name.endswith(".so") for name in names)
    # the bundled plugins load through entry points, and gota_arena.testing is a pytest plugin
    (entry_points,) = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[gota_arena]\ngota_bundled.bots = gota_bundled.bots\n" in text and "gota_bundled.ppo = gota_bundled.ppo" in text
    assert "[pytest11]\ngota_arena = gota_arena.testing" in text


def test_installed_wheel_finds_its_configs(wheel, tmp_path):
    site = tmp_path / "site"
    install = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site),
                              str(wheel)], capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stdout + install.stderr
    # run outside the repository, with only the installed copy of gota_arena on the path
    env = {**os.environ, "PYTHONPATH": str(site)}
    show = subprocess.run([sys.executable, "-m", "gota_arena", "+experiment=selfplay", "--cfg", "job"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert show.returncode == 0, show.stdout + show.stderr
    assert "name: selfplay" in show.stdout and "lanes: 16" in show.stdout
    listed = subprocess.run([sys.executable, "-m", "gota_arena", "plugins"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert listed.returncode == 0 and "gota_bundled.scripts" in listed.stdout and "base.bas" in listed.stdout, \
        listed.stdout + listed.stderr
    where = subprocess.run([sys.executable, "-c", "from gota_arena.train.cli import CONF_DIR; print(CONF_DIR)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert where.stdout.strip() == str(site / "gota_arena" / "conf")
