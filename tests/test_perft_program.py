"""The perft request of the adapter protocol (spec/conformance.md 5.3) and ``napkit perft
--program``, which asks a program for the published counts and, where one differs, follows the
difference down to the legal actions at fault.

* napkit's adapter declares ``supports.perft`` and answers ``perft`` (with and without divide)
  as :func:`napkit.conform.perft.count.perft` counts, leaves play where it was, and refuses a bad
  request naming its field; every answer is what adapter.schema.json allows.
* Against napkit's own adapter every count agrees. Against a mutant that lets a player revoke,
  the run fails and names a node and cards that the engine, replaying the named path, finds
  held and not legal there; against one that forces a trump, cards that are legal and missing.
* A program that does not declare ``supports.perft`` is never asked (one line, exit 1), and
  a position of a game the program does not declare is skipped.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from napkit.cli import main
from napkit.conform.perft.count import Position, State, action_text, perft, published
from napkit.engine.cards import parse_card
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.formats.notation import parse_action
from napkit.formats.values import action_to_json
from napkit.protocol.adapter import Adapter
from napkit.protocol.process import response_problem
from napkit.spec.catalog import default_spec

ROOT = Path(__file__).resolve().parent.parent
MUTANT = [sys.executable, str(ROOT / "conformance" / "mutants" / "adapter.py")]


def serve(adapter: Adapter, request: dict[str, Any]) -> dict[str, Any]:
    answer = adapter.handle({"id": 1, **request})
    assert response_problem(answer) is None, answer
    return answer


def at(position: Position) -> Adapter:
    adapter = Adapter()
    assert serve(adapter, dict(position.start))["type"] == "ok"
    for step in position.steps:
        assert serve(adapter, {"type": "apply", **step})["type"] == "accepted"
    return adapter


def test_the_reference_adapter_declares_and_answers_perft() -> None:
    adapter = Adapter()
    hello = adapter.handle({"id": 0, "type": "hello", "protocol": "napkit-adapter/1"})
    assert hello["supports"]["perft"] is True and response_problem(hello) is None
    position = published(["peep/default-4p-naming"])[0]
    adapter = at(position)
    state = position.state()
    legal = serve(adapter, {"type": "legal"})
    for depth in (0, 1, 3):
        answer = serve(adapter, {"type": "perft", "depth": depth, "divide": False})
        assert answer == {"id": 1, "type": "perft", "count": perft(state, depth)}
    answer = serve(adapter, {"type": "perft", "depth": 3, "divide": True})
    assert answer["count"] == sum(p["count"] for p in answer["divide"]) == perft(state, 3)
    engine = {json.dumps(action_to_json(a), sort_keys=True): perft(state.apply(a), 2)
              for a in state.legal_actions()}
    assert {json.dumps(p["action"], sort_keys=True): p["count"]
            for p in answer["divide"]} == engine
    assert len(answer["divide"]) == len(engine) > 1
    assert serve(adapter, {"type": "legal"}) == legal  # play stays where it was


def test_a_bad_perft_request_is_refused_naming_its_field() -> None:
    adapter = at(published(["classic/default-3p-deal"])[0])
    for request, path in (({"depth": -1, "divide": False}, "$.depth"),
                          ({"depth": 2, "divide": 1}, "$.divide"),
                          ({"depth": 2}, "$: missing field 'divide'"),
                          ({"depth": 2, "divide": False, "more": 1}, "$.more")):
        answer = adapter.handle({"id": 4, "type": "perft", **request})
        assert answer["type"] == "error" and answer["message"].startswith(path), answer


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["perft", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_every_count_of_the_reference_adapter_agrees(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["pagat-aylesbury", "--program"], capsys)
    assert status == 0, err
    positions = published(["pagat-aylesbury"])
    asked = sum(1 for p in positions for c in p.counts if not c.slow)
    assert out.splitlines()[-1].startswith(f"{asked} counts asked of {len(positions)} "
                                           "positions: all agree")


FINDING = re.compile(r"after (.+?): seat (\d+) to act \(play\): (.*)")


def replay(position: Position, path: str) -> State:
    state = position.state()
    for text in path.split(", "):
        state = state.apply(parse_action(text))
    return state


def hand_of(state: State) -> HandState:
    hand = state.hand if isinstance(state, MatchState) else state
    assert hand is not None
    return hand


def findings(out: str) -> list[tuple[Position, State, str]]:
    """Each difference the run names: its position, the engine's state at the node it names,
    and what it says of the program's legal actions there."""
    lines = out.splitlines()
    found = []
    for line, below in itertools.pairwise(lines):
        if "DIFFERS at depth" in line:
            match = FINDING.search(below)
            assert match is not None, below
            position = published([line.split()[0]])[0]
            state = replay(position, match.group(1))
            assert state.turn == int(match.group(2))
            found.append((position, state, match.group(3)))
    return found


