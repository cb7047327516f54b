"""napkit replay and napkit explain (issue 16): a hand that was played, replayed under every
ruleset and explained step by step. The expectations of the worked hand are derived by hand
from the sources (cited beside each), not taken from the engine."""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from napkit import Game, load_spec
from napkit.cli import main
from napkit.cli.interrupt import _on_sigint, count
from napkit.dispute.explain import locate, rule_on
from napkit.dispute.replay import Target, replay_under, targets
from napkit.formats.handtext import read_hand_text
from napkit.formats.recording import record_text
from napkit.players.playout import play_out

SPEC = load_spec()
IRREGULAR = Path(__file__).parent / "fixtures" / "handtext" / "irregular"

# The worked hand, typed in the hand notation as a player would: four players, seat 0 deals;
# seat 1 holds the five top spades and bids Three; the others pass; seat 1 leads spades five
# times and nobody else has one.
WORKED = """\
ruleset: classic
players: 4
dealer: 0
seat 1: AS KS QS JS 10S
seat 2: 2H 3H 4H 5H 6H
seat 3: 2D 3D 4D 5D 6D
seat 0: 2C 3C 4C 5C 6C
auction: 1 bid three, 2 pass, 3 pass, 0 pass
play: 1 AS, 2 2H, 3 2D, 0 2C
  1 KS, 2 3H, 3 3D, 0 3C
  1 QS, 2 4H, 3 4D, 0 4C
  1 JS, 2 5H, 3 5D, 0 5C
  1 10S, 2 6H, 3 6D, 0 6C
"""
HANDS = {1: "AS KS QS JS 10S", 2: "2H 3H 4H 5H 6H", 3: "2D 3D 4D 5D 6D", 0: "2C 3C 4C 5C 6C"}


def worked_hand() -> dict[str, Any]:
    """The worked hand's record, read from the notation."""
    return read_hand_text(WORKED, "worked.nap")


def test_the_worked_hand_under_every_ruleset_as_worked_by_hand() -> None:
    verdicts = {v.target.ruleset.id: v
                for v in (replay_under(worked_hand(), t) for t in targets(SPEC, ["all"]))}
    assert len(verdicts) == 10

    def nets(ruleset: str) -> list[int]:
        state = verdicts[ruleset].state
        assert verdicts[ruleset].finished and state is not None and state.result is not None
        assert state.result.made and state.result.tricks == 5
        return list(state.result.net)

    # classic (000_...txt L43): "for bids of 3, three stakes are paid", by each opponent
    # (DEC-006): seat 1 wins 3 from each of three.
    assert nets("classic") == [-3, 9, -3, -3]
    # pagat (004_...txt L42-47): each other player pays the bidder 3 units for Three.
    assert nets("pagat") == [-3, 9, -3, -3]
    # napoleon (002_...txt L15-20): a made trick bid wins the single stake from each player.
    assert nets("napoleon") == [-1, 3, -1, -1]
    # peep (001_...txt L22): "the highest bidder determines trump" and may exchange with the
    # widow, before the first lead; the hand has neither step: the widow is left and trumps
    # are the suit of the first card led (spades), both said, and seat 1 wins 3 from each
    # (001_...txt L33).
    assert [a.words for a in verdicts["peep"].assumed] == [
        "S1 left the widow (default)", "trumps spades (first card led)"]
    assert nets("peep") == [-3, 9, -3, -3]
    # pagat-purchase (004_...txt L60): the purchase comes before the bidding: nobody bought.
    assert [a.words for a in verdicts["pagat-purchase"].assumed] == ["no purchase"]
    assert nets("pagat-purchase") == [-3, 9, -3, -3]
    # Without the steps filled, each refuses the first step the hand lacks, and stops there:
    # peep seat 1's lead (step 5) under the exchange rule, pagat-purchase seat 1's bid.
    record = worked_hand()
    peep = replay_under(record, verdicts["peep"].target, fill=False)
    assert peep.parting is not None and peep.stopped is not None
    assert (peep.parting.step, peep.parting.seat, peep.parting.rule) == (5, 1, "NAP-6.3.1")
    purchase = replay_under(record, verdicts["pagat-purchase"].target, fill=False).parting
    assert purchase is not None and (purchase.step, purchase.rule) == (1, "NAP-6.2.1")
    # the floater games (004_...txt L66-72): four players use 24 cards, ace to nine, so
    # the twos to sixes these hands hold are not in the pack.
    for floater in ("pagat-floater", "pagat-aylesbury", "pagat-dorset", "pagat-teesside"):
        setup = verdicts[floater].setup
        assert setup is not None and setup.rule == "NAP-2.2.1", floater


