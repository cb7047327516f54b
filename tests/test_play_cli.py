"""``napkit play`` through main(), with a fake stdin: watching, replaying a seed, a human seat."""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Callable

import pytest
from napkit.cli import main

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def nets(out: str) -> list[list[int]]:
    return [[int(n) for n in re.findall(r"seat \d+ ([+-]?\d+)", line.split(";")[0])]
            for line in out.splitlines() if line.startswith("  net: ")]


def test_a_watched_hand_prints_its_result(monkeypatch: pytest.MonkeyPatch,
                                          capsys: Capture) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # never read while watching
    code, out, err = run(capsys, "pagat", "--watch", "--hands", "6", "--seed", "4")
    assert (code, err) == (0, "")
    assert out.startswith("napkit play pagat: 4 players, watching, opponents heuristic, seed 4")
    assert len(re.findall(r"^hand \d+: seat \d deals$", out, re.M)) == 6
    assert len(re.findall(r"^result: ", out, re.M)) == 6
    assert re.search(r"^result: seat \d bid \w+ \(\w+\): (made|defeated), \d tricks? of 5$",
                     out, re.M), "no hand of six was bid"
    for net in nets(out):  # pagat has no pool: every hand's payments balance
        assert len(net) == 4 and sum(net) == 0
    assert "after 6 hands: " in out


def test_the_same_seed_prints_the_same_game(capsys: Capture) -> None:
    args = ("pagat-floater", "--hands", "3", "--seed", "11", "--opponents", "random")
    first, second = run(capsys, *args), run(capsys, *args)
    assert first == second and first[0] == 0
    other = run(capsys, "pagat-floater", "--hands", "3", "--seed", "12", "--opponents", "random")
    assert other[1] != first[1]


def test_a_match_prints_its_end(capsys: Capture) -> None:
    code, out, _ = run(capsys, "peep", "--players", "5", "--match", "--hands", "3", "--seed", "2")
    assert code == 0
    assert re.search(r"^first dealer: seat \d$", out, re.M)
    assert len(re.findall(r"^result: ", out, re.M)) == 3
    assert "match over after 3 hands" in out
    balances = re.search(r"^  balances: (.*)$", out, re.M)
    winners = re.search(r"^  (?:winner|winners \(tied\)): (.*)$", out, re.M)
    assert balances and winners
    chips = [int(b) for b in re.findall(r"seat \d+ (-?\d+)", balances.group(1))]
    named = [int(s) for s in re.findall(r"seat (\d+)", winners.group(0))]
    assert named == [s for s, b in enumerate(chips) if b == max(chips)]


def test_a_match_that_ends_by_agreement_needs_a_number_of_hands(capsys: Capture) -> None:
    code, _, err = run(capsys, "pagat", "--match")
    assert code == 2 and "--hands K" in err and "\n" not in err.rstrip("\n")


@pytest.mark.parametrize(("argv", "expected"), [
    (["pagat", "--players", "2"], "NAP-3.1.1: pagat is played by"),
    (["pagat", "--option", "nope=x"], "nope"),
    (["pagat", "--seat", "9"], "--seat must be a seat from 0 to 3"),
    (["nonesuch"], "no ruleset 'nonesuch'"),
    (["pagat", "--seat", "1", "--watch"], "not allowed with argument"),
])
def test_bad_arguments_are_one_line_usage_errors(argv: list[str], expected: str,
                                                 capsys: Capture) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert expected in err and err.count("\n") == 1


def test_help_is_the_documentation(capsys: Capture) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for form in ("bid BID", "buy nothing", "name SUIT", "sit out", "--seed S", "--match"):
        assert form in out


class Human:
    """A fake stdin (all the game reads is readline) that answers each prompt from what has
    been printed so far, as a person at the terminal would."""

    def __init__(self, screen: Callable[[], str], answer: Callable[[str], str | None]) -> None:
        self.screen = screen
        self.answer = answer
        self.typed: list[str] = []

    def readline(self) -> str:
        line = self.answer(self.screen())
        if line is None:
            return ""  # end of input
        self.typed.append(line)
        return line + "\n"


def _prompt(screen: str) -> tuple[list[str], list[str], str]:
    """The last prompt's hand (as card names), legal plays or actions, and trick so far."""
    block = screen[screen.rindex("--- seat"):]
    hand_line = re.search(r"^your hand: (.*)$", block, re.M)
    hand = []
    if hand_line:
        for group in hand_line.group(1).split("  "):
            if ":" in group:
                suit, ranks = group.split(": ")
                hand += [r + suit for r in ranks.split()]
    may = re.search(r"^you may: (.*)$", block, re.M)
    assert may
    trick = re.search(r"^trick so far: (.*)$", block, re.M)
    return hand, may.group(1).split(" | "), trick.group(1) if trick else ""


