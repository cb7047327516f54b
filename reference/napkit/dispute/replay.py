"""A hand replayed under other rulesets: where each parts from it, and what each settles.

:func:`replay_under` takes a hand as recorded (``napkit-hand/1``, finished or stopped
anywhere) and one :class:`Target` (a ruleset, built-in or a file of one's own, with option
choices), and gives a :class:`Verdict`: the same cards dealt to the same seats
(:func:`napkit.dispute.deals.pack_for`), every action of the hand tried in turn, and the first
one the target's rules refuse (its step, the rule id and why), or the hand's settlement under
those rules when all are allowed.

Steps are counted as people count them: step 1 is the first action after the deal (the deal
itself is step 0).

A refused step does not end the replay: a card the rules refuse (a revoke, a card out of turn,
a wrong first lead) is played on as the table played it (:func:`napkit.engine.hand.as_played`:
the usual winning rule, the hand settled by the engine), and so is a bid or pass the auction
refuses (a Wellington though nobody bid Nap, a bid that does not outrank the last, a call out
of turn or after passing: :func:`napkit.engine.hand.as_bid`, the bid then the highest so far),
every further refused step noted (:attr:`Verdict.later`). Where going on is impossible (a bid
the ruleset has not got, a card the seat does not hold), the verdict says why it stops
(:attr:`Verdict.stopped`).

Where the target needs a step the hand lacks (a purchase, the widow taken or left, a discard,
trumps named), it is filled, and the verdict says so (:attr:`Verdict.assumed`): by a step the
caller assumes (``assume``: ``name hearts``, ``take widow``), else by a stated default: no
purchase, the widow left, trumps named as the suit of the first card the declarer led. With
``deal_anyway``, a hand dealt from a pack the target's lacks cards of is dealt all the same
(:func:`napkit.dispute.deals.dealt_anyway`), flagged as assumed at step 0.

A bid is read by its id. Where the target has no bid of that id, the one bid that undertakes
the same stands for it (:func:`alike`: as many tricks, a misère or not, then the same need of
an earlier bid, lead duty and widow, as far as these tell them apart): the classic page's Nap
is the Napoleon article's Napoleon. Where none or several do, the bid is refused as the
auction refuses a bid the ruleset does not have (NAP-5.2.2), naming them.

>>> import json
>>> from napkit import load_spec
>>> from napkit.formats.recording import record_text
>>> from napkit.formats.recording import table_hands
>>> from napkit import Game
>>> played = table_hands(Game.create("classic", 4), seed=2, hands=1)
>>> record = json.loads(record_text(played))
>>> spec = load_spec()
>>> verdict = replay_under(record, target(spec, "napoleon"))
>>> verdict.legal, verdict.finished
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from napkit.dispute.deals import dealt_anyway, pack_for, rest_of
from napkit.engine.acting import turn_refusal
from napkit.engine.actions import (
    Action,
    Bid,
    Buy,
    Deal,
    Discard,
    LeaveWidow,
    NameTrumps,
    Pass,
    Play,
    TakeWidow,
)
from napkit.engine.cards import SUIT_NAMES, cards_of, parse_card, suit_of
from napkit.engine.game import Game
from napkit.engine.hand import HandState, as_bid, as_played
from napkit.engine.rules import BidRule
from napkit.engine.state import AUCTION, DISCARD, EXCHANGE, NAMING, PLAY, PURCHASE, Phase
from napkit.errors import RuleError, SetupError, SpecError
from napkit.formats.notation import parse_action
from napkit.formats.values import FormatError, action_from_json
from napkit.spec.catalog import Spec
from napkit.spec.house import load_ruleset_path
from napkit.spec.rulesets import Ruleset

SAME = ("hands", "pack")
"""What stays the same under another ruleset: the cards each seat held (``hands``, the
default), or the pack in its order (``pack``), which that ruleset's deal may give out
otherwise."""


@dataclass(frozen=True)
class Target:
    """A ruleset to replay under, with its option choices (the rest at their defaults)."""

    ruleset: Ruleset
    choices: Mapping[str, str]

    @property
    def label(self) -> str:
        """``pagat`` or ``pagat doubling=won``: the column's heading (choices at their
        defaults are left out)."""
        options = self.ruleset.options
        chosen = " ".join(f"{k}={v}" for k, v in sorted(self.choices.items())
                          if k not in options or options[k].default != v)
        return f"{self.ruleset.id} {chosen}" if chosen else self.ruleset.id


class TargetError(ValueError):
    """A ``--under`` value that names no ruleset, or an option it does not have."""


def target(spec: Spec, text: str) -> Target:
    """The target a person types: ``classic``, ``pagat:doubling=won,mis=on``, or the path of a
    ruleset file (house games too)."""
    name, _, options = text.partition(":")
    choices: dict[str, str] = {}
    for item in filter(None, options.split(",")):
        key, equals, value = item.partition("=")
        if not equals or not key or not value:
            raise TargetError(f"{text!r}: an option is NAME=CHOICE, not {item!r}")
        choices[key.strip()] = value.strip()
    ruleset = spec.rulesets.get(name)
    if ruleset is None:
        path = Path(name)
        if not (path.suffix == ".json" or path.exists()):
            known = ", ".join(spec.rulesets)
            raise TargetError(f"no ruleset {name!r} (the rulesets: {known}; or a ruleset "
                              "file's path)")
        try:
            ruleset = load_ruleset_path(path, name, spec)
        except SpecError as exc:
            raise TargetError(str(exc)) from None
    try:
        ruleset.option_values(choices)
    except SpecError as exc:
        raise TargetError(f"{ruleset.id}: {exc.message}") from None
    return Target(ruleset, choices)


def targets(spec: Spec, texts: list[str]) -> list[Target]:
    """``--under`` values: each a target or a comma-free list of them; ``all`` is every
    built-in ruleset at its defaults, in the spec's order."""
    found: list[Target] = []
    for text in texts:
        for part in text.split() if ":" not in text else [text]:
            if part == "all":
                found += [Target(r, {}) for r in spec.rulesets.values()]
            else:
                found.append(target(spec, part))
    return found


