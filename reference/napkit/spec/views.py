"""What ``napkit rules`` prints: each view is a list of lines, wrapped at 100 columns."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from napkit.output.tables import cut
from napkit.output.tables import table as output_table
from napkit.spec.render import players_text, specific_values

if TYPE_CHECKING:  # types only: 'napkit rules list' need not import house games and the engine
    from napkit.spec.catalog import Spec
    from napkit.spec.compare import Difference
    from napkit.spec.decisions import Decision
    from napkit.spec.house import HouseRuleset
    from napkit.spec.lawbook import Rule
    from napkit.spec.loading import JSON
    from napkit.spec.rulesets import Ruleset
    from napkit.spec.sources import Citation

WIDTH = 100


def wrap(text: str, indent: str = "", width: int = WIDTH) -> list[str]:
    """Wrap each paragraph of ``text`` (paragraphs are separated by blank lines)."""
    lines: list[str] = []
    for n, paragraph in enumerate(p for p in text.split("\n\n") if p.strip()):
        if n:
            lines.append("")
        lines += textwrap.wrap(" ".join(paragraph.split()), width, initial_indent=indent,
                               subsequent_indent=indent, break_on_hyphens=False) or [indent]
    return lines


def table(rows: list[list[str]], width: int = WIDTH) -> list[str]:
    """Columns padded to their widest cell (the first row the headings); the last column wraps
    within ``width``."""
    if not rows:
        return []
    return output_table(rows[0], rows[1:], "<" * len(rows[0]), wrap=width)


def cite_list(spec: Spec, source_file: str, citations: Iterable[Citation],
              with_file: bool = False) -> str:
    """Citations joined by "; ", lines of one section together: ``L78, L80 ("Deal")``.

    With ``with_file``, the source is named too, as people read it (:meth:`SourceIndex.name`):
    ``L17 (pagat.com (McLeod), "Deal")``; a decision is shown with its title:
    ``DEC-021 (Peep Nap: starting chips)``.
    """
    source = spec.index.get(source_file)
    groups: list[tuple[str, list[str]]] = []  # (where, citation texts)
    for citation in citations:
        if citation.decision is not None:
            decision = spec.register.get(citation.decision)
            title = f" ({decision.title})" if decision else ""
            groups.append(("", [f"{citation.decision}{title}"]))
            continue
        section = source.section_at(citation.first) if source else None
        where = [spec.index.name(source_file)] if with_file else []
        if section is not None:
            where.append(f'"{section.title}"')
        label = f" ({', '.join(where)})" if where else ""
        if groups and groups[-1][0] == label and label:
            groups[-1][1].append(citation.text)
        else:
            groups.append((label, [citation.text]))
    return "; ".join(", ".join(texts) + label for label, texts in groups)


def source_line(spec: Spec, source_file: str) -> str:
    """A source named in full for a ``source:`` line: its name, its file as a detail, and its
    title where the name is shorter: ``Peep Nap page [001_311e7c0f07a8af84.txt] ("Peep Nap")``.
    """
    source = spec.index.get(source_file)
    named = spec.index.name(source_file, detail=True)
    return f'{named} ("{source.title}")' if source and source.title != source.name else named


SOURCE_COLUMN = 20
"""A source's name in a terminal table is cut to this many columns (the short names fit)."""


HOUSE_ORIGIN = "found in programs and house play, in no source"


def _no_source(rule: Rule) -> str:
    """What a rule in force with no citation says instead: a rule of house play says so."""
    if rule.house:
        return f"none: {HOUSE_ORIGIN} (in force in this house game)"
    return "none (in force in this house game)"


# --- napkit rules list -----------------------------------------------------------------------


def list_view(spec: Spec) -> list[str]:
    rows = [["id", "source", "players", "extends", "title"]]
    for ruleset in sorted(spec.rulesets.values(), key=lambda r: (r.source, r.id)):
        rows.append([ruleset.id, cut(spec.index.name(ruleset.source), SOURCE_COLUMN),
                     players_text(ruleset), ruleset.extends or "-",
                     ruleset.title])
    return table(rows)


# --- napkit rules show -----------------------------------------------------------------------


