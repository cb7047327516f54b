"""Validation throughput: recorded hands (napkit-hand/1) checked per second, the schema check with
each candidate library, the replay, and the whole ``napkit validate`` path, in one run.

Run from the repository root::

    .venv/bin/python benchmarks/validate_throughput.py                 # 10,000 records
    .venv/bin/python benchmarks/validate_throughput.py --records 1000  # a quick look

The records are built before any timing: ``--records`` random hands played through the engine's
public API with one seeded ``random.Random`` (``--seed``), the rulesets of the spec in turn, each
of a ruleset's options drawn at random among its choices and the number of players at random
among those the options allow, every decision a ``choice`` over the legal actions, until the hand
is over (thrown-in hands included). Each finished hand is written by ``records.hand_record``,
serialised with ``json.dumps`` (one JSON Lines line) and parsed back with ``json.loads``, as
another program would send it; the JSON Lines text is also written to a temporary file for the
whole path.

The candidates for the schema check of ``hand-record.schema.json`` (draft 2020-12, with ``$ref``
into ``action``, ``card`` and ``result`` by ``$id``):

- ``jsonschema``: the ``Draft202012Validator`` napkit has always used, built once, over the
  registry of every schema (``napkit.spec.schemas.validator``); it gives the JSON path of every
  error.
- ``jsonschema-rs``: a ``Draft202012Validator`` built once over a ``jsonschema_rs.Registry`` of
  the same schemas; ``is_valid`` only.
- ``fastjsonschema``: the schema compiled once to Python, the other schemas handed to it by
  ``$id`` (its ``handlers``), ``use_default=False`` so that it leaves records untouched.

A candidate that is not installed is left out. Before a figure is printed every candidate's
verdict is compared with jsonschema's, first on every record of every file of
``tests/fixtures/records`` (the bad ones included; the records that reach a schema check) and on a
few probes (good records broken in one way each, written to find where libraries differ), then on
all the good records, from the verdicts of each candidate's first timed pass (jsonschema takes
10 to 20 ms a record here, so a separate untimed pass over 10,000 would double the run). A
candidate that accepts any record jsonschema rejects is reported as unsuitable, whatever its
speed: it would let a bad record through. One that only rejects what jsonschema accepts is
reported too; where napkit asks jsonschema to explain each rejection (``napkit.spec.schemas``) such
a difference cannot change a verdict.

Then, each over all the records: (a) the schema check with each candidate; (b) the replay,
``records.check_hand_record``, what ``napkit validate`` runs once the schema accepts a record;
(c) the whole path, ``validate.check_sources`` on the JSON Lines file (read, parse, schema as
``napkit.spec.schemas.schema_problems`` does it, replay), and the same with ``schema_problems``
made to
use jsonschema alone, as napkit did before jsonschema-rs. Each figure is the best of ``--repeats``
passes, the timings taking turns within each repeat so that a busy spell on a shared machine
slows them alike; a pass longer than 10 s is not repeated (it is its own average, and jsonschema's
take well over a minute at 10,000 records).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from napkit import paths
from napkit.engine.game import Game
from napkit.formats.records import check_hand_record, hand_record
from napkit.formats.validate import FORMATS, check_sources, parse_text
from napkit.players.playout import play_out
from napkit.spec import schemas
from napkit.spec.catalog import default_spec

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "records"
LONG_PASS = 10.0  # seconds: a pass this long is not repeated
WIDTH = 56  # of the first column of the table
Record = dict[str, Any]
Check = Callable[[Any], bool]


# --- the records ---------------------------------------------------------------------------------

@dataclass
class Corpus:
    lines: list[str]  # JSON Lines text, a record a line
    records: list[Record]  # the same, parsed
    tables: set[tuple[str, int]] = field(default_factory=set)  # (ruleset, players) played
    thrown_in: int = 0
    seconds: float = 0.0  # to build it (not timed)


def build(count: int, seed: int) -> Corpus:
    """``count`` recorded hands of random play, the rulesets in turn (see the module's text)."""
    start = time.perf_counter()
    rng = random.Random(seed)
    spec = default_spec()
    ids = sorted(spec.rulesets)
    games: dict[tuple[str, int, tuple[tuple[str, str], ...]], Game] = {}
    corpus = Corpus([], [])
    for i in range(count):
        ruleset = spec.rulesets[ids[i % len(ids)]]
        options = {name: rng.choice(sorted(option.choices))
                   for name, option in sorted(ruleset.options.items())}
        allowed = ruleset.resolve(ruleset.option_values(options))["players"]
        players = rng.choice([n for n in allowed if isinstance(n, int)])
        key = (ruleset.id, players, tuple(options.items()))
        game = games.get(key) or games.setdefault(key, Game.create(ruleset.id, players, options))
        state = play_out(game.new_hand(rng.randrange(players)), rng)
        assert state.result is not None
        corpus.thrown_in += state.result.thrown_in
        corpus.tables.add((ruleset.id, players))
        corpus.lines.append(json.dumps(hand_record(state)))
    corpus.records = [json.loads(line) for line in corpus.lines]
    corpus.seconds = time.perf_counter() - start
    return corpus


def fixture_records() -> list[tuple[str, str, Record]]:
    """(where, schema name, record) for every record of tests/fixtures/records that napkit
    validate would check against a schema (not the unreadable ones or an unknown format)."""
    found = []
    for path in sorted([*FIXTURES.glob("*.json"), *FIXTURES.glob("*.jsonl")]):
        if path.name == "expected.json":
            continue
        for where, value in parse_text(path.read_text(encoding="utf-8"), path.name):
            fmt = value.get("format") if isinstance(value, dict) else None
            if isinstance(value, dict) and isinstance(fmt, str) and fmt in FORMATS:
                found.append((where, FORMATS[fmt], value))
    return found


def probes(good: Record) -> list[tuple[str, str, Record]]:
    """A good record broken in one way each, where libraries are known to differ or might."""
    def broken(change: Callable[[Record], None]) -> Record:
        record = copy.deepcopy(good)
        change(record)
        return record

    def six_card_buy(r: Record) -> None:  # maxItems beside a $ref (draft 2019 on: both apply)
        r["actions"][0]["action"] = {"type": "buy", "cards": ["2S", "3S", "4S", "5S", "6S", "7S"]}

    def final_newline(r: Record) -> None:  # "$" in a pattern: Python's re allows a final \n
        r["deal"][0] += "\n"

    def unknown_card(r: Record) -> None:
        r["deal"][0] = "ZZ"

    def players_as_text(r: Record) -> None:
        r["players"] = str(r["players"])

    def no_outcome(r: Record) -> None:
        del r["outcome"]

    def dealer_as_float(r: Record) -> None:  # 0.0 is an integer in draft 2020-12
        r["dealer"] = float(r["dealer"])

    def unknown_action(r: Record) -> None:  # oneOf with no branch matching
        r["actions"][0]["action"] = {"type": "shout"}

    changes = [six_card_buy, final_newline, unknown_card, players_as_text, no_outcome,
               dealer_as_float, unknown_action]
    return [(f"probe {c.__name__.replace('_', '-')}", "hand-record", broken(c)) for c in changes]


# --- the candidates ------------------------------------------------------------------------------

def schema_documents() -> dict[str, Any]:
    """Every schema of spec/schemas by its ``$id``."""
    documents = {}
    for path in sorted(Path(paths.spec_dir(), "schemas").glob("*.schema.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        documents[document["$id"]] = document
    return documents


def _id(name: str) -> str:
    return f"https://napkit.dev/schemas/{name}.schema.json"


def jsonschema_check(name: str) -> Check:
    return schemas.validator(name).is_valid


def jsonschema_rs_check(name: str) -> Check:
    import jsonschema_rs

    documents = schema_documents()
    registry = jsonschema_rs.Registry(list(documents.items()))
    validator = jsonschema_rs.Draft202012Validator(documents[_id(name)], registry=registry)
    return validator.is_valid


def fastjsonschema_check(name: str) -> Check:
    import fastjsonschema

    documents = schema_documents()
    validate = fastjsonschema.compile(
        documents[_id(name)], handlers={"https": lambda uri: documents[uri]}, use_default=False)

    def check(document: Any) -> bool:
        try:
            validate(document)
        except fastjsonschema.JsonSchemaValueException:
            return False
        return True

    return check


CANDIDATES: tuple[tuple[str, Callable[[str], Check]], ...] = (
    ("jsonschema", jsonschema_check),
    ("jsonschema-rs", jsonschema_rs_check),
    ("fastjsonschema", fastjsonschema_check),
)


def candidates() -> tuple[dict[str, dict[str, Check]], list[str]]:
    """Each installed candidate's checks (by schema name), and why any is left out."""
    checks: dict[str, dict[str, Check]] = {}
    left_out = []
    for label, make in CANDIDATES:
        try:
            checks[label] = {name: make(name) for name in ("hand-record", "match-record")}
        except ImportError:
            left_out.append(f"{label}: not installed (pip install {label})")
        except Exception as exc:  # a library that cannot compile our schemas is unsuitable
            left_out.append(f"{label}: unsuitable, cannot compile the schemas "
                            f"({type(exc).__name__}: {exc})")
    return checks, left_out


@dataclass
class Disagreement:
    where: str
    reference: bool  # jsonschema's verdict
    verdict: bool | str  # the candidate's (or the exception it raised)

    def __str__(self) -> str:
        def word(v: bool | str) -> str:
            return v if isinstance(v, str) else "valid" if v else "invalid"
        return (f"{self.where}: jsonschema says {word(self.reference)}, "
                f"this one {word(self.verdict)}")

    @property
    def lets_through(self) -> bool:
        """The candidate accepts what jsonschema rejects (or cannot judge it)."""
        return self.verdict is not False and not self.reference


def disagreements(check: Check, reference: Check,
                  cases: Sequence[tuple[str, Any]]) -> list[Disagreement]:
    found = []
    for where, document in cases:
        expected = reference(document)
        try:
            verdict: bool | str = bool(check(document))
        except Exception as exc:
            verdict = f"raises {type(exc).__name__}"
        if verdict != expected:
            found.append(Disagreement(where, expected, verdict))
    return found


# --- timing --------------------------------------------------------------------------------------

@contextmanager
def jsonschema_only() -> Iterator[None]:
    """napkit.spec.schemas as it was before jsonschema-rs: no fast check, jsonschema for
    everything."""
    if not hasattr(schemas, "fast_validator"):
        yield
        return
    with mock.patch.object(schemas, "fast_validator", lambda name: None):
        yield


def whole_path(path: str, fast: bool) -> list[bool]:
    if fast:
        return [c.valid for c in check_sources([path])]
    with jsonschema_only():
        return [c.valid for c in check_sources([path])]


@dataclass
class Timing:
    label: str
    run: Callable[[], list[bool]]  # one pass: a verdict per record
    best: float = 0.0  # records per second
    passes: int = 0
    last: float = 0.0  # seconds of the last pass
    verdicts: list[bool] = field(default_factory=list)  # of the first pass


def time_all(timings: Sequence[Timing], count: int, repeats: int) -> None:
    """Best records per second of each timing over ``repeats`` passes, taking turns."""
    for _ in range(repeats):
        for t in timings:
            if t.passes and t.last > LONG_PASS:
                continue
            start = time.perf_counter()
            verdicts = t.run()
            t.last = time.perf_counter() - start
            if not t.passes:
                t.verdicts = verdicts
            t.passes += 1
            t.best = max(t.best, count / t.last)


def main(argv: Sequence[str] | None = None) -> None:  # noqa: PLR0915 (one report, top to bottom)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--records", type=int, default=10_000, help="recorded hands to check")
    parser.add_argument("--repeats", type=int, default=3, help="passes per timing; best reported")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    corpus = build(args.records, args.seed)
    size = sum(len(line) + 1 for line in corpus.lines)
    rulesets = len({r for r, _ in corpus.tables})
    print(f"{len(corpus.records):,} recorded hands from seed {args.seed}: {rulesets} rulesets, "
          f"{len(corpus.tables)} (ruleset, players) tables, {corpus.thrown_in:,} thrown in, "
          f"{size / 1e6:.1f} MB of JSON Lines; built in {corpus.seconds:.1f} s (not timed)")

    checks, left_out = candidates()
    reference = checks["jsonschema"]
    cases = fixture_records() + probes(corpus.records[0])
    print(f"\nagreement with jsonschema on {len(cases)} records: every record of "
          f"tests/fixtures/records that reaches a schema, and {len(probes(corpus.records[0]))} "
          f"probes")
    unsuitable: dict[str, str] = {}
    for label, check in checks.items():
        if label == "jsonschema":
            continue
        found = []
        for name in ("hand-record", "match-record"):
            found += disagreements(check[name], reference[name],
                                   [(w, r) for w, s, r in cases if s == name])
        if any(d.lets_through for d in found):
            unsuitable[label] = "accepts records jsonschema rejects"
        verdict = ("agrees on all" if not found else
                   "UNSUITABLE, " + unsuitable[label] if label in unsuitable
                   else "stricter only (harmless where jsonschema explains a rejection)")
        print(f"  {label:<15} {verdict}")
        for d in found:
            print(f"    {d}")
    for reason in left_out:
        print(f"  {reason}")

    with tempfile.TemporaryDirectory() as folder:
        jsonl = Path(folder, "hands.jsonl")
        jsonl.write_text("".join(line + "\n" for line in corpus.lines), encoding="utf-8")
        records = corpus.records
        timings = [Timing(f"(a) schema: {label}",
                          lambda c=check["hand-record"]: list(map(c, records)))
                   for label, check in checks.items()]
        timings.append(Timing("(b) replay: check_hand_record",
                              lambda: [not check_hand_record(r) for r in records]))
        fast = getattr(schemas, "fast_validator", lambda name: None)("hand-record") is not None
        timings.append(Timing("(c) napkit validate" + (" (jsonschema-rs, then jsonschema)"
                                                       if fast else " (jsonschema)"),
                              lambda: whole_path(str(jsonl), fast=True)))
        if fast:
            timings.append(Timing("(c) napkit validate, jsonschema only",
                                  lambda: whole_path(str(jsonl), fast=False)))
        time_all(timings, len(records), args.repeats)

    print(f"\nthe good records: every pass's verdicts against all {len(records):,} valid")
    for t in timings:
        wrong = len(t.verdicts) - sum(t.verdicts)
        label = t.label.split(": ", 1)[-1]
        if wrong:
            if t.label.startswith("(a)") and label != "jsonschema":
                unsuitable[label] = f"rejects {wrong:,} good records"
            print(f"  {t.label}: {wrong:,} of them found invalid")
    if all(len(t.verdicts) == sum(t.verdicts) for t in timings):
        print("  every timing found every record valid")

    schema_rate = timings[0].best
    replay_rate = next(t.best for t in timings if t.label.startswith("(b)"))
    print(f"\n{'check':<{WIDTH}} {'records/s':>10} {'per record':>11} {'vs jsonschema':>14} "
          f"{'passes':>6}")
    for t in timings:
        per = 1 / t.best
        per_text = f"{per * 1e3:.2f} ms" if per >= 1e-3 else f"{per * 1e6:.1f} us"
        versus = f"{t.best / schema_rate:.1f}x" if t.label.startswith("(a)") else ""
        label = t.label.split(": ", 1)[-1]
        mark = " (unsuitable)" if t.label.startswith("(a)") and label in unsuitable else ""
        print(f"{t.label + mark:<{WIDTH}} {t.best:>10,.0f} {per_text:>11} {versus:>14} "
              f"{t.passes:>6}")

    def share(rate: float) -> str:  # the check's share of check plus replay
        return f"{replay_rate / (rate + replay_rate):.0%}"

    print(f"\njsonschema: its check is {share(schema_rate)} of check plus replay")
    for t in timings[1:]:
        label = t.label.split(": ", 1)[-1]
        if t.label.startswith("(a)"):
            print(f"{label}: {t.best / schema_rate:,.0f} times as fast as jsonschema; its check "
                  f"is {share(t.best)} of check plus replay"
                  + (f"; unsuitable: {unsuitable[label]}" if label in unsuitable else ""))
    whole = [t for t in timings if t.label.startswith("(c)")]
    if len(whole) == 2:
        print(f"napkit validate, whole path: {whole[0].best / whole[1].best:.0f} times as fast "
              f"as with jsonschema alone")


if __name__ == "__main__":
    main()
