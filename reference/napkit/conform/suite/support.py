"""What a program said it supports in its handshake, and which cases that leaves out.

spec/conformance.md 2.2: ``supports.kinds`` lists the kinds of case; ``supports.rulesets``
maps each ruleset id to its option choices (a list, or ``"*"`` for every choice; an option not
listed is supported at its default only) and, optionally, its table sizes. A case outside
that is *skipped*, never passed. :func:`handshake_problems` checks the declaration against the
rulesets it names, so that a misspelt option or choice is refused rather than skipping every
case it touches.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

from napkit.conform.suite.cases import OWN_RULESETS, Case
from napkit.errors import RuleError, SpecError


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


def _meant(wrong: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(wrong[:100], list(known), n=3, cutoff=0.6)
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
        if allowed in ("*", NOT_APPLICABLE):
            continue
        if allowed is None or allowed == DEFAULT_ONLY:
            if defaults.get(name) != choice:
                return f"option {name}={choice} not supported (only its default)"
        elif choice not in allowed:
            return f"option {name}={choice} not supported"
    return None


# An option's declarations beside a list of choices and "*" (spec/conformance.md 2.2).
DEFAULT_ONLY = "default"  # only the default is played (as when the option is left out)
NOT_APPLICABLE = "n/a"  # the option changes nothing the program is asked: every choice runs

_CAUSES = (
    (re.compile(r"kind (\S+) of a match: kind match not supported"), "kind match not declared"),
    (re.compile(r"kind (\S+) not supported"), "kind {0} not declared"),
    (re.compile(r"ruleset (\S+) not supported"), "ruleset {0} not declared"),
    (re.compile(r"(\d+) players not supported in (\S+)"), "{1}: {0} players not declared"),
    (re.compile(r"option ([^=]+)=\S+ not supported \(only its default\)"),
     "{ruleset}: option {0} at its default only"),
    (re.compile(r"option ([^=]+=\S+) not supported"), "{ruleset}: option {0} not declared"),
    (re.compile(r"chance events made by the program"), "supports.chance program"),
    (re.compile(r"a pack the rules refuse is handed over"), "supports.chance both"),
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


__all__ = ["DEFAULT_ONLY", "NOT_APPLICABLE", "PACK_BREACHES", "handshake_problems",
           "known_rulesets", "option_defaults", "skip_cause", "skip_reason"]