@dataclass(frozen=True)
class Parting:
    """The first step of the hand that a ruleset refuses: its number (1 is the first action
    after the deal), who made it, the action as typed, and the refusal."""

    step: int
    seat: int | None
    action: str
    rule: str
    message: str


@dataclass(frozen=True)
class Assumed:
    """A step the hand lacks that the target needs, as filled: the recorded step it was filled
    before (0: the deal), the action (``name hearts``) and the words a column shows
    (``trumps hearts (first card led)``)."""

    step: int
    action: str
    words: str


@dataclass(frozen=True)
class Verdict:
    """A hand under one target."""

    target: Target
    steps: int  # the hand's actions after the deal
    setup: RuleError | None = None  # the table or the deal is not this ruleset's
    parting: Parting | None = None  # the first step refused
    state: HandState | None = None  # the last position reached (played on: the settled hand)
    readings: tuple[str, ...] = ()  # bids read as another id: "step 3: bid nap as napoleon"
    later: tuple[Parting, ...] = ()  # further steps refused, each played on
    assumed: tuple[Assumed, ...] = ()  # steps the hand lacks, filled
    stopped: str | None = None  # why the replay could not go on, where it could not
    # The position just after the deal, then after each step followed (steps filled in it
    # included): what a hand viewer draws (napkit.dispute.viewer).
    positions: tuple[HandState, ...] = ()

    @property
    def played_on(self) -> bool:
        """A step was refused, and the hand was played on past it to the end of the record."""
        return self.parting is not None and self.stopped is None

    @property
    def legal(self) -> bool:
        """Every step of the hand is allowed (it may still stop before its end)."""
        return self.setup is None and self.parting is None

    @property
    def finished(self) -> bool:
        return self.legal and self.state is not None and self.state.is_over()

    @property
    def rule(self) -> str | None:
        """The rule the hand breaks under this target, if it breaks one."""
        if self.setup is not None:
            return self.setup.rule
        return self.parting.rule if self.parting is not None else None


