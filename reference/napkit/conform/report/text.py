"""Reports of a conformance run: the terminal summary, JSON, JUnit XML and TAP.

Every report is written by napkit's one policy for outputs (:mod:`napkit.output.files`): a file
whole or not at all, into a temporary file beside it then renamed over it (``os.replace``), so
a reader (a CI step, a browser) never sees half a report and an interrupted run leaves the
last complete one in place; ``-`` (standard output), a FIFO or a device written directly.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from napkit.conform.run.control import order_lines, timing_lines
from napkit.conform.run.runner import (
    FAILED,
    PASSED,
    RULE_NOT_NAMED,
    SKIPPED,
    STATUSES,
    XFAIL,
    XPASS,
    CaseResult,
    nothing_checked,
    run_ok,
)
from napkit.conform.suite.support import skip_cause
from napkit.output.files import OutputFile, write_text
from napkit.output.progress import Progress as _Progress
from napkit.output.tables import printable, printable_lines
from napkit.output.tables import table as text_table

if TYPE_CHECKING:
    from napkit.conform.report.failure import Failure

REPORT_FORMAT = "napkit-conform-report/1"
HEADINGS = {PASSED: "passed", FAILED: "failed", SKIPPED: "skipped", XFAIL: "xfail",
            XPASS: "xpass"}
FAILURES_SHOWN = 20  # failures printed in the terminal (without -v); the reports have them all
FAILURES_DRAWN = 3  # of those, drawn in full as a hand (napkit.conform.report.failure)


@dataclass(frozen=True)
class Selection:
    """Which cases a run chose, as its JSON report keeps it for ``napkit report merge``: the
    filters (by :class:`~napkit.conform.suite.cases.Filters` field), the expected-failures file, how
    many cases the filters chose before any ``--shard``, and a digest of those cases (their
    ids and files, :func:`napkit.conform.run.shards.cases_digest`)."""

    filters: dict[str, list[str]]
    xfail: str | None
    cases: int
    digest: str

    def to_json(self) -> dict[str, Any]:
        return {"filters": self.filters, "xfail": self.xfail, "cases": self.cases,
                "digest": self.digest}


@dataclass
class Run:
    """A finished run: what ran, against what, and how each case went."""

    results: list[CaseResult]
    program: str  # "napkit 0.1.0"
    command: list[str]  # the program's command line ([] in-process)
    suite: str
    elapsed: float
    selected: int  # cases chosen by the filters (some may not have run, with --exitfirst)
    notes: list[str] = field(default_factory=list)  # warnings worth keeping with the report
    stopped: str = "after the first failure"  # why cases selected were not run, if some were
    selection: Selection | None = None  # the whole selection, before --shard
    shard: tuple[int, int] | None = None  # (K, N) of --shard K/N
    jobs: int = 1  # the program's processes at once (-j); not in the JSON report
    interrupted: bool = False  # stopped by Ctrl-C: the cases not run are counted as such
    versions: dict[str, str | None] | None = None  # suite, lawbook, napkit, program
    order: dict[str, Any] | None = None  # {"shuffle", "seed", "repeat"} (control.Order)
    # Each failure drawn as a hand, by its place in results (napkit.conform.report.failure).
    failures: dict[int, Failure] = field(default_factory=dict)

    @property
    def counts(self) -> Counter[str]:
        return Counter(r.status for r in self.results)

    @property
    def ok(self) -> bool:
        return run_ok(self.counts, self.interrupted)

    def by(self, key: str) -> dict[str, Counter[str]]:
        """Counts by status for each ruleset (``key="ruleset"``) or each rule id (``"rule"``):
        a case counts once under every rule it exercises."""
        table: dict[str, Counter[str]] = {}
        for r in self.results:
            for name in (r.case.rules if key == "rule" else (r.case.ruleset,)):
                table.setdefault(name, Counter())[r.status] += 1
        order = rule_order if key == "rule" else str
        return {name: table[name] for name in sorted(table, key=order)}


    def by_blamed_rule(self) -> dict[str, Counter[str]]:
        """The by-rule table: a failure (or an expected failure) counted once, against the rule
        it is put down to (:mod:`napkit.conform.report.failure`), a pass, skip or unexpected pass
        against every rule the case exercises, and ``touching``: every case exercising the
        rule, whatever became of it."""
        table: dict[str, Counter[str]] = {}
        for n, r in enumerate(self.results):
            for name in r.case.rules:
                row = table.setdefault(name, Counter())
                row[TOUCHING] += 1
                if r.status not in (FAILED, XFAIL):
                    row[r.status] += 1
            if r.status in (FAILED, XFAIL) and n in self.failures:
                for name in self.failures[n].blamed:
                    table.setdefault(name, Counter())[r.status] += 1
        return {name: table[name] for name in sorted(table, key=rule_order)}


TOUCHING = "touching"  # the by-rule table's column of cases exercising the rule


def rule_order(rule: str) -> tuple[int, ...]:
    """NAP-8.10.1 after NAP-8.9.1: by the numbers, not the text."""
    return tuple(int(n) for n in re.findall(r"\d+", rule))


# --- the terminal -----------------------------------------------------------------------------
def skipped_by_declaration(cases: list[dict[str, Any]]) -> dict[str, int]:
    """How many skipped cases each declaration of the handshake leaves out, the most first
    (napkit.conform.suite.support.skip_cause)."""
    causes = Counter(skip_cause(c["ruleset"], c.get("message", "")) for c in cases
                     if c["status"] == SKIPPED)
    return dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0])))


def summary_lines(run: Run, tables: bool = True, verbose: bool = False) -> list[str]:
    """The summary printed at the end of a run: the tables by ruleset and by rule, the
    failures (the first few drawn in full, every one with ``verbose``), and the totals, each
    line printable (what the program said, its name, its reasons, its standard error, is
    text from outside: napkit.output.tables.printable_lines)."""
    lines: list[str] = []
    if tables and run.results:
        lines += _table("ruleset", run.by("ruleset"))
        lines.append("")
        lines += _rule_table(run, verbose)
        lines.append("")
        lines += timing_lines(run.results)
    bad = [(n, r) for n, r in enumerate(run.results) if r.bad]
    drawn = len(bad) if verbose else FAILURES_DRAWN
    for shown, (n, r) in enumerate(bad[:len(bad) if verbose else FAILURES_SHOWN]):
        lines += failure_lines(r, run.failures.get(n) if shown < drawn else None)
    if len(bad) > FAILURES_SHOWN and not verbose:
        lines.append(f"... and {len(bad) - FAILURES_SHOWN} more (-v shows them all; --json, "
                     "--junit or --tap list them all)")
    if len(bad) > drawn and any(n in run.failures for n, _ in bad[drawn:]):
        lines.append(f"(the first {drawn} failures are drawn in full, the others one line each: "
                     "-v draws every one)")
    skipped = Counter(skip_cause(r.case.ruleset, r.message) for r in run.results
                      if r.status == SKIPPED)
    if skipped and tables:
        lines.append("skipped, by what the program declares (declare more to run them):")
        for cause, n in sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))[:12]:
            lines.append(f"  {n:>5}  {cause}")
        if len(skipped) > 12:
            lines.append(f"  ... and {len(skipped) - 12} more (--json lists them all)")
        lines.append("")
    unnamed = sum(r.note == RULE_NOT_NAMED for r in run.results)
    if unnamed:
        lines.append(f"note: {unnamed} illegal {_plural(unnamed, 'case')} passed with the "
                     "action refused but no rule named")
    lines += [f"note: {n}" for n in run.notes]
    lines += order_lines(run.results, run.order)
    lines.append(totals_line(run))
    return printable_lines(lines)


def failure_lines(r: CaseResult, failure: Failure | None = None) -> list[str]:
    """A failure's lines: one, or with ``failure`` the hand drawn under it."""
    if r.status == XPASS:
        return [f"UNEXPECTED PASS {r.id} (expected to fail: {r.reason})"
                + (f": {r.message}" if r.message else "")]
    lines = [f"FAILED {r.id}: {r.message}"]
    if r.stderr:
        lines.append("  its standard error ended with:")
        lines += [f"  | {line}" for line in r.stderr.splitlines()]
    if failure is not None:
        lines += [*failure.lines(), ""]
    return lines