def test_a_revoke_is_found_down_to_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["classic/*-lead", "classic/*-trick-2", "--program", *MUTANT,
                          "revoke-allowed"], capsys)
    assert status == 1
    found = findings(out)
    assert len(found) >= 4
    for _, state, says in found:
        extra = says.removeprefix("the program lists ").removesuffix(
            ", which the rules do not allow").split(", ")
        legal = {action_text(a) for a in state.legal_actions()}
        for card in extra:
            assert card not in legal
            assert hand_of(state).hands[state.turn] >> parse_card(card) & 1  # a revoke


def test_a_forced_trump_is_found_as_missing_cards(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["classic", "--program", *MUTANT, "must-trump-when-void"], capsys)
    assert status == 1
    found = findings(out)
    assert found
    for _, state, says in found:
        assert says.startswith("it does not list "), says
        missing = says.removeprefix("it does not list ").removesuffix(
            ", which they allow").split(", ")
        legal = {action_text(a) for a in state.legal_actions()}
        assert set(missing) <= legal and hand_of(state).trick  # void, not trumping


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_program_without_perft_is_never_asked(capsys: pytest.CaptureFixture[str]) -> None:
    js = str(ROOT / "conformance" / "adapters" / "js-classic" / "adapter.js")
    status, out, err = run(["classic", "--program", "node", js], capsys)
    assert status == 1 and out == ""
    assert err.strip() == ("napkit: js-classic does not declare supports.perft: it answers no "
                           "perft request (spec/conformance.md 5.3)")


def test_a_game_the_program_does_not_declare_is_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "classic_only.py"
    script.write_text(
        "import sys\nfrom napkit.protocol.adapter import Adapter, _encode\n"
        "adapter = Adapter()\n"
        "for line in sys.stdin:\n"
        "    answer = adapter.handle_line(line)\n"
        "    if b'\"hello\"' in answer[:40]:\n"
        "        import json\n"
        "        hello = json.loads(answer)\n"
        "        hello['supports']['rulesets'] = {'classic': {'players': [3]}}\n"
        "        answer = _encode(hello)\n"
        "    sys.stdout.buffer.write(answer)\n"
        "    sys.stdout.flush()\n"
        "    if adapter.done:\n"
        "        break\n", encoding="utf-8")
    status, out, err = run(["classic", "peep/*-deal", "--program", sys.executable, str(script)],
                           capsys)
    assert status == 0, err
    rows = {line.split()[0]: line for line in out.splitlines()[2:-1]}
    defaults = {n: o.default for n, o in default_spec().rulesets["classic"].options.items()}
    ran = 0
    for position in published(["classic", "peep/*-deal"]):
        row = rows[position.id]
        if position.ruleset == "peep":
            assert row.endswith("skipped: ruleset peep not supported"), row
        elif position.players != 3:
            assert row.endswith(f"skipped: {position.players} players not supported in "
                                "classic"), row
        elif position.options != defaults:
            assert "not supported (only its default)" in row, row
        else:
            assert row.endswith("  ok"), row
            ran += 1
    assert ran >= 3
    assert "positions skipped" in out.splitlines()[-1]


def test_a_program_that_takes_its_forced_passes_is_not_asked_for_perft(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Its play has no step for a forced pass, the law book's tree has: its counts would be
    of another tree (spec/conformance.md 5.3). Skipped, saying why, never failed or passed."""
    from napkit.conform.perft.check import skip

    [position] = list(published(["classic/default-3p-deal"]))
    supports = Adapter().handle({"id": 0, "type": "hello",
                                 "protocol": "napkit-adapter/1"})["supports"]
    assert supports["perft"] is True and skip(position, supports) is None
    said = skip(position, {**supports, "forced_passes": "skipped"})
    assert said is not None and "forced passes" in said
    fixture = Path(__file__).parent / "fixtures" / "adapters" / "skips_forced.py"
    status, out, _ = run(["classic/default-3p-deal", "--program", sys.executable,
                            str(fixture)], capsys)
    assert "skipped: the program takes forced passes itself" in out, out
    assert status == 1 and out.splitlines()[-1].startswith(  # it checked nothing
        "0 counts asked of 0 positions: NOTHING CHECKED; 1 position skipped"), out
