"""Where a record goes: standard output, or a file written by napkit's one policy for outputs
(:mod:`napkit.output.files`: a file replaced atomically, a FIFO or a device written directly) for
``napkit record -o`` and ``napkit play --record``."""

from __future__ import annotations

from napkit.output.files import STDOUT, OutputFile


class Output(OutputFile):
    """Where a record goes: stdout (``target`` None or ``-``), or ``target``. A file's temporary
    file is made at once (so an unwritable place fails before anything is played);
    :meth:`write` adds to it as the records are made (so that a long recording holds no more
    than one record in memory), :meth:`commit` writes what is left and renames it over the
    target; leaving the ``with`` block without committing removes it, and the target is never
    touched. To stdout, a FIFO or a device, each write goes out at once."""

    def __init__(self, target: str | None) -> None:
        super().__init__(STDOUT if target is None else target)

    @property
    def target(self) -> str | None:
        """The file written, None for standard output."""
        return None if self.stdout else self.path

    def __enter__(self) -> Output:
        return self
