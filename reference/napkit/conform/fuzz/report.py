"""The report of a fuzzing campaign as JSON (``napkit-fuzz-report/1``, spec/conformance.md 4.3,
spec/schemas/fuzz-report.schema.json): what ``napkit fuzz --json`` writes and ``napkit report
merge`` joins."""

from __future__ import annotations

from collections import Counter
from typing import Any

from napkit.conform.fuzz.campaign import Group, Outcome, episode_seed
from napkit.conform.fuzz.episodes import Scope
from napkit.conform.fuzz.groups import merge
from napkit.spec.catalog import default_spec

FUZZ_REPORT = "napkit-fuzz-report/1"


def rules_in_force(scope: Scope) -> set[str]:
    """The play rules of the law book in force in the rulesets fuzzed."""
    book = default_spec().lawbook
    plays = {r.id for r in book if r.kind == "play"}
    found: set[str] = set()
    for playable in scope.rulesets:
        found |= set(playable.ruleset.rules) & plays
    return found


def json_report(outcome: Outcome, seed: int, program: str, command: list[str], scope: Scope,
                 cases: dict[str, dict[str, Any]], in_force: set[str],
                 shard: tuple[int, int] = (1, 1),
                 budget: tuple[int | None, float | None] = (None, None)) -> dict[str, Any]:
    reach = outcome.reach
    entries = [group_json(g, seed, cases.get(g.key)) for g in outcome.groups]
    first = next((e for e, g in zip(entries, outcome.groups, strict=True)
                  if g.known is None and g.found is not None), None)
    report: dict[str, Any] = {
        "format": FUZZ_REPORT,
        "program": program, "command": command, "seed": seed,
        "rulesets": [p.id for p in scope.rulesets], "kinds": sorted(scope.kinds),
        "notes": list(scope.notes),
        "episodes": reach.episodes, "hands": reach.hands, "steps": reach.steps,
        "seconds": round(outcome.seconds, 3), "seconds_playing": round(outcome.played, 3),
        "stopped": outcome.stopped,
        "restarts": outcome.restarts,
        "reached": dict(sorted(reach.events.items())),
        "breaches": dict(sorted(reach.breaches.items())),
        "rules_exercised": sorted(reach.rules & in_force),
        "rule_not_named": reach.unnamed,
        "episodes_disagreeing": reach.disagreed,
        # The first new disagreement, as the report had it before it listed them all.
        "disagreement": first,
        "disagreements": entries,
        "shard": {"index": shard[0], "count": shard[1]} if shard != (1, 1) else None,
        "budget": {"hands": budget[0], "seconds": budget[1]},
    }
    return report


def group_json(group: Group, seed: int, case: dict[str, Any] | None) -> dict[str, Any]:
    """A distinct disagreement in the JSON report (spec/conformance.md 4.3)."""
    entry: dict[str, Any] = group.to_json()
    found = group.found
    result = found.shrinking if found is not None else None
    entry.update({
        "episode_seed": episode_seed(seed, group.index),
        "steps_before_shrinking": len(found.first.steps) if found is not None else None,
        "steps": len(found.episode.steps) if found is not None else None,
        "shrink_tries": result.tries if result is not None else 0,
        "shrink_seconds": round(result.seconds, 3) if result is not None else 0.0,
        "shrunk": result is not None,
        "note": (found.note if found is not None else group.note) or None,
        "reproducer": group.reproducer or None,
        "case": case,
    })
    return entry


# --- joining shards run apart -------------------------------------------------------------------
_SAME = ("program", "seed", "rulesets", "kinds", "budget")  # what every shard of a run shares


def merge_fuzz_reports(documents: list[tuple[str, object]]) -> dict[str, Any]:
    """The JSON reports of ``napkit fuzz --shard K/N`` (K from 1 to N, one run: the same
    program, seed, rulesets, kinds and budget) joined into one: the counts summed, the rules
    joined, the disagreement the lowest-numbered episode's (each shard's is already shrunk).
    MergeError (one line naming the file) for anything else."""
    from napkit.conform.run.shards import MergeError

    first: dict[str, Any] | None = None
    seen: dict[int, str] = {}
    count = 0
    for path, doc in documents:
        if not isinstance(doc, dict) or doc.get("format") != FUZZ_REPORT:
            raise MergeError(f"{path}: not a napkit fuzz report ({FUZZ_REPORT})")
        shard = doc.get("shard")
        if not isinstance(shard, dict):
            raise MergeError(f"{path}: the report of a whole run, not of a shard (--shard K/N)")
        if first is None:
            first, count = doc, shard["count"]
        for key in _SAME:
            if doc.get(key) != first.get(key):
                raise MergeError(f"{path}: another run: its {key} is {doc.get(key)!r}, not "
                                 f"{first.get(key)!r}")
        if shard["count"] != count:
            raise MergeError(f"{path}: shard {shard['index']}/{shard['count']} is not one of "
                             f"{count}")
        index = shard["index"]
        if index in seen:
            raise MergeError(f"{path}: shard {index}/{count} is also {seen[index]}")
        seen[shard["index"]] = path
    assert first is not None
    missing = sorted(set(range(1, count + 1)) - set(seen))
    if missing:
        raise MergeError(f"shard {missing[0]}/{count} is missing")
    docs = [doc for _, doc in documents if isinstance(doc, dict)]
    merged = dict(first)
    for key in ("episodes", "hands", "steps", "restarts", "rule_not_named"):
        merged[key] = sum(d[key] for d in docs)
    merged["episodes_disagreeing"] = sum(d.get("episodes_disagreeing", 0) for d in docs)
    merged["seconds"] = round(sum(d["seconds"] for d in docs), 3)
    for key in ("reached", "breaches"):
        total: Counter[str] = Counter()
        for d in docs:
            total.update(d[key])
        merged[key] = dict(sorted(total.items()))
    merged["rules_exercised"] = sorted({r for d in docs for r in d["rules_exercised"]})
    merged["notes"] = sorted({n for d in docs for n in d["notes"]})
    found = [d["disagreement"] for d in docs if d["disagreement"] is not None]
    merged["disagreement"] = min(found, key=lambda f: f["episode"]) if found else None
    # Each shard's distinct disagreements, joined by signature: the counts added, the entry
    # (and its reproducer) of the shard that found it first kept.
    merged["disagreements"] = merge(d.get("disagreements") or [] for d in docs)
    stops = {d["stopped"] for d in docs}
    merged["stopped"] = ("found" if found else "interrupted" if "interrupted" in stops
                         else "time" if "time" in stops else "hands")
    merged["shard"] = None
    return merged



def example_report() -> dict[str, Any]:
    """A report of a short campaign (four episodes of classic, seed 1) against napkit's own
    adapter in this process: the schema page's example."""
    from napkit.conform.fuzz.campaign import Campaign
    from napkit.conform.fuzz.episodes import Games, scope_of
    from napkit.protocol.process import Session, in_process_opener

    session = Session(in_process_opener(), 10.0)
    hello = session.open()
    try:
        spec = default_spec()
        scope = scope_of(hello.supports, spec.rulesets, ["classic"])
        outcome = Campaign(scope, session, 1, Games(spec.rulesets)).run(4, None)
    finally:
        session.close()
    return json_report(outcome, 1, f"{hello.name} {hello.version}",
                       ["napkit", "fuzz", "--ruleset", "classic", "--hands", "4", "--seed", "1"],
                       scope, {}, rules_in_force(scope), budget=(4, None))


__all__ = ["FUZZ_REPORT", "example_report", "group_json", "json_report", "merge_fuzz_reports",
           "rules_in_force"]
