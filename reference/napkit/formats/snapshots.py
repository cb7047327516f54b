"""The JSON forms of a hand's state: as the table sees it, and as one player sees it.

*The table's state* (``napkit-state/1``, ``spec/schemas/state.schema.json``) is what a recorded
hand is to a finished one, for a hand at any moment: the setup and the actions so far, which
determine the state, and beside them its ``position`` (every card's whereabouts, whose turn,
the legal actions, the payments), which a program can read without replaying anything. Reading
it back replays the actions and checks the position against the replay, so a state read from
JSON is always one the rules can reach, and equal to the state that was written.

*A player's view* (``napkit-view/1``, ``spec/schemas/view.schema.json``) is a
:class:`~napkit.engine.observation.PlayerView`: only what that seat may know (NAP-4.3.2); the cards
of actions the seat did not see are written as ``{"type": "hidden", ...}``. It is plain data and
reads back field by field.
"""

from __future__ import annotations

from typing import Any

from napkit.engine.actions import Action, Deal
from napkit.engine.cards import SUIT_NAMES, card_name, cards_of
from napkit.engine.hand import HandState
from napkit.engine.observation import Hidden, PlayerView
from napkit.engine.state import CHANCE, NO_TRUMPS, NOBODY, POOL, Payment, Trick
from napkit.formats.records import (
    Problem,
    compare,
    hand_outcome,
    replay_hand,
    step_to_json,
    table_json,
)
from napkit.formats.values import (
    FormatError,
    action_from_json,
    action_to_json,
    card_from_json,
    cards_from_json,
    cards_to_json,
    payment_to_json,
    trick_to_json,
)
from napkit.spec.schemas import schema_problems

STATE_FORMAT = "napkit-state/1"
VIEW_FORMAT = "napkit-view/1"
JSONObject = dict[str, Any]


# --- small parts ----------------------------------------------------------------------------
def turn_to_json(turn: int) -> int | str | None:
    """A seat; ``"chance"`` while chance is to act; null once the hand is over."""
    return "chance" if turn == CHANCE else None if turn == NOBODY else turn


def turn_from_json(value: Any) -> int:
    return CHANCE if value == "chance" else NOBODY if value is None else int(value)


def trumps_to_json(trumps: int) -> str | None:
    """A suit's name; ``"none"`` in a contract without trumps; null while not yet fixed."""
    return None if trumps < 0 else "none" if trumps == NO_TRUMPS else SUIT_NAMES[trumps]


def trumps_from_json(value: Any) -> int:
    return -1 if value is None else NO_TRUMPS if value == "none" else SUIT_NAMES.index(value)


def _seat_or_null(seat: int) -> int | None:
    return seat if seat >= 0 else None


def _party(value: Any) -> int:
    return POOL if value == "pool" else int(value)


def payment_from_json(value: Any) -> Payment:
    return Payment(_party(value["payer"]), _party(value["payee"]), value["amount"],
                   value["rule"])


def trick_from_json(value: Any, path: list[str | int]) -> Trick:
    return Trick(value["leader"], value["winner"], cards_from_json(value["cards"],
                                                                   [*path, "cards"]))


def _cards(mask: int) -> list[str]:
    return cards_to_json(cards_of(mask))


def _schema_check(name: str, value: Any) -> None:
    """Raise the first way ``value`` breaks schema ``name``, by JSON path."""
    problems = schema_problems(name, value)
    if problems:
        path, message = problems[0]
        raise FormatError.at(path, message)


# --- the table's state -----------------------------------------------------------------------
def position(state: HandState) -> JSONObject:
    """Everything about the state that its actions determine, spelt out."""
    bid = state.contract_bid
    return {
        "phase": state.phase_name,
        "turn": turn_to_json(state.turn),
        "hands": [_cards(h) for h in state.hands],
        "widow": card_name(state.widow) if state.widow >= 0 else None,
        "seen_widow": [s for s in range(state.game.players) if state.seen >> s & 1],
        "stock": cards_to_json(state.stock),
        "discards": cards_to_json(state.discards),
        "declarer": _seat_or_null(state.declarer),
        "contract": bid.id if bid else None,
        "trumps": trumps_to_json(state.trumps),
        "leader": _seat_or_null(state.leader),
        "trick": cards_to_json(state.trick),
        "tricks": [trick_to_json(t) for t in state.tricks],
        "declarer_tricks": state.won,
        "pool": state.pool,
        "funds": None if state.funds is None else list(state.funds),
        "payments": [payment_to_json(p) for p in state.ledger],
        "legal_actions": [action_to_json(a) for a in state.legal_actions()],
        "outcome": None if state.result is None else hand_outcome(state),
    }


