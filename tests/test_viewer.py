"""The hand viewer (issue 30, "Look, don't read"): a hand as a table a player steps through,
each ruleset's verdict beside it, from ``napkit replay HAND --html FILE`` and on the rules
site (napkit.dispute.viewer, napkit/output/templates/viewer.*)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from napkit import load_spec
from napkit.cli import main
from napkit.dispute.replay import Target, replay_under, target, targets
from napkit.dispute.viewer import hand_view, verdict_view, viewer_page
from napkit.formats.handtext import read_hand_file
from napkit.spec.house import load_house_ruleset

from tests.browser import dump_dom, external_references
from tests.test_page_injection import MARK, PAYLOADS, RAW, _house_file

ROOT = Path(__file__).resolve().parents[1]
REVOKE = ROOT / "tests" / "fixtures" / "handtext" / "irregular" / "revoke.nap"
DATA = re.compile(r'<script type="application/json" id="hand-data">(.*?)</script>', re.S)


def _revoke() -> dict[str, Any]:
    return read_hand_file(REVOKE, check=False, irregular=True)


def _view(record: dict[str, Any], *under: str, title: str = "") -> dict[str, Any]:
    spec = load_spec()
    return hand_view(spec, record, [replay_under(record, t) for t in targets(spec, list(under))],
                     title=title)


def test_the_positions_follow_the_hand_and_the_trick_winners_are_the_engines() -> None:
    record = _revoke()
    view = _view(record, "classic", "napoleon")
    steps, positions = view["steps"], view["positions"]
    assert len(positions) == len(steps) + 1 == 25
    assert [len(h) for h in positions[0]] == [5, 5, 5, 5]
    assert [len(h) for h in positions[-1]] == [0, 0, 0, 0]
    # Step 6 is seat 2's revoke (3H while holding 10S): the card leaves its hand all the same.
    assert steps[5] == {"seat": 2, "who": "S2", "words": "play 3H", "card": "3H"}
    assert "3H" in positions[5][2] and "3H" not in positions[6][2] and "10S" in positions[6][2]
    assert positions[0][1] == ["AS", "KS", "QS", "JS", "2H"]  # spades to clubs, high first
    # Five tricks of four plays; each winner as the classic engine ruled it, played on.
    assert view["tricks"][0]["steps"] == [5, 6, 7, 8]
    assert [t["winner"] for t in view["tricks"]] == [1, 1, 1, 1, 2]
    assert view["declarer"] == 1


def test_the_widow_is_on_the_table_until_it_is_taken() -> None:
    from napkit import Game
    from napkit.formats.recording import record_text, table_hands

    record = json.loads(record_text(list(table_hands(Game.create("peep", 4), seed=8, hands=1))))
    view = _view(record, "peep")
    taken = next(n for n, s in enumerate(view["steps"], 1) if s["words"] == "take the widow")
    assert view["widows"][0] is not None and view["widows"][taken - 1] == view["widows"][0]
    assert view["widows"][taken] is None and view["widows"][0] in view["positions"][taken][
        view["steps"][taken - 1]["seat"]]


def test_a_verdict_shows_its_refusal_and_what_it_settles() -> None:
    record = _revoke()
    view = _view(record, "classic", "pub-floater")
    classic, floater = view["verdicts"]
    assert classic["refused"][0] == {"step": 6, "seat": "S2", "action": "play 3H",
                                     "rule": "NAP-8.1.1",
                                     "message": classic["refused"][0]["message"]}
    assert "10 of spades" in classic["refused"][0]["message"]
    assert classic["settled"] and classic["contract"] == "S1 three"
    assert view["seats"] == [0, 1, 2, 3] and classic["net"] == ["-3", "+9", "-3", "-3"]
    assert floater["setup"]["rule"] == "NAP-2.2.1" and floater["net"] == ["-"] * 4
    # Each rule cited once, in the law book's order, with where each ruleset finds it.
    ids = [r["id"] for r in view["rules"]]
    assert ids == sorted(set(ids), key=load_spec().lawbook.order)
    assert {"NAP-2.2.1", "NAP-8.1.1"} <= set(ids)
    revoke = next(r for r in view["rules"] if r["id"] == "NAP-8.1.1")
    assert revoke["text"] and revoke["cites"][0].startswith("classic: ")


def test_the_verdict_is_read_in_one_place_and_takes_later_refusals() -> None:
    # verdict_view reads `later` and `assumed` where a Verdict has them (issue 30's replay).
    record = _revoke()
    spec = load_spec()
    verdict = replay_under(record, target(spec, "classic"))
    seats = record["seats"]
    assert [p["step"] for p in verdict_view(verdict, seats)["refused"]] == (
        [verdict.parting.step] + [p.step for p in getattr(verdict, "later", ())]
        if verdict.parting else [])


def test_the_page_carries_the_data_as_json_and_inlines_its_script() -> None:
    view = _view(_revoke(), "classic")
    page = viewer_page(view)
    found = DATA.search(page)
    assert found is not None
    assert json.loads(found.group(1)) == view
    assert external_references(page) == []
    assert page.count("<script") == 2 and "<style>" in page
    shared = viewer_page(view, shared="../_static/napkit-viewer/", back="../examples.html")
    assert '<script src="../_static/napkit-viewer/viewer.js">' in shared
    assert "<style>" not in shared


@pytest.mark.parametrize("kind", sorted(PAYLOADS))
def test_no_string_of_a_hand_breaks_out_of_the_page(kind: str, tmp_path: Path) -> None:
    payload = PAYLOADS[kind]
    record = _revoke()
    spec = load_spec()
    house = load_house_ruleset(_house_file(tmp_path, payload))
    verdicts = [replay_under(record, Target(house, {})), replay_under(record,
                                                                      target(spec, "classic"))]
    view = hand_view(spec, record, verdicts, title=payload * 3)
    assert view["title"].endswith("…") and len(view["title"]) <= 80  # outside text: shortened
    assert payload.startswith(view["verdicts"][0]["title"].removesuffix("…"))
    page = viewer_page(view)
    assert payload not in page and RAW.search(page) is None
    assert page.count("<script") == 2
    assert "\\u003c/script\\u003e" in page or "&#34;&gt;" in page or "\\u003e" in page


def _poisoned_page(payload: str, folder: Path) -> str:
    record = _revoke()
    spec = load_spec()
    house = load_house_ruleset(_house_file(folder, payload))
    verdicts = [replay_under(record, Target(house, {})), replay_under(record,
                                                                      target(spec, "classic"))]
    return viewer_page(hand_view(spec, record, verdicts, title=payload))


@pytest.mark.slow  # headless Chromium
def test_no_string_of_a_hand_runs_in_chromium(tmp_path: Path) -> None:
    for kind, payload in sorted(PAYLOADS.items()):
        page = tmp_path / f"{kind}.html"
        page.write_text(_poisoned_page(payload, tmp_path), encoding="utf-8")
        dom = dump_dom(page.as_uri() + "#step=6", tmp_path / f"profile-{kind}")
        assert MARK not in dom, kind
        assert 'data-verdict="refused"' in dom, kind  # the page's own script ran
    # The control: the same payload let through as markup is seen to run.
    planted = tmp_path / "planted.html"
    planted.write_text(_poisoned_page("x", tmp_path).replace(
        "</main>", PAYLOADS["img"] + "</main>"), encoding="utf-8")
    assert MARK in dump_dom(planted.as_uri(), tmp_path / "profile-planted")


# --- napkit replay --html ------------------------------------------------------------------------
def test_replay_writes_the_page_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "dispute.html"
    out.write_text("the old page", encoding="utf-8")
    assert main(["replay", str(REVOKE), "--under", "classic", "--brief", "--html",
                 str(out)]) == 1  # the hand is not legal under classic
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "NAP-8.1.1" in page
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left beside it


@pytest.mark.parametrize(("where", "says"), [
    ("missing/dispute.html", "cannot write the page: No such file or directory"),
    (".", "cannot write the page: Is a directory"),
    ("-", "give the page a file of its own"),
    (str(REVOKE), "would overwrite the hand"),
])
def test_a_bad_html_path_is_one_line(where: str, says: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    before = REVOKE.read_text(encoding="utf-8")
    assert main(["replay", str(REVOKE), "--brief", "--html", where]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and err.startswith("napkit: --html ")
    assert REVOKE.read_text(encoding="utf-8") == before
    assert list(tmp_path.iterdir()) == []


# --- in Chromium ---------------------------------------------------------------------------------
def _steps_shown(dom: str) -> dict[str, Any]:
    step = re.search(r'id="viewer" data-step="(\d+)"', dom)
    cards = dict(re.findall(r'data-seat="(\d+)" data-cards="(\d+)"', dom))
    verdicts = dict(re.findall(r'data-ruleset="([^"]+)" data-verdict="([^"]+)"', dom))
    trick = re.search(r'data-trick-cards="(\d+)"', dom)
    return {"step": int(step.group(1)) if step else None, "cards": cards, "verdicts": verdicts,
            "trick": int(trick.group(1)) if trick else None}


@pytest.mark.slow  # headless Chromium
def test_the_viewer_steps_in_chromium(tmp_path: Path) -> None:
    page = tmp_path / "dispute.html"
    assert main(["replay", str(REVOKE), "--under", "classic", "--under", "pub-floater",
                 "--brief", "--html", str(page)]) == 1
    text = page.read_text(encoding="utf-8")
    at_start = _steps_shown(dump_dom(page.as_uri(), tmp_path / "p0"))
    assert at_start == {"step": 0, "cards": {"0": "5", "1": "5", "2": "5", "3": "5"},
                        "verdicts": {"classic": "legal", "pub-floater": "cannot"}, "trick": 0}
    # #step=N opens the hand at step N: the revoke (step 6) is on the table and refused.
    middle = _steps_shown(dump_dom(page.as_uri() + "#step=6", tmp_path / "p1"))
    assert middle["step"] == 6 and middle["cards"]["2"] == "4" and middle["trick"] == 2
    assert middle["verdicts"]["classic"] == "refused"
    # The keys: seven presses of the right arrow and one of the left reach the same position;
    # End the last step.
    keys = ("<script>" + "".join(
        f"document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{key}'}}));"
        for key in ["ArrowRight"] * 7 + ["ArrowLeft"]) + "</script></body>")
    pressed = tmp_path / "pressed.html"
    pressed.write_text(text.replace("</body>", keys), encoding="utf-8")
    assert _steps_shown(dump_dom(pressed.as_uri(), tmp_path / "p2")) == middle
    ended = tmp_path / "ended.html"
    ended.write_text(text.replace("</body>", keys.replace("ArrowLeft", "End")), encoding="utf-8")
    dom = dump_dom(ended.as_uri(), tmp_path / "p3")
    assert _steps_shown(dom)["step"] == 24 and "settles: S1 three, made (4)" in dom
    assert MARK not in dom
