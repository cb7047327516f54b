"""``{napkit-disagreements}``: the page "Where the sources disagree", written from the spec at
build time by :mod:`napkit.dispute.disagreements`: each rule the sources' games answer
differently, each answer with the games that give it and the lines of their sources, and a
worked hand replayed under every source's game (the cards as cards)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from napkit.dispute.disagreements import (
    MATCH_CHAPTERS,
    NOT_IN_A_HAND,
    PLAYERS,
    SEEDS,
    Point,
    every_point,
    source_games,
)
from napkit.dispute.replay import Verdict, dealt
from napkit.dispute.report import ROWS, column, who
from napkit.engine.cards import cards_of, parse_card
from napkit.formats.values import action_from_json
from napkit.site.nodes import Cell, Inline, code, link, para, section, table, text
from napkit.site.pages import citations, current, rule_link, ruleset_doc, source_link
from napkit.site.viewers import viewer_link
from napkit.spec.catalog import Spec
from napkit.spec.render import card_text, hand_text

_FOUND: dict[int, tuple[Point, ...]] = {}  # by id(spec): the search runs once a build


def _points(spec: Spec) -> tuple[Point, ...]:
    found = _FOUND.get(id(spec))
    if found is None:
        found = _FOUND[id(spec)] = tuple(every_point(spec))
    return found


def _verdict_cells(verdict: Verdict, seats: Sequence[int]) -> list[Cell]:
    if verdict.setup is not None:
        return [f"cannot deal it: {verdict.setup.message}", [link(verdict.setup.rule, "lawbook",
                                                                    verdict.setup.rule)],
                *("" for _ in seats)]
    parting = verdict.parting
    if parting is not None:
        return [f"parts at step {parting.step}, {who(parting.seat)} {parting.action}: "
                f"{parting.message}", [link(parting.rule, "lawbook", parting.rule)],
                *("" for _ in seats)]
    state = verdict.state
    if state is None or state.result is None:
        return ["legal so far", "", *("" for _ in seats)]
    result = state.result
    rules = sorted({p.rule for p in result.payments})
    if result.thrown_in:
        what = "legal; thrown in"
    else:
        bid = state.game.rules.bids[state.contract]
        what = (f"legal; {who(state.declarer)} {'makes' if result.made else 'loses'} "
                f"{bid.name} ({result.tricks} tricks)")
    ruled: list[Inline] = []
    for n, rule in enumerate(rules):
        if n:
            ruled.append(text(", "))
        ruled.append(link(rule, "lawbook", rule))
    return [what, ruled, *column(verdict, seats)[len(ROWS):]]  # the nets as replay's table


def _hand(point: Point) -> list[nodes.Node]:
    record = point.hand
    assert record is not None
    game = record["ruleset"]
    deal = [parse_card(c) for c in record["deal"]]
    _, state = dealt(record)
    lines = [f"{who(seat)}: {hand_text(cards_of(state.hands[seat]), symbols=True)}"
             for seat in state.order]
    steps = [f"{n}. {who(step['seat'])} {_action(step)}"
             for n, step in enumerate(record["actions"], start=1)]
    kept = ("each seat is dealt the cards it held" if point.same == "hands"
            else "the pack keeps its order, and each game deals it its own way")
    out: list[nodes.Node] = [
        para(f"A hand of {PLAYERS} dealt and played under ", code(game),
             f" ({len(deal)}-card pack, {who(record['dealer'])} deals); under the others {kept}."
             " Step 1 is the first action after the deal."),
        nodes.literal_block("", "\n".join([*lines, "", *_wrap(steps)]))]
    seats = list(state.order)
    rows: list[list[Cell]] = []
    for verdict in point.verdicts:
        rid = verdict.target.ruleset.id
        rows.append([[link(rid, ruleset_doc(rid))], *_verdict_cells(verdict, seats)])
    out.append(table(["game", "the hand under it", "rule", *(f"{who(s)} net" for s in seats)],
                     rows))
    return out


def _action(step: dict[str, Any]) -> str:
    """An action as typed, its cards with their suits' symbols."""
    words = []
    for token in str(action_from_json(step["action"])).split():
        try:
            words.append(card_text(parse_card(token), symbols=True))
        except ValueError:
            words.append(token)
    return " ".join(words)


def _wrap(items: list[str], width: int = 88) -> list[str]:
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(line) + 3 + len(item) > width:
            lines.append(line)
            line = ""
        line = f"{line}   {item}" if line else item
    if line:
        lines.append(line)
    return lines


class DisagreementsDirective(SphinxDirective):
    """``{napkit-disagreements}``: see the module."""

    def run(self) -> list[nodes.Node]:
        spec = current().spec
        games = source_games(spec)
        out: list[nodes.Node] = [para(
            "The sources' games compared: ",
            *[n for r in games for n in ([link(r.id, ruleset_doc(r.id)), text(" ")])],
            text(f"(each at its default options). {len(_points(spec))} rules are answered "
                 "differently."))]
        for point in _points(spec):
            rule = point.rule
            part = section(f"disagree-{rule.id}", f"{rule.id} {rule.title}")
            part += para(*rule_link(rule.id, spec, with_title=False), text(": "),
                         text(rule.text.split(". ")[0].rstrip(".") + "."))
            rows: list[list[Cell]] = []
            for answer in point.answers:
                for ruleset in answer.rulesets:
                    cites = ruleset.rules.get(rule.id)
                    rows.append([[link(ruleset.id, ruleset_doc(ruleset.id))],
                                 source_link(spec, ruleset.source), answer.value,
                                 citations(spec, ruleset, cites) if cites else "—"])
            part += table(["game", "source", "its answer", "where the source says it"], rows)
            if point.hand is not None:
                part.extend(_hand(point))
                part += viewer_link(self.env.docname, f"disagree-{rule.id}", point.hand,
                                    f"{rule.id} {rule.title}: a worked hand", point.verdicts,
                                    point.same)
            elif rule.chapter_id in MATCH_CHAPTERS or rule.id in NOT_IN_A_HAND:
                part += para("No worked hand: this rule does not show in the play of one "
                             "hand (it is about the table, the match or the players' conduct).")
            else:
                part += para(f"No worked hand: none of the {SEEDS} hands tried from each "
                             "game's side shows it (it needs a rarer hand than the engine's "
                             "players make from those seeds).")
            out.append(part)
        return out
