"""Copies of the JavaScript classic adapter (conformance/adapters/js-classic/adapter.js) with
bugs planted in them: a program written apart from napkit, wrong in known ways, for trying
what ``napkit conform`` and ``napkit fuzz`` say of a real program's bugs (issue 29).

    python -m conformance.mutants.planted trumps-never-fixed -o /tmp/trumps
    napkit conform -q --ruleset classic -- node /tmp/trumps/adapter.js

Each bug is a replacement of one small piece of the adapter's source by exact text
(:data:`BUGS`: the rule it breaks, the text, what replaces it). A piece that is not found
exactly once means the adapter changed under the bug: that is an error naming the bug, never a
copy with the bug silently left out. The mutants of :mod:`conformance.mutants.catalog` change
the reference engine; these change another implementation, so the harness meets a bug as it
meets one in a program it has never seen.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ADAPTER = Path(__file__).resolve().parents[1] / "adapters" / "js-classic" / "adapter.js"


@dataclass(frozen=True)
class Bug:
    """One planted bug: the rule it breaks, what it does, and the text replaced."""

    rule: str
    what: str
    old: str
    new: str


BUGS: dict[str, Bug] = {
    # NAP-7.1.1: classic's bids all have trumps fixed by the first card led; the copy never
    # fixes them, so its tricks are won within the suit led (as with no trumps) and it plays on.
    "trumps-never-fixed": Bug(
        "NAP-7.1.1", "trumps are never fixed by the first card led: every trick is won as if "
                     "there were no trumps",
        "    if (this.trumps === null) this.trumps = suitOf(card); // NAP-7.1.1: the first card "
        "led fixes trumps\n",
        "    // (planted: trumps-never-fixed) the first card led no longer fixes trumps\n"),
    # NAP-5.2.5: in classic, Wellington may be bid only after someone has bid Nap.
    "wellington-without-nap": Bug(
        "NAP-5.2.5", "Wellington may be bid though nobody has bid Nap",
        "{ id: 'wellington', name: 'Wellington', tricks: 5, requires: [['nap']],",
        "{ id: 'wellington', name: 'Wellington', tricks: 5, requires: [],"),
    # NAP-9.2.1: classic's defeated Four costs the declarer 4 stakes to each opponent.
    "four-defeat-costs-3": Bug(
        "NAP-9.2.1", "a defeated bid of Four costs the declarer 3 a player instead of 4",
        "{ id: 'four', name: '4', tricks: 4, requires: [], win: 4, lose: 4 },",
        "{ id: 'four', name: '4', tricks: 4, requires: [], win: 4, lose: 3 },"),
}

_NAME = "const NAME = 'js-classic';"


class PlantError(ValueError):
    """A bug that cannot be planted: unknown, or its text not found exactly once."""


def planted_source(bugs: Sequence[str], source: str) -> str:
    """``source`` (the adapter's) with ``bugs`` planted, its handshake's name saying which."""
    unknown = [b for b in bugs if b not in BUGS]
    if unknown:
        raise PlantError(f"unknown bug {unknown[0]!r} (known: {', '.join(BUGS)})")
    for name in dict.fromkeys([*bugs, "name"]):
        old, new = ((_NAME, f"const NAME = 'js-classic+{'+'.join(dict.fromkeys(bugs))}';")
                    if name == "name" else (BUGS[name].old, BUGS[name].new))
        found = source.count(old)
        if found != 1:
            raise PlantError(f"{name}: the text to replace is found {found} times in "
                             f"{ADAPTER.name}, not once: the adapter changed ({old.strip()!r})")
        source = source.replace(old, new)
    return source


def plant(bugs: Sequence[str], folder: Path) -> Path:
    """Write ``folder``/adapter.js, the JS classic adapter with ``bugs`` planted; its path."""
    text = planted_source(bugs, ADAPTER.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "adapter.js"
    path.write_text(text, encoding="utf-8")
    return path


def _parser() -> argparse.ArgumentParser:
    table = "\n".join(f"  {name:<24} {bug.rule}: {bug.what}" for name, bug in BUGS.items())
    return argparse.ArgumentParser(
        prog="python -m conformance.mutants.planted",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write a copy of the JS classic adapter with bugs planted in it.",
        epilog=f"bugs:\n{table}\n\nexample:\n"
               "  python -m conformance.mutants.planted trumps-never-fixed -o /tmp/trumps\n"
               "  napkit conform -q --ruleset classic -- node /tmp/trumps/adapter.js")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    parser.add_argument("bugs", nargs="+", metavar="BUG", help="a bug to plant (below)")
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="DIR",
                        help="the folder to write adapter.js into")
    args = parser.parse_args(argv)
    try:
        path = plant(args.bugs, args.output)
    except PlantError as exc:
        print(f"planted: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"planted: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
