"""A ruleset's rules on one printable page, for the table (``napkit rules sheet``, and a sheet
per built-in ruleset on the rules site).

:func:`sheet_html` lays out, from the ruleset's data alone (its resolved parameters, its options
and the decisions it relies on; nothing is written per ruleset): the bids in order with what
each undertakes, wins and pays; the deal; the auction; the looks, exchanges and purchases the
game has; trumps, the lead duties and the play; the pool, the stakes and the match; the options
in play and the decisions taken. Every line ends with the law-book id it follows (the bids'
table names them in its column headings), linked to the rules site's page for it
(``lawbook.html#NAP-9.2.1``, ``decisions.html#DEC-017``, under the ``site`` prefix given).

The page is one self-contained HTML file: inline CSS, no script, nothing fetched. It is the
template ``sheet.html`` of :mod:`napkit.output.pages` (autoescaped: a house file's title or
description is text, never markup), its style ``sheet.css``, whose print rules set it on A4 in
two columns, so that every built-in ruleset's sheet prints on at most two sides
(tests/test_rules_sheet.py prints each in headless Chromium and counts).

>>> from napkit.spec.catalog import default_spec
>>> from napkit.handbook.sheet import sheet_html
>>> page = sheet_html(default_spec(), default_spec().rulesets["classic"])
>>> "<h2>The deal</h2>" in page, 'href="lawbook.html#NAP-9.1.1"' in page
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from napkit.output.pages import render
from napkit.spec.catalog import Spec
from napkit.spec.house import HouseRuleset
from napkit.spec.loading import JSON, JSONObject
from napkit.spec.render import format_players
from napkit.spec.rulesets import Ruleset

__all__ = ["Line", "sheet_html", "sheet_lines"]

_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

# What each parameter value means, in a few words (the law book's rule says it in full).
_LEAD = {
    "trump": "lead a trump to the first trick",
    "lowest-trump": "lead your lowest trump to the first trick",
    "lowest-non-trump": "lead your lowest card outside trumps to the first trick",
    "lowest-card": "lead your lowest card to the first trick (its suit is trumps)",
}
_TRUMPS = {
    "first-card-led": "the suit of the declarer's first lead is trumps",
    "named": "the declarer names trumps before leading",
    "none": "no trumps",
}
_PREPARATION = {"shuffle": "shuffled", "gather-and-cut": "gathered and cut (not shuffled)"}
_THROW_IN_STAKES = {
    "unchanged": "the stakes stay as they are",
    "double-next": "the next hand played is at double stakes",
    "double-cumulative": "the next hand played is at double stakes, doubled again for each "
                         "further throw-in in a row",
}
_MATCH_END = {
    "agreed": "Play until the players agree to stop",
    "agreed-hands": "Play an agreed number of hands",
    "last-with-chips": "Play until one player has all the chips",
    "last-with-chips-or-agreed-hands": "Play until one player has all the chips, or an agreed "
                                       "number of hands",
}
_SHORT_PAYMENT = {
    "pay-what-you-have": "a player who cannot pay in full pays what they have",
    "debt": "a player may owe: balances may go below zero",
}
_POOL_END = {
    "unclaimed": "left unclaimed",
    "split-equally": "shared equally among the players",
}
_POOL_DOUBLING = {
    "bidder-matches-pool": "the declarer pays in as much as it holds",
    "players-re-ante": "every player antes again",
}
_RAISING = {"bidders": "those who bid in the first round", "everyone": "every player"}
_SHORT_STOCK = {
    "limit": "when the stock runs short, the last buyers get only what is left",
    "reshuffle-discards": "when the stock runs short, the discards are shuffled into it",
}


@dataclass(frozen=True)
class Line:
    """One line of the sheet: its words and the law-book (or register) ids it follows."""

    text: str
    ids: tuple[str, ...]


@dataclass(frozen=True)
class _Bid:
    name: str
    undertakes: Line
    wins: Line
    pays: Line


# --- reading the resolved parameters -------------------------------------------------------------
def _get(value: JSON, *path: str) -> JSON:
    for step in path:
        if not isinstance(value, dict):
            return None
        value = value.get(step)
    return value


def _int(value: JSON) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _word(table: Mapping[str, str], value: JSON) -> str:
    return table.get(str(value), str(value))


def _bids(resolved: JSONObject) -> list[JSONObject]:
    bids = resolved.get("bids")
    return [b for b in bids if isinstance(b, dict)] if isinstance(bids, list) else []


def _names(resolved: JSONObject, ids: Sequence[JSON]) -> str:
    by_id = {str(b.get("id")): str(b.get("name")) for b in _bids(resolved)}
    return _listing([by_id.get(str(i), str(i)) for i in ids])


def _pairs(items: Sequence[str]) -> list[str]:
    """Bids made with and without the widow named once: "Nap with or without the floater"."""
    out: list[str] = []
    for item in items:
        if " without " in item and item.replace(" without ", " with ", 1) in items:
            continue
        partner = item.replace(" with ", " without ", 1)
        out.append(item.replace(" with ", " with or without ", 1)
                   if " with " in item and partner in items else item)
    return out


def _listing(items: Sequence[str], last: str = "or") -> str:
    items = _pairs(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _pool_word(resolved: JSONObject) -> str:
    name = _get(resolved, "pool", "name")
    return str(name) if isinstance(name, str) else "pool"


def _widow_word(resolved: JSONObject) -> str:
    name = _get(resolved, "widow", "name")
    return str(name) if isinstance(name, str) else "widow"


# --- the bids ------------------------------------------------------------------------------------
def _bid_rows(resolved: JSONObject) -> list[_Bid]:
    rows = []
    widow = _widow_word(resolved)
    pool = _pool_word(resolved)
    for bid in _bids(resolved):
        tricks = _int(bid.get("tricks"))
        if bid.get("misere") is True:
            what, ids = "lose every trick", ["NAP-5.2.3"]
        elif tricks == 5:
            what, ids = "win all five tricks", ["NAP-5.2.3"]
        else:
            what = f"win at least {tricks} trick{'' if tricks == 1 else 's'}"
            ids = ["NAP-5.2.3"]
        extra = []
        if bid.get("widow") in ("with", "without"):
            extra.append(f"{bid['widow']} the {widow}")
            ids.append("NAP-5.2.4")
        requires = bid.get("requires")
        if isinstance(requires, list) and requires:
            groups = [_names(resolved, g) for g in requires if isinstance(g, list)]
            extra.append(f"only after {_listing(groups, 'and')} has been bid")
            ids.append("NAP-5.2.5")
        trumps = bid.get("trumps")
        if trumps == "none":
            extra.append("no trumps")
            ids.append("NAP-7.1.3")
        lead = bid.get("lead")
        if isinstance(lead, str) and lead in _LEAD:
            extra.append(_LEAD[lead])
            ids.append("NAP-7.2.2")
        undertakes = Line("; ".join([what, *extra]), tuple(ids))
        scoring = resolved.get("scoring")
        if isinstance(scoring, dict) and scoring.get("sheet") == "points":
            wins, pays = _points(bid, scoring)
        else:
            wins, pays = _wins(bid, pool), _pays(bid, pool)
        rows.append(_Bid(str(bid.get("name", bid.get("id"))), undertakes, wins, pays))
    return rows


_DEFEATED_POINTS = {"each-opponent": "{} points to each opponent",
                    "off-declarer": "{} points off the declarer", "nobody": "no points"}


def _points(bid: JSONObject, scoring: JSONObject) -> tuple[Line, Line]:
    """A bid's made and defeated lines on a score sheet in points (NAP-9.6), nobody paying."""
    points = _int(bid.get("points"))
    worth = points if points is not None else _int(_get(bid.get("win"), "each")) or 0
    defeated = _DEFEATED_POINTS.get(str(scoring.get("defeated")), "no points").format(worth)
    return (Line(f"{worth} points to the declarer", ("NAP-9.6.2", "NAP-9.6.4")),
            Line(defeated, ("NAP-9.6.3", "NAP-9.6.4")))


