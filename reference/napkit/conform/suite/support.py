"""What a program said it supports in its handshake, and which cases that leaves out.

spec/conformance.md 2.2: ``supports.kinds`` lists the kinds of case; ``supports.rulesets``
maps each ruleset id to its option choices (a list, or ``"*"`` for every choice; an option not
listed is supported at its default only) and, optionally, its table sizes. A case outside
that is *skipped*, never passed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from napkit.conform.suite.cases import OWN_RULESETS, Case
from napkit.errors import RuleError, SpecError


def option_defaults(ruleset: str) -> Mapping[str, str] | None:
    """Each option's default in napkit's spec, or None if the spec has no such ruleset."""
    from napkit.spec.catalog import default_spec

    try:
        found = default_spec().rulesets.get(ruleset) or OWN_RULESETS.get(ruleset)
    except (SpecError, RuleError):
        return None
    return None if found is None else {n: o.default for n, o in found.options.items()}


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


__all__ = ["DEFAULT_ONLY", "NOT_APPLICABLE", "PACK_BREACHES", "option_defaults", "skip_cause",
           "skip_reason"]
