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

The page is the template ``report.html`` of :mod:`napkit.output.pages` (autoescaped: nothing a
report says can be markup), its style and script the files ``report.css`` and ``report.js``
beside it. This module shapes the report into what the template lays out: plain values, and
for a value of the report (a card, a hand, an action, a list, an object) a :class:`Value`
that the macro ``value`` of ``pieces.html`` draws. The pieces (:func:`card_html`,
:func:`value_html`, :func:`failure_html`...) are those macros called from Python, and return
:class:`markupsafe.Markup`; they are shared with the comparison site
(:mod:`napkit.conform.report.site`).

A card is what the engine reads as one (:data:`napkit.engine.cards.CARD_TEXT`): ``10H``, and
``TH`` too, which another program's report may write; it is drawn ``10♥`` whichever way it was
written, its name as written on hover.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from napkit.conform.report.text import Run, json_report
from napkit.conform.report.text import write_reports as write_other_reports
from napkit.conform.run.runner import (
    FAILED,
    PASSED,
    SKIPPED,
    STATUSES,
    XFAIL,
    XPASS,
    nothing_checked,
    run_ok,
)
from napkit.engine.cards import (
    CARD_IN_TEXT,
    CARD_TEXT,
    DIAMONDS,
    HEARTS,
    RANK_TEXT,
    SUIT_LETTERS,
    parse_card,
    rank_of,
    suit_of,
)
from napkit.output.files import OutputFile
from napkit.output.pages import macros, render
from napkit.spec.catalog import default_spec
from napkit.spec.render import card_text

if TYPE_CHECKING:  # markupsafe is imported at the first piece drawn: `napkit conform` starts fast
    from markupsafe import Markup

JSON = dict[str, Any]
CARD = re.compile(CARD_TEXT)
# The terminal's text of a hand: ``S: A K 7  D: 10``.
HAND_GROUP = re.compile(rf"([{SUIT_LETTERS}]):\s*((?:(?:{RANK_TEXT})\b\s*)+)")
TOUCHED = "touched"  # a case exercising the rule that failed, its failure put down elsewhere
OUTCOME_WORDS = {PASSED: "passed", FAILED: "failed", SKIPPED: "skipped",
                 XFAIL: "expected failure", XPASS: "unexpected pass",
                 TOUCHED: "failed elsewhere"}
# The fields of a case drawn in their own place; any other is listed as it is.
DRAWN_PER_RULESET = 25  # failures of a ruleset drawn in full on the page; the rest shortened
CASE_FIELDS = {"id", "ruleset", "kind", "rules", "status", "duration", "message", "where",
               "expected", "got", "note", "reason", "stderr"}
PIECES = "pieces.html"  # the shared macros


# --- what the templates draw ------------------------------------------------------------------
@dataclass(frozen=True)
class CardView:
    """A card as the page draws it: ``name`` as the report wrote it (``TH``), ``rank`` and
    ``symbol`` as drawn (``10``, ``♥``), ``colour`` red or black."""

    name: str
    rank: str
    symbol: str
    colour: str


@dataclass(frozen=True)
class Value:
    """A value of a report shaped for the macro ``value`` of ``pieces.html``, by ``kind``:

    ``plain`` (``text`` as it is), ``text`` (``items``: text and the cards named in it),
    ``cards`` (``items``: cards), ``null``, ``empty`` (an empty list), ``code`` (``text`` in
    monospace), ``joined`` (``items``: values, ``text`` between them), ``list`` (``items``:
    values, numbered from 0), ``object`` (``items``: (name, value)), ``action`` (``text``:
    its type; ``items``: (field name or None, value)), ``fold`` (a shuffle's pack: ``text``
    its type, ``items`` its first cards, ``count`` its size), ``hand`` (``items``: groups of
    cards by suit), ``deal`` (``items``: (seat, value)), ``steps`` (``items``: (number, who or
    None, action, the step's other fields or None)).
    """

    kind: str
    text: str = ""
    items: tuple[Any, ...] = ()
    count: int = 0


def card_view(name: str) -> CardView | None:
    """A card's name (``10H``, ``TH``) as the page draws it; None for what is not a card."""
    if CARD.fullmatch(name) is None:
        return None
    card = parse_card(name)
    drawn = card_text(card, symbols=True)
    colour = "red" if suit_of(card) in (HEARTS, DIAMONDS) else "black"
    return CardView(name, drawn[:-1], drawn[-1], colour)