class RecordError(ValueError):
    """A record that cannot be replayed even under its own ruleset: not this verdict's
    business but the record's (``napkit validate`` says more)."""


def dealt(record: Mapping[str, Any]) -> tuple[Game, HandState]:
    """The record's own game, and its hand just after the deal."""
    try:
        game = Game.create(record["ruleset"], record["players"], record.get("options") or {})
        state = _new_hand(game, record)
        pack = tuple(_cards(record["deal"]))
        return game, state.apply(Deal(pack))
    except RuleError as exc:
        raise RecordError(f"the record's own ruleset refuses it: {exc}") from None


def _cards(values: list[str]) -> list[int]:
    return [parse_card(v) for v in values]


def _new_hand(game: Game, record: Mapping[str, Any]) -> HandState:
    funds = record.get("funds")
    return game.new_hand(record["dealer"], seats=tuple(record["seats"]),
                         pool=record.get("pool", 0),
                         funds=tuple(funds) if funds is not None else None,
                         stakes=record.get("stakes", 1))


def replay_under(record: Mapping[str, Any], under: Target, same: str = "hands", *,
                 assume: Sequence[Action] = (), fill: bool = True,
                 deal_anyway: bool = False) -> Verdict:
    """The hand of ``record`` under ``under``: see the module's docstring. ``assume``: the
    steps to fill with where the hand lacks one (:func:`assumption`); ``fill=False`` fills
    none (the first step the hand lacks is then refused, and the replay stops there)."""
    own_game, own = dealt(record)
    steps: list[Any] = list(record["actions"])
    assumed: list[Assumed] = []
    dealing = _deal_under(record, own, under, same, deal_anyway)
    if isinstance(dealing, RuleError):
        return Verdict(under, len(steps), setup=dealing)
    game, state, anyway = dealing
    if anyway is not None:
        assumed.append(anyway)
    readings: list[str] = []
    refused: list[Parting] = []
    stopped: str | None = None
    positions = [state]
    irregular = False  # a card was played on: so is every card after it (as_played's trick)
    for number, step in enumerate(steps, start=1):
        try:
            action = action_from_json(step["action"], ["actions", number - 1, "action"])
        except FormatError as exc:
            raise RecordError(f"{exc.path}: {exc.message}") from None
        action = _read_bid(action, own_game, game, number, readings)
        seat = step["seat"]
        if fill:
            state, lacking = _fill(state, action, number, steps, assume, assumed)
            if lacking is not None:
                refused.append(lacking)
                stopped = "the step the hand lacks here cannot be filled"
                break
        refusal: RuleError | None
        if state.is_over():
            refusal = RuleError("NAP-1.3.3", "the hand is already over")
        else:
            refusal = turn_refusal(state.turn, seat)
        if refusal is None and not (irregular and isinstance(action, Play)):
            try:
                state = state.apply(action)
                positions.append(state)
                continue
            except RuleError as exc:
                refusal = exc
        elif refusal is None:
            refusal = state.refusal(action)
        if refusal is not None:
            refused.append(Parting(number, seat, str(action), refusal.rule,
                                   refusal.message + _alike(action, own_game, game)))
        state, stopped = _played_on(state, seat, action, refusal)
        if stopped is not None:
            break
        positions.append(state)
        irregular = irregular or isinstance(action, Play)
    return Verdict(under, len(steps), parting=refused[0] if refused else None, state=state,
                   readings=tuple(readings), later=tuple(refused[1:]),
                   assumed=tuple(assumed), stopped=stopped, positions=tuple(positions))


