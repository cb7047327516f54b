"""One position of a hand, explained: where things stand, who is to act, everything they may
do, and whether a proposed action is allowed, by which rule (its text, its sources' lines, the
decisions behind it).

The position at step N is the hand after steps 1 to N-1 (step 1 is the first action after the
deal): step N is the action about to be made. Under a ruleset other than the record's, the
same cards are dealt to the same seats (:mod:`napkit.dispute.deals`), as
:mod:`napkit.dispute.replay` does.

>>> import json
>>> from napkit import Game, load_spec
>>> from napkit.dispute.replay import Target
>>> from napkit.formats.recording import record_text, table_hands
>>> record = json.loads(record_text(table_hands(Game.create("pagat", 3), seed=1, hands=1)))
>>> spec = load_spec()
>>> position = locate(record, 1, Target(spec.rulesets["pagat"], {}))
>>> position.step, position.state.phase_name
(1, 'auction')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from napkit.dispute.citing import Shown, rule_lines
from napkit.dispute.replay import Assumed, Parting, Target, Verdict, replay_under
from napkit.dispute.report import who
from napkit.engine.actions import Action, Buy, Play
from napkit.engine.cards import SUIT_NAMES, card_name, cards_of
from napkit.engine.hand import HandState
from napkit.engine.state import CHANCE, NO_TRUMPS
from napkit.formats.notation import parse_action
from napkit.formats.values import action_from_json
from napkit.spec.catalog import Spec
from napkit.spec.coverage import exercised
from napkit.spec.render import hand_text
from napkit.spec.views import wrap


@dataclass(frozen=True)
class Position:
    """The hand before step ``step`` under ``target``; ``parting`` where the replay was
    refused before it got there (the position is then the one at the refused step)."""

    target: Target
    step: int
    state: HandState
    recorded: Mapping[str, Any] | None  # the step the record makes here, if it goes on
    parting: Parting | None = None
    played_on: tuple[Parting, ...] = ()  # steps before it refused, played as the table did
    assumed: tuple[Assumed, ...] = ()  # steps the hand lacks, filled on the way here


class StepError(ValueError):
    """A step the hand does not have."""


def locate(record: Mapping[str, Any], step: int, under: Target) -> Position:
    """The position before ``step`` (1 to the number of actions plus one: the position after
    the last)."""
    actions = list(record["actions"])
    if not 1 <= step <= len(actions) + 1:
        raise StepError(f"the hand has steps 1 to {len(actions)} (and {len(actions) + 1}, the "
                        f"position after the last): no step {step}")
    cut = dict(record)
    cut["actions"] = actions[:step - 1]
    verdict: Verdict = replay_under(cut, under)
    if verdict.setup is not None:
        raise verdict.setup
    assert verdict.state is not None
    recorded = actions[step - 1] if step <= len(actions) else None
    refused = tuple(p for p in (verdict.parting, *verdict.later) if p is not None)
    if verdict.stopped is not None and refused:  # it stops at its last refused step
        last = refused[-1]
        return Position(under, last.step, verdict.state, actions[last.step - 1], last,
                        refused[:-1], verdict.assumed)
    return Position(under, step, verdict.state, recorded, None, refused, verdict.assumed)


@dataclass(frozen=True)
class Ruling:
    """A proposed action at a position: allowed or not, and the rules that say so."""

    action: str
    seat: int
    allowed: bool
    rules: tuple[str, ...]  # the refusal's rule; or, allowed, the rules checked in allowing it
    message: str


def rule_on(position: Position, text: str) -> Ruling:
    """Whether the player to act may make ``text`` (typed as at the table: ``7H``, ``bid
    nap``, ``pass``) at ``position``; raises :class:`~napkit.formats.notation.NotationError`
    for text that is no action. Allowed, its rules are those the engine checked in allowing
    it (read off the engine as it runs, :func:`napkit.spec.coverage.exercised`), less the
    turn's own (NAP-1.3.1), which every action passes."""
    state = position.state
    action = parse_action(text)
    seat = state.turn
    if state.is_over():
        return Ruling(str(action), seat, False, ("NAP-1.3.3",), "the hand is over")
    refusal = state.refusal(action)
    if refusal is not None:
        return Ruling(str(action), seat, False, (refusal.rule,), refusal.message)
    _, rules = exercised(lambda: state.apply(action))
    return Ruling(str(action), seat, True, tuple(sorted(rules - {"NAP-1.3.1"})), "allowed")


def legal_text(legal: tuple[Action, ...]) -> list[str]:
    """Every legal action, plays as their cards, bids in order, purchases counted."""
    plays = [card_name(a.card) for a in legal if isinstance(a, Play)]
    buys = [a for a in legal if isinstance(a, Buy)]
    others = [str(a) for a in legal if not isinstance(a, Play | Buy)]
    lines = []
    if plays:
        lines.append("play " + " ".join(plays))
    if buys:
        most = max(a.cards.bit_count() for a in buys)
        lines.append(f"buy: {len(buys)} ways (any {most} or fewer of the hand's cards), or "
                     "buy nothing" if most else "buy nothing")
    if others:
        lines.append(", ".join(others))
    return lines


