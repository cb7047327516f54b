"""Verdicts laid out for reading: one table with a column per ruleset, then each ruleset's
parting or settlement in words, with the rule's text and its source's lines; and as JSON.

The table is split into as many blocks as the terminal's width needs, each block a slice of
the columns under the same row headings (as wide tables are printed by pandas), so that ten
rulesets read on an 80-column terminal as well as on a wide one.
"""

from __future__ import annotations

from collections.abc import Sequence

from napkit.dispute.citing import Shown, rule_lines
from napkit.dispute.replay import Parting, Verdict
from napkit.engine.cards import SUIT_NAMES, card_name
from napkit.engine.hand import HandState
from napkit.engine.state import NO_TRUMPS, POOL
from napkit.output.tables import cut, printable
from napkit.output.tables import table as output_table
from napkit.output.tables import width as text_width
from napkit.spec.catalog import Spec
from napkit.spec.views import cite_list, wrap

CELL = 16  # the widest a column may be; longer cells are cut with "…"


def who(seat: int | None) -> str:
    """``S2``, ``pool`` or ``chance``."""
    if seat is None:
        return "chance"
    return "pool" if seat == POOL else f"S{seat}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _contract(state: HandState) -> str:
    result = state.result
    if result is not None and result.thrown_in:
        return "thrown in"
    if state.declarer < 0 or state.contract < 0:
        return "-"
    return f"{who(state.declarer)} {state.game.rules.bids[state.contract].id}"


def trumps_cell(verdict: Verdict) -> str:
    """The trump suit and how it was fixed: ``hearts: named S1``, ``hearts: led`` (the first
    card led fixed them), ``hearts: assumed`` (filled, :attr:`Verdict.assumed`), ``none:
    misère``; ``-`` where they were not fixed."""
    state = verdict.state
    if state is None or state.contract < 0 or verdict.setup is not None:
        return "-"
    bid = state.game.rules.bids[state.contract]
    if state.trumps == NO_TRUMPS or bid.trumps == "none":
        return "none: misère" if bid.misere else "none"
    if state.trumps < 0:
        return "-"
    suit = SUIT_NAMES[state.trumps]
    if any(a.action.startswith("name") for a in verdict.assumed):
        return f"{suit}: assumed"
    if bid.trumps == "named":
        return f"{suit}: named {who(state.declarer)}"
    return f"{suit}: led"


def column(verdict: Verdict, seats: Sequence[int]) -> list[str]:
    """The cells of one ruleset's column, in the order of :data:`ROWS`, then a net gain per
    seat. A hand played on past a refused step says so (``on past 6``), and so does one that
    stops there (``stops at 6``)."""
    state = verdict.state
    none = ["-" for _ in seats]
    if verdict.setup is not None:
        return ["cannot", "-", "-", verdict.setup.rule, "-", "-", "-", "-", "-", *none]
    parting = verdict.parting
    contract = _contract(state) if state is not None else "-"
    dealt = "dealt anyway" if any(a.step == 0 for a in verdict.assumed) else "dealt"
    filled = [a for a in verdict.assumed if a.step > 0]
    assumed = f"{len(filled)} step{'s' if len(filled) != 1 else ''}" if filled else "-"
    later = [str(p.step) for p in verdict.later]  # "step 5", "steps 5 9": refused too
    also = f"step{'s' if len(later) > 1 else ''} {' '.join(later)}" if later else "-"
    if parting is not None:
        play = f"on past {parting.step}" if verdict.played_on else f"stops at {parting.step}"
        first = [f"{who(parting.seat)} {parting.action}", parting.rule, also]
    elif verdict.stopped is not None:
        play, first = "stops", ["-", "-", also]
    else:
        play, first = ("legal" if state is not None and state.result is not None
                       else "legal so far"), ["-", "-", also]
    if state is None or state.result is None:
        return [dealt, play, *first, contract, trumps_cell(verdict), assumed, "-", *none]
    result = state.result
    made = "-" if result.thrown_in else f"{'made' if result.made else 'lost'} ({result.tricks})"
    return [dealt, play, *first, contract, trumps_cell(verdict), assumed, made,
            *(_signed(result.net[s]) for s in seats)]


ROWS = ("deal", "play", "step", "rule", "also", "contract", "trumps", "assumed", "result")
"""The table's rows (then each seat's net gain): ``step`` and ``rule`` the first step refused,
``also`` the steps refused after it (played on), ``assumed`` how many steps the hand lacked
were filled. A row with nothing in any column is left out."""


