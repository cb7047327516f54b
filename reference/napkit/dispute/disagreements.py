"""Where the sources disagree: each rule of the law book on which the sources' own games give
different answers, each source's answer, and a worked hand that plays out differently under
them.

The sources' games are the rulesets that extend no other (one a source: a variant described
by the same source, such as pagat's floater games, is that source's variation, not a
disagreement between sources). A rule is a point of disagreement where two of them answer it
differently: one has it in force and another not, or they give its parameters different
values (at their default options).

The worked hand of a point is searched for, in a fixed order (each answering ruleset in
turn, hands of four players dealt and played by the engine's players from seeds 0, 1, 2...),
until one is found that is legal under its own ruleset and, replayed (:mod:`napkit.dispute.
replay`, the same cards to the same seats) under a ruleset of another answer, is refused
under that rule, or settles otherwise with a payment under it. Every other seed's deal gives
someone a strong hand (:func:`napkit.conform.suite.starts.strong_deal`), so that contracts are made
as well as lost. Points about the table or the match rather than one hand's play (the players,
the first dealer, the match's end) have none, and say so.

>>> from napkit import load_spec
>>> found = points(load_spec())
>>> [p.rule.id for p in found][:3]
['NAP-1.1.2', 'NAP-2.2.1', 'NAP-3.1.1']
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from napkit.conform.suite.starts import strong_deal
from napkit.dispute.replay import Target, Verdict, replay_under
from napkit.engine.game import Game
from napkit.errors import SetupError
from napkit.formats.recording import record_text
from napkit.formats.values import action_from_json
from napkit.players.playout import play_out
from napkit.spec.catalog import Spec
from napkit.spec.coverage import exercised
from napkit.spec.lawbook import Rule
from napkit.spec.render import param_values
from napkit.spec.rulesets import Ruleset

PLAYERS = 4  # the table of the worked hands: a number every source's game allows
SEEDS = 25  # hands tried per answering ruleset before a point is left without a worked hand
# Rules about the table or the match, not one hand's play: no worked hand is looked for.
MATCH_CHAPTERS = frozenset({"NAP-3", "NAP-10"})
NOT_IN_A_HAND = frozenset({"NAP-1.1.2", "NAP-4.1.1", "NAP-9.3.2", "NAP-9.5.1"})
# Where the cards come from in the pack is the point itself: the worked hand keeps the pack.
SAME_PACK = frozenset({"NAP-4.2"})


@dataclass(frozen=True)
class Answer:
    """One answer to a rule: its value (``not in force``, or the parameters' values) and the
    sources' games that give it."""

    value: str
    rulesets: tuple[Ruleset, ...]


@dataclass(frozen=True)
class Point:
    """A rule the sources answer differently, and a worked hand where one is found."""

    rule: Rule
    answers: tuple[Answer, ...]
    hand: dict[str, Any] | None = None
    verdicts: tuple[Verdict, ...] = ()
    same: str = "hands"  # what the worked hand keeps under the other rulesets


def source_games(spec: Spec) -> list[Ruleset]:
    """One ruleset a source: those that extend no other, in the sources' order."""
    order = {s.file: n for n, s in enumerate(spec.index)}
    return sorted((r for r in spec.rulesets.values() if r.extends is None),
                  key=lambda r: (order.get(r.source, len(order)), r.id))


def answer(rule: Rule, ruleset: Ruleset) -> str:
    """What ``ruleset`` says of ``rule``: ``not in force``, ``in force`` (a rule with no
    parameters), or its parameters' values."""
    if rule.id not in ruleset.rules:
        return "not in force"
    resolved = ruleset.resolve()
    values = [f"{label}: {text}" if label != entry else text
              for entry in rule.params for label, text in param_values(resolved, entry)]
    return "; ".join(values) if values else "in force"


def points(spec: Spec) -> list[Point]:
    """Every rule the sources answer differently, in law-book order (no worked hands)."""
    games = source_games(spec)
    found = []
    for rule in spec.lawbook:
        grouped: dict[str, list[Ruleset]] = {}
        for ruleset in games:
            grouped.setdefault(answer(rule, ruleset), []).append(ruleset)
        if len(grouped) > 1:
            found.append(Point(rule, tuple(Answer(v, tuple(rs)) for v, rs in grouped.items())))
    return found


def _hands(ruleset: Ruleset) -> Iterator[dict[str, Any]]:
    try:
        game = Game(ruleset, PLAYERS)
    except SetupError:
        return
    for seed in range(SEEDS):
        rng = random.Random(seed)
        state = game.new_hand(seed % PLAYERS)
        if seed % 2:  # a strong hand for someone, so that contracts are made as well as lost
            state = state.apply(strong_deal(state, rng))
        yield json.loads(record_text([play_out(state, rng)]))


def _net(verdict: Verdict) -> tuple[int, ...] | None:
    result = verdict.state.result if verdict.state is not None and verdict.legal else None
    return result.net if result is not None else None


def shows(rule_id: str, record: dict[str, Any], home: Verdict, other: Verdict) -> bool:
    """Whether a hand legal under its home ruleset plays out otherwise under ``other``
    because of ``rule_id``: ``other`` cannot deal it, or refuses a step of it, under that rule,
    or refuses a step that the rule governs at home (the engine checks it in allowing the
    step there); or both settle it, differently, with a payment under that rule."""
    if not home.finished:
        return False
    if not other.legal:
        if other.rule == rule_id:
            return True
        return other.parting is not None and rule_id in _governing(record, home, other.parting.step)
    if _net(other) is None or _net(other) == _net(home):
        return False
    paid = [p.rule for v in (home, other) if v.state is not None and v.state.result is not None
            for p in v.state.result.payments]
    return rule_id in paid


def _governing(record: dict[str, Any], home: Verdict, step: int) -> frozenset[str]:
    """The rules the engine checks in allowing step ``step`` of the hand at home."""
    cut = {**record, "actions": record["actions"][:step - 1]}
    before = replay_under(cut, home.target, fill=False).state
    if before is None:
        return frozenset()
    action = action_from_json(record["actions"][step - 1]["action"])
    return exercised(lambda: before.apply(action))[1]


def worked(spec: Spec, point: Point) -> Point:
    """``point`` with its worked hand, if the search (the module's docstring) finds one."""
    if point.rule.chapter_id in MATCH_CHAPTERS or point.rule.id in NOT_IN_A_HAND:
        return point
    targets = [Target(r, {}) for r in source_games(spec)]
    firsts = [a.rulesets[0] for a in point.answers]
    same = "pack" if point.rule.section_id in SAME_PACK else "hands"
    for home in firsts:
        others = [r for r in firsts if r is not home]
        for record in _hands(home):
            # No step filled (replay's what-if): a worked hand shows where each game parts.
            own = replay_under(record, Target(home, {}), same, fill=False)
            if any(shows(point.rule.id, record, own,
                         replay_under(record, Target(o, {}), same, fill=False))
                   for o in others):
                verdicts = tuple(replay_under(record, t, same, fill=False) for t in targets)
                return Point(point.rule, point.answers, record, verdicts, same)
    return point


def every_point(spec: Spec) -> list[Point]:
    """Every point of disagreement, each with its worked hand where one is found."""
    return [worked(spec, p) for p in points(spec)]