def test_replay_prints_one_table_a_column_per_ruleset(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    hand = tmp_path / "hand.nap"
    hand.write_text(WORKED, encoding="utf-8")
    assert main(["replay", str(hand), "--under", "classic", "--under", "napoleon",
                 "--under", "pagat-floater"]) == 1  # not legal under pagat-floater
    out = capsys.readouterr().out
    head = next(line for line in out.splitlines() if line.split()[:1] == ["classic"])
    assert head.split() == ["classic", "napoleon", "pagat-floater"]
    net = next(line for line in out.splitlines() if line.startswith("S1 net"))
    assert net.split()[2:4] == ["+9", "+3"]
    trumps = next(line for line in out.splitlines() if line.startswith("trumps"))
    assert trumps.split()[1:5] == ["spades:", "led", "spades:", "led"]
    assert ("legal only under classic, napoleon; not under pagat-floater (NAP-2.2.1)"
            in " ".join(out.split()))
    assert "S2, S3, S0 each pay S1 3 (NAP-9.1.1)" in out
    main(["replay", str(hand), "--under", "peep", "--long"])
    out = capsys.readouterr().out
    assert "Peep Nap page [001_311e7c0f07a8af84.txt] L33:" in out  # the payment's line, quoted
    assert "assumed: trumps spades (first card led)" in out


def test_replay_json_and_option_choices(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        ) -> None:
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(worked_hand()), encoding="utf-8")
    assert main(["replay", str(hand), "--json", "--under", "pagat:doubling=won",
                 "--under", "pagat"]) == 0
    report = json.loads(capsys.readouterr().out)
    won, plain = report["rulesets"]
    assert won["options"] == {"doubling": "won"} and won["legal"]
    # Three is not doubled (doubling concerns Nap and above: 004_...txt L58).
    assert won["settlement"]["net"] == plain["settlement"]["net"] == [-3, 9, -3, -3]


def test_a_bid_the_ruleset_lacks_is_read_as_its_bid_of_as_many_tricks() -> None:
    record = worked_hand()
    record["actions"][0]["action"] = {"type": "bid", "bid": "nap"}
    verdict = replay_under(record, Target(SPEC.rulesets["napoleon"], {}))
    assert verdict.readings == ("step 1: bid nap read as napoleon",)
    assert verdict.finished and verdict.state is not None and verdict.state.result is not None
    # A made Napoleon wins double the stake from each player (002_...txt L15-20).
    assert list(verdict.state.result.net) == [-2, 6, -2, -2]


def test_a_partial_hand_is_legal_so_far(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        ) -> None:
    record = worked_hand()
    record["actions"] = record["actions"][:6]
    hand = tmp_path / "partial.json"
    hand.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(hand), "--under", "classic"]) == 0
    out = capsys.readouterr().out
    assert "legal so far" in out and "the hand stops in the play" in out


