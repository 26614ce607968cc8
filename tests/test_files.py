"""gota_arena.files: a file is replaced whole or not at all. A write that fails,
or a process killed in the middle of one, leaves the old file as it was (the
training runs killed while writing: test_bad_files.py)."""
import os
import signal
import stat
import subprocess
import sys

import pytest

from gota_arena.files import atomic_path, remove_leftovers, write_bytes_atomic, write_text_atomic
from tests.conftest import ROOT


def test_text_and_bytes_replace_the_file_whole(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    assert write_text_atomic(path, "é\r\nnew\n") == str(path)
    assert path.read_bytes() == "é\r\nnew\n".encode()   # UTF-8, no newline translation
    assert write_bytes_atomic(path, b"\x00\xff") == str(path)
    assert path.read_bytes() == b"\x00\xff"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert os.listdir(tmp_path) == ["out.txt"], "no temporary is left"


def test_a_writer_that_wants_a_path_gets_one_in_the_same_folder(tmp_path):
    path = tmp_path / "model.bin"
    with atomic_path(path) as tmp:
        assert os.path.dirname(tmp) == str(tmp_path) and os.path.basename(tmp).startswith(".model.bin-")
        assert tmp.endswith(".tmp") and not path.exists()
        with open(tmp, "wb") as f:
            f.write(b"weights")
    assert path.read_bytes() == b"weights" and os.listdir(tmp_path) == ["model.bin"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "keep.json"
    path.write_text("{}")
    with pytest.raises(RuntimeError, match="disk full"):
        with atomic_path(path) as tmp:
            with open(tmp, "w") as f:
                f.write('{"half": ')
            raise RuntimeError("disk full")
    assert path.read_text() == "{}" and os.listdir(tmp_path) == ["keep.json"]


def test_a_missing_folder_is_named_by_the_file_asked_for(tmp_path):
    path = tmp_path / "no_such_folder" / "out.txt"
    with pytest.raises(FileNotFoundError) as error:
        write_text_atomic(path, "x")
    assert error.value.filename == str(path) and str(path) in str(error.value)


KILLED = """
import os, signal, sys
from gota_arena.files import atomic_path
with atomic_path(sys.argv[1]) as tmp:
    with open(tmp, "w") as f:
        f.write("half of the new")
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_process_killed_while_writing_leaves_the_old_file(tmp_path):
    path = tmp_path / "state.json"
    path.write_text("old")
    child = subprocess.run([sys.executable, "-c", KILLED, str(path)], cwd=ROOT, capture_output=True, timeout=60)
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    assert path.read_text() == "old"
    (left,) = [name for name in os.listdir(tmp_path) if name != "state.json"]
    assert left.startswith(".state.json-") and left.endswith(".tmp")
    assert remove_leftovers(tmp_path) == [str(tmp_path / left)]
    assert os.listdir(tmp_path) == ["state.json"]