def _wins(bid: JSONObject, pool: str) -> Line:
    win = bid.get("win")
    parts, ids = [], []
    each = _int(_get(win, "each"))
    if each:
        parts.append(f"{each} from each opponent")
        ids.append("NAP-9.1.1")
    if _get(win, "pool") is True:
        parts.append(f"the {pool}")
        ids.append("NAP-9.1.2")
    return Line(" + ".join(parts) or "nothing", tuple(ids))


def _pays(bid: JSONObject, pool: str) -> Line:
    lose = bid.get("lose")
    parts, ids = [], []
    each = _int(_get(lose, "each"))
    if each:
        parts.append(f"{each} to each opponent")
        ids.append("NAP-9.2.1")
    per_player = _int(_get(lose, "pool_per_player"))
    if per_player:
        parts.append(f"{per_player} per player into the {pool}")
        ids.append("NAP-9.2.2")
    if _get(lose, "double_pool") is True:
        parts.append(f"doubles the {pool}")
        ids.append("NAP-9.2.3")
    return Line(" + ".join(parts) or "nothing", tuple(ids))


# --- the other sections --------------------------------------------------------------------------
def _pack_text(entry: JSON) -> str | None:
    players, lowest = _get(entry, "players"), _get(entry, "lowest_rank")
    if not isinstance(players, list) or str(lowest) not in _RANKS:
        return None
    count = 4 * (len(_RANKS) - _RANKS.index(str(lowest)))
    counts = format_players(n for n in players if isinstance(n, int))
    cards = "the full pack of 52" if count == 52 else f"{count} cards, {lowest} up to ace"
    return f"{counts} players: {cards}"


