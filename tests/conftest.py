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
