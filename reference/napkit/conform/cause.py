"""The cause of a disagreement: which rule's effect a program got wrong, not only where it
showed (spec/conformance.md 8), and the one place where ``napkit conform`` and ``napkit fuzz``
put a difference down to rules.

Where a program's answers first differ, the rule of that step is the symptom: a turn that is
wrong after a trick shows at the lead (NAP-8.1.3), though the program may have given the trick
to the wrong seat because it holds the wrong trumps (NAP-7.1.1). So the harness replays
hypotheses, each a reading of the rules a program might hold instead of the law book's, and
keeps the first that gives the program's very answer:

* a turn after a trick, or tricks counted otherwise in an outcome: each trick won under
  another trump suit or none, the highest card whatever its suit, or the cards ranked the
  wrong way up (:data:`READINGS`); where one gives the seat the program named (and the same
  winners as the engine for the tricks before, whose leads the program accepted), the rule
  behind that reading is the cause;
* a turn elsewhere: the auction begun at the dealer or going anticlockwise, the first lead
  given to another seat than the declarer;
* a legal set: an action listed that the engine refuses, put down to the rule that refuses it;
  a card left out by a player void in the suit led, a bid left out whose earlier bids were made;
* a payment of another amount: the rule of the payment, with the amounts in words.

Where no hypothesis fits there is no cause, and the blame is the symptom's rules
(:func:`symptom_rules`) as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from napkit.conform.suite.breaches import refusal
from napkit.engine.acting import act
from napkit.engine.actions import Action, Bid, Play
from napkit.engine.cards import SUIT_BITS, SUIT_NAMES, card_name
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.phases.play import winning_card
from napkit.engine.state import AUCTION, NO_TRUMPS, PLAY, Trick
from napkit.formats import records
from napkit.formats.records import end_rules, score_rule
from napkit.formats.values import action_from_json, action_key
from napkit.spec import coverage
from napkit.spec.catalog import default_spec

JSONObject = dict[str, Any]
State = HandState | MatchState

# The rule a field of an outcome is settled by, where the outcome differs there: a hand's fields
# as a record's are checked (napkit.formats.records), and the payments' and a match's.
OUTCOME_RULES = {
    **records.OUTCOME_RULES, "payments": "NAP-9.1.1", "balances": "NAP-9.1.1",
    "winners": "NAP-10.4.3", "hands": "NAP-10.4.1", "out": "NAP-10.4.2",
}  # and a hand's "score": by how the hand ended (napkit.formats.records.score_rule)

# The rules that say who acts next, and how many steps back a difference of turn looks for
# them.
TURN_RULES = frozenset({"NAP-1.2.1", "NAP-4.1.1", "NAP-4.1.2", "NAP-5.1.1", "NAP-5.1.2",
                        "NAP-5.4.1", "NAP-6.1.2", "NAP-6.2.1", "NAP-7.2.1", "NAP-8.1.3",
                        "NAP-10.3.1"})
TURN_STEPS = 6

# The rule that fixes a contract's trumps, by how its bid fixes them (NAP-7.1).
TRUMP_RULES = {"first-card-led": "NAP-7.1.1", "named": "NAP-7.1.2", "none": "NAP-7.1.3"}
_HOW = {"first-card-led": "fixed by the first card led", "named": "named by the declarer",
        "none": "none, by the contract"}

# The kinds of difference (Difference.kind).
TURN, LEGAL, STEP, REFUSAL, OUTCOME = "turn", "legal", "step", "refusal", "outcome"


@dataclass(frozen=True)
class Cause:
    """What a program got wrong, worked out from where its answers first differ."""

    rule: str  # the law-book rule whose effect the program got wrong
    field: str  # what it got wrong, in a word or two: "trumps", "trick winner", "contract"
    words: str  # one or two sentences for people, naming what it seems to hold and the truth
    evidence: str = ""  # what shows it (a trick and its winner under each reading), or ""

    def to_json(self) -> JSONObject:
        """``failure.cause`` of the conformance report (spec/conformance.md 8)."""
        return {"rule": self.rule, "field": self.field, "words": self.words,
                "evidence": self.evidence}


@dataclass(frozen=True)
class Difference:
    """Where a program's answers first differ, as the conformance run and the fuzzer both see
    it: the kind, the engine's state there, the step, what was expected and answered."""

    kind: str  # TURN, LEGAL (a legal set), STEP (a step refused), REFUSAL, OUTCOME
    state: State | None  # the engine's state before the step; at the end for an outcome
    seat: int | None = None  # the step's actor (None: chance)
    action: Action | None = None  # the step's action, where there is one
    expected: Any = None
    got: Any = None
    field: str = ""  # an outcome's field as the report names it ("outcome.payments"); for a
    # REFUSAL, the rule of the refusal expected
    earlier: Sequence[tuple[State, int | None, Action]] = ()  # the steps before, last nearest
    outcome: JSONObject | None = None  # the expected outcome (a hand's score rules)