def text_parts(text: str) -> tuple[str | CardView, ...]:
    """Text cut into its words and the cards named in it (``KC``)."""
    parts: list[str | CardView] = []
    last = 0
    for found in CARD_IN_TEXT.finditer(text):
        card = card_view(found.group(0))
        if card is not None:
            parts += [text[last:found.start()], card]
            last = found.end()
    parts.append(text[last:])
    return tuple(p for p in parts if p != "")


def is_card(value: object) -> bool:
    return isinstance(value, str) and CARD.fullmatch(value) is not None


def _is_action(value: object) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("type"), str)
            and all(isinstance(k, str) for k in value))


def _cards(names: Iterable[str]) -> tuple[CardView, ...]:
    return tuple(c for c in map(card_view, names) if c is not None)


def shape(value: Any, depth: int = 0) -> Value:
    """A JSON value as people read it: cards as cards, an action as ``play 3♦``, a list of
    cards as a row of them, an object as a small table of its fields."""
    if depth > 8:
        return Value("code", json.dumps(value, ensure_ascii=False))
    if value is None:
        return Value("null")
    if isinstance(value, bool):
        return Value("plain", "true" if value else "false")
    if isinstance(value, str):
        card = card_view(value)
        return Value("cards", items=(card,)) if card else Value("text", items=text_parts(value))
    if isinstance(value, list):
        if not value:
            return Value("empty")
        if all(is_card(v) for v in value):
            return Value("cards", items=_cards(value))
        if all(isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in value):
            return Value("joined", ", ", tuple(shape(v, depth + 1) for v in value))
        if all(_is_action(v) for v in value):
            return Value("joined", " · ", tuple(action_value(v) for v in value))
        return Value("list", items=tuple(shape(v, depth + 1) for v in value))
    if isinstance(value, dict):
        if _is_action(value):
            return action_value(value)
        return Value("object", items=tuple((str(k), shape(v, depth + 1))
                                           for k, v in value.items()))
    return Value("plain", str(value))


def action_value(action: Mapping[str, Any]) -> Value:
    """An action of the protocol (``{"type": "play", "card": "3D"}``), to read ``play 3♦``;
    its other fields after it, named."""
    fields: list[tuple[str | None, Value]] = []
    for key, value in action.items():
        if key == "type":
            continue
        if key in ("card", "cards", "bid", "pack", "suit", "trumps") and (
                is_card(value) or isinstance(value, (str, list))):
            fields.append((None, shape(value, 1)))
        else:
            fields.append((str(key), shape(value, 1)))
    return Value("action", str(action["type"]), tuple(fields))


def hand_value(cards: Any) -> Value:
    """A hand as cards, by suit (spades to clubs) and rank (high first): from a list of card
    names, or from the terminal's text of a hand (``S: A K 7  D: 10``)."""
    if isinstance(cards, str) and HAND_GROUP.match(cards.strip()):
        return Value("hand", items=tuple(_cards(rank + suit for rank in ranks.split())
                                         for suit, ranks in HAND_GROUP.findall(cards)))
    if isinstance(cards, list) and all(is_card(c) for c in cards):
        def key(name: str) -> tuple[int, int]:
            card = parse_card(name)
            return suit_of(card), -rank_of(card)

        return Value("cards", items=_cards(sorted(cards, key=key)))
    return shape(cards)


def deal_value(value: Any) -> Value:
    """A deal: ``{"dealer", "hands": {SEAT: CARDS}, "widow", "stock"}`` (or the cards of each
    seat alone, as a list or an object by seat), one row a seat, the cards as cards."""
    if not isinstance(value, (dict, list)):
        return shape(value)
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
    return Value("deal", items=tuple(
        (f"{label} (dealer)" if label == f"seat {dealer}" else str(label), hand_value(cards))
        for label, cards in rows))


def steps_value(value: Any) -> Value:
    """Steps (``{"seat", "action"}``, with their ``number`` where the report gives it, else
    numbered from 0, the deal)."""
    if not isinstance(value, list):
        return shape(value)
    items: list[tuple[str, str | None, Value, Value | None]] = []
    for n, step in enumerate(value):
        if isinstance(step, dict) and "action" in step:
            seat = step.get("seat")
            who = "chance" if seat is None else f"seat {seat}"
            rest = {k: v for k, v in step.items() if k not in ("seat", "action", "number",
                                                               "words")}
            items.append((str(step.get("number", n)), who, _step_action(step["action"]),
                          shape(rest, 1) if rest else None))
        else:
            items.append((str(n), None, shape(step, 1), None))
    return Value("steps", items=tuple(items))