def test_a_human_who_revokes_is_told_the_rule_and_asked_again(
        monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    out = io.StringIO()
    revoked: list[str] = []

    def answer(screen: str) -> str:
        hand, may, trick = _prompt(screen)
        if may[0].startswith("play one of "):
            legal = may[0].removeprefix("play one of ").split()
            off_suit = [c for c in hand if c not in legal]
            if trick and off_suit and not revoked:
                revoked.append(off_suit[0])
                return off_suit[0]  # holds the suit led, plays another: a revoke
            return legal[0]
        bids = [a for a in may if a.startswith("bid ")]
        return bids[0] if bids else may[0]  # bid, so that the hand is played out

    monkeypatch.setattr("sys.stdout", out)
    stdin = Human(out.getvalue, answer)
    monkeypatch.setattr("sys.stdin", stdin)
    for seed in range(1, 40):
        code = main(["play", "pagat", "--seat", "0", "--hands", "2", "--seed", str(seed)])
        assert code == 0
        if revoked:
            break
    else:
        pytest.fail("no seed gave a hand where seat 0 could revoke")
    screen = out.getvalue()
    card = revoked[0]
    refusal = re.search(r"^> not allowed: NAP-8\.1\.1: must follow (\w+); holds (.*)$",
                        screen, re.M)
    assert refusal, screen[-2000:]
    # Asked again at once; the card played then is one of the suit led, not the refused one.
    after = screen[refusal.end():]
    assert after.startswith("\n> ")
    played = re.search(r"seat 0 \(you\): play (\S+)", after)
    assert played and played.group(1) != card
    assert played.group(1)[-1] != card[-1]
    assert len(re.findall(r"^result: ", screen, re.M)) == 2


def test_end_of_input_abandons_the_game(monkeypatch: pytest.MonkeyPatch,
                                        capsys: Capture) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\n"))
    code, out, err = run(capsys, "pagat", "--seat", "0", "--seed", "3", "--hands", "5")
    assert code == 1
    assert "end of input: the game is abandoned (replay it with --seed 3)" in err
    assert "Traceback" not in err
    assert out.count("you may:") >= 2  # asked once, answered, asked again, then the end


def test_unreadable_input_lists_what_may_be_typed(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: Capture) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\nbid nonesuch\n"))
    code, out, _ = run(capsys, "pagat", "--seat", "0", "--seed", "3")
    assert code == 1
    assert "> cannot read 'hello': 'hello' is not an action; type one of: pass, bid BID" in out
    assert "> not allowed: NAP-5.2.2: 'nonesuch' is not a bid of this game" in out


def test_a_thrown_in_hand_is_dealt_again_and_not_counted(capsys: Capture) -> None:
    """--hands K plays K hands: a hand nobody bid for is dealt again by the next dealer
    (NAP-5.3.2), as at a table, where it used to be one of the K."""
    code, out, err = run(capsys, "pagat", "--watch", "--hands", "2", "--seed", "6")
    assert (code, err) == (0, "")
    assert len(re.findall(r"^result: seat \d bid ", out, re.M)) == 2  # two played out
    thrown = re.search(r"^result: thrown in: nobody bid\n(?:  .*\n)*?  dealt again by seat "
                       r"(\d)\nhand \d+: seat (\d) deals$", out, re.M)
    assert thrown, out
    assert thrown.group(1) == thrown.group(2)
    dealers = [int(d) for d in re.findall(r"^hand \d+: seat (\d) deals", out, re.M)]
    assert len(dealers) == 3
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))
    assert "after 2 hands (1 thrown in and dealt again): " in out


def test_help_says_a_thrown_in_hand_is_not_counted(capsys: Capture) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "a thrown-in hand dealt again and not counted" in text
    assert "bid 3" in text and "name hearts, name H, hearts, H" in text


@pytest.mark.parametrize(("ruleset", "typed", "legal", "expected"), [
    ("pagat", "bid 3", (), "bid three"),
    ("pagat", "bid three", (), "bid three"),
    ("pagat", "Bid Three", (), "bid three"),
    ("classic", "bid 3", (), "bid three"),  # classic names its bid '3'
    ("classic", "bid 4", (), "bid four"),
    ("pub-floater", "bid 4 with", (), "bid four-with"),
    ("pub-floater", "bid four without", (), "bid four-without"),
    ("pagat", "bid 7", (), "bid 7"),  # no such bid: the auction refuses it, with its rule
    ("peep", "diamonds", ("naming",), "name D trumps"),
    ("peep", "D", ("naming",), "name D trumps"),
    ("peep", "name diamonds", ("naming",), "name D trumps"),
    ("peep", "pass", (), "pass"),
    ("peep", "AS", (), "play AS"),
])
def test_actions_are_read_as_the_table_shows_them(ruleset: str, typed: str,
                                                  legal: tuple[str, ...], expected: str) -> None:
    from napkit.cli.table import read_action
    from napkit.engine.actions import NAMES
    from napkit.engine.game import Game

    game = Game.create(ruleset, 4)
    assert str(read_action(typed, game, NAMES if legal else ())) == expected


def test_a_human_bids_and_names_trumps_as_shown(monkeypatch: pytest.MonkeyPatch,
                                                capsys: Capture) -> None:
    """'bid 3' where the table shows 'bid three', and trumps named by the suit alone, as the
    prompt shows them (name diamonds, not name D trumps)."""
    out = io.StringIO()
    named: list[str] = []

    def answer(screen: str) -> str:
        _, may, _ = _prompt(screen)
        if may[0].startswith("play one of "):
            return may[0].removeprefix("play one of ").split()[0]
        if may[0].startswith("name "):
            assert all(re.fullmatch(r"name (spades|hearts|diamonds|clubs)", a) for a in may)
            named.append(may[-1].removeprefix("name "))
            return named[-1]  # the suit alone: 'clubs'
        if "bid three" in may:
            return "bid 3"
        return may[0]

    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stdin", Human(out.getvalue, answer))
    for seed in range(1, 30):
        assert main(["play", "peep", "--seat", "0", "--seed", str(seed)]) == 0
        if named:
            break
    else:
        pytest.fail("no seed gave seat 0 the contract")
    screen = out.getvalue()
    assert "seat 0 (you): bid three" in screen
    assert f"seat 0 (you): name {named[0]}" in screen
    assert "not allowed" not in screen and "cannot read" not in screen