def _deal_under(record: Mapping[str, Any], own: HandState, under: Target, same: str,
               deal_anyway: bool) -> tuple[Game, HandState, Assumed | None] | RuleError:
    """The target's game and its hand just after the deal (the module's docstring), with the
    deal assumed where ``deal_anyway`` deals what its pack has not got; or why it cannot be
    dealt."""
    game: Game | None = None
    rest = rest_of(own, tuple(_cards(record["deal"])))
    try:
        game = Game(under.ruleset, record["players"], dict(under.choices))
        pack = (pack_for(game, own, rest) if same == "hands" else tuple(_cards(record["deal"])))
        return game, _new_hand(game, record).apply(Deal(pack)), None
    except (SetupError, RuleError) as exc:
        if game is None or not (deal_anyway and same == "hands" and exc.rule == "NAP-2.2.1"):
            return exc
        state, words = dealt_anyway(_new_hand(game, record), own, rest)
        return game, state, Assumed(0, "deal", words)


def _played_on(state: HandState, seat: int | None, action: Action,
               refusal: RuleError | None) -> tuple[HandState, str | None]:
    """The hand after a card played, or a bid or pass made, as the table made it
    (``refusal``: why the rules refuse it, if they do), or the hand as it was and why it
    cannot go on."""
    if state.is_over():
        return state, "the hand is over here: the steps after it have no place in it"
    card = isinstance(action, Play) and state.phase == PLAY
    call = isinstance(action, Bid | Pass) and state.phase == AUCTION
    if seat is None or not (card or call):
        rule = f" ({refusal.rule})" if refusal is not None else ""
        return state, (f"cannot play on: only cards, bids and passes are played on as the "
                       f"table made them, and this is a step of the {state.phase_name}{rule}")
    try:
        if isinstance(action, Play):
            return as_played(state, seat, action.card), None
        return as_bid(state, seat, action), None
    except RuleError as exc:
        return state, f"cannot play on: {exc.message} ({exc.rule})"


# The phases whose steps a hand may lack, and the actions that are their steps.
_FILLED: dict[Phase, tuple[type, ...]] = {
    PURCHASE: (Buy,), EXCHANGE: (TakeWidow, LeaveWidow), DISCARD: (Discard,),
    NAMING: (NameTrumps,)}


def _fill(state: HandState, action: Action, number: int, steps: Sequence[Any],
          assume: Sequence[Action], assumed: list[Assumed]) -> tuple[HandState, Parting | None]:
    """The hand with the steps it lacks before ``action`` (step ``number``) filled: while the
    target waits for a step of a phase whose steps the hand has none of here (``action`` is
    of another), the step assumed for that phase, else its default (the module's docstring).
    A step filled that the target refuses is returned as refused at step ``number``."""
    while (not state.is_over() and state.phase in _FILLED
           and not isinstance(action, _FILLED[state.phase])):
        chosen = next((a for a in assume if isinstance(a, _FILLED[state.phase])), None)
        filled, why = (chosen, "assumed") if chosen is not None else _default(
            state, number, steps)
        refusal = state.refusal(filled)
        if refusal is not None:
            return state, Parting(number, state.turn, f"{filled} ({why}, filled)",
                                  refusal.rule, refusal.message)
        words = _assumed_words(state, filled, why)
        if not assumed or assumed[-1].words != words:  # one line for every seat's purchase
            assumed.append(Assumed(number, str(filled), words))
        state = state.apply(filled)
    return state, None


def _default(state: HandState, number: int, steps: Sequence[Any]) -> tuple[Action, str]:
    """The stated default for the step the target waits for: no purchase; the widow left
    (taken, where the ruleset says it must be); the card the declarer never plays discarded;
    trumps the suit of the first card the declarer led."""
    declarer = state.declarer
    later = [action_from_json(s["action"]) for s in steps[number - 1:]
             if s["seat"] == declarer]
    plays = [a.card for a in later if isinstance(a, Play)]
    if state.phase == PURCHASE:
        return Buy(0), "no purchase"
    if state.phase == EXCHANGE:
        leave = LeaveWidow()
        return (leave, "default") if state.refusal(leave) is None else (
            TakeWidow(), "it must be taken")
    if state.phase == DISCARD:
        spare = [c for c in cards_of(state.hands[declarer]) if c not in plays]
        card = spare[0] if spare else cards_of(state.hands[declarer])[0]
        return Discard(card), f"the card S{declarer} never plays"
    if plays:
        return NameTrumps(suit_of(plays[0])), "first card led"
    return NameTrumps(suit_of(cards_of(state.hands[declarer])[0])), "no card led: a suit held"


