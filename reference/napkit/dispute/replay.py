"""A hand replayed under other rulesets: where each parts from it, and what each settles.

:func:`replay_under` takes a hand as recorded (``napkit-hand/1``, finished or stopped
anywhere) and one :class:`Target` (a ruleset, built-in or a file of one's own, with option
choices), and gives a :class:`Verdict`: the same cards dealt to the same seats
(:func:`napkit.dispute.deals.pack_for`), every action of the hand tried in turn, and the first
one the target's rules refuse (its step, the rule id and why), or the hand's settlement under
those rules when all are allowed.

Steps are counted as people count them: step 1 is the first action after the deal (the deal
itself is step 0).

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

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from napkit.dispute.deals import pack_for, rest_of
from napkit.engine.acting import turn_refusal
from napkit.engine.actions import Action, Bid, Deal
from napkit.engine.cards import parse_card
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.rules import BidRule
from napkit.errors import RuleError, SetupError, SpecError
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
class Verdict:
    """A hand under one target."""

    target: Target
    steps: int  # the hand's actions after the deal
    setup: RuleError | None = None  # the table or the deal is not this ruleset's
    parting: Parting | None = None
    state: HandState | None = None  # the last position reached
    readings: tuple[str, ...] = ()  # bids read as another id: "step 3: bid nap as napoleon"

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


def replay_under(record: Mapping[str, Any], under: Target, same: str = "hands") -> Verdict:
    """The hand of ``record`` under ``under``: see the module's docstring."""
    own_game, own = dealt(record)
    steps: list[Any] = list(record["actions"])
    try:
        game = Game(under.ruleset, record["players"], dict(under.choices))
        state = _new_hand(game, record)
        pack = (pack_for(game, own, rest_of(own, tuple(_cards(record["deal"]))))
                if same == "hands" else tuple(_cards(record["deal"])))
        state = state.apply(Deal(pack))
    except (SetupError, RuleError) as exc:
        return Verdict(under, len(steps), setup=exc)
    readings: list[str] = []
    for number, step in enumerate(steps, start=1):
        try:
            action = action_from_json(step["action"], ["actions", number - 1, "action"])
        except FormatError as exc:
            raise RecordError(f"{exc.path}: {exc.message}") from None
        action = _read_bid(action, own_game, game, number, readings)
        seat = step["seat"]
        refusal: RuleError | None
        if state.is_over():
            refusal = RuleError("NAP-1.3.3", "the hand is already over")
        else:
            refusal = turn_refusal(state.turn, seat)
        if refusal is None:
            try:
                state = state.apply(action)
            except RuleError as exc:
                refusal = exc
        if refusal is not None:
            parting = Parting(number, seat, str(action), refusal.rule,
                              refusal.message + _alike(action, own_game, game))
            return Verdict(under, len(steps), parting=parting, state=state,
                           readings=tuple(readings))
    return Verdict(under, len(steps), state=state, readings=tuple(readings))


def _alike(action: Action, own: Game, game: Game) -> str:
    """For a bid the target has not got: the bids of it that undertake as many tricks."""
    index = own.bid_index.get(action.bid) if isinstance(action, Bid) else None
    if index is None or not isinstance(action, Bid) or action.bid in game.bid_index:
        return ""
    meant = own.rules.bids[index]
    same = [b.id for b in alike(meant, game.rules.bids)]
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
    same = alike(own.rules.bids[index], game.rules.bids)
    if len(same) != 1:
        return action
    readings.append(f"step {step}: bid {action.bid} read as {same[0].id}")
    return Bid(same[0].id)


def alike(meant: BidRule, bids: tuple[BidRule, ...]) -> list[BidRule]:
    """The bids of ``bids`` that undertake what ``meant`` does: as many tricks and a misère
    or not; where that leaves several, narrowed in turn by whether the bid needs others made
    first (Wellington after Nap), by the first-lead duty, and by the widow, as far as each
    narrowing leaves one at least."""
    found = [b for b in bids if b.tricks == meant.tricks and b.misere == meant.misere]
    for same in (lambda b: bool(b.requires) == bool(meant.requires),
                 lambda b: b.lead == meant.lead, lambda b: b.widow == meant.widow):
        if len(found) <= 1:
            break
        narrower = [b for b in found if same(b)]
        found = narrower or found
    return found
