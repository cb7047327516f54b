"""Settlement: what changes hands when a contract is made or defeated (NAP-9.1, 9.2, 9.5), or
what is written on the score sheet, where the ruleset keeps one in points (NAP-9.6)."""

from __future__ import annotations

from napkit.engine.state import NOBODY, OVER, POOL, H, HandData, Payment, Result, replace

Debt = tuple[int, int, int, str]  # payer, payee, amount, rule


def made(state: HandData) -> bool:
    """Implements: NAP-3.2.1, NAP-8.3.2.

    Tricks are counted for the declarer alone. When play ends the contract is made or
    defeated by what its bid undertakes (NAP-5.2.3).
    """
    return state.game.rules.bids[state.contract].fulfilled(state.won)


def debts(state: HandData, made: bool) -> list[Debt]:
    """Implements: NAP-9.1.1, NAP-9.2.1, NAP-9.2.2, NAP-9.2.3.

    What is owed on the contract, before anyone's chips are counted. Made: each opponent owes
    the declarer the bid's win amount. Defeated: the declarer owes each opponent the bid's loss
    amount, or the pool that amount times the players at the table; and where the bid doubles
    the pool, the declarer owes the pool as much as it holds, or every player owes it the ante
    again, as the ruleset says. Win and loss amounts are multiplied by the hand's stakes.
    """
    rules = state.game.rules
    bid = rules.bids[state.contract]
    declarer, stakes = state.declarer, state.stakes
    opponents = _clockwise_from(state, declarer)[:-1]
    if made:
        win = bid.win_each * stakes
        return [(s, declarer, win, "NAP-9.1.1") for s in opponents] if win > 0 else []
    owed: list[Debt] = []
    owed += [(declarer, s, bid.lose_each * stakes, "NAP-9.2.1") for s in opponents
             if bid.lose_each]
    if bid.lose_pool_per_player:
        owed.append((declarer, POOL, bid.lose_pool_per_player * len(state.order) * stakes,
                     "NAP-9.2.2"))
    if bid.double_pool:
        if rules.pool is None or rules.pool.doubling == "bidder-matches-pool":
            owed.append((declarer, POOL, state.pool, "NAP-9.2.3"))
        else:
            owed += [(s, POOL, rules.ante.amount, "NAP-9.2.3")
                     for s in _clockwise_from(state, declarer)]
    return [d for d in owed if d[2] > 0]


def _clockwise_from(state: HandData, seat: int) -> tuple[int, ...]:
    """The seats of the hand clockwise from ``seat``'s left, ending with ``seat``."""
    out = []
    s = state.ring[seat]
    while s != seat:
        out.append(s)
        s = state.ring[s]
    return (*out, seat)


def pay(state: HandData, owed: list[Debt]) -> tuple[list[Payment], tuple[int, ...] | None, int]:
    """Implements: NAP-9.5.1.

    Pay what is owed, payer by payer, in the order of each payer's first debt. Where the match
    plays from a fixed stock of chips and short payments are paid as far as they go, a payer
    who owes more than they hold pays all they have, every debt at once: one unit at a time to
    each payee in turn clockwise from the payer's left (the pool, if owed, after the players),
    one turn a payee each time round, a payee's debts met in the order they arose; the rest is
    forgiven. Otherwise everything is paid, and a balance may go below zero.
    """
    pool = state.pool
    if state.funds is None and len({d[0] for d in owed}) in (1, len(owed)):
        # No stock of chips, so nothing falls short; and each payer's debts are already
        # together (one payer, or one debt each), so they are paid as listed.
        return ([Payment(*d) for d in owed if d[2] > 0], None,
                pool + sum([d[2] for d in owed if d[1] == POOL and d[2] > 0]))
    funds = list(state.funds) if state.funds is not None else None
    short = funds is not None and state.game.rules.match.short_payment == "pay-what-you-have"
    payments: list[Payment] = []
    # Each payer's debts, payers in the order of their first debt.
    by_payer: dict[int, list[Debt]] = {}
    for d in owed:
        mine = by_payer.get(d[0])
        if mine is None:
            by_payer[d[0]] = [d]
        else:
            mine.append(d)
    for payer, owing in by_payer.items():
        mine = owing
        if short and funds is not None and funds[payer] < sum(d[2] for d in mine):
            seats = _clockwise_from(state, payer)
            # A stable sort: a payee's debts stay in the order they arose.
            mine.sort(key=lambda d: len(seats) if d[1] == POOL else seats.index(d[1]))
            paid = [0] * len(mine)
            have = funds[payer]
            while have > 0:
                # One turn a payee each time round, however many debts it is owed (the pool
                # may be owed two, NAP-9.2.2 and 9.2.3): a unit to its first debt not yet met.
                for payee in dict.fromkeys([d[1] for d in mine]):
                    i = next((i for i, d in enumerate(mine)
                              if d[1] == payee and paid[i] < d[2]), -1)
                    if have > 0 and i >= 0:
                        paid[i] += 1
                        have -= 1
            mine = [(p, payee, amount, rule)
                    for (p, payee, _, rule), amount in zip(mine, paid, strict=True)]
        for d in mine:
            amount = d[2]
            if amount <= 0:
                continue
            payments.append(Payment(*d))
            payee = d[1]
            if funds is not None:
                funds[payer] -= amount
                if payee != POOL:
                    funds[payee] += amount
            if payee == POOL:
                pool += amount
    return payments, tuple(funds) if funds is not None else None, pool


