"""The benchmarks change the repository only when asked (benchmarks/results.py):
every script takes ``--write`` (documented in its --help), and every file its
own code writes -- RESULTS.md and the figures through results.py, or anything
else -- is written only under ``if args.write``, under an option naming the
file or folder to write (``metavar="FILE"`` / ``"DIR"``), inside a temporary
folder's ``with`` block, or in a function called only from those. Read from the
scripts' source: no benchmark runs."""
import argparse
import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"
HELPERS = ("results.py",)            # modules of helpers, not benchmarks
SCRIPTS = sorted(p for p in BENCHMARKS.glob("*.py") if p.name not in HELPERS)

# calls that write a file: methods and functions by name, module functions, open() for writing
WRITING_NAMES = {"write_text", "write_bytes", "savefig", "save", "write_text_atomic", "write_bytes_atomic",
                 "atomic_path", "copyfile", "copytree"}
WRITING_MODULE_CALLS = {("os", "replace"), ("os", "rename"), ("os", "remove"), ("os", "unlink"), ("os", "truncate"),
                        ("shutil", "copy"), ("shutil", "copy2"), ("shutil", "move"), ("shutil", "rmtree"),
                        ("np", "save"), ("np", "savez"), ("torch", "save")}
PATH_OPTIONS = {"FILE", "DIR"}


def _name(func) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _opens_for_writing(call: ast.Call) -> bool:
    if _name(call.func) != "open":
        return False
    # open(path, mode) or path.open(mode)
    position = 1 if isinstance(call.func, ast.Name) else 0
    mode = call.args[position] if len(call.args) > position else None
    mode = next((k.value for k in call.keywords if k.arg == "mode"), mode)
    if mode is None:
        return False
    return not isinstance(mode, ast.Constant) or any(c in str(mode.value) for c in "wax+")


def _writes_by_itself(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and (func.value.id, func.attr) in WRITING_MODULE_CALLS:
        return True
    return _name(func) in WRITING_NAMES or _opens_for_writing(call)


def _path_options(tree) -> set:
    """The options declared with ``metavar="FILE"`` or ``"DIR"``, as ``args`` names them."""
    options = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and _name(n.func) == "add_argument":
            metavar = next((k.value.value for k in n.keywords
                            if k.arg == "metavar" and isinstance(k.value, ast.Constant)), None)
            flags = [a.value for a in n.args if isinstance(a, ast.Constant) and str(a.value).startswith("--")]
            if metavar in PATH_OPTIONS and flags:
                options.add(flags[0][2:].replace("-", "_"))
    return options


class Writes:
    """The writes in one module's source. ``imported``: the names of the other
    benchmark modules' writing functions it imports (results.write_section, ...)."""

    def __init__(self, source: str, imported=frozenset()):
        self.tree = ast.parse(source)
        self.parents = {child: node for node in ast.walk(self.tree) for child in ast.iter_child_nodes(node)}
        self.path_options = _path_options(self.tree)
        self.functions = {n.name: n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef)}
        self.calls = [n for n in ast.walk(self.tree) if isinstance(n, ast.Call)]
        self.writers = set(imported)   # functions that write without being asked inside them, and the imported
        while True:
            more = {name for name, fn in self.functions.items() if name not in self.writers and any(
                self._enclosing(c) is fn and self._is_write(c) and not self._asked(c) for c in self.calls)}
            if not more:
                break
            self.writers |= more
        self.safe = set()   # functions called only where writing was asked for
        while True:
            more = {name for name in self.functions if name not in self.safe and self._uses(name) and all(
                isinstance(self.parents[n], ast.Call) and self.parents[n].func is n and self._guarded(self.parents[n])
                for n in self._uses(name))}
            if not more:
                break
            self.safe |= more

    def _is_write(self, call) -> bool:
        """A write of its own, or a call of a writing function (``name()``, ``module.name()``)."""
        func = call.func
        return _writes_by_itself(call) or (func.id if isinstance(func, ast.Name) else ast.unparse(func)) in self.writers

    def _enclosing(self, node):
        node = self.parents.get(node)
        while node is not None and not isinstance(node, ast.FunctionDef):
            node = self.parents.get(node)
        return node

    def _asked(self, node) -> bool:
        """Under ``if args.write`` (or an option naming a file or folder), or in a
        temporary folder's ``with`` block, within its own function."""
        child, parent = node, self.parents.get(node)
        while parent is not None and not isinstance(parent, ast.FunctionDef):
            if isinstance(parent, ast.If) and child in parent.body and isinstance(parent.test, ast.Attribute) \
                    and parent.test.attr in {"write"} | self.path_options:
                return True
            if isinstance(parent, ast.With) and any(isinstance(item.context_expr, ast.Call)
                                                    and _name(item.context_expr.func) == "TemporaryDirectory"
                                                    for item in parent.items):
                return True
            child, parent = parent, self.parents.get(parent)
        return False

    def _guarded(self, node) -> bool:
        fn = self._enclosing(node)
        return self._asked(node) or (fn is not None and fn.name in self.safe)

    def _uses(self, name: str) -> list:
        return [n for n in ast.walk(self.tree) if isinstance(n, ast.Name) and n.id == name]

    def unasked(self) -> list:
        """(line, the call) of every write that runs without being asked for, in line order."""
        return sorted((c.lineno, ast.unparse(c.func)) for c in self.calls if self._is_write(c) and not self._guarded(c))


