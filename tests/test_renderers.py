"""One renderer per view: the terminal (napkit.spec.views, napkit play) and the rules site
(napkit.site.pages) show a ruleset's player counts, cards and hands with the same functions of
napkit.spec.render, so the two cannot disagree."""

from __future__ import annotations

import random

import pytest
from napkit.engine.cards import SUIT_SYMBOLS, card_name, parse_card
from napkit.engine.game import Game
from napkit.players.playout import play_out
from napkit.spec import render, views
from napkit.spec.catalog import default_spec

SPEC = default_spec()


def test_the_terminal_and_the_site_use_the_same_renderers() -> None:
    pages = pytest.importorskip("napkit.site.pages")  # needs the docs extra (Sphinx)
    assert pages.players_text is render.players_text
    assert pages.hand_text is render.hand_text
    assert pages.card_text is render.card_text


@pytest.mark.parametrize("ruleset", sorted(SPEC.rulesets))
def test_players_text_is_what_the_list_shows(ruleset: str) -> None:
    shown = render.players_text(SPEC.rulesets[ruleset])
    row = next(line for line in views.list_view(SPEC) if line.startswith(ruleset + " "))
    assert f" {shown} " in row
    show = views.show_view(SPEC, SPEC.rulesets[ruleset], {})
    assert f"players:  {shown}" in show


def test_players_text_names_the_counts_an_option_adds() -> None:
    # napoleon's default table is 3-10; an option allows two players as well. The site used
    # to show the default counts only.
    assert render.players_text(SPEC.rulesets["napoleon"]) == "3-10 (+2 by option)"
    assert render.players_text(SPEC.rulesets["classic"]) == "3-7"


def test_hands_read_the_same_in_both_forms() -> None:
    rng = random.Random(3)
    for seed in range(20):
        hand = play_out(Game.create("pagat", 4).new_hand(seed % 4), rng,
                        until=lambda s: not s.is_chance())
        for seat in hand.order:
            cards = hand.hand(seat)
            letters = render.hand_text(cards)
            symbols = render.hand_text(cards, symbols=True)
            # The same groups and ranks; only the suit labels differ.
            for letter, symbol in zip("SHDC", SUIT_SYMBOLS, strict=True):
                letters = letters.replace(f"{letter}:", symbol)
            assert letters == symbols
            ranks = symbols.replace("  ", " ").split()
            assert len([r for r in ranks if r not in SUIT_SYMBOLS]) == len(cards)
            for card in cards:
                assert render.card_text(card) == card_name(card)
                assert parse_card(render.card_text(card, symbols=True).replace(
                    SUIT_SYMBOLS[card // 13], "SHDC"[card // 13])) == card
