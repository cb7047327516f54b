"""The directives that write the generated pages: the law book, a ruleset, the comparison,
the decisions register, the schemas, the conformance cases of a ruleset, a worked hand."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.domains.std import StandardDomain
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from napkit import paths
from napkit.conform.suite.cases import KINDS, Case, default_suite_dir
from napkit.engine.cards import parse_card
from napkit.site import data
from napkit.site.nodes import (
    Cell,
    Inline,
    bullets,
    code,
    details,
    emphasis,
    joined,
    json_block,
    link,
    para,
    section,
    strong,
    table,
    text,
)
from napkit.site.viewers import viewer_link
from napkit.spec.catalog import Spec
from napkit.spec.decisions import Decision
from napkit.spec.lawbook import Rule
from napkit.spec.render import card_text, hand_text, param_values, players_text
from napkit.spec.rulesets import Option, Ruleset
from napkit.spec.sources import Citation
from napkit.spec.views import HOUSE_ORIGIN

logger = logging.getLogger(__name__)

LAWBOOK = "lawbook"
DECISIONS = "decisions"
COMPARISON = "comparison"
SCHEMAS = "schemas"

# The order of the schema page: what passes between programs first, then the spec's own files.
SCHEMA_ORDER = ("card", "action", "result", "hand-record", "match-record", "state", "view",
                "case", "perft", "adapter", "fuzz-report", "fuzz-known", "ruleset",
                "house-ruleset", "lawbook", "decisions", "questions", "sources")



@cache
def site_data(spec_dir: Path, suite_dir: Path) -> data.SiteData:
    """Loaded once per process (a Sphinx build): the spec, the suite."""
    return data.load_site_data(spec_dir, suite_dir)


def current() -> data.SiteData:
    return site_data(paths.spec_dir(), default_suite_dir())


def ruleset_doc(ruleset_id: str) -> str:
    return f"rulesets/{ruleset_id}"


def cases_doc(ruleset_id: str) -> str:
    return f"cases/{ruleset_id}"


def sheet_file(ruleset_id: str) -> str:
    """Where a ruleset's printable rules sheet is written in the site (when the build ends)."""
    return f"sheets/{ruleset_id}.html"


def case_file(case: Case) -> str:
    """Where a case file is copied in the site: ``cases/RULESET/KIND/NAME.json``."""
    return f"cases/{case.id}.json"


# --- text with its ids linked --------------------------------------------------------------------
def linked_text(value: str, spec: Spec) -> list[Inline]:
    """``value`` with every rule, section, chapter and decision id in it made a link."""
    out: list[Inline] = []
    known = spec.lawbook.all_ids()
    position = 0
    for found in data.ID_IN_TEXT.finditer(value):
        ident = found.group(1)
        if ident.startswith("DEC-") and spec.register.get(ident) is not None:
            target = link(ident, DECISIONS, ident)
        elif ident in known:
            target = link(ident, LAWBOOK, ident)
        else:
            continue
        out.append(text(value[position:found.start()]))
        out.append(target)
        position = found.end()
    out.append(text(value[position:]))
    return out


def paragraphs(value: str, spec: Spec) -> list[nodes.paragraph]:
    """Paragraphs (separated by blank lines) of running text, ids linked."""
    return [para(*linked_text(" ".join(chunk.split()), spec))
            for chunk in value.split("\n\n") if chunk.strip()]


def rule_link(rule_id: str, spec: Spec, with_title: bool = True) -> list[Inline]:
    rule = spec.lawbook.get(rule_id)
    out: list[Inline] = [link(rule_id, LAWBOOK, rule_id)]
    if with_title and rule is not None:
        out.append(text(f" {rule.title}"))
    return out


def citations(spec: Spec, ruleset: Ruleset, cites: Sequence[Citation]) -> list[Inline]:
    """``L17 (Deal)``, ``L76-78 (Nap with a floater)``, ``DEC-020`` (linked, with its title)."""
    source = spec.index.get(ruleset.source)
    parts: list[list[Inline]] = []
    for citation in cites:
        if citation.decision is not None:
            decision = spec.register.get(citation.decision)
            title = f" ({decision.title})" if decision else ""
            parts.append([link(citation.decision, DECISIONS, citation.decision), text(title)])
            continue
        section_ = source.section_at(citation.first) if source else None
        where = f" (“{section_.title}”)" if section_ else ""
        parts.append([text(f"{citation.text}{where}")])
    return joined(parts, "; ")


SOURCES = "rulesets/index"  # the page whose {napkit-sources} lists the sources


def source_anchor(file: str) -> str:
    """The HTML id of a source on the sources list: ``source-004`` (the file's number)."""
    return f"source-{file.partition('_')[0]}"


def source_link(spec: Spec, file: str) -> list[Inline]:
    """A source as a person reads it, by name (:meth:`SourceIndex.name`), linked to the
    sources list where its title and file are; a file the index lacks, as its file name."""
    if spec.index.get(file) is None:
        return [code(file)]
    return [link(spec.index.name(file), SOURCES, source_anchor(file))]


