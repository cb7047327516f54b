"""``python -m napkit``."""

import sys


def _exit(status: int) -> None:
    # A Ctrl-C that lands while a dataclass's methods are being made (they are compiled from
    # text with exec) leaves CPython's "unhandled KeyboardInterrupt" flag set even though
    # napkit caught it, and under ``python -m`` the interpreter then kills itself with SIGINT
    # instead of exiting with our status. Running any text through exec clears the flag.
    exec("pass")
    raise SystemExit(status)


try:
    # Ctrl-C can come while napkit is still being imported, before main() can catch it: one
    # line and status 130 then too, as main() gives, not a traceback.
    from napkit.cli import main
except KeyboardInterrupt:
    print("\nnapkit: interrupted", file=sys.stderr)
    _exit(130)

_exit(main())
