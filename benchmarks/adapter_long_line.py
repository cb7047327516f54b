"""What one long request line costs the adapter: time to its answer and the process's peak
memory. A line over the protocol's limit (16 MiB, spec/conformance.md 2.1) must be refused in
linear time without being kept; one under it read in linear time.

Run from the repository root::

    .venv/bin/python benchmarks/adapter_long_line.py                  # 100 MB and 16 MB lines
    .venv/bin/python benchmarks/adapter_long_line.py --sizes 100 16 1 --repeats 3
    .venv/bin/python benchmarks/adapter_long_line.py --command "python old_adapter.py"

Each measurement is a new adapter process (``python -m napkit.protocol.adapter``, or ``--command``):
its handshake and one session (below) first, untimed (starting Python and the engine's first
tables are not the line's cost), then the timed part, from the first byte written to the last
answer read, then ``bye``. Its peak resident memory
is the operating system's figure for that child once it has exited (``os.wait4``, as
record_memory.py takes it), so it covers the whole process. Rows:

- ``line N MB``: one request line of N x 10^6 bytes, ``{"id": 1, "type": "legal", "pad":
  "xxx..."}``: JSON, so that a line within the limit is read, decoded and parsed whole (and
  refused for its unexpected field); a line over it is refused unread;
- ``session``: a case of the conformance suite (its start, every step's ``legal`` and
  ``apply``), the requests of a normal run, for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

HELLO = b'{"id": 0, "type": "hello", "protocol": "napkit-adapter/1"}\n'
BYE = b'{"id": 999999, "type": "bye"}\n'
CASE = Path(__file__).resolve().parent.parent / "conformance" / "cases" / "pagat" / "legal"


def long_line(size: int) -> list[bytes]:
    """A request line of ``size`` bytes (its newline included), a legal request padded, in
    pieces of at most 1 MiB: written piece by piece, it is never whole in this process (a
    child's peak memory counts what it shared with this process when it was started)."""
    head, tail = b'{"id": 1, "type": "legal", "pad": "', b'"}\n'
    pad = max(0, size - len(head) - len(tail))
    piece = b"x" * (1 << 20)
    return [head, *[piece] * (pad >> 20), piece[:pad & ((1 << 20) - 1)], tail]


def session_lines() -> tuple[bytes, int]:
    """The request lines of one conformance case (the first pagat legal case), and how many."""
    case = json.loads(min(CASE.glob("*.json")).read_text(encoding="utf-8"))
    requests = [case["start"]]
    for step in case["steps"]:
        if "legal" in step:
            requests.append({"type": "legal"})
        requests.append({"type": "apply", "seat": step["seat"], "action": step["action"]})
    return b"".join(json.dumps({"id": i + 1, **r}).encode() + b"\n"
                    for i, r in enumerate(requests)), len(requests)


def read_lines(fd: int, count: int) -> list[bytes]:
    """``count`` lines read from ``fd`` (SystemExit if it ends first)."""
    data = b""
    while data.count(b"\n") < count:
        more = os.read(fd, 1 << 16)
        if not more:
            raise SystemExit(f"the adapter stopped after {len(data.splitlines())} answers")
        data += more
    return data.splitlines()


def measure(command: list[str], warm: bytes, payload: list[bytes], answers: int) -> tuple[
        float, float, bytes]:
    """(seconds from the first byte of ``payload`` to its last answer, the process's peak
    resident MiB, its first answer) for one new adapter process, after the handshake and the
    ``warm`` lines, untimed."""
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=0)
    assert child.stdin is not None and child.stdout is not None
    out = child.stdout.fileno()
    child.stdin.write(HELLO + warm)
    read_lines(out, 1 + warm.count(b"\n"))
    start = time.perf_counter()
    for piece in payload:  # the adapter reads as it comes: the pipe never fills for good
        child.stdin.write(piece)
    got = read_lines(out, answers)
    seconds = time.perf_counter() - start
    child.stdin.write(BYE)
    child.stdin.close()
    child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {child.returncode}")
    return seconds, usage.ru_maxrss / 1024, got[0]  # ru_maxrss is in KiB on Linux


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[100, 16],
                        help="line sizes in MB (10^6 bytes); default: 100 16")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each; the best shown")
    parser.add_argument("--command",
                        default=f"{shlex.quote(sys.executable)} -m napkit.protocol.adapter",
                        help="the adapter to run (default: python -m napkit.protocol.adapter)")
    args = parser.parse_args(argv)
    command = shlex.split(args.command)
    session, count = session_lines()
    rows = [(f"line {size:g} MB", long_line(int(size * 1_000_000)), 1) for size in args.sizes]
    rows.append((f"session ({count} requests)", [session], count))
    print(f"{'input':<24} {'bytes':>12}  {'seconds':>8}  {'peak MiB':>8}  answer")
    for label, payload, answers in rows:
        runs = [measure(command, session, payload, answers) for _ in range(args.repeats)]
        seconds, mib, first = min(runs)
        shown = first.decode(errors="replace")
        shown = shown if len(shown) <= 90 else shown[:87] + "..."
        size = sum(map(len, payload))
        print(f"{label:<24} {size:>12,}  {seconds:>8.4f}  {mib:>8.1f}  {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
