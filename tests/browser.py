"""Headless Chromium for the tests of napkit's report pages (test_html_report.py,
test_report_site.py): the flags tests/test_docs.py launches it with, a fresh profile each
time, the rendered DOM and screenshots."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("Chromium is not installed: apt-get install -y chromium "
                    "(.ci/run installs it, so CI runs this test)")
    return found


def run_chromium(profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def dump_dom(url: str, profile: Path) -> str:
    """The page's DOM once its scripts have run."""
    done = run_chromium(profile, "--dump-dom", url)
    assert done.returncode == 0, done.stderr
    return done.stdout


def screenshot(url: str, shot: Path, profile: Path, size: tuple[int, int] = (1280, 1800)
               ) -> None:
    """A screenshot of the page's top at ``size``, checked to be a PNG of that size and not
    (nearly) blank."""
    done = run_chromium(profile, f"--screenshot={shot}", f"--window-size={size[0]},{size[1]}",
                        url)
    assert shot.exists(), done.stderr
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{shot} is not a PNG"
    assert struct.unpack(">II", header[16:24]) == size
    assert shot.stat().st_size > 30_000, "the screenshot is (nearly) blank"


def data_counts(dom: str) -> dict[str, int]:
    """The numbers a page shows in its elements marked ``data-count="NAME"``."""
    return {name: int(n) for name, n in
            re.findall(r'data-count="([^"]+)"[^>]*>\s*(\d+)\s*<', dom)}


def external_references(text: str) -> list[str]:
    """What a page would fetch from elsewhere: a script, style, font or picture by URL, or
    a link to a style sheet."""
    found = re.findall(r'\b(?:src|href)="(?:https?:)?//[^"]*"', text)
    found += re.findall(r"<link\b[^>]*>", text)
    found += re.findall(r"@import|url\(\s*['\"]?(?:https?:)?//", text)
    found += re.findall(r'<script\b[^>]*\bsrc=', text)
    return found
