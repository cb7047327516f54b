"""What the terminal (:mod:`napkit.spec.views`, ``napkit play``) and the rules site
(:mod:`napkit.site.pages`) both show, rendered once: parameter values in words (player counts
as ``3-7``, packs as ``3: 9-A; 4-7: 2-A``), a ruleset's player counts, and cards and hands."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from napkit.engine.cards import SUIT_LETTERS, SUIT_SYMBOLS, card_name, card_symbol, suit_of
from napkit.spec.loading import JSON
from napkit.spec.rulesets import Ruleset, is_switch


def format_players(counts: Iterable[int]) -> str:
    """``[3, 4, 5, 7]`` as ``3-5, 7``."""
    ordered = sorted(set(counts))
    runs: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        runs.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ", ".join(runs)


def compact(value: JSON) -> str:
    """Compact JSON on one line (strings bare)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "none"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _is_counts(value: JSON) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in value))


def _is_pack(value: JSON) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(e, dict) and set(e) == {"players", "lowest_rank"} for e in value)


def value_text(path: str, value: JSON) -> str:
    """A resolved parameter value as shown to people; ``path`` says which parameter it is."""
    leaf = path.rsplit(".", 1)[-1]
    if leaf == "players" and _is_counts(value):
        assert isinstance(value, list)
        return format_players(n for n in value if isinstance(n, int))
    if _is_pack(value):
        assert isinstance(value, list)
        parts = []
        for entry in value:
            assert isinstance(entry, dict)
            counts = entry["players"]
            players = (format_players(n for n in counts if isinstance(n, int))
                       if isinstance(counts, list) else compact(counts))
            parts.append(f"{players}: {compact(entry['lowest_rank'])}-A")
        return "; ".join(parts)
    if isinstance(value, dict) and value and all(
            isinstance(v, str | int | float | bool) or v is None for v in value.values()):
        # A small record of settings (the widow: its name, when it is dealt) reads as words.
        return ", ".join(f"{key}: {compact(v)}" for key, v in value.items())
    return compact(value)


def param_values(resolved: Mapping[str, JSON], entry: str) -> list[tuple[str, str]]:
    """The values a rule's params entry names, as (label, text) pairs.

    ``players`` gives one pair labelled ``players``; ``bids[*].lead`` one pair per bid that
    has the field, labelled by the bid's id; ``bids`` lists the bid ids.
    """
    if entry.startswith("bids[*]."):
        field = entry.removeprefix("bids[*].")
        bids = resolved.get("bids")
        pairs = []
        for bid in bids if isinstance(bids, list) else []:
            if isinstance(bid, dict):
                found, value = lookup(bid, field)
                if found:
                    pairs.append((str(bid.get("id")), value_text(field, value)))
        return pairs
    if entry == "bids":
        bids = resolved.get("bids")
        listed = bids if isinstance(bids, list) else []
        ids = [str(b.get("id")) for b in listed if isinstance(b, dict)]
        return [("bids", ", ".join(ids) if ids else "none")]
    found, value = lookup(resolved, entry)
    return [(entry, value_text(entry, value) if found else "not set")]


_DEFEATED = {"each-opponent": "each opponent scores them",
             "off-declarer": "they come off the declarer's score",
             "nobody": "nobody scores"}


def scoring_text(resolved: Mapping[str, JSON]) -> str:
    """How a resolved ruleset settles a contract, in words: in chips (NAP-9.1, NAP-9.2), or on
    a score sheet in points, who scores and to what target (NAP-9.6, NAP-10.4.5)."""
    scoring = resolved.get("scoring")
    if not isinstance(scoring, dict) or scoring.get("sheet") != "points":
        return ("chips: a made contract is paid by the opponents, a defeated one by the "
                "declarer, as each bid says (NAP-9.1, NAP-9.2)")
    defeated = scoring.get("defeated")
    target = scoring.get("target")
    return ("points on a score sheet, paid by nobody (NAP-9.6): made, the declarer scores the "
            f"bid's points; defeated, {_DEFEATED.get(str(defeated), compact(defeated))}; "
            + (f"the match ends at {compact(target)} points (NAP-10.4.5)" if target is not None
               else "no target score"))


