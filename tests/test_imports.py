"""Importing gota_arena is light: the package loads its names and submodules (and
the C extension) on first use, a plugin module that imports only
``gota_arena.hookspecs`` loads neither the simulator nor torch, and nothing
imports pytest but the test helpers. Each check runs in a fresh interpreter."""
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def python(code: str) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_importing_gota_arena_does_not_import_pytest():
    python("import gota_arena, sys; assert 'pytest' not in sys.modules")


@pytest.mark.parametrize("module", ["gota_arena", "gota_arena.hookspecs"])
def test_hookspecs_load_neither_the_simulator_nor_torch(module):
    python(f"import sys, {module}\n"
           "loaded = sorted(m for m in sys.modules if m == 'torch' or m.startswith('gota_arena.'))\n"
           "assert loaded in ([], ['gota_arena.hookspecs']), loaded\n"
           "assert 'gota_arena._native' not in sys.modules and 'torch' not in sys.modules")


def test_names_load_on_first_use():
    python("import sys, gota_arena\n"
           "from gota_arena import Match, hookimpl, PluginError, Kind, bot_names, BasicSyntaxError\n"
           "assert 'gota_arena._native' in sys.modules\n"
           "assert gota_arena.Match is Match and gota_arena.hookimpl is hookimpl\n"
           "assert gota_arena.map.lane_route(0) and gota_arena.plugins.ENTRY_POINT_GROUP == 'gota_arena'\n"
           "names = dir(gota_arena)\n"
           "assert {'Match', 'hookimpl', 'PluginError', 'plugins', 'hookspecs', '__version__'} <= set(names)\n"
           "assert set(gota_arena.__all__) <= set(names)\n"
           "try:\n"
           "    gota_arena.no_such_name\n"
           "except AttributeError as error:\n"
           "    assert 'no_such_name' in str(error)\n"
           "else:\n"
           "    raise AssertionError('no AttributeError')\n"
           "from gota_arena import *\n"
           "assert Team.RED == 0 and MAP_TILES == 116")



def test_the_test_helpers_import_light():
    """gota_arena.testing is a pytest plugin (loaded by every pytest run where
    gota-arena is installed): importing it loads neither the simulator nor torch."""
    python("import sys, gota_arena.testing\n"
           "assert 'gota_arena._native' not in sys.modules and 'torch' not in sys.modules")


def test_every_subpackage_ships_in_the_wheel():
    """pyproject.toml lists the packages a wheel carries: every folder of
    gota_arena/ with an __init__.py is one of them (an editable install would
    not notice a missing one)."""
    tomllib = pytest.importorskip("tomllib")
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "gota_arena").rglob("__init__.py")
             if "__pycache__" not in p.parts}
    assert "gota_arena.replay" in found and found <= listed, sorted(found - listed)
