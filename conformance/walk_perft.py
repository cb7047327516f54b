"""An independent perft count: the published positions walked by brute force through a program
that speaks the adapter protocol (napkit-adapter/1), and the counts compared with the published
ones (spec/conformance.md part 5).

    python conformance/walk_perft.py --ruleset classic -- \
        node conformance/adapters/js-classic/adapter.js
    python conformance/walk_perft.py --position classic/default-3p-deal --max-count 500 -- CMD

It is written apart from napkit's perft (``napkit.conform.perft.count``) and imports nothing of
napkit:
it reads the published files as plain JSON and learns every legal action from the program's
``legal`` answers, so the counts it finds are the program's. The protocol has no undo: every
node of the tree is reached by starting the game again, replaying the position's steps and then
the actions of the path to the node, and asking ``legal`` there. That costs a replay a node, so
only the depths whose published count is at most ``--max-count`` are walked.

The count at depth D is found from one walk to depth D - 1: a node where ``legal`` answers
``chance`` or ``over`` is a leaf, counted once at every depth below it; a node where a seat is
to act, D - 1 actions deep, has as many leaves below it as it has legal actions.

Exit status: 0 when every count walked agrees with the published one, 1 when one differs or
the program refuses a step it listed as legal (or answers out of protocol), 2 for a usage
error.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PERFT = HERE / "perft"
PROTOCOL = "napkit-adapter/1"
CHUNK = 64  # nodes whose requests are written at once

JSONObject = dict[str, Any]
Path_ = tuple[tuple[int, JSONObject], ...]  # (seat, action) from the position to a node


class WalkError(Exception):
    """The program broke the protocol, or refused a step of a position or a legal action."""


class Program:
    """A program behind the protocol: requests written by a thread (so that neither side
    blocks on a full pipe), answers read a line each, in order."""

    def __init__(self, command: Sequence[str]) -> None:
        self.process = subprocess.Popen(list(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8")
        self.next_id = 0
        hello = self.call([{"type": "hello", "protocol": PROTOCOL}])[0]
        if hello.get("type") != "hello":
            raise WalkError(f"the program answered the handshake with {hello}")

    def call(self, requests: Sequence[JSONObject]) -> list[JSONObject]:
        """Send the requests, each with a new id; their answers, in order."""
        first = self.next_id
        self.next_id += len(requests)
        text = "".join(json.dumps({"id": first + i, **r}) + "\n"
                       for i, r in enumerate(requests))
        assert self.process.stdin is not None and self.process.stdout is not None
        writer = threading.Thread(target=self._write, args=(text,), daemon=True)
        writer.start()
        answers = []
        for i in range(len(requests)):
            line = self.process.stdout.readline()
            if not line:
                raise WalkError("the program ended its output")
            answer = json.loads(line)
            if answer.get("id") != first + i:
                raise WalkError(f"the answer {answer} has the wrong id (expected {first + i})")
            answers.append(answer)
        writer.join()
        return answers

    def _write(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def close(self) -> None:
        with contextlib.suppress(WalkError, OSError, ValueError):
            self.call([{"type": "bye"}])
        self.process.kill()
        self.process.wait()


def node_requests(position: JSONObject, path: Path_) -> list[JSONObject]:
    """The requests that take the program to a node and ask what is legal there."""
    requests = [dict(position["start"])]
    requests += [{"type": "apply", "seat": s["seat"], "action": s["action"]}
                 for s in position["steps"]]
    requests += [{"type": "apply", "seat": seat, "action": action} for seat, action in path]
    requests.append({"type": "legal"})
    return requests


def legal_at(program: Program, position: JSONObject, paths: Sequence[Path_]
             ) -> Iterator[JSONObject]:
    """The ``legal`` answer at each node, the program taken to each by a replay."""
    for begin in range(0, len(paths), CHUNK):
        chunk = paths[begin:begin + CHUNK]
        plans = [node_requests(position, path) for path in chunk]
        answers = program.call([r for plan in plans for r in plan])
        at = 0
        for path, plan in zip(chunk, plans, strict=True):
            mine = answers[at:at + len(plan)]
            at += len(plan)
            for request, answer in zip(plan[:-1], mine[:-1], strict=True):
                if answer.get("type") not in ("ok", "accepted"):
                    raise WalkError(f"{position['id']}: the program answered {answer} to "
                                    f"{request} (after the path {list(path)})")
            yield mine[-1]


def walk(program: Program, position: JSONObject, depth: int) -> list[int]:
    """The counts at depths 1 to ``depth`` of the position, from the program's answers."""
    counts = [0] * (depth + 1)  # counts[d]: the leaves of the tree cut at depth d
    level: list[Path_] = [()]
    for k in range(depth):
        below: list[Path_] = []
        for path, answer in zip(level, legal_at(program, position, level), strict=True):
            turn = answer.get("turn")
            if turn in ("chance", "over"):
                for d in range(k + 1, depth + 1):  # a leaf at every depth below it
                    counts[d] += 1
                continue
            if answer.get("type") != "legal" or type(turn) is not int:
                raise WalkError(f"{position['id']}: the program answered {answer} to legal")
            actions = answer["actions"]
            counts[k + 1] += len(actions)
            if k + 1 < depth:
                below += [(*path, (turn, action)) for action in actions]
        level = below
    return counts[1:]


def positions(patterns: Sequence[str], rulesets: Sequence[str]) -> list[JSONObject]:
    """The published positions of these rulesets (every file where none is given) whose id
    matches one of the patterns (every one where none is given)."""
    found = []
    for path in sorted(PERFT.glob("*.json")):
        if rulesets and path.stem not in rulesets:
            continue
        for position in json.loads(path.read_text(encoding="utf-8"))["positions"]:
            if not patterns or any(fnmatch.fnmatchcase(position["id"], p) for p in patterns):
                found.append(position)
    return found


def check(program: Program, position: JSONObject, max_count: int) -> list[tuple[int, int, int]]:
    """(depth, walked, published) for each published depth whose count is at most
    ``max_count``."""
    wanted = [c for c in position["perft"] if c["count"] <= max_count]
    if not wanted:
        return []
    walked = walk(program, position, max(c["depth"] for c in wanted))
    return [(c["depth"], walked[c["depth"] - 1], c["count"]) for c in wanted]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python conformance/walk_perft.py",
        description="Walk the published perft positions through a program over the adapter "
                    "protocol and compare its counts with the published ones.")
    parser.add_argument("--ruleset", action="append", default=[],
                        help="the positions of this ruleset (repeatable; default: every file)")
    parser.add_argument("--position", action="append", default=[], metavar="GLOB",
                        help="the positions whose id matches (repeatable)")
    parser.add_argument("--max-count", type=int, default=2000,
                        help="walk the depths whose published count is at most this")
    parser.add_argument("command", nargs="+", help="the program, after --")
    args = parser.parse_args(argv)
    chosen = positions(args.position, args.ruleset)
    if not chosen:
        parser.error("no published position is chosen")
    program = Program(args.command)
    wrong = 0
    try:
        for position in chosen:
            for depth, walked, published in check(program, position, args.max_count):
                verdict = "ok" if walked == published else "DIFFERS"
                wrong += walked != published
                print(f"{position['id']:<45} {depth:>3} {walked:>8} {published:>8}  {verdict}")
    except WalkError as exc:
        print(f"walk_perft: {exc}", file=sys.stderr)
        return 1
    finally:
        program.close()
    print(f"{wrong} counts differ" if wrong else "every count walked agrees")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
