"""Where a record goes: standard output, or a file replaced atomically (``napkit record -o``,
``napkit play --record``)."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import tempfile
from pathlib import Path
from typing import IO


class Output:
    """Where a record goes: stdout, or ``target`` replaced atomically. A temporary file is
    made beside the target at once (so an unwritable place fails before anything is played);
    :meth:`write` adds to it as the records are made (so that a long recording holds no more
    than one record in memory), :meth:`commit` writes what is left, flushes it to disk and
    renames it over the target; leaving the ``with`` block without committing removes it, and
    the target is never touched. To stdout, each write goes out at once."""

    def __init__(self, target: str | None) -> None:
        self.target = target
        self.temp: str | None = None
        self.fd = -1
        self.file: IO[str] | None = None
        if target is None:
            return
        if Path(target).is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), target)
        directory = os.path.dirname(target) or "."
        try:
            self.fd, self.temp = tempfile.mkstemp(
                dir=directory, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
            os.fchmod(self.fd, _mode_for(target))
        except OSError as exc:
            self.close()
            raise OSError(exc.errno, exc.strerror, target) from None

    def __enter__(self) -> Output:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def write(self, text: str) -> None:
        """Add ``text`` to the record (stdout: written out at once)."""
        if self.target is None:
            sys.stdout.write(text)
            return
        try:
            if self.file is None:
                assert self.fd >= 0
                fd, self.fd = self.fd, -1
                self.file = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
            self.file.write(text)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, self.target) from None

    def commit(self, text: str = "") -> None:
        """Write ``text`` and finish: stdout is flushed; a file is flushed to disk and
        renamed over the target."""
        self.write(text)
        if self.target is None:
            sys.stdout.flush()
            return
        assert self.temp is not None and self.file is not None
        file, self.file = self.file, None
        try:
            with file:
                file.flush()
                os.fsync(file.fileno())
            os.replace(self.temp, self.target)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, self.target) from None
        self.temp = None

    def close(self) -> None:
        """Remove the temporary file unless it was committed."""
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            self.temp = None


def _mode_for(target: str) -> int:
    """The permissions of a new record: those of the file it replaces, else the umask's."""
    try:
        return os.stat(target).st_mode & 0o777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask
