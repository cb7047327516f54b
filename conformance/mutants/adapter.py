"""The reference adapter with one mutant applied: a deliberately wrong Nap program.

    python conformance/mutants/adapter.py NAME      serve napkit-adapter/1 with mutant NAME
    python conformance/mutants/adapter.py NAME...   with several mutants at once (a program
                                                    with several bugs, for napkit fuzz)
    python conformance/mutants/adapter.py --list    every mutant: name, rule id, rulesets

It is napkit's own adapter (:mod:`napkit.protocol.adapter`) speaking the protocol on standard input
and output, with the engine changed by the mutant at start-up (nothing is edited on disk). Its
handshake names the mutant. ``napkit conform -- python conformance/mutants/adapter.py NAME``
must fail: ``tests/test_mutants.py`` checks that for every mutant.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _importable() -> None:
    # Run as a script, this folder is first on sys.path, where its modules would shadow
    # nothing of napkit's but would be importable under bare names; the repository root (which
    # holds the conformance package) takes its place.
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [p for p in sys.path if p and Path(p).resolve() != Path(here)]
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


USAGE = "usage: python conformance/mutants/adapter.py NAME... | --list"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    _importable()
    from conformance.mutants import REGISTRY

    if args in (["-h"], ["--help"]):
        print(__doc__.strip() if __doc__ else USAGE)
        return 0
    if args == ["--list"]:
        width = max(len(name) for name in REGISTRY)
        for m in REGISTRY.values():
            print(f"{m.name:<{width}}  {m.rule:<10}  {m.phase:<10}  {','.join(m.rulesets)}")
        return 0
    if not args or any(a.startswith("-") for a in args):
        print(USAGE, file=sys.stderr)
        return 2
    unknown = [a for a in args if a not in REGISTRY]
    if unknown:
        print(f"no mutant {unknown[0]!r} (--list shows them all)", file=sys.stderr)
        return 2
    from napkit.protocol import adapter

    mutants = [REGISTRY[a] for a in args]
    for found in mutants:
        found.apply()
    hello = adapter.Adapter._hello
    name = " and ".join(f"{m.name} ({m.rule})" for m in mutants)

    def named_hello(self: adapter.Adapter, request: dict[str, object]) -> dict[str, object]:
        answer = dict(hello(self, request))
        answer["name"] = f"napkit with mutant{'s' if len(mutants) > 1 else ''} {name}"
        return answer

    adapter.Adapter._hello = named_hello  # type: ignore[method-assign]
    try:
        return adapter.serve(sys.stdin.buffer, sys.stdout.buffer)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


def _run() -> int:
    try:
        return main()
    except BrokenPipeError:  # --list piped into head: the reader has seen enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(_run())
