"""``python -m napkit``."""

from napkit.cli import main

raise SystemExit(main())
