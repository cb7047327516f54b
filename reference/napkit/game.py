"""A game: one ruleset, its options and a number of players, compiled for the engine.

:class:`Game` is to napkit what a game object is to OpenSpiel: it holds what does not change
during play (the resolved parameters, the bids, the pack) and creates hand states
(:meth:`Game.new_hand`) and matches (:mod:`napkit.match`). Everything here is read from the
ruleset's resolved parameters; no code asks which ruleset it is playing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from napkit import state as hand_state
from napkit.cards import lowest_rank_index, pack_mask
from napkit.errors import SetupError, SpecError
from napkit.loading import JSON, JSONObject
from napkit.rulesets import Ruleset

if TYPE_CHECKING:
    from napkit.spec import Spec
    from napkit.state import HandState


@dataclass(frozen=True, slots=True)
class BidRule:
    """One bid of a resolved ruleset (NAP-5.2.2): its rank is its ``index`` in the list."""

    index: int
    id: str
    name: str
    tricks: int
    misere: bool
    widow: str | None  # "with", "without", or None where bids do not say
    trumps: str  # "first-card-led", "named", "none"
    lead: str  # "any", "trump", "lowest-trump", "lowest-non-trump", "lowest-card"
    requires: tuple[int, ...]  # one mask of bid indexes per group: a bid of each must be made
    win_each: int
    win_pool: bool
    lose_each: int
    lose_pool_per_player: int
    double_pool: bool

    def fulfilled(self, tricks: int) -> bool:
        """Implements: NAP-5.2.3.

        A bid undertakes at least its number of tricks (more earns nothing more); a misère
        undertakes to win none.
        """
        return tricks == 0 if self.misere else tricks >= self.tricks


@dataclass(frozen=True, slots=True)
class Rules:
    """The resolved parameters of a ruleset, in the shape the engine reads them."""

    players: tuple[int, ...]
    pack: tuple[tuple[tuple[int, ...], int], ...]  # (player counts, lowest rank index)
    first_dealer: str
    packets: tuple[int, ...]
    widow: bool
    widow_name: str
    widow_first: bool
    prep_usual: str
    shuffle_after_made: frozenset[str]
    prep_after_throw_in: str
    ante: int
    ante_on_redeal: bool
    sit_out: bool
    pool: bool
    pool_name: str
    pool_doubling: str
    pool_at_end: str
    auction: str
    raising: str
    throw_in_stakes: str
    peek_cost: int | None
    peek_dealer_free: bool
    purchase_cost: int | None
    short_stock: str
    exchange_when: str | None
    exchange_take: str
    naming_void_allowed: bool
    bids: tuple[BidRule, ...]
    match_end: str
    bankroll: int | None
    short_payment: str

    def lowest_rank(self, players: int) -> int | None:
        """The lowest rank kept for this many players (NAP-2.2.1), or None if none is given."""
        for counts, rank in self.pack:
            if players in counts:
                return rank
        return None


def _obj(value: JSON) -> JSONObject:
    return value if isinstance(value, dict) else {}


def _bids(raw: list[JSON]) -> tuple[BidRule, ...]:
    index = {cast(str, _obj(b)["id"]): i for i, b in enumerate(raw)}
    bids = []
    for i, value in enumerate(raw):
        b = _obj(value)
        win, lose = _obj(b.get("win")), _obj(b.get("lose"))
        # Each inner list of "requires" is a group, one bid of which must have been made: a
        # bid of a group that the options leave out of the game cannot be; a group with none
        # of its bids in the game (mask 0) can never be satisfied.
        requires = []
        for group in cast(list[list[str]], b.get("requires", [])):
            mask = 0
            for r in group:
                if r in index:
                    mask |= 1 << index[r]
            requires.append(mask)
        bids.append(BidRule(
            index=i, id=cast(str, b["id"]), name=cast(str, b["name"]),
            tricks=cast(int, b["tricks"]), misere=bool(b.get("misere", False)),
            widow=cast("str | None", b.get("widow")), trumps=cast(str, b["trumps"]),
            lead=cast(str, b["lead"]), requires=tuple(requires),
            win_each=cast(int, win.get("each", 0)), win_pool=bool(win.get("pool", False)),
            lose_each=cast(int, lose.get("each", 0)),
            lose_pool_per_player=cast(int, lose.get("pool_per_player", 0)),
            double_pool=bool(lose.get("double_pool", False)),
        ))
    return tuple(bids)


def compile_rules(params: JSONObject) -> Rules:
    """Turn a ruleset's resolved parameters into :class:`Rules`."""
    widow = params.get("widow")
    prep = _obj(params["preparation"])
    ante = params.get("ante")
    pool = params.get("pool")
    auction = _obj(params["auction"])
    peek = params.get("peek")
    purchase = params.get("purchase")
    exchange = params.get("exchange")
    naming = params.get("naming")
    match = _obj(params["match"])
    bankroll = match.get("bankroll")
    return Rules(
        players=tuple(cast(list[int], params["players"])),
        pack=tuple(
            (tuple(cast(list[int], _obj(p)["players"])),
             lowest_rank_index(cast(str, _obj(p)["lowest_rank"])))
            for p in cast(list[JSON], params["pack"])
        ),
        first_dealer=cast(str, params["first_dealer"]),
        packets=tuple(cast(list[int], params["packets"])),
        widow=widow is not None,
        widow_name=cast(str, _obj(widow).get("name", "widow")),
        widow_first=_obj(widow).get("dealt") == "before-hands",
        prep_usual=cast(str, prep["usual"]),
        shuffle_after_made=frozenset(cast(list[str], prep.get("shuffle_after_made", []))),
        prep_after_throw_in=cast(str, prep["after_throw_in"]),
        ante=cast(int, _obj(ante).get("amount", 0)),
        ante_on_redeal=bool(_obj(ante).get("on_redeal", True)),
        sit_out=bool(_obj(ante).get("sit_out", False)),
        pool=pool is not None,
        pool_name=cast(str, _obj(pool).get("name", "pool")),
        pool_doubling=cast(str, _obj(pool).get("doubling", "bidder-matches-pool")),
        pool_at_end=cast(str, _obj(pool).get("at_match_end", "unclaimed")),
        auction=cast(str, auction["rounds"]),
        raising=cast(str, auction.get("raising", "bidders")),
        throw_in_stakes=cast(str, _obj(params["throw_in"])["stakes"]),
        peek_cost=cast(int, _obj(peek)["cost"]) if peek is not None else None,
        peek_dealer_free=_obj(peek).get("dealer") == "free",
        purchase_cost=cast(int, _obj(purchase)["cost"]) if purchase is not None else None,
        short_stock=cast(str, _obj(purchase).get("short_stock", "limit")),
        exchange_when=cast(str, _obj(exchange)["when"]) if exchange is not None else None,
        exchange_take=cast(str, _obj(exchange).get("take", "may")),
        naming_void_allowed=_obj(naming).get("void_suit", "allowed") == "allowed",
        bids=_bids(cast(list[JSON], params["bids"])),
        match_end=cast(str, match["end"]),
        bankroll=cast(int, _obj(bankroll)["start"]) if bankroll is not None else None,
        short_payment=cast(str, _obj(bankroll).get("short_payment", "debt")),
    )


