"""Recorded hands and matches: writing them from the engine, and checking them by replay.

A recorded hand is to Nap what a PGN game is to chess: the ruleset and options, the seats and
dealer, the deal, every action in order, and the outcome. :func:`hand_record` writes one from
a finished :class:`~napkit.engine.state.HandState`; :func:`check_hand_record` replays a record
through
the engine and lists every way it departs from the rules, each as a :class:`Problem` naming the
JSON path and the rule id. Matches are recorded the same way (:func:`match_record`,
:func:`check_match_record`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from napkit.engine.acting import turn_refusal
from napkit.engine.actions import Action, Deal, Pass, Play
from napkit.engine.cards import CARD_NAMES
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.phases.settlement import net
from napkit.engine.state import CHANCE, POOL, Payment
from napkit.errors import RuleError, SetupError, json_path
from napkit.formats.values import (
    FormatError,
    action_from_json,
    action_to_json,
    cards_from_json,
    cards_to_json,
    payment_to_json,
    result_to_json,
    trick_to_json,
)

HAND_FORMAT = "napkit-hand/1"
MATCH_FORMAT = "napkit-match/1"
JSONObject = dict[str, Any]


@dataclass(frozen=True)
class Problem:
    """One way a record departs from its schema or from the rules."""

    path: str  # JSON path in the record
    rule: str | None  # the rule id broken, where there is one
    message: str

    def __str__(self) -> str:
        rule = f"{self.rule}: " if self.rule else ""
        return f"{self.path}: {rule}{self.message}"


# --- writing ------------------------------------------------------------------------------------
def step_to_json(actor: int, action: Action) -> JSONObject:
    """One step of a record: who acted (null for chance) and the action."""
    return {"seat": None if actor == CHANCE else actor, "action": action_to_json(action)}


def hand_outcome(state: HandState) -> JSONObject:
    assert state.result is not None
    outcome = result_to_json(state.result)
    outcome["tricks"] = [trick_to_json(t) for t in state.tricks]
    return outcome


def hand_record(state: HandState) -> JSONObject:
    """The record of a finished hand."""
    if state.result is None:
        raise ValueError("only a finished hand can be recorded")
    history = list(state.history)
    deal = history.pop(0)[1]
    assert isinstance(deal, Deal)
    return {
        "format": HAND_FORMAT,
        **table_json(state),
        "deal": action_to_json(deal)["pack"],
        "actions": [step_to_json(a, x) for a, x in history],
        "outcome": hand_outcome(state),
    }


_RECORD_START = ("formats.records", "hand record start")  # a key of Game.memo
_BOOL = {True: "true", False: "false", None: "null"}


def _cards_text(cards: tuple[int, ...]) -> str:
    """``json.dumps(cards_to_json(cards))``: card notations need no escaping."""
    return '["' + '", "'.join(cards_to_json(cards)) + '"]' if cards else "[]"


def _payments_text(payments: tuple[Payment, ...]) -> str:
    return json.dumps([payment_to_json(p) for p in payments]) if payments else "[]"


def hand_record_line(state: HandState) -> str:
    """``json.dumps(hand_record(state))``, the line of JSON Lines ``napkit record`` writes for
    a hand, the same to the byte, put together step by step: the plays and passes that make
    most of a hand are written straight from the card's notation, with no object built for
    them and encoded again (``tests/test_records.py`` holds it to ``json.dumps``)."""
    if state.result is None:
        raise ValueError("only a finished hand can be recorded")
    history = state.history
    deal = history[0][1]
    assert isinstance(deal, Deal)
    game = state.game
    # The ruleset, options and players are the game's, the same for every hand of a table.
    start = game.memo.get(_RECORD_START)
    if start is None:
        start = game.memo[_RECORD_START] = json.dumps(
            {"format": HAND_FORMAT, "ruleset": game.id, "options": dict(game.options),
             "players": game.players})[:-1]
    funds = start_funds(state)
    # Whole numbers and lists of them, and card notations, which never need escaping, are
    # written here as json.dumps writes them.
    head = (f'{start}, "dealer": {state.dealer}, "seats": {sorted(state.order)}, '
            f'"pool": {start_pool(state)}, '
            f'"funds": {"null" if funds is None else list(funds)}, "stakes": {state.stakes}, '
            f'"deal": {_cards_text(deal.pack)}')
    steps = []
    for actor, action in history[1:]:
        if type(action) is Play and actor >= 0:
            steps.append(f'{{"seat": {actor}, "action": {{"type": "play", '
                         f'"card": "{CARD_NAMES[action.card]}"}}}}')
        elif type(action) is Pass and actor >= 0:
            steps.append(f'{{"seat": {actor}, "action": {{"type": "pass"}}}}')
        else:
            steps.append(json.dumps(step_to_json(actor, action)))
    r = state.result
    tricks = ", ".join(f'{{"leader": {t.leader}, "winner": {t.winner}, '
                       f'"cards": {_cards_text(t.cards)}}}' for t in state.tricks)
    outcome = (
        f'{{"thrown_in": {_BOOL[r.thrown_in]}, '
        f'"declarer": {r.declarer if r.declarer >= 0 else "null"}, '
        f'"contract": {"null" if r.contract is None else json.dumps(r.contract)}, '
        f'"declarer_tricks": {r.tricks}, "made": {_BOOL[r.made]}, '
        f'"trick_winners": {list(r.trick_winners)}, '
        f'"payments": {_payments_text(r.payments)}, '
        f'"pool": {r.pool}, "net": {list(r.net)}, '
        + ("" if r.score is None else f'"score": {list(r.score)}, ')
        + f'"tricks": [{tricks}]}}')
    return f'{head}, "actions": [{", ".join(steps)}], "outcome": {outcome}}}'



def table_json(state: HandState) -> JSONObject:
    """The game and the table a hand is played at, as it began: what a hand record and a
    state document both start with."""
    funds = start_funds(state)
    return {
        "ruleset": state.game.id,
        "options": dict(state.game.options),
        "players": state.game.players,
        "dealer": state.dealer,
        "seats": sorted(state.order),
        "pool": start_pool(state),
        "funds": None if funds is None else list(funds),
        "stakes": state.stakes,
    }


def start_pool(state: HandState) -> int:
    """What the pool held when the hand began: now, less what the hand's payments moved."""
    return state.pool - sum(p.amount for p in state.ledger if p.payee == POOL) + sum(
        p.amount for p in state.ledger if p.payer == POOL)


