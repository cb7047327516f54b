"""The hand viewer on the rules site (issue 30): a page for every hand the site shows (the
worked examples, the golden playthroughs, the disagreements' worked hands), each a hand a
player steps through with every source's verdict beside it (:mod:`napkit.dispute.viewer`).

A directive that shows a hand asks for its page with :func:`viewer_link`, which notes the hand
and gives the link; the pages are drawn when the build ends (:func:`write_viewers`), as
``hands/NAME.html``, and share one copy of the viewer's script and style sheet,
``_static/napkit-viewer/``, copied from the templates (the ``--html`` page inlines them).
``{napkit-playthroughs}`` lists the golden playthroughs with their pages.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from napkit import paths
from napkit.dispute.disagreements import source_games
from napkit.dispute.replay import Target, Verdict, replay_under
from napkit.dispute.viewer import hand_view, viewer_page
from napkit.site.nodes import Cell, code, link, para, table
from napkit.spec.catalog import Spec

FOLDER = "hands"
SHARED = "_static/napkit-viewer/"  # the script and style sheet every viewer page loads
ASSETS = ("viewer.css", "viewer.js")


@dataclass(frozen=True)
class _Hand:
    record: dict[str, Any]
    verdicts: tuple[Verdict, ...]  # empty: replayed under the sources' games when drawn
    same: str
    docname: str  # the page that shows the hand, linked back to
    title: str


PENDING: dict[str, _Hand] = {}  # by file; noted while the pages are read, drawn at the end


def viewer_file(name: str) -> str:
    return f"{FOLDER}/{name}.html"


def viewer_link(docname: str, name: str, record: dict[str, Any], title: str,
                verdicts: tuple[Verdict, ...] = (), same: str = "hands") -> nodes.paragraph:
    """Note the hand's viewer page (``title`` its heading) and give the paragraph that links
    to it."""
    file = viewer_file(name)
    PENDING[file] = _Hand(record, tuple(verdicts), same, docname, title)
    return para(link("Step through this hand", file=file),
                " as a table, trick by trick, with each source's verdict beside it.")


def _verdicts(spec: Spec, hand: _Hand) -> list[Verdict]:
    """The hand under its own ruleset and options, then every source's game."""
    if hand.verdicts:
        return list(hand.verdicts)
    own = Target(spec.rulesets[hand.record["ruleset"]], dict(hand.record.get("options") or {}))
    wanted = [own, *(Target(r, {}) for r in source_games(spec))]
    seen: set[str] = set()
    found: list[Verdict] = []
    for target in wanted:
        if target.label not in seen:
            seen.add(target.label)
            found.append(replay_under(hand.record, target, hand.same))
    return found


def write_viewers(app: Sphinx, spec: Spec) -> None:
    """Event ``build-finished`` (from :func:`napkit.site.finish`): every noted hand's page,
    and the shared script and style sheet."""
    out = Path(app.outdir)
    shared = out / SHARED
    shared.mkdir(parents=True, exist_ok=True)
    templates = resources.files("napkit.output") / "templates"
    for asset in ASSETS:
        (shared / asset).write_text(templates.joinpath(asset).read_text(encoding="utf-8"),
                                    encoding="utf-8")
    for file, hand in sorted(PENDING.items()):
        back = posixpath.relpath(app.builder.get_target_uri(hand.docname),
                                 posixpath.dirname(file))
        view = hand_view(spec, hand.record, _verdicts(spec, hand), title=hand.title)
        page = viewer_page(view, shared=posixpath.relpath(SHARED, FOLDER) + "/", back=back)
        target = out / file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page, encoding="utf-8")


class PlaythroughsDirective(SphinxDirective):
    """``{napkit-playthroughs}``: every golden playthrough of ``conformance/playthroughs/``,
    each with its viewer page."""

    def run(self) -> list[nodes.Node]:
        from napkit.formats.handtext import read_hand_file

        folder = paths.REPO_ROOT / "conformance" / "playthroughs"
        rows: list[list[Cell]] = []
        out: list[nodes.Node] = []
        for path in sorted(folder.glob("*.nap")):
            self.env.note_dependency(str(path))
            record = read_hand_file(path, check=False)
            name = f"playthrough-{path.stem}"
            viewer_link(self.env.docname, name, record, f"The golden playthrough {path.name}")
            rows.append([[code(path.name)], record["ruleset"], str(record["players"]),
                         str(len(record["actions"])),
                         [link("step through", file=viewer_file(name))]])
        out.append(table(["playthrough", "ruleset", "players", "steps", "viewer"], rows,
                         widths=[5, 3, 1, 1, 2]))
        return out
