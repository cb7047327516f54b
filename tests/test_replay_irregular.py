"""napkit replay of any hand (issue 30, items 1 and 2): a hand that breaks its own ruleset (a
revoke, a card out of turn, a wrong first lead) is read and replayed all the same, each
ruleset's column naming the first step it refuses and going on as the table played it; a hand
that lacks a step a ruleset needs (trumps named, the widow, a purchase) is filled by a stated
default or by --assume; --deal-anyway deals a full-pack hand under a short-pack ruleset.

The expectations are worked by hand from the hands (which card wins each trick by NAP-8.2.1),
not taken from the engine."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from napkit import Game, load_spec
from napkit.cli import main
from napkit.dispute.replay import assumption, replay_under, target, targets
from napkit.engine.actions import Play
from napkit.engine.cards import card_name
from napkit.engine.hand import as_played
from napkit.formats.handtext import HandFileError, read_hand_file, read_hand_text
from napkit.players.playout import play_out

SPEC = load_spec()
IRREGULAR = Path(__file__).parent / "fixtures" / "handtext" / "irregular"
REVOKE = IRREGULAR / "revoke.nap"
OUT_OF_TURN = IRREGULAR / "out-of-turn.nap"
CLASSIC_NAP = IRREGULAR / "classic-nap.nap"
FLOATERS = ("pagat-floater", "pagat-aylesbury", "pagat-dorset", "pagat-teesside", "pub-floater")


def read(path: Path) -> dict[str, Any]:
    return read_hand_file(path, check=False, irregular=True)


@pytest.mark.parametrize(("name", "where"), [
    ("revoke.nap", "line 11, column 13: NAP-8.1.1: must follow spades"),
    ("out-of-turn.nap", "line 12, column 9: NAP-1.3.1: it is seat 2's turn"),
    ("wellington-without-nap.nap",
     "line 10, column 23: NAP-5.2.5: Wellington may be bid only after Nap"),
    ("bid-out-of-turn.nap", "line 10, column 18: NAP-1.3.1: it is seat 2's turn, not seat 3's")])
def test_validate_refuses_an_irregular_hand_by_line_column_and_rule(
        capsys: pytest.CaptureFixture[str], name: str, where: str) -> None:
    path = IRREGULAR / name
    with pytest.raises(HandFileError) as refused:
        read_hand_file(path)
    assert where in str(refused.value)
    assert main(["validate", str(path)]) == 1
    assert where in capsys.readouterr().out


def test_the_revoke_hand_under_every_ruleset() -> None:
    """Seat 2 plays 3H to a spade lead holding 10S (step 6), then 10S to the second trick.
    As played, seat 1 wins tricks 1 to 4 with spades and loses the fifth: it leads 2H, and
    seat 2's 6H is the highest heart (NAP-8.2.1): a Three made with four tricks."""
    record = read(REVOKE)
    for verdict in (replay_under(record, t) for t in targets(SPEC, ["all"])):
        label = verdict.target.label
        if label in FLOATERS:  # a pack of ace to nine: the twos to sixes are not in it
            assert verdict.setup is not None and verdict.setup.rule == "NAP-2.2.1", label
            continue
        parting = verdict.parting
        assert parting is not None and verdict.played_on, label
        assert (parting.step, parting.seat, parting.action, parting.rule) == (
            6, 2, "play 3H", "NAP-8.1.1"), label
        state = verdict.state
        assert state is not None and state.result is not None, label
        assert state.result.trick_winners == (1, 1, 1, 1, 2), label
        assert state.result.made and state.result.tricks == 4, label
        assert verdict.later == (), label


def test_the_out_of_turn_hand_under_every_ruleset() -> None:
    """Seat 3 plays 3D before seat 2 in the second trick (step 10). The trick is whole when
    all four have played, and is kept in the order of the seats from its leader."""
    record = read(OUT_OF_TURN)
    for verdict in (replay_under(record, t) for t in targets(SPEC, ["all"])):
        label = verdict.target.label
        if label in FLOATERS:
            assert verdict.setup is not None, label
            continue
        parting = verdict.parting
        assert parting is not None and (parting.step, parting.rule) == (10, "NAP-1.3.1"), label
        state = verdict.state
        assert state is not None and state.result is not None and state.result.made, label
        second = state.tricks[1]
        assert (second.leader, second.winner) == (1, 1), label
        assert [card_name(c) for c in second.cards] == ["KS", "3H", "3D", "3C"], label


