"""``napkit conform --html FILE``: a conformance run as one self-contained web page.

The page is drawn from the JSON report's document (``napkit-conform-report/1``, the dict
``--json`` writes), so that a run and a report saved earlier give the same page
(:func:`html_page`). It holds everything it shows: its style and its small script are inline,
it loads no font, script or picture, and it opens from disk. It shows the summary (the counts
by outcome, the program and its version, the suite, the time), the matrix of rules by
ruleset coloured by outcome, filterable by ruleset, outcome and rule id (set from the
address too: ``report.html?ruleset=classic&outcome=failed&rule=NAP-8.1.1``, or after ``#``),
and each failure: the case, the rule, the message, what was expected against what was
answered, and whatever else the report carries about it (the deal, the steps, the command that
reruns it), its cards drawn as cards. A field the report does not have is left out; a field
this module does not know is shown as it is.

The pieces of HTML (:func:`esc`, :func:`card_html`, :func:`value_html`, :data:`STYLE`) are
shared with the comparison site (:mod:`napkit.conform.reportsite`).
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from napkit.cli.files import OutputFile
from napkit.conform.report import Run, json_report
from napkit.conform.report import write_reports as write_other_reports
from napkit.conform.runner import FAILED, PASSED, SKIPPED, STATUSES, XFAIL, XPASS
from napkit.spec.catalog import default_spec

JSON = dict[str, Any]
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CARD = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")
CARD_IN_TEXT = re.compile(r"(?<![\w.\-])(10|[2-9JQKA])([SHDC])(?![\w\-])")
TOUCHED = "touched"  # a case exercising the rule that failed, its failure put down elsewhere
OUTCOME_WORDS = {PASSED: "passed", FAILED: "failed", SKIPPED: "skipped",
                 XFAIL: "expected failure", XPASS: "unexpected pass",
                 TOUCHED: "failed elsewhere"}
# The fields of a case drawn in their own place; any other is listed as it is.
DRAWN_PER_RULESET = 25  # failures of a ruleset drawn in full on the page; the rest shortened
CASE_FIELDS = {"id", "ruleset", "kind", "rules", "status", "duration", "message", "where",
               "expected", "got", "note", "reason", "stderr"}

STYLE = """
:root { --pass: #1b7f3b; --pass-bg: #dff3e4; --fail: #b3261e; --fail-bg: #fbe3e1;
  --skip: #5f6b73; --skip-bg: #eceff1; --xfail: #8a5a00; --xfail-bg: #fdf0d5;
  --xpass: #6a1b9a; --xpass-bg: #f1e4f7; --line: #d5dadf; --ink: #1d2329; --soft: #5f6b73; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial,
  sans-serif; color: var(--ink); margin: 0; background: #f6f7f9; }
main { max-width: 1440px; margin: 0 auto; padding: 24px 28px 60px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 32px 0 10px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; }
h3 { font-size: 16px; margin: 0; }
a { color: #0b57a4; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas,
  "DejaVu Sans Mono", monospace; font-size: 13px; }
pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px;
  overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
.verdict { display: inline-block; font-weight: 700; padding: 2px 10px; border-radius: 4px;
  color: #fff; margin-right: 8px; }
.verdict.v-ok { background: var(--pass); } .verdict.v-failed { background: var(--fail); }
.verdict.v-interrupted { background: var(--xfail); }
.sub { color: var(--soft); margin: 0 0 16px; }
.counts { display: flex; flex-wrap: wrap; gap: 10px; margin: 14px 0; }
.count { min-width: 120px; padding: 8px 14px; border-radius: 8px; border: 1px solid var(--line);
  background: #fff; }
.count b { display: block; font-size: 26px; line-height: 1.1; }
.count span { color: var(--soft); font-size: 13px; }
.count.passed b { color: var(--pass); } .count.failed b { color: var(--fail); }
.count.skipped b { color: var(--skip); } .count.xfail b { color: var(--xfail); }
.count.xpass b { color: var(--xpass); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 0;
  background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
dl.facts dt { color: var(--soft); } dl.facts dd { margin: 0; word-break: break-word; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: right; }
th { background: #eef1f4; font-weight: 600; }
td.name, th.name { text-align: left; white-space: nowrap; }
.matrix-wrap { overflow-x: auto; max-height: 75vh; overflow-y: auto;
  border: 1px solid var(--line); border-radius: 6px; }
table.matrix { font-size: 13px; }
table.matrix thead th { position: sticky; top: 0; z-index: 1; }
table.matrix th.rot { white-space: nowrap; }
table.matrix td { text-align: center; min-width: 60px; white-space: nowrap; }
table.matrix td.name { text-align: left; white-space: normal; min-width: 240px; }
td.passed, span.passed { background: var(--pass-bg); color: var(--pass); }
td.failed, span.failed { background: var(--fail-bg); color: var(--fail); font-weight: 700; }
td.skipped, span.skipped { background: var(--skip-bg); color: var(--skip); }
td.xfail, span.xfail { background: var(--xfail-bg); color: var(--xfail); }
td.xpass, span.xpass { background: var(--xpass-bg); color: var(--xpass); font-weight: 700; }
td.touched, span.touched { background: #fbf3e6; color: #7a5a2a; }
td.none { background: #fafbfc; color: #b0b8bf; }
.pill { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px;
  font-weight: 600; }
.legend { display: flex; gap: 8px; flex-wrap: wrap; margin: 6px 0; font-size: 13px; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; background: #fff;
  border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 8px 0 12px;
  position: sticky; top: 0; z-index: 2; }
.filters label { font-size: 13px; color: var(--soft); }
.filters select, .filters input { font: inherit; padding: 2px 6px; }
.failure { background: #fff; border: 1px solid var(--line); border-left: 5px solid var(--fail);
  border-radius: 6px; padding: 10px 14px; margin: 10px 0; }
.failure.xfail { border-left-color: var(--xfail); }
.failure.xpass { border-left-color: var(--xpass); }
.failure header { display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; }
.failure .meta { color: var(--soft); font-size: 13px; }
.message { margin: 6px 0; }
.versus { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; margin: 6px 0; }
.versus > div { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; }
.versus .want { background: #f3faf5; } .versus .got { background: #fdf4f3; }
.versus h4, .detail h4 { margin: 0 0 4px; font-size: 12px; text-transform: uppercase;
  letter-spacing: .04em; color: var(--soft); }
.detail { margin: 6px 0; }
.suit-gap { display: inline-block; width: 10px; }
.first { font-weight: 600; }
p.blamed { margin: 4px 0; }
table.by-seat { margin: 6px 0; }
.card { display: inline-block; min-width: 30px; padding: 1px 4px; margin: 1px 2px;
  border: 1px solid #9aa4ad; border-radius: 4px; background: #fff; text-align: center;
  font-weight: 600; font-size: 14px; line-height: 1.3; box-shadow: 0 1px 0 #cfd5da;
  white-space: nowrap; }
.card.red { color: #c0161d; } .card.black { color: #15191d; }
.action { white-space: nowrap; }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
.kv dt { color: var(--soft); } .kv dd { margin: 0; }
ol.steps { margin: 4px 0; padding-left: 34px; max-height: 260px; overflow-y: auto; }
table.seats td { text-align: left; }
.rule-title { color: var(--soft); }
.hidden { display: none !important; }
.note { color: var(--soft); font-size: 13px; }
"""

SCRIPT = """
(function () {
  var ruleset = document.getElementById('f-ruleset'),
      outcome = document.getElementById('f-outcome'), rule = document.getElementById('f-rule'),
      shown = document.getElementById('f-shown');
  function apply() {
    var rs = ruleset.value, oc = outcome.value, text = rule.value.trim().toUpperCase();
    document.querySelectorAll('[data-col]').forEach(function (el) {
      el.classList.toggle('hidden', rs !== '' && el.getAttribute('data-col') !== rs);
    });
    document.querySelectorAll('tr[data-rule]').forEach(function (row) {
      var ok = text === '' || row.getAttribute('data-rule').toUpperCase().indexOf(text) >= 0;
      if (ok && oc !== '') {
        ok = false;
        row.querySelectorAll('td[data-col]').forEach(function (cell) {
          if ((rs === '' || cell.getAttribute('data-col') === rs) &&
              (' ' + cell.getAttribute('data-has') + ' ').indexOf(' ' + oc + ' ') >= 0) ok = true;
        });
      }
      row.classList.toggle('hidden', !ok);
    });
    var n = 0;
    document.querySelectorAll('.failure').forEach(function (item) {
      var ok = (rs === '' || item.getAttribute('data-ruleset') === rs) &&
               (oc === '' || item.getAttribute('data-outcome') === oc) &&
               (text === '' || item.getAttribute('data-rules').toUpperCase().indexOf(text) >= 0);
      item.classList.toggle('hidden', !ok);
      if (ok) n += 1;
    });
    if (shown) shown.textContent = n;
  }
  function save() {
    var parts = [];
    if (ruleset.value) parts.push('ruleset=' + encodeURIComponent(ruleset.value));
    if (outcome.value) parts.push('outcome=' + encodeURIComponent(outcome.value));
    if (rule.value) parts.push('rule=' + encodeURIComponent(rule.value));
    history.replaceState(null, '', location.pathname + (parts.length ? '#' + parts.join('&')
                                                                      : ''));
    apply();
  }
  (location.search.replace(/^[?]/, '') + '&' + location.hash.replace(/^#/, '')).split('&')
      .forEach(function (part) {
    var kv = part.split('='), value = decodeURIComponent(kv[1] || '');
    if (kv[0] === 'ruleset') ruleset.value = value;
    if (kv[0] === 'outcome') outcome.value = value;
    if (kv[0] === 'rule') rule.value = value;
  });
  [ruleset, outcome].forEach(function (el) { el.addEventListener('change', save); });
  rule.addEventListener('input', save);
  apply();
})();
"""


# --- pieces of HTML shared with the comparison site -------------------------------------------
def esc(value: object) -> str:
    """Text made safe in HTML, attributes' quotes included."""
    return html.escape(str(value), quote=True)


def card_html(name: str) -> str:
    """A card (``10H``) as a card: ``10♥`` in red, ``A♠`` in black.

    >>> card_html("10H")
    '<span class="card red" title="10H">10♥</span>'
    """
    found = CARD.match(name)
    if found is None:
        return esc(name)
    rank, suit = found.groups()
    colour = "red" if suit in "HD" else "black"
    return f'<span class="card {colour}" title="{name}">{rank}{SUITS[suit]}</span>'


def cards_in_text(text: str) -> str:
    """Escaped text with each card name in it (``KC``) drawn as a card."""
    parts = []
    last = 0
    for found in CARD_IN_TEXT.finditer(text):
        parts += [esc(text[last:found.start()]), card_html(found.group(0))]
        last = found.end()
    parts.append(esc(text[last:]))
    return "".join(parts)


def is_card(value: object) -> bool:
    return isinstance(value, str) and CARD.match(value) is not None


def value_html(value: Any, depth: int = 0) -> str:
    """A JSON value as people read it: cards as cards, an action as ``play 3♦``, a list of
    cards as a row of them, an object as a small table of its fields."""
    if depth > 8:
        return f'<code>{esc(json.dumps(value, ensure_ascii=False))}</code>'
    if value is None:
        return '<span class="note">nothing (null)</span>'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return esc(value)
    if isinstance(value, str):
        return card_html(value) if is_card(value) else cards_in_text(value)
    if isinstance(value, list):
        if not value:
            return '<span class="note">none (an empty list)</span>'
        if all(is_card(v) for v in value):
            return "".join(card_html(v) for v in value)
        if all(isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in value):
            return ", ".join(value_html(v, depth + 1) for v in value)
        if all(_is_action(v) for v in value):
            return " · ".join(action_html(v) for v in value)
        items = "".join(f"<li>{value_html(v, depth + 1)}</li>" for v in value)
        return f"<ol start=\"0\">{items}</ol>"
    if isinstance(value, dict):
        if _is_action(value):
            return action_html(value)
        rows = "".join(f"<dt>{esc(k)}</dt><dd>{value_html(v, depth + 1)}</dd>"
                       for k, v in value.items())
        return f'<dl class="kv">{rows}</dl>'
    return esc(value)


def _is_action(value: object) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("type"), str)
            and all(isinstance(k, str) for k in value))


def action_html(action: Mapping[str, Any]) -> str:
    """An action of the protocol (``{"type": "play", "card": "3D"}``) as ``play 3♦``; its
    other fields after it."""
    words = [f"<b>{esc(action['type'])}</b>"]
    for key, value in action.items():
        if key == "type":
            continue
        if key in ("card", "cards", "bid", "pack", "suit", "trumps") and (
                is_card(value) or isinstance(value, (str, list))):
            words.append(value_html(value, 1))
        else:
            words.append(f'<span class="note">{esc(key)}</span> {value_html(value, 1)}')
    return f'<span class="action">{" ".join(words)}</span>'


def status_pill(status: str) -> str:
    return f'<span class="pill {esc(status)}">{esc(OUTCOME_WORDS.get(status, status))}</span>'


@cache
def rule_titles() -> dict[str, str]:
    """Each rule id of napkit's law book with its title (for the tooltips and the failures);
    empty if the spec cannot be read (a report is drawn all the same)."""
    try:
        return {rule.id: rule.title for rule in default_spec().lawbook}
    except Exception:  # a page without titles is still a page
        return {}


def page(title: str, body: str, script: str = "") -> str:
    """A whole self-contained page: the style inline, the script (if any) inline at the end."""
    tail = f"<script>{script}</script>" if script else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><style>{STYLE}</style></head>"
            f"<body><main>{body}</main>{tail}</body></html>\n")


def program_name(document: Mapping[str, Any]) -> str:
    """The program's name as the report gives it (``napkit 0.2.0``, ``js-classic 1.2``)."""
    program = document.get("program")
    name = program.get("name") if isinstance(program, dict) else None
    return name if isinstance(name, str) else "a program"


def program_version(document: Mapping[str, Any]) -> str | None:
    program = document.get("program")
    if isinstance(program, dict):
        version = program.get("version")
        if isinstance(version, (str, int, float)) and not isinstance(version, bool):
            return str(version)
    return None


def cases(document: Mapping[str, Any]) -> list[JSON]:
    found = document.get("cases")
    return [c for c in found if isinstance(c, dict)] if isinstance(found, list) else []


def outcomes(document: Mapping[str, Any]) -> list[str]:
    """The outcomes a report may count: napkit's, then any other its cases have."""
    extra = sorted({str(c.get("status")) for c in cases(document)} - set(STATUSES))
    return [*STATUSES, *extra]


def totals(document: Mapping[str, Any]) -> dict[str, int]:
    """The count of each outcome: the report's totals where it has them, else counted from its
    cases."""
    counted = Counter(str(c.get("status")) for c in cases(document))
    given = document.get("totals") if isinstance(document.get("totals"), dict) else {}
    assert isinstance(given, dict)
    return {s: int(given[s]) if isinstance(given.get(s), int) else counted[s]
            for s in outcomes(document)}


def cell_class(counts: Mapping[str, int]) -> str:
    """The colour of a set of cases: failed if one failed (or passed unexpectedly), else
    expected failure, else passed, else skipped."""
    for status in (FAILED, XPASS, XFAIL, TOUCHED, PASSED, SKIPPED):
        if counts.get(status):
            return status
    return next((s for s, n in counts.items() if n), "none")


def rule_key(rule: str) -> tuple[int, ...]:
    """NAP-8.10.1 after NAP-8.9.1: by the numbers, not the text."""
    return tuple(int(n) for n in re.findall(r"\d+", rule))


def blamed_rules(case: Mapping[str, Any]) -> list[str]:
    """The rules a failure is put down to, where the report says (the case's ``blamed``, or
    its ``failure.blamed``); else none."""
    found: list[str] = []
    failure = case.get("failure")
    for value in (case.get("blamed"), failure.get("blamed") if isinstance(failure, dict)
                  else None):
        for item in value if isinstance(value, list) else []:
            rule = item.get("rule") if isinstance(item, dict) else item
            if isinstance(rule, str) and rule not in found:
                found.append(rule)
    return found


def blames(case: Mapping[str, Any]) -> bool:
    """Whether the report puts this case's failure down to rules of its own (else a failed
    case counts against every rule it exercises)."""
    return "blamed" in case or (isinstance(case.get("failure"), dict)
                                and "blamed" in case["failure"])


# --- the page of one run ----------------------------------------------------------------------
def html_page(document: Mapping[str, Any], back: str | None = None) -> str:
    """The page of one run, from its JSON report's document; ``back``: the address of the
    page that links to it (the comparison of several programs), linked at its top."""
    name = program_name(document)
    link = f'<p class="note"><a href="{esc(back)}">&larr; the comparison</a></p>' if back else ""
    body = [link, _summary(document), _by_ruleset(document), _filters(document),
            _matrix(document), _failures(document), _skips_and_notes(document),
            _slowest(document)]
    return page(f"napkit conform: {name}", "".join(body), SCRIPT)


def html_report(run: Run) -> str:
    """The page of a run, drawn from the JSON report the run writes (:func:`json_report`)."""
    return html_page(json.loads(json_report(run)))


def write_reports(run: Run, targets: Iterable[tuple[str, OutputFile]], *args: Any,
                  **kwargs: Any) -> list[str]:
    """:func:`napkit.conform.report.write_reports`, and the page for an ``html`` target: the
    lines to print for those that could not be written."""
    chosen = list(targets)
    problems = write_other_reports(run, [t for t in chosen if t[0] != "html"], *args, **kwargs)
    for _, out in (t for t in chosen if t[0] == "html"):
        try:
            out.commit(html_report(run))
        except OSError as exc:
            problems.append(f"cannot write the html report {out.path}: {exc.strerror or exc}")
    return problems


def _summary(document: Mapping[str, Any]) -> str:
    name = program_name(document)
    counted = totals(document)
    interrupted = document.get("interrupted")
    if interrupted:
        verdict = '<span class="verdict v-interrupted">interrupted</span>'
    elif document.get("ok", not (counted.get(FAILED) or counted.get(XPASS))):
        verdict = '<span class="verdict v-ok">ok</span>'
    else:
        verdict = '<span class="verdict v-failed">FAILED</span>'
    given = document.get("totals") if isinstance(document.get("totals"), dict) else {}
    assert isinstance(given, dict)
    ran = given.get("cases", len(cases(document)))
    selected = given.get("selected", ran)
    parts = [f"<h1>{verdict}{esc(name)}</h1>",
             f'<p class="sub">napkit conform: <span data-count="cases">{esc(ran)}</span> '
             f"{'case' if ran == 1 else 'cases'} run of {esc(selected)} selected</p>",
             '<div class="counts">']
    for status in outcomes(document):
        if counted.get(status) or status in (PASSED, FAILED):
            parts.append(f'<div class="count {esc(status)}"><b data-count="{esc(status)}">'
                         f"{counted.get(status, 0)}</b><span>"
                         f"{esc(OUTCOME_WORDS.get(status, status))}</span></div>")
    not_run = given.get("not_run")
    if not isinstance(not_run, int) and isinstance(selected, int) and isinstance(ran, int):
        not_run = selected - ran
    if not_run:
        parts.append(f'<div class="count skipped"><b data-count="not-run">{esc(not_run)}</b>'
                     "<span>not run</span></div>")
    parts.append("</div>")
    parts.append(_facts(document))
    return "".join(parts)


def _facts(document: Mapping[str, Any]) -> str:
    """The run's facts: the program, its version and command, the suite, the time, the
    filters, the shard, and any field of the report about them this module does not know."""
    facts: list[tuple[str, str]] = [("program", esc(program_name(document)))]
    version = program_version(document)
    if version is not None:
        facts.append(("version", esc(version)))
    program = document.get("program") if isinstance(document.get("program"), dict) else {}
    assert isinstance(program, dict)
    command = program.get("command")
    if isinstance(command, list):
        facts.append(("command", f"<code>{esc(' '.join(map(str, command)))}</code>"
                      if command else "napkit's engine in the harness's process"))
    for key, value in program.items():
        if key not in ("name", "command", "version"):
            facts.append((f"program {key}", value_html(value)))
    if "suite" in document:
        facts.append(("suite", f"<code>{esc(document['suite'])}</code>"))
    for key in ("suite_version", "lawbook_version", "versions"):
        if key in document:
            facts.append((key.replace("_", " "), value_html(document[key])))
    if isinstance(document.get("elapsed"), (int, float)):
        facts.append(("time", f"{document['elapsed']:.2f} s"))
    for key in ("started", "finished", "date", "timing", "order"):
        if document.get(key) is not None:
            facts.append((key, value_html(document[key])))
    selection = document.get("selection")
    if isinstance(selection, dict):
        filters = selection.get("filters")
        if isinstance(filters, dict):
            chosen = [f"{k} {', '.join(map(str, v))}" for k, v in filters.items()
                      if isinstance(v, list) and v]
            facts.append(("filters", esc("; ".join(chosen)) if chosen else "none (every case)"))
        if selection.get("xfail"):
            facts.append(("expected failures", f"<code>{esc(selection['xfail'])}</code>"))
    shard = document.get("shard")
    if isinstance(shard, dict):
        facts.append(("shard", f"{esc(shard.get('index'))}/{esc(shard.get('count'))}"))
    interrupted = document.get("interrupted")
    if interrupted and not isinstance(interrupted, bool):
        facts.append(("interrupted", value_html(interrupted)))
    rows = "".join(f"<dt>{label}</dt><dd>{text}</dd>" for label, text in facts)
    return f'<dl class="facts">{rows}</dl>'


def _by_ruleset(document: Mapping[str, Any]) -> str:
    table: dict[str, Counter[str]] = {}
    seconds: Counter[str] = Counter()
    for case in cases(document):
        ruleset = str(case.get("ruleset"))
        table.setdefault(ruleset, Counter())[str(case.get("status"))] += 1
        if isinstance(case.get("duration"), (int, float)):
            seconds[ruleset] += case["duration"]
    if not table:
        return "<h2>By ruleset</h2><p>No case ran.</p>"
    shown = [s for s in outcomes(document) if any(t[s] for t in table.values())
             or s in (PASSED, FAILED)]
    head = "".join(f"<th>{esc(OUTCOME_WORDS.get(s, s))}</th>" for s in shown)
    rows = []
    for ruleset in sorted(table):
        counts = table[ruleset]
        cells = "".join(f'<td class="{s if counts[s] else "none"}">{counts[s]}</td>'
                        for s in shown)
        rows.append(f'<tr data-col-row="{esc(ruleset)}"><td class="name">{esc(ruleset)}</td>'
                    f"{cells}<td>{sum(counts.values())}</td><td>{seconds[ruleset]:.2f}</td></tr>")
    return ("<h2>By ruleset</h2><table class=\"by-ruleset\"><thead><tr><th class=\"name\">"
            f"ruleset</th>{head}<th>cases</th><th>seconds</th></tr></thead><tbody>"
            f"{''.join(rows)}</tbody></table>")


def _filters(document: Mapping[str, Any]) -> str:
    rulesets = sorted({str(c.get("ruleset")) for c in cases(document)})
    options = "".join(f'<option value="{esc(r)}">{esc(r)}</option>' for r in rulesets)
    statuses = "".join(f'<option value="{esc(s)}">{esc(OUTCOME_WORDS.get(s, s))}</option>'
                       for s in outcomes(document))
    return ('<h2 id="matrix">Rules by ruleset</h2>'
            '<div class="filters"><label>ruleset <select id="f-ruleset"><option value="">'
            f"every ruleset</option>{options}</select></label>"
            '<label>outcome <select id="f-outcome"><option value="">any outcome</option>'
            f"{statuses}</select></label>"
            '<label>rule id <input id="f-rule" type="search" placeholder="NAP-8.1" size="12">'
            "</label></div>")


def rule_cells(document: Mapping[str, Any]) -> dict[str, dict[str, Counter[str]]]:
    """The matrix's cells: for each rule and ruleset, the outcomes of the cases exercising the
    rule. Where the report puts a failure down to rules of its own (``blamed``), it counts as
    failed under those rules only, and as ``touched`` under the others the case exercises."""
    cells: dict[str, dict[str, Counter[str]]] = {}
    for case in cases(document):
        ruleset = str(case.get("ruleset"))
        status = str(case.get("status"))
        rules = [str(r) for r in case.get("rules") or [] if isinstance(r, str)]
        blamed = blamed_rules(case) if blames(case) and status in (FAILED, XFAIL) else None
        for rule in dict.fromkeys([*rules, *(blamed or [])]):
            counted = status if blamed is None or rule in blamed else TOUCHED
            cells.setdefault(rule, {}).setdefault(ruleset, Counter())[counted] += 1
    return cells


def _matrix(document: Mapping[str, Any]) -> str:
    cells = rule_cells(document)
    rulesets = {ruleset for row in cells.values() for ruleset in row}
    if not cells:
        return "<p>No case names a rule.</p>"
    columns = sorted(rulesets)
    titles = rule_titles()
    legend = "".join(f'<span class="pill {s}">{esc(OUTCOME_WORDS[s])}</span>'
                     for s in (PASSED, FAILED, TOUCHED, SKIPPED, XFAIL, XPASS))
    head = "".join(f'<th class="rot" data-col="{esc(r)}">{esc(r)}</th>' for r in columns)
    rows = []
    for rule in sorted(cells, key=rule_key):
        title = titles.get(rule, "")
        row = [f'<tr data-rule="{esc(rule)}"><td class="name" title="{esc(title)}">'
               f'<span class="mono">{esc(rule)}</span> <span class="rule-title">{esc(title)}'
               "</span></td>"]
        for ruleset in columns:
            counts = cells[rule].get(ruleset)
            if not counts:
                row.append(f'<td class="none" data-col="{esc(ruleset)}" data-has="">-</td>')
                continue
            total = sum(counts.values())
            has = " ".join(s for s, n in counts.items() if n)
            words = ", ".join(f"{n} {OUTCOME_WORDS.get(s, s)}" for s, n in counts.items() if n)
            bad = counts[FAILED] + counts[XPASS]
            text = f"{counts[PASSED]}/{total}" if not bad else f"{bad} failed"
            if counts[XFAIL] and not bad:
                text = f"{counts[XFAIL]} xfail"
            row.append(f'<td class="{cell_class(counts)}" data-col="{esc(ruleset)}" '
                       f'data-has="{esc(has)}" title="{esc(rule)} in {esc(ruleset)}: '
                       f'{esc(words)}">{esc(text)}</td>')
        rows.append("".join(row) + "</tr>")
    return (f'<div class="legend">{legend}<span class="note">a cell: the cases of the ruleset '
            "that exercise the rule (passed/all, or how many failed under it; a case that "
            "failed under another rule is counted here as failed elsewhere)</span></div>"
            '<div class="matrix-wrap"><table class="matrix"><thead><tr><th class="name">rule'
            f"</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")


def _failures(document: Mapping[str, Any]) -> str:
    bad = [c for c in cases(document) if c.get("status") in (FAILED, XPASS)]
    expected = [c for c in cases(document) if c.get("status") == XFAIL]
    parts = [f'<h2 id="failures">Failures (<span id="f-shown">{len(bad) + len(expected)}'
             f"</span> shown of {len(bad) + len(expected)})</h2>"]
    if not bad and not expected:
        parts.append("<p>No case failed.</p>")
    drawn: Counter[str] = Counter()

    def draw(case: JSON) -> str:
        ruleset = str(case.get("ruleset"))
        drawn[ruleset] += 1
        return failure_html(case, full=drawn[ruleset] <= DRAWN_PER_RULESET)

    if len(bad) + len(expected) > DRAWN_PER_RULESET:
        parts.append(f'<p class="note">The first {DRAWN_PER_RULESET} failures of each ruleset '
                     "are drawn in full (the deal, the steps); the others are shortened to what "
                     "differs and the command that reruns them, which draws them in full.</p>")
    parts += [draw(c) for c in bad]
    if expected:
        parts.append(f"<h3>Expected failures ({len(expected)})</h3>")
        parts += [draw(c) for c in expected]
    return "".join(parts)


def failure_html(case: Mapping[str, Any], anchor: str | None = None, full: bool = True) -> str:
    """One failure, drawn with all the report gives about it; not ``full``: what differs and
    the command that reruns it, without the deal, the steps and the rules it exercises (a
    page of thousands of failures stays light)."""
    status = str(case.get("status", FAILED))
    case_id = str(case.get("id", "?"))
    rules = [str(r) for r in case.get("rules", []) if isinstance(r, str)] if isinstance(
        case.get("rules"), list) else []
    blamed = blamed_rules(case)
    titles = rule_titles()
    ident = f' id="{esc(anchor)}"' if anchor else ""
    meta = [f"{esc(case.get('ruleset', ''))}", f"{esc(case.get('kind', ''))}"]
    if isinstance(case.get("duration"), (int, float)):
        meta.append(f"{case['duration'] * 1000:.1f} ms")
    if case.get("where"):
        meta.append(f"at {esc(case['where'])}")
    parts = [f'<article class="failure {esc(status)}"{ident} data-ruleset="'
             f'{esc(case.get("ruleset", ""))}" data-outcome="{esc(status)}" '
             f'data-rules="{esc(" ".join([case_id, *blamed, *rules]))}">'
             f"<header><h3 class=\"mono\">{esc(case_id)}</h3>{status_pill(status)}"
             f'<span class="meta">{" · ".join(meta)}</span></header>']
    if case.get("message"):
        parts.append(f'<p class="message">{cards_in_text(str(case["message"]))}</p>')
    if status == XPASS or case.get("reason"):
        parts.append(f'<p class="note">expected to fail: {esc(case.get("reason", ""))}</p>')
    for rule in blamed:
        parts.append(f'<p class="blamed"><b>put down to</b> <span class="mono">{esc(rule)}'
                     f'</span> <span class="rule-title">{esc(titles.get(rule, ""))}</span></p>')
    if "expected" in case or "got" in case:
        parts.append(_versus(case.get("expected"), case.get("got")))
    extra = {k: v for k, v in case.items() if k not in CASE_FIELDS | {"blamed"}}
    failure = extra.pop("failure", None)
    if isinstance(failure, dict) and not full:
        parts.append(_failure_detail({"rerun": failure.get("rerun")}, case))
    elif isinstance(failure, dict):
        parts.append(_failure_detail(failure, case))
    elif failure is not None:
        extra["failure"] = failure
    if full:
        parts += _details(extra)
    if rules and full:
        listed = ", ".join(f'<span class="mono" title="{esc(titles.get(r, ""))}">{esc(r)}</span>'
                           for r in rules)
        parts.append(f'<details><summary class="note">the {len(rules)} rules the case '
                     f"exercises</summary><p>{listed}</p></details>")
    if case.get("stderr"):
        parts.append('<details open><summary class="note">its standard error ended with'
                     f'</summary><pre>{esc(case["stderr"])}</pre></details>')
    if case.get("note"):
        parts.append(f'<p class="note">note: {esc(case["note"])}</p>')
    parts.append("</article>")
    return "".join(parts)


def _failure_detail(failure: Mapping[str, Any], case: Mapping[str, Any]) -> str:
    """The ``failure`` a report gives a failed case: the command that reruns it, what first
    differs (in a match, which hand), the deal, the steps up to the step, the position, and
    what was expected there against what was answered."""
    parts = []
    if failure.get("rerun"):
        rerun = failure["rerun"]
        text = " ".join(map(str, rerun)) if isinstance(rerun, list) else str(rerun)
        parts.append(f'<div class="detail"><h4>rerun this case</h4><pre class="rerun">'
                     f"{esc(text)}</pre></div>")
    if failure.get("first"):
        parts.append(f'<p class="first">{cards_in_text(str(failure["first"]))}</p>')
    if failure.get("deal") is not None:
        hand = f"hand {failure['hand']}" if failure.get("hand") else "the hand"
        parts.append(f'<div class="detail"><h4>the deal of {esc(hand)}</h4>'
                     f"{deal_html(failure['deal'])}</div>")
    if failure.get("actions"):
        where = f" up to {failure['where']}" if failure.get("where") else ""
        parts.append(f'<div class="detail"><h4>the steps{esc(where)} (step 0 is the deal)'
                     f"</h4>{steps_html(failure['actions'])}</div>")
    if failure.get("position"):
        parts.append(f'<p class="note">then {cards_in_text(str(failure["position"]))}</p>')
    message = failure.get("message")
    if message and message != case.get("message"):
        where = failure.get("where") or "the end"
        parts.append(f'<p class="message">at {esc(where)}: {cards_in_text(str(message))}</p>')
    want, said = failure.get("expected"), failure.get("answered")
    if (want is not None or said is not None) and (want, said) != (case.get("expected"),
                                                                   case.get("got")):
        parts.append(_versus(want, said))
    known = {"rerun", "first", "deal", "actions", "position", "message", "expected", "answered",
             "after", "blamed", "where", "step", "hand", "hand_step"}
    parts += _details({k: v for k, v in failure.items() if k not in known and v is not None})
    return "".join(parts)


def _details(fields: Mapping[str, Any]) -> list[str]:
    """Fields this module does not know, each under its name, drawn as they are."""
    return [f'<div class="detail"><h4>{esc(key.replace("_", " "))}</h4>{value_html(value)}'
            "</div>" for key, value in fields.items()]


def _versus(want: Any, said: Any) -> str:
    if _seat_numbers(want, said):
        return _by_seat(want, said)
    return ('<div class="versus"><div class="want"><h4>expected</h4>'
            f'{value_html(want)}</div><div class="got"><h4>answered'
            f'</h4>{value_html(said)}</div></div>')


def _seat_numbers(expected: Any, got: Any) -> bool:
    """Whether both are numbers by seat (balances, nets) of one table."""
    return (isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in expected + got)
            and bool(expected))


def _by_seat(expected: list[int], got: list[int]) -> str:
    """Numbers by seat, expected against answered, the seats that differ marked."""
    head = "".join(f"<th>seat {n}</th>" for n in range(len(expected)))
    want = "".join(f"<td>{v}</td>" for v in expected)
    said = "".join(f'<td class="{"failed" if v != w else "passed"}">{v}</td>'
                   for v, w in zip(got, expected, strict=True))
    return ('<table class="by-seat"><thead><tr><th class="name"></th>'
            f'{head}</tr></thead><tbody><tr><td class="name">expected</td>{want}</tr>'
            f'<tr><td class="name">answered</td>{said}</tr></tbody></table>')


def deal_html(value: Any) -> str:
    """A deal: ``{"dealer", "hands": {SEAT: CARDS}, "widow", "stock"}`` (or the cards of each
    seat alone, as a list or an object by seat), one row a seat, the cards as cards."""
    if not isinstance(value, (dict, list)):
        return value_html(value)
    rows: list[tuple[str, Any]] = []
    hands = value.get("hands", value) if isinstance(value, dict) else value
    if isinstance(hands, list):
        rows = [(f"seat {n}", v) for n, v in enumerate(hands)]
    elif isinstance(hands, dict):
        ordered = sorted(hands.items(), key=lambda kv: (not kv[0].isdigit(), kv[0].zfill(4)))
        rows = [(f"seat {k}" if k.isdigit() else k, v) for k, v in ordered]
    dealer = value.get("dealer") if isinstance(value, dict) and "hands" in value else None
    if isinstance(value, dict) and "hands" in value:
        for key in ("widow", "stock"):
            if value.get(key) not in (None, [], ""):
                rows.append((key, value[key] if not isinstance(value[key], int)
                             else f"{value[key]} cards"))
    body = "".join(f'<tr><td class="name">{esc(label)}'
                   f'{" (dealer)" if label == f"seat {dealer}" else ""}</td>'
                   f"<td>{hand_html(cards)}</td></tr>" for label, cards in rows)
    return f'<table class="seats">{body}</table>'


HAND_GROUP = re.compile(r"([SHDC]):\s*((?:(?:10|[2-9TJQKA])\b\s*)+)")


def hand_html(cards: Any) -> str:
    """A hand as cards, by suit (spades to clubs) and rank (high first): from a list of card
    names, or from the terminal's text of a hand (``S: A K 7  D: 10``)."""
    if isinstance(cards, str) and HAND_GROUP.match(cards.strip()):
        return '<span class="suit-gap"></span>'.join(
            "".join(card_html(rank + suit) for rank in ranks.split())
            for suit, ranks in HAND_GROUP.findall(cards))
    if isinstance(cards, list) and all(is_card(c) for c in cards):
        ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]

        def key(name: str) -> tuple[int, int]:
            rank, suit = name[:-1], name[-1]
            return "SHDC".index(suit), -ranks.index("10" if rank == "T" else rank)

        return "".join(card_html(c) for c in sorted(cards, key=key))
    return value_html(cards)


def steps_html(value: Any) -> str:
    """Steps (``{"seat", "action"}``, with their ``number`` where the report gives it, else
    numbered from 0, the deal)."""
    if not isinstance(value, list):
        return value_html(value)
    items = []
    for n, step in enumerate(value):
        if isinstance(step, dict) and "action" in step:
            seat = step.get("seat")
            who = "chance" if seat is None else f"seat {seat}"
            number = step.get("number", n)
            rest = {k: v for k, v in step.items() if k not in ("seat", "action", "number",
                                                               "words")}
            more = f" {value_html(rest, 1)}" if rest else ""
            items.append(f'<li value="{esc(number)}"><span class="note">{esc(who)}</span> '
                         f"{_step_action(step['action'])}{more}</li>")
        else:
            items.append(f'<li value="{n}">{value_html(step, 1)}</li>')
    return f'<ol class="steps" start="0">{"".join(items)}</ol>'


def _step_action(action: Any) -> str:
    """An action of a step; a whole pack (a shuffle's) folded to its first cards."""
    if isinstance(action, dict) and isinstance(action.get("pack"), list) and len(
            action["pack"]) > 8:
        pack = action["pack"]
        return (f'<span class="action"><b>{esc(action.get("type", ""))}</b> '
                f'{"".join(card_html(str(c)) for c in pack[:8])} '
                f'<span class="note">... ({len(pack)} cards)</span></span>')
    return value_html(action, 1)


def _skips_and_notes(document: Mapping[str, Any]) -> str:
    parts = []
    skipped = document.get("skipped_by_declaration")
    if isinstance(skipped, dict) and skipped:
        rows = "".join(f'<tr><td>{esc(n)}</td><td class="name">{esc(cause)}</td></tr>'
                       for cause, n in skipped.items())
        parts.append("<h2>Skipped, by what the program declares</h2><table><thead><tr><th>"
                     f'cases</th><th class="name">declaration</th></tr></thead>{rows}</table>')
    notes = document.get("notes")
    if isinstance(notes, list) and notes:
        items = "".join(f"<li>{esc(n)}</li>" for n in notes)
        parts.append(f"<h2>Notes</h2><ul>{items}</ul>")
    return "".join(parts)


def _slowest(document: Mapping[str, Any], shown: int = 10) -> str:
    timed = sorted((c for c in cases(document) if isinstance(c.get("duration"), (int, float))),
                   key=lambda c: -float(c["duration"]))[:shown]
    if not timed:
        return ""
    rows = "".join(f'<tr><td class="name mono">{esc(c.get("id"))}</td><td>'
                   f"{float(c['duration']) * 1000:.1f}</td><td>{status_pill(str(c.get('status')))}"
                   "</td></tr>" for c in timed)
    return (f"<h2>The slowest cases</h2><table><thead><tr><th class=\"name\">case</th>"
            f"<th>ms</th><th>outcome</th></tr></thead>{rows}</table>")


__all__ = ["DRAWN_PER_RULESET", "STYLE", "action_html", "blamed_rules", "blames", "card_html",
           "cases", "cell_class", "deal_html", "esc", "failure_html", "hand_html", "html_page",
           "html_report", "page", "program_name", "program_version", "rule_cells", "rule_key",
           "rule_titles", "steps_html", "totals", "value_html", "write_reports"]
