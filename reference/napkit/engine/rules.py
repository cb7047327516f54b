"""A ruleset's resolved parameters, typed: what the engine reads, and nothing else.

:func:`compile_rules` turns the plain values of a resolved ruleset (``Ruleset.resolve``, JSON
shaped as ``spec/schemas/ruleset.schema.json`` says) into :class:`Rules`. Every switch of a
ruleset is a ``Literal`` type here, with exactly the values its schema enum lists (a test
compares them), and :func:`compile_rules` refuses any other value: a misspelt switch such as
``"until-pases"`` stops the game from being built instead of silently taking an else branch.
A family of parameters that belong together (the widow, the pool, the looks, the purchase, the
exchange, the antes, the match) is one sub-record, ``None`` where the ruleset has none.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, get_args

from napkit.engine.cards import lowest_rank_index
from napkit.errors import SetupError, SpecError

# The switches, each with the values of its enum in the ruleset schema.
FirstDealer = Literal["random", "cut"]
WidowName = Literal["widow", "floater", "floating card"]
WidowDealt = Literal["after-hands", "before-hands"]
PoolName = Literal["pot", "kitty", "pool"]
Raising = Literal["bidders", "everyone"]
PeekDealer = Literal["pays", "free"]
ShortStock = Literal["limit", "reshuffle-discards"]
ExchangeWhen = Literal["any-contract", "bid-with"]
VoidSuit = Literal["allowed", "not-allowed"]
NonTrumpDuty = Literal["binds", "lapses"]
WithBids = Literal["anyone", "seen-only"]
PrepHow = Literal["shuffle", "gather-and-cut"]
PoolDoubling = Literal["bidder-matches-pool", "players-re-ante"]
PoolEnd = Literal["unclaimed", "split-equally"]
AuctionRounds = Literal["single", "single-then-raise", "until-passes", "reopening"]
ThrowInStakes = Literal["unchanged", "double-next", "double-cumulative"]
ExchangeTake = Literal["may", "must-take-widow"]
MatchEnd = Literal["agreed", "agreed-hands", "last-with-chips", "last-with-chips-or-agreed-hands"]
ShortPayment = Literal["pay-what-you-have", "debt"]
TrumpsHow = Literal["first-card-led", "named", "none"]
LeadObligation = Literal["any", "trump", "lowest-trump", "lowest-non-trump", "lowest-card"]
BidWidow = Literal["with", "without"]
ScoreSheet = Literal["chips", "points"]
ScoreMade = Literal["declarer"]
ScoreDefeated = Literal["each-opponent", "off-declarer", "nobody"]

#: Each switch type, by the name of its definition in ``ruleset.schema.json`` (``$defs``) or
#: the JSON path of its enum there: the test of this module checks that the two agree.
SWITCHES: dict[str, object] = {
    "params/first_dealer": FirstDealer,
    "params/widow/name": WidowName,
    "params/widow/dealt": WidowDealt,
    "params/pool/name": PoolName,
    "params/auction/raising": Raising,
    "params/peek/dealer": PeekDealer,
    "params/purchase/short_stock": ShortStock,
    "params/exchange/when": ExchangeWhen,
    "params/naming/void_suit": VoidSuit,
    "params/naming/non_trump_duty": NonTrumpDuty,
    "params/peek/with_bids": WithBids,
    "prepHow": PrepHow,
    "poolDoubling": PoolDoubling,
    "poolEnd": PoolEnd,
    "auctionRounds": AuctionRounds,
    "throwInStakes": ThrowInStakes,
    "exchangeTake": ExchangeTake,
    "matchEnd": MatchEnd,
    "shortPayment": ShortPayment,
    "trumpsHow": TrumpsHow,
    "leadObligation": LeadObligation,
    "bid/widow": BidWidow,
    "scoreSheet": ScoreSheet,
    "scoreMade": ScoreMade,
    "scoreDefeated": ScoreDefeated,
}


@dataclass(frozen=True, slots=True)
class BidRule:
    """One bid of a resolved ruleset (NAP-5.2.2): its rank is its ``index`` in the list."""

    index: int
    id: str
    name: str
    tricks: int
    misere: bool
    widow: BidWidow | None  # None where the bids do not say
    trumps: TrumpsHow
    lead: LeadObligation
    requires: tuple[int, ...]  # one mask of bid indexes per group: a bid of each must be made
    win_each: int
    win_pool: bool
    lose_each: int
    lose_pool_per_player: int
    double_pool: bool
    points: int = 0  # on a score sheet in points (NAP-9.6.4): its points, else win.each

    def fulfilled(self, tricks: int) -> bool:
        """Implements: NAP-5.2.3.

        A bid undertakes at least its number of tricks (more earns nothing more); a misère
        undertakes to win none.
        """
        return tricks == 0 if self.misere else tricks >= self.tricks


@dataclass(frozen=True, slots=True)
class WidowRules:
    """The widow (or floater, or floating card): one card dealt face down (NAP-4.3.1)."""

    name: WidowName
    dealt: WidowDealt


@dataclass(frozen=True, slots=True)
class Preparation:
    """How the pack is made ready for the next deal of a match (NAP-10.2)."""

    usual: PrepHow
    shuffle_after_made: frozenset[str]  # bid ids whose made contract is followed by a shuffle
    after_throw_in: PrepHow


@dataclass(frozen=True, slots=True)
class AnteRules:
    """Antes into the pool before each deal of a match (NAP-10.3); amount 0: none."""

    amount: int
    on_redeal: bool
    sit_out: bool


@dataclass(frozen=True, slots=True)
class PoolRules:
    """The pool (pot, kitty): what feeds it and what happens to it (NAP-9.2, NAP-10.4)."""

    name: PoolName
    doubling: PoolDoubling
    at_end: PoolEnd


@dataclass(frozen=True, slots=True)
class AuctionRules:
    """How the auction runs (NAP-5.1, NAP-5.3.3, NAP-5.4)."""

    rounds: AuctionRounds
    raising: Raising
    dealer_must_bid: bool = False  # stick the dealer (NAP-5.3.3)


@dataclass(frozen=True, slots=True)
class PeekRules:
    """Paid looks at the widow during the auction (NAP-6.1)."""

    cost: int
    dealer_free: bool
    with_bids_seen_only: bool = False  # only a player who has seen the widow bids with it


@dataclass(frozen=True, slots=True)
class PurchaseRules:
    """Buying new cards from the stock before the auction (NAP-6.2)."""

    cost: int
    short_stock: ShortStock


@dataclass(frozen=True, slots=True)
class ExchangeRules:
    """The declarer's exchange with the widow (NAP-6.3)."""

    when: ExchangeWhen
    take: ExchangeTake


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How a match ends, and the stock of chips it is played from (NAP-10.1, NAP-10.5)."""

    end: MatchEnd
    bankroll: int | None  # each player's starting chips; None: no fixed stock
    short_payment: ShortPayment


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """A score sheet in points, in place of payments on the contract (NAP-9.6, NAP-10.4.4)."""

    made: ScoreMade
    defeated: ScoreDefeated
    target: int | None  # the score that ends the match (NAP-10.4.5); None: no target


@dataclass(frozen=True, slots=True)
class Rules:
    """The resolved parameters of a ruleset, in the shape the engine reads them."""

    players: tuple[int, ...]
    pack: tuple[tuple[tuple[int, ...], int], ...]  # (player counts, lowest rank index)
    first_dealer: FirstDealer
    packets: tuple[int, ...]
    widow: WidowRules | None
    preparation: Preparation
    ante: AnteRules
    pool: PoolRules | None
    auction: AuctionRules
    throw_in_stakes: ThrowInStakes
    peek: PeekRules | None
    purchase: PurchaseRules | None
    exchange: ExchangeRules | None
    naming_void_allowed: bool
    bids: tuple[BidRule, ...]
    match: MatchRules
    naming_non_trump_binds: bool = False  # NAP-7.1.4: a non-trump lead duty limits naming
    scoring: ScoringRules | None = None  # None: settled in chips (NAP-9.1, NAP-9.2)

    @property
    def widow_name(self) -> str:
        """What the ruleset calls its widow ("widow" where it has none)."""
        return self.widow.name if self.widow is not None else "widow"

    @property
    def pool_name(self) -> str:
        """What the ruleset calls its pool ("pool" where it has none)."""
        return self.pool.name if self.pool is not None else "pool"

    def lowest_rank(self, players: int) -> int | None:
        """The lowest rank kept for this many players (NAP-2.2.1), or None if none is given."""
        for counts, rank in self.pack:
            if players in counts:
                return rank
        return None


class GameLike(Protocol):
    """What a hand reads of its game (:class:`napkit.engine.game.Game` is one)."""

    @property
    def id(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def bid_index(self) -> Mapping[str, int]: ...

    @property
    def options(self) -> Mapping[str, str]: ...

    @property
    def memo(self) -> dict[Hashable, Any]: ...

    def pack(self, players: int | None = None) -> int: ...


# --- compiling ---------------------------------------------------------------------------

class _Reader:
    """Reads resolved parameters, naming the JSON path of any value that is not as typed."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, path: str, message: str) -> SpecError:
        return SpecError(self.file, path, message)

    def obj(self, value: object, path: str, *, optional: bool = False) -> dict[str, object]:
        if value is None and optional:
            return {}
        if not isinstance(value, dict):
            raise self.fail(path, f"expected an object, not {value!r}")
        return value

    def switch(self, value: object, kind: object, path: str) -> Any:
        """``value``, which must be one of the Literal type ``kind``'s values (typed as Any so
        that it may be stored in a field of that type: it has just been checked)."""
        # Kept by the type's id (hashing a Literal is slower than get_args): a game is
        # compiled at every episode of a fuzzing run.
        known = _ALLOWED.get(id(kind))
        if known is not None and known[0] is kind:
            allowed = known[1]
        else:
            allowed = get_args(kind)
            _ALLOWED[id(kind)] = (kind, allowed)
        if value not in allowed:
            raise self.fail(path, f"{value!r} is not one of {', '.join(map(repr, allowed))}")
        return value

    def integer(self, value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected a whole number, not {value!r}")
        return value

    def integers(self, value: object, path: str) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list of whole numbers, not {value!r}")
        return tuple(self.integer(v, f"{path}[{i}]") for i, v in enumerate(value))

    def text(self, value: object, path: str) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string, not {value!r}")
        return value

    def texts(self, value: object, path: str) -> list[str]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list of strings, not {value!r}")
        return [self.text(v, f"{path}[{i}]") for i, v in enumerate(value)]


# Each switch type's values (typing.get_args of the Literal), by the type's id, with the type
# (kept alive, so that no other takes its id): fill-once and pure.
_ALLOWED: dict[int, tuple[object, tuple[object, ...]]] = {}


def _bids(r: _Reader, raw: object) -> tuple[BidRule, ...]:
    if not isinstance(raw, list):
        raise r.fail("$.bids", "expected a list of bids")
    index = {r.text(r.obj(b, f"$.bids[{i}]").get("id"), f"$.bids[{i}].id"): i
             for i, b in enumerate(raw)}
    bids = []
    for i, value in enumerate(raw):
        at = f"$.bids[{i}]"
        b = r.obj(value, at)
        win = r.obj(b.get("win"), f"{at}.win", optional=True)
        lose = r.obj(b.get("lose"), f"{at}.lose", optional=True)
        # Each inner list of "requires" is a group, one bid of which must have been made: a
        # bid of a group that the options leave out of the game cannot be; a group with none
        # of its bids in the game (mask 0) can never be satisfied.
        requires = []
        groups = b.get("requires", [])
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            mask = 0
            for bid_id in r.texts(group, f"{at}.requires[{g}]"):
                if bid_id in index:
                    mask |= 1 << index[bid_id]
            requires.append(mask)
        widow = b.get("widow")
        bids.append(BidRule(
            index=i, id=r.text(b.get("id"), f"{at}.id"), name=r.text(b.get("name"), f"{at}.name"),
            tricks=r.integer(b.get("tricks"), f"{at}.tricks"), misere=bool(b.get("misere", False)),
            widow=None if widow is None else (r.switch(widow, BidWidow, f"{at}.widow")),
            trumps=(r.switch(b.get("trumps"), TrumpsHow, f"{at}.trumps")),
            lead=(r.switch(b.get("lead"), LeadObligation, f"{at}.lead")),
            requires=tuple(requires),
            win_each=r.integer(win.get("each", 0), f"{at}.win.each"),
            win_pool=bool(win.get("pool", False)),
            lose_each=r.integer(lose.get("each", 0), f"{at}.lose.each"),
            lose_pool_per_player=r.integer(lose.get("pool_per_player", 0),
                                       f"{at}.lose.pool_per_player"),
            double_pool=bool(lose.get("double_pool", False)),
            points=r.integer(b.get("points", win.get("each", 0)), f"{at}.points"),
        ))
    return tuple(bids)


class KeptParams(dict[str, object]):
    """Resolved parameters whose values are kept and shared between games, and never changed
    (``napkit.spec.rulesets.Ruleset.resolve_kept`` gives them): :func:`compile_rules` reuses
    what it compiled of each value, found by the value's identity."""


# Each field of Rules, and the one top-level parameter it is compiled from (a test checks
# that every field is here and that each depends on its parameter alone).
_SOURCES: tuple[tuple[str, str], ...] = (
    ("players", "players"), ("pack", "pack"), ("first_dealer", "first_dealer"),
    ("packets", "packets"), ("widow", "widow"), ("preparation", "preparation"),
    ("ante", "ante"), ("pool", "pool"), ("auction", "auction"),
    ("throw_in_stakes", "throw_in"), ("peek", "peek"), ("purchase", "purchase"),
    ("exchange", "exchange"), ("naming_void_allowed", "naming"),
    ("naming_non_trump_binds", "naming"), ("bids", "bids"), ("match", "match"),
    ("scoring", "scoring"))

#: How many compiled fields compile_rules keeps (of KeptParams): emptied when full.
PIECES_KEPT = 4096

# By (field, id of the parameter's value): the value (kept alive, so that no other takes its
# id) and the field compiled from it. Filled only from a whole compile that succeeded, so a
# value that fails is compiled again (and fails alike) every time; emptied by clear_memos.
_PIECES: dict[tuple[str, int], tuple[object, Any]] = {}


def clear_pieces() -> None:
    """Forget the compiled fields kept (see :func:`napkit.engine.game.clear_memos`)."""
    _PIECES.clear()


def compile_rules(params: Mapping[str, object], file: str = "<ruleset>") -> Rules:
    """Turn a ruleset's resolved parameters into :class:`Rules`.

    Raises :class:`~napkit.errors.SpecError` naming the JSON path of any value the engine
    cannot read, a switch value its schema does not list above all.
    """
    if type(params) is not KeptParams:
        return _compile(params, file)
    # A fuzzer builds a game of new options at nearly every episode, but each parameter reads
    # few options, so its (shared) value recurs: each field is compiled once per value. Any
    # field not kept: the whole is compiled, as for any parameters (the same errors first).
    found: dict[str, Any] = {}
    pieces = _PIECES
    for name, source in _SOURCES:
        value = params.get(source)
        piece = pieces.get((name, id(value)))
        if piece is None or piece[0] is not value:
            break
        found[name] = piece[1]
    else:
        return Rules(**found)
    rules = _compile(params, file)
    if len(pieces) >= PIECES_KEPT:
        pieces.clear()
    for name, source in _SOURCES:
        value = params.get(source)
        pieces[name, id(value)] = (value, getattr(rules, name))
    return rules


def _compile(params: Mapping[str, object], file: str) -> Rules:
    r = _Reader(file)
    widow = params.get("widow")
    w = r.obj(widow, "$.widow", optional=True)
    prep = r.obj(params.get("preparation"), "$.preparation")
    ante = r.obj(params.get("ante"), "$.ante", optional=True)
    pool = params.get("pool")
    p = r.obj(pool, "$.pool", optional=True)
    auction = r.obj(params.get("auction"), "$.auction")
    peek = params.get("peek")
    pk = r.obj(peek, "$.peek", optional=True)
    purchase = params.get("purchase")
    pu = r.obj(purchase, "$.purchase", optional=True)
    exchange = params.get("exchange")
    ex = r.obj(exchange, "$.exchange", optional=True)
    naming = r.obj(params.get("naming"), "$.naming", optional=True)
    match = r.obj(params.get("match"), "$.match")
    bankroll = match.get("bankroll")
    br = r.obj(bankroll, "$.match.bankroll", optional=True)
    packs = params.get("pack")
    if not isinstance(packs, list):
        raise r.fail("$.pack", "expected a list of packs")
    return Rules(
        players=r.integers(params.get("players"), "$.players"),
        pack=tuple(
            (r.integers(r.obj(entry, f"$.pack[{i}]").get("players"), f"$.pack[{i}].players"),
             lowest_rank_index(r.text(r.obj(entry, f"$.pack[{i}]").get("lowest_rank"),
                                     f"$.pack[{i}].lowest_rank")))
            for i, entry in enumerate(packs)),
        first_dealer=(r.switch(params.get("first_dealer"), FirstDealer, "$.first_dealer")),
        packets=r.integers(params.get("packets"), "$.packets"),
        widow=None if widow is None else WidowRules(
            name=(r.switch(w.get("name", "widow"), WidowName, "$.widow.name")),
            dealt=(r.switch(w.get("dealt", "after-hands"), WidowDealt, "$.widow.dealt"))),
        preparation=Preparation(
            usual=(r.switch(prep.get("usual"), PrepHow, "$.preparation.usual")),
            shuffle_after_made=frozenset(r.texts(prep.get("shuffle_after_made", []),
                                                "$.preparation.shuffle_after_made")),
            after_throw_in=(r.switch(prep.get("after_throw_in"), PrepHow,
                                        "$.preparation.after_throw_in"))),
        ante=AnteRules(amount=r.integer(ante.get("amount", 0), "$.ante.amount"),
                       on_redeal=bool(ante.get("on_redeal", True)),
                       sit_out=bool(ante.get("sit_out", False))),
        pool=None if pool is None else PoolRules(
            name=(r.switch(p.get("name", "pool"), PoolName, "$.pool.name")),
            doubling=(r.switch(p.get("doubling", "bidder-matches-pool"), PoolDoubling,
                                  "$.pool.doubling")),
            at_end=(r.switch(p.get("at_match_end", "unclaimed"), PoolEnd,
                                "$.pool.at_match_end"))),
        auction=AuctionRules(
            rounds=(r.switch(auction.get("rounds"), AuctionRounds, "$.auction.rounds")),
            raising=(r.switch(auction.get("raising", "bidders"), Raising,
                                 "$.auction.raising")),
            dealer_must_bid=bool(auction.get("dealer_must_bid", False))),
        throw_in_stakes=(r.switch(r.obj(params.get("throw_in"), "$.throw_in").get("stakes"),
                                     ThrowInStakes, "$.throw_in.stakes")),
        peek=None if peek is None else PeekRules(
            cost=r.integer(pk.get("cost"), "$.peek.cost"),
            dealer_free=r.switch(pk.get("dealer", "pays"), PeekDealer, "$.peek.dealer") == "free",
            with_bids_seen_only=r.switch(pk.get("with_bids", "anyone"), WithBids,
                                         "$.peek.with_bids") == "seen-only"),
        purchase=None if purchase is None else PurchaseRules(
            cost=r.integer(pu.get("cost"), "$.purchase.cost"),
            short_stock=(r.switch(pu.get("short_stock", "limit"), ShortStock,
                                     "$.purchase.short_stock"))),
        exchange=None if exchange is None else ExchangeRules(
            when=(r.switch(ex.get("when"), ExchangeWhen, "$.exchange.when")),
            take=(r.switch(ex.get("take", "may"), ExchangeTake, "$.exchange.take"))),
        naming_void_allowed=r.switch(naming.get("void_suit", "allowed"), VoidSuit,
                                     "$.naming.void_suit") == "allowed",
        naming_non_trump_binds=r.switch(naming.get("non_trump_duty", "lapses"), NonTrumpDuty,
                                        "$.naming.non_trump_duty") == "binds",
        bids=_bids(r, params.get("bids")),
        scoring=_scoring(r, params.get("scoring")),
        match=MatchRules(
            end=(r.switch(match.get("end"), MatchEnd, "$.match.end")),
            bankroll=None if bankroll is None else r.integer(br.get("start"),
                                                         "$.match.bankroll.start"),
            short_payment=(r.switch(br.get("short_payment", "debt"), ShortPayment,
                                       "$.match.bankroll.short_payment"))),
    )


def _scoring(r: _Reader, raw: object) -> ScoringRules | None:
    """A score sheet in points, or None for chips (``scoring`` left out, or sheet chips)."""
    if raw is None:
        return None
    sheet = r.obj(raw, "$.scoring")
    if r.switch(sheet.get("sheet"), ScoreSheet, "$.scoring.sheet") == "chips":
        return None
    target = sheet.get("target")
    if target is not None and r.integer(target, "$.scoring.target") < 1:
        raise r.fail("$.scoring.target", f"a target is at least 1 point, not {target!r}")
    return ScoringRules(
        made=r.switch(sheet.get("made"), ScoreMade, "$.scoring.made"),
        defeated=r.switch(sheet.get("defeated"), ScoreDefeated, "$.scoring.defeated"),
        target=None if target is None else r.integer(target, "$.scoring.target"))


def check_table(rules: Rules, players: int, ruleset: str) -> None:
    """Implements: NAP-3.1.1, NAP-2.2.2.

    The number of players must be one the ruleset allows, and its pack must hold five cards
    for each of them and one for the widow.
    """
    if players not in rules.players:
        allowed = ", ".join(str(n) for n in rules.players)
        raise SetupError("NAP-3.1.1", f"{ruleset} is played by {allowed} players, not {players}")
    rank = rules.lowest_rank(players)
    if rank is None:
        raise SetupError("NAP-2.2.1", f"{ruleset} gives no pack for {players} players")
    need = 5 * players + (1 if rules.widow is not None else 0)
    have = 4 * (13 - rank)
    if have < need:
        raise SetupError("NAP-2.2.2", f"{ruleset}'s pack for {players} players holds {have} "
                                      f"cards; the deal needs {need}")


def pack_rank(rules: Rules, players: int) -> int:
    """Implements: NAP-2.2.1.

    The lowest rank kept in every suit for a hand of this many players: the pack is every card
    from the ace down to it.
    """
    rank = rules.lowest_rank(players)
    if rank is None:
        raise SetupError("NAP-2.2.1", f"no pack is given for {players} players")
    return rank
