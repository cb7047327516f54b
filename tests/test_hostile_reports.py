"""Hostile reports and handshakes (issue 27, defects 6 and 8).

A saved JSON report is believed only as far as its cases bear it out: a report whose counts,
tables or verdict are not its cases' (a forged or broken one: "-5 cases run", "ok" over a
failed case) is refused by every command that reads one (``napkit report merge``, ``diff``,
``html``, ``site``), naming the file and the JSON path, and shards of other versions of the
suite, the law book, napkit or the program are not merged (exit 2, nothing written).

A program's handshake is checked against the rulesets it names: an option or a choice they do
not have, no kind or no ruleset, is refused with its JSON path and the names it may have meant,
by ``napkit conform`` and ``napkit fuzz`` alike; and a run whose every case was skipped checked
nothing, and is not ok (spec/conformance.md 2.2).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import main
from napkit.conform.report.saved import check_report
from napkit.conform.report.text import report_document
from napkit.conform.suite.support import handshake_problems, known_rulesets

Capture = pytest.CaptureFixture[str]
JSONObject = dict[str, Any]
SUITE = Path(__file__).parent / "fixtures" / "conformance"
DECLARES = Path(__file__).parent / "fixtures" / "adapters" / "declares.py"
NAPKIT = [sys.executable, "-m", "napkit"]


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert all(c.isprintable() for c in err.strip()), err
    return err.strip()


def _recounted(document: JSONObject, **changes: Any) -> JSONObject:
    """``document`` with ``changes`` made and its counts made its cases' again: a report that
    agrees with itself (as a careful forger would write it)."""
    changed = {**copy.deepcopy(document), **changes}
    return report_document(
        program=changed["program"], suite=changed["suite"], selection=changed["selection"],
        shard=changed["shard"], elapsed=changed["elapsed"],
        selected=changed["totals"]["selected"], notes=changed["notes"],
        cases=changed["cases"], interrupted=changed["interrupted"],
        versions=changed["versions"], order=changed["order"])


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> JSONObject:
    """The JSON report of a run of the fixture suite (five cases, every one passed)."""
    path = tmp_path_factory.mktemp("saved") / "run.json"
    assert main(["conform", "--in-process", "-q", "--suite", str(SUITE), "--json",
                 str(path)]) == 0
    document: JSONObject = json.loads(path.read_text(encoding="utf-8"))
    return document


def _failed(document: JSONObject) -> JSONObject:
    """The report with its second case failed, its counts and verdict kept true."""
    cases = copy.deepcopy(document["cases"])
    cases[1].update(status="failed", message="outcome: forged")
    return _recounted(document, cases=cases)


# --- what napkit writes, it reads ----------------------------------------------------------------
def test_the_reports_napkit_writes_pass_the_check(saved: JSONObject) -> None:
    assert check_report(saved) is None
    assert check_report(_failed(saved)) is None
    interrupted = _recounted(saved, cases=saved["cases"][:2], interrupted=True)
    assert interrupted["ok"] is False and check_report(interrupted) is None
    skipped = [{**c, "status": "skipped", "message": "kind legal not supported"}
               for c in saved["cases"]]
    assert check_report(_recounted(saved, cases=skipped)) is None
    assert check_report(_recounted(saved, cases=[])) is None  # an empty shard's


def test_a_report_of_napkit_0_3_0_that_checked_nothing_is_still_read(saved: JSONObject) -> None:
    """napkit 0.3.0 and earlier wrote ``ok: true`` for a run whose every case was skipped
    (spec/CHANGELOG.md, issue 27): their reports are read; today's are refused."""
    skipped = [{**c, "status": "skipped", "message": "kind legal not supported"}
               for c in saved["cases"]]
    forged = {**_recounted(saved, cases=skipped), "ok": True}
    assert "nothing was checked" in (check_report(forged) or "")
    for old in ("0.3.0", "0.2.1", "0.1"):
        made = {**forged, "versions": {**forged["versions"], "napkit": old}}
        assert check_report(made) is None, old
    for newer in ("0.3.1", "0.4.0", "1.0.0", "0.3.0rc1x", "", None):
        made = {**forged, "versions": {**forged["versions"], "napkit": newer}}
        assert check_report(made) is not None, newer