def writers_of(path: Path) -> set:
    return Writes(path.read_text()).writers


def imported_writers(source: str) -> set:
    """How ``source`` calls the writing functions of the other benchmark modules:
    ``name`` (``from results import name``) or ``module.name`` (``import results``)."""
    modules = {p.stem: p for p in BENCHMARKS.glob("*.py")}
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in modules:
            writers = writers_of(modules[node.module])
            names |= {a.asname or a.name for a in node.names if a.name in writers}
        elif isinstance(node, ast.Import):
            names |= {f"{a.asname or a.name}.{w}" for a in node.names if a.name in modules
                      for w in writers_of(modules[a.name])}
    return names


def test_the_benchmarks_and_their_writers_are_found():
    assert {"bench_sim.py", "bench_arena.py", "bench_learning.py", "side_bias.py"} <= {p.name for p in SCRIPTS}
    assert {"write_section", "save_figure"} <= writers_of(BENCHMARKS / "results.py")
    assert {"write_section", "save_figure"} <= imported_writers((BENCHMARKS / "bench_learning.py").read_text())


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_benchmark_takes_write_and_writes_only_when_asked(script):
    source = script.read_text()
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)]
    assert any(_name(n.func) == "add_write_option" for n in calls), f"{script.name}: no results.add_write_option"
    own = [ast.unparse(n) for n in calls if _name(n.func) == "add_argument"
           and any(isinstance(a, ast.Constant) and a.value in ("--write", "--no-write") for a in n.args)]
    assert not own, f"{script.name} declares its own flag: {own}; use results.add_write_option"
    assert Writes(source, imported_writers(source)).unasked() == [], f"{script.name} writes without --write"


UNASKED = '''
import argparse, json, tempfile
from pathlib import Path

def plot(points, path):
    figure(points).savefig(path)

def report(rows):
    Path("RESULTS.md").write_text(rows)

def scratch(folder):
    Path(folder, "x.json").write_text("{}")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", metavar="FILE")
    args = ap.parse_args()
    plot([], "curve.png")
    if args.write:
        write_section("## x", [])
    else:
        report("a")
    if args.quick:
        open("quick.json", "w").write("{}")
    if args.out:
        open(args.out, "w").write("{}")
    with tempfile.TemporaryDirectory() as tmp:
        scratch(tmp)
    with open("in.json") as f:
        json.load(f)
    write_section("## y", [])
    results.save_figure(None, "x.png")
    ax.plot([1], [2])   # a method that shares a writer's name is not it
'''