def state_to_json(state: HandState) -> JSONObject:
    """The table's state: setup, actions so far, and the position they lead to."""
    history = list(state.history)
    deal = history.pop(0)[1] if history else None
    assert deal is None or isinstance(deal, Deal)
    return {
        "format": STATE_FORMAT,
        **table_json(state),
        "deal": None if deal is None else cards_to_json(deal.pack),
        "actions": [step_to_json(a, x) for a, x in history],
        "position": position(state),
    }


def state_from_json(value: Any) -> HandState:
    """The state a ``napkit-state/1`` document describes, rebuilt by replaying its actions.

    :class:`~napkit.formats.values.FormatError` names the JSON path (and the rule id, where an
    action
    breaks a rule) of the first problem: a schema error, an illegal action, or a position that
    the actions do not lead to.
    """
    _schema_check("state", value)
    problems: list[Problem] = []
    state = replay_hand(value, problems, finished=False)
    if state is not None:
        compare(value["position"], position(state), ["position"], None, problems)
    if problems:
        first = problems[0]
        raise FormatError.at(first.path, first.message, first.rule)
    assert state is not None
    return state


# --- a player's view -------------------------------------------------------------------------
def _seen_action_to_json(action: Action | Hidden) -> JSONObject:
    if isinstance(action, Hidden):
        return {"type": "hidden", "kind": action.kind, "count": action.count}
    return action_to_json(action)


def view_to_json(view: PlayerView) -> JSONObject:
    """A player's view, as JSON."""
    return {
        "format": VIEW_FORMAT,
        "seat": view.seat,
        "ruleset": view.ruleset,
        "phase": view.phase,
        "turn": turn_to_json(view.turn),
        "dealer": view.dealer,
        "order": list(view.order),
        "hand": cards_to_json(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "widow": None if view.widow is None else card_name(view.widow),
        "widow_out": view.widow_out,
        "history": [{"seat": None if actor == CHANCE else actor,
                     "action": _seen_action_to_json(action)} for actor, action in view.history],
        "declarer": _seat_or_null(view.declarer),
        "contract": view.contract,
        "trumps": trumps_to_json(view.trumps),
        "trick": cards_to_json(view.trick),
        "tricks": [trick_to_json(t) for t in view.tricks],
        "declarer_tricks": view.declarer_tricks,
        "pool": view.pool,
        "funds": None if view.funds is None else list(view.funds),
        "payments": [payment_to_json(p) for p in view.payments],
        "stakes": view.stakes,
        "legal_actions": [action_to_json(a) for a in view.legal_actions],
    }


def view_from_json(value: Any) -> PlayerView:
    """The :class:`PlayerView` of a ``napkit-view/1`` document (checked against its schema)."""
    _schema_check("view", value)
    history: list[tuple[int, Action | Hidden]] = []
    for i, step in enumerate(value["history"]):
        action = step["action"]
        actor = CHANCE if step["seat"] is None else step["seat"]
        if action["type"] == "hidden":
            history.append((actor, Hidden(action["kind"], action["count"])))
        else:
            history.append((actor, action_from_json(action, ["history", i, "action"])))
    return PlayerView(
        seat=value["seat"], ruleset=value["ruleset"], phase=value["phase"],
        turn=turn_from_json(value["turn"]), dealer=value["dealer"], order=tuple(value["order"]),
        hand=cards_from_json(value["hand"], ["hand"]), hand_sizes=tuple(value["hand_sizes"]),
        widow=None if value["widow"] is None else card_from_json(value["widow"], ["widow"]),
        widow_out=value["widow_out"], history=tuple(history),
        declarer=-1 if value["declarer"] is None else value["declarer"],
        contract=value["contract"], trumps=trumps_from_json(value["trumps"]),
        trick=cards_from_json(value["trick"], ["trick"]),
        tricks=tuple(trick_from_json(t, ["tricks", i]) for i, t in enumerate(value["tricks"])),
        declarer_tricks=value["declarer_tricks"], pool=value["pool"],
        funds=None if value["funds"] is None else tuple(value["funds"]),
        payments=tuple(payment_from_json(p) for p in value["payments"]), stakes=value["stakes"],
        legal_actions=tuple(action_from_json(a, ["legal_actions", i])
                            for i, a in enumerate(value["legal_actions"])),
    )


__all__ = ["STATE_FORMAT", "VIEW_FORMAT", "position", "state_from_json", "state_to_json",
           "view_from_json", "view_to_json"]