def _assumed_words(state: HandState, action: Action, why: str) -> str:
    """What a column says of a step filled: ``trumps hearts (first card led)``."""
    if isinstance(action, NameTrumps):
        return f"trumps {SUIT_NAMES[action.suit]} ({why})"
    if isinstance(action, Buy) and why == "no purchase":
        return why  # one line for every seat's
    widow = state.game.rules.widow_name
    done = {TakeWidow: f"took the {widow}", LeaveWidow: f"left the {widow}"}.get(
        type(action), str(action).replace("discard", "discarded"))
    return f"S{state.turn} {done} ({why})"


def assumption(text: str) -> Action:
    """A step a person assumes where the hand lacks one (``--assume``), typed as at the table:
    ``name hearts``, ``take widow``, ``leave widow``, ``discard 2S``, ``buy nothing``;
    :class:`~napkit.formats.notation.NotationError` for text that is no action, ValueError for
    an action that fills no step a hand may lack (a bid, a card played)."""
    action = parse_action(text)
    if not isinstance(action, tuple(t for types in _FILLED.values() for t in types)):
        raise ValueError(f"{text!r} is not a step a hand may lack: assume 'name SUIT', "
                         "'take widow', 'leave widow', 'discard CARD' or 'buy nothing'")
    return action


def _alike(action: Action, own: Game, game: Game) -> str:
    """For a bid the target has not got: the bids of it that undertake as many tricks."""
    index = own.bid_index.get(action.bid) if isinstance(action, Bid) else None
    if index is None or not isinstance(action, Bid) or action.bid in game.bid_index:
        return ""
    meant = own.rules.bids[index]
    same = [b.id for b in alike(meant, game.rules.bids, own.rules.widow is not None)]
    if not same:
        return f" (nor any bid of {meant.tricks} tricks)" if not meant.misere else ""
    return f" (the bids like it here are {', '.join(same)})"


def _read_bid(action: Action, own: Game, game: Game, step: int, readings: list[str]) -> Action:
    """A bid as the target reads it (the module's docstring): its own id, else the one bid
    that undertakes the same."""
    if not isinstance(action, Bid) or action.bid in game.bid_index:
        return action
    index = own.bid_index.get(action.bid)
    if index is None:
        return action
    same = alike(own.rules.bids[index], game.rules.bids, own.rules.widow is not None)
    if len(same) != 1:
        return action
    readings.append(f"step {step}: bid {action.bid} read as {same[0].id}")
    return Bid(same[0].id)


def alike(meant: BidRule, bids: tuple[BidRule, ...], widow: bool = True) -> list[BidRule]:
    """The bids of ``bids`` that undertake what ``meant`` does: as many tricks and a misère
    or not; where that leaves several, narrowed in turn by whether the bid needs others made
    first (Wellington after Nap), by the first-lead duty, and by the widow, as far as each
    narrowing leaves one at least. A bid of a game that deals no widow (``widow`` false) is
    played without one: classic's Nap is a floater game's Nap without the floater."""
    found = [b for b in bids if b.tricks == meant.tricks and b.misere == meant.misere]
    wanted = meant.widow if widow or meant.widow is not None else "without"
    for same in (lambda b: bool(b.requires) == bool(meant.requires),
                 lambda b: b.lead == meant.lead, lambda b: b.widow == wanted):
        if len(found) <= 1:
            break
        narrower = [b for b in found if same(b)]
        found = narrower or found
    return found
