"""napkit as a person who only checks programs installs it: a wheel built from this checkout,
installed in a new environment outside it, run from another folder (issue 12).

The wheel must carry the spec and the conformance suite (pyproject.toml maps them into
``napkit/_data``): with neither the checkout nor any environment variable to find them by,
``napkit rules list``, ``napkit conform`` and ``napkit validate`` work as they do here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JS_ADAPTER = ROOT / "conformance" / "adapters" / "js-classic" / "adapter.js"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a new environment with the wheel built from this checkout."""
    base = tmp_path_factory.mktemp("wheel")
    wheels = base / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels),
                    str(ROOT)], check=True, capture_output=True)
    (wheel,) = wheels.glob("napkit-*.whl")
    env_dir = base / "env"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)],
                   check=True, capture_output=True)
    return bin_dir


def run(bin_dir: Path, *args: str, cwd: Path, stdin: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("NAPKIT_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(bin_dir / "napkit"), *args], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"napkit {' '.join(args)}: {done.stderr}"
    return done.stdout


def test_the_wheel_carries_the_spec_and_the_suite(installed: Path, tmp_path: Path) -> None:
    code = ("import napkit, napkit.paths as p; "
            "print(p.spec_dir().is_relative_to(p.DATA), p.suite_dir().is_relative_to(p.DATA), "
            "napkit.__file__)")
    out = subprocess.run([str(installed / "python"), "-c", code], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[:2] == ["True", "True"]
    assert not Path(out[2]).is_relative_to(ROOT)  # the installed package, not the checkout


def test_the_installed_tool_works_outside_the_checkout(installed: Path, tmp_path: Path) -> None:
    import napkit

    assert run(installed, "--version", cwd=tmp_path).strip() == f"napkit {napkit.__version__}"
    listing = run(installed, "rules", "list", cwd=tmp_path)
    assert "pagat-floater" in listing and "classic" in listing
    summary = run(installed, "conform", cwd=tmp_path)
    assert "3121 cases" in summary or "passed, 0 failed" in summary
    assert ", 0 failed" in summary
    records = run(installed, "record", "peep", "--hands", "3", "--seed", "4", cwd=tmp_path)
    checked = run(installed, "validate", "-", cwd=tmp_path, stdin=records)
    assert "3 records: 3 valid, 0 invalid" in checked
    counted = run(installed, "perft", "classic", cwd=tmp_path)  # the published perft counts
    assert "all " in counted.splitlines()[-1] and "published counts agree" in counted


TEMPLATES = ROOT / "reference" / "napkit" / "output" / "templates"


def test_the_wheel_carries_the_pages_templates(installed: Path, tmp_path: Path) -> None:
    # The web pages are templates with their style and script beside them (napkit.output.pages):
    # every file of the folder is in the installed package, and the pages draw from there.
    code = ("import napkit.output.pages as p, pathlib; "
            "folder = pathlib.Path(p.__file__).parent / 'templates'; "
            "print(sorted(f.name for f in folder.iterdir()))")
    shipped = subprocess.run([str(installed / "python"), "-c", code], cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout
    wanted = sorted(f.name for f in TEMPLATES.iterdir())
    assert {"report.html", "report.css", "report.js", "sheet.html", "sheet.css"} <= set(wanted)
    assert shipped.strip() == str(wanted)
    sheet = run(installed, "rules", "sheet", "classic", cwd=tmp_path)
    assert sheet.startswith("<!DOCTYPE html>") and "@media print" in sheet
    run(installed, "conform", "--ruleset", "classic", "--case", "classic/legal/000*", "--json",
        "run.json", cwd=tmp_path)
    run(installed, "report", "html", "run.json", "-o", "run.html", cwd=tmp_path)
    page = (tmp_path / "run.html").read_text(encoding="utf-8")
    assert 'id="f-ruleset"' in page and "history.replaceState" in page  # the page's script


def test_the_installed_tool_checks_another_program(installed: Path, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the JavaScript classic adapter needs it")
    summary = run(installed, "conform", "--ruleset", "classic", "--", node, str(JS_ADAPTER),
                  cwd=tmp_path)
    assert "against js-classic" in summary and ", 0 failed" in summary
