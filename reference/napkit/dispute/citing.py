"""A rule as a dispute needs it: its text, where the ruleset's source says it (the lines
quoted from the source file), and the decisions taken where the source left it open.

The sources are read from :func:`napkit.paths.sources_dir` (``$NAPKIT_SOURCES``, else
``../shared/sources`` beside a checkout). Where they are not on the machine (napkit installed
from a wheel carries the law book, not the sources) the citation is given without the quote,
and says where to point ``NAPKIT_SOURCES``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from napkit import paths
from napkit.spec.catalog import Spec
from napkit.spec.rulesets import Ruleset
from napkit.spec.sources import Citation
from napkit.spec.views import cite_list, wrap

QUOTED = 8
"""At most this many lines of a source are quoted for one citation; a longer stretch is cut,
saying how many lines are left out."""


@lru_cache(maxsize=16)
def _source_text(path: Path) -> tuple[str, ...] | None:
    try:
        return tuple(path.read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return None


def source_lines(source_file: str, citation: Citation) -> list[str] | None:
    """The lines a citation names (``L12-14``), or None where the source is not here."""
    if not citation.is_lines:
        return None
    text = _source_text(paths.sources_dir() / source_file)
    if text is None:
        return None
    return list(text[citation.first - 1:citation.last])


class Shown:
    """What one output has printed of the rules, quotations and decisions, so that each is
    printed once and later named only (issue 30: ``replay --under all`` printed the same rule
    text and the same quotation five times). ``napkit replay --long`` and ``explain --long``
    print everything, every time: they pass no Shown."""

    def __init__(self) -> None:
        self.seen: set[tuple[str, ...]] = set()

    def first(self, *key: str) -> bool:
        """Whether ``key`` is printed now for the first time (and note that it is)."""
        if key in self.seen:
            return False
        self.seen.add(key)
        return True


def rule_lines(spec: Spec, rule_id: str, ruleset: Ruleset | None, indent: str = "",
               width: int = 100, shown: Shown | None = None) -> list[str]:
    """The rule's id, title and text; then, for ``ruleset``, the lines of its source that put
    the rule in force, quoted, and each decision it cites, with the choice taken. With
    ``shown``, a text, quotation or decision printed before is named, not printed again."""
    rule = spec.lawbook.get(rule_id)
    if rule is None:
        return [f"{indent}{rule_id}"]
    lines = [f"{indent}{rule.id}  {rule.title}"]
    if shown is None or shown.first("rule", rule.id):
        lines += wrap(rule.text, indent + "  ", width)
    else:
        lines[-1] += " (its text above)"
    if ruleset is None:
        return lines
    citations = ruleset.rules.get(rule_id)
    if citations is None:
        lines.append(f"{indent}  (not in force in {ruleset.id})")
        return lines
    source = spec.index.name(ruleset.source)  # a person reads the name; the file is a detail
    cited = cite_list(spec, ruleset.source, citations)
    if any(c.is_lines for c in citations):
        cited = f"{source}: {cited}"
    lines += wrap(f"{ruleset.id} cites {cited}", indent + "  ", width)
    missing = False
    for citation in citations:
        if citation.decision is not None:
            decision = spec.register.get(citation.decision)
            if decision is not None and shown is not None and not shown.first(
                    "decision", decision.id, ruleset.id):
                lines.append(f"{indent}    {decision.id} {decision.title} (above)")
            elif decision is not None:
                chosen = ruleset.options.get(next(
                    (o.name for o in ruleset.options.values()
                     if o.decision == decision.id), ""))
                taken = (f"option {chosen.name}, default {chosen.default}" if chosen
                         else f"decided: {decision.default}")
                lines += wrap(f"{decision.id} {decision.title} ({taken}): {decision.why}",
                              indent + "    ", width)
            continue
        quoted = source_lines(ruleset.source, citation)
        if quoted is None:
            missing = True
            continue
        where = f"{indent}    {spec.index.name(ruleset.source, detail=True)} {citation}"
        if shown is not None and not shown.first("quote", ruleset.source, str(citation)):
            lines.append(f"{where}: quoted above")
            continue
        lines.append(f"{where}:")
        first = quoted[:QUOTED]
        for text in first:
            lines += wrap(text, indent + "      > ", width) if text.strip() else [
                f"{indent}      >"]
        if len(quoted) > len(first):
            lines.append(f"{indent}      > ... ({len(quoted) - len(first)} more lines)")
    if missing:
        lines += wrap(f"(the source {spec.index.name(ruleset.source, detail=True)} is not at "
                      f"{paths.sources_dir()}: set "
                      "NAPKIT_SOURCES to the folder of the sources to see its lines)",
                      indent + "    ", width)
    return lines