def _trumps(state: HandState) -> str:
    if state.trumps < 0:
        return "not yet fixed"
    return "none (no trumps)" if state.trumps == NO_TRUMPS else SUIT_NAMES[state.trumps]


def position_lines(spec: Spec, position: Position, width: int = 100) -> list[str]:
    """The position drawn for a person: the hands (every card face up: this is for settling
    what happened, not for playing), the widow and stock, the calls, the contract and trumps,
    the tricks, the pool; then who is to act and every legal action."""
    state = position.state
    game = state.game
    rules = game.rules
    label = position.target.label
    lines = [f"{label}, {game.players} players, dealer {who(state.dealer)}: "
             f"the position at step {position.step} ({state.phase_name})"]
    if position.parting is not None:
        p = position.parting
        lines += wrap(f"(the replay stops here: step {p.step}, {who(p.seat)} {p.action}, is "
                      f"refused: {p.rule}: {p.message})", "", width)
    for p in position.played_on:
        lines += wrap(f"(step {p.step}, {who(p.seat)} {p.action}, is refused: {p.rule}: "
                      f"{p.message}; played on as the table played it)", "", width)
    for a in position.assumed:
        lines += wrap(f"(assumed: {a.words})", "", width)
    lines.append("")
    for seat in state.order:
        marks = []
        if seat == state.turn:
            marks.append("to act")
        if seat == state.declarer and state.contract >= 0:
            marks.append("declarer")
        mark = f"  ({', '.join(marks)})" if marks else ""
        lines.append(f"  {who(seat):<4} {hand_text(cards_of(state.hands[seat]))}{mark}")
    if state.widow >= 0:
        lines.append(f"  {rules.widow_name}: {card_name(state.widow)}")
    if state.stock:
        lines.append(f"  stock: {len(state.stock)} cards")
    calls = [(actor, action) for actor, action in state.history[1:]
             if actor != CHANCE and not isinstance(action, Play)]
    if calls:
        lines += wrap("calls: " + ", ".join(f"{who(a)} {action}" for a, action in calls),
                      "  ", width)
    bid = state.contract_bid
    if bid is not None:
        lines.append(f"  contract: {who(state.declarer)} bid {bid.id} ({bid.name}); trumps: "
                     f"{_trumps(state)}")
    for n, trick in enumerate(state.tricks, start=1):
        seats = _trick_seats(state.order, trick.leader, len(trick.cards))
        played = " ".join(f"{who(s)} {card_name(c)}" for s, c in zip(seats, trick.cards,
                                                                     strict=True))
        lines.append(f"  trick {n}: {played}; won by {who(trick.winner)}")
    if state.trick:  # who played each card: the history's (a card out of turn is not round)
        seats = [actor for actor, _ in state.history[-len(state.trick):]]
        lines.append(f"  trick {len(state.tricks) + 1} so far: " + " ".join(
            f"{who(s)} {card_name(c)}" for s, c in zip(seats, state.trick, strict=True)))
    if bid is not None and state.tricks:
        lines.append(f"  the declarer has won {state.won} of {len(state.tricks)} tricks")
    if rules.pool:
        lines.append(f"  {rules.pool_name}: {state.pool}")
    lines.append("")
    if state.is_over():
        lines.append("the hand is over")
        return lines
    actor = "chance" if state.turn == CHANCE else who(state.turn)
    lines.append(f"{actor} to act; the legal actions:")
    lines += [f"  {line}" for line in legal_text(state.legal_actions())]
    if position.recorded is not None and position.parting is None:
        lines.append(f"the hand records: {who(position.recorded['seat'])} "
                     f"{_recorded_text(position.recorded)}")
    return lines


def _recorded_text(step: Mapping[str, Any]) -> str:
    return str(action_from_json(step["action"]))


def _trick_seats(order: tuple[int, ...], leader: int, n: int) -> list[int]:
    start = order.index(leader)
    return [order[(start + i) % len(order)] for i in range(n)]


def ruling_lines(spec: Spec, position: Position, ruling: Ruling, width: int = 100,
                 long: bool = False) -> list[str]:
    """A proposed action's ruling, with each rule's text, citations and decisions: the rules in
    force in the ruleset only, each text and quotation once (``long``: every rule checked,
    everything in full, as ``explain --long`` prints it)."""
    ruleset = position.target.ruleset
    verdict = "allowed" if ruling.allowed else f"not allowed: {ruling.rules[0]}: {ruling.message}"
    lines = wrap(f"{who(ruling.seat)} {ruling.action} at step {position.step} under "
                 f"{position.target.label}: {verdict}", "", width)
    if ruling.allowed:
        lines.append("the rules it was checked against:")
    rules = sorted(ruling.rules, key=spec.lawbook.order)
    left = [] if long else [r for r in rules if r not in ruleset.rules]
    shown = None if long else Shown()
    for rule in rules:
        if rule in left:
            continue
        lines.append("")
        lines += rule_lines(spec, rule, ruleset, "  ", width, shown)
    if left:
        lines += ["", *wrap(f"also checked, not in force in {ruleset.id}: {', '.join(left)} "
                            "(--long prints them)", "", width)]
    return lines