def _step_action(action: Any) -> Value:
    """An action of a step; a whole pack (a shuffle's) folded to its first cards."""
    if isinstance(action, dict) and isinstance(action.get("pack"), list) and len(
            action["pack"]) > 8:
        pack = action["pack"]
        first = tuple(card_view(str(c)) or str(c) for c in pack[:8])
        return Value("fold", str(action.get("type", "")), first, len(pack))
    return shape(action, 1)


# --- the pieces, as markup (the macros of pieces.html, called from Python) --------------------
def _piece(macro: str, *args: Any) -> Markup:
    """A macro of ``pieces.html`` drawn: markup."""
    from markupsafe import Markup

    return Markup(getattr(macros(PIECES), macro)(*args))


def esc(value: object) -> Markup:
    """Text made safe in HTML, attributes' quotes included."""
    from markupsafe import escape

    return escape(str(value))


def card_html(name: str) -> Markup:
    """A card (``10H``) as a card: ``10♥`` in red, ``A♠`` in black.

    >>> card_html("10H")
    Markup('<span class="card red" title="10H">10♥</span>')
    """
    card = card_view(name)
    return esc(name) if card is None else _piece("card", card)


def cards_in_text(text: str) -> Markup:
    """Escaped text with each card name in it (``KC``) drawn as a card."""
    return _piece("text", text_parts(text))


def value_html(value: Any, depth: int = 0) -> Markup:
    """A JSON value as people read it (:func:`shape`), as markup."""
    return _piece("value", shape(value, depth))


def action_html(action: Mapping[str, Any]) -> Markup:
    """An action of the protocol (``{"type": "play", "card": "3D"}``) as ``play 3♦``; its
    other fields after it."""
    return _piece("value", action_value(action))


def deal_html(value: Any) -> Markup:
    """A deal (:func:`deal_value`) as a table, a row a seat."""
    return _piece("value", deal_value(value))


def hand_html(cards: Any) -> Markup:
    """A hand (:func:`hand_value`) as cards."""
    return _piece("value", hand_value(cards))


def steps_html(value: Any) -> Markup:
    """Steps (:func:`steps_value`) as a numbered list."""
    return _piece("value", steps_value(value))


def status_pill(status: str) -> Markup:
    return _piece("pill", status, OUTCOME_WORDS.get(status, status))


def page(title: str, body: str, script: str = "") -> str:
    """A whole self-contained page in the report's style: ``body`` and ``script`` are markup
    that the caller vouches for (built with :class:`markupsafe.Markup`), put in as they are."""
    from markupsafe import Markup

    return render("page.html", title=title, body=Markup(body), script=Markup(script))


@cache
def rule_titles() -> dict[str, str]:
    """Each rule id of napkit's law book with its title (for the tooltips and the failures);
    empty if the spec cannot be read (a report is drawn all the same)."""
    try:
        return {rule.id: rule.title for rule in default_spec().lawbook}
    except Exception:  # a page without titles is still a page
        return {}


# --- reading a report -------------------------------------------------------------------------
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
    given = _totals_given(document)
    return {s: int(given[s]) if isinstance(given.get(s), int) else counted[s]
            for s in outcomes(document)}


def _totals_given(document: Mapping[str, Any]) -> dict[str, Any]:
    given = document.get("totals")
    return given if isinstance(given, dict) else {}


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


# --- the page of one run ----------------------------------------------------------------------
def html_page(document: Mapping[str, Any], back: str | None = None) -> str:
    """The page of one run, from its JSON report's document; ``back``: the address of the
    page that links to it (the comparison of several programs), linked at its top."""
    name = program_name(document)
    return render("report.html", title=f"napkit conform: {name}", name=name, back=back,
                  **_summary(document), facts=_facts(document),
                  by_ruleset=_by_ruleset(document), filters=_filters(document),
                  matrix=_matrix(document), failures=_failures(document),
                  skipped=_skipped(document), notes=_notes(document),
                  slowest=_slowest(document))


def html_report(run: Run) -> str:
    """The page of a run, drawn from the JSON report the run writes (:func:`json_report`)."""
    return html_page(json.loads(json_report(run)))


