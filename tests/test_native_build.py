"""The cffi extension builds from native/gota.h, and the native C tests pass."""
import re
import subprocess
import time
from pathlib import Path

import pytest

from gota_arena import constants, layout
from gota_arena._native import ffi, lib
from tests.conftest import NATIVE, have_toolchain

needs_toolchain = pytest.mark.skipif(not have_toolchain(), reason="make or cc is not installed")


def test_extension_has_ffi_and_lib():
    assert ffi.sizeof("GotaConfig") == 8 * (5 + 10 + 10)   # seed, max_ticks, wave_interval, heroes, upkeep, 10 classes, 10 bots
    for name in ("gota_bot_name", "gota_match_new", "gota_match_step", "gota_match_hash", "gota_map_tiles", "gota_error_text",
                 "gota_match_command", "gota_match_seat_stats", "gota_match_hero", "gota_match_spells"):
        assert callable(getattr(lib, name)), name


def test_every_numeric_define_reaches_lib():
    header = (NATIVE / "gota.h").read_text()
    defines = re.findall(r"^#define\s+(GOTA_\w+)\s+(-?\d+)", header, re.MULTILINE)
    assert len(defines) > 40
    for name, value in defines:
        assert getattr(lib, name) == int(value), name


@pytest.mark.parametrize("cname, dtype", [
    ("GotaUnit", layout.UNIT_DTYPE),
    ("GotaEvent", layout.EVENT_DTYPE),
    ("GotaTile", layout.TILE_DTYPE),
    ("GotaMatchInfo", layout.INFO_DTYPE),
])
def test_dtype_matches_c_layout(cname, dtype):
    ctype = ffi.typeof(cname)
    assert dtype.itemsize == ffi.sizeof(ctype)
    assert dtype.names == tuple(name for name, _ in ctype.fields)
    for name, field in ctype.fields:
        assert dtype.fields[name][1] == field.offset, name
        assert dtype.fields[name][0].itemsize == ffi.sizeof(field.type), name


def test_units_view_reads_c_memory(match):
    units = match.units
    assert units.dtype == layout.UNIT_DTYPE and not units.flags.writeable
    table = ffi.new("const GotaUnit **")
    count = ffi.new("int32_t *")
    assert lib.gota_match_units(match._ptr, table, count) == lib.GOTA_OK
    assert len(units) == count[0] > 0
    assert units.__array_interface__["data"][0] == int(ffi.cast("uintptr_t", table[0]))
    first = table[0][0]
    assert (units[0]["id"], units[0]["x"], units[0]["hp"], units[0]["kind"]) == (first.id, first.x, first.hp, first.kind)


def test_enums_come_from_c():
    assert constants.Kind.HERO == lib.GOTA_KIND_HERO
    assert constants.Team.BLUE == lib.GOTA_TEAM_BLUE
    assert constants.EventType.GAME_OVER == lib.GOTA_EVENT_GAME_OVER
    assert constants.Region.CAMP == lib.GOTA_REGION_CAMP
    assert constants.ErrorCode.BUFFER == lib.GOTA_ERR_BUFFER
    assert {k.name for k in constants.Kind} >= {"NONE", "GOD", "HERO", "CREEP", "TOWER", "BARRACKS", "NEUTRAL"}


def test_every_native_file_has_a_place():
    """native/ is its parts (one folder each), the C tests, the public header and the
    demo: the Makefile and the cffi builder name the same parts, which are exactly the
    folders beside tests/, and every C file is a part's source, a test or the demo."""
    from gota_arena import _build_native

    makefile = (NATIVE / "Makefile").read_text()
    (parts_line,) = re.findall(r"^PARTS\s*=\s*(.+)$", makefile, re.MULTILINE)
    assert tuple(parts_line.split()) == _build_native.PARTS
    folders = {p.name for p in NATIVE.iterdir() if p.is_dir() and p.name not in ("tests", "build")}
    assert folders == set(_build_native.PARTS)
    built = {Path(s).resolve() for s in _build_native.native_sources()}
    assert built and all(p.parent.name in _build_native.PARTS for p in built)
    tests = set((NATIVE / "tests").glob("test_*.c"))
    every = {p.resolve() for p in NATIVE.rglob("*.c") if "build" not in p.relative_to(NATIVE).parts}
    assert every == built | {p.resolve() for p in tests} | {(NATIVE / "gota_demo.c").resolve()}
    headers = {p.relative_to(NATIVE).parts[0] for p in NATIVE.rglob("*.h") if "build" not in p.relative_to(NATIVE).parts}
    assert headers <= set(_build_native.PARTS) | {"tests", "gota.h"}


def _make(target: str, timeout: int) -> float:
    start = time.monotonic()
    done = subprocess.run(["make", "-C", str(NATIVE), target], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"make {target} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return time.monotonic() - start


@needs_toolchain
def test_native_c_tests_pass():
    _make("test", timeout=600)


@needs_toolchain
def test_native_c_tests_pass_under_sanitizers():
    """ASan + UBSan over the C tests and a short demo match."""
    _make("sanitize", timeout=900)
