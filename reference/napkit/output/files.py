"""How napkit writes a file it is told to write (``napkit record -o``, ``napkit play --record``,
``napkit conform --json/--junit/--tap``): one policy for every output.

* A regular file, or a path where nothing is yet, is replaced atomically: the text goes to a
  temporary file beside it, which is flushed to disk and renamed over it (``os.replace``) with
  the old file's permissions. A reader never sees half of it, and a failed or interrupted run
  leaves the old file as it was.
* A symbolic link is followed: the file it leads to is replaced so (the temporary file beside
  that file) and the link stays a link; a dangling link's target is created.
* ``-``, or the very file standard output goes to, is standard output. A character device, a
  FIFO or a socket is opened and written directly: renaming over it would replace the device
  with a regular file, and a FIFO's reader would never see the text. A directory or a block
  device (a disk) is refused.
* An output that is one of the command's inputs, or two outputs on one file, are refused
  (:func:`refuse_clashes`), before anything is read or run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Sequence
from typing import IO

from napkit.errors import UsageError

STDOUT = "-"


class OutputFile:
    """One output, written by the policy above. Made at once, so that a place that cannot be
    written fails before anything is run: the temporary file of an atomic replacement is
    created here, and a special file is checked for write permission (it is opened at the
    first :meth:`write`, so that a FIFO does not hold the command up until its reader comes).
    :meth:`commit` finishes the file; :meth:`close` without it abandons it (the temporary file
    removed, the target untouched). Every OSError names :attr:`path`, the path as given."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.final: str | None = None  # atomic: what the temporary file replaces
        self.temp: str | None = None
        self.file: IO[str] | None = None
        self._fd = -1  # the temporary file, until the first write
        self._stdout = path == STDOUT or _is_stdout(path)
        if self._stdout:
            return
        if not path:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
        try:
            status = os.stat(path)  # follows links, /dev/stdout's too
        except FileNotFoundError:
            status = None
        except OSError as exc:  # a loop of links, a folder that is not one
            raise _named(exc, path) from None
        if status is None and path.endswith(("/", os.sep)):  # a folder's name, not a file's
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if status is None or stat.S_ISREG(status.st_mode):
            self._make_temp(os.path.realpath(path), status)
        elif stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        elif stat.S_ISBLK(status.st_mode):
            raise OSError(errno.EPERM, "is a block device (a disk): napkit does not write "
                                       "onto one", path)
        elif not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)

    def _make_temp(self, final: str, status: os.stat_result | None) -> None:
        import tempfile  # here: a command that writes nothing starts without it

        directory, name = os.path.split(final)
        try:
            self._fd, self.temp = tempfile.mkstemp(dir=directory, prefix=f".{name}.",
                                                   suffix=".tmp")
            os.fchmod(self._fd, _mode(status))
        except OSError as exc:
            self.close()
            raise _named(exc, self.path) from None
        self.final = final

    @property
    def stdout(self) -> bool:
        """Whether this output is standard output."""
        return self._stdout

    @property
    def atomic(self) -> bool:
        """Whether this output replaces its file whole (else each write goes out at once)."""
        return self.final is not None

    def __enter__(self) -> OutputFile:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def write(self, text: str) -> None:
        """Add ``text`` (standard output, a device, a FIFO: written out at once)."""
        if self._stdout:
            sys.stdout.write(text)
            return
        try:
            if self.file is None:
                self.file = self._open()
            self.file.write(text)
        except OSError as exc:
            raise _named(exc, self.path) from None

    def _open(self) -> IO[str]:
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            return os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        if self.atomic:
            raise ValueError(f"{self.path}: already committed or abandoned")
        if stat.S_ISSOCK(os.stat(self.path).st_mode):
            return _connect(self.path)
        return open(self.path, "w", encoding="utf-8", newline="\n")

    def commit(self, text: str = "") -> None:
        """Write ``text`` and finish: standard output is flushed; a special file flushed and
        closed; a temporary file flushed to disk and renamed over its target."""
        self.write(text)
        if self._stdout:
            sys.stdout.flush()
            return
        file, self.file = self.file, None
        try:
            assert file is not None
            with file:
                file.flush()
                if self.temp is not None:
                    os.fsync(file.fileno())
            if self.temp is not None and self.final is not None:
                os.replace(self.temp, self.final)
                self.temp = None
        except OSError as exc:
            raise _named(exc, self.path) from None

    def close(self) -> None:
        """Abandon what is not committed: the temporary file is removed."""
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            self.temp = None


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` by the policy: whole or not at all for a file."""
    with OutputFile(path) as out:
        out.commit(text)


def _connect(path: str) -> IO[str]:
    """A Unix socket's listener, as a file to write to."""
    import socket  # here: a socket is rarely written to

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        return sock.makefile("w", encoding="utf-8", newline="\n")
    finally:
        sock.close()  # the file keeps the connection open until it is closed


def _mode(status: os.stat_result | None) -> int:
    """The permissions of a new file: those of the file it replaces, else the umask's."""
    if status is not None:
        return status.st_mode & 0o777
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _named(exc: OSError, path: str) -> OSError:
    """``exc`` naming the path as the user gave it (not a temporary file's)."""
    return OSError(exc.errno, exc.strerror or str(exc), path)


# --- outputs and inputs -------------------------------------------------------------------------
Identity = tuple[int, int] | str


def identity(path: str) -> Identity | None:
    """What tells two paths of one file apart from paths of two: the device and inode of an
    existing file (whichever links lead to it), else the path resolved; standard output's
    file for ``-``; None for the null device, which any number of outputs may share."""
    if path == STDOUT:
        return _stdout_identity() or STDOUT
    try:
        status = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    if (status.st_dev, status.st_ino) == _null_identity():
        return None
    return status.st_dev, status.st_ino


def _stdout_identity() -> tuple[int, int] | None:
    try:
        status = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file behind it (a test's capture)
        return None
    return status.st_dev, status.st_ino


def _null_identity() -> tuple[int, int] | None:
    try:
        status = os.stat(os.devnull)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _is_stdout(path: str) -> bool:
    """Whether ``path`` is the file standard output goes to (``/dev/stdout``, or ``r.json``
    in ``napkit ... -o r.json > r.json``): written to as standard output, not replaced."""
    mine = _stdout_identity()
    return mine is not None and identity(path) == mine


def is_stdout(path: str) -> bool:
    """Whether ``path`` is ``-`` or the file standard output goes to."""
    return path == STDOUT or _is_stdout(path)


def refuse_clashes(outputs: Sequence[tuple[str, str]],
                   inputs: Sequence[tuple[str, str]] = ()) -> None:
    """UsageError if an output is one of the inputs, or two outputs are one file; each is
    ``(what, path)``: ``("-o", "hand.json")``, ``("the ruleset file", "house.json")``. Run it
    before anything is read: an output is made before the run, and would replace an input."""
    seen: dict[Identity, tuple[str, str]] = {}
    for what, path in outputs:
        mine = identity(path)
        if mine is None:
            continue
        if mine in seen:
            other, before = seen[mine]
            raise UsageError(f"{other} {before} and {what} {path} are the same file: give each "
                             "output its own")
        seen[mine] = (what, path)
        for source, read in inputs:
            if identity(read) == mine:
                raise UsageError(f"{what} {path} would overwrite {source} {read}, which it "
                                 "reads: write to another file")
