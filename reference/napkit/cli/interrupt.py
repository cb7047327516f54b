"""Ctrl-C that is never lost.

Python turns SIGINT into a KeyboardInterrupt raised wherever the interpreter happens to be.
When that is inside a callback the interpreter calls on its own (the weakref callback that
drops an import's module lock, or one that drops a dead entry of a weak dictionary, a
``__del__``), the exception is printed as "Exception
ignored" and dropped, and the command runs on to its end as if no key had been pressed (seen
in a test that interrupts ``napkit conform`` while it imports the fuzzer's modules).

:func:`install` puts a handler in Python's place that raises the same KeyboardInterrupt,
except in such a callback, where it has the signal sent again a moment later, so that it is
raised once the callback has returned. :func:`count` says how many times
Ctrl-C has come, for a last check when a command ends.

SIGTERM (a cancelled CI job, ``kill``) is handled as Ctrl-C is, so that a command stopped so
writes what Ctrl-C writes (``napkit conform``'s reports marked interrupted, spec/conformance.md
7.3); :func:`exit_status` is then 143 (128 + SIGTERM) where Ctrl-C's is 130.
"""

from __future__ import annotations

import os
import signal
import threading
from types import FrameType

_COUNT = 0
_LAST = signal.SIGINT  # the signal that raised the last KeyboardInterrupt
# Where a KeyboardInterrupt would be swallowed or do harm, by file name and function: importlib's
# callback that drops a module lock, and the callbacks by which a weak dictionary or set
# forgets what has died (the engine keeps its games in one: a game let go runs it, seen in a
# test that interrupts ``napkit conform``).
_SWALLOWING = {("<frozen importlib._bootstrap>", "cb"), ("weakref.py", "remove"),
               ("_weakrefset.py", "_remove"),
               # and jsonschema-rs's check and import, where the handler runs inside Rust,
               # which panics on the exception (napkit.spec.schemas.in_rust and rust)
               ("schemas.py", "rust_check"), ("schemas.py", "rust_import")}
_AGAIN = 0.01  # seconds


def _swallowing(frame: FrameType | None) -> bool:
    """Whether the handler runs in one of those callbacks, or in Python code they called (an
    import jsonschema-rs makes while it checks: ``decimal`` loaded from inside Rust, seen in
    CI): the exception would surface in the callback all the same. A frame called from Rust or
    C links back to the Python frame that called it, so the walk goes through them."""
    while frame is not None:
        code = frame.f_code
        if (os.path.basename(code.co_filename), code.co_name) in _SWALLOWING:
            return True
        frame = frame.f_back
    return False


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    global _COUNT, _LAST  # noqa: PLW0603
    if _swallowing(frame):
        # Again, a moment later, from another thread (raised here and now it would land in
        # this very callback): the callback takes microseconds.
        again = threading.Timer(_AGAIN, signal.pthread_kill,
                                (threading.main_thread().ident, signum))
        again.daemon = True
        again.start()
        return
    _COUNT += 1
    _LAST = signal.Signals(signum)
    raise KeyboardInterrupt


def install() -> None:
    """Handle Ctrl-C, and SIGTERM as Ctrl-C, as above, where Python's own handling is in place
    and this is the main thread (a program embedding napkit keeps its own handlers)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:  # dying at once writes nothing
        signal.signal(signal.SIGTERM, _on_sigint)


def count() -> int:
    """How many times Ctrl-C has been raised as a KeyboardInterrupt since :func:`install`."""
    return _COUNT


def exit_status() -> int:
    """The exit status of a command the last KeyboardInterrupt stopped: 128 + the signal, as a
    shell gives it (130 for Ctrl-C, 143 for SIGTERM)."""
    return 128 + int(_LAST)


def stopped_by() -> str:
    """What stopped the command, in the words of a report: ``Ctrl-C`` or ``SIGTERM``."""
    return "SIGTERM" if _LAST == signal.SIGTERM else "Ctrl-C"