def write_reports(run: Run, targets: Iterable[tuple[str, OutputFile]], *args: Any,
                  **kwargs: Any) -> list[str]:
    """:func:`napkit.conform.report.text.write_reports`, and the page for an ``html`` target: the
    lines to print for those that could not be written."""
    chosen = list(targets)
    problems = write_other_reports(run, [t for t in chosen if t[0] != "html"], *args, **kwargs)
    for _, out in (t for t in chosen if t[0] == "html"):
        try:
            out.commit(html_report(run))
        except OSError as exc:
            problems.append(f"cannot write the html report {out.path}: {exc.strerror or exc}")
    return problems


def _summary(document: Mapping[str, Any]) -> JSON:
    """The verdict, the cases run of those selected, and the count of each outcome. The
    verdict is the cases' (a report's ``ok`` that says otherwise is refused as it is read:
    napkit.conform.report.saved)."""
    counted = totals(document)
    if document.get("interrupted"):
        verdict = ("interrupted", "interrupted")
    elif run_ok(counted, False):
        verdict = ("ok", "ok")
    elif nothing_checked(counted):  # every case skipped: spec/conformance.md 2.2
        verdict = ("failed", "nothing checked")
    else:
        verdict = ("failed", "FAILED")
    given = _totals_given(document)
    ran = given.get("cases", len(cases(document)))
    selected = given.get("selected", ran)
    not_run = given.get("not_run")
    if not isinstance(not_run, int) and isinstance(selected, int) and isinstance(ran, int):
        not_run = selected - ran
    return {"verdict": verdict[0], "verdict_word": verdict[1], "ran": ran, "selected": selected,
            "counts": [(s, counted.get(s, 0), OUTCOME_WORDS.get(s, s))
                       for s in outcomes(document) if counted.get(s) or s in (PASSED, FAILED)],
            "not_run": not_run}


def _facts(document: Mapping[str, Any]) -> list[tuple[str, Value]]:
    """The run's facts: the program, its version and command, the suite, the time, the
    filters, the shard, and any field of the report about them this module does not know."""
    facts: list[tuple[str, Value]] = [("program", Value("plain", program_name(document)))]
    version = program_version(document)
    if version is not None:
        facts.append(("version", Value("plain", version)))
    program = document.get("program") if isinstance(document.get("program"), dict) else {}
    assert isinstance(program, dict)
    command = program.get("command")
    if isinstance(command, list):
        facts.append(("command", Value("code", " ".join(map(str, command))) if command
                      else Value("plain", "napkit's engine in the harness's process")))
    for key, value in program.items():
        if key not in ("name", "command", "version"):
            facts.append((f"program {key}", shape(value)))
    if "suite" in document:
        facts.append(("suite", Value("code", str(document["suite"]))))
    for key in ("suite_version", "lawbook_version", "versions"):
        if key in document:
            facts.append((key.replace("_", " "), shape(document[key])))
    if isinstance(document.get("elapsed"), (int, float)):
        facts.append(("time", Value("plain", f"{document['elapsed']:.2f} s")))
    for key in ("started", "finished", "date", "timing", "order"):
        if document.get(key) is not None:
            facts.append((key, shape(document[key])))
    selection = document.get("selection")
    if isinstance(selection, dict):
        filters = selection.get("filters")
        if isinstance(filters, dict):
            chosen = [f"{k} {', '.join(map(str, v))}" for k, v in filters.items()
                      if isinstance(v, list) and v]
            facts.append(("filters", Value("plain", "; ".join(chosen) if chosen
                                           else "none (every case)")))
        if selection.get("xfail"):
            facts.append(("expected failures", Value("code", str(selection["xfail"]))))
    shard = document.get("shard")
    if isinstance(shard, dict):
        facts.append(("shard", Value("plain", f"{shard.get('index')}/{shard.get('count')}")))
    interrupted = document.get("interrupted")
    if interrupted and not isinstance(interrupted, bool):
        facts.append(("interrupted", shape(interrupted)))
    return facts


def _by_ruleset(document: Mapping[str, Any]) -> JSON:
    """The count of each outcome by ruleset, with its time."""
    table: dict[str, Counter[str]] = {}
    seconds: Counter[str] = Counter()
    for case in cases(document):
        ruleset = str(case.get("ruleset"))
        table.setdefault(ruleset, Counter())[str(case.get("status"))] += 1
        if isinstance(case.get("duration"), (int, float)):
            seconds[ruleset] += case["duration"]
    shown = [s for s in outcomes(document) if any(t[s] for t in table.values())
             or s in (PASSED, FAILED)]
    rows = [{"ruleset": ruleset,
             "cells": [(s if table[ruleset][s] else "none", table[ruleset][s]) for s in shown],
             "total": sum(table[ruleset].values()), "seconds": f"{seconds[ruleset]:.2f}"}
            for ruleset in sorted(table)]
    return {"words": [OUTCOME_WORDS.get(s, s) for s in shown], "rows": rows}


