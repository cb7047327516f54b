"""Write the golden playthroughs, ``conformance/playthroughs/NAME.nap`` (issue 16, part 7):
one seeded hand of each ruleset, and of each choice of an option that changes what a hand
shows, played by the engine's heuristic players and written in the hand notation with every
step's legal actions as comments (:mod:`napkit.formats.playthrough`).

    python conformance/generate_playthroughs.py            # (re)write every file
    python conformance/generate_playthroughs.py --check    # rewrite nothing: list what differs
    python conformance/generate_playthroughs.py --out DIR  # write them under DIR instead

Running it again gives byte-identical files. It deletes the ``*.nap`` files of the folder that
it no longer writes (a choice that stopped changing play, a ruleset gone), so that the folder
is exactly :func:`napkit.formats.playthrough.playthroughs`. ``tests/test_playthroughs.py``
fails, with a diff, when the files and the engine disagree: a change to play shows up in
review as changed lines of these files.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from pathlib import Path

from napkit.formats.playthrough import playthroughs

COMMAND = "python conformance/generate_playthroughs.py"
HERE = Path(__file__).resolve().parent / "playthroughs"


def expected() -> dict[str, str]:
    """Every playthrough's file name and text, as the engine plays them now."""
    return {f"{p.name}.nap": p.text() for p in playthroughs()}


def differences(folder: Path, wanted: dict[str, str]) -> list[str]:
    """The unified diff of each file of ``folder`` against what it should hold, and the names
    of files missing or not wanted."""
    found = {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.nap"))}
    out: list[str] = []
    for name in sorted(set(found) | set(wanted)):
        if name not in found:
            out.append(f"missing: {folder / name}")
        elif name not in wanted:
            out.append(f"not a playthrough any more: {folder / name}")
        elif found[name] != wanted[name]:
            out += difflib.unified_diff(found[name].splitlines(), wanted[name].splitlines(),
                                        f"{name} (kept)", f"{name} (played now)", lineterm="")
    return out


def write(folder: Path, wanted: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for path in folder.glob("*.nap"):
        if path.name not in wanted:
            path.unlink()
    for name, text in wanted.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND, description="Write the golden playthroughs (byte for byte the same "
                                  "every run).")
    parser.add_argument("--out", type=Path, default=HERE,
                        help="the folder of the files (default: conformance/playthroughs)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; print how the files differ from play now, and "
                             "exit 1 if they do")
    args = parser.parse_args(argv)
    wanted = expected()
    if args.check:
        found = differences(args.out, wanted)
        print("\n".join(found) if found else f"{len(wanted)} playthroughs, all as played now")
        return 1 if found else 0
    write(args.out, wanted)
    print(f"wrote {len(wanted)} playthroughs under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