def score(state: HandData, made: bool) -> tuple[int, ...]:
    """Implements: NAP-9.6.4.

    Each seat's points on the contract, where the ruleset keeps a score sheet in points: the
    bid's points (its own, else its win amount) times the hand's stakes, scored as the contract
    was made or defeated. A seat that takes no part in the hand scores nothing.
    """
    points = state.game.rules.bids[state.contract].points * state.stakes
    return _scored_made(state, points) if made else _scored_defeated(state, points)


def _scored_made(state: HandData, points: int) -> tuple[int, ...]:
    """Implements: NAP-9.6.2.

    A made contract: the declarer scores the points; the opponents nothing.
    """
    out = [0] * state.game.players
    out[state.declarer] = points
    return tuple(out)


def _scored_defeated(state: HandData, points: int) -> tuple[int, ...]:
    """Implements: NAP-9.6.3.

    A defeated contract: each opponent scores the points, or they come off the declarer's
    score, or nobody scores, as the ruleset says.
    """
    scoring = state.game.rules.scoring
    assert scoring is not None
    out = [0] * state.game.players
    if scoring.defeated == "each-opponent":
        for seat in state.order:
            if seat != state.declarer:
                out[seat] = points
    elif scoring.defeated == "off-declarer":
        out[state.declarer] = -points
    return tuple(out)


def settle(state: H) -> H:
    """Implements: NAP-9.1.2, NAP-9.6.1.

    Settle a hand played out: the payments on the contract, then, where the contract wins the
    pool and was made, everything in the pool to the declarer. Where the ruleset keeps a score
    sheet in points, the contract is scored instead, and nothing is paid on it.
    """
    ok = made(state)
    if state.game.rules.scoring is not None:
        bid = state.game.rules.bids[state.contract]
        result = Result(False, state.declarer, bid.id, state.won, ok,
                        tuple([t[1] for t in state.tricks]), state.ledger, state.pool,
                        net(state.ledger, state.game.players), score(state, ok))
        return replace(state, phase=OVER, turn=NOBODY, result=result)
    payments, funds, pool = pay(state, debts(state, ok))
    bid = state.game.rules.bids[state.contract]
    declarer = state.declarer
    if ok and bid.win_pool and pool > 0:
        payments.append(Payment(POOL, declarer, pool, "NAP-9.1.2"))
        if funds is not None:
            funds = funds[:declarer] + (funds[declarer] + pool,) + funds[declarer + 1:]
        pool = 0
    ledger = state.ledger + tuple(payments)
    result = Result(False, declarer, bid.id, state.won, ok,
                    tuple([t[1] for t in state.tricks]), ledger, pool,
                    net(ledger, state.game.players))
    return replace(state, phase=OVER, turn=NOBODY, pool=pool, funds=funds, ledger=ledger,
                   result=result)


def throw_in(state: H) -> H:
    """A hand nobody bid for ends unplayed, no contract settled (NAP-5.3.2): what was paid
    before the auction ended (looks at the widow, purchases) stays paid, and nothing more."""
    points = None if state.game.rules.scoring is None else (0,) * state.game.players
    result = Result(True, -1, None, 0, None, (), state.ledger, state.pool,
                    net(state.ledger, state.game.players), points)
    return replace(state, phase=OVER, turn=NOBODY, result=result)


def net(ledger: tuple[Payment, ...], players: int) -> tuple[int, ...]:
    """Each seat's gain over these payments (what it received less what it paid)."""
    out = [0] * players
    for payer, payee, amount, _ in ledger:
        if payer != POOL:
            out[payer] -= amount
        if payee != POOL:
            out[payee] += amount
    return tuple(out)