def totals_line(run: Run) -> str:
    counts = run.counts
    n = len(run.results)
    parts = [f"{counts[s]} {HEADINGS[s]}" for s in STATUSES if counts[s] or s in (PASSED, FAILED)]
    rate = f", {n / run.elapsed:.0f} cases/s" if run.elapsed > 0 and n else ""
    not_run = run.selected - n
    stopped = f" (stopped {run.stopped}; {not_run} not run)" if not_run else ""
    verdict = ("INTERRUPTED" if run.interrupted else "ok" if run.ok
               else "NOTHING CHECKED" if nothing_checked(counts) else "FAILED")
    shard = ""
    if run.shard is not None:
        whole = f" of {run.selection.cases}" if run.selection is not None else ""
        shard = f" (shard {run.shard[0]}/{run.shard[1]}{whole})"
    return (f"{verdict}: {n} {_plural(n, 'case')}{shard} against {run.program}: "
            f"{', '.join(parts)}{stopped} in {run.elapsed:.1f} s{rate}")


def _table(title: str, rows: dict[str, Counter[str]]) -> list[str]:
    return text_table([f"by {title}", *(HEADINGS[s] for s in STATUSES)],
                      [[name, *(counts[s] for s in STATUSES)] for name, counts in rows.items()],
                      gap=(4, 2), widths=(0, *(7 for _ in STATUSES)))


