"""How a conformance run is ordered, listed, timed and turned into an expected-failures file.

* :class:`Order` and :func:`run_order`: ``--shuffle --seed N`` and ``--repeat N``. The selection
  runs N times in passes, each pass in the suite's order or, shuffled, in an order drawn from
  the seed (one draw per pass), so a program that leaks state from case to case meets other
  neighbours. The reports list the results in the suite's order all the same (each with its
  place in the run), so that runs of different seeds compare line by line.
* :func:`list_lines`: ``--list``, the cases a selection would run, without running them.
* :func:`timing_lines`: the slowest cases and the seconds by ruleset, for the summary.
* :func:`xfail_document`: ``--write-xfail``, the expected-failures file (napkit-xfail/1) that
  makes a run's failures expected, keeping the reasons of the entries that still fail.

>>> run_order(3, Order(repeat=2))
[(0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)]
>>> sorted(run_order(3, Order(shuffle=True, seed=7))) == [(0, 1), (1, 1), (2, 1)]
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from napkit.conform.run.runner import FAILED, SKIPPED, XFAIL, CaseResult
from napkit.conform.suite.cases import Case
from napkit.conform.suite.xfail import XFAIL_FORMAT, Expected
from napkit.output.tables import table

SLOWEST_SHOWN = 5
REASON_WIDTH = 300  # an entry's reason: the failure's first line, cut to this

__all__ = [
    "Order",
    "in_suite_order",
    "list_lines",
    "order_lines",
    "run_order",
    "timing_lines",
    "xfail_document",
    "xfail_text",
]


@dataclass(frozen=True)
class Order:
    """The order of a run: shuffled or not (with the seed of the shuffle), and how many
    times the selection runs."""

    shuffle: bool = False
    seed: int | None = None
    repeat: int = 1

    @property
    def plain(self) -> bool:
        """Each case once, in the suite's order."""
        return not self.shuffle and self.repeat == 1

    def to_json(self) -> dict[str, Any]:
        return {"shuffle": self.shuffle, "seed": self.seed, "repeat": self.repeat}


def run_order(count: int, order: Order) -> list[tuple[int, int]]:
    """The run as ``(index in the selection, repetition from 1)``, in the order the cases
    run: the selection once per repetition, each pass shuffled by a generator seeded with
    ``order.seed`` when ``order.shuffle``."""
    draw = random.Random(order.seed)
    run: list[tuple[int, int]] = []
    for repetition in range(1, order.repeat + 1):
        indices = list(range(count))
        if order.shuffle:
            draw.shuffle(indices)
        run += [(i, repetition) for i in indices]
    return run


def in_suite_order(results: Sequence[CaseResult], run: Sequence[tuple[int, int]],
                   order: Order) -> list[CaseResult]:
    """The results of a run made in ``run`` order (the first ``len(results)`` of it, a run
    may stop early), each marked with its place in the run and its repetition, back in the
    selection's order (by case, then repetition). A plain run is left as it is."""
    if order.plain:
        return list(results)
    marked = [(run[k], replace(r, ran=k + 1, repetition=run[k][1]))
              for k, r in enumerate(results)]
    return [r for _, r in sorted(marked, key=lambda item: item[0])]


def list_lines(cases: Sequence[Case], quiet: bool = False) -> list[str]:
    """``--list``: one line a case, ``ID KIND RULESET`` (``-q``: the ids alone)."""
    if quiet:
        return [case.id for case in cases]
    return table(None, [[case.id, case.kind, case.ruleset] for case in cases], widths=(0, 7))


