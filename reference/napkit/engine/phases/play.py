"""Play of the tricks: following suit, winning a trick, and the end of play (NAP-8).

This is the engine's hot loop (``benchmarks/engine_throughput.py`` measures it), and the one
module of the engine written for speed: it works on masks, unpacks a state once and builds
the next one in one step (``tuple.__new__`` of the state's class and all its fields).
``legal_plays`` remembers the last state it listed and its playable mask, which ``apply_play``
reuses for a card played to that very state: states are immutable, so the same object means
the same mask. The two are kept as one tuple, stored and read in one step, so that threads
playing at once never pair one's state with another's mask.
"""

from __future__ import annotations

from napkit.engine.acting import not_held
from napkit.engine.actions import PLAYS, Action, Play
from napkit.engine.cards import (
    SUIT_BITS,
    SUIT_NAMES,
    by_suit_mask,
    card_words,
    cards_of,
    names,
)
from napkit.engine.phases.trumps import OBLIGATIONS, fixed_by_lead, opening_leads
from napkit.engine.state import NOBODY, PLAY, H, HandData, Trick, replace
from napkit.errors import IllegalActionError


def start(state: H) -> H:
    """Implements: NAP-7.2.1.

    Once trumps are settled, the declarer leads to the first trick.
    """
    return replace(state, phase=PLAY, turn=state.declarer, leader=state.declarer)


# For every suit and every 13-bit mask of it, the Play actions of its cards, lowest first;
# built at the first listing of plays, not at import. Safe to share between threads: two that
# build it at once each store an equal table (of the same interned Plays) in one step.
PlayTable = tuple[tuple[tuple[Play, ...], ...], ...]
_SUIT_PLAYS: PlayTable = ()


def _suit_plays() -> PlayTable:
    global _SUIT_PLAYS  # noqa: PLW0603
    _SUIT_PLAYS = tuple(by_suit_mask(PLAYS[s * 13:s * 13 + 13]) for s in range(4))
    return _SUIT_PLAYS


