"""What the benchmarks write into the repository, and only when asked: a benchmark
prints its figures; with ``--write`` it also writes its section of
benchmarks/RESULTS.md (and bench_learning its curve, bench_learning.png). Every
benchmark takes ``--write`` through ``add_write_option``, and writes into the
repository only through ``write_section`` and ``save_figure``, only under
``if args.write`` (tests/test_benchmarks.py checks both).
"""
import re
from pathlib import Path

from gota_arena.files import atomic_path, write_text_atomic

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"


def add_write_option(parser, what: str = "its section of benchmarks/RESULTS.md") -> None:
    """The ``--write`` flag, the same in every benchmark."""
    parser.add_argument("--write", action="store_true",
                        help=f"write {what}; without --write the benchmark only prints its figures and changes "
                             "no file of the repository")


def write_section(title: str, lines: list) -> None:
    """Replace (or append) the ``title`` section (``## name``) of RESULTS.md with
    ``lines``, keeping the other sections; the file is replaced atomically."""
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    section = "\n".join([title, ""] + list(lines)).rstrip("\n") + "\n"
    pattern = re.compile(rf"^{re.escape(title)}\n.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text).rstrip("\n") + "\n"
    else:
        text = text.rstrip("\n") + "\n\n" + section
    write_text_atomic(RESULTS, text)


def save_figure(figure, name: str, dpi: int = 70) -> Path:
    """Save a matplotlib figure as benchmarks/<name> (a PNG), atomically."""
    path = HERE / name
    with atomic_path(path) as tmp:
        figure.savefig(tmp, format="png", dpi=dpi)
    return path