def source_text(spec: Spec, file: str) -> list[Inline]:
    """A source in full: its name (linked), its title and, as a detail, its file."""
    source = spec.index.get(file)
    if source is None:
        return [code(file)]
    title = f", “{source.title}”" if source.title != source.name else ""
    return [*source_link(spec, file), text(f"{title} (file "), code(file), text(")")]


def values_of(rule: Rule, resolved: dict[str, Any]) -> list[Inline]:
    """The parameter values a ruleset gives the rule (at its defaults): ``pack = 3-7: 2-A``."""
    parts: list[list[Inline]] = []
    for entry in data._shown_entries(rule):
        pairs = param_values(resolved, entry)
        if not pairs:
            continue
        if entry.startswith("bids[*]."):
            shown = "; ".join(f"{label}: {value}" for label, value in pairs)
            parts.append([code(entry), text(f" = {shown}")])
        else:
            parts.append([code(entry), text(f" = {pairs[0][1]}")])
    return joined(parts, " · ")


def note_targets(directive: SphinxDirective, found: list[nodes.Node]) -> list[nodes.Node]:
    """Make every section of ``found`` a target of ``{ref}`` (its id lower-cased: Sphinx's
    labels are), for the pages whose ids are unique across the site."""
    std = directive.env.get_domain("std")
    assert isinstance(std, StandardDomain)
    for node in found:
        for part in node.findall(nodes.section):
            ident = part["ids"][0]
            std.note_hyperlink_target(ident.lower(), directive.env.docname, ident,
                                      part[0].astext())
    return found


# --- the law book --------------------------------------------------------------------------------
class LawBookDirective(SphinxDirective):
    """``{napkit-lawbook}``: every chapter, section and rule, each with its anchor."""

    def run(self) -> list[nodes.Node]:
        site = current()
        spec = site.spec
        resolved = {rid: r.resolve() for rid, r in spec.rulesets.items()}
        out: list[nodes.Node] = []
        for chapter in spec.lawbook.chapters:
            chapter_node = section(chapter.id, f"{chapter.id} {chapter.title}")
            chapter_node += paragraphs(chapter.intro, spec)
            for part in chapter.sections:
                part_node = section(part.id, f"{part.id} {part.title}")
                if part.intro:
                    part_node += paragraphs(part.intro, spec)
                for rule in part.rules:
                    part_node += self.rule(site, rule, resolved)
                chapter_node += part_node
            out.append(chapter_node)
        return note_targets(self, out)

    def rule(self, site: data.SiteData, rule: Rule,
             resolved: dict[str, dict[str, Any]]) -> nodes.section:
        spec = site.spec
        node = section(rule.id, f"{rule.id} {rule.title}", classes=["napkit-rule"])
        node += paragraphs(rule.text, spec)
        facts: list[list[Inline]] = [[text("kind: "), strong(rule.kind)]]
        if rule.params:
            facts.append([text("reads: "), *joined([code(p) for p in rule.params])])
        if rule.see:
            facts.append([text("see: "), *joined([link(s, LAWBOOK, s) for s in rule.see])])
        if rule.house:
            facts.append([text("origin: "), strong("house"), text(f" ({HOUSE_ORIGIN})")])
        node += para(*joined(facts, " · "), classes=["napkit-facts"])
        if rule.asked:  # players' questions, in their words (napkit rules search reads them)
            node += para(emphasis("Players ask: "), text(" · ".join(rule.asked)),
                         classes=["napkit-asked"])
        if rule.refusals:
            # The acts refused under this rule (NAP-1.3): each tagged breach-ID in the suite.
            node += para(strong("Refused under this rule:"), classes=["napkit-refusals"])
            node += bullets([
                [code(r.id), text(": " + r.text)]
                + ([text(" (where the ruleset has "), *joined([code(n) for n in r.needs]),
                    text(")")] if r.needs else [])
                for r in rule.refusals])
        rows = []
        for rid, ruleset in spec.rulesets.items():
            cites = ruleset.rules.get(rule.id)
            if cites is None:
                continue
            row: list[Sequence[Inline]] = [
                [link(rid, ruleset_doc(rid), rule.id)],
                [*source_link(spec, ruleset.source), text(": "),
                 *citations(spec, ruleset, cites)],
            ]
            if rule.params:
                row.append(values_of(rule, resolved[rid]) or [text("not set")])
            rows.append(row)
        headers = ["in force in", "its source, and the lines (or decisions) that put it there"]
        if rule.params:
            headers.append("its value there (defaults)")
        if rows:
            node += table(headers, rows, classes=["napkit-citations"])
        else:  # a rule of house play: no source, so no built-in ruleset
            node += para(text("In force in no built-in ruleset: only in a house game that "
                              "sets "), *joined([code(p) for p in rule.params]), text("."))
        node += self.cases(site, rule)
        return node

    def cases(self, site: data.SiteData, rule: Rule) -> list[nodes.Node]:
        suite = site.cases
        exercising = suite.by_rule.get(rule.id, ())
        breaking = suite.breaking(rule.id)
        if not exercising and not breaking:
            why = ("none: an informative rule needs no code, so no case tests it."
                   if rule.kind == "informative" else "no cases yet.")
            return [para(strong("Conformance cases: "), text(why), classes=["napkit-cases"])]
        kinds = Counter(case.kind for case in exercising)
        parts: list[Inline] = [strong("Conformance cases: "),
                               text(f"{len(exercising)} exercise this rule (")]
        parts += joined([[text(f"{kind} {kinds[kind]}")] for kind in KINDS if kinds[kind]])
        parts.append(text(")"))
        out: list[nodes.Node] = [para(*parts, classes=["napkit-cases"])]
        if breaking:
            per = Counter(case.ruleset for case in breaking)
            items = [[link(f"{rid} ({per[rid]})", cases_doc(rid), f"refused-{rule.id}")]
                     for rid in sorted(per)]
            out.append(para(text(f"{len(breaking)} break it and expect a refusal naming it: "),
                            *joined(items, " · "), classes=["napkit-cases"]))
        worked = [case for case in exercising if data.handworked(case)]
        if worked:
            out.append(para(text("hand-worked: "),
                            *joined([link(case.id, file=case_file(case)) for case in worked]),
                            classes=["napkit-cases"]))
        return out