def test_every_further_refused_step_is_noted_and_played_on() -> None:
    text = OUT_OF_TURN.read_text(encoding="utf-8").replace(
        "1 QS, 2 4H, 3 4D, 0 4C", "1 QS, 3 4D, 2 4H, 0 4C")  # out of turn again: step 14
    record = read_hand_text(text, "twice.nap", irregular=True)
    verdict = replay_under(record, target(SPEC, "classic"))
    assert verdict.parting is not None and verdict.parting.step == 10
    assert [(p.step, p.rule) for p in verdict.later] == [(14, "NAP-1.3.1")]
    assert verdict.played_on and verdict.state is not None and verdict.state.is_over()


def test_a_wrong_first_lead_is_read_and_played_on() -> None:
    """Seat 2 leads the first trick, where seat 1, the declarer, is to (NAP-7.2.1)."""
    text = OUT_OF_TURN.read_text(encoding="utf-8").replace(
        "play: 1 AS, 2 2H, 3 2D, 0 2C", "play: 2 2H, 3 2D, 0 2C, 1 AS")
    with pytest.raises(HandFileError, match=r"NAP-1\.3\.1"):
        read_hand_text(text, "lead.nap")
    record = read_hand_text(text, "lead.nap", irregular=True)
    verdict = replay_under(record, target(SPEC, "pagat"))
    assert verdict.parting is not None and (verdict.parting.step, verdict.parting.seat) == (5, 2)
    state = verdict.state
    assert state is not None and state.tricks[0].leader == 2 and state.result is not None


def test_the_winner_of_a_trick_led_out_of_turn_is_by_the_suit_led() -> None:
    text = OUT_OF_TURN.read_text(encoding="utf-8").replace(
        "play: 1 AS, 2 2H, 3 2D, 0 2C", "play: 2 2H, 3 2D, 0 2C, 1 AS")
    record = read_hand_text(text, "lead.nap", irregular=True)
    state = replay_under(record, target(SPEC, "pagat")).state
    assert state is not None
    # Trumps are fixed by the first card led (pagat, NAP-7.1.1): the 2H, so hearts; seat 1's
    # AS neither follows nor trumps, and seat 2's 2H wins (NAP-8.2.1).
    assert state.tricks[0].winner == 2


def test_where_going_on_is_impossible_the_column_says_why() -> None:
    record = read(REVOKE)
    record["actions"][5]["action"] = {"type": "play", "card": "9C"}  # nobody holds it
    verdict = replay_under(record, target(SPEC, "classic"))
    assert verdict.parting is not None and verdict.parting.rule == "NAP-1.3.2"
    assert verdict.stopped is not None and "does not hold" in verdict.stopped
    assert not verdict.played_on
    # A bid the ruleset has not got: pagat-floater bids from four up (004_...txt L73-76).
    floater = replay_under(read(REVOKE), target(SPEC, "pagat-floater"), deal_anyway=True)
    assert floater.parting is not None and floater.parting.rule == "NAP-5.2.2"
    assert floater.stopped is not None and "auction" in floater.stopped


def test_as_played_is_the_rules_play_for_a_legal_card() -> None:
    """The engine's one function for irregular hands agrees with the rules' play wherever the
    card is legal: the same tricks, winners and settlement."""
    for ruleset, players in (("pagat", 4), ("classic", 3), ("pagat-floater", 5), ("peep", 4)):
        game = Game.create(ruleset, players)
        for seed in range(6):
            rng = random.Random(seed)
            end = play_out(game.new_hand(seed % players), rng)
            if end.result is None or end.result.thrown_in:
                continue
            state = game.new_hand(end.dealer)
            for actor, action in end.history:
                state = (as_played(state, actor, action.card) if isinstance(action, Play)
                         else state.apply(action))
            assert state.tricks == end.tricks and state.result == end.result, (ruleset, seed)