def show_view(spec: Spec, ruleset: Ruleset, choices: Mapping[str, str]) -> list[str]:
    from napkit.spec.house import HouseRuleset

    resolved = ruleset.resolve(choices)
    lines = [f"{ruleset.id}  {ruleset.title}"]
    if isinstance(ruleset, HouseRuleset):
        lines += hang("house:    ", f"a house game ({ruleset.file}): the rules in force are "
                      f"{ruleset.extends}'s, with their sources", "", "          ")
    else:
        lines += hang("source:   ", f"{source_line(spec, ruleset.source)}, {ruleset.section}",
                      "", "          ")
    if ruleset.extends:
        lines.append(f"extends:  {ruleset.extends}")
    lines.append(f"players:  {players_text(ruleset)}")
    if choices:
        lines.append("options:  " + ", ".join(f"{k}={v}" for k, v in choices.items()))
    lines.append("")
    lines += wrap(ruleset.summary)
    if isinstance(ruleset, HouseRuleset):
        lines += ["", f"CHANGES FROM {str(ruleset.extends).upper()}"]
        for change in ruleset.changes or ("none",):
            lines += hang("", change, "  ")
    chapter_id = None
    for rule in spec.lawbook:
        if rule.id not in ruleset.rules:
            continue
        if rule.chapter_id != chapter_id:
            chapter_id = rule.chapter_id
            chapter = next(c for c in spec.lawbook.chapters if c.id == chapter_id)
            lines += ["", f"{chapter.id}  {chapter.title.upper()}"]
        lines += ["", f"{rule.id}  {rule.title}"]
        lines += wrap(rule.text, "    ")
        cites = cite_list(spec, ruleset.source, ruleset.rules[rule.id])
        lines += hang("sources: ", cites or _no_source(rule), "  ")
        lines += _values(rule, resolved, "  ")
    if ruleset.options:
        lines += ["", "OPTIONS (* marks the default)"]
        for name, option in ruleset.options.items():
            about = ", ".join(x for x in (option.rule, option.decision) if x)
            lines += ["", *hang(f"{name}  ", f"{option.title} ({about})", "")]
            lines += _choice_lines(option.choices, option.default, choices.get(name))
    decision_ids = ruleset.decision_ids()
    if decision_ids:
        lines += ["", "DECISIONS RELIED ON"]
        for decision_id in decision_ids:
            decision = spec.register.get(decision_id)
            title = decision.title if decision else "(not in the register)"
            lines.append(f"  {decision_id}  {title}")
    return lines


def _values(rule: Rule, resolved: Mapping[str, JSON], indent: str) -> list[str]:
    """The resolved values of the parameters ``rule`` reads."""
    lines = []
    for entry, pairs in specific_values(rule.params, resolved):
        if entry.startswith("bids[*]."):
            if pairs:
                lines += hang(f"{entry}: ", ", ".join(f"{b}={t}" for b, t in pairs), indent)
        else:
            for label, text in pairs:
                lines += hang(f"{label} = ", text, indent)
    return lines


def hang(head: str, body: str, indent: str, more: str = "    ") -> list[str]:
    """``head`` and ``body`` wrapped, continuation lines indented by ``more`` past ``indent``."""
    return textwrap.wrap(head + " ".join(body.split()), WIDTH, initial_indent=indent,
                         subsequent_indent=indent + more, break_on_hyphens=False)


def _choice_lines(choices: Mapping[str, str], default: str, chosen: str | None) -> list[str]:
    lines = []
    for choice, text in choices.items():
        mark = "*" if choice == default else " "
        note = "  (chosen)" if chosen == choice else ""
        lines += hang(f"    {mark} {choice}: ", text + note, "", "        ")
    return lines


# --- napkit rules rule -----------------------------------------------------------------------


def rule_view(spec: Spec, rule: Rule) -> list[str]:
    chapter = next(c for c in spec.lawbook.chapters if c.id == rule.chapter_id)
    lines = [f"{rule.id}  {rule.title}",
             f"kind:     {rule.kind}",
             f"chapter:  {chapter.id} {chapter.title}",
             f"section:  {rule.section_id} {rule.section_title}"]
    if rule.params:
        lines.append(f"params:   {', '.join(rule.params)}")
    if rule.see:
        lines.append(f"see:      {', '.join(rule.see)}")
    if rule.house:
        lines += hang("origin:   ", f"house: {HOUSE_ORIGIN}; in force only in a house game that "
                      f"sets {', '.join(rule.params)}", "", "          ")
    lines.append("")
    lines += wrap(rule.text)
    in_force = [r for r in spec.rulesets.values() if rule.id in r.rules]
    lines += ["", f"IN FORCE IN {len(in_force)} OF {len(spec.rulesets)} RULESETS"]
    for ruleset in sorted(in_force, key=lambda r: (r.source, r.id)):
        lines += ["", f"{ruleset.id}  ({spec.index.name(ruleset.source)})"]
        lines += wrap(cite_list(spec, ruleset.source, ruleset.rules[rule.id]), "    ")
        options = [o for o in ruleset.options.values() if o.rule == rule.id]
        for option in options:
            lines += wrap(f"option {option.name}: {', '.join(option.choices)} "
                          f"(default {option.default})", "    ")
        lines += _values(rule, ruleset.resolve(), "    ")
    absent = sorted(r.id for r in spec.rulesets.values() if rule.id not in r.rules)
    if absent:
        lines += ["", *wrap(f"Not in force in: {', '.join(absent)}")]
    return lines