def _filters(document: Mapping[str, Any]) -> JSON:
    return {"rulesets": sorted({str(c.get("ruleset")) for c in cases(document)}),
            "outcomes": [(s, OUTCOME_WORDS.get(s, s)) for s in outcomes(document)]}


def _matrix(document: Mapping[str, Any]) -> JSON:
    """The rules by ruleset: a row a rule, a cell the outcomes of the cases exercising it."""
    cells = rule_cells(document)
    columns = sorted({ruleset for row in cells.values() for ruleset in row})
    titles = rule_titles()
    rows = []
    for rule in sorted(cells, key=rule_key):
        row: list[tuple[str, JSON | None]] = []
        for ruleset in columns:
            counts = cells[rule].get(ruleset)
            if not counts:
                row.append((ruleset, None))
                continue
            total = sum(counts.values())
            bad = counts[FAILED] + counts[XPASS]
            text = f"{counts[PASSED]}/{total}" if not bad else f"{bad} failed"
            if counts[XFAIL] and not bad:
                text = f"{counts[XFAIL]} xfail"
            row.append((ruleset, {
                "cls": cell_class(counts), "text": text,
                "has": " ".join(s for s, n in counts.items() if n),
                "words": ", ".join(f"{n} {OUTCOME_WORDS.get(s, s)}" for s, n in counts.items()
                                   if n)}))
        rows.append({"rule": rule, "title": titles.get(rule, ""), "cells": row})
    legend = [(s, OUTCOME_WORDS[s]) for s in (PASSED, FAILED, TOUCHED, SKIPPED, XFAIL, XPASS)]
    return {"legend": legend, "columns": columns, "rows": rows}


def _failures(document: Mapping[str, Any]) -> JSON:
    """The failures, unexpected passes first, then the expected failures; the first
    :data:`DRAWN_PER_RULESET` of each ruleset in full."""
    bad = [c for c in cases(document) if c.get("status") in (FAILED, XPASS)]
    expected = [c for c in cases(document) if c.get("status") == XFAIL]
    drawn: Counter[str] = Counter()

    def draw(case: JSON) -> JSON:
        ruleset = str(case.get("ruleset"))
        drawn[ruleset] += 1
        return failure_view(case, full=drawn[ruleset] <= DRAWN_PER_RULESET)

    shown = len(bad) + len(expected)
    return {"shown": shown, "shortened": shown > DRAWN_PER_RULESET,
            "drawn_per_ruleset": DRAWN_PER_RULESET,
            "bad": [draw(c) for c in bad], "expected": [draw(c) for c in expected]}


def failure_html(case: Mapping[str, Any], anchor: str | None = None, full: bool = True) -> Markup:
    """One failure, drawn with all the report gives about it; not ``full``: what differs and
    the command that reruns it, without the deal, the steps and the rules it exercises (a
    page of thousands of failures stays light)."""
    return _piece("failure", failure_view(case, anchor, full))


def failure_view(case: Mapping[str, Any], anchor: str | None = None, full: bool = True
                 ) -> JSON:
    """One failure shaped for the macro ``failure`` of ``pieces.html`` (see
    :func:`failure_html`)."""
    status = str(case.get("status", FAILED))
    case_id = str(case.get("id", "?"))
    rules = [str(r) for r in case.get("rules", []) if isinstance(r, str)] if isinstance(
        case.get("rules"), list) else []
    blamed = blamed_rules(case)
    titles = rule_titles()
    meta = [str(case.get("ruleset", "")), str(case.get("kind", ""))]
    if isinstance(case.get("duration"), (int, float)):
        meta.append(f"{case['duration'] * 1000:.1f} ms")
    if case.get("where"):
        meta.append(f"at {case['where']}")
    extra = {k: v for k, v in case.items() if k not in CASE_FIELDS | {"blamed"}}
    failure = extra.pop("failure", None)
    detail = None
    if isinstance(failure, dict):
        detail = _failure_detail(failure if full else {"rerun": failure.get("rerun")}, case)
    elif failure is not None:
        extra["failure"] = failure
    return {
        "status": status, "word": OUTCOME_WORDS.get(status, status), "anchor": anchor,
        "id": case_id, "ruleset": str(case.get("ruleset", "")),
        "rules_text": " ".join([case_id, *blamed, *rules]), "meta": meta,
        "message": text_parts(str(case["message"])) if case.get("message") else None,
        "reason": str(case.get("reason", "")) if status == XPASS or case.get("reason")
        else None,
        "blamed": [(rule, titles.get(rule, "")) for rule in blamed],
        "versus": _versus(case.get("expected"), case.get("got"))
        if "expected" in case or "got" in case else None,
        "detail": detail,
        "extra": _fields(extra) if full else [],
        "rules": [(rule, titles.get(rule, "")) for rule in rules] if full else [],
        "stderr": str(case["stderr"]) if case.get("stderr") else None,
        "note": str(case["note"]) if case.get("note") else None,
    }


