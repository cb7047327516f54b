"""``napkit rules ...`` through main(), on the fixture spec; and the installed script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from napkit.cli import main

from .conftest import FIXTURE_SOURCES, FIXTURE_SPEC, edit_text

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list(spec_dir: Path, capsys: Capture) -> None:
    code, out, err = run(capsys, "rules", "list")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["id", "source", "players", "extends", "title"]
    # Issue 30: the source by its name (the title, cut, where it has no short name).
    assert lines[1].startswith("little        Little Nap page       3-5")
    assert "little-widow  Little Nap page" in out
    assert any(line.startswith("other         Other Nap, another …  2-4") for line in lines)
    assert "_aaaaaaaaaaaaaaaa.txt" not in out and "_bbbbbbbbbbbbbbbb.txt" not in out
    assert all(len(line) <= 100 for line in lines)


def test_show(spec_dir: Path, capsys: Capture) -> None:
    code, out, err = run(capsys, "rules", "show", "little", "--option", "mis=on")
    assert (code, err) == (0, "")
    assert out.startswith("little  Little Nap\n")
    assert "NAP-1.2.1  Packets" in out
    assert 'sources: L4 ("[players and deal]")' in out
    assert "packets = [3, 2]" in out
    assert "players = 3-5" in out
    assert "bids[*].tricks: three=3, four=4, mis=0, nap=5, wellington=5" in out
    assert "players  Little Nap: six players? (NAP-1.1.1, DEC-001)" in out
    assert "    * three-to-five: Three to five players." in out
    assert "on: A misère may be bid, between four and nap. (chosen)" in out
    assert "  DEC-001  Little Nap: six players?" in out
    assert "  DEC-002  Little Nap: the unit" in out
    assert "NAP-1.1.3" not in out  # not in force in little
    assert all(len(line) <= 100 for line in out.splitlines())


def test_show_a_file_that_extends_a_spec_ruleset(spec_dir: Path, tmp_path: Path,
                                                 capsys: Capture) -> None:
    mine = tmp_path / "mine.json"
    mine.write_text('{"id": "mine", "title": "Mine", "source": "100_aaaaaaaaaaaaaaaa.txt", '
                    '"section": "all", "extends": "little", "summary": "Ours.", "rules": {}, '
                    '"params": {"packets": [1, 1, 1, 1, 1]}}')
    code, out, _ = run(capsys, "rules", "show", str(mine))
    assert code == 0
    assert "mine  Mine" in out
    assert "packets = [1, 1, 1, 1, 1]" in out
    code, out, _ = run(capsys, "rules", "check", str(mine))
    assert code == 0, out
    assert out.strip() == "1 ruleset file: no problems."


def test_rule(spec_dir: Path, capsys: Capture) -> None:
    code, out, err = run(capsys, "rules", "rule", "NAP-1.1.1")
    assert (code, err) == (0, "")
    assert out.startswith("NAP-1.1.1  Players\n")
    assert "section:  NAP-1.1 Players and pack" in out
    assert "IN FORCE IN 3 OF 3 RULESETS" in out
    assert 'L2 ("[players and deal]"); DEC-001 (Little Nap: six players?)' in out
    assert 'L2 ("OTHER NAP")' in out
    assert "players = 2-4" in out


def test_unknown_rule_suggests_close_ids(spec_dir: Path, capsys: Capture) -> None:
    code, out, err = run(capsys, "rules", "rule", "NAP-1.1.4")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith("napkit: the law book has no rule 'NAP-1.1.4' (did you mean ")
    assert "NAP-1.1.3" in err


def test_compare_with_itself(spec_dir: Path, capsys: Capture) -> None:
    code, out, err = run(capsys, "rules", "compare", "little", "little")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "no differences."


def test_compare_two(spec_dir: Path, capsys: Capture) -> None:
    code, out, err = run(capsys, "rules", "compare", "little", "little-widow")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("little        Little Nap (Little Nap page; ")
    assert "NAP-1.1.3  The widow" in lines
    assert "NAP-2.1.2  Tricks, trumps and lead" in lines
    assert "  bids[nap].lead" in lines
    assert "    little      : any" in lines
    assert "    little-widow: lowest-trump" in lines
    assert lines[-1] == "6 differences in 4 rules."


def test_compare_with_options(spec_dir: Path, capsys: Capture) -> None:
    code, out, _ = run(capsys, "rules", "compare", "little", "little", "--option-b", "mis=on")
    assert code == 0
    assert "  bids[mis]" in out
    assert out.splitlines()[-1] == "1 difference in 1 rule."


def test_decisions(spec_dir: Path, capsys: Capture) -> None:
    code, out, _ = run(capsys, "rules", "decisions")
    assert code == 0
    assert out.splitlines()[1].startswith(
        "DEC-001  ambiguous  Little Nap p…  NAP-1.1.1  three-to-five")  # the name, cut
    code, out, _ = run(capsys, "rules", "decisions", "DEC-001")
    assert code == 0
    assert ("source:   Little Nap page [100_aaaaaaaaaaaaaaaa.txt] (\"Little Nap, an invented "
            "source\")") in out
    assert 'lines:    L2 ("[players and deal]")' in out
    assert "    * three-to-five: Three to five players." in out
    assert "offered by: little (option players), little-widow (option players)" in out


def test_check_the_spec(spec_dir: Path, capsys: Capture) -> None:
    code, out, _ = run(capsys, "rules", "check")
    assert code == 0
    assert out == "the spec (3 rulesets, 9 rules, 3 decisions): no problems.\n"


def test_check_reports_problems_one_a_line(spec_dir: Path, capsys: Capture) -> None:
    edit_text(spec_dir / "rulesets/other.json", '"lowest_rank": "7"', '"lowest_rank": "Q"')
    code, out, _ = run(capsys, "rules", "check")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("spec/rulesets/other.json: $.params.pack[0].lowest_rank: ")
    assert lines[-1] == "2 problems in the spec (3 rulesets, 9 rules, 3 decisions)."


def test_check_files(spec_dir: Path, tmp_path: Path, capsys: Capture) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text((FIXTURE_SPEC / "rulesets/other.json").read_text()
                   .replace('"L5"', '"L50"').replace('"packets": [1, 1, 1, 1, 1]',
                                                     '"packets": [1, 1, 9]'))
    good = FIXTURE_SPEC / "rulesets/other.json"
    code, out, _ = run(capsys, "rules", "check", str(bad), str(good))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{bad}: $.params.packets[2]: 9 is greater than the maximum of 5"
    assert lines[-1] == "1 problem in 2 ruleset files."
    bad.write_text((FIXTURE_SPEC / "rulesets/other.json").read_text().replace('"L5"', '"L50"'))
    code, out, _ = run(capsys, "rules", "check", str(bad))
    assert code == 1
    assert out.splitlines()[0].startswith(f'{bad}: $.rules["NAP-2.1.4"][0]: ')


def test_unknown_ruleset(spec_dir: Path, capsys: Capture) -> None:
    code, out, err = run(capsys, "rules", "show", "litle")
    assert (code, out) == (2, "")
    assert err == ("napkit: no ruleset 'litle' (did you mean little?); the rulesets are little, "
                   "little-widow, other\n")


@pytest.mark.parametrize(("argv", "message"), [
    (["rules", "show", "little", "--option", "mis"], "--option takes NAME=CHOICE, not 'mis'"),
    (["rules", "show", "little", "--option", "mis=maybe"],
     "option mis has no choice 'maybe' (choices: off, on)"),
    (["rules", "compare", "little", "other", "--option-b", "mis=on"],
     "other has no option 'mis' (its options: none)"),
    (["rules", "decisions", "DEC-009"], "the register has no decision 'DEC-009'"),
    (["rules", "nonsense"], "argument ACTION: invalid choice"),
    (["rules", "show"], "the following arguments are required: RULESET"),
])
def test_bad_usage_is_one_line_exit_2(spec_dir: Path, capsys: Capture, argv: list[str],
                                      message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"napkit: {message}")


def test_malformed_file_is_one_line_with_its_path(spec_dir: Path, tmp_path: Path,
                                                  capsys: Capture) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text((FIXTURE_SPEC / "rulesets/other.json").read_text()
                   .replace('"tricks": 3', '"tricks": "three"'))
    code, out, err = run(capsys, "rules", "show", str(bad))
    assert (code, out) == (1, "")
    assert err == f'napkit: {bad}: $.params.bids[0].tricks: "three" is not of type "integer"\n'
    syntax = tmp_path / "syntax.json"
    syntax.write_text("{\n  oops\n}")
    code, out, err = run(capsys, "rules", "compare", "little", str(syntax))
    assert code == 1
    assert err.startswith(f"napkit: {syntax}: line 2, column 3: not JSON: ")
    assert err.count("\n") == 1


def test_missing_file(spec_dir: Path, capsys: Capture) -> None:
    code, _, err = run(capsys, "rules", "show", "./nope.json")
    assert code == 1
    assert err == "napkit: ./nope.json: $: file not found\n"


def test_broken_spec_is_one_line(spec_dir: Path, capsys: Capture) -> None:
    edit_text(spec_dir / "decisions.toml", 'id = "DEC-001"', 'id = DEC-001')
    code, out, err = run(capsys, "rules", "list")
    assert (code, out) == (1, "")
    assert err.startswith("napkit: spec/decisions.toml: line 2, column 6: not TOML: ")
    assert err.count("\n") == 1
    code, out, _ = run(capsys, "rules", "check")
    assert code == 1
    assert out.startswith("spec/decisions.toml: line 2, column 6: not TOML: ")


def test_missing_spec_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: Capture) -> None:
    monkeypatch.setenv("NAPKIT_SPEC", str(tmp_path / "nowhere"))
    code, _, err = run(capsys, "rules", "list")
    assert code == 1
    assert err.count("\n") == 1
    assert "NAPKIT_SPEC names not a directory" in err


def test_help_exits_0(capsys: Capture) -> None:
    assert main(["rules", "--help"]) == 0
    assert "compare" in capsys.readouterr().out


def test_installed_script_reports_a_malformed_file_on_one_line(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "napkit"
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "bad", "rules": [}')
    env = {**os.environ, "NAPKIT_SPEC": str(FIXTURE_SPEC), "NAPKIT_SOURCES": str(FIXTURE_SOURCES)}
    for args in (["rules", "show", str(bad)], ["rules", "check", str(bad)]):
        result = subprocess.run([str(script), *args], capture_output=True, text=True, env=env,
                                check=False)
        assert result.returncode == 1
        assert "Traceback" not in result.stderr + result.stdout
    shown = subprocess.run([str(script), "rules", "show", str(bad)], capture_output=True,
                           text=True, env=env, check=False)
    assert shown.stderr.count("\n") == 1
    assert shown.stderr.startswith(f"napkit: {bad}: line 1, column 25: not JSON: ")


def test_python_dash_m(tmp_path: Path) -> None:
    env = {**os.environ, "NAPKIT_SPEC": str(FIXTURE_SPEC)}
    result = subprocess.run([sys.executable, "-m", "napkit", "rules", "compare", "little",
                             "little"], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "no differences."
