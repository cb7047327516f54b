"""Progress of a long command, on standard error: a bar redrawn in place on a terminal, else
(in a log) a line every so many steps, or nothing.

``napkit conform`` counts cases, ``napkit record`` hands, ``napkit validate --quiet`` records
(whose number it does not know before the end: it shows the count and the rate, no bar).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress", "isatty"]


class Progress:
    """Progress through ``total`` steps (None: not known) of ``noun`` ("cases", "hands").

    On a terminal it draws ``[#####.....] 40/100 cases, 2 failed (120/s)`` at most ten times a
    second (the rate from the first second on); elsewhere it writes ``COMMAND: 40/100 cases,
    2 failed`` every ``every`` steps (0: never). ``failures`` says whether steps can fail (the
    count is shown); ``enabled`` False shows nothing.

    >>> import io
    >>> log = io.StringIO()
    >>> progress = Progress(4, "hands", "napkit record", log, every=2, failures=False)
    >>> for _ in range(4):
    ...     progress.step()
    >>> log.getvalue()
    'napkit record: 2/4 hands\\n'
    """

    def __init__(self, total: int | None, noun: str, command: str,
                 stream: TextIO | None = None, *, every: int = 1000, enabled: bool = True,
                 failures: bool = True) -> None:
        self.total = total
        self.noun = noun
        self.command = command
        self.stream = stream if stream is not None else sys.stderr
        self.tty = enabled and isatty(self.stream)
        self.every = every if enabled else 0
        self.failures = failures
        self.done = 0
        self.failed = 0
        self.began = time.monotonic()
        self.drawn = 0.0
        self.shown = False  # whether a bar is on the screen now
        self.note = ""

    def step(self, bad: bool = False, note: str = "") -> None:
        """One more step done (``bad``: it failed); ``note`` is shown after the rate on a
        terminal (``87/120 rules``)."""
        self.note = note
        self.done += 1
        self.failed += bad
        if self.tty:
            now = time.monotonic()
            if now - self.drawn >= 0.1 or self.done == self.total:
                self.drawn = now
                self._draw(now)
        elif self.every and self.done % self.every == 0 and (
                self.total is None or self.done < self.total):
            failed = f", {self.failed} failed" if self.failures else ""
            of = "" if self.total is None else f"/{self.total}"
            self.stream.write(f"{self.command}: {self.done}{of} {self.noun}{failed}\n")
            self.stream.flush()

    def _draw(self, now: float) -> None:
        # The rate once there is a second's worth to tell it from.
        rate = f" ({self.done / (now - self.began):.0f}/s)" if now - self.began >= 1 else ""
        failed = f", {self.failed} failed" if self.failures and self.failed else ""
        if self.total is None:
            bar = f"{self.done} {self.noun[:-1] if self.done == 1 else self.noun}"
        else:
            width = 30
            filled = width * self.done // max(self.total, 1)
            bar = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.noun}"
        note = f", {self.note}" if self.note else ""
        self.stream.write(f"\r{bar}{failed}{rate}{note}\x1b[K")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        """Take the bar off the screen (before other text is printed there); the next step
        draws it again."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
            self.drawn = 0.0

    def finish(self) -> None:
        """The work is over: the bar goes."""
        self.clear()


def isatty(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (a closed or odd stream is not)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