# --- the readings: how a program may win a trick otherwise ---------------------------------------
class Reading(NamedTuple):
    """Another way of winning a trick: its name in words, the rule it breaks, the field it gets
    wrong, and the position in a trick of the card that wins under it."""

    name: str
    rule: str
    field: str
    winner: Callable[[tuple[int, ...]], int]


def _highest_any(trick: tuple[int, ...]) -> int:
    ranks = [card % 13 for card in trick]
    return ranks.index(max(ranks))


def _upside_down(trick: tuple[int, ...], trumps: int) -> int:
    # winning_card with every rank turned over: the two beats the ace
    return winning_card(tuple((c // 13) * 13 + 12 - c % 13 for c in trick), trumps)


def readings(hand: HandState) -> list[Reading]:
    """The readings tried for the hand's tricks, the likeliest first: other trumps (none, or
    each other suit), then the highest card whatever its suit, then the ranking turned over.
    Each is named as what the program plays as if: "there were no trumps"."""
    bid = hand.contract_bid
    if bid is None or hand.trumps < 0:
        return []
    rule = TRUMP_RULES.get(bid.trumps, "NAP-7.1.1")
    out = [Reading("there were no trumps" if t == NO_TRUMPS else f"{SUIT_NAMES[t]} were trumps",
                   rule, "trumps", partial(winning_card, trumps=t))
           for t in (NO_TRUMPS, 0, 1, 2, 3) if t != hand.trumps]
    out.append(Reading("the highest card won, whatever its suit", "NAP-8.2.1",
                       "trick winner", _highest_any))
    out.append(Reading("the cards ranked the other way up (the two highest, the ace lowest)",
                       "NAP-2.1.1", "card ranking", partial(_upside_down, trumps=hand.trumps)))
    return out


def _seat_at(hand: HandState, leader: int, position: int) -> int:
    seat = leader
    for _ in range(position):
        seat = hand.ring[seat]
    return seat


def _winner(hand: HandState, trick: Trick, reading: Reading | None) -> int:
    if reading is None:
        return trick.winner
    return _seat_at(hand, trick.leader, reading.winner(trick.cards))


def trumps_words(hand: HandState) -> str:
    """``spades are trumps (fixed by the first card led, NAP-7.1.1)`` or ``no trumps (...)``."""
    bid = hand.contract_bid
    how = bid.trumps if bid is not None else "first-card-led"
    rule = TRUMP_RULES.get(how, "NAP-7.1.1")
    if hand.trumps == NO_TRUMPS:
        return f"there are no trumps ({_HOW[how]}, {rule})"
    if hand.trumps < 0:
        return "trumps are not fixed yet"
    return f"{SUIT_NAMES[hand.trumps]} are trumps ({_HOW[how]}, {rule})"


def trick_line(hand: HandState, number: int) -> str:
    """Trick ``number`` (from 1) of the hand, its winner and why it won: ``trick 3: seat 1 9S,
    seat 2 4S, seat 0 KH: won by seat 2, the 4S: spades are trumps (NAP-7.1.1)``."""
    trick = hand.tricks[number - 1]
    played = ", ".join(f"seat {_seat_at(hand, trick.leader, i)} {card_name(c)}"
                       for i, c in enumerate(trick.cards))
    card = trick.cards[winning_card(trick.cards, hand.trumps)]
    bid = hand.contract_bid
    rule = TRUMP_RULES.get(bid.trumps if bid is not None else "", "NAP-7.1.1")
    led = trick.cards[0] // 13
    if 0 <= hand.trumps < 4 and card // 13 == hand.trumps:
        trumped = sum(c // 13 == hand.trumps for c in trick.cards)
        why = (f"{SUIT_NAMES[hand.trumps]} are trumps ({rule})" if trumped == 1 else
               f"the highest trump: {SUIT_NAMES[hand.trumps]} are trumps ({rule})")
    elif hand.trumps == NO_TRUMPS:
        why = f"the highest {SUIT_NAMES[led][:-1]}, the suit led: no trumps ({rule})"
    else:
        why = (f"the highest {SUIT_NAMES[led][:-1]}, the suit led, and no trump played "
               f"(NAP-8.2.1)")
    return f"trick {number}: {played}: won by seat {trick.winner}, the {card_name(card)}: {why}"


def last_trick_line(state: State | None) -> str:
    """The last complete trick of the hand at ``state`` (:func:`trick_line`), or ""."""
    hand = _hand(state)
    if hand is None or not hand.tricks:
        return ""
    return trick_line(hand, len(hand.tricks))


# --- the inference --------------------------------------------------------------------------------
def infer(diff: Difference) -> Cause | None:
    """The cause of ``diff`` (see the module's docstring), or None where no hypothesis fits."""
    try:
        if diff.kind == TURN:
            return turn_cause(diff.state, _program_seat(diff))
        if diff.kind == LEGAL:
            return legal_cause(diff.state, diff.seat, diff.expected, diff.got)
        if diff.kind == OUTCOME:
            return outcome_cause(diff.state, diff.field, diff.expected, diff.got)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None  # an answer of a shape the hypotheses do not read: no cause
    return None


def _program_seat(diff: Difference) -> int | None:
    """The seat the program has to act: its answer to ``legal``, or where it refused the step
    as out of turn (NAP-1.3.1), the one other seat its reason names."""
    got = diff.got
    if isinstance(got, int) and not isinstance(got, bool):
        return got
    if isinstance(got, dict) and isinstance(got.get("reason"), str):
        named = {int(n) for n in re.findall(r"\bseat (\d+)", got["reason"])} - {diff.seat}
        if len(named) == 1:
            return named.pop()
    return None


def turn_cause(state: State | None, seat: int | None) -> Cause | None:
    """Why a program has ``seat`` to act where the engine has another at ``state``."""
    hand = _hand(state)
    if hand is None or seat is None or seat == hand.turn or not 0 <= seat < len(hand.ring):
        return None
    if hand.phase == PLAY and hand.tricks:
        found = _trick_turn(hand, seat)
        if found is not None:
            return found
    if hand.phase == PLAY and not hand.tricks and not hand.trick:
        first = hand.order[0]
        if not (seat == first and hand.game.rules.auction.rounds == "single"):
            who = ("the declarer's left" if seat == hand.ring[hand.declarer] else
                   "the dealer's left" if seat == first else "")
            return Cause("NAP-7.2.1", "first lead",
                         f"the declarer, seat {hand.declarer}, leads to the first trick "
                         f"(NAP-7.2.1); the program has seat {seat}"
                         + (f", {who}," if who else "") + " lead")
    previous = _previous(hand)
    if hand.phase == AUCTION and hand.auction.high < 0 and hand.auction.passed == 0:
        if seat == hand.dealer:
            return Cause("NAP-5.1.1", "first to speak",
                         f"the auction begins on the dealer's left, with seat {hand.turn} "
                         f"(NAP-5.1.1); the program has the dealer, seat {seat}, speak first")
        if seat == previous.get(hand.dealer) and isinstance(state, MatchState) and (
                state.played > 0):
            # After a match's first hand, a program that passed the deal to the right has its
            # own dealer's left speak first: the engine's dealer's right, as anticlockwise.
            return Cause("NAP-4.1.2", "dealer",
                         f"the deal passes to the left: seat {hand.dealer} deals this hand and "
                         f"seat {hand.turn} speaks first (NAP-4.1.2, NAP-5.1.1); the program "
                         f"has seat {seat} speak first, as if the deal had passed to the right "
                         f"(or its auction went anticlockwise)")
        if seat == previous.get(hand.dealer):
            return Cause("NAP-1.2.1", "direction",
                         f"the auction goes clockwise from the dealer's left, seat "
                         f"{hand.turn} (NAP-1.2.1, NAP-5.1.1); the program goes anticlockwise, "
                         f"from the dealer's right, seat {seat}")
    last = hand.history[-1][0] if hand.history else -1
    if last >= 0 and hand.ring[last] == hand.turn and seat == previous.get(last):
        return Cause("NAP-1.2.1", "direction",
                     f"play goes clockwise: after seat {last}, seat {hand.turn} (NAP-1.2.1); "
                     f"the program goes anticlockwise, to seat {seat}")
    return None


def _previous(hand: HandState) -> dict[int, int]:
    return {nxt: seat for seat, nxt in enumerate(hand.ring) if nxt >= 0}


def _trick_turn(hand: HandState, seat: int) -> Cause | None:
    """A turn in play after a trick: the readings under which the last trick goes to a seat
    that puts ``seat`` to act now, the tricks before it going as they went."""
    last = hand.tricks[-1]
    fits = [r for r in readings(hand)
            if all(_winner(hand, t, r) == t.winner for t in hand.tricks[:-1])
            and _seat_at(hand, _winner(hand, last, r), len(hand.trick)) == seat]
    if not fits:
        return None
    number = len(hand.tricks)
    gave = _winner(hand, last, fits[0])
    return _reading_cause(hand, fits, f"it gives trick {number} to seat {gave}, not seat "
                                      f"{last.winner}", [number])


def _reading_cause(hand: HandState, fits: Sequence[Reading], shows: str,
                   tricks: Sequence[int]) -> Cause:
    """The cause named by the first reading of ``fits``: what the program seems to hold, the
    truth, and the tricks (numbers) that show it under each reading that fits."""
    first = fits[0]
    same = [r.name for r in fits[1:] if r.rule == first.rule]
    holds = first.name + (f" (or {' or '.join(same)})" if same else "")
    rules = default_spec().lawbook
    rule = rules.get(first.rule)
    if first.field == "trumps":
        truth = trumps_words(hand)
    else:
        truth = f"{first.rule} {rule.title if rule is not None else ''}".strip()
        truth = f"the law book has {truth}; " + trumps_words(hand)
    words = f"{truth[0].upper()}{truth[1:]}, but the program plays as if {holds}: {shows}."
    evidence = []
    for number in tricks:
        line = trick_line(hand, number)
        trick = hand.tricks[number - 1]
        gave = _winner(hand, trick, first)
        card = trick.cards[first.winner(trick.cards)]
        evidence.append(f"{line}; if {first.name}, it goes to seat {gave}, the "
                        f"{card_name(card)}")
    return Cause(first.rule, first.field, words, "; ".join(evidence))


def legal_cause(state: State | None, seat: int | None, expected: Any, got: Any) -> Cause | None:
    """Why a program's legal set differs: an action listed that the engine refuses, by the rule
    that refuses it; a card or bid left out, by the rule that allows it where a hypothesis
    says which."""
    if state is None or not isinstance(expected, list) or not isinstance(got, list):
        return None
    wanted = {action_key(a): a for a in expected}
    listed = {action_key(a): a for a in got}
    extra = [listed[k] for k in listed if k not in wanted]
    missing = [wanted[k] for k in wanted if k not in listed]
    refused: dict[str, list[str]] = {}
    reasons: dict[str, str] = {}
    for item in extra:
        try:
            action = action_from_json(item, ["action"])
        except ValueError:
            continue
        rule, reason = refusal(state, seat, action)
        if rule is not None:
            refused.setdefault(rule, []).append(str(action))
            reasons.setdefault(rule, reason)
    if refused:
        rule = next(iter(refused))
        title = _title(rule)
        return Cause(rule, "legal actions",
                     f"the program offers {' and '.join(refused[rule])}, which {rule}"
                     f"{f' ({title})' if title else ''} refuses: {reasons[rule]}.",
                     f"seat {seat}'s legal actions: expected {len(expected)}, listed "
                     f"{len(got)}")
    hand = _hand(state)
    if not missing or hand is None or seat is None:
        return None
    actions = [action_from_json(a, ["action"]) for a in missing]
    if all(isinstance(a, Play) for a in actions) and hand.phase == PLAY and hand.trick:
        led = hand.trick[0] // 13
        if not hand.hands[seat] & SUIT_BITS[led]:
            return Cause("NAP-8.1.2", "following suit",
                         f"seat {seat} holds no {SUIT_NAMES[led]}, the suit led, and may play "
                         f"any card (NAP-8.1.2); the program leaves out "
                         f"{' '.join(str(a) for a in actions)}.")
    if all(isinstance(a, Bid) for a in actions) and hand.phase == AUCTION:
        bids = {b.id: b for b in hand.game.rules.bids}
        needy = [a for a in actions if isinstance(a, Bid) and a.bid in bids
                 and bids[a.bid].requires]
        if needy and len(needy) == len(actions):
            return Cause("NAP-5.2.5", "bid's prerequisite",
                         f"the bids a {', '.join(a.bid for a in needy)} bid needs have been "
                         f"made, so it may be bid (NAP-5.2.5); the program does not offer it.")
    return None


def outcome_cause(state: State | None, field: str, expected: Any, got: Any) -> Cause | None:
    """Why an outcome's ``field`` differs: a payment of another amount, by its rule; tricks
    counted otherwise, by the reading of the tricks that gives the program's count."""
    name = outcome_field(field)
    if name == "payments" and isinstance(expected, list) and isinstance(got, list):
        return _payment_cause(_hand(state), expected, got)
    hand = _hand(state)
    if hand is None or not hand.tricks or got is None or got == expected:
        return None
    bid = hand.contract_bid
    if bid is None:
        return None
    index = _index(field)

    def value(reading: Reading) -> Any:
        winners = [_winner(hand, t, reading) for t in hand.tricks]
        won = sum(w == hand.declarer for w in winners)
        if name == "declarer_tricks":
            return won
        if name == "made":
            return bid.fulfilled(won)
        if name == "trick_winners":
            return winners
        if name == "tricks" and index is not None and isinstance(got, dict):
            return got if winners[index] == got.get("winner") else not got
        return not got  # nothing to compare: never fits

    fits = [r for r in readings(hand)
            if all(_winner(hand, t, r) == t.winner for t in hand.tricks[:-1])
            and value(r) == got]
    if not fits:
        return None
    number = len(hand.tricks) if index is None else index + 1
    shows = (f"it counts {got} for the declarer's tricks, not {expected}"
             if name == "declarer_tricks" else
             f"it has the contract {'made' if got else 'defeated'}" if name == "made" else
             f"it gives trick {number} to seat {_winner(hand, hand.tricks[number - 1], fits[0])}, "
             f"not seat {hand.tricks[number - 1].winner}")
    return _reading_cause(hand, fits, shows, [number])


def _payment_cause(hand: HandState | None, expected: list[Any], got: list[Any]) -> Cause | None:
    """A payment owed, paid in another amount: its rule, the amount owed and the one paid."""
    def key(p: Any) -> tuple[Any, Any]:
        return (p.get("payer"), p.get("payee")) if isinstance(p, dict) else (None, None)

    paid = {key(p): p for p in got if isinstance(p, dict)}
    for owed in expected:
        if not isinstance(owed, dict) or not owed.get("rule"):
            continue
        other = paid.get(key(owed))
        if other is None or other.get("amount") == owed.get("amount"):
            continue
        rule = str(owed["rule"])
        title = _title(rule)
        bid = hand.contract_bid if hand is not None else None
        what = ""
        if bid is not None and hand is not None and hand.result is not None:
            what = (f"seat {hand.declarer}'s contract, {bid.name}, was "
                    f"{'made' if hand.result.made else 'defeated'}: ")
        return Cause(rule, "payment",
                     f"{what}seat {owed['payer']} pays seat {owed['payee']} {owed['amount']} "
                     f"under {rule}{f' ({title})' if title else ''}; the program has it pay "
                     f"{other.get('amount')}.")
    return None


def outcome_field(where: str) -> str:
    """The outcome's field named by a report's ``where`` or a message: ``outcome.tricks[2]:
    ...`` is ``tricks``; ``outcome`` alone is ""."""
    return where.split(":", 1)[0].removeprefix("outcome").lstrip(".").split("[")[0].split(" ")[0]


def _index(where: str) -> int | None:
    found = re.match(r"[^:\[]*\[(\d+)\]", where)
    return int(found.group(1)) if found else None


def _title(rule: str) -> str:
    found = default_spec().lawbook.get(rule)
    return found.title if found is not None else ""


def _hand(state: State | None) -> HandState | None:
    if state is None or isinstance(state, HandState):
        return state
    return state.hand


# --- blame: the symptom's rules, and the cause's first --------------------------------------------
def symptom_rules(diff: Difference) -> list[str]:
    """The rules of the step where ``diff`` shows, the nearest first: a refusal's rule; for a
    turn, the rules of turn order the last steps went through; for a legal set, the rule that
    refuses each action listed wrongly and the rules the engine goes through to allow each one
    left out; for a step refused, the rules it goes through to allow it; for an outcome, the
    rules of the payments owed and not paid, or of the field that differs."""
    if diff.kind == REFUSAL:
        return [diff.field] if diff.field else []
    if diff.kind == OUTCOME:
        return _outcome_rules(diff.field, diff.expected, diff.got, diff.outcome)
    state = diff.state
    if state is None:
        return []
    rules: list[str] = []
    if diff.kind == TURN:
        for before, seat, action in reversed(diff.earlier[-TURN_STEPS:]):
            rules += [r for r in exercised(before, seat, action)
                      if r in TURN_RULES and r not in rules]
    elif diff.kind == LEGAL:
        wanted = {action_key(a) for a in diff.expected or []}
        for listed in diff.got or []:
            if action_key(listed) not in wanted:
                try:
                    rule, _ = refusal(state, diff.seat, action_from_json(listed, ["action"]))
                except ValueError:
                    continue
                if rule is not None:
                    rules.append(rule)
        have = {action_key(a) for a in diff.got or []}
        if any(action_key(a) not in have for a in diff.expected or []) or not rules:
            rules += traced(state.legal_actions)
    elif diff.action is not None:
        rules += exercised(state, diff.seat, diff.action)
        # The rule the program refused the step under, where the engine goes through it to
        # accept the step, is the likeliest: the program reads that rule otherwise.
        named = diff.got.get("rule") if isinstance(diff.got, dict) else None
        if named in rules:
            rules.remove(named)
            rules.insert(0, named)
    return rules


def _outcome_rules(where: str, expected: Any, got: Any,
                   outcome: JSONObject | None = None) -> list[str]:
    """The rules a difference in the outcome field at ``where`` is put down to; a hand's
    ``score`` by how the hand ended (``outcome``, the expected one: NAP-9.6.2 or 9.6.3)."""
    name = outcome_field(where)
    rules: list[str] = []
    if name == "score":
        return [score_rule(outcome)]
    if name == "scores" and outcome is not None and "balances" not in outcome:
        # the totals of a match stopped after the hand that first differs (``outcome``, that
        # hand's): its points, by how it ended, then how the totals add up
        return [score_rule(outcome), "NAP-10.4.4"]
    if not name and got is None:  # not over where it should be
        return end_rules(outcome)
    if name == "payments" and isinstance(expected, list) and isinstance(got, list):
        owed = {_payment_key(p): p for p in expected if isinstance(p, dict)}
        paid = {_payment_key(p) for p in got if isinstance(p, dict)}
        rules += [p["rule"] for key, p in owed.items() if key not in paid and p.get("rule")]
    if name in OUTCOME_RULES and not rules:
        rules.append(OUTCOME_RULES[name])
    return rules


def _payment_key(payment: JSONObject) -> tuple[Any, ...]:
    return payment.get("payer"), payment.get("payee"), payment.get("amount")


def blame(diff: Difference, cause: Cause | None = None) -> list[str]:
    """The rules ``diff`` is put down to, the likeliest first: the cause's rule (``cause``,
    else inferred), then the symptom's (:func:`symptom_rules`); each once, of the law book,
    and in force in the game where the game says which rules are."""
    if cause is None:
        cause = infer(diff)
    rules = ([cause.rule] if cause is not None else []) + symptom_rules(diff)
    game = _game(diff.state)
    in_force = set(getattr(getattr(game, "ruleset", None), "rules", ()) or ())
    lawbook = default_spec().lawbook
    seen: list[str] = []
    for rule in rules:
        if rule not in seen and lawbook.get(rule) is not None and (
                not in_force or rule in in_force or (cause is not None and rule == cause.rule)):
            seen.append(rule)
    return seen


def _game(state: State | None) -> object:
    return None if state is None else state.game


def exercised(state: State, seat: int | None, action: Action) -> list[str]:
    """The play rules the engine goes through to apply ``action`` of ``seat`` at ``state``
    (law-book order), or none if it refuses it."""
    return traced(lambda: act(state, seat, action))


def traced(run: Callable[[], object]) -> list[str]:
    """The play rules of the law book the engine goes through in ``run`` (law-book order; none
    if it raises)."""
    coverage.reset_engine_caches()  # a remembered answer would skip the rules behind it
    try:
        _, found = coverage.exercised(run)
    except Exception:  # refused: no rule allows it
        return []
    lawbook = default_spec().lawbook
    return [r.id for r in lawbook if r.kind == "play" and r.id in found]


__all__ = ["LEGAL", "OUTCOME", "OUTCOME_RULES", "REFUSAL", "STEP", "TRUMP_RULES", "TURN",
           "TURN_RULES", "TURN_STEPS", "Cause", "Difference", "Reading", "blame", "exercised",
           "infer", "last_trick_line", "legal_cause", "outcome_cause", "outcome_field",
           "readings", "symptom_rules", "traced", "trick_line", "trumps_words", "turn_cause"]