# --- a ruleset -----------------------------------------------------------------------------------
def option_choices(option: Option) -> list[Inline]:
    items = [[code(choice), text(" (default)")] if choice == option.default else [code(choice)]
             for choice in option.choices]
    return joined(items)


def option_cites(spec: Spec, ruleset: Ruleset, option: Option) -> list[Inline]:
    return citations(spec, ruleset, option.cite)


class RulesetDirective(SphinxDirective):
    """``{napkit-ruleset} ID``: a ruleset's summary, options, rules in play order, decisions."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        site = current()
        spec = site.spec
        ruleset = spec.rulesets.get(self.arguments[0])
        if ruleset is None:
            raise self.error(f"no ruleset {self.arguments[0]!r} in the spec")
        resolved = ruleset.resolve()
        out: list[nodes.Node] = [para(ruleset.summary)]
        facts: list[list[Inline]] = [
            [strong("id: "), code(ruleset.id), text(" · file: "), code(ruleset.file)],
            [strong("source: "), *source_text(spec, ruleset.source),
             text(f"; {ruleset.section}")],
            [strong("players: "), text(players_text(ruleset))],
        ]
        if ruleset.extends:
            facts.append([strong("extends: "), link(ruleset.extends, ruleset_doc(ruleset.extends)),
                          text(" (its rules, options and parameters, except where this file "
                               "says otherwise)")])
        facts.append([strong("on one page: "),
                      link("the rules sheet", file=sheet_file(ruleset.id)),
                      text(" (printable, A4: the bids, the deal, the lead duties, the match and "
                           "the decisions, each with its rule's id; "),
                      code(f"napkit rules sheet {ruleset.id} -o sheet.html"), text(")")])
        cases = site.cases.by_ruleset.get(ruleset.id, ())
        if cases:
            facts.append([strong("conformance cases: "),
                          link(f"{len(cases)} cases", cases_doc(ruleset.id))])
        out.append(bullets(facts))

        out.append(self.options_section(spec, ruleset))
        out.append(self.rules_section(spec, ruleset, resolved))
        out.append(self.decisions_section(spec, ruleset))
        return out

    def options_section(self, spec: Spec, ruleset: Ruleset) -> nodes.section:
        options = section(f"{ruleset.id}-options", "Options")
        if ruleset.options:
            options += para("A choice the players make before they play; the defaults are the "
                            "source's game as the project reads it. ",
                            code(f"napkit play {ruleset.id} --option NAME=CHOICE"),
                            " plays another choice.")
            rows: list[list[Cell]] = [[code(name), option.title, option_choices(option),
                     rule_link(option.rule, spec, with_title=False),
                     option_cites(spec, ruleset, option)]
                    for name, option in ruleset.options.items()]
            options += table(["option", "what", "choices", "rule", "cited"], rows)
        else:
            options += para("None: the source's game has no choices.")
        return options

    def rules_section(self, spec: Spec, ruleset: Ruleset,
                      resolved: dict[str, Any]) -> nodes.section:
        rules = section(f"{ruleset.id}-rules", "Rules in play order")
        rules += para("Every rule of the law book in force in this ruleset, chapter by chapter, "
                      "with its text, the lines of ", *source_link(spec, ruleset.source),
                      " (or the decisions) that put it in force, and the values it reads here "
                      "with every option at its default.")
        for chapter in spec.lawbook.chapters:
            chosen = [rule for part in chapter.sections for rule in part.rules
                      if rule.id in ruleset.rules]
            if not chosen:
                continue
            chapter_node = section(f"{ruleset.id}-{chapter.id}", f"{chapter.id} {chapter.title}")
            for rule in chosen:
                rule_node = section(rule.id, link(rule.id, LAWBOOK, rule.id), f" {rule.title}",
                                    classes=["napkit-rule"])
                rule_node += paragraphs(rule.text, spec)
                items = [[strong("cited: "), *citations(spec, ruleset, ruleset.rules[rule.id])]]
                shown = values_of(rule, resolved)
                if shown:
                    items.append([strong("here: "), *shown])
                rule_node += bullets(items)
                chapter_node += rule_node
            rules += chapter_node
        return rules

    def decisions_section(self, spec: Spec, ruleset: Ruleset) -> nodes.section:
        decisions = section(f"{ruleset.id}-decisions", "Decisions")
        ids = ruleset.decision_ids()
        if ids:
            decisions += para("The points where ", *source_link(spec, ruleset.source),
                              " is silent, ambiguous or contradicts itself, and how this "
                              "ruleset reads them:")
            rows: list[list[Cell]] = []
            for decision_id in ids:
                decision = spec.register.get(decision_id)
                if decision is None:
                    continue
                offered = [name for name, o in ruleset.options.items()
                           if o.decision == decision_id]
                rows.append([[link(decision_id, DECISIONS, decision_id)], decision.title,
                             decision.kind, [code(decision.default)],
                             [code(offered[0])] if offered else "—"])
            decisions += table(["decision", "question", "kind", "default", "option"], rows)
        else:
            decisions += para("None.")
        return decisions


class RulesetsDirective(SphinxDirective):
    """``{napkit-rulesets}``: a table of every ruleset."""

    def run(self) -> list[nodes.Node]:
        spec = current().spec
        rows: list[list[Cell]] = []
        for rid, ruleset in spec.rulesets.items():
            players = players_text(ruleset)
            rows.append([[link(rid, ruleset_doc(rid))], ruleset.title,
                         source_link(spec, ruleset.source),
                         players, ruleset.extends or "—"])
        return [table(["ruleset", "title", "source", "players", "extends"], rows)]


class SourcesDirective(SphinxDirective):
    """``{napkit-sources}``: each rule source by its name, with its title, its file (the name
    citations elsewhere link here for), its sections and the rulesets that follow it."""

    def run(self) -> list[nodes.Node]:
        spec = current().spec
        out: list[nodes.Node] = []
        for source in spec.index:
            node = section(source_anchor(source.file), source.name)
            games = [[link(rid, ruleset_doc(rid))] for rid, ruleset in spec.rulesets.items()
                     if ruleset.source == source.file]
            parts = [[text(f"{part.title} (L{part.first}-{part.last})")]
                     for part in source.sections]
            facts: list[list[Inline]] = [
                [strong("what it is: "), text(source.title)],
                [strong("file: "), code(source.file),
                 text(f" ({source.lines} lines, in the sources folder beside a checkout)")],
                [strong("rulesets: "), *(joined(games) if games else [text("none")])],
            ]
            if parts:
                facts.append([strong("sections: "), *joined(parts, "; ")])
            node += bullets(facts)
            out.append(node)
        return out


# --- the comparison ------------------------------------------------------------------------------
class ComparisonDirective(SphinxDirective):
    """``{napkit-comparison}``: rulesets against the points where they differ, by chapter."""

    def run(self) -> list[nodes.Node]:
        spec = current().spec
        ids = list(spec.rulesets)
        headers: list[Cell] = ["parameter: the rules that read it"]
        headers += [[link(rid, ruleset_doc(rid))] for rid in ids]
        rows_by_chapter: dict[str, list[data.Row]] = {}
        for row in data.comparison_rows(spec):
            rows_by_chapter.setdefault(row.rule.chapter_id, []).append(row)
        out: list[nodes.Node] = []
        for chapter in spec.lawbook.chapters:
            rows = rows_by_chapter.get(chapter.id)
            if not rows:
                continue
            node = section(f"compare-{chapter.id}", chapter.title)
            body: list[list[Cell]] = []
            for row in rows:
                readers = joined([rule_link(rule.id, spec) for rule in row.rules], "; ")
                cells: list[Cell] = [[code(row.entry), text(": "), *readers]]
                for rid in ids:
                    cell = row.cells[rid]
                    if cell is None:
                        cells.append([link(data.NOT_IN_FORCE, LAWBOOK, row.rule.id)])
                        continue
                    rule_id, pairs = cell
                    if not pairs:
                        cells.append([link("not set", ruleset_doc(rid), rule_id)])
                    elif row.entry.startswith("bids[*]."):
                        cells.append([para(link(f"{label}: {value}", ruleset_doc(rid), rule_id))
                                      for label, value in pairs])
                    else:
                        cells.append([link(pairs[0][1], ruleset_doc(rid), rule_id)])
                body.append(cells)
            node += table(headers, body, classes=["napkit-matrix"])
            out.append(node)

        forced = section("compare-in-force", "Rules in force in some rulesets only")
        forced += para("A rule that one ruleset has and another does not (✓: in force, with "
                       "a link to it in the ruleset's rules).")
        body = []
        for rule in data.rules_not_everywhere(spec):
            line: list[Cell] = [rule_link(rule.id, spec)]
            for rid in ids:
                line.append([link("✓", ruleset_doc(rid), rule.id)]
                           if rule.id in spec.rulesets[rid].rules else data.NOT_IN_FORCE)
            body.append(line)
        forced += table(headers, body, classes=["napkit-matrix"])
        out += [self.scoring_section(spec), forced]

        options = section("compare-options", "Options")
        options += para("The choices each ruleset offers before play, by option name "
                        "(the default first; — : not offered).")
        names = sorted({name for r in spec.rulesets.values() for name in r.options})
        body = []
        for name in names:
            line = [[code(name)]]
            for rid in ids:
                option = spec.rulesets[rid].options.get(name)
                if option is None:
                    line.append(data.NOT_IN_FORCE)
                    continue
                choices = [option.default, *(c for c in option.choices if c != option.default)]
                line.append([link(", ".join(choices), ruleset_doc(rid), f"{rid}-options")])
            body.append(line)
        options += table(headers, body, classes=["napkit-matrix"])
        out.append(options)
        return out


    def scoring_section(self, spec: Spec) -> nodes.section:
        """How each ruleset settles a contract: in chips, or in points and how (NAP-9.6)."""
        scoring = section("compare-scoring", "How each ruleset scores")
        scoring += para("Every built-in ruleset settles a contract in chips; a house game may "
                        "keep a score sheet in points instead (NAP-9.6, a rule of house play "
                        "and programs, in no source), as the example house games show.")
        body: list[list[Cell]] = []
        for rid, where, words in data.scoring_rows(spec):
            shown: Cell = ([link(rid, ruleset_doc(rid))] if rid in spec.rulesets
                           else [code(rid), text(f" ({where})")])
            body.append([shown, words])
        scoring += table(["ruleset", "how a contract is scored"], body)
        return scoring


# --- the decisions register ----------------------------------------------------------------------
class DecisionsDirective(SphinxDirective):
    """``{napkit-decisions}``: every decision with its passages, alternatives, default, why."""

    def run(self) -> list[nodes.Node]:
        spec = current().spec
        rows: list[list[Cell]] = [[[link(d.id, DECISIONS, d.id)], d.title, d.kind,
                                   source_link(spec, d.source),
                 rule_link(d.rule, spec, with_title=False)] for d in spec.register]
        out: list[nodes.Node] = [table(["id", "question", "kind", "source", "rule"], rows)]
        out += [self.decision(spec, d) for d in spec.register]
        return note_targets(self, out)

    def decision(self, spec: Spec, decision: Decision) -> nodes.section:
        node = section(decision.id, f"{decision.id} {decision.title}")
        source = spec.index.get(decision.source)
        passages: list[list[Inline]] = []
        for citation in decision.lines:
            part = source.section_at(citation.first) if source else None
            passages.append([text(citation.text + (f" (“{part.title}”)" if part else ""))])
        offered = [[link(f"{rid}", ruleset_doc(rid), f"{rid}-options"), text(f": {name}")]
                   for rid, ruleset in spec.rulesets.items()
                   for name, option in ruleset.options.items() if option.decision == decision.id]
        relying = [[link(rid, ruleset_doc(rid))] for rid, ruleset in spec.rulesets.items()
                   if decision.id in ruleset.decision_ids()]
        facts: list[list[Inline]] = [
            [strong("kind: "), text(decision.kind)],
            [strong("source: "), *source_text(spec, decision.source)],
            [strong("passages: "), *joined(passages, "; ")],
            [strong("rule: "), *rule_link(decision.rule, spec)],
        ]
        if relying:
            facts.append([strong("relied on by: "), *joined(relying)])
        if offered:
            facts.append([strong("offered as the option: "), *joined(offered, "; ")])
        elif decision.offers_option:
            facts.append([strong("option: "), text("none of the rulesets offers it")])
        node += bullets(facts)
        node += para(strong("The question. "), *linked_text(" ".join(decision.question.split()),
                                                           spec))
        rows: list[list[Cell]] = [[[code(name)], linked_text(" ".join(meaning.split()), spec),
                 "default" if name == decision.default else ""]
                for name, meaning in decision.alternatives.items()]
        node += table(["alternative", "reading", ""], rows, widths=[2, 8, 1])
        if decision.table_options:  # ways a table may agree on, which napkit does not play
            node += para(strong("At the table. "), text("napkit plays the default above; a "
                                                        "table may agree on one of these instead "
                                                        "before play:"))
            node += table(["table option", "what it does"],
                          [[[code(name)], linked_text(" ".join(meaning.split()), spec)]
                           for name, meaning in decision.table_options.items()],
                          widths=[2, 9])
        if decision.asked:
            node += para(emphasis("Players ask: "), text(" · ".join(decision.asked)),
                         classes=["napkit-asked"])
        node += para(strong("Why. "), *linked_text(" ".join(decision.why.split()), spec))
        return node


# --- the schemas ---------------------------------------------------------------------------------
def _type_text(schema: Any) -> str:
    if not isinstance(schema, dict):
        return "any" if schema is True else "nothing"
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "$ref" in schema:
        ref = str(schema["$ref"])
        return ref.rsplit("/", 1)[-1]  # a definition, or another schema's file name
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " | ".join(_type_text(s) for s in schema[key])
    tag = schema.get("properties", {}).get("type")
    if isinstance(tag, dict) and "const" in tag:  # an action, a request: named by its type
        return json.dumps({"type": tag["const"]})
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    if kind == "array":
        items = schema.get("items")
        return f"array of {_type_text(items)}" if items is not None else "array"
    return str(kind) if kind else "object" if "properties" in schema else "any"


class SchemasDirective(SphinxDirective):
    """``{napkit-schemas}``: every schema of spec/schemas, with an example checked against it."""

    def run(self) -> list[nodes.Node]:
        site = current()
        try:
            examples = site.examples()
        except data.ExampleError as exc:
            return fail(self, str(exc))
        folder = site.spec.dir / "schemas"
        names = sorted((p.name.removesuffix(".schema.json") for p in folder.glob("*.schema.json")),
                       key=lambda n: (SCHEMA_ORDER.index(n) if n in SCHEMA_ORDER else 99, n))
        out: list[nodes.Node] = []
        for name in names:
            path = folder / f"{name}.schema.json"
            self.env.note_dependency(str(path))
            schema = json.loads(path.read_text(encoding="utf-8"))
            shown = [e for e in examples if e.schema == name and e.shown]
            if not shown:
                out += fail(self, f"the schema {name}.schema.json has no example on the site")
            out.append(self.schema(site, name, schema, shown))
        return note_targets(self, out)

    def schema(self, site: data.SiteData, name: str, schema: dict[str, Any],
               examples: list[data.Example]) -> nodes.section:
        spec = site.spec
        node = section(f"schema-{name}", f"{schema.get('title', name)} ",
                       code(f"{name}.schema.json"))
        if "description" in schema:
            node += paragraphs(str(schema["description"]), spec)
        node += para(strong("$id: "), code(str(schema.get("$id", ""))))
        properties = schema.get("properties")
        if isinstance(properties, dict):
            required = set(schema.get("required", []))
            rows: list[list[Cell]] = [
                [[code(key)], [code(_type_text(value))], "yes" if key in required else "",
                     linked_text(" ".join(str(value.get("description", "")).split()), spec)
                     if isinstance(value, dict) else ""]
                    for key, value in properties.items()]
            node += table(["property", "type", "required", "description"], rows,
                          widths=[2, 3, 1, 6])
        definitions = schema.get("$defs")
        if isinstance(definitions, dict):
            rows = [[[code(key)], [code(_type_text(value))],
                     linked_text(" ".join(str(value.get("description", "")).split()), spec)
                     if isinstance(value, dict) else ""]
                    for key, value in definitions.items()]
            node += para(strong("Definitions"), " (", code("$defs"), "):")
            node += table(["definition", "type", "description"], rows, widths=[2, 3, 7])
        for example in examples:
            where = (code(example.where) if example.where.startswith("napkit ")
                     else text(example.where))
            node += para(strong("Example"), " (", where, "), valid by ",
                         code(f"{name}.schema.json"), " (checked when this page was built):")
            node += json_block(example.document)
        node += details(f"The schema {name}.schema.json", json_block(schema))
        return node


# What went wrong in this build: an example that fails its schema, a worked hand that cannot
# be recorded or replayed. Each is logged as an error where it was met, and the build then ends
# with a failing status whatever its flags (napkit.site.finish), without a traceback.
FAILURES: list[str] = []


def fail(directive: SphinxDirective, message: str) -> list[nodes.Node]:
    """Report a wrong example: an error in the log, a failing build, a notice on the page."""
    FAILURES.append(message)
    logger.error("napkit: %s", message, location=directive.get_location())
    return [para(strong("This example is wrong, and the site must not be published: "),
                 message)]


# --- the conformance cases of a ruleset ----------------------------------------------------------
def _case_rows(cases: Sequence[Case], spec: Spec) -> list[list[Cell]]:
    return [[[link(case.id.split("/", 1)[1], file=case_file(case))], str(case.players),
             [code(" ".join(case.rules))] if len(case.rules) <= 6
             else [text(f"{len(case.rules)} rules")],
             linked_text(" ".join(case.description.split()), spec)]
            for case in cases]


class CasesDirective(SphinxDirective):
    """``{napkit-cases} RULESET``: the suite's cases of one ruleset, by kind (illegal by rule)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        site = current()
        spec = site.spec
        rid = self.arguments[0]
        cases = site.cases.by_ruleset.get(rid, ())
        kinds = Counter(case.kind for case in cases)
        out: list[nodes.Node] = [para(
            f"{len(cases)} cases of ", link(rid, ruleset_doc(rid)), " (",
            *joined([[text(f"{kind} {kinds[kind]}")] for kind in KINDS if kinds[kind]]),
            "). Each links to its file, ", code(f"conformance/cases/{rid}/KIND/NAME.json"),
            " in the repository. Run them against a program with ",
            code(f"napkit conform --ruleset {rid} -- COMMAND"), ".")]
        headers = ["case", "players", "rules", "what it checks"]
        widths = [3, 1, 2, 8]
        worked = [case for case in cases if data.handworked(case)]
        if worked:
            node = section(f"{rid}-handworked", "Hand-worked cases")
            node += table(headers, _case_rows(worked, spec), widths=widths)
            out.append(node)
        for kind in KINDS:
            chosen = [case for case in cases if case.kind == kind and not data.handworked(case)]
            if not chosen:
                continue
            node = section(f"{rid}-{kind}", f"Generated {kind} cases")
            if kind == "illegal":
                by_rule: dict[str, list[Case]] = {}
                for case in chosen:
                    by_rule.setdefault(str(case.expect["refuse"]["rule"]), []).append(case)
                for rule_id in sorted(by_rule, key=spec.lawbook.order):
                    rule = spec.lawbook.get(rule_id)
                    part = section(f"refused-{rule_id}", f"Refused under {rule_id} ",
                                   rule.title if rule else "")
                    part += para("The rule: ", *rule_link(rule_id, spec, with_title=False), ".")
                    part += table(headers, _case_rows(by_rule[rule_id], spec), widths=widths)
                    node += part
            else:
                node += table(headers, _case_rows(chosen, spec), widths=widths)
            out.append(node)
        # The law book links here for every rule that some case breaks, hand-worked or not.
        broken = {str(case.expect["refuse"]["rule"]) for case in cases if case.kind == "illegal"}
        shown = {str(case.expect["refuse"]["rule"]) for case in cases
                 if case.kind == "illegal" and not data.handworked(case)}
        for rule_id in sorted(broken - shown, key=spec.lawbook.order):
            part = section(f"refused-{rule_id}", f"Refused under {rule_id}")
            part += table(headers, _case_rows(
                [c for c in worked if c.kind == "illegal"
                 and c.expect["refuse"]["rule"] == rule_id], spec), widths=widths)
            out.append(part)
        return out


