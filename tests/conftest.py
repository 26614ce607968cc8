"""Shared fixtures: the repository paths and one native build directory for make."""
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "native"


def have_toolchain() -> bool:
    return shutil.which("make") is not None and shutil.which("cc") is not None


@pytest.fixture(scope="session")
def native_dir() -> Path:
    return NATIVE


@pytest.fixture
def match():
    from gota_arena import Match

    m = Match(seed=1)
    yield m
    m.close()


def pytest_report_header(config):
    """Say which bundled plugins the installed metadata registers: an install older
    than their entry points loads none of them (and many tests then fail)."""
    from importlib import metadata

    names = sorted(ep.name for ep in metadata.entry_points(group="gota_arena")
                   if ep.dist is not None and ep.dist.name.lower().replace("_", "-") == "gota-arena")
    if not names:
        return ("WARNING: gota-arena's installed metadata has no 'gota_arena' entry points, so its bundled plugins "
                "do not load; reinstall it: pip install -e '.[test]'")
    return f"gota-arena bundled plugins (entry points): {', '.join(names)}"