def start_funds(state: HandState) -> tuple[int, ...] | None:
    """Each seat's chips when the hand began (None where the match has no fixed stock)."""
    if state.funds is None:
        return None
    moved = net(state.ledger, state.game.players)
    return tuple(f - d for f, d in zip(state.funds, moved, strict=True))


def match_record(match: MatchState) -> JSONObject:
    """The record of a match: its setup, every action in order (chance's included), each
    hand's record, and the outcome once it is over."""
    return {
        "format": MATCH_FORMAT,
        "ruleset": match.game.id,
        "options": dict(match.game.options),
        "players": match.game.players,
        "hands": match.hand_limit,
        "chips": match.chips,
        "actions": [step_to_json(a, x) for a, x in match_actions(match)],
        "hand_records": [hand_record(h) for h in match.hands],
        "outcome": None if match.result is None else match_outcome(match),
    }


def match_outcome(match: MatchState, *, out: bool = False) -> JSONObject:
    """How a finished match ended, as recorded: balances, the pool left, winners, hands played,
    and on a score sheet in points the totals (``scores``, left out for chips: NAP-10.4.4);
    ``out``: with the seats knocked out too, as the adapter protocol gives it (spec/
    conformance.md 2.4)."""
    result = match.result
    assert result is not None
    outcome: JSONObject = {"balances": list(result.balances), "pool": result.pool,
                           "winners": list(result.winners), "hands": result.hands}
    if result.scores is not None:
        outcome["scores"] = list(result.scores)
    if out:
        outcome["out"] = [s for s in range(match.game.players) if match.out >> s & 1]
    return outcome


def match_actions(match: MatchState) -> list[tuple[int, Action]]:
    """Every action of a match in the order it was applied: the match's own, and each hand's
    after the deal that the match made for it."""
    hands = [*match.hands, *([match.hand] if match.hand is not None else [])]
    starts = dict(zip(match.hand_starts, hands, strict=True))
    merged: list[tuple[int, Action]] = []
    for i, step in enumerate(match.history):
        merged.append(step)
        hand = starts.get(i + 1)
        if hand is not None:
            merged.extend(hand.history[1:])  # the deal itself is the match's, not an action
    return merged


S = TypeVar("S", HandState, MatchState)