def _rule_table(run: Run, verbose: bool = False) -> list[str]:
    """The table by rule: failures put down to the rule of the step that failed, and the cases
    touching each rule in a column of their own (:meth:`Run.by_blamed_rule`). Without
    ``verbose``, only the rules with a case that did not simply pass: the ninety rows of a
    clean run pushed the summary off the screen (issue 30)."""
    rows = run.by_blamed_rule()
    if not rows:
        return []
    columns = (*STATUSES, TOUCHING)
    # a rule's row is worth a look where a case exercising it did not pass, whatever it was
    # put down to
    shown = {name: counts for name, counts in rows.items()
             if verbose or counts[TOUCHING] != counts[PASSED]
             or any(counts[s] for s in STATUSES if s != PASSED)}
    clean = len(rows) - len(shown)
    lines = text_table(["by rule", *columns],
                       [[name, *(counts[c] for c in columns)] for name, counts in shown.items()],
                       gap=(4, 2), widths=(10, *(7 for _ in columns))) if shown else []
    if clean:
        lines.append(f"{'and ' if shown else ''}{clean} {_plural(clean, 'rule')} whose every "
                     "case passed (-v lists every rule)")
    lines.append("(a failure counts once, against the rule of the step that failed; "
                 f"{TOUCHING}: every case exercising the rule)")
    unblamed = sum(1 for n, r in enumerate(run.results) if r.status in (FAILED, XFAIL)
                   and not (n in run.failures and run.failures[n].blamed))
    if unblamed:
        lines.append(f"({unblamed} {_plural(unblamed, 'failure')} put down to no rule: the "
                     "start, or the program broke the protocol)")
    return lines


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


# --- JSON -------------------------------------------------------------------------------------
def json_report(run: Run) -> str:
    document = report_document(
        program={"name": run.program, "command": run.command}, suite=run.suite,
        selection=None if run.selection is None else run.selection.to_json(),
        shard=None if run.shard is None else {"index": run.shard[0], "count": run.shard[1]},
        elapsed=run.elapsed, selected=run.selected, notes=run.notes,
        cases=[_case_json(r, run.failures.get(n)) for n, r in enumerate(run.results)],
        interrupted=run.interrupted,
        versions=run.versions, order=run.order)
    return dump_report(document)


