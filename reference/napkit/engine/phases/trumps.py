"""Trumps and the opening lead: how the trump suit is fixed, and what the declarer must lead
first (NAP-7)."""

from __future__ import annotations

from napkit.engine.actions import NAMES, Action, NameTrumps
from napkit.engine.cards import SUIT_BITS, SUIT_NAMES, lowest_cards, lowest_in_suit, suit_of
from napkit.engine.state import NAMING, NO_TRUMPS, NOBODY, H, HandData, replace
from napkit.errors import IllegalActionError


def start(state: H) -> H:
    """Implements: NAP-7.1.3.

    Once the exchange (if any) is done: the declarer names trumps where the contract's trumps
    are named; a contract without trumps has none; where the first card led fixes them, they
    wait for it (NAP-7.1.1).
    """
    how = state.game.rules.bids[state.contract].trumps
    if how == "named":
        return replace(state, phase=NAMING, turn=state.declarer)
    if how == "none":
        return replace(state, phase=NAMING, turn=NOBODY, trumps=NO_TRUMPS)
    # Trumps wait for the first card led (they are -1 from the deal): nothing to ask here.
    return state if state.turn == NOBODY and state.trumps == -1 else replace(
        state, phase=NAMING, turn=NOBODY, trumps=-1)


def nameable(state: HandData) -> int:
    """The suits (a 4-bit mask) the declarer may name: any, or only those held where the
    ruleset forbids naming a void suit (NAP-7.1.2); but any other than the one suit they hold
    where a duty to lead a non-trump binds the naming (NAP-7.1.4), which prevails over the
    ban on void suits: the two together would leave no suit to name."""
    rules = state.game.rules
    hand = state.hands[state.declarer]
    held = sum(1 << s for s in range(4) if hand & SUIT_BITS[s])
    if _one_suit_barred(state, held):
        return 0b1111 & ~held
    return 0b1111 if rules.naming_void_allowed else held


def _one_suit_barred(state: HandData, held: int) -> bool:
    """Implements: NAP-7.1.4.

    Whether the declarer, holding cards of one suit only (``held`` has one bit), may not name
    it: where the ruleset binds the naming to a contract's duty to lead a non-trump."""
    rules = state.game.rules
    return (rules.naming_non_trump_binds and held.bit_count() == 1
            and rules.bids[state.contract].lead == "lowest-non-trump")


def legal_names(state: HandData) -> tuple[Action, ...]:
    suits = nameable(state)
    return tuple(NAMES[s] for s in range(4) if suits >> s & 1)


def apply_name(state: H, action: Action) -> H:
    """Implements: NAP-7.1.2.

    Where the contract's trumps are named, the declarer names a suit before leading; where the
    ruleset forbids naming a void suit, it must be a suit they hold, unless NAP-7.1.4 bars the
    one suit they hold (:func:`nameable`).
    """
    if not isinstance(action, NameTrumps):
        raise IllegalActionError("NAP-7.1.2", f"the declarer is to name trumps, not to {action}")
    suit = action.suit
    if not (isinstance(suit, int) and 0 <= suit < 4):
        raise IllegalActionError("NAP-7.1.2", f"{suit!r} is not a suit")
    if not nameable(state) >> suit & 1:
        if state.hands[state.declarer] & SUIT_BITS[suit]:
            raise IllegalActionError(
                "NAP-7.1.4", f"every card the declarer holds is a {SUIT_NAMES[suit][:-1]}, and "
                             f"the contract's first lead must be a non-trump: another suit must "
                             f"be named")
        raise IllegalActionError(
            "NAP-7.1.2", f"the declarer holds no {SUIT_NAMES[suit]} and may not name a void suit")
    return replace(state, trumps=suit, turn=NOBODY, log=(state.log, (state.declarer, action)))


def fixed_by_lead(card: int) -> int:
    """Implements: NAP-7.1.1.

    Where the first card led fixes trumps, its suit is trumps for the whole hand (and that
    card is a trump).
    """
    return suit_of(card)


def opening_leads(state: HandData) -> int:
    """Implements: NAP-7.2.2, NAP-7.2.3, NAP-7.2.4.

    The cards (a mask) the declarer may lead to the first trick under the contract's lead
    obligation: any; a trump; the lowest trump (where the lead fixes trumps, the lowest card of
    whichever suit is led); the lowest card outside trumps; or the lowest card. Cards of
    different suits that tie for lowest may each be led. If no card meets the obligation, it
    lapses and any card may be led.
    """
    hand = state.hands[state.declarer]
    lead = state.game.rules.bids[state.contract].lead
    trumps = state.trumps
    if lead == "any":
        return hand
    allowed = 0
    if lead == "trump":
        allowed = hand & SUIT_BITS[trumps] if 0 <= trumps < 4 else hand
    elif lead == "lowest-trump":
        if 0 <= trumps < 4:
            allowed = lowest_in_suit(hand, trumps)
        elif trumps < 0:
            for suit in range(4):
                allowed |= lowest_in_suit(hand, suit)
    elif lead == "lowest-non-trump":
        outside = hand & ~SUIT_BITS[trumps] if 0 <= trumps < 4 else hand
        allowed = lowest_cards(outside)
    elif lead == "lowest-card":
        allowed = lowest_cards(hand)
    return allowed or hand


OBLIGATIONS = {
    "trump": "lead a trump",
    "lowest-trump": "lead their lowest trump",
    "lowest-non-trump": "lead their lowest card outside trumps",
    "lowest-card": "lead their lowest card",
}
