"""``napkit adapter``: napkit's engine behind the adapter protocol (napkit-adapter/1), one JSON
request a line on standard input, one answer a line on standard output. The adapter is
:mod:`napkit.protocol.adapter`; ``python -m napkit.protocol.adapter`` is the same program."""

from __future__ import annotations

import argparse

from napkit.cli.common import Commands


def register(commands: Commands) -> None:
    """``napkit adapter``."""
    adapter = commands.add_parser(
        "adapter", help="serve the reference engine over the adapter protocol (stdin/stdout)",
        description="napkit's engine behind napkit-adapter/1: one JSON request a line on "
                    "standard input, one JSON response a line on standard output "
                    "(spec/conformance.md). The same as python -m napkit.protocol.adapter.",
        epilog="examples:\n  printf '%s\\n' '{\"id\": 0, \"type\": \"hello\", "
               "\"protocol\": \"napkit-adapter/1\"}' | napkit adapter\n"
               "  napkit fuzz --ruleset-file house.json -- napkit adapter --ruleset-file "
               "house.json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    adapter.add_argument("--ruleset-file", dest="ruleset_files", action="append", default=[],
                         metavar="FILE", help="play this house ruleset too (repeatable)")
    adapter.add_argument("--state", action="store_true",
                         help="declare supports.state, so that the harness asks for its view "
                              "of the hand (spec/conformance.md 2.3)")
    adapter.set_defaults(run=_adapter)


def _adapter(args: argparse.Namespace) -> int:
    from napkit.protocol.adapter import main

    return main([word for path in args.ruleset_files for word in ("--ruleset-file", path)]
                + (["--state"] if args.state else []))
