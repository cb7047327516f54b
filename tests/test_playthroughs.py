"""The golden playthroughs (conformance/playthroughs/, issue 16 part 7): one file per ruleset and
per option choice that changes what a hand shows, each exactly what the engine plays now, so
that any change to play fails here with a readable diff (regenerate with
``python conformance/generate_playthroughs.py``); each file is a hand in the notation that
reads and validates."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from napkit.formats.handtext import read_hand_file
from napkit.formats.records import check_hand_record
from napkit.spec.catalog import default_spec

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "conformance" / "playthroughs"
GENERATOR = ROOT / "conformance" / "generate_playthroughs.py"
FILES = sorted(FOLDER.glob("*.nap"))


@cache
def generator() -> ModuleType:
    """conformance/generate_playthroughs.py as a module (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("napkit_generate_playthroughs", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@cache
def wanted() -> dict[str, str]:
    found: dict[str, str] = generator().expected()
    return found


def test_every_ruleset_has_a_playthrough() -> None:
    missing = [ruleset for ruleset in sorted(default_spec().rulesets)
               if not (FOLDER / f"{ruleset}.nap").is_file()]
    assert not missing, (f"no golden playthrough for {', '.join(missing)}: run python "
                         "conformance/generate_playthroughs.py")


def test_the_playthroughs_are_what_the_engine_plays_now() -> None:
    diff = generator().differences(FOLDER, wanted())
    assert not diff, ("play has changed; if that is intended, run python "
                      "conformance/generate_playthroughs.py and review the diff:\n"
                      + "\n".join(diff))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_each_playthrough_is_a_finished_hand_that_validates(path: Path) -> None:
    record = read_hand_file(path)
    assert record["outcome"] is not None
    assert check_hand_record(record) == []
    ruleset = path.stem.split("--")[0]
    assert record["ruleset"] == ruleset
    if "--" in path.stem:
        name, choice = path.stem.split("--")[1].split("=")
        assert record["options"][name] == choice


def test_a_changed_file_shows_as_a_diff_and_check_fails(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    module = generator()
    few = {name: text for name, text in wanted().items() if name.startswith("peep")}
    module.write(tmp_path, few)
    assert module.differences(tmp_path, few) == []
    path = tmp_path / "peep.nap"
    path.write_text(path.read_text(encoding="utf-8").replace("# outcome:", "# outcome was:"),
                    encoding="utf-8")
    (tmp_path / "stray.nap").write_text("", encoding="utf-8")
    diff = module.differences(tmp_path, few)
    assert "-# outcome was:" in "\n".join(diff) and "+# outcome:" in "\n".join(diff)
    assert f"not a playthrough any more: {tmp_path / 'stray.nap'}" in diff
    assert module.main(["--check", "--out", str(tmp_path)]) == 1  # all of them: most missing
    assert "+# outcome:" in capsys.readouterr().out
    module.write(tmp_path, few)  # rewrites the changed file, removes the stray one
    assert module.differences(tmp_path, few) == []
    assert not (tmp_path / "stray.nap").exists()