def _replay_steps(state: S, steps: list[Any], problems: list[Problem]) -> S | None:
    """Apply recorded steps in turn, stopping at the first that breaks a rule or the format."""
    for i, step in enumerate(steps):
        where: list[str | int] = ["actions", i]
        try:
            action = action_from_json(step["action"], [*where, "action"])
        except FormatError as exc:
            problems.append(Problem(exc.path, None, exc.message))
            return None
        if state.is_over():  # nothing after the end (NAP-1.3.3), whoever acts
            problems.append(Problem(json_path(where), "NAP-1.3.3",
                                    "play is already over; this action is one too many"))
            return None
        out_of_turn = turn_refusal(state.turn, step["seat"])
        if out_of_turn is not None:
            problems.append(Problem(json_path([*where, "seat"]), out_of_turn.rule,
                                    out_of_turn.message))
            return None
        try:
            state = state.apply(action)
        except RuleError as exc:
            problems.append(Problem(json_path([*where, "action"]), exc.rule, exc.message))
            return None
    return state



# --- checking -----------------------------------------------------------------------------------
def _game(record: Mapping[str, Any], problems: list[Problem]) -> Game | None:
    options = record.get("options") or {}
    try:
        return Game.create(record["ruleset"], record["players"], options)
    except SetupError as exc:
        where = {"NAP-3.1.1": "players", "NAP-2.2.2": "players", "NAP-2.2.1": "players"}.get(
            exc.rule, "ruleset" if "ruleset" in exc.message else "options")
        hint = ("; a house game's record is checked with its file: napkit validate "
                "--ruleset-file FILE" if exc.rule == "NAP-10.1.1" and where == "ruleset" else "")
        problems.append(Problem(json_path([where]), exc.rule, exc.message + hint))
        return None


def replay_hand(record: Mapping[str, Any], problems: list[Problem],
                finished: bool = True) -> HandState | None:
    """Replay a hand record (already schema-valid) through the engine, collecting problems;
    the final state, or None where the replay could not go on. With ``finished`` false the
    record may stop anywhere (a state's record), even before the deal (``"deal": null``)."""
    game = _game(record, problems)
    if game is None:
        return None
    funds = record.get("funds")
    try:
        state = game.new_hand(record["dealer"], seats=tuple(record["seats"]),
                              pool=record.get("pool", 0),
                              funds=tuple(funds) if funds is not None else None,
                              stakes=record.get("stakes", 1))
    except SetupError as exc:
        # The field the broken rule is about: the dealer's seat, the chips, else the seats.
        where = {"NAP-4.1.1": "$.dealer", "NAP-10.1.2": "$.funds"}.get(exc.rule, "$.seats")
        problems.append(Problem(where, exc.rule, exc.message))
        return None
    if record["deal"] is None and not finished:
        if not record["actions"]:
            return state
        problems.append(Problem("$.actions", "NAP-4.2.1", "no action comes before the deal"))
        return None
    try:
        state = state.apply(Deal(cards_from_json(record["deal"], ["deal"])))
    except FormatError as exc:
        problems.append(Problem(exc.path, None, exc.message))
        return None
    except RuleError as exc:
        problems.append(Problem("$.deal", exc.rule, exc.message))
        return None
    replayed = _replay_steps(state, record["actions"], problems)
    if replayed is None:
        return None
    state = replayed
    if finished and not state.is_over():
        problems.append(Problem("$.actions", "NAP-8.3.1",
                                f"the hand is not finished: it stops in the {state.phase_name}"))
        return None
    return state


def compare(recorded: Any, actual: Any, path: list[str | int], rule: str | None,
            problems: list[Problem]) -> None:
    """Add a problem for every place where ``recorded`` differs from ``actual`` (what the
    rules give), naming the rule that decides the value where one does."""
    if isinstance(recorded, dict) and isinstance(actual, dict):
        for key in actual:
            if key not in recorded:
                problems.append(Problem(json_path(path), None, f"the outcome lacks {key!r}"))
            else:
                compare(recorded[key], actual[key], [*path, key],
                         _rule_for(key, actual, rule), problems)
        return
    if isinstance(recorded, list) and isinstance(actual, list):
        if len(recorded) != len(actual):
            problems.append(Problem(json_path(path), rule,
                                    f"recorded {len(recorded)} entries; the rules give "
                                    f"{len(actual)}: {actual}"))
            return
        for i, (r, a) in enumerate(zip(recorded, actual, strict=True)):
            compare(r, a, [*path, i], _rule_for(i, a, rule), problems)
        return
    if recorded != actual:
        problems.append(Problem(json_path(path), rule,
                                f"recorded {recorded!r}; the rules give {actual!r}"))


