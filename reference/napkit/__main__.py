"""``python -m napkit``."""

import sys

try:
    # Ctrl-C can come while napkit is still being imported, before main() can catch it: one
    # line and status 130 then too, as main() gives, not a traceback.
    from napkit.cli import main
except KeyboardInterrupt:
    print("\nnapkit: interrupted", file=sys.stderr)
    raise SystemExit(130) from None

raise SystemExit(main())
