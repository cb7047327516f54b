"""The generated cases of the conformance suite, for any ruleset (spec/conformance.md, part 1).

:func:`generate_cases` draws the cases of one ruleset: a ruleset of the spec
(``default_spec().rulesets["pagat"]``) or any other :class:`~napkit.spec.rulesets.Ruleset`,
such as a house ruleset read with :func:`napkit.spec.house.load_ruleset_path`. Each comes with
the path of its file under a suite folder (:func:`napkit.conform.suite.cases.case_path`).
:func:`generate` gives the cases of several rulesets, in the order the built-in suite is
written; :func:`write_suite` writes them under a folder (through :mod:`napkit.output.files`),
replacing the generated cases there and leaving the hand-written ones. ``python
conformance/generate.py`` is the thin script that writes ``conformance/cases`` with them.

Every case is drawn from seeded random play through the reference engine, across the ruleset's
option choices (each choice of each option appears in some cases) and its legal numbers of
players. The players are the engine's biased players
(:class:`napkit.players.biased.BiasedPlayer`, with a :class:`~napkit.players.biased.Style`
drawn for each hand): they choose uniformly among the legal actions, or, in some cases, with a
bias (bid high, bid low, pass, bid a misère, buy a look, buy cards, take or leave the widow,
play the declarer's best cards) so that rarer paths are played: throw-ins and redeals,
misères, purchases, looks, exchanges, knock-outs in matches with chips.

Each case's ``rules`` are the rule ids that replaying it exercises in the engine (found with
:mod:`napkit.spec.coverage`), kept to the rules of kind ``play`` that its ruleset has in force.
``illegal`` cases end with an action chosen to break one rule, and the generator checks that
the engine refuses it naming that very rule (an :class:`AssertionError` otherwise).

The same rulesets give the same cases, byte for byte, in the same order: each case's seed
comes from its id (:func:`seed_of`), so a case does not change when others are added or
removed, and a ruleset's cases are the same whether it is generated alone or with others.
:func:`dumps` is the one layout of a case file (keys sorted, indented, leaf lists on a line).
"""

from __future__ import annotations

import errno
import glob
import json
import os
import random
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

from napkit.conform.suite.breaches import (  # the refusals, each a way to break one rule
    BREACH_BY_NAME,
    BREACHES,
    Breach,
    Candidates,
    possible,
    refusal,
)
from napkit.conform.suite.cases import CASE_FORMAT, case_id, case_path
from napkit.conform.suite.starts import HandStart, draw_start, new_hand, strong_deal
from napkit.engine.actions import (
    ANTE,
    LEAVE_WIDOW,
    PASS,
    TAKE_WIDOW,
    Action,
    Bid,
    Buy,
    Deal,
    Discard,
    NameTrumps,
    Pass,
    Peek,
    Play,
    Reshuffle,
    Shuffle,
    SitOut,
    TakeWidow,
)
from napkit.engine.cards import (
    SPADES,
    SUIT_NAMES,
    card_name,
    card_words,
    cards_of,
    parse_card,
)
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import (
    AUCTION,
    CHANCE,
    DEAL,
)
from napkit.formats import records
from napkit.formats.records import hand_outcome, match_actions
from napkit.formats.values import action_from_json, action_to_json
from napkit.output.files import write_text
from napkit.output.tables import counted
from napkit.players.biased import BiasedPlayer, Style
from napkit.players.views import seat_view
from napkit.reading import ReadError, loads
from napkit.spec import coverage
from napkit.spec.catalog import default_spec
from napkit.spec.rulesets import Ruleset, can_meet

#: What a generated case says made it (``"generated": {"by": ...}``) unless told otherwise: the
#: script that writes the built-in suite.
GENERATOR = "python conformance/generate.py"

# How many cases of each kind each ruleset gets from random play (before targeted ones).
PER_RULESET = {"legal": 30, "illegal": 160, "outcome": 90, "match": 25}
MAX_MATCH_STEPS = 1500  # a match that runs longer is drawn again (keeps files small)

JSONObject = dict[str, Any]
Step = tuple[int, Action]  # (actor, action); CHANCE for chance


# --- the game of a case ---------------------------------------------------------------------------
def option_variants(ruleset: Ruleset) -> list[dict[str, str]]:
    """The defaults, then each option's each other choice with the rest at their defaults."""
    base = {name: option.default for name, option in ruleset.options.items()}
    variants = [dict(base)]
    for name, option in ruleset.options.items():
        for choice in option.choices:
            if choice != option.default:
                variants.append({**base, name: choice})
    return variants


def players_allowed(ruleset: Ruleset, options: Mapping[str, str]) -> list[int]:
    players = ruleset.resolve(options)["players"]
    assert isinstance(players, list)
    return [n for n in players if isinstance(n, int)]