def test_a_classic_hand_under_peep_and_pagat_floater_to_a_settlement() -> None:
    """Seat 1 bids Nap holding the five top hearts and takes every trick. Peep (001_...txt
    L22) names trumps and may exchange with the widow; pagat-floater (004_...txt L73-79)
    names trumps, and reads classic's Nap as its Nap without the floater."""
    record = read(CLASSIC_NAP)
    peep = replay_under(record, target(SPEC, "peep"))
    assert [a.words for a in peep.assumed] == ["S1 left the widow (default)",
                                               "trumps hearts (first card led)"]
    floater = replay_under(record, target(SPEC, "pagat-floater"))
    assert floater.readings == ("step 1: bid nap read as nap-without",)
    assert [a.words for a in floater.assumed] == ["trumps hearts (first card led)"]
    for verdict in (peep, floater):
        state = verdict.state
        assert verdict.finished and state is not None and state.result is not None
        assert state.result.made and state.result.tricks == 5
    # --assume: the widow taken (its card discarded, as the declarer never plays it).
    taken = replay_under(record, target(SPEC, "peep"), assume=[assumption("take widow")])
    words = [a.words for a in taken.assumed]
    assert words[0] == "S1 took the widow (assumed)"
    assert words[1].startswith("S1 discarded ") and words[1].endswith("(the card S1 never plays)")
    assert words[2] == "trumps hearts (first card led)" and taken.finished
    # Trumps named as the player says; peep may not name a suit the declarer lacks
    # (NAP-7.1.2), so the step cannot be filled, and the column says so.
    void = replay_under(record, target(SPEC, "peep"), assume=[assumption("name clubs")])
    assert void.parting is not None and void.parting.rule == "NAP-7.1.2" and void.stopped
    clubs = replay_under(record, target(SPEC, "pagat-floater"), assume=[assumption("name C")])
    assert [a.words for a in clubs.assumed] == ["trumps clubs (assumed)"]
    # Clubs trumps: seat 0, out of hearts, trumps the fourth trick with AC and is to lead the
    # fifth, which seat 1 led as the table played it: refused (NAP-1.3.1), played on; seat
    # 0's KC trumps it too.
    state = clubs.state
    assert clubs.parting is not None and clubs.parting.rule == "NAP-1.3.1" and clubs.played_on
    assert state is not None and state.result is not None
    assert state.result.trick_winners == (1, 1, 1, 0, 0) and not state.result.made


def test_deal_anyway_replays_a_full_pack_hand_under_a_short_pack_ruleset() -> None:
    record = read(REVOKE)
    refused = replay_under(record, target(SPEC, "pagat-dorset"))
    assert refused.setup is not None and refused.setup.rule == "NAP-2.2.1"
    verdict = replay_under(record, target(SPEC, "pagat-dorset"), deal_anyway=True)
    assert verdict.setup is None and verdict.assumed[0].step == 0
    assert verdict.assumed[0].words.startswith("dealt anyway: pagat-dorset's pack has not ")
    state = verdict.state
    assert state is not None and state.result is not None and state.result.tricks == 4
    # Dorset's three-without (004_...txt L81-84) read for classic's Three: no widow there.
    assert verdict.readings == ("step 1: bid three read as three-without",)


def test_assume_is_refused_for_a_step_no_hand_lacks() -> None:
    with pytest.raises(ValueError, match="not a step a hand may lack"):
        assumption("bid nap")


def test_replay_cli_prints_the_irregular_hands_and_json_additions(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(REVOKE), "--under", "all"]) == 1
    out = capsys.readouterr().out
    play = next(line for line in out.splitlines() if line.startswith("play "))
    assert play.split()[1:4] == ["on", "past", "6"]
    assert "refuses step 6: S2 play 3H: NAP-8.1.1: must follow spades" in out
    assert "played on as the table played it" in out
    assert main(["replay", str(OUT_OF_TURN), "--under", "classic", "--json"]) == 1
    [verdict] = json.loads(capsys.readouterr().out)["rulesets"]
    assert verdict["parts"]["rule"] == "NAP-1.3.1" and verdict["played_on"]
    assert verdict["later"] == [] and verdict["assumed"] == []
    assert verdict["settlement"]["net"] == [-3, 9, -3, -3]
    assert verdict["trumps"] == "spades: led"
    assert main(["replay", str(CLASSIC_NAP), "--under", "pagat-floater",
                 "--assume", "name spades"]) == 1  # seat 0 trumps with AS: see above
    out = capsys.readouterr().out
    assert "assumed: trumps spades (assumed)" in out and "spades: assumed" in out
    assert main(["replay", str(CLASSIC_NAP), "--assume", "bid nap"]) == 2
    assert "--assume: 'bid nap' is not a step a hand may lack" in capsys.readouterr().err