@dataclass(frozen=True, repr=False)
class Game:
    """A ruleset with its options, for a table of ``players`` (NAP-3.1.1, NAP-2.2.1, NAP-2.2.2).

    Build one with :meth:`Game.create` (by ruleset id, reading ``spec/``) or directly from a
    loaded :class:`~napkit.rulesets.Ruleset`. Construction checks that the ruleset allows this
    many players and that its pack can deal them, and raises :class:`SetupError` otherwise.
    """

    ruleset: Ruleset
    players: int
    options: Mapping[str, str] = field(default_factory=dict)
    rules: Rules = field(init=False, repr=False, compare=False)
    bid_index: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            values = self.ruleset.option_values(self.options)
            params = self.ruleset.resolve(values)
        except SpecError as exc:
            raise SetupError("NAP-10.1.1", f"{self.ruleset.id}: {exc.message}") from None
        object.__setattr__(self, "options", values)
        rules = compile_rules(params)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "bid_index", {b.id: b.index for b in rules.bids})
        check_table(rules, self.players, self.ruleset.id)

    @classmethod
    def create(cls, ruleset: str, players: int, options: Mapping[str, str] | None = None) -> Game:
        """The game of the ruleset with this id in the spec folder."""
        return _cached_game(ruleset, players, tuple(sorted((options or {}).items())))

    @property
    def id(self) -> str:
        return self.ruleset.id

    def __repr__(self) -> str:
        # Short enough for a test failure or a log line: the ruleset, the table, the options.
        return f"Game({self.ruleset.id!r}, {self.players}, {dict(self.options)!r})"

    def pack(self, players: int | None = None) -> int:
        """The pack (a mask) for a hand of this many players, the whole table by default."""
        return pack_mask(pack_rank(self.rules, self.players if players is None else players))

    def new_hand(self, dealer: int = 0, *, seats: tuple[int, ...] | None = None, pool: int = 0,
                 funds: tuple[int, ...] | None = None, stakes: int = 1) -> HandState:
        """A hand about to be dealt: the state waits for chance's :class:`~napkit.actions.Deal`.

        ``seats`` are the seats taking part (all by default); ``pool`` what the pool holds;
        ``funds`` each seat's chips where the match plays from a fixed stock (None: unlimited);
        ``stakes`` the multiplier of NAP-9.4.1.
        """
        return hand_state.new_hand(self, dealer, seats, pool, funds, stakes)


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
    need = 5 * players + (1 if rules.widow else 0)
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


@lru_cache(maxsize=256)
def _cached_game(ruleset: str, players: int, options: tuple[tuple[str, str], ...]) -> Game:
    spec = default_spec()
    if ruleset not in spec.rulesets:
        known = ", ".join(sorted(spec.rulesets))
        raise SetupError("NAP-10.1.1", f"no ruleset {ruleset!r} (known: {known})")
    return Game(spec.rulesets[ruleset], players, dict(options))


@lru_cache(maxsize=1)
def default_spec() -> Spec:
    """The spec folder beside the package (or ``$NAPKIT_SPEC``), loaded once."""
    from napkit.spec import load_spec

    return load_spec()
