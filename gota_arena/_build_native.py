"""cffi builder for the private extension ``gota_arena._native`` (API, out-of-line mode).

The public header ``native/gota.h`` *is* the cdef: preprocessor lines are dropped,
except ``#define NAME <integer>`` lines, which cffi turns into ``lib.NAME`` and checks
against the compiler's value. Every C file of the library's parts (``native/sim``,
``native/contract``, ``native/bots``, ``native/basic``, ``native/batch``; the PARTS of
native/Makefile) is compiled into the extension, with ``native/`` as the one include
directory.

Used by setup.py (``cffi_modules``); ``python gota_arena/_build_native.py`` builds the
extension in place for a quick look without pip.
"""
import os
import re
from pathlib import Path

from cffi import FFI

_HERE = Path(__file__).resolve().parent
_NATIVE = _HERE.parent / "native"
_NUMERIC_DEFINE = re.compile(r"^\s*#\s*define\s+[A-Za-z_]\w*\s+-?(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*(/\*.*)?$")
PARTS = ("sim", "contract", "bots", "basic", "batch")   # native/Makefile's PARTS
# After Python's own CFLAGS (sysconfig: -fwrapv -O3 -g ...), so these win. -fno-wrapv:
# the C code is written and tested (make test, UBSan) without wrapping signed
# overflow, and -fwrapv keeps gcc from widening int loop indexes (the arena
# profile ran 3.4 % more instructions with it, for the same bytes).
COMPILE_ARGS = ["-std=c11", "-O2", "-fno-wrapv", "-Wall", "-Wextra", "-D_POSIX_C_SOURCE=200809L"]


def cdef_text(header: Path = _NATIVE / "gota.h") -> str:
    """The header with every preprocessor line removed but numeric #defines."""
    keep = []
    for line in header.read_text().splitlines():
        if line.lstrip().startswith("#") and not _NUMERIC_DEFINE.match(line):
            continue
        keep.append(line)
    return "\n".join(keep) + "\n"


def _rel(path: Path) -> str:
    """Paths relative to the working directory (setuptools runs us from the project
    root), so object files land under build/ for both `pip install .` and `-e .`."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows): keep it absolute
        return str(path)


def native_sources() -> list:
    return sorted(_rel(p) for part in PARTS for p in (_NATIVE / part).glob("*.c"))


ffibuilder = FFI()
ffibuilder.cdef(cdef_text())
ffibuilder.set_source(
    "gota_arena._native",
    '#include "gota.h"',
    sources=native_sources(),
    include_dirs=[_rel(_NATIVE)],
    extra_compile_args=COMPILE_ARGS,
    libraries=["pthread"],
)

if __name__ == "__main__":
    os.chdir(_HERE.parent)
    ffibuilder.compile(verbose=True)
