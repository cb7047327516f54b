"""The rules site's example of ``napkit report site``: the reference engine and the JavaScript
adapter js-classic (``conformance/adapters/js-classic``) side by side on the classic ruleset,
the reference first.

It is made when the site is built (``build-finished``), as a reader would make it:
``napkit conform --ruleset classic --json`` for each program (the reference in the harness's
process, js-classic under Node.js), then the site of the two reports
(:func:`napkit.conform.report.site.write_site`) into ``report-example/`` of the built site,
which ``docs/report-example.md`` links to. The two runs take a few seconds. Without Node.js the
example has the reference alone, and the page says so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from napkit import paths
from napkit.conform.report.site import write_site

FOLDER = "report-example"  # under the built site
JS_CLASSIC = Path("conformance") / "adapters" / "js-classic" / "adapter.js"


def conform_commands(node: str | None) -> list[tuple[str, list[str], list[str]]]:
    """The runs of the example: each a report's file name, napkit conform's options and the
    program after ``--`` (none: the reference in the harness's process)."""
    runs: list[tuple[str, list[str], list[str]]] = [("napkit.json", ["--in-process"], [])]
    if node is not None:
        # Run from the repository, named as a reader would type it (the page shows it).
        runs.append(("js-classic.json", [], ["--", Path(node).name, str(JS_CLASSIC)]))
    return runs


def run_reports(node: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The reports of the example's runs, in their order, each run on the classic ruleset."""
    reports: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="napkit-report-example-") as folder:
        for name, options, program in conform_commands(node):
            target = Path(folder) / name
            done = subprocess.run(
                [sys.executable, "-m", "napkit", "conform", *options, "--ruleset", "classic",
                 "--quiet", "--json", str(target), *program],
                capture_output=True, text=True, timeout=600, check=False, cwd=paths.REPO_ROOT)
            if not target.exists():
                raise RuntimeError(f"napkit conform wrote no report for {name}: "
                                   f"{done.stderr.strip()[-500:]}")
            reports.append((name, json.loads(target.read_text(encoding="utf-8"))))
    return reports


def write_report_example(outdir: Path) -> list[Path]:
    """Run the example and write its site into ``outdir/report-example``."""
    node = shutil.which("node")
    return write_site(run_reports(node), outdir / FOLDER)


__all__ = ["FOLDER", "conform_commands", "run_reports", "write_report_example"]
