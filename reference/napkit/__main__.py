"""``python -m napkit``, and the ``napkit`` console script (:func:`run`)."""

import contextlib
import gc
import os
import sys
from typing import NoReturn


def _exit(status: int) -> NoReturn:
    # A Ctrl-C that lands while a dataclass's methods are being made (they are compiled from
    # text with exec) leaves CPython's "unhandled KeyboardInterrupt" flag set even though
    # napkit caught it, and under ``python -m`` the interpreter then kills itself with SIGINT
    # instead of exiting with our status. Running any text through exec clears the flag.
    exec("pass")
    if sys.gettrace() is None and sys.getprofile() is None and not sys.flags.inspect:
        # The command is over: its files are committed.
        # Exit once what it printed is flushed, without the interpreter's teardown (freeing
        # every module and object: 20 to 50 ms after checking one case or one record, about a
        # bare Python start again: benchmarks/startup.py). A profiler, a tracer (coverage)
        # or python -i gets the ordinary exit, and what it writes at the end. The quick exit
        # skips atexit, whose one handler of napkit's ends the programs a command started
        # and did not end (a Ctrl-C in a handshake): it is called here.
        process = sys.modules.get("napkit.protocol.process")
        if process is not None:
            process.end_programs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # the reader gone: nothing to lose
                stream.flush()
        os._exit(status)
    raise SystemExit(status)


def run() -> None:
    """The napkit command: :func:`napkit.cli.main`, with Ctrl-C during its imports given the
    same one line and status 130 as at any later moment."""
    try:
        from napkit.longrun import THRESHOLD

        # Starting makes objects by the ten thousand (modules, classes, the spec) and no
        # garbage cycles: the collector's passes over them, every 700 new ones, cost a start
        # a few per cent. The command has napkit.longrun's threshold from the first.
        gc.set_threshold(THRESHOLD, *gc.get_threshold()[1:])
        from napkit.cli import main
    except KeyboardInterrupt:
        print("\nnapkit: interrupted", file=sys.stderr)
        _exit(130)
    _exit(main())


if __name__ == "__main__":
    run()
