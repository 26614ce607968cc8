""".ci/run (what CI runs, and the README's test command), run with stand-ins for
python, pip and apt-get: it installs the CPU build of torch from PyTorch's CPU
wheel index, says what it is doing while it installs Chromium, and the README
shows the same commands."""
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

CI = ROOT / ".ci" / "run"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
STUBS = {
    # (each on the real PATH for its own tools; the script sees only the stand-ins)
    # the venv is a folder with an empty activate script; pytest passes
    "python": """if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && : > "$3/bin/activate"; fi""",
    "pip": "",
    # MODE: ok (installs a chromium), fail (apt-get fails)
    "apt-get": """if [ "$MODE" = ok ] && [ "$1" = install ]; then
                      printf '#!/bin/sh\\n' > "$STUBS/chromium" && chmod +x "$STUBS/chromium"
                  else [ "$1" != install ]; fi""",
}


def run_ci(tmp_path: Path, mode: str, chromium: bool = False) -> list:
    """Run a copy of .ci/run with the stand-ins; the lines it printed and the
    commands it ran, in order (all appended to one log)."""
    repo, stubs, log = tmp_path / "repo", tmp_path / "stubs", tmp_path / "log"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy(CI, repo / ".ci" / "run")
    stubs.mkdir()
    names = dict(STUBS, **({"chromium": ""} if chromium else {}))
    for name, body in names.items():
        path = stubs / name
        path.write_text(f'#!/bin/sh\nPATH="$TOOLS"\necho "RAN {name} $*" >> "$LOG"\n{body}\n')
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    os.symlink(shutil.which("dirname"), stubs / "dirname")
    tools = os.pathsep.join(sorted({str(Path(shutil.which(tool)).parent) for tool in ("mkdir", "chmod")}))
    env = {"PATH": str(stubs), "TOOLS": tools, "LOG": str(log), "STUBS": str(stubs), "MODE": mode}
    with open(log, "a") as out:
        done = subprocess.run([shutil.which("bash"), str(repo / ".ci" / "run")], cwd=tmp_path, env=env,
                              stdout=out, stderr=subprocess.STDOUT, timeout=60)
    lines = log.read_text().splitlines()
    assert done.returncode == 0, lines
    return lines


def where(lines: list, text: str) -> list:
    found = [i for i, line in enumerate(lines) if text in line]
    assert found, f"{text!r} is not in:\n" + "\n".join(lines)
    return found


def first(lines: list, text: str) -> int:
    return where(lines, text)[0]


def last(lines: list, text: str) -> int:
    return where(lines, text)[-1]


def test_ci_installs_the_cpu_build_of_torch_from_the_cpu_wheel_index(tmp_path):
    lines = run_ci(tmp_path, "ok", chromium=True)
    pip = [line.split()[2:] for line in lines if line.startswith("RAN pip ")]
    torch = pip[0]
    assert torch[0] == "install" and "torch==2.13.0+cpu" in torch, torch
    assert (["--extra-index-url", CPU_INDEX] == torch[-2:] or ["--index-url", CPU_INDEX] == torch[-2:]), torch
    assert pip[1] == ["install", "-e", ".[test]", "-e", "plugins/gota-example-plugin"]
    assert lines[-1] == "RAN python -m pytest -q tests plugins/gota-example-plugin/tests"
    assert "ci: chromium found" in lines[first(lines, "RAN pip install -e") + 1]
    assert not any(line.startswith("RAN apt-get") for line in lines)


def test_ci_says_what_it_does_while_it_installs_chromium(tmp_path):
    lines = run_ci(tmp_path, "ok")
    announce, done = first(lines, "ci: installing chromium"), first(lines, "ci: chromium installed")
    assert announce < first(lines, "RAN apt-get install") <= last(lines, "RAN apt-get") < done
    assert done < first(lines, "RAN python -m pytest")

    lines = run_ci(tmp_path / "fail", "fail")
    failed = first(lines, "ci: chromium could not be installed; tests/test_viewer.py will skip")
    assert first(lines, "ci: installing chromium") < first(lines, "RAN apt-get install") < failed
    assert last(lines, "RAN apt-get") < failed < first(lines, "RAN python -m pytest")


def test_the_readme_shows_what_ci_runs():
    """The README's torch install and test command are .ci/run's own lines; pyproject
    pins no CUDA or CPU build of torch (a plain requirement, any build)."""
    script = CI.read_text().splitlines()
    readme = (ROOT / "README.md").read_text()
    torch = next(line for line in script if line.startswith("pip install") and "torch" in line)
    pytest_line = next(line.split(" ||")[0] for line in script if line.startswith("python -m pytest"))
    assert torch in readme and pytest_line in readme and "bash .ci/run" in readme
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    torch_requirements = [r for reqs in extras.values() for r in reqs if r.startswith("torch")]
    assert torch_requirements and not any("+" in r or "cu1" in r or "cpu" in r for r in torch_requirements)