def timing_lines(results: Sequence[CaseResult], shown: int = SLOWEST_SHOWN) -> list[str]:
    """The slowest cases run and the seconds spent in each ruleset's cases (skips take
    none), for the terminal summary; nothing if no case ran."""
    ran = [r for r in results if r.status != SKIPPED]
    if not ran:
        return []
    slowest = sorted(ran, key=lambda r: -r.duration)[:shown]
    lines = [f"slowest {len(slowest)} {'case' if len(slowest) == 1 else 'cases'}:"]
    lines += [f"  {r.duration:8.3f} s  {r.id}" + (f" (repetition {r.repetition})"
                                                  if r.repetition > 1 else "")
              for r in slowest]
    by_ruleset: dict[str, list[float]] = {}
    for r in ran:
        by_ruleset.setdefault(r.case.ruleset, []).append(r.duration)
    rows: list[list[str | int]] = [
        [f"  {name}", len(times), f"{sum(times):.3f}", f"{1000 * sum(times) / len(times):.1f} ms"]
        for name, times in sorted(by_ruleset.items())]
    lines += table(["seconds by ruleset", "cases", "seconds", "per case"], rows, "<>>>",
                   gap=(1, 2), widths=(20, 5, 8, 9))
    lines.append("")
    return lines


def order_lines(results: Sequence[CaseResult], order: dict[str, Any] | None,
                shown: int = 20) -> list[str]:
    """For a shuffled or repeated run: how to run it again in the same order, and for each
    failure the case that ran just before it (with ``-j 1``, the one the program served just
    before; with ``-j N``, the one before in the run's order)."""
    if not order:
        return []
    by_place = {r.ran: r for r in results if r.ran}
    again = (f"--shuffle --seed {order['seed']}" if order.get("shuffle") else "") + (
        f" --repeat {order['repeat']}" if order.get("repeat", 1) > 1 else "")
    lines = [f"order: the run again in the same order: the same filters with {again.strip()}"]
    for r in [r for r in results if r.bad][:shown]:
        before = by_place.get(r.ran - 1)
        after = f", after {before.id}" + (f" (repetition {before.repetition})"
                                          if before.repetition > 1 else "") if before else ""
        lines.append(f"  {r.id}" + (f" (repetition {r.repetition})" if r.repetition > 1
                                    else "") + f" ran {r.ran}{_nth(r.ran)}{after}")
    return lines


def _nth(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _one_line(message: str) -> str:
    first = " ".join((message.splitlines() or [""])[0].split())
    first = first or "fails"
    return first if len(first) <= REASON_WIDTH else first[:REASON_WIDTH - 3] + "..."


def xfail_document(results: Sequence[CaseResult], old: Expected) -> tuple[
        dict[str, Any], dict[str, int]]:
    """The expected-failures file after a run: ``old``'s entries for the cases the run did not
    judge (not selected, skipped) kept as they are; each case that failed (in any repetition)
    expected, with its entry's own reason where it had one, else the failure's first line; a
    case entry whose case now passes deleted; a rule entry deleted when every case of it that
    ran passed, and replaced by entries for its failing cases (with its reason) when some
    passed and some failed, so that a rerun with the file has no unexpected pass. Also
    returned: how many case entries were ``added`` and ``deleted``."""
    failing: dict[str, CaseResult] = {}
    passing: dict[str, Case] = {}
    for r in results:
        if r.status == SKIPPED:
            continue
        if r.status in (FAILED, XFAIL):
            failing.setdefault(r.id, r)
        else:
            passing[r.id] = r.case
    passing = {k: c for k, c in passing.items() if k not in failing}
    cases, rules = dict(old.cases), dict(old.rules)
    added = deleted = 0
    for rule in sorted(old.rules):
        covers = [c for c in passing.values() if rule in c.rules]
        if not covers:
            continue
        del rules[rule]  # some of its cases pass: no longer every case of the rule fails
        for case_id, r in failing.items():
            if case_id not in cases and rule in r.case.rules:
                cases[case_id] = f"{rule}: {old.rules[rule]}"
    for case_id in passing:
        if cases.pop(case_id, None) is not None:
            deleted += 1
    for case_id, r in sorted(failing.items()):
        if case_id in cases or any(rule in rules for rule in r.case.rules):
            continue
        cases[case_id] = _one_line(r.message)
        added += 1
    document = {"format": XFAIL_FORMAT, "cases": dict(sorted(cases.items())),
                "rules": dict(sorted(rules.items()))}
    return document, {"added": added, "deleted": deleted}


def xfail_text(document: dict[str, Any]) -> str:
    """An expected-failures file's text: one entry a line, sorted, so that it diffs well."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