# --- napkit rules compare --------------------------------------------------------------------


def compare_view(spec: Spec, a: Ruleset, b: Ruleset, differences: list[Difference], *,
                 choices_a: Mapping[str, str], choices_b: Mapping[str, str]) -> list[str]:
    label_a, label_b = (a.id, b.id) if a.id != b.id else ("A", "B")
    width = max(len(label_a), len(label_b))
    lines = []
    for label, ruleset, choices in ((label_a, a, choices_a), (label_b, b, choices_b)):
        named = "" if label == ruleset.id else f"{ruleset.id}: "
        line = f"{named}{ruleset.title} ({spec.index.name(ruleset.source)}; {ruleset.section})"
        if choices:
            line += " with " + ", ".join(f"{k}={v}" for k, v in choices.items())
        lines += hang(f"{label.ljust(width)}  ", line, "", " " * (width + 2))
    rule_id: str | None = None
    for difference in differences:
        if difference.rule_id != rule_id:
            rule_id = difference.rule_id
            lines += ["", f"{rule_id or '(no rule)'}  {difference.rule_title}"]
            for label, cites in ((label_a, difference.cites_a),
                                 (label_b, difference.cites_b)):
                if cites:
                    lines += wrap(f"{label} cites {', '.join(cites)}", "    ")
        lines.append(f"  {difference.path}")
        lines += hang(f"{label_a.ljust(width)}: ", difference.a, "    ")
        lines += hang(f"{label_b.ljust(width)}: ", difference.b, "    ")
    rules = len({d.rule_id for d in differences})
    lines.append("")
    if differences:
        lines.append(f"{len(differences)} {_plural(len(differences), 'difference')} in "
                     f"{rules} {_plural(rules, 'rule')}.")
    else:
        lines.append("no differences.")
    return lines


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


# --- napkit rules decisions ------------------------------------------------------------------


def decisions_view(spec: Spec) -> list[str]:
    rows = [["id", "kind", "source", "rule", "default", "title"]]
    for decision in spec.register:
        rows.append([decision.id, decision.kind, cut(spec.index.name(decision.source), 13),
                     decision.rule,
                     decision.default, decision.title])
    return table(rows)


def decision_view(spec: Spec, decision: Decision) -> list[str]:
    rule = spec.lawbook.get(decision.rule)
    lines = [f"{decision.id}  {decision.title}",
             f"kind:     {decision.kind}",
             *hang("source:   ", source_line(spec, decision.source), "", "          "),
             f"rule:     {decision.rule}" + (f" {rule.title}" if rule else "")]
    lines += hang("lines:    ", cite_list(spec, decision.source, decision.lines), "")
    lines += ["", "QUESTION", *wrap(decision.question, "    ")]
    lines += ["", "ALTERNATIVES (* marks the default)"]
    lines += _choice_lines(decision.alternatives, decision.default, None)
    if decision.table_options:  # what a table may agree on instead: napkit does not play them
        lines += ["", "AT THE TABLE (a table may agree on one of these; napkit plays the default)"]
        lines += _choice_lines(decision.table_options, "", None)
    lines += ["", "WHY", *wrap(decision.why, "    ")]
    offered = [f"{r.id} (option {o.name})" for r in spec.rulesets.values()
               for o in r.options.values() if o.decision == decision.id]
    cited_by = [f"{r.id} ({', '.join(ids)})" for r in spec.rulesets.values()
                if (ids := _citing(r, decision.id))]
    lines += [""]
    lines += hang("offered by: ", ", ".join(offered) or "no ruleset (a single alternative)", "")
    lines += hang("cited by:   ", ", ".join(cited_by) or "no ruleset", "")
    return lines


def _citing(ruleset: Ruleset, decision_id: str) -> list[str]:
    return [rule_id for rule_id, cites in ruleset.rules.items()
            if any(c.decision == decision_id for c in cites)]


def house_lines(house: HouseRuleset) -> list[str]:
    """What ``napkit rules check`` says of a house file before its problems: the game it
    extends and, a line each, what it changes."""
    lines = [f"{house.file}: a house game, {house.id} ({house.title}), extending "
             f"{house.extends}; it changes:"]
    return lines + ([f"  {change}" for change in house.changes] or ["  nothing"])


def check_summary(problems: Iterable[object], what: str) -> str:
    n = len(list(problems))
    return f"{n} {_plural(n, 'problem')} in {what}." if n else f"{what}: no problems."


__all__ = ["check_summary", "compare_view", "decision_view", "decisions_view", "house_lines",
           "list_view", "rule_view", "show_view", "wrap"]