def choose_game(ruleset: Ruleset, index: int, rng: random.Random) -> tuple[dict[str, str], int]:
    """The options and table of the ``index``-th case of a kind: the option variants taken in
    turn (so each choice of each option comes up), some other options drawn at random, and
    the legal numbers of players taken in turn as well."""
    variants = option_variants(ruleset)
    variant = variants[index % len(variants)]
    options = dict(variant)
    fixed = {name for name, choice in variant.items() if choice != ruleset.options[name].default}
    for name, option in ruleset.options.items():
        if name not in fixed and rng.random() < 0.25:
            options[name] = rng.choice(sorted(option.choices))
    allowed = players_allowed(ruleset, options)
    # Every legal table comes up, the common ones (five or fewer) three times as often:
    # large tables make long cases.
    tables = allowed + [n for n in allowed if n <= 5] * 2
    players = tables[(index // len(variants) + index) % len(tables)]
    return options, players


def _game(ruleset: Ruleset, players: int, options: Mapping[str, str]) -> Game:
    """The game of ``ruleset`` (any ruleset, not only the spec's) for this table and options.
    A ruleset of the spec's own is played through :meth:`Game.create`, which keeps its games
    (and their memos) from one case to the next; any other is compiled anew."""
    if default_spec().rulesets.get(ruleset.id) is ruleset:
        game = Game.create(ruleset.id, players, options)
        if game.ruleset is ruleset:  # Game.create finds the spec's rulesets (napkit's finder)
            return game
    return Game(ruleset, players, options)


# --- how chance deals: napkit.conform.suite.starts (HandStart, draw_start, strong_deal) ---------


def play_hand(game: Game, start: HandStart, rng: random.Random, style: Style
              ) -> tuple[list[tuple[HandState, Step]], HandState]:
    """Play a hand out: every (state before, step) in order, and the final state."""
    state = new_hand(game, start)
    player = BiasedPlayer(game, style)
    steps: list[tuple[HandState, Step]] = []
    while not state.is_over():  # not play_out: each step is kept, and "nap" stacks the deal
        if state.phase == DEAL and style.auction == "nap":
            action: Action = strong_deal(state, rng)
        elif state.is_chance():
            action = state.sample_chance(rng)
        else:
            action = player.choose(state.view(state.turn), rng)
        steps.append((state, (state.turn, action)))
        state = state.apply(action)
    return steps, state


def play_match(game: Game, hands: int | None, chips: int | None, rng: random.Random,
               sit_out: float) -> MatchState | None:
    """Play a match out (None if it runs past :data:`MAX_MATCH_STEPS`)."""
    played = play_match_steps(game, hands, chips, rng, sit_out)
    return None if played is None else played[1]


def play_match_steps(game: Game, hands: int | None, chips: int | None, rng: random.Random,
                     sit_out: float) -> tuple[list[tuple[MatchState, Step]], MatchState] | None:
    """Play a match out: every (state before, step) in order and the final state, or None if
    it runs past :data:`MAX_MATCH_STEPS`."""
    match = new_match(game, hands=hands, chips=chips)
    steps: list[tuple[MatchState, Step]] = []
    player = BiasedPlayer(game, Style.draw(rng), sit_out)
    played = 0
    # Not play_out: a match is given up after MAX_MATCH_STEPS, and each hand draws its style
    # when its first player acts.
    for _ in range(MAX_MATCH_STEPS):
        if match.is_over():
            return steps, match
        if match.is_chance():
            action: Action = match.sample_chance(rng)
        else:
            if match.hand is not None and len(match.hands) != played:
                played, player = len(match.hands), BiasedPlayer(game, Style.draw(rng), sit_out)
            action = player.choose(seat_view(match, match.turn), rng)
        steps.append((match, (match.turn, action)))
        match = match.apply(action)
    return None


# Refusals: napkit.conform.suite.breaches. The order in which the illegal cases of a ruleset take
# their breaches (the common ones more often); a breach its ruleset cannot reach is skipped.
# The rarer refusals are reached by the cases targeted at them (generate, below).
BREACH_CYCLE = ("revoke", "not-held", "bid-not-higher", "out-of-turn", "first-lead", "look",
                "revoke", "exchange", "naming", "bid-prerequisite", "unknown-bid", "buy",
                "not-held", "buy-limit", "deal", "out-of-turn", "not-a-call", "deal-first",
                "reshuffle", "over", "bid-not-higher", "no-looks", "thrown-in")
# Refusals random play almost never reaches, covered by hand-written cases instead: a declarer
# dealt five cards of one suit who bids a contract with a duty to lead a non-trump.
BY_HAND = frozenset({"naming-one-suit"})


# --- replaying a case (what the harness asks of a program) ----------------------------------------
def start_state(case: JSONObject, ruleset: Ruleset | None = None) -> HandState | MatchState:
    """The hand or match a case's start request begins, before its first step: a game of
    ``ruleset``, by default the spec's ruleset that the case names."""
    if ruleset is None:
        ruleset = default_spec().rulesets[case["ruleset"]]
    game = _game(ruleset, case["players"], case["options"])
    start = case["start"]
    if start["type"] == "start-match":
        return new_match(game, hands=start["hands"], chips=start["chips"])
    funds = start["funds"]
    return game.new_hand(start["dealer"], seats=tuple(start["seats"]), pool=start["pool"],
                         funds=None if funds is None else tuple(funds), stakes=start["stakes"])


def replay(case: JSONObject, ruleset: Ruleset | None = None) -> Any:
    """Replay a case through the engine as the harness drives a program: start, then for each
    step the legal actions where the case lists them, then the step; and at the end the
    refusal or the outcome. What the engine answers, for checking the case against it: the
    legal lists, the refusal's rule and the outcome. The case's game is of ``ruleset``, by
    default the spec's ruleset of the case's name."""
    state = start_state(case, ruleset)
    legal: list[list[JSONObject]] = []
    for i, step in enumerate(case["steps"]):
        if "legal" in step:
            # What the player to act may do, asked as a player asks it: through what that
            # seat may know of the hand (its view, NAP-4.3.2), the way napkit play asks it.
            actions = (state.view(state.turn).legal_actions if isinstance(state, HandState)
                       else state.legal_actions())
            legal.append([action_to_json(a) for a in actions])
        action = action_from_json(step["action"], ["steps", i, "action"])
        rule, why = refusal(state, step["seat"], action)
        if rule is not None:
            raise AssertionError(f"{case['id']}: step {i} refused: {rule}: {why}")
        state = state.apply(action)
    answer: JSONObject = {"legal": legal}
    refuse = case["expect"].get("refuse")
    if refuse is not None:
        action = action_from_json(refuse["action"], ["expect", "refuse", "action"])
        answer["refuse"] = refusal(state, refuse["seat"], action)[0]
    if case["kind"] == "outcome":
        assert isinstance(state, HandState)
        answer["outcome"] = hand_outcome(state) if state.is_over() else None
    if case["kind"] == "match":
        assert isinstance(state, MatchState)
        answer["outcome"] = match_outcome(state) if state.is_over() else None
    return answer


def match_outcome(match: MatchState) -> JSONObject:
    """A finished match's outcome as the adapter protocol gives it."""
    return records.match_outcome(match, out=True)


@dataclass
class Book:
    """What the law book says about the rulesets generated, for tagging their cases: the play
    rules of the law book, and each ruleset (by id) with the play rules it has in force."""

    play_rules: frozenset[str]
    in_force: dict[str, frozenset[str]]
    order: Callable[[str], int]
    rulesets: dict[str, Ruleset]

    @classmethod
    def load(cls, rulesets: Iterable[Ruleset] | None = None) -> Book:
        """The book of ``rulesets`` (by default every ruleset of the spec)."""
        spec = default_spec()
        chosen = {rs.id: rs for rs in (spec.rulesets.values() if rulesets is None
                                       else rulesets)}
        play = frozenset(r.id for r in spec.lawbook if r.kind == "play")
        return cls(play, {rid: frozenset(rs.rules) & play for rid, rs in chosen.items()},
                   spec.lawbook.order, chosen)

    def tag(self, case: JSONObject) -> list[str]:
        """The play rules in force that replaying the case exercises (and the rule an illegal
        case's last action breaks), in law-book order."""
        ruleset = self.rulesets[case["ruleset"]]
        _, rules = coverage.exercised(lambda: replay(case, ruleset))
        refuse = case["expect"].get("refuse")
        found = set(rules) | ({refuse["rule"]} if refuse else set())
        return sorted(found & self.in_force[case["ruleset"]], key=self.order)


# --- the cases ------------------------------------------------------------------------------------
def seed_of(name: str) -> int:
    """A case's seed, from its id: stable whatever other cases are added or removed."""
    return zlib.crc32(name.encode("utf-8"))


def _options_words(ruleset: Ruleset, options: Mapping[str, str]) -> str:
    changed = [f"{k} {v}" for k, v in sorted(options.items())
               if v != ruleset.options[k].default]
    return f" ({', '.join(changed)})" if changed else ""


def _steps(steps: Sequence[tuple[HandState | None, Step]], legal: bool) -> list[JSONObject]:
    out = []
    for state, (actor, action) in steps:
        step: JSONObject = {"seat": None if actor == CHANCE else actor,
                            "action": action_to_json(action)}
        if legal and actor != CHANCE and state is not None:
            step["legal"] = [action_to_json(a) for a in state.legal_actions()]
        out.append(step)
    return out


def _hand_tags(steps: Sequence[tuple[HandState, Step]], final: HandState) -> list[str]:
    tags = set()
    for state, (_, action) in steps:
        if isinstance(action, Peek):
            tags.add("look")
        elif isinstance(action, Buy) and action.cards:
            tags.add("purchase")
        elif isinstance(action, Reshuffle):
            tags.add("reshuffle")
        elif isinstance(action, TakeWidow | Discard):
            tags.add("exchange")
        elif isinstance(action, NameTrumps):
            tags.add("named-trumps")
        if state.phase == AUCTION and state.auction.round == 2:
            tags.add("raising-round")
    result = final.result
    if result is not None:
        if result.thrown_in:
            tags.add("thrown-in")
        else:
            tags.add("made" if result.made else "defeated")
            bid = final.contract_bid
            if bid is not None and bid.misere:
                tags.add("misere")
            if bid is not None and bid.tricks == 5:
                tags.add("five-tricks")
            if any(p.rule == "NAP-9.1.2" for p in result.payments):
                tags.add("pool-won")
    return sorted(tags)


def _base(name: str, kind: str, game: Game, seed: int, description: str,
          start: JSONObject, steps: list[JSONObject], expect: JSONObject,
          tags: Sequence[str]) -> JSONObject:
    """A case of ``game`` named ``name`` among the cases of its ruleset and kind; its rules
    are left to tag (:meth:`Book.tag`)."""
    return {"format": CASE_FORMAT, "id": case_id(game.id, kind, name), "kind": kind,
            "ruleset": game.id, "options": dict(game.options), "players": game.players,
            "rules": [], "tags": sorted({"generated", *tags}), "description": description,
            "generated": {"by": GENERATOR, "seed": seed}, "start": start, "steps": steps,
            "expect": expect}


def hand_case(kind: str, ruleset: Ruleset, index: int, name: str | None = None,
              target: str | None = None) -> JSONObject | None:
    """A legal or outcome case: one hand played out."""
    rid = ruleset.id
    seed = seed_of(f"{rid}/{kind}/{index}" if target is None else f"{rid}/{kind}/{target}/{index}")
    rng = random.Random(seed)
    options, players = choose_game(ruleset, index, rng)
    game = _game(ruleset, players, options)
    start = draw_start(game, rng)
    style = Style.draw(rng)
    steps, final = play_hand(game, start, rng, style)
    result = final.result
    assert result is not None
    what = ("thrown in: nobody bid" if result.thrown_in else
            f"{result.contract} by seat {result.declarer}, "
            f"{'made' if result.made else 'defeated'} with {_tricks(result.tricks)}")
    words = (f"Generated: one hand of {rid}, {players} players"
             f"{_options_words(ruleset, options)}, dealer seat {start.dealer}, "
             f"{style.words()}; {what}. ")
    if kind == "legal":
        words += "Expected: before each player's step, the legal actions the engine lists."
        expect: JSONObject = {}
        label = "hand"
    else:
        words += "Expected: the outcome the engine settles."
        expect = {"outcome": hand_outcome(final)}
        label = "thrown-in" if result.thrown_in else (
            f"{result.contract}-{'made' if result.made else 'defeated'}")
    case_name = name or f"{index:04d}-{label}"
    return _base(case_name, kind, game, seed, words, start.to_json(game),
                 _steps(steps, kind == "legal"), expect, _hand_tags(steps, final))


def illegal_case(ruleset: Ruleset, index: int, name: str | None = None,
                 target: str | None = None, breach_name: str | None = None) -> JSONObject | None:
    """An illegal case: a hand played up to a point, then an action chosen to break one rule,
    which the engine must refuse naming that rule. The breaches are taken in turn (only those
    of rule ``target``, or only ``breach_name``, if given); one that the game cannot reach in a
    few hands gives way to the next."""
    rid = ruleset.id
    if breach_name is not None:
        cycle = [breach_name]
        target = f"breach-{breach_name}"
    else:
        cycle = [b for b in BREACH_CYCLE if target is None or BREACH_BY_NAME[b].rule == target]
    for shift in range(len(cycle)):
        breach = BREACH_BY_NAME[cycle[(index + shift) % len(cycle)]]
        key = f"{rid}/illegal/{index}" if target is None else f"{rid}/illegal/{target}/{index}"
        for attempt in range(8):
            seed = seed_of(f"{key}/{breach.name}/{attempt}")
            rng = random.Random(seed)
            options, players = choose_game(ruleset, index + attempt, rng)
            game = _game(ruleset, players, options)
            if not possible(breach, game):
                continue
            case = (_try_breach(ruleset, game, breach, rng, seed, index, name)
                    if breach.in_match is None else
                    _try_match_breach(ruleset, game, breach, rng, seed, index, name))
            if case is not None:
                return case
    return None


S = TypeVar("S", HandState, MatchState)


def _choose(game: Game, breach: Breach, find: Callable[[S, random.Random], Candidates],
            points: list[S], rng: random.Random
            ) -> tuple[int, S, int | None, Action, str, str] | None:
    """Where and how to break ``breach``: among the states of a hand or match played out (the
    i-th before its i-th step, the last after the end) where ``find`` offers actions, one drawn
    at random, and one of its actions; with the rule the engine names refusing it, which must
    be the breach's. None if no state offers one."""
    found = []
    for i, state in enumerate(points):
        candidates = find(state, rng)
        if candidates:
            found.append((i, state, candidates))
    if not found:
        return None
    i, state, candidates = found[rng.randrange(len(found))]
    seat, action = candidates[rng.randrange(len(candidates))]
    rule, why = refusal(state, seat, action)
    assert rule == breach.rule, (
        f"{game!r}: {breach.name} meant to break {breach.rule}, but the engine "
        f"{'accepts it' if rule is None else f'names {rule}: {why}'} ({action}, seat {seat})")
    return i, state, seat, action, rule, why


def _try_breach(ruleset: Ruleset, game: Game, breach: Breach, rng: random.Random, seed: int,
                index: int, name: str | None) -> JSONObject | None:
    start = draw_start(game, rng)
    if breach.prepare is not None:
        start = breach.prepare(start, rng)
    style = Style.draw(rng)
    steps, final = play_hand(game, start, rng, style)
    assert breach.find is not None
    chosen = _choose(game, breach, breach.find, [s for s, _ in steps] + [final], rng)
    if chosen is None:
        return None
    i, state, seat, action, rule, why = chosen
    prefix = steps[:i]
    who = "chance" if seat is None else f"seat {seat}"
    where = (f"after {len(prefix)} steps, in the {state.phase_name}" if prefix else
             "before the deal")
    words = (f"Generated: one hand of {ruleset.id}, {game.players} players"
             f"{_options_words(ruleset, dict(game.options))}, dealer seat {start.dealer}, "
             f"{style.words()}; {where}, {who} {breach.words}: {action_words(action)}. "
             f"The engine refuses it: {rule}: {why}.")
    expect = {"refuse": {"seat": seat, "action": action_to_json(action), "rule": breach.rule}}
    case_name = name or f"{index:04d}-{breach.name}"
    return _base(case_name, "illegal", game, seed, words,
                 start.to_json(game), _steps(prefix, False), expect,
                 ["breach-" + breach.name, state.phase_name])


def _try_match_breach(ruleset: Ruleset, game: Game, breach: Breach, rng: random.Random,
                      seed: int, index: int, name: str | None) -> JSONObject | None:
    """An illegal case of a match's own steps: a short match played out, then, at a point where
    the breach can be tried, the action that breaks it."""
    assert breach.in_match is not None
    rules = game.rules
    chips = None if rules.match.bankroll is None else rng.choice((2, 3, 4, None))
    hands = rng.randint(1, 3)
    played = play_match_steps(game, hands, chips, rng, sit_out=rng.choice((0.5, 0.9)))
    if played is None:
        return None
    steps, final = played
    chosen = _choose(game, breach, breach.in_match, [s for s, _ in steps] + [final], rng)
    if chosen is None:
        return None
    i, state, seat, action, rule, why = chosen
    who = "chance" if seat is None else f"seat {seat}"
    chips_words = "" if chips is None else f", {chips} chips each"
    words = (f"Generated: a match of {ruleset.id}, {game.players} players"
             f"{_options_words(ruleset, dict(game.options))}, at most {counted(hands, 'hand')}"
             f"{chips_words}; after {counted(i, 'step')}, in the match's {state.phase_name} step, "
             f"{who}: {breach.words}: {action_words(action)}. The engine refuses it: {rule}: "
             f"{why}.")
    start = {"type": "start-match", "ruleset": ruleset.id, "options": dict(game.options),
             "players": game.players, "hands": hands, "chips": chips}
    expect = {"refuse": {"seat": seat, "action": action_to_json(action), "rule": breach.rule}}
    case_name = name or f"{index:04d}-{breach.name}"
    prefix: list[tuple[HandState | None, Step]] = [(None, step) for _, step in steps[:i]]
    return _base(case_name, "illegal", game, seed, words, start,
                 _steps(prefix, False), expect, ["breach-" + breach.name, "match",
                                                 state.phase_name])


def _tricks(n: int) -> str:
    return counted(n, "trick")


def action_words(action: Action) -> str:
    if isinstance(action, Play):
        return f"plays {card_words(action.card)}"
    if isinstance(action, Discard):
        return f"discards {card_words(action.card)}"
    if isinstance(action, Bid):
        return f"bids {action.bid}"
    if isinstance(action, NameTrumps):
        return f"names {SUIT_NAMES[action.suit]}"
    if isinstance(action, Buy):
        cards = ", ".join(card_words(c) for c in cards_of(action.cards))
        return f"buys, discarding {cards}" if cards else "buys nothing"
    if isinstance(action, Deal):
        return f"deals a pack of {len(action.pack)} cards"
    if isinstance(action, Reshuffle):
        return f"reshuffles {len(action.stock)} cards into the stock"
    if isinstance(action, Pass):
        return "passes"
    return str(action)


def match_case(ruleset: Ruleset, index: int, name: str | None = None,
               target: str | None = None, long: bool = False) -> JSONObject | None:
    """A match played out from the choice of the first dealer to its end; ``long``: of 6 to 12
    agreed hands, not 1 to 5 (for a score sheet's target to be reached first)."""
    rid = ruleset.id
    key = f"{rid}/match/{index}" if target is None else f"{rid}/match/{target}/{index}"
    for attempt in range(10):
        seed = seed_of(f"{key}/{attempt}")
        rng = random.Random(seed)
        options, players = choose_game(ruleset, index + attempt, rng)
        game = _game(ruleset, players, options)
        rules = game.rules
        chips: int | None = None
        if rules.match.bankroll is not None:
            chips = rng.choice((2, 3, 4, 6, None)) if rng.random() < 0.8 else rules.match.bankroll
        hands: int | None = rng.randint(6, 12) if long else rng.randint(1, 5)
        if rules.match.end == "last-with-chips" or (
                rules.match.bankroll is not None and chips is not None and chips <= 4
                and rng.random() < 0.3):
            hands = None if rules.match.end != "agreed" else hands
        match = play_match(game, hands, chips, rng, sit_out=rng.choice((0.0, 0.2, 0.5)))
        if match is None:
            continue
        outcome = match_outcome(match)
        steps = [(None, step) for step in match_actions(match)]
        tags = set()
        for hand in match.hands:
            assert hand.result is not None
            tags.update(_hand_tags([], hand))
        if match.out:
            tags.add("knockout")
        if any(isinstance(a, SitOut) for _, a in match.history):
            tags.add("sit-out")
        if any(h.result is not None and h.result.thrown_in for h in match.hands[:-1]):
            tags.add("redeal")
        limit = ("no agreed number of hands" if hands is None
                 else f"at most {counted(hands, 'hand')}")
        chips_words = "" if rules.match.bankroll is None else (
            f", {chips if chips is not None else rules.match.bankroll} chips each")
        knocked = ", ".join(str(s) for s in outcome["out"])
        words = (f"Generated: a match of {rid}, {players} players"
                 f"{_options_words(ruleset, dict(game.options))}, {limit}{chips_words}, "
                 f"random play with a bias drawn for each hand; "
                 f"{counted(outcome['hands'], 'hand')} played"
                 f"{f', out: {knocked}' if knocked else ''}, "
                 f"winners: {', '.join(str(w) for w in outcome['winners'])}. Expected: the "
                 f"engine's balances, pool, winners, hands and knock-outs"
                 f"{', and the score sheet' if outcome.get('scores') is not None else ''}.")
        start = {"type": "start-match", "ruleset": rid, "options": dict(game.options),
                 "players": players, "hands": hands, "chips": chips}
        case_name = name or f"{index:04d}-{counted(outcome['hands'], 'hand').replace(' ', '-')}"
        return _base(case_name, "match", game, seed, words, start,
                     _steps(steps, False), {"outcome": outcome}, sorted(tags))
    return None


# --- scenarios: a made contract, then the next deal -----------------------------------------------
def scenario_cases(ruleset: Ruleset) -> Iterator[JSONObject]:
    """Matches of two hands whose first is a made contract of a given bid, dealt from a stacked
    pack, under the defaults and each option choice that changes how the pack is made ready
    (NAP-10.2.1): the second deal then shows whether the made contract brought a shuffle or a
    gather and cut. Random matches rarely make a five-trick contract, so without these a program
    that shuffled after the wrong contracts could pass. One case per (options, bid): every bid
    of five tricks, and the highest four-trick bid as the one that does not bring a shuffle."""
    base = ruleset.resolve(ruleset.option_values({}))
    preparation = base.get("preparation")
    if not isinstance(preparation, dict) or preparation.get("usual") != "gather-and-cut":
        return
    variants = [v for i, v in enumerate(option_variants(ruleset))
                if i == 0 or ruleset.resolve(ruleset.option_values(v)).get("preparation")
                != preparation]
    for number, options in enumerate(variants):
        allowed = players_allowed(ruleset, options)
        players = 4 if 4 in allowed else allowed[0]
        game = _game(ruleset, players, options)
        bids = game.rules.bids
        fours = [b for b in bids if b.tricks == 4 and not b.misere]
        targets = [b for b in bids if b.tricks == 5 and not b.misere] + fours[-1:]
        for bid in targets:
            case = _scenario(ruleset, game, number, bid.id)
            if case is not None:
                yield case


TOP_SPADES = ("AS", "KS", "QS", "JS", "10S")


def _scenario(ruleset: Ruleset, game: Game, number: int, bid: str) -> JSONObject | None:
    seed = seed_of(f"{ruleset.id}/match/made-{bid}/{number}")
    rng = random.Random(seed)
    chips = game.rules.match.bankroll
    match = _stacked_start(new_match(game, hands=2, chips=chips), rng)
    if match is None:
        return None
    hand = match.hand
    assert hand is not None
    declarer = hand.dealer  # the dealer speaks last, after any bid the contract needs first
    for _ in range(MAX_MATCH_STEPS):
        if len(match.hands) > 0:
            break
        if match.is_chance():
            match = match.apply(match.sample_chance(rng))
            continue
        state = match.hand
        if state is None:  # between hands: an ante
            match = match.apply(ANTE)
            continue
        match = match.apply(_scripted(state, state.legal_actions(), declarer, bid, rng))
    first = match.hands[0] if match.hands else None
    if first is None or first.result is None or first.result.contract != bid or \
            not first.result.made:
        return None
    player = BiasedPlayer(game, Style.draw(rng))
    for _ in range(MAX_MATCH_STEPS):
        if match.is_over():
            break
        if match.is_chance():
            action: Action = match.sample_chance(rng)
        elif match.hand is not None:
            action = player.choose(match.hand.view(match.turn), rng)
        else:
            action = ANTE
        match = match.apply(action)
    if not match.is_over():
        return None
    words = (f"Generated: a match of {ruleset.id}, {game.players} players"
             f"{_options_words(ruleset, dict(game.options))}, two hands; the first dealt from a "
             f"stacked pack (the dealer holds {' '.join(TOP_SPADES)}) and played so that the "
             f"dealer's {bid} is made; the second shows how the pack is then made ready "
             f"(NAP-10.2.1: shuffled after the contracts the ruleset lists, else as usual). "
             f"Expected: the engine's balances, pool, winners, hands and knock-outs.")
    start = {"type": "start-match", "ruleset": ruleset.id, "options": dict(game.options),
             "players": game.players, "hands": 2, "chips": chips}
    steps = [(None, step) for step in match_actions(match)]
    return _base(f"made-{bid}-then-deal-{number}", "match", game, seed,
                 words, start, _steps(steps, False), {"outcome": match_outcome(match)},
                 ["scenario", "made"])


def _stacked_start(match: MatchState, rng: random.Random) -> MatchState | None:
    """The match up to its first hand's deal, the first shuffle stacked so that the first
    dealer holds the five top spades."""
    before = match
    for _ in range(50):
        if match.hand is not None:
            break
        match = match.apply(match.sample_chance(rng) if match.is_chance() else ANTE)
    hand = match.hand
    if hand is None:
        return None
    shuffle = next(a for _, a in match.history if isinstance(a, Shuffle))
    dealt = cards_of(hand.hands[hand.dealer])
    pack = list(shuffle.pack)
    for have, want in zip(dealt, (parse_card(c) for c in TOP_SPADES), strict=True):
        i, j = pack.index(have), pack.index(want)
        pack[i], pack[j] = pack[j], pack[i]
        dealt = tuple(want if c == have else have if c == want else c for c in dealt)
    stacked = Shuffle(tuple(pack))
    match = before
    for _ in range(50):
        if match.hand is not None:
            break
        if match.is_chance():
            action = match.sample_chance(rng)
            match = match.apply(stacked if isinstance(action, Shuffle) else action)
        else:
            match = match.apply(ANTE)
    hand = match.hand
    if hand is None or {card_name(c) for c in cards_of(hand.hands[hand.dealer])} != set(
            TOP_SPADES):
        return None
    return match


def _scripted(state: HandState, legal: Sequence[Action], declarer: int, bid: str,
              rng: random.Random) -> Action:
    """The first hand of a scenario: the dealer bids ``bid`` once the bids it needs have been
    made (by the others, lowest first); the dealer keeps the top spades, names spades and
    plays them from the top; the others play at random."""
    seat = state.turn
    if state.phase == AUCTION:
        if seat == declarer:
            return Bid(bid) if Bid(bid) in legal else PASS
        needed = state.game.rules.bids[state.game.bid_index[bid]].requires
        made = state.auction.made
        for group in needed:
            if not made & group:
                for a in legal:
                    if isinstance(a, Bid) and group >> state.game.bid_index[a.bid] & 1:
                        return a
        return PASS if PASS in legal else legal[0]
    if seat != declarer:
        if any(isinstance(a, Buy) and not a.cards for a in legal):
            return next(a for a in legal if isinstance(a, Buy) and not a.cards)
        return rng.choice(list(legal))
    if LEAVE_WIDOW in legal:
        return LEAVE_WIDOW
    spades = {parse_card(c) for c in TOP_SPADES}
    discards = [a for a in legal if isinstance(a, Discard) and a.card not in spades]
    if discards:
        return discards[0]
    named = [a for a in legal if isinstance(a, NameTrumps) and a.suit == SPADES]
    if named:
        return named[0]
    buys = [a for a in legal if isinstance(a, Buy) and not a.cards]
    if buys:
        return buys[0]
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return max(plays, key=lambda a: (a.card in spades, a.card))
    return TAKE_WIDOW if TAKE_WIDOW in legal else legal[0]


MAKERS: dict[str, Callable[..., JSONObject | None]] = {
    "legal": lambda rs, i, name=None, target=None: hand_case("legal", rs, i, name, target),
    "outcome": lambda rs, i, name=None, target=None: hand_case("outcome", rs, i, name, target),
    "illegal": illegal_case,
    "match": match_case,
}


def generate_cases(ruleset: Ruleset, *, by: str = GENERATOR
                   ) -> Iterator[tuple[PurePosixPath, JSONObject]]:
    """The generated cases of one ruleset (the spec's, or a house ruleset, or any other), each
    with the path of its file under a suite folder (``RULESET/KIND/NAME.json``,
    :func:`~napkit.conform.suite.cases.case_path`), as :func:`generate` gives them. ``by`` is
    what each case says made it (``"generated": {"by": ...}``).

    >>> from napkit.spec.catalog import default_spec
    >>> path, case = next(generate_cases(default_spec().rulesets["classic"]))
    >>> str(path), case["id"], case["kind"], case["ruleset"]
    ('classic/legal/0000-hand.json', 'classic/legal/0000-hand', 'legal', 'classic')
    """
    for case in generate([ruleset], by=by):
        yield case_path(case["id"]), case


def generate(rulesets: Iterable[Ruleset] | None = None, *, by: str = GENERATOR
             ) -> Iterator[JSONObject]:
    """Every generated case of ``rulesets`` (by default every ruleset of the spec, which is
    the built-in suite), tagged, each a napkit-case/1 document: random play first, then
    scenarios and targeted cases for any play rule in force in a ruleset that random play left
    without a case, and for any refusal it can reach that has no illegal case. Each step takes
    the rulesets in turn; a ruleset's cases are the same, in the same order, whatever other
    rulesets are generated with it. ``by`` is what each case says made it."""
    spec = default_spec()
    chosen = list(spec.rulesets.values() if rulesets is None else rulesets)
    ids = [ruleset.id for ruleset in chosen]
    twice = sorted({rid for rid in ids if ids.count(rid) > 1})
    if twice:
        raise ValueError(f"two rulesets of one id: {', '.join(twice)}")
    for case in _generate(chosen, Book.load(chosen)):
        case["generated"]["by"] = by
        yield case


def _generate(rulesets: Sequence[Ruleset], book: Book) -> Iterator[JSONObject]:
    spec = default_spec()
    covered: set[tuple[str, str]] = set()
    breached: set[tuple[str, str]] = set()  # (ruleset, refusal) of the illegal cases so far
    for ruleset in rulesets:
        for kind, count in PER_RULESET.items():
            for index in range(count):
                case = MAKERS[kind](ruleset, index)
                if case is None:
                    continue
                case["rules"] = book.tag(case)
                if not case["rules"]:
                    continue
                covered.update((ruleset.id, rule) for rule in case["rules"])
                breached.update(_breaches(case))
                yield case
    # Scenarios: a made contract, then the next deal (see scenario_cases).
    for ruleset in rulesets:
        for case in scenario_cases(ruleset):
            case["rules"] = book.tag(case)
            covered.update((ruleset.id, rule) for rule in case["rules"])
            yield case
    # Matches that random play seldom gives: stakes raised twice, where each throw-in doubles
    # them again (NAP-9.4.1: a played hand after two throw-ins in a row, at four times); and a
    # score sheet's target reached exactly before the agreed hands (NAP-10.4.5), which a
    # program that ends the match a point late fails.
    for special in (_raised_twice, _target_reached):
        for ruleset in rulesets:
            case = special(ruleset)
            if case is not None:
                case["rules"] = book.tag(case)
                covered.update((ruleset.id, rule) for rule in case["rules"])
                yield case
    # Targeted: for each empty cell, cases drawn until one exercises the rule.
    for ruleset in rulesets:
        for rule in sorted(book.in_force[ruleset.id], key=book.order):
            if (ruleset.id, rule) in covered:
                continue
            case = _targeted(book, ruleset, rule)
            if case is not None:
                covered.update((ruleset.id, r) for r in case["rules"])
                breached.update(_breaches(case))
                yield case
    # Targeted by refusal: each refusal the law book defines, in every ruleset that can reach
    # it, has an illegal case (the coverage matrix by breach, napkit.conform.run.matrix).
    for ruleset in rulesets:
        for name in spec.lawbook.refusals:
            if (ruleset.id, name) in breached or name in BY_HAND or not reachable(ruleset, name):
                continue
            for index in range(TARGET_TRIES):
                case = illegal_case(ruleset, index, f"b-{name}", breach_name=name)
                if case is not None:
                    case["rules"] = book.tag(case)
                    case["tags"] = sorted({*case["tags"], "targeted"})
                    yield case
                    break


def _raised_twice(ruleset: Ruleset) -> JSONObject | None:
    """A match of ``ruleset`` in which a hand is played at four times the stakes, after two
    throw-ins in a row: the first of the seeded matches to have one, where the ruleset's
    throw-ins double the stakes cumulatively under some choice of its options."""
    if not can_meet(ruleset.params, "throw_in.stakes=double-cumulative"):
        return None
    for index in range(TARGET_TRIES):
        case = match_case(ruleset, index, "t-stakes-raised-twice", "stakes-raised-twice")
        if case is None:
            continue
        match = start_state(case, ruleset)
        for i, step in enumerate(case["steps"]):
            match = match.apply(action_from_json(step["action"], ["steps", i, "action"]))
        assert isinstance(match, MatchState)
        if any(h.stakes >= 4 and h.result is not None and not h.result.thrown_in
               for h in match.hands):
            case["tags"] = sorted({*case["tags"], "targeted", "stakes-raised"})
            return case
    return None


def _target_reached(ruleset: Ruleset) -> JSONObject | None:
    """A match of ``ruleset`` that ends because a score reached the score sheet's target
    exactly (NAP-10.4.5), before the hands agreed were played: the first of the seeded long
    matches to have one, where some choice of the options sets a target. A program that ends
    the match only past the target, or at the agreed end, fails it."""
    if not can_meet(ruleset.params, "scoring.target"):
        return None
    for index in range(TARGET_TRIES):
        case = match_case(ruleset, index, "t-target-reached", "target-reached", long=True)
        if case is None:
            continue
        outcome, start = case["expect"]["outcome"], case["start"]
        scores, target = outcome.get("scores"), _target_of(ruleset, case["options"])
        if (scores is not None and target is not None and target in scores
                and start["hands"] is not None and outcome["hands"] < start["hands"]):
            case["tags"] = sorted({*case["tags"], "targeted", "target-reached"})
            case["description"] += (f" A score reaches the target, {target}, exactly, at the "
                                    f"end of hand {outcome['hands']} of {start['hands']} "
                                    "agreed: the match ends there (NAP-10.4.5).")
            return case
    return None


def _target_of(ruleset: Ruleset, options: Mapping[str, str]) -> int | None:
    scoring = ruleset.resolve(options).get("scoring")
    target = scoring.get("target") if isinstance(scoring, dict) else None
    return target if isinstance(target, int) else None


def _breaches(case: JSONObject) -> set[tuple[str, str]]:
    return {(case["ruleset"], tag[len("breach-"):]) for tag in case["tags"]
            if tag.startswith("breach-")}


def reachable(ruleset: Ruleset, name: str) -> bool:
    """Whether some game of ``ruleset`` (some choice of its options) can reach the refusal
    ``name``: its rule is in force and the ruleset offers what the refusal needs."""
    rule, refusal = default_spec().lawbook.refusals[name]
    return rule.id in ruleset.rules and all(can_meet(ruleset.params, n) for n in refusal.needs)


TARGET_TRIES = 200


def _targeted(book: Book, ruleset: Ruleset, rule: str) -> JSONObject | None:
    slug = rule.lower().replace(".", "-")
    breaches = {b.rule for b in BREACHES}
    kinds = ["illegal"] if rule in breaches else []
    kinds += ["outcome", "match", "legal"]
    for index in range(TARGET_TRIES):
        kind = kinds[index % len(kinds)]
        case = MAKERS[kind](ruleset, index, f"t-{slug}", rule)
        if case is None:
            continue
        case["rules"] = book.tag(case)
        if rule in case["rules"]:
            case["tags"] = sorted({*case["tags"], "targeted"})
            return case
    return None


# --- files ----------------------------------------------------------------------------------------
def dumps(case: JSONObject) -> str:
    """A case as its file holds it: JSON indented by one space, keys sorted, and a newline.

    A list or object that holds no list or object (a pack, a rule list, an action, a legal
    action) stays on one line, so a regenerated case reads as a diff of the steps that changed.
    """
    return _layout(case, 0) + "\n"


def _layout(value: Any, depth: int) -> str:
    """``value`` as JSON ``depth`` spaces in; on one line if it holds no list or object."""
    inside = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    if not any(isinstance(item, (dict, list)) for item in inside):
        return json.dumps(value, sort_keys=True, separators=(", ", ": "), ensure_ascii=False)
    pad = " " * (depth + 1)
    if isinstance(value, list):
        lines = [pad + _layout(item, depth + 1) for item in value]
        return "[\n" + ",\n".join(lines) + "\n" + " " * depth + "]"
    lines = [f"{pad}{json.dumps(key, ensure_ascii=False)}: {_layout(value[key], depth + 1)}"
             for key in sorted(value)]
    return "{\n" + ",\n".join(lines) + "\n" + " " * depth + "}"


def is_generated(path: Path) -> bool:
    """Whether the file at ``path`` is a generated case (tagged ``generated``): one that
    :func:`write_suite` may delete. A file it cannot read as JSON is not."""
    try:
        doc = loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ReadError):
        return False
    return isinstance(doc, dict) and isinstance(doc.get("tags"), list) and (
        "generated" in doc["tags"])


def write_suite(out: Path, rulesets: Iterable[Ruleset] | None = None, *,
                by: str = GENERATOR) -> dict[str, int]:
    """Write the generated cases of ``rulesets`` under the suite folder ``out`` (made if need
    be), each at its path there (:func:`~napkit.conform.suite.cases.case_path`), in the layout
    of :func:`dumps`, each file written whole or not at all (:mod:`napkit.output.files`).
    The count of cases written of each kind.

    By default the rulesets are every ruleset of the spec: the built-in suite, as ``python
    conformance/generate.py`` writes it. First the generated cases already under ``out``
    (those tagged ``generated``) are deleted: every one for the whole built-in suite (the
    cases of a ruleset no longer in the spec go too), else those of the rulesets written. A
    case that is not generated (a hand-written one) is never touched; a generated case whose
    file is there already (a hand-written case of the same id) raises
    :class:`FileExistsError` naming the file, the cases before it written.
    """
    chosen = None if rulesets is None else list(rulesets)
    folders = ["*"] if chosen is None else [glob.escape(r.id) for r in chosen]
    for folder in folders:
        for path in sorted(out.glob(f"{folder}/*/*.json")) if out.is_dir() else []:
            if is_generated(path):
                path.unlink()
    counts: dict[str, int] = {}
    for case in generate(chosen, by=by):
        path = out.joinpath(case_path(case["id"]))
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            raise FileExistsError(errno.EEXIST, "a hand-written case has the id of a "
                                                f"generated one, {case['id']}", os.fspath(path))
        write_text(os.fspath(path), dumps(case))
        counts[case["kind"]] = counts.get(case["kind"], 0) + 1
    return counts


__all__ = ["GENERATOR", "PER_RULESET", "Book", "dumps", "generate", "generate_cases",
           "is_generated", "replay", "seed_of", "start_state", "write_suite"]
