"""The real spec (spec/): it loads, passes every check, and compares sensibly.

These tests read the content in spec/ as it stands; while that content is being written they
may fail, and the failure message lists the problems.
"""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import pytest
from napkit.paths import REPO_ROOT
from napkit.spec.catalog import Spec, load_spec, read_spec
from napkit.spec.checks import check_spec
from napkit.spec.compare import compare
from napkit.spec.sources import check_files

SPEC = REPO_ROOT / "spec"
SOURCES = REPO_ROOT.parent / "shared" / "sources"


@cache
def real_spec() -> Spec:
    return load_spec(SPEC)


def test_the_spec_loads() -> None:
    _, problems = read_spec(SPEC)
    assert problems == [], "\n".join(str(p) for p in problems)


def test_the_spec_passes_every_check() -> None:
    problems = check_spec(real_spec(), SOURCES)
    assert problems == [], "\n".join(str(p) for p in problems)


def test_every_ruleset_compares_to_itself_with_no_differences() -> None:
    spec = real_spec()
    for ruleset in spec.rulesets.values():
        assert compare(ruleset, ruleset, spec.lawbook) == [], ruleset.id


def test_rulesets_of_different_sources_differ() -> None:
    spec = real_spec()
    for a, b in itertools.combinations(spec.rulesets.values(), 2):
        if a.source != b.source:
            assert compare(a, b, spec.lawbook), f"{a.id} and {b.id} show no difference"


def test_the_source_index_matches_the_sources() -> None:
    if not Path(SOURCES).is_dir():
        pytest.skip("../shared/sources (the rule sources) is not beside the checkout")
    problems = check_files(real_spec().index, SOURCES)
    assert problems == [], "\n".join(str(p) for p in problems)
