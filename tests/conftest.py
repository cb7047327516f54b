"""Shared fixtures: a fresh copy of the miniature spec (tests/fixtures) for every test."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from napkit.protocol.process import Hello, ProcessChannel, Session
from napkit.spec.catalog import Spec, load_spec, read_spec
from napkit.spec.checks import check_spec
from napkit.spec.loading import JSON

FIXTURES = Path(__file__).parent / "fixtures"
FIXTURE_SPEC = FIXTURES / "spec"
FIXTURE_SOURCES = FIXTURES / "sources"


@pytest.fixture
def spec_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A writable copy of the fixture spec (schemas included), which NAPKIT_SPEC points at."""
    target = tmp_path / "spec"
    shutil.copytree(FIXTURE_SPEC, target)  # follows the schemas symlink: a real copy
    sources = tmp_path / "sources"
    shutil.copytree(FIXTURE_SOURCES, sources)
    monkeypatch.setenv("NAPKIT_SPEC", str(target))
    monkeypatch.setenv("NAPKIT_SOURCES", str(sources))
    return target


@pytest.fixture
def spec(spec_dir: Path) -> Spec:
    return load_spec(spec_dir)


@pytest.fixture
def handshake() -> Callable[[Sequence[str]], Hello]:
    """Start a program and shake hands with it as the harness does (its answer checked against
    the protocol), then end it: what it says of itself."""
    def shake(command: Sequence[str]) -> Hello:
        session = Session(lambda: ProcessChannel(command), 30.0)
        try:
            return session.open()
        finally:
            session.kill()
    return shake


def problems(spec_dir: Path) -> list[str]:
    """Every problem ``napkit rules check`` would print for this spec folder."""
    loaded, errors = read_spec(spec_dir)
    if not errors:
        errors = check_spec(loaded, spec_dir.parent / "sources")
    return [str(e) for e in errors]


def edit_json(path: Path, change: Callable[[dict[str, JSON]], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def edit_text(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def one_with(found: list[str], *parts: str) -> str:
    """The problem that contains every part (and fail, listing all problems, if none does)."""
    matching = [p for p in found if all(part in p for part in parts)]
    assert matching, f"no problem with {parts}; problems: {found}"
    return matching[0]