def table(verdicts: Sequence[Verdict], seats: Sequence[int], width: int = 100) -> list[str]:
    """The verdicts side by side (the module's docstring): rows :data:`ROWS` and each
    seat's net gain, a column per ruleset."""
    heads = [*ROWS, *(f"{who(s)} net" for s in seats)]
    columns = [[v.target.label, *column(v, seats)] for v in verdicts]
    kept = [0, *(row for row in range(1, len(heads) + 1)
                 if any(col[row] != "-" for col in columns))]
    heads = [heads[row - 1] for row in kept[1:]]
    columns = [[col[row] for row in kept] for col in columns]
    label = max(text_width(h) for h in heads)
    sizes = [min(CELL, max(text_width(printable(c)) for c in col)) for col in columns]
    lines: list[str] = []
    start = 0
    while start < len(columns):
        end, used = start, label
        while end < len(columns) and (end == start or used + 2 + sizes[end] <= width):
            used += 2 + sizes[end]
            end += 1
        if lines:
            lines.append("")
        block = columns[start:end]
        lines += output_table(["", *(col[0] for col in block)],
                              [[head, *(col[row] for col in block)]
                               for row, head in enumerate(heads, 1)],
                              "<" * (len(block) + 1), rule=True, limit=CELL)
        start = end
    return lines


def verdict_words(verdict: Verdict) -> list[str]:
    """One ruleset's verdict in sentences, without the rules' texts: the bids read as another,
    the steps filled, where the hand cannot be dealt, the first step refused and every one
    after it (played on, or why it stops), and what the hand settles."""
    lines = list(verdict.readings)
    lines += [f"assumed: {a.words}" for a in verdict.assumed]
    if verdict.setup is not None:
        hint = (" (--deal-anyway deals it all the same)" if verdict.setup.rule == "NAP-2.2.1"
                else "")
        return [*lines, f"cannot deal this hand: {verdict.setup}{hint}"]
    state = verdict.state
    parting = verdict.parting
    if parting is not None:
        lines.append(f"refuses step {parting.step}: {who(parting.seat)} {parting.action}: "
                     f"{parting.rule}: {parting.message}")
    lines += [f"then also refuses step {p.step}: {who(p.seat)} {p.action}: {p.rule}: "
              f"{p.message}" for p in verdict.later]
    if verdict.stopped is not None:
        lines.append(f"stops here: {verdict.stopped}")
        return lines
    allowed = ("every step is allowed;" if verdict.legal
               else "played on as the table played it:")
    if state is None or state.result is None:
        phase = state.phase_name if state is not None else "deal"
        return [*lines, f"{allowed} the hand stops in the {phase}"]
    result = state.result
    if result.thrown_in:
        lines.append(f"{allowed} nobody bid: the hand is thrown in")
    else:
        bid = state.game.rules.bids[state.contract]
        lines.append(f"{allowed} {who(state.declarer)} bid {bid.id} ({bid.name}) and "
                     f"{'made' if result.made else 'lost'} it with {result.tricks} "
                     f"trick{'s' if result.tricks != 1 else ''}")
    if result.payments:
        lines.append(payments_line(state))
    return lines


def payments_line(state: HandState) -> str:
    """Every payment of a settled hand in one line, those alike together: ``S2, S3, S0 each
    pay S1 3 (NAP-9.1.1)``."""
    assert state.result is not None
    groups: dict[tuple[int, int, str], list[int]] = {}
    for p in state.result.payments:
        groups.setdefault((p.payee, p.amount, p.rule), []).append(p.payer)
    parts = []
    for (payee, amount, rule), payers in groups.items():
        pay = "each pay" if len(payers) > 1 else "pays"
        parts.append(f"{', '.join(who(p) for p in payers)} {pay} {who(payee)} {amount} "
                     f"({rule})")
    return "; ".join(parts)


def cited_rules(spec: Spec, verdict: Verdict) -> list[str]:
    """The rules a verdict names, in the law book's order: the deal's, the steps refused,
    the payments'."""
    rules = {verdict.setup.rule} if verdict.setup is not None else set()
    rules |= {p.rule for p in (verdict.parting, *verdict.later) if p is not None}
    state = verdict.state
    if state is not None and state.result is not None and verdict.setup is None:
        rules |= {p.rule for p in state.result.payments}
    return sorted(rules, key=spec.lawbook.order)


def heading(verdict: Verdict) -> str:
    """A verdict's heading: ``pagat (Nap (pagat.com, standard game))``. A house file's title
    comes from outside: escaped for the terminal and cut when long."""
    title = cut(printable(verdict.target.ruleset.title), TITLE_COLUMNS)
    return f"{verdict.target.label} ({title})"


