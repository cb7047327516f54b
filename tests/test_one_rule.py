"""Every illegal case of the suite breaks exactly one rule (spec/conformance.md, 1.1).

What "exactly one rule" means is stated in spec/conformance.md and checked here for every
illegal case, generated and hand-written, by replaying its steps through the engine and
looking at the refused action in the position it is offered in:

1. The engine refuses it under the rule the case expects.
2. It breaks none of the rules NAP-1.3.4 puts before that rule: play is not over (unless the
   rule is NAP-1.3.3); the actor is the one to act (unless it is NAP-1.3.1); an action of the
   kind the phase wants names only cards the actor holds (unless it is NAP-1.3.2).
3. An action of a kind the phase does not want is refused under the phase's rule for the kind
   of action due (NAP-1.3.4 (3)), never under a later rule.
4. Where the rule is one of the general rules NAP-1.3.1 and NAP-1.3.2, lifting that rule alone
   makes the action legal: the same action, by the same actor, is accepted once the turn is
   theirs (NAP-1.3.1), or once they hold the card in place of one of their own of its suit
   (NAP-1.3.2).

The checker is :func:`one_rule_problems`; the tests at the end plant cases that break two rules
and check that it reports them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from napkit.engine.acting import act, turn_refusal
from napkit.engine.actions import (
    Action,
    Ante,
    Bid,
    Buy,
    ChooseDealer,
    Cut,
    Deal,
    Discard,
    LeaveWidow,
    NameTrumps,
    Pass,
    Peek,
    Play,
    Reshuffle,
    Shuffle,
    SitOut,
    TakeWidow,
)
from napkit.engine.cards import SUIT_BITS, cards_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import CHANCE, replace
from napkit.errors import IllegalActionError, RuleError
from napkit.formats.values import action_from_json

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "conformance" / "cases"
JSON = dict[str, Any]
State = HandState | MatchState


def illegal_cases() -> Iterator[tuple[str, JSON]]:
    for path in sorted(CASES.glob("*/illegal/*.json")):
        yield path.relative_to(CASES).with_suffix("").as_posix(), json.loads(
            path.read_text(encoding="utf-8"))


def position(case: JSON) -> State:
    """The state in which the case's refused action is offered: its steps replayed."""
    game = Game.create(case["ruleset"], case["players"], case["options"])
    start = case["start"]
    state: State
    if start["type"] == "start-match":
        state = new_match(game, hands=start["hands"], chips=start["chips"])
    else:
        funds = start["funds"]
        state = game.new_hand(start["dealer"], seats=tuple(start["seats"]), pool=start["pool"],
                              funds=None if funds is None else tuple(funds),
                              stakes=start["stakes"])
    for i, step in enumerate(case["steps"]):
        state = act(state, step["seat"], action_from_json(step["action"], ["steps", i]))
    return state


def refusal_of(state: State, seat: int | None, action: Action) -> str | None:
    """The rule the engine names refusing ``action`` by ``seat``, or None if it accepts it."""
    try:
        act(state, seat, action)
    except RuleError as exc:
        return exc.rule
    return None


def accepted(state: State, seat: int | None, action: Action) -> bool:
    return refusal_of(state, seat, action) is None


def _hand(state: State) -> HandState | None:
    if isinstance(state, HandState):
        return state
    return state.hand if state.phase_name == "hand" else None


def named_cards(action: Action) -> int:
    """The cards an action says are the actor's: a card played or discarded, cards bought."""
    if isinstance(action, Play | Discard):
        return 1 << action.card
    if isinstance(action, Buy):
        return action.cards
    return 0


def kind_rule(state: State) -> str | None:
    """The phase's rule for the kind of action due (NAP-1.3.4 (3)): the rule the engine names
    for an action of a kind no phase of play wants from the one to act (a choice of dealer by
    a player, or a card played by chance); None where nobody is to act."""
    if state.is_over():
        return None
    seat = None if state.turn == CHANCE else state.turn
    return refusal_of(state, seat, ChooseDealer(0) if seat is not None else Play(0))