def test_the_check_finds_the_writes_that_were_not_asked_for():
    assert Writes(UNASKED, {"write_section", "results.save_figure"}).unasked() == [
        (6, "figure(points).savefig"), (9, "Path('RESULTS.md').write_text"), (18, "plot"), (22, "report"),
        (24, "open"), (31, "write_section"), (32, "results.save_figure")]


def test_write_is_documented_in_every_benchmarks_help():
    spec = importlib.util.spec_from_file_location("benchmark_results", BENCHMARKS / "results.py")
    results = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(results)
    parser = argparse.ArgumentParser()
    results.add_write_option(parser)
    text = " ".join(parser.format_help().split())
    assert "--write" in text and "RESULTS.md" in text and "changes no file of the repository" in text
    assert parser.parse_args([]).write is False and parser.parse_args(["--write"]).write is True
    assert results.RESULTS == BENCHMARKS / "RESULTS.md"


def test_curriculum_curves_count_each_stage_on_from_the_last(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("bench_beat_bots", BENCHMARKS / "bench_beat_bots.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    header = "global_step,charts/episode_return,charts/win_rate/idle,charts/win_rate/puller\n"
    stages = {"stage1": "100,1.0,0.5,\n200,2.0,1.0,\n", "stage2": "50,3.0,1.0,0.1\n150,4.0,1.0,0.4\n"}
    for name, rows in stages.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "metrics.csv").write_text(header + rows)
    figure = bench.curriculum_figure([tmp_path / "stage1", tmp_path / "stage2"])
    win = next(ax for ax in figure.axes if ax.get_title().startswith("win rate"))
    puller = next(line for line in win.get_lines() if line.get_label() == "puller")
    assert list(puller.get_xdata()) == [100, 200, 250, 350]      # stage 2 counted on from 200
    assert [round(v, 2) for v in puller.get_ydata()[2:]] == [0.1, 0.4]
    stage_lines = [line for line in win.get_lines() if line.get_linestyle() == "--"]
    assert [list(line.get_xdata()) for line in stage_lines] == [[200, 200]]
    with pytest.raises(SystemExit, match="no rows"):
        (tmp_path / "empty").mkdir()
        (tmp_path / "empty" / "metrics.csv").write_text(header)
        bench.curriculum_figure([tmp_path / "empty"])


def test_bench_beat_bots_refuses_what_would_write_or_play_the_wrong_thing(tmp_path):
    script = str(BENCHMARKS / "bench_beat_bots.py")
    (tmp_path / "empty").mkdir()
    for extra, said in ((["--curves", str(tmp_path)], "give --write too"),
                        (["--curves", str(tmp_path / "empty"), "--write"], "no metrics.csv there"),
                        (["--first-seed", "6000000", "--write"], "leave out --first-seed"),
                        (["--first-seed", "500"], "choose one above")):
        result = subprocess.run([sys.executable, script, "--policy", "ppo", *extra], capture_output=True, text=True,
                                timeout=120)
        assert result.returncode == 2 and said in result.stderr, result.stderr


def test_script_table_cell_gives_the_refused_share_and_the_top_reasons(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("bench_basic", BENCHMARKS / "bench_basic.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    reasons = bench.Counter({"ActionOutOfRange": 3, "ActionAbilityLocked": 110, "ActionCooldown": 10})
    assert bench.refused_cell(1000, 123, reasons) == "12.3 % (ActionAbilityLocked 11.0 %, ActionCooldown 1.0 %)"
    assert bench.refused_cell(1000, 123, reasons, top=1) == "12.3 % (ActionAbilityLocked 11.0 %)"
    assert bench.refused_cell(40, 0, bench.Counter()) == "0.0 %"
    assert bench.refused_cell(0, 0, bench.Counter()) == "no commands"