def _deal(resolved: JSONObject) -> list[Line]:
    lines = []
    players = resolved.get("players")
    if isinstance(players, list):
        counts = format_players(n for n in players if isinstance(n, int))
        lines.append(Line(f"{counts} players; the declarer plays alone against all the others",
                          ("NAP-3.1.1", "NAP-1.1.1")))
    pack = resolved.get("pack")
    if isinstance(pack, list):
        texts = [t for entry in pack if (t := _pack_text(entry))]
        lines.append(Line("Pack: " + "; ".join(texts) + " (ace high)", ("NAP-2.2.1", "NAP-2.1.1")))
    first = resolved.get("first_dealer")
    how = "cut for" if first == "cut" else "chosen at random"
    lines.append(Line(f"The first dealer is {how}; the deal then passes to the left",
                      ("NAP-4.1.1", "NAP-4.1.2")))
    packets = resolved.get("packets")
    if isinstance(packets, list):
        sizes = [str(p) for p in packets]
        way = ("one card at a time" if all(p == "1" for p in sizes)
               else "in packets of " + " then ".join(sizes))
        lines.append(Line(f"Five cards each, clockwise from the dealer's left, {way}",
                          ("NAP-4.2.1", "NAP-4.2.2")))
    widow = resolved.get("widow")
    if isinstance(widow, dict):
        when = "after" if widow.get("dealt") != "before-hands" else "before"
        lines.append(Line(f"One card, the {_widow_word(resolved)}, is dealt face down {when} "
                          "the hands; nobody sees it unless the rules below allow",
                          ("NAP-4.3.1", "NAP-4.3.2")))
    lines.append(Line("The cards not dealt stay out of play (the stock)", ("NAP-4.2.3",)))
    preparation = resolved.get("preparation")
    if isinstance(preparation, dict):
        text = (f"Before each deal the pack is {_word(_PREPARATION, preparation.get('usual'))}")
        made = preparation.get("shuffle_after_made")
        if isinstance(made, list) and made and preparation.get("usual") != "shuffle":
            text += f", but shuffled after a made {_names(resolved, made)}"
        if preparation.get("usual") != "shuffle":
            text += "; the first deal is shuffled"
        lines.append(Line(text, ("NAP-10.2.1",)))
    ante = resolved.get("ante")
    if isinstance(ante, dict):
        amount = _int(ante.get("amount"))
        text = f"Each player pays an ante of {amount} into the {_pool_word(resolved)} before " \
               "each deal"
        if ante.get("on_redeal") is True:
            text += ", again after a throw-in"
        if ante.get("sit_out") is True:
            text += "; a player may sit a hand out by not paying"
        lines.append(Line(text, ("NAP-10.3.1",)))
    return lines


