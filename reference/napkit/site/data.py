"""What the rules site shows, gathered from the spec, the suite and the engine (no Sphinx here).

Everything is read through napkit's own loaders: the law book, rulesets and register through
:func:`napkit.spec.catalog.load_spec`, the conformance cases through
:func:`napkit.conform.suite.cases
.load_suite`, the schemas' examples checked with :func:`napkit.spec.schemas.schema_problems`, and
the worked examples recorded as ``napkit record`` records them
(:func:`napkit.formats.recording.record_table`, the command's own body) and replayed by
:func:`napkit.formats.records.replay_hand`. :mod:`napkit.site.pages` turns this into pages.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from napkit import paths
from napkit.conform.suite.cases import Case, load_suite
from napkit.engine.cards import card_name
from napkit.engine.game import Game
from napkit.errors import RuleError, SpecError
from napkit.formats.recording import record_table
from napkit.formats.records import Problem, check_hand_record, replay_hand
from napkit.formats.snapshots import state_to_json
from napkit.spec.catalog import Spec, load_spec
from napkit.spec.lawbook import Rule
from napkit.spec.render import param_values, scoring_text
from napkit.spec.schemas import schema_problems

# Rule, section, chapter and decision ids as they appear in running text.
ID_IN_TEXT = re.compile(r"\b(NAP-[0-9]+(?:\.[0-9]+){0,2}|DEC-[0-9]{3})\b")

# <!-- example: SCHEMA --> then a ```json block holding one document; <!-- example-lines:
# SCHEMA --> then a block holding one document a line (the markers of spec/formats.md).
_MARKED = re.compile(r"<!-- example(-lines)?: ([a-z-]+) -->\n```json\n(.*?)\n```", re.S)
_JSON_BLOCK = re.compile(r"```json\n(.*?)\n```", re.S)


# --- examples of the schemas ---------------------------------------------------------------------
@dataclass(frozen=True)
class Example:
    """A document shown on the site as an example of schema ``schema``, and where it is from."""

    schema: str  # "hand-record": spec/schemas/hand-record.schema.json
    where: str  # "spec/formats.md line 90", "spec/rulesets/pagat-floater.json"
    document: Any
    shown: bool = True  # False: checked (it is on another page of the site) but not repeated


class ExampleError(Exception):
    """An example on the site that its schema refuses: the site must not be built."""


def example_problems(example: Example) -> list[str]:
    """Why the example fails its schema (``where: JSON path: message``), or nothing."""
    return [f"{example.where}: {path}: {message}"
            for path, message in schema_problems(example.schema, example.document)]


def check_examples(examples: list[Example]) -> None:
    """Raise :class:`ExampleError` naming every example that fails its schema."""
    problems = [f"example of {e.schema}.schema.json, {p}"
                for e in examples for p in example_problems(e)]
    if problems:
        raise ExampleError("an example on the site fails its schema:\n  " + "\n  ".join(problems))


def marked_examples(page: Path, shown: str) -> list[Example]:
    """The examples a Markdown page marks with ``<!-- example: SCHEMA -->``."""
    text = page.read_text(encoding="utf-8")
    found: list[Example] = []
    for match in _MARKED.finditer(text):
        line = text.count("\n", 0, match.start(3)) + 1
        schema = match.group(2)
        try:
            if match.group(1):
                found += [Example(schema, f"{shown} line {line + i}", json.loads(row), False)
                          for i, row in enumerate(match.group(3).splitlines())]
            else:
                found.append(Example(schema, f"{shown} line {line}",
                                     json.loads(match.group(3)), False))
        except json.JSONDecodeError as exc:
            raise ExampleError(f"{shown} line {line + exc.lineno - 1}: the example of "
                               f"{schema}.schema.json is not JSON: {exc.msg}") from exc
    return found


def json_blocks(page: Path, shown: str, schema: str) -> list[Example]:
    """Every ```json block of a page, each an example of ``schema``."""
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _JSON_BLOCK.finditer(text):
        line = text.count("\n", 0, match.start(1)) + 1
        try:
            document = json.loads(match.group(1))
        except json.JSONDecodeError as exc:
            raise ExampleError(f"{shown} line {line + exc.lineno - 1}: a JSON example is not "
                               f"JSON: {exc.msg}") from exc
        found.append(Example(schema, f"{shown} line {line}", document, False))
    return found


# --- recorded hands ------------------------------------------------------------------------------
def record_command(ruleset: str, players: int, seed: int, match_hands: int | None = None) -> str:
    """The ``napkit record`` command that writes a worked example."""
    match = f" --match --hands {match_hands}" if match_hands else ""
    return f"napkit record {ruleset} --players {players}{match} --seed {seed}"


def record(ruleset: str, players: int, seed: int, match_hands: int | None = None) -> Any:
    """What ``napkit record`` writes for these arguments (:func:`record_command`): the
    command's body, :func:`napkit.formats.recording.record_table`, called here."""
    try:
        game = Game.create(ruleset, players)
        text = record_table(game, seed, hands=match_hands, match=match_hands is not None)
    except (RuleError, SpecError) as exc:
        raise ExampleError(f"{record_command(ruleset, players, seed, match_hands)} "
                           f"failed: {exc}") from exc
    return json.loads(text)


@dataclass(frozen=True)
class WorkedHand:
    """A recorded hand made readable: who was dealt what, the auction and the tricks."""

    command: str
    record: Any
    hands: tuple[tuple[str, ...], ...]  # each seat's cards as dealt, in the engine's order
    widow: str | None
    steps: tuple[tuple[int | None, Any], ...]  # (seat, action) after the deal

    @property
    def outcome(self) -> Any:
        return self.record["outcome"]


def worked_hand(ruleset: str, players: int, seed: int) -> WorkedHand:
    """Record a hand with ``napkit record``, check it (schema and replay) and lay it out."""
    document = record(ruleset, players, seed)
    command = record_command(ruleset, players, seed)
    check_examples([Example("hand-record", command, document)])
    replayed = check_hand_record(document)
    if replayed:
        raise ExampleError(f"{command}: the record does not replay: "
                           + "; ".join(str(p) for p in replayed))
    problems: list[Problem] = []
    dealt = replay_hand({**document, "actions": []}, problems, finished=False)
    if dealt is None:
        raise ExampleError(f"{command}: the deal does not replay: {problems}")
    hands = tuple(tuple(card_name(c) for c in dealt.hand(seat))
                  for seat in range(dealt.game.players))
    widow = card_name(dealt.widow) if dealt.widow >= 0 else None
    steps = tuple((step["seat"], step["action"]) for step in document["actions"])
    return WorkedHand(command, document, hands, widow, steps)


# --- the conformance cases -----------------------------------------------------------------------
@dataclass(frozen=True)
class Cases:
    """The suite's cases, indexed by rule; problems are the files the suite's loader refused."""

    root: Path
    cases: tuple[Case, ...]
    problems: tuple[str, ...]

    @cached_property
    def by_rule(self) -> Mapping[str, tuple[Case, ...]]:
        found: dict[str, list[Case]] = defaultdict(list)
        for case in self.cases:
            for rule in case.rules:
                found[rule].append(case)
        return {rule: tuple(cases) for rule, cases in found.items()}

    @cached_property
    def by_ruleset(self) -> Mapping[str, tuple[Case, ...]]:
        found: dict[str, list[Case]] = defaultdict(list)
        for case in self.cases:
            found[case.ruleset].append(case)
        return {ruleset: tuple(cases) for ruleset, cases in found.items()}

    def breaking(self, rule_id: str) -> tuple[Case, ...]:
        """The ``illegal`` cases whose last action must be refused naming ``rule_id``."""
        return self._breaking.get(rule_id, ())

    @cached_property
    def _breaking(self) -> Mapping[str, tuple[Case, ...]]:
        found: dict[str, list[Case]] = defaultdict(list)
        for case in self.cases:
            if case.kind == "illegal":
                found[str(case.expect["refuse"]["rule"])].append(case)
        return {rule: tuple(cases) for rule, cases in found.items()}

    def kinds(self, cases: tuple[Case, ...]) -> Counter[str]:
        return Counter(case.kind for case in cases)


def handworked(case: Case) -> bool:
    return "handworked" in case.tags


def load_cases(root: Path) -> Cases:
    """The suite under ``root`` (none at all if the folder is not there yet)."""
    if not root.is_dir():
        return Cases(root, (), ())
    cases, problems = load_suite(root)
    return Cases(root, tuple(cases), tuple(str(p) for p in problems))


# --- the comparison ------------------------------------------------------------------------------
NOT_IN_FORCE = "—"


@dataclass(frozen=True)
class Row:
    """One point of difference: a parameter, the rules that read it, each ruleset's value."""

    entry: str  # the parameter, as the rules' params name it: "bids[*].lead"
    rules: tuple[Rule, ...]  # the rules that read it (NAP-7.1.1 to NAP-7.1.3 read the trumps)
    # ruleset id -> (the first of those rules in force there, its (label, text) pairs); None
    # where none of them is in force
    cells: Mapping[str, tuple[str, tuple[tuple[str, str], ...]] | None]

    @property
    def rule(self) -> Rule:
        return self.rules[0]


def _shown_entries(rule: Rule) -> list[str]:
    """The params entries of a rule worth a row: the most specific, and the bids' order."""
    entries = []
    for entry in rule.params:
        if entry in ("bids[*].id", "bids[*].name", "bids[*].only_when"):
            continue  # the "bids" row lists the bids present, in order
        if entry != "bids" and any(other.startswith(entry + ".") for other in rule.params):
            continue  # a more specific entry of the same rule shows the part that differs
        entries.append(entry)
    return entries


def comparison_rows(spec: Spec) -> list[Row]:
    """Every parameter whose value differs between rulesets (each at its defaults), in the order
    of the first rule that reads it, with every rule that reads it."""
    resolved = {rid: ruleset.resolve() for rid, ruleset in spec.rulesets.items()}
    readers: dict[str, list[Rule]] = {}
    for rule in spec.lawbook:
        for entry in _shown_entries(rule):
            readers.setdefault(entry, []).append(rule)
    rows = []
    for entry, rules in readers.items():
        cells: dict[str, tuple[str, tuple[tuple[str, str], ...]] | None] = {}
        for rid, ruleset in spec.rulesets.items():
            in_force = [rule.id for rule in rules if rule.id in ruleset.rules]
            cells[rid] = ((in_force[0], tuple(param_values(resolved[rid], entry)))
                          if in_force else None)
        if len({json.dumps(cell[1] if cell else None) for cell in cells.values()}) > 1:
            rows.append(Row(entry, tuple(rules), cells))
    return rows


def scoring_rows(spec: Spec) -> list[tuple[str, str, str]]:
    """How each ruleset scores (:func:`napkit.spec.render.scoring_text`), as (id, where it
    is, words): every built-in ruleset at its defaults, then each example house game in
    spec/examples, since only a house game keeps a score sheet in points (NAP-9.6)."""
    from napkit.spec.house import load_house_ruleset

    rows = [(rid, "", scoring_text(ruleset.resolve())) for rid, ruleset in spec.rulesets.items()]
    for path in sorted((spec.dir / "examples").glob("house-*.json")):
        house = load_house_ruleset(path, paths.display(spec.dir, path), spec)
        rows.append((house.id, paths.display(spec.dir, path), scoring_text(house.resolve())))
    return rows


def rules_not_everywhere(spec: Spec) -> list[Rule]:
    """The rules some ruleset has in force and another does not."""
    return [rule for rule in spec.lawbook
            if len({rule.id in ruleset.rules for ruleset in spec.rulesets.values()}) > 1]


# --- everything ----------------------------------------------------------------------------------
@dataclass
class SiteData:
    """The spec, the suite and the examples, loaded once per build."""

    spec: Spec
    cases: Cases
    repo: Path
    _examples: list[Example] | None = field(default=None, repr=False)

    def examples(self) -> list[Example]:
        """An example of every schema (and of some several), each checked against its schema.

        Raises :class:`ExampleError` if one fails, which fails the build.
        """
        if self._examples is None:
            found = collect_examples(self)
            check_examples(found)
            self._examples = found
        return self._examples


def load_site_data(spec_dir: Path | None = None, suite_dir: Path | None = None) -> SiteData:
    spec = load_spec(spec_dir)
    repo = spec.dir.parent
    return SiteData(spec, load_cases(suite_dir or repo / "conformance" / "cases"), repo)


def _toml(path: Path) -> Any:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def collect_examples(data: SiteData) -> list[Example]:
    """The examples of the schema page, and those of spec/formats.md and spec/conformance.md."""
    spec_dir = data.spec.dir
    shown = paths.display(spec_dir, spec_dir / "formats.md")
    formats = marked_examples(spec_dir / "formats.md", shown)
    adapter = json_blocks(spec_dir / "conformance.md",
                          paths.display(spec_dir, spec_dir / "conformance.md"), "adapter")
    examples = [*formats, *adapter]

    def first(schema: str) -> Any:
        return next(e.document for e in formats if e.schema == schema)

    # Shown on the schema page: from formats.md where it has one, else the spec's own files,
    # else written by the engine.
    examples.append(Example("card", f"{shown} (Cards)", first("card")))
    examples.append(Example("action", f"{shown} (Actions)",
                            [e.document for e in formats if e.schema == "action"][1]))
    hand = record("pagat", 3, 1)
    examples.append(Example("hand-record", record_command("pagat", 3, 1), hand))
    examples.append(Example("result", f"{record_command('pagat', 3, 1)} (its outcome)",
                            hand["outcome"]))
    match_command = record_command("peep", 3, 2, match_hands=2)
    examples.append(Example("match-record", match_command, record("peep", 3, 2, 2)))
    problems: list[Problem] = []
    middle = replay_hand({**hand, "actions": hand["actions"][:6]}, problems, finished=False)
    if middle is None:
        raise ExampleError(f"{record_command('pagat', 3, 1)}: does not replay: {problems}")
    examples.append(Example("state", f"{record_command('pagat', 3, 1)} (after six actions)",
                            state_to_json(middle)))
    examples.append(Example("view", f"{shown} (States and views)", first("view")))
    ruleset_file = spec_dir / "rulesets" / "pagat-aylesbury.json"
    examples.append(Example("ruleset", paths.display(spec_dir, ruleset_file),
                            json.loads(ruleset_file.read_text(encoding="utf-8"))))
    house_file = spec_dir / "examples" / "house-two-no-wellington.json"
    examples.append(Example("house-ruleset", paths.display(spec_dir, house_file),
                            json.loads(house_file.read_text(encoding="utf-8"))))
    chapter = spec_dir / "lawbook" / "01-general.toml"
    examples.append(Example("lawbook", f"{paths.display(spec_dir, chapter)} (as JSON)",
                            _toml(chapter)))
    register = _toml(spec_dir / "decisions.toml")
    examples.append(Example("decisions", "spec/decisions.toml, its first entry (as JSON)",
                            {"decisions": register["decisions"][:1]}))
    heard = sorted((spec_dir / "questions").glob("*.json"))
    if heard:
        asked = json.loads(heard[0].read_text(encoding="utf-8"))
        shortened = {"about": asked["about"][:1], "question": asked["question"][:1]}
        examples.append(Example("questions", f"{paths.display(spec_dir, heard[0])}, its first "
                                "question", shortened))
    index = _toml(spec_dir / "sources.toml")
    examples.append(Example("sources", "spec/sources.toml, its first entry (as JSON)",
                            {"sources": index["sources"][:1]}))
    case = _example_case(data)
    if case is not None:
        examples.append(case)
    perft = _example_perft()
    if perft is not None:
        examples.append(perft)
    examples += _example_fuzz()
    examples += [Example("adapter", e.where, e.document) for e in adapter]
    return examples


def _example_case(data: SiteData) -> Example | None:
    """A hand-worked case of the suite, the shortest (a generated one if there is none)."""
    cases = sorted(data.cases.cases, key=lambda c: (not handworked(c), c.path.stat().st_size))
    if not cases:
        return None
    path = cases[0].path
    return Example("case", shown_path(path), json.loads(path.read_text(encoding="utf-8")))


def _example_fuzz() -> list[Example]:
    """A fuzzing report of a short campaign against napkit's adapter, and a file of known
    differences, both as napkit writes them (spec/conformance.md 4.3, 4.4)."""
    from napkit.conform.fuzz.groups import known_text
    from napkit.conform.fuzz.report import example_report

    known = known_text([("NAP-5.2.5", "we allow Wellington without a Nap, as our club does")],
                       {})
    return [Example("fuzz-report", "napkit fuzz --ruleset classic --hands 4 --seed 1 --json "
                    "FILE (against napkit's adapter)", example_report()),
            Example("fuzz-known", "napkit fuzz --write-known FILE (its reason edited)",
                    json.loads(known))]


def _example_perft() -> Example | None:
    """The published perft file of classic with its first position only (spec/conformance.md
    part 5); None where napkit has no published files."""
    path = paths.perft_dir() / "classic.json"
    if not path.is_file():
        return None
    document = json.loads(path.read_text(encoding="utf-8"))
    document["positions"] = document["positions"][:1]
    return Example("perft", f"{shown_path(path)} (its first position)", document)


def shown_path(path: Path) -> str:
    """A file as the site names it: from the repository's root, if it is in the checkout."""
    try:
        return str(path.resolve().relative_to(paths.REPO_ROOT))
    except ValueError:
        return str(path)