def playable(state: HandData) -> int:
    """Implements: NAP-8.1.1, NAP-8.1.2, NAP-8.1.3.

    The cards (a mask) the player to act may play. The leader may lead any card (the
    declarer's first lead excepted: NAP-7.2.2). A player holding the suit led must play one
    of it; one who holds none may play any card, and nobody must trump or beat the trick.
    """
    hand = state.hands[state.turn]
    trick = state.trick
    if not trick:
        return opening_leads(state) if not state.tricks else hand
    return hand & SUIT_BITS[trick[0] // 13] or hand


def legal_plays(state: HandData) -> tuple[Action, ...]:
    global _LAST  # noqa: PLW0603
    mask = playable(state)
    _LAST = (state, mask)  # one store: another thread sees the old pair or this one, whole
    t = _SUIT_PLAYS or _suit_plays()
    # 0x1FFF is cards.SUIT_MASK written out, as in cards.cards_of: the hot loop's literal.
    return (t[0][mask & 0x1FFF] + t[1][mask >> 13 & 0x1FFF] + t[2][mask >> 26 & 0x1FFF]
            + t[3][mask >> 39 & 0x1FFF])


# The last state whose plays were listed, with its playable mask: apply_play reuses the mask
# when the card is played to that very state (states are immutable, so it still holds). One
# tuple, never two globals: written in two statements, a thread switched out between them (a
# tracer makes that likely; free-threaded Python needs none) left one thread's state paired
# with another's mask, and illegal cards were accepted, legal ones refused. The pair holds
# its state alive, so no other state can take its id while it is remembered.
_LAST: tuple[HandData | None, int] = (None, 0)


def forget() -> None:
    """Forget the last listed state (see :func:`napkit.engine.game.clear_memos`)."""
    global _LAST  # noqa: PLW0603
    _LAST = (None, 0)


def winning_card(trick: tuple[int, ...], trumps: int) -> int:
    """Implements: NAP-8.2.1, NAP-2.1.1.

    The position in the trick of the card that wins it: the highest trump, if any was played;
    otherwise the highest card of the suit led. Cards of other suits never win. Which card is
    higher is the ranking of NAP-2.1.1, the same in every suit (ace high, two low): within a
    suit the higher card is the higher integer.
    """
    best = 0
    top = trick[0]
    for i in range(1, len(trick)):
        card = trick[i]
        if card // 13 == top // 13:
            if card > top:
                best, top = i, card
        elif card // 13 == trumps:
            best, top = i, card
    return best


def apply_play(state: H, action: Action) -> H:
    """Implements: NAP-8.3.1.

    Play one card to the trick. When every player has played, the trick goes to its winner,
    who leads the next; play goes on until all five tricks are played (and nobody is then to
    play: the conductor has the hand settled).
    """
    if type(action) is not Play:
        # Which rule puts a card in this player's hand to play: following (NAP-8.1.1), the
        # declarer's first lead (NAP-7.2.1), or the lead of a trick's winner (NAP-8.1.3).
        if state.trick:
            rule, what = "NAP-8.1.1", "play a card to the trick"
        else:
            rule, what = ("NAP-8.1.3" if state.tricks else "NAP-7.2.1"), "lead a card"
        raise IllegalActionError(rule, f"seat {state.turn} is to {what}, not to {action}")
    card = action.card
    listed, mask = _LAST  # one read: the pair as one thread stored it
    if listed is not state:
        mask = playable(state)
    if not (type(card) is int and 0 <= card < 52 and mask >> card & 1):
        raise refusal(state, card)
    # The next state: this one's fields, unpacked into locals (the cheapest way to read them
    # all), with those the card changes replaced. The card is in the player's hand (it is
    # playable), so flipping its bit takes it out.
    (game, phase, seat, dealer, order, ring, hands, widow, stock, discards, seen, auction,
     declarer, contract, trumps, leader, trick, tricks, won, pool, funds, ledger, stakes, log,
     pending, result) = state
    held = list(hands)
    held[seat] ^= _BIT[card]
    hands = tuple(held)
    if trumps < 0:
        trumps = fixed_by_lead(card)
    trick += (card,)
    log = (log, (seat, action))
    nxt = ring[seat]
    if nxt != leader:  # the trick goes on round the table until it comes back to its leader
        return tuple.__new__(type(state), (
            game, phase, nxt, dealer, order, ring, hands, widow, stock, discards, seen, auction,
            declarer, contract, trumps, leader, trick, tricks, won, pool, funds, ledger, stakes,
            log, pending, result))
    winner = leader
    for _ in range(winning_card(trick, trumps)):
        winner = ring[winner]
    tricks += (tuple.__new__(Trick, (leader, winner, trick)),)  # Trick(...), minus its __new__
    if winner == declarer:
        won += 1
    # After the fifth trick nobody is to play: the conductor has the hand settled.
    fields = (game, phase, winner if len(tricks) < 5 else NOBODY, dealer, order, ring, hands,
              widow, stock, discards, seen,
              auction, declarer, contract, trumps, winner, (), tricks, won, pool, funds, ledger,
              stakes, log, pending, result)
    return tuple.__new__(type(state), fields)


_BIT: tuple[int, ...] = tuple(1 << c for c in range(52))


def refusal(state: HandData, card: object) -> IllegalActionError:
    """Why a card may not be played, naming the rule it would break."""
    seat = state.turn
    hand = state.hands[seat]
    if not (type(card) is int and 0 <= card < 52):
        return IllegalActionError("NAP-2.1.1", f"{card!r} is not a card")
    missing = not_held(hand, 1 << card, seat)
    if missing is not None:
        return missing
    if state.trick:
        led = state.trick[0] // 13
        held = hand & SUIT_BITS[led]
        return IllegalActionError(
            "NAP-8.1.1", f"must follow {SUIT_NAMES[led]}; holds {_words(held)}")
    bid = state.game.rules.bids[state.contract]
    return IllegalActionError(
        "NAP-7.2.2", f"a {bid.name} declarer must {OBLIGATIONS.get(bid.lead, 'lead')} to the "
                     f"first trick: {names(opening_leads(state))}, not {card_words(card)}")


def _words(mask: int) -> str:
    cards = [card_words(c) for c in cards_of(mask)]
    if not cards:
        return "none of them"
    return cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]


