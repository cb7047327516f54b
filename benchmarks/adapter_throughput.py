"""CPU time of the reference adapter (``python -m napkit.protocol.adapter``) per hand and per
request, on
the requests ``napkit fuzz`` sends it, without the fuzzer's own cost.

    .venv/bin/python benchmarks/adapter_throughput.py                    # 600 episodes
    .venv/bin/python benchmarks/adapter_throughput.py --episodes 2000 --repeats 5
    .venv/bin/python benchmarks/adapter_throughput.py --save /tmp/answers.jsonl
    .venv/bin/python benchmarks/adapter_throughput.py \
        --program "node conformance/adapters/js-nap/adapter.js"

The requests of ``--episodes`` fuzzing episodes (seed 1, every ruleset, every kind: the
handshake, each start, legal before each step, the illegal tries, each step, the outcome) are
numbered as a session numbers them and written as JSON lines once; the adapter then answers
them all from a pipe, ``--repeats`` times, and the best CPU time (user and system, from the
child's resource usage) is kept, less that of an adapter that answers the handshake alone
(starting Python and napkit). ``--save FILE`` keeps the answers, to compare byte for byte
(``cmp``) with those of another version of the adapter: the adapter's answers are the same
for the same requests, whatever it remembers between them.

``--program CMD`` (repeatable) measures another program on the same requests in the same run,
beside the reference adapter (issue 31: js-nap, the second implementation): each is started
in turn, ``--repeats`` times, its best CPU time kept less its own start-up (the handshake
alone), and its hands per second of CPU printed with its ratio to the reference's.
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import subprocess
import sys
from pathlib import Path

from napkit.conform.fuzz.campaign import episode_seed
from napkit.conform.fuzz.episodes import Games, Prober, draw_episode, plan, scope_of
from napkit.conform.fuzz.shrink import Choices
from napkit.protocol.adapter import PROTOCOL, supports
from napkit.spec.catalog import default_spec

KINDS = frozenset({"legal", "illegal", "outcome", "match"})
ADAPTER = [sys.executable, "-m", "napkit.protocol.adapter"]
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # as a session writes


def conversation(episodes: int, seed: int) -> tuple[bytes, int, int]:
    """The request lines of the episodes, the handshake first and bye last; the hands they
    play; the requests."""
    spec = default_spec()
    scope = scope_of(supports(), spec.rulesets)
    games, prober = Games(spec.rulesets), Prober()
    requests: list[dict[str, object]] = [{"type": "hello", "protocol": PROTOCOL}]
    hands = 0
    for i in range(episodes):
        episode = draw_episode(scope, games, prober, Choices(seed=episode_seed(seed, i)), i)
        requests += [request for _, request, _ in plan(episode, KINDS)]
        hands += _hands(episode)
    requests.append({"type": "bye"})
    data = b"".join(_ENCODER.encode({"id": i, **r}).encode() + b"\n"
                    for i, r in enumerate(requests))
    return data, hands, len(requests)


def _hands(episode: object) -> int:
    final = getattr(episode, "final", None)
    return len(getattr(final, "hands", ())) if getattr(episode, "kind", "") == "match" else 1


def answer(data: bytes, command: list[str]) -> tuple[float, bytes]:
    """The CPU seconds the adapter took to answer ``data`` (to its exit), and its answers."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, input=data, stdout=subprocess.PIPE, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--episodes", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, help="write the adapter's answers to this file")
    parser.add_argument("--program", action="append", default=[], metavar="CMD",
                        help="another program to measure beside the reference (repeatable)")
    args = parser.parse_args()
    data, hands, requests = conversation(args.episodes, args.seed)
    hello = data[:data.index(b"\n") + 1]
    print(f"{args.episodes} episodes: {hands} hands, {requests} requests "
          f"({requests / hands:.0f} a hand), {len(data):,} bytes in")
    programs = [("reference", ADAPTER)] + [(cmd, shlex.split(cmd)) for cmd in args.program]
    starts: dict[str, list[float]] = {name: [] for name, _ in programs}
    runs: dict[str, list[tuple[float, bytes]]] = {name: [] for name, _ in programs}
    for _ in range(args.repeats):  # in turn, so that a drift of the machine's speed is shared
        for name, command in programs:
            starts[name].append(answer(hello, command)[0])
            runs[name].append(answer(data, command))
    rate: dict[str, float] = {}
    for name, _ in programs:
        start = min(starts[name])
        best, answers = min(runs[name])
        seconds = max(best - start, 1e-9)
        rate[name] = hands / seconds
        ratio = f", {rate[name] / rate['reference']:.2f} x the reference's"
        print(f"{name}: CPU {best:.2f} s, {start:.2f} s of it starting up (best of "
              f"{args.repeats}); {len(answers):,} bytes out")
        print(f"  {seconds / hands * 1e3:.3f} ms a hand, {seconds / requests * 1e6:.1f} us a "
              f"request, {rate[name]:.0f} hands/s of CPU{ratio if name != 'reference' else ''}")
        if args.save and name == "reference":
            args.save.write_bytes(answers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