def _auction(resolved: JSONObject) -> list[Line]:
    lines = [Line("The player on the dealer's left speaks first, then each in turn clockwise, "
                  "ending with the dealer: pass, or bid higher than the bid so far",
                  ("NAP-5.1.1", "NAP-5.2.1"))]
    rounds = _get(resolved, "auction", "rounds")
    if rounds == "single":
        lines.append(Line("Each player speaks once", ("NAP-5.1.2",)))
    elif rounds == "single-then-raise":
        raising = _word(_RAISING, _get(resolved, "auction", "raising"))
        lines.append(Line(f"After one round, the bidding goes round again: {raising} may raise "
                          "their bid", ("NAP-5.1.2", "NAP-5.4.1")))
    elif rounds == "until-passes":
        lines.append(Line("The bidding goes round until all but the highest bidder have "
                          "passed; a player who passes does not speak again", ("NAP-5.1.2",)))
    elif rounds == "reopening":
        lines.append(Line("The bidding goes round, those who passed speaking again, until a "
                          "full round of passes follows the last bid", ("NAP-5.1.2",)))
    if _get(resolved, "auction", "dealer_must_bid") is True:
        lines.append(Line("If everyone else passes and nobody has bid, the dealer may not pass "
                          "and must bid", ("NAP-5.3.3",)))
    lines.append(Line("The highest bid is the contract; its bidder is the declarer",
                      ("NAP-5.3.1",)))
    stakes = _word(_THROW_IN_STAKES, _get(resolved, "throw_in", "stakes"))
    text = f"If everyone passes the hand is thrown in and the deal passes on; {stakes}"
    after = _get(resolved, "preparation", "after_throw_in")
    if isinstance(after, str):
        text += f"; the pack is then {_word(_PREPARATION, after)}"
    lines.append(Line(text, ("NAP-5.3.2", "NAP-9.4.1", "NAP-10.2.3")))
    return lines


def _looks(resolved: JSONObject) -> list[Line]:
    lines = []
    widow, pool = _widow_word(resolved), _pool_word(resolved)
    peek = resolved.get("peek")
    if isinstance(peek, dict):
        lines.append(Line(f"At your turn to bid, before speaking, you may pay "
                          f"{_int(peek.get('cost'))} into the {pool} to look at the {widow} "
                          "(once a hand, without showing it)", ("NAP-6.1.1",)))
        if peek.get("dealer") == "free":
            lines.append(Line(f"The dealer looks at the {widow} free before the bidding",
                              ("NAP-6.1.2",)))
        if peek.get("with_bids") == "seen-only":
            lines.append(Line(f"Only a player who has seen the {widow} may bid with it",
                              ("NAP-5.2.4",)))
        elif any(b.get("widow") == "with" for b in _bids(resolved)):
            lines.append(Line(f"You may bid with the {widow} without having seen it",
                              ("NAP-5.2.4",)))
    exchange = resolved.get("exchange")
    if isinstance(exchange, dict):
        who = ("A declarer who bid with the " + widow if exchange.get("when") == "bid-with"
               else "The declarer")
        take = ("must take it into hand and discard one card (not it)"
                if exchange.get("take") == "must-take-widow"
                else f"may take the {widow} and discard one card face down")
        lines.append(Line(f"{who} {take}, before trumps are fixed and the first lead",
                          ("NAP-6.3.1", "NAP-6.3.2")))
    purchase = resolved.get("purchase")
    if isinstance(purchase, dict):
        lines.append(Line(f"Before the bidding, each player in turn from the dealer's left may "
                          f"pay {_int(purchase.get('cost'))} into the {pool}, discard any number "
                          "of cards and be dealt as many from the stock", ("NAP-6.2.1",)))
        short = purchase.get("short_stock")
        if isinstance(short, str):
            lines.append(Line(_word(_SHORT_STOCK, short).capitalize(), ("NAP-6.2.2",)))
    return lines