def as_played(state: H, seat: int, card: int) -> H:
    """The card as the table played it, for a hand that broke NAP-8.1 or NAP-1.3.1: no rule's
    implementation (each rule is implemented in one place, and this function cites none), but
    the table's play, for replaying irregular hands only (a dispute over a hand
    already played, :mod:`napkit.dispute.replay`), never in play, which goes through
    :func:`apply_play`. ``seat`` plays ``card`` whatever following suit, the first lead or
    the turn say of it (a revoke, a card out of turn, a wrong first lead). The trick is
    complete when every seat in it has played once, and is won by the usual rule
    (:func:`winning_card`); its winner leads the next, and the first to play to a trick is its
    leader. The turn stays where the rules put it: the first seat round from the leader that
    has not played to the trick. A finished trick's cards are kept in the order of the seats
    from its leader, as every trick's are, so that they read by seat; the order they were
    played in is the history's. The winner does not depend on that order (the suit led is the
    leader's card).

    Raises :class:`~napkit.errors.IllegalActionError` where the table's play cannot be
    followed: a card the seat does not hold (NAP-1.3.2), a seat playing twice to a trick.
    """
    if state.phase != PLAY or state.turn == NOBODY:
        raise IllegalActionError("NAP-8.3.1", "no card is played now: it is not the play")
    if not (0 <= seat < len(state.hands) and state.ring[seat] >= 0 and 0 <= card < 52):
        raise IllegalActionError("NAP-1.3.1", f"seat {seat} is not in this hand")
    missing = not_held(state.hands[seat], 1 << card, seat)
    if missing is not None:
        raise missing
    trick = state.trick
    played = _trick_seats(state)
    if seat in played:
        raise IllegalActionError("NAP-8.3.1", f"seat {seat} has played to this trick already")
    held = list(state.hands)
    held[seat] ^= 1 << card
    trumps = fixed_by_lead(card) if state.trumps < 0 else state.trumps
    leader = state.leader if trick else seat
    trick += (card,)
    played += (seat,)
    log = (state.log, (seat, Play(card)))
    round_from = _round(state.ring, leader)
    if len(trick) < len(round_from):
        turn = next(s for s in round_from if s not in played)
        return replace(state, hands=tuple(held), trumps=trumps, leader=leader, trick=trick,
                       turn=turn, log=log)
    by_seat = dict(zip(played, trick, strict=True))
    cards = tuple(by_seat[s] for s in round_from)
    winner = round_from[winning_card(cards, trumps)]
    tricks = (*state.tricks, Trick(leader, winner, cards))
    return replace(state, hands=tuple(held), trumps=trumps, leader=winner, trick=(),
                   tricks=tricks, won=state.won + (winner == state.declarer),
                   turn=winner if len(tricks) < 5 else NOBODY, log=log)


def _round(ring: tuple[int, ...], leader: int) -> tuple[int, ...]:
    """The seats in the hand, round the table from ``leader``."""
    seats = [leader]
    while (nxt := ring[seats[-1]]) != leader:
        seats.append(nxt)
    return tuple(seats)


def _trick_seats(state: HandData) -> tuple[int, ...]:
    """Who played the cards of the trick so far, in the order played (the last plays of the
    history: nothing but plays happens during a trick)."""
    seats: list[int] = []
    node = state.log
    for _ in state.trick:
        assert node  # a card of the trick was played: the log holds it
        node, (actor, _) = node
        seats.append(actor)
    return tuple(reversed(seats))
