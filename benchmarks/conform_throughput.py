"""Conformance throughput: cases per second against the reference engine in this process, and
through the adapter protocol (``python -m napkit.protocol.adapter`` in its own process, JSON Lines
over
pipes), in the same run.

Run from the repository root::

    .venv/bin/python benchmarks/conform_throughput.py                 # the suite, best of 3
    .venv/bin/python benchmarks/conform_throughput.py --repeats 5
    .venv/bin/python benchmarks/conform_throughput.py --made 600      # cases made here

Both ways run the very same cases through the very same harness (napkit.conform.run.runner: every
response checked against the adapter schema, every comparison made); only the channel differs.
In process, :class:`napkit.protocol.adapter.Adapter` answers each request dict directly; through the
protocol, each case's requests are written as lines to the adapter process and its answers
read back. The cases are the suite's (``conformance/cases``, or ``--suite``) or, with
``--made N``, made here from random hands of the engine's: for each hand, a ``legal`` case
(the legal actions before every player's step), an ``outcome`` case and an ``illegal`` case
(a card that breaks a rule, with the rule the engine names).

It prints cases per second each way and the ratio protocol/in-process of the time per case.
Target (issue 6): the protocol at no more than 2x the in-process time. Starting the process and
its handshake happen once per run and are timed apart.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from napkit.cli.conform import reference_command
from napkit.conform.run.runner import PASSED, run_suite
from napkit.conform.suite.cases import Case, default_suite_dir, load_suite
from napkit.engine.actions import Action, Play
from napkit.engine.cards import cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.state import CHANCE
from napkit.errors import IllegalActionError
from napkit.formats.records import hand_outcome, step_to_json
from napkit.formats.values import action_to_json
from napkit.protocol.process import Channel, Session, in_process_opener, process_opener

TABLES: tuple[tuple[str, int], ...] = (("pagat", 4), ("pagat-floater", 5), ("classic", 3),
                                       ("peep", 6))


# --- cases made from random hands --------------------------------------------------------------
def make_cases(count: int, seed: int) -> list[Case]:
    """About ``count`` cases (a third of each kind) from random hands of a few rulesets."""
    rng = random.Random(seed)
    cases: list[Case] = []
    n = 0
    while len(cases) < count:
        ruleset, players = TABLES[n % len(TABLES)]
        cases.extend(_hand_cases(Game.create(ruleset, players), rng, n))
        n += 1
    return cases[:count]


def _hand_cases(game: Game, rng: random.Random, n: int) -> list[Case]:
    state = game.new_hand(dealer=n % game.players)
    steps: list[dict[str, object]] = []
    legal_steps: list[dict[str, object]] = []
    illegal: tuple[list[dict[str, object]], dict[str, object]] | None = None
    while not state.is_over():
        action: Action
        if state.turn == CHANCE:
            action = state.sample_chance(rng)
            step = step_to_json(CHANCE, action)
            steps.append(step)
            legal_steps.append(step)
        else:
            legal = state.legal_actions()
            if illegal is None:
                illegal = _refusal(state, legal, list(steps))
            action = rng.choice(legal)
            step = step_to_json(state.turn, action)
            steps.append(step)
            legal_steps.append({**step, "legal": [action_to_json(a) for a in legal]})
        state = state.apply(action)
    start = {"type": "start-hand", "ruleset": game.id, "options": dict(game.options),
             "players": game.players, "dealer": n % game.players,
             "seats": list(range(game.players)), "pool": 0, "funds": None, "stakes": 1}
    here = Path(f"bench/{n}")
    made = [_case(game, f"legal/h{n}", "legal", start, legal_steps, {}, here),
            _case(game, f"outcome/h{n}", "outcome", start, steps,
                  {"outcome": hand_outcome(state)}, here)]
    if illegal is not None:
        before, refuse = illegal
        made.append(_case(game, f"illegal/h{n}", "illegal", start, before, {"refuse": refuse},
                          here, rule=str(refuse["rule"])))
    return made


def _refusal(state: HandState, legal: Sequence[Action], before: list[dict[str, object]]) -> tuple[
        list[dict[str, object]], dict[str, object]] | None:
    """A card the player to act holds but may not play now, and the rule it breaks."""
    allowed = set(legal)
    for card in cards_of(state.hands[state.turn]):
        action = Play(card)
        if action in allowed:
            continue
        try:
            state.apply(action)
        except IllegalActionError as exc:
            return before, {"seat": state.turn, "action": action_to_json(action),
                            "rule": exc.rule}
    return None


def _case(game: Game, name: str, kind: str, start: dict[str, object],
          steps: list[dict[str, object]], expect: dict[str, object], path: Path,
          rule: str = "NAP-8.1.1") -> Case:
    return Case(id=f"{game.id}/{name}", kind=kind, ruleset=game.id, options=dict(game.options),
                players=game.players, rules=(rule,), tags=("generated",),
                description="benchmark", start=start, steps=tuple(steps), expect=expect,
                path=path)


# --- timing ------------------------------------------------------------------------------------
def time_run(opener: Callable[[], Channel], cases: Sequence[Case]) -> tuple[float, float, int]:
    """(seconds to start and shake hands, seconds to run the cases, cases passed)."""
    session = Session(opener, timeout=30.0)
    began = time.perf_counter()
    hello = session.open()
    started = time.perf_counter()
    results = run_suite(cases, session, hello.supports)
    ran = time.perf_counter()
    session.close()
    return started - began, ran - started, sum(r.status == PASSED for r in results)


def measure(cases: Sequence[Case], repeats: int) -> dict[str, tuple[float, float]]:
    """Best (run seconds, start seconds) of ``repeats`` for each way, taking turns."""
    ways: dict[str, Callable[[], Channel]] = {
        "in-process": in_process_opener(),
        "protocol": process_opener(reference_command()),
    }
    best: dict[str, tuple[float, float]] = {}
    for _ in range(repeats):
        for name, opener in ways.items():
            start, run, passed = time_run(opener, cases)
            if passed != len(cases):
                raise SystemExit(f"{name}: only {passed} of {len(cases)} cases passed")
            if name not in best or run < best[name][0]:
                best[name] = (run, start)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, default=None,
                        help="the suite to run (default: conformance/cases)")
    parser.add_argument("--made", type=int, metavar="N",
                        help="run N cases made from random hands instead of the suite")
    parser.add_argument("--repeats", type=int, default=3, help="timings each way (best kept)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the made cases")
    args = parser.parse_args(argv)
    if args.made is not None:
        cases = make_cases(args.made, args.seed)
        what = "made from random hands"
    else:
        root = args.suite or default_suite_dir()
        cases, problems = load_suite(root)
        if not cases:
            print(f"no case in {root} (use --made N to make some)", file=sys.stderr)
            return 1
        what = f"of {root}" + (f" ({len(problems)} bad files left out)" if problems else "")
    requests = sum(len(c.steps) + sum("legal" in s for s in c.steps) + 2 for c in cases)
    print(f"{len(cases)} cases {what}, {requests / len(cases):.0f} requests a case; best of "
          f"{args.repeats}")
    best = measure(cases, args.repeats)
    for name, (run, start) in best.items():
        print(f"{name:<11} {len(cases) / run:8.0f} cases/s  {run * 1e6 / requests:6.1f} us a "
              f"request  (start and handshake {start * 1e3:.0f} ms)")
    ratio = best["protocol"][0] / best["in-process"][0]
    print(f"protocol/in-process time per case: {ratio:.2f}x (target: at most 2x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
