"""The distinct disagreements of a campaign: each disagreement put in a group by its
signature, the rule it is put down to, and the file of known differences (``--known``,
``--write-known``; spec/conformance.md 4.4).

A bug shows in several ways: a trick won by the wrong card makes the wrong seat lead next,
the wrong trick winners, the wrong declarer's tricks, a match's wrong balances. The cause
worked out for each (:mod:`napkit.conform.cause`) is the one rule behind them all, so the
signature is that rule (``NAP-7.1.1``), whatever the ruleset, table, cards, or the kind of
difference it showed as (``turn``, ``legal set``, ``illegal try accepted``,
``outcome.payments``, ...), which the group counts beside it. A campaign that keeps going
counts a bug once however often and however it shows, and a file of known differences names
a bug by its rule. A disagreement put down to no rule is signed by its kind of difference
(``no rule: turn``), and a breach of the protocol by what broke (``protocol: timeout``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from napkit.conform.fuzz.episodes import Disagreement, Episode
from napkit.errors import UsageError

KNOWN_FORMAT = "napkit-fuzz-known/1"
LONGEST_REASON = 200  # a reason written into a known file from a program's answers


def difference(found: Disagreement) -> str:
    """The kind of difference of ``found``, in words: what the signature's rule is put with."""
    kind = found.signature
    if kind[0] == "protocol":
        return f"protocol: {kind[1]}"
    if kind[0] == "legal":
        return "turn" if kind[1] == "turn" else "legal set"
    if kind[0] == "probe":
        return "illegal try accepted" if kind[-1] == "accepted" else (
            "illegal try refused under another rule")
    if kind[0] == "apply":
        return "step refused"
    if kind[0] == "outcome":  # ("outcome", "outcome.payments"): the field as the report names it
        return kind[1] if len(kind) > 1 and kind[1].startswith("outcome") else "outcome"
    if kind[0] == "state":  # ("state", "trumps"): the field of the program's own view
        return ".".join(kind)
    return " ".join(kind)


def signature(episode: Episode, found: Disagreement) -> tuple[str, str, str]:
    """``(key, rule, difference)`` of a disagreement: the rule is the likeliest one it is put
    down to (:func:`napkit.conform.fuzz.reproducer.blame`: the cause's, where one is worked
    out), none for a breach of the protocol, which is a bug of the program's plumbing, not of
    a rule; the key is the rule, else the difference."""
    from napkit.conform.fuzz.reproducer import blame

    kind = difference(found)
    if found.problem:
        return kind, "", kind
    rules = blame(episode, found)
    rule = rules[0] if rules else ""
    return rule or f"no rule: {kind}", rule, kind


def merge(lists: Iterable[Iterable[Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """The ``disagreements`` entries of several workers' or shards' reports joined: one a
    signature, its count and the counts of its differences the sums, the rest of it (its
    episode, its reproducer) from the entry with the lowest-numbered episode; in the order
    they were first found."""
    entries: dict[str, dict[str, Any]] = {}
    for part in lists:
        for entry in part:
            key = entry["signature"]
            have = entries.get(key)
            count = entry["count"] + (have["count"] if have is not None else 0)
            kinds = dict(entry.get("differences") or {})
            for kind, times in ((have or {}).get("differences") or {}).items():
                kinds[kind] = kinds.get(kind, 0) + times
            if have is None or entry["episode"] < have["episode"]:
                entries[key] = {**entry}
            entries[key]["count"] = count
            entries[key]["differences"] = dict(sorted(kinds.items(), key=lambda kv: -kv[1]))
    return sorted(entries.values(), key=lambda e: e["episode"])


# --- the file of known differences ---------------------------------------------------------------
def read_known(path: Path) -> dict[str, str]:
    """The known differences of ``path``, signature to reason. UsageError (one line naming the
    file and the JSON path) for a file that is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--known {path}: cannot read it: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"--known {path}: not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--known {path}: not JSON: {exc.msg} at line {exc.lineno}, "
                         f"column {exc.colno}") from None
    if not isinstance(data, dict) or data.get("format") != KNOWN_FORMAT:
        raise UsageError(f"--known {path}: $.format: not a file of known differences "
                         f"(\"format\": \"{KNOWN_FORMAT}\")")
    entries = data.get("disagreements")
    if not isinstance(entries, dict):
        raise UsageError(f"--known {path}: $.disagreements: must be an object of "
                         "signature to reason")
    known: dict[str, str] = {}
    for key, reason in entries.items():
        if not isinstance(reason, str):
            raise UsageError(f"--known {path}: $.disagreements[{json.dumps(key)}]: must be "
                             "a reason (text)")
        known[key] = reason
    return known


def known_text(met: Iterable[tuple[str, str]], kept: Mapping[str, str]) -> str:
    """The file of known differences that expects the run's disagreements ``met`` (each its
    signature and message): each with its reason in ``kept`` (the file as it was) where it is
    there, else its message; the entries of ``kept`` the run did not meet are kept too (a
    random campaign need not meet every bug each time)."""
    from napkit.output.tables import cut

    entries = dict(kept)
    for key, message in met:
        entries.setdefault(key, cut(message, LONGEST_REASON))
    document = {"format": KNOWN_FORMAT, "disagreements": dict(sorted(entries.items()))}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


__all__ = ["KNOWN_FORMAT", "difference", "known_text", "merge", "read_known", "signature"]
