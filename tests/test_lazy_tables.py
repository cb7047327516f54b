"""The engine's lookup tables are built at their first use, not when napkit is imported, so
that a command that plays no card (``napkit --help``, ``napkit rules list``) does not pay for
them (issue 12; benchmarks/startup.py measures it)."""

from __future__ import annotations

import subprocess
import sys


def test_importing_napkit_builds_no_card_table() -> None:
    code = ("import napkit, napkit.cli\n"
            "from napkit.engine import cards, play\n"
            "print(cards._SUIT_CARDS == (), play._SUIT_PLAYS == ())\n"
            "print(cards.cards_of(0b101 | 1 << 51), len(play._SUIT_PLAYS))\n"
            "import random\n"
            "hand = napkit.Game.create('pagat', 4).new_hand(0)\n"
            "hand = hand.apply(hand.sample_chance(random.Random(1)))\n"
            "print(len(cards._SUIT_CARDS), len(cards._SUIT_CARDS[0]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "True True"
    assert out[1] == "(0, 2, 51) 0"  # cards_of built its table; the plays still wait
    assert out[2] == "4 8192"
