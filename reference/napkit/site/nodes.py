"""Small builders of docutils nodes, and the site's links, resolved once the pages are known.

A link made while a page is read names its target page and anchor (``lawbook``,
``NAP-8.1.1``) or a file copied into the site (``cases/pagat/legal/x.json``); the relative
URL is filled in when the page is written (:func:`resolve_links`), by the builder, so that it
is right from any page and a link to a page that does not exist is a warning.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterable, Sequence
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

Inline = nodes.Node
Cell = str | nodes.Node | Sequence[nodes.Node]


def link(content: str | Inline | Sequence[Inline], doc: str | None = None,
         anchor: str | None = None, file: str | None = None) -> nodes.reference:
    """A link to ``doc#anchor`` (a page of the site) or to ``file`` (copied into the site)."""
    children = ([nodes.Text(content)] if isinstance(content, str)
                else [content] if isinstance(content, nodes.Node) else list(content))
    node = nodes.reference("", "", *children, internal=True)
    if file is not None:
        node["napkit_file"] = file
    else:
        node["napkit_doc"] = doc
        node["napkit_anchor"] = anchor or ""
    return node


def resolve_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Fill in the URL of every link made by :func:`link` (event ``doctree-resolved``)."""
    here = posixpath.dirname(app.builder.get_target_uri(docname))
    for node in list(doctree.findall(nodes.reference)):
        if "napkit_file" in node:
            node["refuri"] = posixpath.relpath(node["napkit_file"], here or ".")
        elif "napkit_doc" in node:
            target, anchor = node["napkit_doc"], node["napkit_anchor"]
            if target not in app.env.all_docs:
                logger.warning("napkit: a link to page %r, which the site does not have",
                               target, location=(docname, node.line))
                node.replace_self(node.children)  # its text stays, unlinked
                continue
            uri = "" if target == docname else app.builder.get_relative_uri(docname, target)
            node["refuri"] = f"{uri}#{anchor}" if anchor else (uri or "#")


def text(value: str) -> nodes.Text:
    return nodes.Text(value)


def code(value: str) -> nodes.literal:
    return nodes.literal(value, value)


def strong(value: str) -> nodes.strong:
    return nodes.strong(value, value)


def emphasis(value: str) -> nodes.emphasis:
    return nodes.emphasis(value, value)


def para(*content: Inline | str, classes: Iterable[str] = ()) -> nodes.paragraph:
    node = nodes.paragraph("", "", classes=list(classes))
    for item in content:
        node += nodes.Text(item) if isinstance(item, str) else item
    return node


def joined(items: Iterable[Sequence[Inline] | Inline], separator: str = ", ") -> list[Inline]:
    out: list[Inline] = []
    for n, item in enumerate(items):
        if n:
            out.append(nodes.Text(separator))
        if isinstance(item, nodes.Node):
            out.append(item)
        else:
            out.extend(item)
    return out


def section(ident: str, *title: Inline | str, classes: Iterable[str] = ()) -> nodes.section:
    """A section whose HTML id is exactly ``ident`` (a rule id, a decision id)."""
    node = nodes.section("", ids=[ident], classes=list(classes))
    heading = nodes.title("", "")
    for item in title:
        heading += nodes.Text(item) if isinstance(item, str) else item
    node += heading
    return node


def is_block(node: object) -> bool:
    """A paragraph, a table, a list: not text, and not inline (a reference is both Body and
    Inline in docutils)."""
    return (isinstance(node, nodes.Body | nodes.Structural)
            and not isinstance(node, nodes.Inline))


def _cell(value: Cell) -> nodes.entry:
    entry = nodes.entry()
    if isinstance(value, str):
        entry += para(value)
    elif is_block(value):
        assert isinstance(value, nodes.Node)
        entry += value
    elif isinstance(value, nodes.Node):
        entry += para(value)
    elif value and all(is_block(v) for v in value):
        for block in value:
            entry += block
    else:
        entry += para(*value)
    return entry


def table(headers: Sequence[Cell], rows: Iterable[Sequence[Cell]],
          classes: Iterable[str] = (), widths: Sequence[int] | None = None) -> nodes.table:
    """A table with a header row; a cell is a string, an inline node, inlines or blocks."""
    node = nodes.table(classes=["napkit-table", *classes])
    group = nodes.tgroup(cols=len(headers))
    node += group
    for width in widths or [1] * len(headers):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for header in headers:
        row += _cell(header)
    head += row
    body = nodes.tbody()
    group += body
    for values in rows:
        row = nodes.row()
        for value in values:
            row += _cell(value)
        body += row
    return node


def bullets(items: Iterable[Sequence[Inline] | nodes.Node]) -> nodes.bullet_list:
    node = nodes.bullet_list()
    for item in items:
        entry = nodes.list_item()
        if is_block(item):
            assert isinstance(item, nodes.Node)
            entry += item
        elif isinstance(item, nodes.Node):
            entry += para(item)
        else:
            entry += para(*item)
        node += entry
    return node


def json_block(document: Any) -> nodes.literal_block:
    shown = pretty_json(document)
    block = nodes.literal_block(shown, shown)
    block["language"] = "json"
    return block


def details(summary: str, *content: nodes.Node) -> list[nodes.Node]:
    """Content folded under a summary (HTML ``<details>``; other builders show it all)."""
    return [nodes.raw("", f"<details><summary>{summary}</summary>", format="html"),
            *content, nodes.raw("", "</details>", format="html")]


def pretty_json(value: Any, indent: str = "") -> str:
    """JSON with one key a line, but a list of plain values (a deal, seats) on one line."""
    inner = indent + "  "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {pretty_json(v, inner)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and any(isinstance(v, dict | list) for v in value):
        items = [inner + pretty_json(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)
