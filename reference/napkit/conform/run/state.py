"""The optional ``state`` request (spec/conformance.md 2.3, 2.4): a program's own view of the
hand in play, compared field by field with the engine's, and the first field that differs put
down to the rule that sets it.

A program that declares ``"state": true`` in ``supports`` is asked ``state`` after the steps
:func:`asked_after` picks (by :mod:`~napkit.conform.run.runner` and
:mod:`~napkit.conform.fuzz.episodes`); one that does not is never sent it, and the harness does
no work for it. The fields (:data:`FIELDS`), as :func:`state_json` writes the engine's:

* ``contract``: null, or ``{"declarer": SEAT, "bid": BID-ID}`` once the auction has named
  them (NAP-5.3.1);
* ``trumps``: a suit's name, ``"none"``, or null while not yet fixed, as napkit-state/1's
  position writes them; put down to the rule by which the contract fixes them (NAP-7.1.1 the
  first card led, NAP-7.1.2 named, NAP-7.1.3 none);
* ``trick``: the current trick's cards in the order played, each ``{"seat", "card"}``
  (NAP-8.1.1; its leader, NAP-7.2.1 or NAP-8.1.3);
* ``tricks``: the tricks each seat has won so far, one number for every seat of the table in
  seat order, as an outcome's ``net`` (NAP-8.2.1);
* ``turn``: as ``legal`` answers it; put down to the rule of turn order the step went
  through (:data:`napkit.conform.cause.TURN_RULES`), or that explains the program's seat
  (:func:`napkit.conform.cause.turn_cause`).

The fields are compared in that order (a contract settles the trumps, the trumps the winner
of a trick, the winner the next lead), so the first named is the likeliest cause. A field the
program leaves out is not compared.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from napkit.conform.suite.cases import OWN_RULESETS, Case
from napkit.engine.acting import act
from napkit.engine.actions import Action
from napkit.engine.cards import card_name
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import CHANCE
from napkit.errors import RuleError
from napkit.formats.jsontext import dumps
from napkit.formats.snapshots import trumps_to_json
from napkit.formats.values import action_from_json

if TYPE_CHECKING:  # imported by state_cause, which alone needs it
    from napkit.conform.cause import Cause

JSONObject = dict[str, Any]
State = HandState | MatchState

#: The fields of a state answer, in the order they are compared (see the module's docstring).
FIELDS = ("contract", "trumps", "trick", "tricks", "turn")



def case_game(case: Case) -> Game:
    """The game a case is played in (a house ruleset's among them)."""
    own = OWN_RULESETS.get(case.ruleset)
    if own is not None:
        return Game(own, case.players, dict(case.options))
    return Game.create(case.ruleset, case.players, dict(case.options))


def case_states(case: Case, hands: int | None = None, upto: int | None = None) -> list[State]:
    """The engine's state before each step of ``case`` and after the last (``upto`` steps
    only, where given; in a match, agreed to ``hands`` hands where given): shorter where the
    engine refuses a step."""
    game = case_game(case)
    start = case.start
    state: State
    if start["type"] == "start-match":
        state = new_match(game, hands=start["hands"] if hands is None else hands,
                          chips=start["chips"])
    else:
        funds = start["funds"]
        state = game.new_hand(start["dealer"], seats=tuple(start["seats"]), pool=start["pool"],
                              funds=None if funds is None else tuple(funds),
                              stakes=start["stakes"])
    states = [state]
    for step in case.steps[:upto]:
        try:
            state = act(state, step["seat"], read_action(step["action"]))
        except (RuleError, ValueError):
            break
        states.append(state)
    return states


# A player's action by its JSON's items: a suite's steps repeat the same few hundred (a play of
# the ace of spades, a pass), and reading one costs more than playing it.
_ACTIONS: dict[tuple[Any, ...], Action] = {}


def read_action(value: Any) -> Action:
    """The action of a step's JSON (:func:`~napkit.formats.values.action_from_json`),
    remembered where it holds no list (a pack, a purchase's cards)."""
    try:
        key = (*value.items(), *map(type, value.values()))  # 1 and true: not the same action
        known = _ACTIONS.get(key)
    except (AttributeError, TypeError):  # not an object, or a list in it
        return action_from_json(value, ["action"])
    if known is None:
        known = action_from_json(value, ["action"])
        if len(_ACTIONS) >= 16384:
            _ACTIONS.clear()
        _ACTIONS[key] = known
    return known


def asks_state(supports: Mapping[str, Any]) -> bool:
    """Whether the program answers the ``state`` request (``supports.state`` true)."""
    return supports.get("state") is True


def hand_in_play(state: State) -> HandState | None:
    """The hand a state answer describes: a lone hand, or a match's hand in progress (None
    between a match's hands, when no state is asked)."""
    return state.hand if isinstance(state, MatchState) else state


def asked_after(before: State, after: State, last: bool = False) -> bool:
    """Whether the harness asks ``state`` after a step that takes play from ``before`` to
    ``after`` (spec/conformance.md 2.3): where a hand is in play after it, and the step fixed
    the contract or the trumps or ended a trick (where a program's view goes wrong, and whose
    effects the next steps show), or is the ``last`` asked. Asking after every step cost
    ``napkit conform`` against napkit's adapter twice its time. (Asked at every step of a
    fuzzing campaign: written to be quick.)"""
    if isinstance(after, HandState) and isinstance(before, HandState):  # a lone hand
        hand, prior = after, before
    else:
        found = after.hand if isinstance(after, MatchState) else None
        if found is None:  # between a match's hands
            return False
        earlier = before.hand if isinstance(before, MatchState) else None
        if earlier is None:  # a match's hand just dealt: nothing fixed yet
            return last
        hand, prior = found, earlier
    return (last or hand.contract != prior.contract or hand.trumps != prior.trumps
            or len(hand.tricks) != len(prior.tricks))


def expect_state(expected: JSONObject | None) -> tuple[bytes, JSONObject]:
    """The answer napkit's adapter writes to ``state`` where the engine's is ``expected``
    (:data:`napkit.protocol.process.Expected`: its text after the id, and its value)."""
    text = dumps(expected).encode("utf-8", "surrogatepass")
    return b',"type":"state","state":%b}' % text, {"type": "state", "state": expected}


def state_json(state: State) -> JSONObject | None:
    """The engine's answer to ``state`` (spec/conformance.md 2.4), or None where no hand is in
    play (between the hands of a match)."""
    hand = hand_in_play(state)
    if hand is None:
        return None
    bid = hand.contract_bid
    trick = []
    seat = hand.leader
    for card in hand.trick:
        trick.append({"seat": seat, "card": card_name(card)})
        seat = hand.ring[seat]
    tricks = [0] * hand.game.players
    for done in hand.tricks:
        tricks[done.winner] += 1
    turn = state.turn
    return {"contract": None if bid is None else {"declarer": hand.declarer, "bid": bid.id},
            "trumps": trumps_to_json(hand.trumps), "trick": trick, "tricks": tricks,
            "turn": "over" if state.is_over() else "chance" if turn == CHANCE else turn}


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def state_cause(name: str, expected: JSONObject, got: Mapping[str, Any], before: State,
                seat: int | None, action: Action, after: State) -> Cause:
    """The cause of a state answer that differs first at field ``name``, once ``seat``'s
    ``action`` has taken play from ``before`` to ``after``: the rule that sets that field, and
    what the program holds against the truth."""
    # The cause's machinery (and the law book) only once a state differs: a run that passes
    # starts without them.
    from napkit.conform.cause import (
        TRUMP_RULES,
        TURN_RULES,
        Cause,
        exercised,
        last_trick_line,
        trumps_words,
        turn_cause,
    )

    hand = hand_in_play(after)
    assert hand is not None
    want, have = _text(expected[name]), _text(got[name])
    evidence = f"state.{name}: expected {want}, got {have}"
    if name == "contract":
        return Cause("NAP-5.3.1", name, f"the program holds the contract to be {have}; it is "
                                        f"{want}", evidence)
    if name == "trumps":
        bid = hand.contract_bid
        if bid is None:
            return Cause("NAP-5.3.1", name, f"the program holds trumps to be {have} with no "
                                            "contract yet; trumps come with a contract", evidence)
        return Cause(TRUMP_RULES[bid.trumps], name, f"the program holds trumps to be {have}: "
                                                    f"{trumps_words(hand)}", evidence)
    if name == "tricks":
        last = last_trick_line(hand)
        return Cause("NAP-8.2.1", name, f"the program counts the tricks won as {have}; they "
                                        f"are {want}" + (f" ({last})" if last else ""), evidence)
    if name == "trick":
        wanted, given = expected["trick"], got["trick"]
        lead_differs = bool(wanted) and (not isinstance(given, list) or not given or not (
            isinstance(given[0], dict) and given[0].get("seat") == wanted[0]["seat"]))
        rule = ("NAP-8.1.1" if not lead_differs else "NAP-8.1.3" if hand.tricks
                else "NAP-7.2.1")
        return Cause(rule, name, f"the program holds the current trick to be {have}; it is "
                                 f"{want}", evidence)
    program = got[name]
    found = turn_cause(after, program) if type(program) is int else None
    if found is not None:  # why the program has that seat to act (a trick's winner, ...)
        return Cause(found.rule, name, found.words, evidence)
    # Else the rule of turn order the step went through: the last in the law book's order (a
    # hand's flow follows it: the auction's end hands the turn to the declarer's lead), and
    # NAP-1.2.1, clockwise, only where no other is.
    rules = [r for r in exercised(before, seat, action) if r in TURN_RULES]
    specific = [r for r in rules if r != "NAP-1.2.1"]
    return Cause((specific or rules or ["NAP-1.2.1"])[-1], name,
                 f"the program has {_turn_words(program)} to act; it is "
                 f"{_turn_words(expected[name])}", evidence)


def _turn_words(turn: Any) -> str:
    return f"seat {turn}" if type(turn) is int else json.dumps(turn)


__all__ = ["FIELDS", "asked_after", "asks_state", "case_game", "case_states",
           "expect_state", "hand_in_play", "read_action", "state_cause", "state_json"]