def _failure_detail(failure: Mapping[str, Any], case: Mapping[str, Any]) -> JSON:
    """The ``failure`` a report gives a failed case: the command that reruns it, what first
    differs (in a match, which hand), the deal, the steps up to the step, the position, and
    what was expected there against what was answered."""
    rerun = failure.get("rerun")
    message = failure.get("message")
    want, said = failure.get("expected"), failure.get("answered")
    known = {"rerun", "first", "deal", "actions", "position", "message", "expected", "answered",
             "after", "blamed", "where", "step", "hand", "hand_step"}
    return {
        "rerun": (" ".join(map(str, rerun)) if isinstance(rerun, list) else str(rerun))
        if rerun else None,
        "first": text_parts(str(failure["first"])) if failure.get("first") else None,
        "deal": deal_value(failure["deal"]) if failure.get("deal") is not None else None,
        "hand": f"hand {failure['hand']}" if failure.get("hand") else "the hand",
        "steps": steps_value(failure["actions"]) if failure.get("actions") else None,
        "up_to": f" up to {failure['where']}" if failure.get("where") else "",
        "position": text_parts(str(failure["position"])) if failure.get("position") else None,
        "message": text_parts(str(message)) if message and message != case.get("message")
        else None,
        "where": str(failure.get("where") or "the end"),
        "versus": _versus(want, said) if (want is not None or said is not None) and (
            want, said) != (case.get("expected"), case.get("got")) else None,
        "extra": _fields({k: v for k, v in failure.items() if k not in known and v is not None}),
    }


def _fields(fields: Mapping[str, Any]) -> list[tuple[str, Value]]:
    """Fields this module does not know, each under its name, drawn as they are."""
    return [(str(key).replace("_", " "), shape(value)) for key, value in fields.items()]


def _versus(want: Any, said: Any) -> JSON:
    """What was expected against what was answered; numbers by seat (balances, nets) of one
    table side by side, seat by seat."""
    if _seat_numbers(want, said):
        return {"seats": list(zip(want, said, strict=True)), "want": None, "got": None}
    return {"seats": None, "want": shape(want), "got": shape(said)}


def _seat_numbers(expected: Any, got: Any) -> bool:
    """Whether both are numbers by seat (balances, nets) of one table."""
    return (isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in expected + got)
            and bool(expected))


def _skipped(document: Mapping[str, Any]) -> list[tuple[str, str]]:
    skipped = document.get("skipped_by_declaration")
    return ([(str(cause), str(n)) for cause, n in skipped.items()]
            if isinstance(skipped, dict) else [])


def _notes(document: Mapping[str, Any]) -> list[str]:
    notes = document.get("notes")
    return [str(n) for n in notes] if isinstance(notes, list) else []


def _slowest(document: Mapping[str, Any], shown: int = 10) -> list[tuple[str, str, str, str]]:
    timed = sorted((c for c in cases(document) if isinstance(c.get("duration"), (int, float))),
                   key=lambda c: -float(c["duration"]))[:shown]
    return [(str(c.get("id")), f"{float(c['duration']) * 1000:.1f}", str(c.get("status")),
             OUTCOME_WORDS.get(str(c.get("status")), str(c.get("status")))) for c in timed]


__all__ = ["DRAWN_PER_RULESET", "CardView", "Value", "action_html", "action_value",
           "blamed_rules", "blames", "card_html", "card_view", "cases", "cell_class",
           "deal_html", "deal_value", "esc", "failure_html", "failure_view", "hand_html",
           "hand_value", "html_page", "html_report", "page", "program_name", "program_version",
           "rule_cells", "rule_key", "rule_titles", "shape", "status_pill", "steps_html",
           "steps_value", "text_parts", "totals", "value_html", "write_reports"]