class CasesIndexDirective(SphinxDirective):
    """``{napkit-cases-index}``: the suite's cases counted by ruleset and kind."""

    def run(self) -> list[nodes.Node]:
        site = current()
        if not site.cases.cases:
            return [para("No cases yet: the suite, ", code("conformance/cases/"),
                         ", has none.")]
        out: list[nodes.Node] = []
        if site.cases.problems:
            out.append(para(f"{len(site.cases.problems)} case files were left out by the "
                            "suite's loader: ", code("napkit conform"), " lists them."))
        rows: list[list[Cell]] = []
        for rid in site.spec.rulesets:
            cases = site.cases.by_ruleset.get(rid, ())
            kinds = Counter(case.kind for case in cases)
            worked = sum(1 for case in cases if data.handworked(case))
            rows.append([[link(rid, cases_doc(rid))] if cases else rid,
                         *(str(kinds[kind]) for kind in KINDS), str(worked), str(len(cases))])
        out.append(table(["ruleset", *KINDS, "hand-worked", "all"], rows))
        return out


# --- a worked hand -------------------------------------------------------------------------------
def action_words(action: dict[str, Any]) -> str:
    from napkit.formats.values import action_from_json

    return str(action_from_json(action, ["action"]))


class HandDirective(SphinxDirective):
    """``{napkit-hand}`` with ``:ruleset:``, ``:players:``, ``:seed:``: a recorded hand laid out."""

    option_spec: ClassVar[dict[str, Any]] = {
        "ruleset": directives.unchanged_required,
        "players": directives.positive_int,
        "seed": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        site = current()
        spec = site.spec
        try:
            hand = data.worked_hand(self.options["ruleset"], self.options["players"],
                                    self.options["seed"])
        except data.ExampleError as exc:
            return fail(self, str(exc))
        record = hand.record
        outcome = hand.outcome
        ruleset = spec.rulesets[record["ruleset"]]
        out: list[nodes.Node] = [para(
            "Recorded with ", code(hand.command + " -o hand.json"), " (",
            link(ruleset.id, ruleset_doc(ruleset.id)),
            ", every option at its default; checked against ", code("hand-record.schema.json"),
            " and replayed through the engine when this page was built). Seats are numbered "
            f"clockwise; seat {record['dealer']} deals.")]
        declarer = outcome["declarer"]
        rows: list[list[Cell]] = []
        for seat, cards in enumerate(hand.hands):
            role = ["dealer"] if seat == record["dealer"] else []
            if seat == declarer:
                role.append("declarer")
            dealt = hand_text(map(parse_card, cards), symbols=True)
            rows.append([f"seat {seat}", ", ".join(role), [code(dealt)],
                         f"{outcome['net'][seat]:+d}"])
        if hand.widow:
            rows.append(["widow", "", [code(card_text(parse_card(hand.widow), symbols=True))], ""])
        out.append(para(strong("The deal")))
        out += [table(["seat", "", "cards dealt", "won or lost"], rows, widths=[2, 3, 6, 2]),
                viewer_link(self.env.docname, "-".join((record["ruleset"], str(
                    self.options["players"]), str(self.options["seed"]))), record,
                    f"A worked example: {hand.command}")]

        before: list[list[Inline]] = []
        for actor, action in hand.steps:
            if action["type"] == "play":
                break
            who = "chance" if actor is None else f"seat {actor}"
            before.append([text(f"{who}: "), code(action_words(action))])
        out.append(para(strong("Before the play"),
                        " (the auction, and any looks, purchases or exchanges):"))
        out.append(bullets(before) if before else para("nothing."))

        if outcome["thrown_in"]:
            out.append(para(strong("Thrown in: "), "nobody bid, so nothing was played (",
                            *rule_link("NAP-5.3.2", spec, with_title=False), ")."))
            return [*out, *_in_notation(hand.command, record)]
        seats = sorted(record["seats"])
        tricks: list[list[Cell]] = []
        for number, trick in enumerate(outcome["tricks"], 1):
            leader = trick["leader"]
            order = seats[seats.index(leader):] + seats[:seats.index(leader)]
            played = dict(zip(order, trick["cards"], strict=False))
            row: list[Cell] = [str(number)]
            for seat in seats:
                card = played.get(seat)
                shown = card_text(parse_card(card), symbols=True) if card else ""
                row.append([strong(shown)] if seat == leader and card
                           else [emphasis(shown)] if seat == trick["winner"] and card
                           else shown)
            row.append(f"seat {trick['winner']}")
            tricks.append(row)
        out.append(para(strong("The tricks"), " (the leader's card in bold, the winning card "
                        "in italics when it is not the leader's):"))
        out.append(table(["trick", *(f"seat {s}" for s in seats), "won by"], tricks))
        bids = ruleset.resolve().get("bids")
        bid = next((b for b in bids if isinstance(b, dict) and b.get("id") == outcome["contract"])
                   if isinstance(bids, list) else iter(()), None)
        name = bid.get("name") if isinstance(bid, dict) else outcome["contract"]
        verdict = "made it" if outcome["made"] else "was defeated"
        out.append(para(strong("The result: "),
                        f"seat {declarer} bid {name}, took {outcome['declarer_tricks']} "
                        f"tricks and {verdict}."))
        payments: list[list[Cell]] = [[f"seat {p['payer']}" if p["payer"] != "pool" else "the pool",
                     f"seat {p['payee']}" if p["payee"] != "pool" else "the pool",
                     str(p["amount"]),
                     rule_link(str(p["rule"]), spec) if p.get("rule") else ""]
                    for p in outcome["payments"]]
        if payments:
            out.append(table(["payer", "payee", "amount", "rule"], payments,
                             widths=[2, 2, 1, 6]))
        return [*out, *_in_notation(hand.command, record)]


def _in_notation(command: str, record: dict[str, Any]) -> list[nodes.Node]:
    """The hand as a person types it (spec/formats.md, "The hand notation"), folded."""
    from napkit.formats.handtext import write_hand

    return details(f"The hand in the notation ({command} -o hand.nap)",
                   nodes.literal_block("", write_hand(record).rstrip("\n")))


def rule_role(name: str, rawtext: str, value: str, lineno: int, inliner: Any,
              options: dict[str, Any] | None = None,
              content: Sequence[str] = ()) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``{rule}`NAP-8.1.1``` and ``{decision}`DEC-007```: a link to the rule or decision."""
    spec = current().spec
    ident = value.strip()
    if name == "decision":
        if spec.register.get(ident) is None:
            message = inliner.reporter.error(f"the register has no decision {ident!r}",
                                             line=lineno)
            return [inliner.problematic(rawtext, rawtext, message)], [message]
        return [link(code(ident), DECISIONS, ident)], []
    if ident not in spec.lawbook.all_ids():
        message = inliner.reporter.error(f"the law book has no rule {ident!r}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    return [link(code(ident), LAWBOOK, ident)], []