def test_explain_a_wellington_first_lead_shows_the_rule_and_its_source_lines(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Napoleon's Wellington: the declarer "must place his lowest trump as the first card"
    # (002_...txt L15-20): a higher card of the suit led first is refused under NAP-7.2.2.
    text = WORKED.replace("ruleset: classic", "ruleset: napoleon").split("auction:")[0]
    text += "auction: 1 bid napoleon, 2 bid wellington, 3 pass, 0 pass\n"
    record = read_hand_text(text, "wellington.nap")
    position = locate(record, 5, Target(SPEC.rulesets["napoleon"], {}))
    assert position.state.turn == 2
    ruling = rule_on(position, "6H")
    assert not ruling.allowed and ruling.rules == ("NAP-7.2.2",)
    assert rule_on(position, "2H").allowed
    path = tmp_path / "wellington.nap"
    path.write_text(text, encoding="utf-8")
    assert main(["explain", str(path), "--at", "5", "--action", "6H"]) == 0
    out = capsys.readouterr().out
    assert "S2 to act; the legal actions:" in out and "play 2H" in out
    assert "not allowed: NAP-7.2.2" in out
    assert "German site article [002_33e5c6bd2923b07f.txt] L" in out and "lowest trump" in out


def test_explain_a_peep_nap_lead_under_another_ruleset(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    # Under peep, the position at step 5 is the declarer's exchange (001_...txt L22), not the
    # lead: a card played there is refused under NAP-6.3.1, with peep's line quoted.
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(worked_hand()), encoding="utf-8")
    assert main(["explain", str(hand), "--at", "5", "--under", "peep", "--action", "AS"]) == 0
    out = capsys.readouterr().out
    assert "take the widow, leave the widow" in out
    assert "not allowed: NAP-6.3.1" in out
    assert "exchange one card with the widow" in out


PEEP = """\
ruleset: peep
players: 4
dealer: 0
seat 1: AS KS QS JS 2H
seat 2: 3H 4H 5H 6H 7H
seat 3: 2D 3D 4D 5D 6D
seat 0: 2C 3C 4C 5C 6C
widow: 9C
auction: 1 bid three, 2 pass, 3 pass, 0 pass
exchange: 1 leave
trumps: 1 name spades
"""


def test_explain_a_peep_nap_trump_lead_shows_the_rule_and_its_source_lines(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Peep Nap: "the bid-winner leads the first trick with a card in the suit that they call
    # trump" (001_...txt L25): seat 1 named spades, so the 2 of hearts is refused under the
    # lead obligation, NAP-7.2.2, and only the four spades are legal.
    hand = tmp_path / "peep.nap"
    hand.write_text(PEEP, encoding="utf-8")
    assert main(["explain", str(hand), "--at", "7", "--action", "2H"]) == 0
    out = capsys.readouterr().out
    assert "S1 to act; the legal actions:\n  play JS QS KS AS" in out
    assert "not allowed: NAP-7.2.2" in out
    assert "Peep Nap page [001_311e7c0f07a8af84.txt] L25:" in out
    assert "leads the first trick" in out
    assert main(["explain", str(hand), "--at", "7", "--action", "AS"]) == 0
    assert "S1 play AS at step 7 under peep: allowed" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["--at", "40"], "--at 40: the hand has steps 1 to 24"),
    (["--at", "3", "--action", "frobnicate"], "--action 'frobnicate'"),
    (["--at", "3", "--under", "whist"], "--under no ruleset 'whist'"),
])
def test_explain_bad_arguments_say_so_in_one_line(argv: list[str], message: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(worked_hand()), encoding="utf-8")
    assert main(["explain", str(hand), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("text", "message"), [
    ("{", "line 1"),
    ('{"format": "napkit-match/1"}', "$.format: expected a hand record"),
    (json.dumps({**{"format": "napkit-hand/1"}}), "$"),
])
def test_replay_a_bad_file_is_one_line(text: str, message: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    hand = tmp_path / "bad.json"
    hand.write_text(text, encoding="utf-8")
    assert main(["replay", str(hand)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_every_recorded_hand_is_legal_under_its_own_ruleset() -> None:
    """Replayed under its own ruleset, a hand the engine's players played is legal to the end
    and settles as it did (the same hands dealt, whatever the packets)."""
    for ruleset in SPEC.rulesets:
        game = Game.create(ruleset, 4)
        state = play_out(game.new_hand(0), random.Random(3))
        record = json.loads(record_text([state]))
        verdict = replay_under(record, Target(SPEC.rulesets[ruleset], {}))
        assert verdict.finished, ruleset
        assert verdict.state is not None and verdict.state.result == state.result, ruleset


def test_ctrl_c_inside_a_callback_that_would_drop_it_is_raised_after() -> None:
    """A KeyboardInterrupt raised in importlib's module-lock callback is dropped by Python;
    the handler has the signal sent again a moment later instead, and it is raised then."""
    scope: dict[str, Any] = {}
    exec(compile("import sys\ndef cb(handler):\n    handler(2, sys._getframe())\n",
                 "<frozen importlib._bootstrap>", "exec"), scope)
    old = signal.signal(signal.SIGINT, _on_sigint)
    try:
        before = count()
        with pytest.raises(KeyboardInterrupt):
            scope["cb"](_on_sigint)
            # The signal comes again a moment later, and ends this wait (however long: a
            # busy machine may run the timer's thread late).
            time.sleep(120)
        assert count() == before + 1
    finally:
        signal.signal(signal.SIGINT, old)


def test_replay_help_shows_an_example() -> None:
    out = subprocess.run([sys.executable, "-m", "napkit", "replay", "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert "napkit replay hand.nap --under all" in out


SEED_FILE = re.compile(r"[0-9]{3}_[0-9a-f]{16}\.txt")


@pytest.mark.parametrize("sources", ["here", "missing"])
def test_what_a_person_reads_names_each_source_by_its_title(
        sources: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: every citation a person reads names its source (``Peep Nap page``); a seed
    file name (``001_311e7c0f07a8af84.txt``) shows only as a detail, in brackets after it."""
    if sources == "missing":  # napkit from a wheel: the citations without their quotes
        monkeypatch.setenv("NAPKIT_SOURCES", str(tmp_path / "nowhere"))
    hand = tmp_path / "worked.nap"
    hand.write_text(WORKED, encoding="utf-8")
    commands = [["rules", "list"], ["rules", "show", "peep"], ["rules", "rule", "NAP-8.1.1"],
                ["rules", "compare", "classic", "napoleon"], ["rules", "decisions"],
                ["rules", "decisions", "DEC-006"],
                ["explain", str(hand), "--at", "6", "--action", "3C"],
                ["replay", str(hand), "--under", "all"]]
    named = {source.name for source in SPEC.index}
    for typed in commands:
        parts = typed[0] == "replay"  # the hand is not legal under the floater games: exit 1
        command = [*typed, "--long"] if parts else typed  # the sources' lines quoted
        assert main(command) == (1 if parts else 0), command
        out = capsys.readouterr().out
        assert any(name[:12] in out for name in named), command
        for found in SEED_FILE.finditer(out):
            file = found.group()
            assert out[:found.start()].endswith(f"{SPEC.index.name(file)} ["), (
                f"napkit {' '.join(command)}: {file} without its source's name")
    if sources == "missing":
        assert "(the source Classic rules page [000_b90223f4596c033b.txt] is not at" in out
    else:
        assert "Classic rules page [000_b90223f4596c033b.txt] L41:" in out
        assert "classic cites Classic rules page: L41, L43" in out


def test_replay_prints_each_rule_text_once_and_long_prints_all(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30, item 3: under all rulesets the hand cannot be dealt under five of them, for
    NAP-2.2.1, all citing pagat.com's lines 66-72; the text is printed once, each ruleset
    names the rule and its source's lines, and --long quotes them under every ruleset."""
    hand = tmp_path / "hand.nap"
    hand.write_text(WORKED, encoding="utf-8")
    pack_text = "A hand is played with all four suits of a pack cut down from the top"
    quoted = "pagat.com (McLeod) [004_d686e73063261d6b.txt] L66-72"
    main(["replay", str(hand), "--under", "all"])
    short = capsys.readouterr().out
    main(["replay", str(hand), "--under", "all", "--long"])
    full = capsys.readouterr().out
    assert short.count(pack_text) == 1 and full.count(pack_text) >= 4
    assert quoted not in short and full.count(f"{quoted}:\n") >= 4
    assert short.count('NAP-2.2.1 (pagat.com (McLeod): L66-72 ("Nap with a floater"))') == 4
    # The guide's hand under all: 241 lines at the start of issue 30, at most half now.
    assert len(short.splitlines()) <= 120 < len(full.splitlines())


def test_long_holds_every_rule_text_and_quotation_the_short_form_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing the short form names is lost: every rule it names is printed whole by --long,
    and every source line it cites (``L66-72``) is quoted there, under the ruleset citing it."""
    for text in (WORKED, (IRREGULAR / "revoke.nap").read_text(encoding="utf-8")):
        hand = tmp_path / "hand.nap"
        hand.write_text(text, encoding="utf-8")
        main(["replay", str(hand), "--under", "all"])
        short = capsys.readouterr().out
        main(["replay", str(hand), "--under", "all", "--long"])
        full = capsys.readouterr().out
        rules = set(re.findall(r"\b(NAP-\d+\.\d+\.\d+) \(", short))
        assert rules
        for rule in rules:
            law = SPEC.lawbook.get(rule)
            assert law is not None and law.text.split()[:8] == full.split(
                f"{rule}  {law.title}\n")[1].split()[:8]
        blocks = [b for b in short.split("\n\n") if "\n  rules: " in b]
        for block in blocks:
            label = block.split()[0]
            cited = " ".join(block.split("\n  rules: ")[1].split())
            ruleset = SPEC.rulesets[label]
            lines = set(re.findall(r"\bL\d+(?:-\d+)?", cited))
            mine = full.split(f"\n\n{label} (")[1].split("\n\n")[0]
            for where in lines:
                assert f"] {where}:" in mine, (label, where)
            for decision in re.findall(r"DEC-\d+", cited):
                assert decision in mine, (ruleset.id, decision)


def test_explain_prints_the_rules_in_force_each_quotation_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = tmp_path / "hand.nap"
    hand.write_text(WORKED, encoding="utf-8")
    line = "Classic rules page [000_b90223f4596c033b.txt] L36"
    main(["explain", str(hand), "--at", "6", "--under", "classic", "--action", "3H"])
    short = capsys.readouterr().out
    main(["explain", str(hand), "--at", "6", "--under", "classic", "--action", "3H", "--long"])
    full = capsys.readouterr().out
    # NAP-8.1.1 and NAP-8.1.2 both cite classic's line 36: quoted once, then named.
    assert short.count(f"{line}:\n") == 1 and f"{line}: quoted above" in short
    assert full.count(f"{line}:\n") == 2
    # Every rule printed is in force in classic.
    spec = load_spec()
    printed = set(re.findall(r"^  (NAP-[\d.]+)  ", short, re.M))
    assert printed and printed <= set(spec.rulesets["classic"].rules)