def _play(resolved: JSONObject) -> list[Line]:
    lines = [Line("The declarer leads to the first trick", ("NAP-7.2.1",))]
    bids = _bids(resolved)
    modes: dict[str, list[str]] = {}
    for bid in bids:
        modes.setdefault(str(bid.get("trumps")), []).append(str(bid.get("name")))
    rules = {"first-card-led": "NAP-7.1.1", "named": "NAP-7.1.2", "none": "NAP-7.1.3"}
    for mode, names in modes.items():
        which = "" if len(modes) == 1 else f" ({_listing(names, 'and')})"
        text = _word(_TRUMPS, mode)
        lines.append(Line(text[0].upper() + text[1:] + which, (rules.get(mode, "NAP-7.1.1"),)))
    naming = resolved.get("naming")
    if isinstance(naming, dict) and "named" in modes:
        if naming.get("void_suit") == "not-allowed":
            lines.append(Line("You may name only a suit you hold", ("NAP-7.1.2",)))
        elif naming.get("void_suit") == "allowed":
            lines.append(Line("You may name a suit you do not hold", ("NAP-7.1.2",)))
        duty = naming.get("non_trump_duty")
        if duty in ("binds", "lapses") and any(b.get("lead") == "lowest-non-trump"
                                               for b in bids):
            how = ("you must name a suit that leaves you a card outside it" if duty == "binds"
                   else "the duty to lead outside trumps lapses if all your cards are one suit")
            lines.append(Line(f"Where the first lead must be outside trumps, {how}",
                              ("NAP-7.1.4",)))
    duties = [(str(b.get("name")), str(b.get("lead"))) for b in bids
              if str(b.get("lead")) in _LEAD]
    for lead in dict.fromkeys(lead for _, lead in duties):
        names = [name for name, duty in duties if duty == lead]
        lines.append(Line(f"{_listing(names, 'and')}: {_LEAD[lead]}", ("NAP-7.2.2",)))
    lines += [
        Line("Follow suit if you can; otherwise play any card, a trump or a discard",
             ("NAP-8.1.1", "NAP-8.1.2")),
        Line("The highest trump wins the trick, else the highest card of the suit led; the "
             "winner leads to the next", ("NAP-8.2.1", "NAP-8.1.3")),
        Line("All five tricks are played; the contract is made if the declarer took at least "
             "the tricks bid (none, in a misère)", ("NAP-8.3.1", "NAP-8.3.2")),
    ]
    return lines


def _match(resolved: JSONObject) -> list[Line]:
    lines = [Line("Amounts are in units: agree what a unit is worth before play",
                  ("NAP-1.1.3", "NAP-10.1.1"))]
    scoring = resolved.get("scoring")
    if isinstance(scoring, dict) and scoring.get("sheet") == "points":
        target = _int(scoring.get("target"))
        lines.append(Line("A contract is scored on a sheet in points, not paid for; the highest "
                          "score wins" + (f"; the match ends when a score reaches {target}"
                                          if target else ""),
                          ("NAP-9.6.1", "NAP-10.4.4")
                          + (("NAP-10.4.5",) if target else ())))
    pool = resolved.get("pool")
    if isinstance(pool, dict):
        word = _pool_word(resolved)
        winners = [str(b.get("name")) for b in _bids(resolved) if _get(b, "win", "pool") is True]
        text = f"The {word} is carried from hand to hand"
        if winners:
            text += f" until a declarer makes {_listing(winners)} and takes it"
        lines.append(Line(text, ("NAP-9.3.1", "NAP-9.1.2")))
        doubling = pool.get("doubling")
        if isinstance(doubling, str):
            lines.append(Line(f"To double the {word}, {_word(_POOL_DOUBLING, doubling)}",
                              ("NAP-9.2.3",)))
        end = pool.get("at_match_end")
        if isinstance(end, str):
            lines.append(Line(f"At the end of the match the {word} is "
                              f"{_word(_POOL_END, end)}", ("NAP-9.3.2",)))
    match = resolved.get("match")
    end = _get(match, "end")
    bankroll = _get(match, "bankroll")
    if isinstance(bankroll, dict):
        lines.append(Line(f"Each player starts with {_int(bankroll.get('start'))} chips",
                          ("NAP-10.1.2",)))
        short = bankroll.get("short_payment")
        if isinstance(short, str):
            text = _word(_SHORT_PAYMENT, short)
            lines.append(Line(text[0].upper() + text[1:], ("NAP-9.5.1",)))
        lines.append(Line("A player left with no chips is out; the others play on",
                          ("NAP-10.4.2",)))
    else:
        lines.append(Line("No starting chips: each balance counts what a player has won or "
                          "lost", ("NAP-10.1.2",)))
    if isinstance(end, str):
        lines.append(Line(_word(_MATCH_END, end) + "; the highest balance wins",
                          ("NAP-10.4.1", "NAP-10.4.3")))
    return lines


