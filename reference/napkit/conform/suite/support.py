"""What a program said it supports in its handshake, and which cases that leaves out.

spec/conformance.md 2.2: ``supports.kinds`` lists the kinds of case; ``supports.rulesets``
maps each ruleset id to its option choices (a list, or ``"*"`` for every choice; an option not
listed is supported at its default only; ``"n/a"`` held at its default) and, optionally, its
table sizes. A case outside that is *skipped*, never passed. :func:`handshake_problems` checks
the declaration against the rulesets it names, so that a misspelt option or choice is refused
rather than skipping every case it touches. ``supports.forced_passes`` (spec/conformance.md
2.2) says whether the program is asked for a pass that is the only legal action
(:func:`forced_pass`) or takes it itself: :func:`skipped_steps` are then not sent.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from napkit.conform.suite.cases import OWN_RULESETS, Case
from napkit.engine.actions import Pass
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.errors import RuleError, SpecError
from napkit.formats.values import action_from_json


def option_defaults(ruleset: str) -> Mapping[str, str] | None:
    """Each option's default in napkit's spec, or None if the spec has no such ruleset."""
    from napkit.spec.catalog import default_rulesets  # the rulesets alone: no law book

    try:
        found = default_rulesets().get(ruleset) or OWN_RULESETS.get(ruleset)
    except (SpecError, RuleError):
        return None
    return None if found is None else {n: o.default for n, o in found.options.items()}


def known_rulesets() -> dict[str, Any]:
    """The rulesets a handshake may name that napkit knows: the spec's and those of one's own
    given on the command line (``--ruleset-file``), by id."""
    from napkit.spec.catalog import default_rulesets  # the rulesets alone: no law book

    return {**default_rulesets(), **OWN_RULESETS}


def handshake_problems(supports: Mapping[str, Any], known: Mapping[str, Any]
                       ) -> tuple[list[str], list[str]]:
    """What is wrong with a ``hello``'s ``supports`` (spec/conformance.md 2.2), as ``$.PATH:
    WHAT`` lines, and notes on what is doubtful but allowed. Refused: no kind or no ruleset
    declared (every case would be skipped); an option a ruleset napkit knows does not have,
    or a choice its option does not offer (each with the names it may have meant). Noted: a
    ruleset napkit does not know (a house game not given with ``--ruleset-file``, a newer
    ruleset, a misspelt id), none of whose cases can run. ``known``: the rulesets by id
    (``napkit.spec.rulesets.Ruleset``)."""
    problems: list[str] = []
    notes: list[str] = []
    if not supports.get("kinds"):
        problems.append("$.supports.kinds: no kind of case declared (one or more of legal, "
                        "illegal, outcome, match): every case would be skipped")
    forced = supports.get("forced_passes", ASKED)
    if forced not in FORCED_PASSES:
        shown = _shown(forced) if isinstance(forced, str) else repr(forced)
        problems.append(f"$.supports.forced_passes: no such declaration '{shown}'"
                        f"{_meant(forced, FORCED_PASSES, 1) if isinstance(forced, str) else ''} "
                        f"(it is {' or '.join(FORCED_PASSES)})")
    declared = supports.get("rulesets") or {}
    if not declared:
        problems.append("$.supports.rulesets: no ruleset declared: every case would be "
                        "skipped")
    for rid, entry in sorted(declared.items()):
        ruleset = known.get(rid)
        if ruleset is None:
            notes.append(f"the program declares ruleset {rid!r}, which napkit does not know"
                         f"{_meant(rid, known)}: none of its cases can run (a house ruleset "
                         "is given with --ruleset-file FILE)")
            continue
        where = f"$.supports.rulesets.{rid}.options"
        options = (entry.get("options") or {}) if isinstance(entry, Mapping) else {}
        for name, said in sorted(options.items()):
            option = ruleset.options.get(name)
            if option is None:
                problems.append(f"{where}.{_shown(name)}: {rid} has no option "
                                f"'{_shown(name)}'{_meant(name, ruleset.options)} (its options: "
                                f"{', '.join(sorted(ruleset.options)) or 'none'})")
                continue
            for n, choice in enumerate(said if isinstance(said, list) else []):
                if choice not in option.choices:
                    problems.append(f"{where}.{name}[{n}]: option {name} of {rid} has no "
                                    f"choice '{_shown(choice)}'{_meant(choice, option.choices)}"
                                    f" (its choices: {', '.join(option.choices)})")
    return problems, notes


def _meant(wrong: str, known: Iterable[str], most: int = 3) -> str:
    close = difflib.get_close_matches(wrong[:100], list(known), n=most, cutoff=0.6)
    return f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""


def _shown(text: str, limit: int = 40) -> str:
    """A name or choice the program wrote, safe on a terminal and shortened (its length said)
    where long."""
    from napkit.output.tables import printable

    return printable(text if len(text) <= limit else
                     f"{text[:limit]}…({len(text):,} characters)")


# The refusals whose cases hand the program a pack the rules refuse (spec/conformance.md 2.5).
PACK_BREACHES = frozenset({"breach-deal", "breach-deal-first", "breach-reshuffle",
                           "breach-shuffle-pack"})


def skip_reason(case: Case, supports: Mapping[str, Any]) -> str | None:
    """Why the program does not play this case (None: it does)."""
    chance = supports.get("chance", "harness")
    if chance == "program":
        return ("chance events made by the program (supports.chance program): no case can "
                "hand it a deal; napkit fuzz checks it")
    if chance == "both" and PACK_BREACHES.intersection(case.tags):
        return ("a pack the rules refuse is handed over, and the program makes its own "
                "(supports.chance both)")
    kinds = supports.get("kinds", [])
    if case.kind not in kinds:
        return f"kind {case.kind} not supported"
    if case.start.get("type") == "start-match" and "match" not in kinds:
        # An illegal case of a match's own steps needs a program that plays matches.
        return f"kind {case.kind} of a match: kind match not supported"
    entry = supports.get("rulesets", {}).get(case.ruleset)
    if entry is None:
        return f"ruleset {case.ruleset} not supported"
    players = entry.get("players")
    if players is not None and case.players not in players:
        return f"{case.players} players not supported in {case.ruleset}"
    declared = entry.get("options", {})
    defaults = option_defaults(case.ruleset) or {}
    for name, choice in sorted(case.options.items()):
        allowed = declared.get(name)
        if allowed == "*":
            continue
        if allowed == NOT_APPLICABLE:
            # Held at its default: a case of another choice is the same case for the
            # program, and would pass (or fail) again without checking anything new.
            if defaults.get(name) != choice:
                return f"option {name}={choice} not played (n/a, held at its default)"
        elif allowed is None or allowed == DEFAULT_ONLY:
            if defaults.get(name) != choice:
                return f"option {name}={choice} not supported (only its default)"
        elif choice not in allowed:
            return f"option {name}={choice} not supported"
    if (case.kind == "illegal" and skips_forced_passes(supports)
            and forced_passes(case)[1]):
        return ("forced passes skipped: the illegal try is made where the only legal action "
                "is a pass, which the program takes itself (supports.forced_passes skipped)")
    return None


# --- forced passes (spec/conformance.md 2.2) --------------------------------------------------
ASKED, SKIPPED_PASSES = "asked", "skipped"
FORCED_PASSES = (ASKED, SKIPPED_PASSES)  # supports.forced_passes, the default first


def skips_forced_passes(supports: Mapping[str, Any]) -> bool:
    """Whether the program takes a forced pass itself, unasked (``supports.forced_passes``
    ``"skipped"``): the harness then sends it no ``legal`` or ``apply`` for one."""
    return supports.get("forced_passes") == SKIPPED_PASSES


def forced_pass(state: HandState | MatchState) -> bool:
    """Whether the player to act may only pass (NAP-5.2.1: nothing higher left to bid). Only a
    pass of the auction: an ante that a player may not refuse is no pass, and is asked."""
    if state.turn < 0:  # chance is to act, or nobody: play is over
        return False
    legal = state.legal_actions()
    return len(legal) == 1 and type(legal[0]) is Pass


# The last cases looked at, by identity (each kept, so that its id is its own): the runner asks
# of a case whether it is skipped, then which of its steps are sent.
_FORCED: dict[int, tuple[Case, tuple[frozenset[int], bool]]] = {}


def forced_passes(case: Case) -> tuple[frozenset[int], bool]:
    """The steps of ``case`` that are forced passes (:func:`forced_pass`), by index, and
    whether one is due after its last step (where an illegal case's try is made), as the
    engine replays the case. A step the engine refuses ends the replay there: the case fails
    at it whatever is skipped."""
    known = _FORCED.get(id(case))
    if known is not None and known[0] is case:
        return known[1]
    found: list[int] = []
    due = False
    try:
        state = _start(case)
        for i, step in enumerate(case.steps):
            if step["seat"] is not None and forced_pass(state):
                found.append(i)
            state = state.apply(action_from_json(step["action"], ["action"]))
        due = forced_pass(state)
    except (RuleError, SpecError, ValueError, KeyError):
        pass
    if len(_FORCED) >= 4096:
        _FORCED.clear()
    answer = (frozenset(found), due)
    _FORCED[id(case)] = (case, answer)
    return answer


def skipped_steps(case: Case, supports: Mapping[str, Any]) -> frozenset[int]:
    """The steps of ``case`` not sent to the program: its forced passes where it takes them
    itself (``supports.forced_passes`` ``"skipped"``), else none."""
    return forced_passes(case)[0] if skips_forced_passes(supports) else frozenset()


def _start(case: Case) -> HandState | MatchState:
    """The hand or match the case's start request begins, before its first step."""
    own = OWN_RULESETS.get(case.ruleset)
    game = (Game(own, case.players, dict(case.options)) if own is not None
            else Game.create(case.ruleset, case.players, dict(case.options)))
    start = case.start
    if start["type"] == "start-match":
        return new_match(game, hands=start["hands"], chips=start["chips"])
    funds = start["funds"]
    return game.new_hand(start["dealer"], seats=tuple(start["seats"]), pool=start["pool"],
                         funds=None if funds is None else tuple(funds), stakes=start["stakes"])


# An option's declarations beside a list of choices and "*" (spec/conformance.md 2.2).
DEFAULT_ONLY = "default"  # only the default is played (as when the option is left out)
NOT_APPLICABLE = "n/a"  # the option changes nothing the program is asked: held at its default

_CAUSES = (
    (re.compile(r"kind (\S+) of a match: kind match not supported"), "kind match not declared"),
    (re.compile(r"kind (\S+) not supported"), "kind {0} not declared"),
    (re.compile(r"ruleset (\S+) not supported"), "ruleset {0} not declared"),
    (re.compile(r"(\d+) players not supported in (\S+)"), "{1}: {0} players not declared"),
    (re.compile(r"option ([^=]+)=\S+ not supported \(only its default\)"),
     "{ruleset}: option {0} at its default only"),
    (re.compile(r"option ([^=]+)=\S+ not played \(n/a, held at its default\)"),
     "{ruleset}: option {0} n/a, held at its default"),
    (re.compile(r"forced passes skipped: .*"), "forced passes skipped"),
    (re.compile(r"option ([^=]+=\S+) not supported"), "{ruleset}: option {0} not declared"),
    (re.compile(r"chance events made by the program .*"), "supports.chance program"),
    (re.compile(r"a pack the rules refuse is handed over.*"), "supports.chance both"),
)


def skip_cause(ruleset: str, reason: str) -> str:
    """The declaration of the handshake that a skip comes from, in words (``pagat: option
    two at its default only``), so that a report can count the cases each one leaves out: what
    a program's author would add next."""
    for pattern, words in _CAUSES:
        found = pattern.fullmatch(reason)
        if found is not None:
            return words.format(*found.groups(), ruleset=ruleset)
    return reason


__all__ = ["ASKED", "DEFAULT_ONLY", "FORCED_PASSES", "NOT_APPLICABLE", "PACK_BREACHES",
           "SKIPPED_PASSES", "forced_pass", "forced_passes", "handshake_problems",
           "known_rulesets", "option_defaults", "skip_cause", "skip_reason", "skipped_steps",
           "skips_forced_passes"]
