"""napkit's web pages, drawn from Jinja2 templates with autoescaping on.

The pages (the report of a run, the comparison site, the rules sheet) are templates in
``napkit/output/templates/``, with their style and script as files beside them, put into the
page inline (a page opens from disk and fetches nothing). Every value a template prints is
escaped, whatever its template: text that came from a report, a program or a house file can
never be markup. Markup made in Python must be :class:`markupsafe.Markup`, built with
``Markup.format`` or ``escape``; a value that goes into a page's script goes through
``|tojson``.

One :class:`jinja2.Environment` serves every page. It is built at the first page drawn, not at
import: ``import napkit``, and any command that draws no page, never imports Jinja2.

>>> from napkit.output.pages import macros
>>> macros("pieces.html").pill("failed", "<b>failed</b>")
Markup('<span class="pill failed">&lt;b&gt;failed&lt;/b&gt;</span>')
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jinja2

__all__ = ["environment", "macros", "render"]

_ENVIRONMENT: list[jinja2.Environment] = []  # built once, at the first page
_LOCK = threading.Lock()


def environment() -> jinja2.Environment:
    """The one environment of napkit's pages: every template autoescaped, an undefined name an
    error (never an empty string), the templates read from the package (a checkout, an
    editable install or a wheel alike)."""
    if not _ENVIRONMENT:
        with _LOCK:
            if not _ENVIRONMENT:
                import jinja2

                _ENVIRONMENT.append(jinja2.Environment(
                    loader=jinja2.PackageLoader("napkit.output", "templates"),
                    autoescape=True,  # every template, whatever its name ends with
                    undefined=jinja2.StrictUndefined,
                    trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                    auto_reload=False))
    return _ENVIRONMENT[0]


def render(template_name: str, /, **context: Any) -> str:
    """The template drawn with ``context``: a whole page, as text."""
    return environment().get_template(template_name).render(**context)


def macros(template_name: str) -> Any:
    """A template's macros, to call from Python (each returns :class:`markupsafe.Markup`):
    ``macros("pieces.html").card(...)``."""
    return environment().get_template(template_name).module