# --- forged counts and verdicts -----------------------------------------------------------------
FORGERIES: list[tuple[str, Callable[[JSONObject], None], str]] = [
    ("negative cases", lambda d: d["totals"].update(cases=-5),
     "$.totals.cases: a count (a whole number from 0) was expected, not -5"),
    ("negative not run", lambda d: d["totals"].update(not_run=-1),
     "$.totals.not_run: a count (a whole number from 0) was expected, not -1"),
    ("more cases than listed", lambda d: d["totals"].update(cases=9),
     "$.totals.cases: 9, but the report lists 5 cases"),
    ("a failure left out of the totals", lambda d: d["totals"].update(failed=0, passed=5),
     "$.totals.passed: 5, but 4 of the report's cases are passed"),
    ("ok over a failed case", lambda d: d.update(ok=True),
     "$.ok: true, but $.cases[1] is failed"),
    ("ok over an interruption", lambda d: d.update(
        _recounted(d, interrupted=True, cases=d["cases"][:1], **{"ok": True}), ok=True),
     "$.ok: true, but the run was interrupted ($.interrupted)"),
    ("fewer selected than listed", lambda d: d["totals"].update(selected=2),
     "$.totals.selected: 2, fewer than the 5 cases listed"),
    ("a table by ruleset", lambda d: d["by_ruleset"]["pagat"].update(failed=0),
     "$.by_ruleset.pagat.failed: 0, but 1 of the report's cases are failed"),
    ("a table by rule", lambda d: d["by_rule"][next(iter(d["by_rule"]))].update(passed=99),
     "but"),
    ("a row left out", lambda d: d["by_ruleset"].pop("pagat"),
     '$.by_ruleset: no row for "pagat", which cases of the report have'),
    ("interrupted as text", lambda d: d.update(interrupted="no"),
     "$.interrupted: true or false was expected, not a string"),
    ("a negative duration", lambda d: d["cases"][0].update(duration=-1),
     "$.cases[0].duration: seconds (a number from 0) were expected, not -1"),
    ("a count that is no number", lambda d: d["totals"].update(failed="1\x1b[2J"),
     '$.totals.failed: a count (a whole number from 0) was expected, not "1\\u001b[2J"'),
]


@pytest.mark.parametrize(("change", "said"), [(c, s) for _, c, s in FORGERIES],
                         ids=[name for name, _, _ in FORGERIES])
def test_a_report_whose_counts_are_not_its_cases_is_refused(
        saved: JSONObject, change: Callable[[JSONObject], None], said: str) -> None:
    document = _failed(saved)
    change(document)
    problem = check_report(document)
    assert problem is not None and said in problem, problem


def _write(path: Path, document: JSONObject) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["html", "diff", "site", "merge"])
def test_every_reader_refuses_a_forged_report(command: str, saved: JSONObject, tmp_path: Path,
                                              capsys: Capture) -> None:
    """The report the issue drew as "-5 cases run" and "ok" over a failed case."""
    forged = _failed(saved)
    forged["ok"] = True
    forged["totals"]["cases"] = -5
    forged.update(selection=forged["selection"], shard={"index": 1, "count": 1})
    bad = _write(tmp_path / "forged.json", forged)
    good = _write(tmp_path / "good.json", saved)
    out = tmp_path / "out"
    argv = {"html": ["report", "html", str(bad), "-o", str(out)],
            "diff": ["report", "diff", str(good), str(bad)],
            "site": ["report", "site", str(good), str(bad), "-o", str(out)],
            "merge": ["report", "merge", str(bad), "-o", str(out)]}[command]
    status = main(argv)
    err = _one_line(capsys.readouterr().err)
    assert status == (2 if command == "merge" else 1), err
    assert f"{bad}: not a napkit conform JSON report: $.totals.cases: a count" in err
    assert not out.exists()  # nothing written


