"""Golden playthroughs: a seeded hand of a game played by the engine's players, written in the
hand notation with every step's legal actions beside it, so that a change to play shows as a
diff a person can read (OpenSpiel keeps one per game in the same way).

A playthrough is a hand file (``*.nap``, :mod:`napkit.formats.handtext`): the table and the
deal, then one step a line, each after a comment saying who is to act, what they hold where
the choice is of their cards, and every action the rules allow them; a comment after each
trick says who won it, and the last says how the hand ended. The notation's reader skips
comments, so the file reads back as the hand it shows. :func:`playthroughs` gives the set kept
under ``conformance/playthroughs/``: one per ruleset, and one per choice of an option that
changes what a hand shows; ``conformance/generate_playthroughs.py`` writes them, and
``tests/test_playthroughs.py`` compares them.

>>> from napkit import Game
>>> from napkit.formats.playthrough import playthrough
>>> lines = playthrough(Game.create("pagat", 3), seed=1).splitlines()
>>> print(lines[lines.index("auction:") + 1])
  # seat 1 to act; may: pass, bid three, bid four, bid nap
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from napkit.engine.actions import Action, Buy, Discard, Play
from napkit.engine.cards import card_name
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState
from napkit.engine.state import CHANCE
from napkit.formats.handtext import SECTIONS, action_text, dealt_start, end_comment, table_lines
from napkit.formats.recording import play_table
from napkit.spec.catalog import default_spec

__all__ = ["SEEDS", "Playthrough", "playthrough", "playthroughs"]

SEEDS = range(1, 9)
"""The seeds tried, in order, for the playthrough of an option's choice: the first under which
the hand differs from the ruleset's own under the same seed. A choice under which no hand of
these seeds differs (the match's shuffle between hands, say) has no playthrough."""

_WIDTH = 96


def _comment(text: str, indent: str = "  ") -> list[str]:
    """``text`` as comment lines of at most :data:`_WIDTH` characters."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= _WIDTH:
            lines[-1] += f" {word}"
        else:
            lines.append(f"{indent}{'#' if not lines else '# '} {word}")
    return lines


def _prompt(state: HandState) -> str:
    """Who is to act, what they hold where the choice is of their cards, the trick so far,
    and every action they may take."""
    if state.turn == CHANCE:
        return "chance to act: the stock is made again of the discards (NAP-6.2.2)"
    legal = state.legal_actions()
    where = ""
    if state.trick:
        where = f"; the trick so far: {' '.join(card_name(c) for c in state.trick)}"
    elif legal and isinstance(legal[0], Play):
        where = f"; leads to trick {len(state.tricks) + 1}"
    held = ""
    if any(isinstance(a, Play | Discard | Buy) for a in legal):
        held = f"; holds {' '.join(card_name(c) for c in state.hand(state.turn))}"
    return (f"seat {state.turn} to act{where}{held}; may: "
            + ", ".join(action_text(a) for a in legal))


def _steps(hand: HandState) -> list[str]:
    """A finished hand's steps, one a line, each after the comment on its position."""
    state = dealt_start(hand)
    lines: list[str] = []
    section = ""
    for actor, action in hand.history[1:]:
        now = next(name for name, phases in SECTIONS.items() if state.phase in phases)
        if now != section:
            lines.append(f"{now}:")
            section = now
        lines += _comment(_prompt(state))
        lines.append(f"  {_step(actor, action)}")
        before = len(state.tricks)
        state = state.apply(action)
        if len(state.tricks) > before:
            trick = state.tricks[-1]
            lines += _comment(f"seat {trick.winner} wins trick {len(state.tricks)}: "
                              + " ".join(card_name(c) for c in trick.cards))
    return lines + end_comment(state)


def _step(actor: int, action: Action) -> str:
    return action_text(action) if actor == CHANCE else f"{actor} {action_text(action)}"


def _hand(game: Game, seed: int, opponents: str) -> HandState:
    played = play_table(game, seed, opponents=opponents)
    assert not isinstance(played, MatchState)
    return played[0]


def playthrough(game: Game, seed: int, *, opponents: str = "heuristic") -> str:
    """The playthrough of the hand ``napkit record`` writes for this game and seed."""
    hand = _hand(game, seed, opponents)
    table, deal = table_lines(hand)
    shown = " ".join(f"{k}={v}" for k, v in game.options.items())
    header = [
        *_comment(f"Golden playthrough: {game.id}, {game.players} players, seed {seed}, "
                  f"every seat played by the engine's {opponents} players: the hand that "
                  f"'napkit record {game.id} --players {game.players} --seed {seed}' "
                  f"records, with options {shown}.", ""),
        *_comment("Before each step, a comment says who is to act and every action the "
                  "rules allow; the notation's reader skips comments. Regenerate: python "
                  "conformance/generate_playthroughs.py", "")]
    return "\n".join([*header, *table, *deal, *_steps(hand)]) + "\n"


def _shows(game: Game, seed: int) -> list[str]:
    """What a playthrough shows of play: the deal and the steps (the game's options aside)."""
    hand = _hand(game, seed, "heuristic")
    return [str(game.players), *table_lines(hand)[1], *_steps(hand)]


@dataclass(frozen=True)
class Playthrough:
    """One golden playthrough: its file's name (without ``.nap``), its game and its seed."""

    name: str  # "pagat", or "pagat--mis=on" for a choice of one option
    game: Game
    seed: int

    def text(self) -> str:
        return playthrough(self.game, self.seed)


def players_for(ruleset_id: str, options: dict[str, str]) -> int:
    """Four players, or the ruleset's nearest count (as ``napkit play`` seats by default)."""
    ruleset = default_spec().rulesets[ruleset_id]
    allowed = ruleset.resolve(ruleset.option_values(options))["players"]
    counts = [n for n in allowed if isinstance(n, int)] if isinstance(allowed, list) else []
    return min(counts, key=lambda n: (abs(n - 4), n))


def playthroughs(rulesets: tuple[str, ...] | None = None) -> Iterator[Playthrough]:
    """The golden playthroughs of every ruleset of the spec (or of ``rulesets``): the
    ruleset's own game (every option at its default) under the first seed of :data:`SEEDS`;
    then, for each choice of each option other than its default, that game under the first
    seed whose hand shows anything different from the ruleset's own under that seed (the deal,
    a step, a legal action, the outcome)."""
    spec = default_spec()
    for ruleset_id in sorted(rulesets or spec.rulesets):
        ruleset = spec.rulesets[ruleset_id]
        game = Game.create(ruleset_id, players_for(ruleset_id, {}))
        yield Playthrough(ruleset_id, game, SEEDS[0])
        shown: dict[int, list[str]] = {}
        for name in sorted(ruleset.options):
            for choice in sorted(ruleset.options[name].choices):
                if choice == game.options.get(name):
                    continue
                options = {name: choice}
                variant = Game.create(ruleset_id, players_for(ruleset_id, options), options)
                for seed in SEEDS:
                    if seed not in shown:
                        shown[seed] = _shows(game, seed)
                    if _shows(variant, seed) != shown[seed]:
                        yield Playthrough(f"{ruleset_id}--{name}={choice}", variant, seed)
                        break
