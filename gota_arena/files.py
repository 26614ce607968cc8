"""Files that are never left half-written: every file the package writes for
later (replays, viewer pages and pictures, policies, checkpoints, reports) goes
through ``atomic_path``, directly or through ``write_bytes_atomic`` /
``write_text_atomic``.

    write_text_atomic("summary.json", text)
    with atomic_path("policy.safetensors") as tmp:   # for writers that want a path
        save_file(tensors, tmp)

A reader, or a process killed in the middle of the write, sees the old file or
the new one, never half of one: the data goes to a temporary ``.<name>-*.tmp``
in the same folder, is flushed to disk, and replaces the file in one rename.
"""
import contextlib
import glob
import os
import tempfile

# the permissions of a written file: what open() gives under the usual umask 022
FILE_MODE = 0o644


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


def _fsync_file(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(path):
    """Yield the path of an empty temporary file in ``path``'s folder for the
    caller to write (``torch.save``, ``safetensors``' ``save_file``, a figure's
    ``savefig(tmp, format="png")``: name the format, the temporary's suffix is
    ``.tmp``). When the block ends normally the temporary is flushed to disk,
    given mode 0o644 and renamed over ``path`` (and the folder flushed); when it
    raises, the temporary is removed and ``path`` is left as it was."""
    path = os.fspath(path)
    directory, name = os.path.split(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}-", suffix=".tmp", dir=directory)
    except OSError as error:   # name the file asked for (its folder is missing, read-only, ...), not the temporary
        raise type(error)(error.errno, error.strerror, path) from None
    os.close(fd)
    try:
        yield tmp
        _fsync_file(tmp)
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
        tmp = None
    finally:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.remove(tmp)
    fsync_directory(directory)


def write_bytes_atomic(path, data: bytes) -> str:
    """Write ``data`` to ``path`` atomically (``atomic_path``); returns the path."""
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)
    return os.fspath(path)


def write_text_atomic(path, text: str, encoding: str = "utf-8") -> str:
    """Write ``text`` to ``path`` atomically (``atomic_path``), as ``encoding``
    and without newline translation; returns the path."""
    return write_bytes_atomic(path, text.encode(encoding))


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