def test_html_of_a_true_report_is_drawn_with_its_verdict(saved: JSONObject, tmp_path: Path
                                                         ) -> None:
    page = tmp_path / "page.html"
    assert main(["report", "html", str(_write(tmp_path / "r.json", _failed(saved))), "-o",
                 str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert '<span class="verdict v-failed">FAILED</span>' in text
    assert '<span class="verdict v-ok">' not in text


# --- merging shards of other versions -----------------------------------------------------------
@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> list[JSONObject]:
    folder = tmp_path_factory.mktemp("shards")
    found = []
    for k in (1, 2):
        path = folder / f"shard-{k}.json"
        assert main(["conform", "--in-process", "-q", "--suite", str(SUITE), "--shard",
                     f"{k}/2", "--json", str(path)]) == 0
        found.append(json.loads(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize(("key", "words"), [
    ("suite", "suite version"), ("lawbook", "law book version"),
    ("napkit", "napkit version"), ("program", "program version")])
def test_merge_refuses_shards_of_other_versions(key: str, words: str, shards: list[JSONObject],
                                                tmp_path: Path, capsys: Capture) -> None:
    first = _write(tmp_path / "one.json", shards[0])
    other = copy.deepcopy(shards[1])
    was = other["versions"][key]
    other["versions"][key] = "9.9"
    second = _write(tmp_path / "two.json", other)
    out = tmp_path / "all.json"
    out.write_text("what was there\n", encoding="utf-8")
    assert main(["report", "merge", "-q", str(first), str(second), "-o", str(out)]) == 2
    err = _one_line(capsys.readouterr().err)
    shown = "none" if was is None else was
    assert err == (f"napkit report merge: {second}: {words} 9.9, but {first} has {words} "
                   f"{shown}: the shards of one run have the same versions"), err
    assert out.read_text(encoding="utf-8") == "what was there\n"  # nothing written
    # The same shards, of one version, merge.
    assert main(["report", "merge", "-q", str(first),
                 str(_write(tmp_path / "same.json", shards[1])), "-o", str(out)]) == 0
    merged = json.loads(out.read_text(encoding="utf-8"))
    assert merged["versions"] == shards[0]["versions"] and len(merged["cases"]) == 5


def test_a_version_from_a_file_is_printed_safely(shards: list[JSONObject], tmp_path: Path,
                                                capsys: Capture) -> None:
    other = copy.deepcopy(shards[1])
    other["versions"]["program"] = "1\x1b]0;owned\x07" + "x" * 500
    first = _write(tmp_path / "one.json", shards[0])
    second = _write(tmp_path / "two.json", other)
    assert main(["report", "merge", "-q", str(first), str(second)]) == 2
    err = _one_line(capsys.readouterr().err)
    assert "\\x1b]0;owned\\x07" in err and "characters)" in err and len(err) < 400


# --- the handshake, checked against the rulesets it names --------------------------------------
def test_handshake_problems_name_the_json_path_and_what_was_meant() -> None:
    known = known_rulesets()
    refused, notes = handshake_problems(
        {"kinds": ["legal"], "rulesets": {"pagat": {"options": {
            "pack": ["full", "reduce"], "twoo": "*", "mis": "n/a"}}, "pagatt": {}}}, known)
    assert refused == [
        "$.supports.rulesets.pagat.options.pack[1]: option pack of pagat has no choice "
        "'reduce' (did you mean 'reduced'?) (its choices: full, reduced)",
        "$.supports.rulesets.pagat.options.twoo: pagat has no option 'twoo' (did you mean "
        "'two'?) (its options: blucher, doubling, mis, mis-trumps, pack, packets, players, "
        "reduced-beyond-five, two)"]
    assert len(notes) == 1 and notes[0].startswith(
        "the program declares ruleset 'pagatt', which napkit does not know (did you mean "
        "'pagat' or ") and notes[0].endswith("none of its cases can run (a house ruleset is "
                                             "given with --ruleset-file FILE)")
    refused, _ = handshake_problems({"kinds": [], "rulesets": {}}, known)
    assert [p.split(":")[0] for p in refused] == ["$.supports.kinds", "$.supports.rulesets"]
    every = {"kinds": ["legal", "illegal", "outcome", "match"],
             "rulesets": {"pagat": {"options": {"pack": "*", "two": "default"}}}}
    assert handshake_problems(every, known) == ([], [])
    # A name from the program is printed safely, and shortened.
    refused, _ = handshake_problems(
        {"kinds": ["legal"], "rulesets": {"pagat": {"options": {"pack": ["\x1b[2J" * 300]}}}},
        known)
    assert "\\x1b[2J" in refused[0] and "\x1b" not in refused[0]
    assert "(1,200 characters)" in refused[0]
    # So is a declaration of forced passes, which is one of two words.
    refused, _ = handshake_problems({"kinds": ["legal"], "rulesets": {"pagat": {}},
                                     "forced_passes": "\x1b[2J" * 300}, known)
    assert refused[0].startswith("$.supports.forced_passes: no such declaration '\\x1b[2J")
    assert "\x1b" not in refused[0] and "(1,200 characters)" in refused[0]
    assert handshake_problems({"kinds": ["legal"], "rulesets": {"pagat": {}},
                               "forced_passes": "skipped"}, known) == ([], [])


def _conform(tmp_path: Path, supports: JSONObject, *args: str
             ) -> tuple[subprocess.CompletedProcess[str], JSONObject]:
    report = tmp_path / "run.json"
    run = subprocess.run([*NAPKIT, "conform", "--suite", str(SUITE), "--json", str(report),
                          *args, "--", sys.executable, str(DECLARES), json.dumps(supports)],
                         capture_output=True, text=True, check=False, timeout=300)
    assert "Traceback" not in run.stderr, run.stderr
    document = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    return run, document


@pytest.mark.parametrize(("supports", "said"), [
    ({"kinds": ["legal", "illegal", "outcome", "match"],
      "rulesets": {"pagat": {"options": {"pack": ["ful"]}}}},
     "hello: $.supports.rulesets.pagat.options.pack[0]: option pack of pagat has no choice "
     "'ful' (did you mean 'full'?)"),
    ({"kinds": ["legal", "illegal", "outcome", "match"],
      "rulesets": {"pagat": {"options": {"packk": "*"}}}},
     "hello: $.supports.rulesets.pagat.options.packk: pagat has no option 'packk' (did you "
     "mean 'pack' or 'packets'?)"),
    ({"kinds": [], "rulesets": {"pagat": {}}},
     "hello: $.supports.kinds: no kind of case declared"),
    ({"kinds": ["legal"], "rulesets": {"pagat": {}}, "forced_passes": "skiped"},
     "hello: $.supports.forced_passes: no such declaration 'skiped' (did you mean 'skipped'?) "
     "(it is asked or skipped)"),
], ids=["unknown-choice", "unknown-option", "no-kind", "forced-passes"])
def test_conform_refuses_a_handshake_the_rulesets_do_not_bear_out(
        supports: JSONObject, said: str, tmp_path: Path) -> None:
    run, report = _conform(tmp_path, supports)
    assert run.returncode == 1 and report == {}, run.stdout
    assert _one_line(run.stderr).startswith(
        f"napkit conform: the program's handshake is refused: {said}"), run.stderr
    assert "ok:" not in run.stdout


def test_a_run_whose_every_case_was_skipped_is_not_ok(tmp_path: Path) -> None:
    run, report = _conform(tmp_path, {"kinds": ["legal"], "rulesets": {"classic": {}}})
    assert run.returncode == 1
    assert "NOTHING CHECKED: 5 cases against declares 1: 0 passed, 0 failed, 5 skipped" in (
        run.stdout)
    assert "nothing was checked: the program's handshake declares none of the 5 cases" in (
        run.stderr)
    assert report["ok"] is False and report["totals"]["skipped"] == 5
    assert check_report(report) is None
    page = tmp_path / "page.html"
    assert main(["report", "html", str(tmp_path / "run.json"), "-o", str(page)]) == 0
    assert 'class="verdict v-failed">nothing checked<' in page.read_text(encoding="utf-8")
    # Some case checked: ok, the others skipped as before.
    run, report = _conform(tmp_path, {"kinds": ["legal", "outcome"],
                                      "rulesets": {"pagat": {}}})
    assert run.returncode == 0 and report["ok"] is True, run.stdout + run.stderr
    assert report["totals"]["passed"] == 2 and report["totals"]["skipped"] == 3


def test_an_option_declared_not_applicable_is_held_at_its_default(tmp_path: Path) -> None:
    from napkit.spec.catalog import default_rulesets

    options: dict[str, str] = {name: "*" for name in default_rulesets()["pagat"].options}
    report = tmp_path / "run.json"
    supports = {"kinds": ["outcome"], "rulesets": {"pagat": {"options": {**options,
                                                                         "mis": "n/a"}}}}
    run = subprocess.run([*NAPKIT, "conform", "--ruleset", "pagat", "--kind", "outcome",
                          "--json", str(report), "--", sys.executable, str(DECLARES),
                          json.dumps(supports)],
                         capture_output=True, text=True, check=False, timeout=300)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stdout + run.stderr
    document = json.loads(report.read_text(encoding="utf-8"))
    held = [c for c in document["cases"] if c["status"] == "skipped"]
    assert held and all(c["message"].startswith("option mis=") for c in held)
    assert f"{len(held)}  pagat: option mis n/a, held at its default" in run.stdout
    ran = [c for c in document["cases"] if c["status"] != "skipped"]
    assert len(ran) > len(held) > 0


def test_an_empty_shard_still_passes(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    assert main(["conform", "--in-process", "-q", "--suite", str(SUITE), "--shard", "7/9",
                 "--json", str(report)]) == 0
    assert json.loads(report.read_text(encoding="utf-8"))["ok"] is True


def test_fuzz_refuses_the_handshake_and_never_says_none(tmp_path: Path) -> None:
    supports = {"kinds": ["outcome"], "rulesets": {"classic": {"options": {"pack": ["53"]}}}}
    run = subprocess.run([*NAPKIT, "fuzz", "--hands", "3", "-o", str(tmp_path / "case.json"),
                          "--", sys.executable, str(DECLARES), json.dumps(supports)],
                         capture_output=True, text=True, check=False, timeout=300)
    assert run.returncode == 1 and "None" not in run.stdout + run.stderr
    assert _one_line(run.stderr) == (
        "napkit fuzz: the program's handshake is refused: hello: $.supports.rulesets.classic."
        "options.pack[0]: option pack of classic has no choice '53' (its choices: 52, 32, 28, "
        "24)")
    # A choice narrowed away by --option is said by its name, never as "pack=None".
    supports = {"kinds": ["outcome"], "rulesets": {"classic": {"options": {"pack": ["52"]}}}}
    run = subprocess.run([*NAPKIT, "fuzz", "--hands", "3", "--option", "pack=32", "-o",
                          str(tmp_path / "case.json"), "--", sys.executable, str(DECLARES),
                          json.dumps(supports)],
                         capture_output=True, text=True, check=False, timeout=300)
    assert run.returncode == 2 and "None" not in run.stdout + run.stderr
    assert "classic: not fuzzed: the program does not play pack=32" in run.stderr
