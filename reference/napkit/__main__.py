"""``python -m napkit``, and the ``napkit`` console script (:func:`run`)."""

import sys
from typing import NoReturn


def _exit(status: int) -> NoReturn:
    # A Ctrl-C that lands while a dataclass's methods are being made (they are compiled from
    # text with exec) leaves CPython's "unhandled KeyboardInterrupt" flag set even though
    # napkit caught it, and under ``python -m`` the interpreter then kills itself with SIGINT
    # instead of exiting with our status. Running any text through exec clears the flag.
    exec("pass")
    raise SystemExit(status)


def run() -> None:
    """The napkit command: :func:`napkit.cli.main`, with Ctrl-C during its imports given the
    same one line and status 130 as at any later moment."""
    try:
        from napkit.cli import main
    except KeyboardInterrupt:
        print("\nnapkit: interrupted", file=sys.stderr)
        _exit(130)
    _exit(main())


if __name__ == "__main__":
    run()