#: The columns a ruleset's title takes at most in a heading (a house file's may hold 200).
TITLE_COLUMNS = 80


def details(spec: Spec, verdict: Verdict, width: int = 100,
            shown: Shown | None = None) -> list[str]:
    """One ruleset's verdict in words (:func:`verdict_words`), each rule it names with its
    text and its source's lines (``napkit replay --long``). With ``shown`` (one for the whole
    output), each rule text and quotation is printed once."""
    lines = [heading(verdict)]
    for words in verdict_words(verdict):
        lines += wrap(words, "  ", width)
    for rule in cited_rules(spec, verdict):
        lines += rule_lines(spec, rule, verdict.target.ruleset, "  ", width, shown)
    return lines


def short(spec: Spec, verdicts: Sequence[Verdict], width: int = 100) -> list[str]:
    """The verdicts in words, short (``napkit replay`` without ``--long``): each ruleset's
    verdict (:func:`verdict_words`) and the rules it names with where its source says them;
    then each rule's text once. The sources' lines are quoted by ``--long``, which prints all
    of this and them under every ruleset."""
    lines: list[str] = []
    named: list[str] = []
    for verdict in verdicts:
        ruleset = verdict.target.ruleset
        lines += [*([""] if lines else []), heading(verdict)]
        for words in verdict_words(verdict):
            lines += wrap(words, "  ", width)
        cites = []
        for rule in cited_rules(spec, verdict):
            citations = ruleset.rules.get(rule)
            where = (f"{spec.index.name(ruleset.source)}: "
                     f"{cite_list(spec, ruleset.source, citations)}" if citations
                     else f"not in force in {ruleset.id}")
            cites.append(f"{rule} ({where})")
            named += [rule] if rule not in named else []
        if cites:
            lines += wrap("rules: " + "; ".join(cites), "  ", width)
    if named:
        lines += ["", "The rules named above (--long quotes the sources' lines under each "
                      "ruleset):"]
        for rule in sorted(named, key=spec.lawbook.order):
            lines += rule_lines(spec, rule, None, "  ", width)
    return lines


def summary(verdicts: Sequence[Verdict]) -> str:
    """One line: under which rulesets the hand is legal, and where it is not."""
    legal = [v.target.label for v in verdicts if v.legal]
    not_legal = [f"{v.target.label} ({v.rule})" for v in verdicts if not v.legal]
    if len(verdicts) == 1:
        return f"legal under {legal[0]}" if legal else f"not legal under {not_legal[0]}"
    if not not_legal:
        return f"legal under all {len(verdicts)} rulesets"
    if not legal:
        return f"legal under none of the {len(verdicts)} rulesets"
    return (f"legal only under {', '.join(legal)}; not under {', '.join(not_legal)}")


def as_json(verdicts: Sequence[Verdict]) -> list[dict[str, object]]:
    """The verdicts as JSON values (``napkit replay --json``)."""
    out: list[dict[str, object]] = []
    for v in verdicts:
        entry: dict[str, object] = {"ruleset": v.target.ruleset.id,
                                    "options": dict(v.target.choices), "legal": v.legal,
                                    "finished": v.finished, "steps": v.steps,
                                    "readings": list(v.readings)}
        if v.setup is not None:
            entry["deal"] = {"rule": v.setup.rule, "message": v.setup.message}
        if v.parting is not None:
            entry["parts"] = _parting_json(v.parting)
        # Additions (issue 30): the steps refused after the first, played on; the steps the
        # hand lacked, filled; why the replay stopped short; how trumps were fixed.
        entry["later"] = [_parting_json(p) for p in v.later]
        entry["assumed"] = [{"step": a.step, "action": a.action, "words": a.words}
                            for a in v.assumed]
        entry["played_on"] = v.played_on
        entry["stopped"] = v.stopped
        entry["trumps"] = trumps_cell(v)
        state = v.state
        if v.setup is None and state is not None and state.result is not None:
            r = state.result
            entry["settlement"] = {
                "thrown_in": r.thrown_in,
                "declarer": None if r.thrown_in else state.declarer,
                "contract": None if r.thrown_in else state.game.rules.bids[state.contract].id,
                "declarer_tricks": r.tricks, "made": r.made,
                "payments": [{"payer": "pool" if p.payer == POOL else p.payer,
                              "payee": "pool" if p.payee == POOL else p.payee,
                              "amount": p.amount, "rule": p.rule} for p in r.payments],
                "net": list(r.net)}
        out.append(entry)
    return out


def _parting_json(p: Parting) -> dict[str, object]:
    return {"step": p.step, "seat": p.seat, "action": p.action, "rule": p.rule,
            "message": p.message}


def card_list(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)