# The rule each field of a hand's outcome is settled by: what a field recorded otherwise than the
# rules give is put down to here, and (with the fields of payments and of a match) by the
# conformance harness (napkit.conform.cause.OUTCOME_RULES).
OUTCOME_RULES = {"made": "NAP-8.3.2", "declarer_tricks": "NAP-3.2.1", "declarer": "NAP-5.3.1",
                  "contract": "NAP-5.3.1", "thrown_in": "NAP-5.3.2", "trick_winners": "NAP-8.2.1",
                  "tricks": "NAP-8.2.1", "pool": "NAP-9.3.1", "net": "NAP-9.1.1",
                  "scores": "NAP-10.4.4"}  # a hand's "score": score_rule


def score_rule(outcome: Mapping[str, Any] | None) -> str:
    """The rule a hand's points on a score sheet follow, by how the hand ended: NAP-9.6.2 for a
    made contract, NAP-9.6.3 for a defeated one, NAP-9.6.4 (nobody scores) for a hand thrown
    in; NAP-9.6.2 where the outcome is not known. What a difference in ``score`` is put down
    to, by the runner, the fuzzer and the validator alike."""
    if outcome is None or outcome.get("made") is None:
        return "NAP-9.6.4" if outcome is not None and outcome.get("thrown_in") else "NAP-9.6.2"
    return "NAP-9.6.2" if outcome["made"] else "NAP-9.6.3"


def end_rules(outcome: Mapping[str, Any] | None) -> list[str]:
    """The rules that say a hand or a match is over, for a program that plays on where it is
    (its outcome null after the last step): a match's end (NAP-10.4.1), first at a score
    sheet's target (NAP-10.4.5) where the match keeps one; a hand's five tricks (NAP-8.3.1)."""
    if outcome is not None and "balances" in outcome:
        return (["NAP-10.4.5", "NAP-10.4.1"] if outcome.get("scores") is not None
                else ["NAP-10.4.1"])
    return ["NAP-8.3.1"]


def _rule_for(key: str | int, actual: Any, inherited: str | None) -> str | None:
    if isinstance(actual, dict) and isinstance(actual.get("rule"), str):
        return str(actual["rule"])
    if key == "score" and isinstance(actual, dict):  # the hand's outcome: by how it ended
        return score_rule(actual)
    if isinstance(key, str):
        return OUTCOME_RULES.get(key, inherited)
    return inherited


def check_hand_record(record: Mapping[str, Any]) -> list[Problem]:
    """Every problem of a (schema-valid) hand record found by replaying it. A record whose
    ``outcome`` is null is a hand recorded before its end (a partial hand): its actions must
    stop before the hand is over."""
    problems: list[Problem] = []
    partial = record.get("outcome") is None
    state = replay_hand(record, problems, finished=not partial)
    if state is None:
        return problems
    if not partial:
        compare(record.get("outcome"), hand_outcome(state), ["outcome"], None, problems)
    elif state.is_over():
        problems.append(Problem("$.outcome", "NAP-1.3.3",
                                "the hand is over, so its record gives the outcome, not null"))
    return problems


def replay_match(record: Mapping[str, Any], problems: list[Problem]) -> MatchState | None:
    game = _game(record, problems)
    if game is None:
        return None
    try:
        match = new_match(game, hands=record.get("hands"), chips=record.get("chips"))
    except SetupError as exc:
        problems.append(Problem("$.hands", exc.rule, exc.message))
        return None
    return _replay_steps(match, record["actions"], problems)


def check_match_record(record: Mapping[str, Any]) -> list[Problem]:
    """Every problem of a (schema-valid) match record found by replaying it."""
    problems: list[Problem] = []
    match = replay_match(record, problems)
    if match is None:
        return problems
    recorded_hands = record.get("hand_records") or []
    for i, hand in enumerate(match.hands):
        if i < len(recorded_hands):
            compare(recorded_hands[i].get("outcome"), hand_outcome(hand),
                     ["hand_records", i, "outcome"], None, problems)
    if record.get("outcome") is not None:
        if match.result is None:
            problems.append(Problem("$.outcome", "NAP-10.4.1",
                                    "the record gives an outcome but the match is not over"))
        else:
            compare(record["outcome"], match_outcome(match), ["outcome"], "NAP-10.4.3", problems)
    return problems
