"""Verdicts laid out for reading: one table with a column per ruleset, then each ruleset's
parting or settlement in words, with the rule's text and its source's lines; and as JSON.

The table is split into as many blocks as the terminal's width needs, each block a slice of
the columns under the same row headings (as wide tables are printed by pandas), so that ten
rulesets read on an 80-column terminal as well as on a wide one.
"""

from __future__ import annotations

from collections.abc import Sequence

from napkit.dispute.citing import Shown, rule_lines
from napkit.dispute.replay import Verdict
from napkit.engine.cards import card_name
from napkit.engine.hand import HandState
from napkit.engine.state import POOL
from napkit.output.tables import printable
from napkit.output.tables import table as output_table
from napkit.output.tables import width as text_width
from napkit.spec.catalog import Spec
from napkit.spec.views import wrap

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


def column(verdict: Verdict, seats: Sequence[int]) -> list[str]:
    """The cells of one ruleset's column, in the order of :data:`ROWS`, then a net gain per
    seat."""
    state = verdict.state
    none = ["-" for _ in seats]
    if verdict.setup is not None:
        return ["cannot", "-", "-", verdict.setup.rule, "-", "-", *none]
    parting = verdict.parting
    contract = _contract(state) if state is not None else "-"
    if parting is not None:
        return ["dealt", f"parts at {parting.step}", f"{who(parting.seat)} {parting.action}",
                parting.rule, contract, "-", *none]
    if state is None or state.result is None:
        return ["dealt", "legal so far", "-", "-", contract, "-", *none]
    result = state.result
    made = "-" if result.thrown_in else f"{'made' if result.made else 'lost'} ({result.tricks})"
    return ["dealt", "legal", "-", "-", contract, made, *(_signed(result.net[s]) for s in seats)]


ROWS = ("deal", "play", "step", "rule", "contract", "result")


def table(verdicts: Sequence[Verdict], seats: Sequence[int], width: int = 100) -> list[str]:
    """The verdicts side by side (the module's docstring): rows :data:`ROWS` and each
    seat's net gain, a column per ruleset."""
    heads = [*ROWS, *(f"{who(s)} net" for s in seats)]
    columns = [[v.target.label, *column(v, seats)] for v in verdicts]
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


def details(spec: Spec, verdict: Verdict, width: int = 100,
            shown: Shown | None = None) -> list[str]:
    """One ruleset's verdict in words: where it parts (the step, the action, the rule with its
    text and source lines), or what the hand settles (every payment, with its rule). With
    ``shown`` (one for the whole output), each rule text and quotation is printed once."""
    lines = [f"{verdict.target.label} ({verdict.target.ruleset.title})"]
    ruleset = verdict.target.ruleset
    lines += [f"  {reading}" for reading in verdict.readings]
    if verdict.setup is not None:
        lines += wrap(f"cannot deal this hand: {verdict.setup}", "  ", width)
        lines += rule_lines(spec, verdict.setup.rule, ruleset, "  ", width, shown)
        return lines
    parting = verdict.parting
    state = verdict.state
    if parting is not None:
        lines += wrap(f"parts at step {parting.step}: {who(parting.seat)} {parting.action}: "
                      f"{parting.rule}: {parting.message}", "  ", width)
        lines += rule_lines(spec, parting.rule, ruleset, "  ", width, shown)
        return lines
    if state is None or state.result is None:
        phase = state.phase_name if state is not None else "deal"
        lines.append(f"  every step is allowed; the hand stops in the {phase}")
        return lines
    result = state.result
    if result.thrown_in:
        lines.append("  every step is allowed; nobody bid: the hand is thrown in")
    else:
        bid = state.game.rules.bids[state.contract]
        lines.append(f"  every step is allowed; {who(state.declarer)} bid {bid.id} "
                     f"({bid.name}) and {'made' if result.made else 'lost'} it with "
                     f"{result.tricks} trick{'s' if result.tricks != 1 else ''}")
    for payment in result.payments:
        lines.append(f"  {who(payment.payer)} pays {who(payment.payee)} {payment.amount} "
                     f"({payment.rule})")
    rules = sorted({p.rule for p in result.payments}, key=spec.lawbook.order)
    for rule in rules:
        lines += rule_lines(spec, rule, ruleset, "  ", width, shown)
    return lines


def summary(verdicts: Sequence[Verdict]) -> str:
    """One line: under which rulesets the hand is legal, and where it is not."""
    legal = [v.target.label for v in verdicts if v.legal]
    not_legal = [f"{v.target.label} ({v.rule})" for v in verdicts if not v.legal]
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
            p = v.parting
            entry["parts"] = {"step": p.step, "seat": p.seat, "action": p.action,
                              "rule": p.rule, "message": p.message}
        state = v.state
        if v.legal and state is not None and state.result is not None:
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


def card_list(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards)