def report_document(*, program: dict[str, Any], suite: str, selection: dict[str, Any] | None,
                    shard: dict[str, int] | None, elapsed: float, selected: int,
                    notes: list[str], cases: list[dict[str, Any]], interrupted: bool = False,
                    versions: dict[str, Any] | None = None,
                    order: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON report (``napkit-conform-report/1``) from its parts, its totals and tables
    counted from its ``cases`` (as :func:`_case_json` writes them): one function for a run's
    report and for shards' reports merged (:mod:`napkit.conform.run.shards`), so that the two
    are alike to the byte where their cases are."""
    def counts(c: Counter[str]) -> dict[str, int]:
        return {s: c[s] for s in STATUSES}

    seconds: Counter[str] = Counter()  # the cases' durations summed, by ruleset
    for c in cases:
        seconds[c["ruleset"]] += c.get("duration", 0)

    statuses = Counter(c["status"] for c in cases)
    by_ruleset: dict[str, Counter[str]] = {}
    by_rule: dict[str, Counter[str]] = {}
    for c in cases:
        by_ruleset.setdefault(c["ruleset"], Counter())[c["status"]] += 1
        for rule in c["rules"]:
            by_rule.setdefault(rule, Counter())[c["status"]] += 1
    document: dict[str, Any] = {"format": REPORT_FORMAT, "program": program, "suite": suite}
    if selection is not None:  # new fields go after the old, which keep their order
        document["selection"] = selection
        document["shard"] = shard
    document.update({
        "ok": run_ok(statuses, interrupted),
        "elapsed": round(elapsed, 3),
        "totals": {"cases": len(cases), "selected": selected, **counts(statuses),
                   "rule_not_named": sum(c.get("note") == RULE_NOT_NAMED for c in cases),
                   "not_run": max(0, selected - len(cases)),
                   "seconds": round(sum(seconds.values()), 6)},
        "by_ruleset": {k: {**counts(by_ruleset[k]), "seconds": round(seconds[k], 6)}
                       for k in sorted(by_ruleset)},
        "by_rule": {k: counts(by_rule[k]) for k in sorted(by_rule, key=rule_order)},
        "by_blamed_rule": _blamed_counts(cases),
        "skipped_by_declaration": skipped_by_declaration(cases),
        "notes": notes,
        "interrupted": interrupted,
        "versions": versions,
        "order": order,
        "cases": cases,
    })
    return document


def dump_report(document: dict[str, Any]) -> str:
    """A JSON report's text (:func:`json_text`)."""
    return json_text(document, indent=1) + "\n"


# What json.dumps leaves raw with ensure_ascii=False and a terminal acts on (DEL, C1 controls
# such as CSI) or a reader takes for a line break: only ever inside a string, so written as
# \uXXXX, the same JSON; a report written to '-' is printed as it is.
_JSON_RAW = re.compile("[\x7f-\x9f\u2028\u2029]")


def json_text(value: Any, indent: int | None = None) -> str:
    """JSON with its non-ASCII characters as they are (``♠``), but nothing a terminal would
    act on: every control character escaped."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _blamed_counts(cases: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """For each rule, the failures and expected failures put down to it (a case's ``blamed``)."""
    table: dict[str, Counter[str]] = {}
    for c in cases:
        if c["status"] in (FAILED, XFAIL):
            for rule in c.get("blamed", ()):
                table.setdefault(rule, Counter())[c["status"]] += 1
    return {k: {FAILED: table[k][FAILED], XFAIL: table[k][XFAIL]}
            for k in sorted(table, key=rule_order)}


def _case_json(r: CaseResult, failure: Failure | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": r.id, "ruleset": r.case.ruleset, "kind": r.case.kind,
                           "rules": list(r.case.rules), "status": r.status,
                           "duration": round(r.duration, 6)}
    if r.status in (FAILED, XFAIL, SKIPPED, XPASS) and r.message:
        out["message"] = r.message
    if r.where:
        out["where"] = r.where
    if r.status in (FAILED, XFAIL) and (r.expected is not None or r.got is not None):
        out["expected"], out["got"] = r.expected, r.got
    for name in ("note", "reason", "stderr", "ran", "repetition"):
        if getattr(r, name):
            out[name] = getattr(r, name)
    if failure is not None:  # spec/conformance.md 8
        out["blamed"] = list(failure.blamed)
        out["failure"] = failure.to_json()
    return out


# --- JUnit XML --------------------------------------------------------------------------------
# XML 1.0 holds DEL and the C1 controls, but a terminal acts on them (--junit -): out too.
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")


def _xml(text: str) -> str:
    """Text XML 1.0 can hold (a program's standard error may have control characters), and
    nothing a terminal would act on."""
    return _XML_BAD.sub("?", text)


def junit_report(run: Run) -> str:
    import xml.etree.ElementTree as ET  # here: a run without --junit needs none

    counts = run.counts
    name = "napkit conform" + ("" if run.shard is None else f" (shard {run.shard[0]}/"
                                                           f"{run.shard[1]})")
    root = ET.Element("testsuites", name=name, tests=str(len(run.results)),
                      failures=str(counts[FAILED] + counts[XPASS]), errors="0",
                      skipped=str(counts[SKIPPED] + counts[XFAIL]), time=f"{run.elapsed:.3f}")
    suites: dict[str, ET.Element] = {}
    tallies: dict[str, Counter[str]] = {}
    for n, r in enumerate(run.results):
        ruleset = r.case.ruleset
        if ruleset not in suites:
            suites[ruleset] = ET.SubElement(root, "testsuite", name=ruleset)
            tallies[ruleset] = Counter()
        tally = tallies[ruleset]
        tally[r.status] += 1
        tally["time_us"] += round(r.duration * 1e6)
        case = ET.SubElement(suites[ruleset], "testcase", classname=f"{ruleset}.{r.case.kind}",
                             name=r.id, time=f"{r.duration:.6f}")
        if r.status == FAILED:
            body = [r.message]
            if r.stderr:
                body += ["", "standard error:", *r.stderr.splitlines()]
            if n in run.failures:
                body += ["", *run.failures[n].lines()]
            failure = ET.SubElement(case, "failure", message=_xml(_first_line(r.message)),
                                    type=r.where or "failed")
            # Each line printable, as the terminal's: the program's text may hold a line
            # break or a carriage return, which would make a line of its own here.
            failure.text = _xml("\n".join(printable_lines(body)))
        elif r.status == XPASS:
            ET.SubElement(case, "failure", message=_xml(f"unexpected pass: {r.reason}"),
                          type="unexpected-pass")
        elif r.status == XFAIL:
            ET.SubElement(case, "skipped", message=_xml(f"expected failure: {r.reason}: "
                                                        f"{_first_line(r.message)}"))
        elif r.status == SKIPPED:
            ET.SubElement(case, "skipped", message=_xml(r.message))
        if r.note:
            ET.SubElement(case, "system-out").text = _xml(r.note)
    for ruleset, element in suites.items():
        t = tallies[ruleset]
        element.set("tests", str(sum(t[s] for s in STATUSES)))
        element.set("failures", str(t[FAILED] + t[XPASS]))
        element.set("errors", "0")
        element.set("skipped", str(t[SKIPPED] + t[XFAIL]))
        element.set("time", f"{t['time_us'] / 1e6:.6f}")
    if run.interrupted:  # an error CI shows: the cases not run are in no other testsuite
        not_run = run.selected - len(run.results)
        element = ET.SubElement(root, "testsuite", name="interrupted", tests="1",
                                failures="0", errors="1", skipped="0", time="0.000000")
        ET.SubElement(ET.SubElement(element, "testcase", classname="napkit.conform",
                                    name="interrupted", time="0.000000"), "error",
                      type="interrupted", message=f"the run was interrupted ({_stopper(run)}): "
                                                  f"{not_run} of {run.selected} cases not run")
        root.set("errors", "1")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _stopper(run: Run) -> str:
    """What interrupted the run: Ctrl-C, or SIGTERM (handled as Ctrl-C)."""
    return run.stopped.removeprefix("by ") if run.stopped.startswith("by ") else "Ctrl-C"


def _first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""


# --- TAP --------------------------------------------------------------------------------------
def tap_report(run: Run) -> str:
    """TAP version 13: one test point per case run; skips are ``# SKIP``, expected failures
    ``not ok ... # TODO``, an unexpected pass ``not ok`` (it fails the run)."""
    lines = ["TAP version 13", f"1..{len(run.results)}"]
    if run.shard is not None:
        lines.append(f"# shard {run.shard[0]}/{run.shard[1]}")
    for n, r in enumerate(run.results, 1):
        failure = run.failures.get(n - 1)
        name = r.id.replace("#", "_")
        if r.status == PASSED:
            lines.append(f"ok {n} - {name}" + (f" # {r.note}" if r.note else ""))
        elif r.status == SKIPPED:
            lines.append(f"ok {n} - {name} # SKIP {_tap_text(r.message)}")
        elif r.status == XFAIL:
            lines.append(f"not ok {n} - {name} # TODO expected failure: {_tap_text(r.reason)}")
        elif r.status == XPASS:
            lines.append(f"not ok {n} - {name} (unexpected pass; expected to fail: "
                         f"{_tap_text(r.reason)})")
        else:
            lines.append(f"not ok {n} - {name}")
        if r.status in (FAILED, XFAIL):
            lines += _tap_yaml(r, failure)
    if run.interrupted:
        lines.append(f"Bail out! interrupted ({_stopper(run)}): "
                     f"{run.selected - len(run.results)} of {run.selected} cases not run")
    return "\n".join(lines) + "\n"


def _tap_text(text: str) -> str:
    return printable(" ".join(text.replace("#", "\\#").split()))


def _tap_yaml(r: CaseResult, failure: Failure | None = None) -> list[str]:
    block = {"message": r.message, "where": r.where}
    if r.expected is not None or r.got is not None:
        block["expected"] = json.dumps(r.expected)
        block["got"] = json.dumps(r.got)
    if r.stderr:
        block["stderr"] = r.stderr
    if failure is not None:
        block["rerun"] = failure.rerun
        block["blamed"] = " ".join(failure.blamed)
        block["failure"] = "\n".join(line[2:] for line in failure.lines())
    # JSON strings are YAML strings: every value is quoted, whatever it holds.
    return ["  ---", *(f"  {k}: {json_text(v)}" for k, v in block.items()), "  ..."]


# --- writing ----------------------------------------------------------------------------------
def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file, then os.replace); a
    FIFO or a device directly (:func:`napkit.output.files.write_text`)."""
    write_text(str(path), text)


# --- progress ---------------------------------------------------------------------------------
class Progress(_Progress):
    """A progress bar of the cases on a terminal; elsewhere a line every ``every`` cases (0:
    none)."""

    def __init__(self, total: int, stream: TextIO | None = None, every: int = 1000,
                 enabled: bool = True) -> None:
        super().__init__(total, "cases", "napkit conform", stream, every=every, enabled=enabled)

    def update(self, result: CaseResult) -> None:
        self.step(bool(result.bad))


REPORTS = {"json": json_report, "junit": junit_report, "tap": tap_report}


def write_reports(run: Run, targets: Iterable[tuple[str, OutputFile]]) -> list[str]:
    """Write each asked-for report (``json``, ``junit``, ``tap``) into its output, made before
    the run (so that a place that cannot be written was refused before it); the lines to print
    for those that could not be written."""
    problems = []
    for kind, out in targets:
        try:
            out.commit(REPORTS[kind](run))
        except OSError as exc:
            problems.append(f"cannot write the {kind} report {out.path}: "
                            f"{exc.strerror or exc}")
    return problems


__all__ = ["REPORTS", "REPORT_FORMAT", "Progress", "Run", "Selection", "dump_report",
           "failure_lines", "json_report", "json_text", "junit_report", "report_document",
           "rule_order", "summary_lines", "tap_report", "totals_line", "write_atomic",
           "write_reports"]