def _options(ruleset: Ruleset, values: Mapping[str, str]) -> list[Line]:
    return [Line(f"{option.title} — {values[name]}: {option.choices.get(values[name], '')}",
                 (option.rule,))
            for name, option in ruleset.options.items() if option.decision is None]


def _decisions(spec: Spec, ruleset: Ruleset, values: Mapping[str, str]) -> list[Line]:
    chosen = {o.decision: values[name] for name, o in ruleset.options.items() if o.decision}
    lines = []
    for decision_id in ruleset.decision_ids():
        decision = spec.register.get(decision_id)
        if decision is None:
            continue
        title = decision.title.split(": ", 1)[-1]
        reading = chosen.get(decision_id, decision.default)
        text = decision.alternatives.get(reading, reading)
        lines.append(Line(f"{title[0].upper()}{title[1:]} — {reading}: {text}",
                          (decision_id, decision.rule)))
    return lines


def sheet_lines(spec: Spec, ruleset: Ruleset, choices: Mapping[str, str] | None = None,
                ) -> list[tuple[str, list[Line]]]:
    """The sheet's sections after the bids, as (heading, lines); a section the game does not
    have (looks, say) is left out."""
    values = ruleset.option_values(choices)
    resolved = ruleset.resolve(choices)
    sections = [
        ("The deal", _deal(resolved)),
        ("The auction", _auction(resolved)),
        ("Looks, exchanges and purchases", _looks(resolved)),
        ("Trumps, the lead and the play", _play(resolved)),
        ("Stakes, pool and match", _match(resolved)),
        ("Options in play", _options(ruleset, values)),
        ("Decisions taken where the source is silent or unclear",
         _decisions(spec, ruleset, values)),
    ]
    return [(heading, lines) for heading, lines in sections if lines]


# --- the page ------------------------------------------------------------------------------------
def _links(ids: Sequence[str], site: str) -> list[tuple[str, str]]:
    """Each id once, with the address of its rule (or decision) on the rules site."""
    return [(ident, f"{site}{'decisions' if ident.startswith('DEC-') else 'lawbook'}.html"
                    f"#{ident}") for ident in dict.fromkeys(ids)]


def sheet_html(spec: Spec, ruleset: Ruleset, choices: Mapping[str, str] | None = None,
               site: str = "") -> str:
    """The one-page rules sheet of ``ruleset`` (with ``choices`` of its options) as a
    self-contained HTML page. ``site`` is the prefix of the links to the rules site's law book
    and decisions pages (``""``: beside them, ``"../"``: one folder down)."""
    values = ruleset.option_values(choices)
    resolved = ruleset.resolve(choices)
    # Each fact: its words, then the name it gives (set in monospace), if any.
    facts: list[tuple[str, str | None]] = [("", ruleset.id)]
    if isinstance(ruleset, HouseRuleset):
        facts.append(("a house game extending ", str(ruleset.extends)))
    else:
        facts.append((f"after {spec.index.name(ruleset.source)} ({ruleset.section})", None))
    changed = [f"{k}={v}" for k, v in values.items() if v != ruleset.options[k].default]
    if changed:
        facts.append(("options: " + ", ".join(changed), None))
    rows = _bid_rows(resolved)
    # The ids of each column once, in its heading: a row is then a line of plain words.
    heads = [("the declarer undertakes to", [i for r in rows for i in r.undertakes.ids]),
             ("made: the declarer wins", [i for r in rows for i in r.wins.ids]),
             ("defeated: the declarer pays", [i for r in rows for i in r.pays.ids])]
    return render(
        "sheet.html", title=ruleset.title, ruleset_id=ruleset.id, facts=facts,
        about=ruleset.description if isinstance(ruleset, HouseRuleset) else "",
        changes=list(ruleset.changes) if isinstance(ruleset, HouseRuleset) else [],
        bids_ids=_links(("NAP-5.2.2",), site),
        heads=[(heading, _links(ids, site)) for heading, ids in heads],
        bids=[{"name": row.name, "undertakes": row.undertakes.text, "wins": row.wins.text,
               "pays": row.pays.text} for row in rows],
        sections=[(heading, [(line.text, _links(line.ids, site)) for line in lines])
                  for heading, lines in sheet_lines(spec, ruleset, choices)])