def specific_values(params: Iterable[str], resolved: Mapping[str, JSON]) -> list[
        tuple[str, list[tuple[str, str]]]]:
    """The values a rule's params entries name (:func:`param_values`), the most specific
    entries only: ``auction.rounds`` rather than ``auction`` as well, and the bids' ids once,
    under ``bids``."""
    entries = list(params)
    return [(entry, param_values(resolved, entry)) for entry in entries
            if not any(other.startswith(entry + ".") for other in entries)
            and not (entry == "bids[*].id" and "bids" in entries)]


def lookup(value: Mapping[str, JSON], dotted: str) -> tuple[bool, JSON]:
    """The value at a dotted path (``preparation.usual``), and whether it is there at all."""
    current: JSON = dict(value)
    for key in dotted.split("."):
        if not isinstance(current, dict) or key not in current:
            return False, None
        current = current[key]
    return True, current


# --- a ruleset's tables ----------------------------------------------------------------------
def players_text(ruleset: Ruleset) -> str:
    """The player counts a ruleset allows with its default options, and any more an option
    allows: ``3-5 (+6 by option)``.

    >>> from napkit.spec.catalog import default_spec
    >>> from napkit.spec.render import players_text
    >>> players_text(default_spec().rulesets["pagat"])
    '3-10'
    >>> players_text(default_spec().rulesets["napoleon"])
    '3-10 (+2 by option)'
    """
    default = _counts(ruleset.resolve().get("players"))
    others: set[int] = set()
    _player_leaves(ruleset.params.get("players"), others)
    extra = others - set(default)
    shown = format_players(default) or "?"
    return f"{shown} (+{format_players(extra)} by option)" if extra else shown


def _counts(value: JSON) -> list[int]:
    return [n for n in value if isinstance(n, int)] if isinstance(value, list) else []


def _player_leaves(value: JSON, out: set[int]) -> None:
    if isinstance(value, dict) and is_switch(value):
        cases = value["cases"]
        for case in cases.values() if isinstance(cases, dict) else []:
            _player_leaves(case, out)
    else:
        out.update(_counts(value))


# --- cards -----------------------------------------------------------------------------------
def card_text(card: int, symbols: bool = False) -> str:
    """A card as the terminal shows it (``10H``), or the site (``10♥``).

    >>> from napkit.engine.cards import parse_card
    >>> from napkit.spec.render import card_text
    >>> card_text(parse_card("10H")), card_text(parse_card("AS"), symbols=True)
    ('10H', 'A♠')
    """
    return card_symbol(card) if symbols else card_name(card)


def hand_text(cards: Iterable[int], symbols: bool = False) -> str:
    """A hand grouped by suit, spades to clubs, high cards first: ``S: A 9  H: K  C: 2`` (the
    terminal), or ``♠ A 9  ♥ K  ♣ 2`` (the site).

    >>> from napkit.engine.cards import parse_card
    >>> from napkit.spec.render import hand_text
    >>> hand = [parse_card(c) for c in ("2C", "9S", "KH", "AS")]
    >>> hand_text(hand)
    'S: A 9  H: K  C: 2'
    >>> hand_text(hand, symbols=True)
    '♠ A 9  ♥ K  ♣ 2'
    >>> hand_text([])
    '(no cards)'
    """
    held = list(cards)
    groups = []
    for suit in range(4):
        ranks = sorted((c for c in held if suit_of(c) == suit), reverse=True)
        if ranks:
            label = SUIT_SYMBOLS[suit] if symbols else f"{SUIT_LETTERS[suit]}:"
            groups.append(f"{label} " + " ".join(card_name(c)[:-1] for c in ranks))
    return "  ".join(groups) if groups else "(no cards)"
