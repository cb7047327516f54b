"""A hand as a picture a player steps through (issue 30, "Look, don't read"): the page of a
hand viewer, as bridge players know from hand viewers, with each ruleset's verdict beside it.

:func:`hand_view` turns a recorded hand and its verdicts
(:func:`napkit.dispute.replay.replay_under`) into the page's data: the seats round the
table, each seat's cards at every step, the steps (the auction, then the tricks, each
trick's winner as the hand's own ruleset rules it), every ruleset's verdict
(:func:`verdict_view`, the one place that reads a :class:`~napkit.dispute.replay.Verdict`),
and the rules the verdicts cite, each once. :func:`viewer_page` draws it from the template
``viewer.html`` (autoescaped; the data goes into the page as JSON through ``|tojson``): one
self-contained page (``napkit replay HAND --html FILE``), or one of the rules site's pages,
which share one script and style sheet.

The page's script draws the position at each step from this data alone: which cards each
seat holds and who wins a trick are worked out here, by the engine, never in the script.

>>> import json
>>> from napkit import Game, load_spec
>>> from napkit.dispute.replay import replay_under, target
>>> from napkit.formats.recording import record_text, table_hands
>>> record = json.loads(record_text(table_hands(Game.create("classic", 4), seed=2, hands=1)))
>>> spec = load_spec()
>>> view = hand_view(spec, record, [replay_under(record, target(spec, "napoleon"))])
>>> len(view["positions"]) == len(record["actions"]) + 1, view["verdicts"][0]["label"]
(True, 'napoleon')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from napkit.dispute.replay import Target, Verdict, dealt, replay_under
from napkit.dispute.report import ROWS, column, who
from napkit.engine.actions import Play
from napkit.engine.cards import card_name, cards_of, rank_of, suit_of
from napkit.errors import UsageError
from napkit.formats.values import action_from_json
from napkit.output.tables import cut, printable
from napkit.spec.catalog import Spec
from napkit.spec.views import cite_list

__all__ = ["TITLE", "hand_view", "verdict_view", "viewer_page", "write_viewer"]

TITLE = 80  # the longest a title, label or player's name from outside is shown
MESSAGE = 240  # the longest a refusal's message is shown


def _short(value: object, limit: int = TITLE) -> str:
    """Text from outside (a house file's title, a file name, a message): printable, cut."""
    return cut(printable(str(value)), limit)


def verdict_view(verdict: Verdict, seats: Sequence[int]) -> dict[str, Any]:
    """One ruleset's verdict as the page shows it: the only function that reads a
    :class:`~napkit.dispute.replay.Verdict`'s fields. The steps it refuses (the first, then
    any later ones, played on as the table played them), the steps it assumed where the hand
    lacks one, and what it settles: the contract and result cells and each seat's net as
    ``napkit replay``'s table has them (:func:`napkit.dispute.report.column`)."""
    refused = [verdict.parting] if verdict.parting is not None else []
    refused += verdict.later
    cells = column(verdict, seats)
    row = dict(zip(ROWS, cells, strict=False))
    state = verdict.state
    result = state.result if state is not None else None
    return {
        "label": _short(verdict.target.label),
        "title": _short(verdict.target.ruleset.title),
        "ruleset": verdict.target.ruleset.id,
        "setup": None if verdict.setup is None else {
            "rule": verdict.setup.rule, "message": _short(verdict.setup.message, MESSAGE)},
        "refused": [{"step": p.step, "seat": who(p.seat), "action": _short(p.action),
                     "rule": p.rule, "message": _short(p.message, MESSAGE)} for p in refused],
        "assumed": [{"step": a.step, "words": _short(a.words, MESSAGE)}
                    for a in verdict.assumed],
        "readings": [_short(r, MESSAGE) for r in verdict.readings],
        "stopped": None if verdict.stopped is None else _short(verdict.stopped, MESSAGE),
        "settled": result is not None,
        "contract": row.get("contract", "-"),
        "trumps": row.get("trumps", "-"),  # the suit and how it was fixed, where known
        "result": row.get("result", "-"),
        "net": list(cells[len(ROWS):]),
        "payments": [] if result is None else [
            {"payer": who(p.payer), "payee": who(p.payee), "amount": p.amount, "rule": p.rule}
            for p in result.payments],
    }


def _cited(verdict: Verdict) -> list[str]:
    """The rules a verdict cites: its refusals' and its payments'."""
    found = [verdict.setup.rule] if verdict.setup is not None else []
    found += [p.rule for p in ([verdict.parting] if verdict.parting else [])]
    found += [p.rule for p in verdict.later]
    state = verdict.state
    if state is not None and state.result is not None:
        found += [p.rule for p in state.result.payments]
    return found


def _rules(spec: Spec, verdicts: Sequence[Verdict]) -> list[dict[str, Any]]:
    """Every rule the verdicts cite, once, in the law book's order: its text, and where each
    ruleset citing it finds it in its source."""
    by_rule: dict[str, list[Verdict]] = {}
    for verdict in verdicts:
        for cited in _cited(verdict):
            citing = by_rule.setdefault(cited, [])
            if verdict not in citing:
                citing.append(verdict)
    out: list[dict[str, Any]] = []
    for rule_id in sorted(by_rule, key=spec.lawbook.order):
        rule = spec.lawbook.get(rule_id)
        cites: list[str] = []
        for verdict in by_rule[rule_id]:
            ruleset = verdict.target.ruleset
            citations = ruleset.rules.get(rule_id)
            where = (f"{spec.index.name(ruleset.source)}: "
                     f"{cite_list(spec, ruleset.source, citations)}" if citations
                     else "not in force")
            cites.append(f"{_short(verdict.target.label)}: {where}")
        out.append({"id": rule_id, "title": rule.title if rule else "",
                    "text": rule.text if rule else "", "cites": cites})
    return out


def _names(cards: Sequence[int]) -> list[str]:
    """Cards as the page reads them (``10H``), spades to clubs, high cards first."""
    return [card_name(c) for c in sorted(cards, key=lambda c: (suit_of(c), -rank_of(c)))]


@dataclass(frozen=True)
class _Step:
    seat: int | None
    words: str
    card: str | None  # the card played, for a play


def _positions(record: Mapping[str, Any], own: Verdict | None
               ) -> tuple[list[_Step], list[list[list[str]]], list[str | None]]:
    """Each step of the record, each seat's cards after every step (the first just after the
    deal) and the widow where there is one: as the hand's own ruleset has them, played on
    past a step it refuses as the table played it (``own.positions``); past a step it
    cannot follow, each card played is taken from its seat's hand as it was."""
    followed = list(own.positions) if own is not None and own.positions else [dealt(record)[1]]
    state = followed[0]
    hands = [list(cards_of(mask)) for mask in state.hands]
    positions = [[_names(h) for h in hands]]
    widows = [card_name(state.widow) if state.widow >= 0 else None]
    steps: list[_Step] = []
    for number, step in enumerate(record["actions"], start=1):
        action = action_from_json(step["action"], ["actions", number - 1, "action"])
        seat = step["seat"]
        if number < len(followed):
            state = followed[number]
            hands = [list(cards_of(mask)) for mask in state.hands]
            widows.append(card_name(state.widow) if state.widow >= 0 else None)
        else:
            if isinstance(action, Play) and seat is not None and 0 <= seat < len(hands) \
                    and action.card in hands[seat]:
                hands[seat].remove(action.card)
            widows.append(widows[-1])
        card = card_name(action.card) if isinstance(action, Play) else None
        steps.append(_Step(seat, _short(str(action)), card))
        positions.append([_names(h) for h in hands])
    return steps, positions, widows


def _own(spec: Spec, record: Mapping[str, Any], verdicts: Sequence[Verdict]) -> Verdict | None:
    """The hand under its own ruleset and options: one of ``verdicts``, else replayed."""
    options = dict(record.get("options") or {})
    for verdict in verdicts:
        if (verdict.target.ruleset.id == record["ruleset"]
                and dict(verdict.target.choices) == options):
            return verdict
    ruleset = spec.rulesets.get(record["ruleset"])
    return None if ruleset is None else replay_under(record, Target(ruleset, options))


def _tricks(steps: Sequence[_Step], size: int, own: Verdict | None) -> list[dict[str, Any]]:
    """The plays, a trick to each ``size`` of them; each trick's winner as the own ruleset's
    last position has it (None where that ruleset did not play the trick so)."""
    plays = [n for n, step in enumerate(steps, start=1) if step.card is not None]
    ruled = own.state.tricks if own is not None and own.state is not None else ()
    out: list[dict[str, Any]] = []
    for index in range(0, len(plays), size):
        numbers = plays[index:index + size]
        cards = [(steps[n - 1].seat, steps[n - 1].card) for n in numbers]
        winner = None
        if index // size < len(ruled):
            trick = ruled[index // size]
            if [card_name(c) for c in trick.cards] == [c for _, c in cards]:
                winner = trick.winner
        out.append({"steps": numbers, "cards": [[s, c] for s, c in cards],
                    "winner": winner})
    return out


def hand_view(spec: Spec, record: Mapping[str, Any], verdicts: Sequence[Verdict],
              title: str = "") -> dict[str, Any]:
    """The viewer page's data for ``record`` and its ``verdicts`` (the module's docstring).
    ``title`` (a file name, say) is text from outside: shortened."""
    own = _own(spec, record, verdicts)
    steps, positions, widows = _positions(record, own)
    seats = list(record["seats"])  # as napkit replay's table orders its net rows
    return {
        "title": _short(title or f"a hand of {record['ruleset']}"),
        "ruleset": record["ruleset"], "players": record["players"],
        "dealer": record["dealer"], "seats": seats,
        "positions": positions, "widows": widows,
        "steps": [{"seat": s.seat, "who": who(s.seat), "words": s.words, "card": s.card}
                  for s in steps],
        "tricks": _tricks(steps, len(seats), own),
        "declarer": (own.state.declarer if own is not None and own.state is not None
                     and own.state.declarer >= 0 else None),
        "verdicts": [verdict_view(v, seats) for v in verdicts],
        "rules": _rules(spec, verdicts),
    }


def viewer_page(view: Mapping[str, Any], shared: str | None = None, back: str = "") -> str:
    """The viewer page of ``view`` (:func:`hand_view`): self-contained, its style and script
    inline; or, with ``shared`` (the URL of a folder holding ``viewer.css`` and
    ``viewer.js``), a page of the rules site that loads them from there. ``back``: a link to
    the page that shows the hand."""
    from napkit.output.pages import render

    return render("viewer.html", view=view, shared=shared, back=back,
                  title=f"{view['title']}: the hand step by step")


def write_viewer(path: str, hand: str, spec: Spec, record: Mapping[str, Any],
                 verdicts: Sequence[Verdict]) -> None:
    """``napkit replay HAND --html FILE``: the self-contained page written whole to ``path``
    (:mod:`napkit.output.files`: a failed run leaves no half page and the old file as it was);
    a path that cannot be written, or that is the hand itself or standard output, is a
    :class:`~napkit.errors.UsageError` on one line."""
    from napkit.output.files import OutputFile, is_stdout, refuse_clashes

    if is_stdout(path):
        raise UsageError(f"--html {path}: give the page a file of its own (it is written "
                         "whole, not to standard output)")
    refuse_clashes([("--html", path)], [("the hand", hand)])
    page = viewer_page(hand_view(spec, record, verdicts, title=hand))
    try:
        with OutputFile(path) as out:
            out.commit(page)
    except OSError as exc:
        raise UsageError(f"--html {path}: cannot write the page: "
                         f"{exc.strerror or exc}") from None
