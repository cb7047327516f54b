"""Shards of a conformance run, and their JSON reports joined into the report of the whole run.

``napkit conform --shard K/N`` runs the K-th of N slices of the cases the filters choose
(:func:`napkit.conform.run.parallel.shard`: every N-th case from the K-th, so that each slice has
the same mix of rulesets and kinds). Its JSON report keeps, besides its results, what the whole
selection was (``selection``: the filters, the expected-failures file, the number of cases and a
digest of them, :func:`cases_digest`) and which slice it ran (``shard``: ``{"index": K,
"count": N}``; ``null`` for a whole run).

:func:`merge_reports` (``napkit report merge``) joins the reports of the N shards into the
report an unsharded run writes: the same cases in the same order, the same totals and tables,
``shard`` null; only the timings differ (``elapsed`` is the shards' sum). It refuses, naming
the file, reports that are not shards' reports (or whose counts are not their cases':
:func:`napkit.conform.report.saved.check_report`), of other versions of the suite, the law
book, napkit or the program, of other programs, filters, expected failures or cases, of
another number of shards, a shard given twice, a case in two shards, and shards missing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from napkit.conform.report.saved import check_report
from napkit.conform.report.text import REPORT_FORMAT, report_document
from napkit.conform.suite.cases import Case, Filters

JSONObject = dict[str, Any]

__all__ = ["MergeError", "cases_digest", "filters_json", "merge_reports"]


class MergeError(Exception):
    """Why reports cannot be merged, in one line that names the file."""


def cases_digest(cases: Sequence[Case]) -> str:
    """``sha256:HEX`` of the cases in order: each one's id and the bytes of its file (its
    fields where the file cannot be read), so that two runs of the same digest ran the same
    cases, read from the same files."""
    digest = hashlib.sha256()
    for case in cases:
        digest.update(case.id.encode() + b"\0")
        try:
            body = Path(case.path).read_bytes()
        except OSError:
            body = json.dumps([case.kind, case.ruleset, dict(case.options), case.players,
                               case.rules, case.start, case.steps, case.expect],
                              sort_keys=True).encode()
        digest.update(hashlib.sha256(body).digest())
    return "sha256:" + digest.hexdigest()


def filters_json(filters: Filters) -> dict[str, list[str]]:
    """The filters of a run as its report keeps them."""
    return {"rulesets": list(filters.rulesets), "rules": list(filters.rules),
            "tags": list(filters.tags), "kinds": list(filters.kinds),
            "cases": list(filters.cases), "exclude_rules": list(filters.exclude_rules),
            "exclude_tags": list(filters.exclude_tags),
            "exclude_cases": list(filters.exclude_cases)}


FLAGS = {"rulesets": "--ruleset", "rules": "--rule", "tags": "--tag", "kinds": "--kind",
         "cases": "--case", "exclude_rules": "--exclude-rule", "exclude_tags": "--exclude-tag",
         "exclude_cases": "--exclude-case"}


def _filters_text(filters: object) -> str:
    if not isinstance(filters, dict):
        return "none"
    words = [f"{FLAGS.get(name, name)} {value}" for name, values in filters.items()
             if isinstance(values, list) for value in values]
    return " ".join(words) or "none"


def merge_reports(reports: Sequence[tuple[str, object]]) -> JSONObject:
    """The report of the whole run from the JSON reports of its shards, each ``(file name,
    parsed JSON)``, in any order; MergeError (one line, naming the file) if they are not
    the N shards of one run."""
    if not reports:
        raise MergeError("no report to merge")
    shards: dict[int, tuple[str, JSONObject]] = {}
    first_name, first = reports[0][0], _shard_report(*reports[0])
    count = first["shard"]["count"]
    for name, raw in reports:
        document = _shard_report(name, raw)
        shard = (document["shard"]["index"], document["shard"]["count"])
        _same_run(name, document, first_name, first)
        if shard[1] != count:
            raise MergeError(f"{name}: shard {shard[0]}/{shard[1]}, but {first_name} is "
                             f"one of {count} shards")
        if shard[0] in shards:
            raise MergeError(f"{name}: shard {shard[0]}/{count} again ({shards[shard[0]][0]} "
                             "is that shard too)")
        shards[shard[0]] = (name, document)
    missing = [k for k in range(1, count + 1) if k not in shards]
    if missing:
        shown = ", ".join(f"{k}/{count}" for k in missing)
        raise MergeError(f"{_plural(len(missing), 'shard')} {shown} missing: "
                         f"{len(shards)} of {count} given ({_files(shards)})")
    total = first["selection"]["cases"]
    slices: list[list[JSONObject]] = []
    seen: dict[str, str] = {}
    for k in range(1, count + 1):
        name, document = shards[k]
        size = len(range(k - 1, total, count))
        if document["totals"]["selected"] != size:
            raise MergeError(f"{name}: shard {k}/{count} of {total} cases has "
                             f"{document['totals']['selected']} selected, not {size}")
        cases = document["cases"]
        if len(cases) > size:
            raise MergeError(f"{name}: shard {k}/{count} has {len(cases)} cases, more than its "
                             f"{size}")
        for case in cases:
            if case["id"] in seen:
                other = seen[case["id"]]
                where = "twice in it" if other == name else f"also in {other}"
                raise MergeError(f"{name}: case {case['id']} is {where} (shards overlap)")
            seen[case["id"]] = name
        slices.append(cases)
    merged: list[JSONObject] = []
    for i in range(total):  # back in the order of the whole selection (shard(): every N-th)
        cases = slices[i % count]
        if i // count < len(cases):
            merged.append(cases[i // count])
    notes: list[str] = []
    for k in range(1, count + 1):
        notes += [n for n in shards[k][1]["notes"] if n not in notes]
    return report_document(
        program=first["program"], suite=first["suite"], selection=first["selection"],
        shard=None, elapsed=sum(shards[k][1]["elapsed"] for k in shards), selected=total,
        notes=notes, cases=merged, versions=first.get("versions"), order=first.get("order"),
        interrupted=any(shards[k][1].get("interrupted") is True for k in shards))


def _shard_report(name: str, document: object) -> JSONObject:
    """A shard's report, its fields of the kinds merging reads; MergeError for anything else
    (another file, a whole run's report, an older napkit's, one edited out of shape)."""
    if not isinstance(document, dict) or document.get("format") != REPORT_FORMAT:
        raise MergeError(f"{name}: not a JSON report of napkit conform ({REPORT_FORMAT})")
    selection = document.get("selection")
    if "selection" not in document:
        raise MergeError(f"{name}: the report does not say which cases its run chose (no "
                         "'selection': written by an older napkit?)")
    shard = document.get("shard")
    if shard is None:
        raise MergeError(f"{name}: not a shard's report: its run was whole (no --shard K/N)")
    totals = document.get("totals")
    problem = (
        _wrong(shard, {"index": int, "count": int}, "$.shard")
        or ("" if 1 <= shard["index"] <= shard["count"] else "$.shard: not 1 <= index <= count")
        or _wrong(document, {"program": dict, "suite": str, "elapsed": (int, float),
                             "notes": list, "cases": list, "totals": dict}, "$")
        or _wrong(selection, {"filters": dict, "xfail": (str, type(None)), "cases": int,
                              "digest": str}, "$.selection")
        or _wrong(totals, {"selected": int}, "$.totals"))
    for i, case in enumerate(document.get("cases", []) if not problem else []):
        problem = problem or _wrong(case, {"id": str, "status": str, "ruleset": str,
                                           "rules": list}, f"$.cases[{i}]")
    if not problem and not all(isinstance(n, str) for n in document["notes"]):
        problem = "$.notes: not a list of strings"
    if not problem and not isinstance(document.get("versions", {}), dict):
        problem = "$.versions: not an object"
    if problem:
        raise MergeError(f"{name}: not a report as napkit conform writes it: {problem}")
    counted = check_report(document)  # its counts and verdict are its cases', as any reader's
    if counted is not None:
        raise MergeError(f"{name}: not a napkit conform JSON report: {counted}")
    return document


def _wrong(value: object, fields: dict[str, type | tuple[type, ...]], where: str) -> str:
    """What is wrong with ``value``, an object that must hold ``fields`` of those types
    ("" if nothing)."""
    if not isinstance(value, dict):
        return f"{where}: not an object"
    for name, kind in fields.items():
        if name not in value:
            return f"{where}: no {name!r}"
        got = value[name]
        if not isinstance(got, kind) or (kind is int and isinstance(got, bool)):
            return f"{where}.{name}: {json.dumps(got)[:60]} is not of the right kind"
    return ""


def _same_run(name: str, document: JSONObject, first_name: str, first: JSONObject) -> None:
    """MergeError unless ``document`` is a shard of the same run as ``first``."""
    # One run has one version of each (spec/conformance.md 7.4): a merged report names one.
    here_v, there_v = document.get("versions") or {}, first.get("versions") or {}
    for key, words in VERSIONS.items():
        if here_v.get(key) != there_v.get(key):
            raise MergeError(f"{name}: {words} {_version(here_v.get(key))}, but {first_name} "
                             f"has {words} {_version(there_v.get(key))}: the shards of one run "
                             "have the same versions")
    mine, theirs = document["program"], first["program"]
    if mine != theirs:
        what = "another program" if mine.get("name") != theirs.get("name") else (
            "the program run by another command")
        raise MergeError(f"{name}: {what} ({_program(mine)}) than {first_name} "
                         f"({_program(theirs)})")
    here, there = document["selection"], first["selection"]
    if here["filters"] != there["filters"]:
        raise MergeError(f"{name}: other filters ({_filters_text(here['filters'])}) than "
                         f"{first_name} ({_filters_text(there['filters'])})")
    if here["xfail"] != there["xfail"]:
        raise MergeError(f"{name}: another expected-failures file ({here['xfail']}) than "
                         f"{first_name} ({there['xfail']})")
    if here["digest"] != there["digest"] or here["cases"] != there["cases"]:
        raise MergeError(f"{name}: another suite or other cases than {first_name} "
                         f"({here['cases']} cases selected here, {there['cases']} there, or "
                         "as many with other ids or files)")


VERSIONS = {"suite": "suite version", "lawbook": "law book version",
            "napkit": "napkit version", "program": "program version"}


def _version(value: object) -> str:
    """A version as a report gives it, for a message: a program's own strings made safe."""
    from napkit.output.tables import printable

    text = str(value)
    return "none" if value is None else printable(
        text if len(text) <= 40 else f"{text[:40]}…({len(text):,} characters)")


def _program(program: object) -> str:
    if not isinstance(program, dict):
        return "?"
    command = program.get("command") or []
    shown = " ".join(map(str, command)) if command else "in process"
    return f"{program.get('name')}: {shown}"


def _files(shards: dict[int, tuple[str, JSONObject]]) -> str:
    return ", ".join(f"{shards[k][0]} is {k}" for k in sorted(shards))


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"
