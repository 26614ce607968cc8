"""Small helpers for files that must never be left half-written."""
import os


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
