"""Small helpers for files that must never be left half-written."""
import glob
import os
import tempfile


def fsync_directory(directory) -> None:
    """Flush a directory entry (after os.replace) so a rename survives a crash;
    best effort where the platform cannot open directories."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_text_atomic(path, text: str) -> str:
    """Write ``text`` to ``path`` through a temporary file in the same folder and
    one rename: a reader (or a process killed while writing) sees the old file or
    the new one, never half of one. The temporary is named ``.<name>-*.tmp``."""
    path = os.fspath(path)
    directory, name = os.path.split(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{name}-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
        fsync_directory(directory)
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.remove(tmp)
    return path


def remove_leftovers(directory, patterns=(".*.tmp",)) -> list:
    """Remove the temporaries that a process killed in the middle of an atomic
    write left in ``directory`` (its files matching ``patterns``); the paths removed."""
    removed = []
    for pattern in patterns:
        for path in glob.glob(os.path.join(glob.escape(os.fspath(directory)), pattern)):
            try:
                os.remove(path)
                removed.append(path)
            except OSError:
                pass
    return removed