# The kinds of action each phase wants (NAP-1.3.4 (3)): an action of another kind is refused
# under the phase's rule for the kind due, whatever else is wrong with it.
KINDS: dict[str, tuple[type, ...]] = {
    "deal": (Deal,), "purchase": (Buy,), "reshuffle": (Reshuffle,),
    "auction": (Pass, Bid, Peek), "exchange": (TakeWidow, LeaveWidow), "discard": (Discard,),
    "naming": (NameTrumps,), "play": (Play,),
    "first-dealer": (ChooseDealer,), "prepare": (Shuffle, Cut), "ante": (Ante, SitOut),
}


def phase_of(state: State) -> str:
    hand = _hand(state)
    return hand.phase_name if hand is not None else state.phase_name


def of_kind_due(state: State, action: Action) -> bool:
    return isinstance(action, KINDS[phase_of(state)])


def one_rule_problems(case: JSON) -> list[str]:
    """What makes the case's refused action break more (or other) than its one rule."""
    refuse = case["expect"]["refuse"]
    rule, seat = refuse["rule"], refuse["seat"]
    action = action_from_json(refuse["action"], ["expect", "refuse", "action"])
    state = position(case)
    problems: list[str] = []
    named = refusal_of(state, seat, action)
    if named != rule:
        problems.append(f"the engine names {named}, not {rule}")
    # 2. None of the rules before it in NAP-1.3.4's order.
    if rule != "NAP-1.3.3" and state.is_over():
        problems.append("play is over (NAP-1.3.3 comes first)")
        return problems
    if rule == "NAP-1.3.3":
        return problems  # once play is over no other rule applies: nothing is due
    if rule != "NAP-1.3.1" and turn_refusal(state.turn, seat) is not None:
        problems.append(f"seat {seat} is not the one to act (NAP-1.3.1 comes first)")
        return problems
    hand = _hand(state)
    cards = named_cards(action)
    held = hand.hands[seat] if hand is not None and seat is not None and seat >= 0 else 0
    kind_due = of_kind_due(state, action)
    if rule not in ("NAP-1.3.1", "NAP-1.3.2") and kind_due and cards & ~held:
        problems.append("the actor does not hold every card the action names "
                        "(NAP-1.3.2 comes first)")
    # 3. A wrong kind of action is refused under the phase's rule for the kind due.
    if rule != "NAP-1.3.1" and not kind_due:
        expected = kind_rule(state)
        if rule not in (expected, "NAP-6.3.2"):
            problems.append(f"an action of a kind not due here is refused under {expected}, "
                            f"the phase's rule for the kind due, not {rule}")
    # 4. Lifting a general rule alone makes the action legal.
    if rule == "NAP-1.3.1":
        if not isinstance(state, HandState):
            problems.append("an out-of-turn case must be offered in a hand")
        elif not accepted(replace(state, turn=CHANCE if seat is None else seat), seat, action):
            problems.append(f"even with the turn given to {seat}, the action is refused: it "
                            f"breaks another rule as well")
    if rule == "NAP-1.3.2":
        missing = cards & ~held
        if hand is None or seat is None or not isinstance(state, HandState):
            problems.append("a not-held case must be a player's action in a hand")
        elif missing.bit_count() != 1:
            problems.append(f"the action names {missing.bit_count()} cards not held, not one")
        else:
            card = missing.bit_length() - 1
            swaps = cards_of(held & SUIT_BITS[card // 13] & ~cards)
            if not any(_accepted_holding(state, seat, action, card, mine) for mine in swaps):
                problems.append("even holding the card in place of one of their own of its "
                                "suit, the player may not take the action: it breaks another "
                                "rule as well")
    return problems


def _accepted_holding(state: HandState, seat: int, action: Action, card: int, mine: int) -> bool:
    hands = list(state.hands)
    hands[seat] = hands[seat] & ~(1 << mine) | 1 << card
    return accepted(replace(state, hands=tuple(hands)), seat, action)


ALL = list(illegal_cases())


def test_there_are_illegal_cases_of_every_general_rule() -> None:
    rules = {case["expect"]["refuse"]["rule"] for _, case in ALL}
    assert {"NAP-1.3.1", "NAP-1.3.2", "NAP-1.3.3"} <= rules
    assert len(ALL) > 1500


@pytest.mark.parametrize("ruleset", sorted({case["ruleset"] for _, case in ALL}))
def test_every_illegal_case_breaks_exactly_one_rule(ruleset: str) -> None:
    found = {name: one_rule_problems(case) for name, case in ALL if case["ruleset"] == ruleset}
    bad = {name: problems for name, problems in found.items() if problems}
    assert not bad, f"{len(bad)} of {len(found)} cases break more than one rule: " + "; ".join(
        f"{name}: {', '.join(problems)}" for name, problems in list(bad.items())[:5])


# --- the checker reports planted cases that break two rules ----------------------------------
def _case(name: str) -> JSON:
    return next(case for found, case in ALL if found == name)


def _first(tag: str, ruleset: str = "classic") -> JSON:
    return next(case for _, case in ALL if case["ruleset"] == ruleset and tag in case["tags"])


def test_planted_out_of_turn_with_a_card_not_held_is_reported() -> None:
    case = json.loads(json.dumps(_first("breach-out-of-turn")))
    state = position(case)
    seat = case["expect"]["refuse"]["seat"]
    assert isinstance(state, HandState) and one_rule_problems(case) == []
    # The same seat, out of turn, plays a card it does not hold: two rules broken.
    hand = state.hands[seat]
    other = next(c for c in cards_of(state.game.pack(len(state.order))) if not hand >> c & 1)
    case["expect"]["refuse"]["action"] = {"type": "play", "card": _name(other)}
    problems = one_rule_problems(case)
    assert any("breaks another rule as well" in p for p in problems), problems


def test_planted_not_held_card_of_a_suit_that_revokes_is_reported() -> None:
    # A card not held, which would revoke even if held: NAP-1.3.2 and NAP-8.1.1.
    for _, case in ALL:
        if "breach-not-held" not in case["tags"] or case["ruleset"] != "classic":
            continue
        state = position(case)
        assert isinstance(state, HandState)
        if not state.trick:
            continue
        seat = state.turn
        led = state.trick[0] // 13
        if not state.hands[seat] & SUIT_BITS[led]:
            continue
        foreign = [c for c in cards_of(state.game.pack(len(state.order)) & ~state.hands[seat])
                   if c // 13 != led]
        planted = json.loads(json.dumps(case))
        planted["expect"]["refuse"]["action"] = {"type": "play", "card": _name(foreign[0])}
        problems = one_rule_problems(planted)
        assert any("breaks another rule as well" in p for p in problems), problems
        return
    pytest.fail("no classic not-held case in the middle of a trick to plant in")


def test_planted_phase_case_that_also_breaks_the_turn_is_reported() -> None:
    case = json.loads(json.dumps(_first("breach-revoke")))
    state = position(case)
    assert isinstance(state, HandState)
    case["expect"]["refuse"]["seat"] = (state.turn + 1) % state.game.players
    problems = one_rule_problems(case)
    assert any("NAP-1.3.1 comes first" in p for p in problems), problems


def test_planted_wrong_kind_under_a_later_rule_is_reported() -> None:
    # A card played at one's turn to bid, expected as a card not held: the kind of action is
    # wrong, which NAP-1.3.4 names before the cards.
    case = json.loads(json.dumps(_first("breach-not-a-call")))
    case["expect"]["refuse"]["rule"] = "NAP-1.3.2"
    problems = one_rule_problems(case)
    assert any("the phase's rule for the kind due" in p for p in problems), problems


def _name(card: int) -> str:
    from napkit.engine.cards import card_name

    return card_name(card)


def test_kind_rule_of_each_hand_phase() -> None:
    # The probe that finds the phase's kind rule: NAP-5.2.1 in the auction.
    case = _first("breach-bid-not-higher")
    assert kind_rule(position(case)) == "NAP-5.2.1"
    with pytest.raises(IllegalActionError):
        act(position(case), None, Play(0))
