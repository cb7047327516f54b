"""Settlement: what changes hands when a contract is made or defeated (NAP-9.1, 9.2, 9.5)."""

from __future__ import annotations

from napkit.state import NOBODY, OVER, POOL, HandState, Payment, Result

Debt = tuple[int, int, int, str]  # payer, payee, amount, rule


def debts(state: HandState, made: bool) -> list[Debt]:
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
    owed: list[Debt] = []
    if made:
        owed += [(s, declarer, bid.win_each * stakes, "NAP-9.1.1") for s in opponents
                 if bid.win_each]
        return owed
    owed += [(declarer, s, bid.lose_each * stakes, "NAP-9.2.1") for s in opponents
             if bid.lose_each]
    if bid.lose_pool_per_player:
        owed.append((declarer, POOL, bid.lose_pool_per_player * len(state.order) * stakes,
                     "NAP-9.2.2"))
    if bid.double_pool:
        if rules.pool_doubling == "bidder-matches-pool":
            owed.append((declarer, POOL, state.pool, "NAP-9.2.3"))
        else:
            owed += [(s, POOL, rules.ante, "NAP-9.2.3") for s in _clockwise_from(state, declarer)]
    return [d for d in owed if d[2] > 0]


def _clockwise_from(state: HandState, seat: int) -> list[int]:
    """The seats of the hand clockwise from ``seat``'s left, ending with ``seat``."""
    out = []
    s = state.ring[seat]
    while s != seat:
        out.append(s)
        s = state.ring[s]
    return out + [seat]


def pay(state: HandState, owed: list[Debt]) -> tuple[list[Payment], tuple[int, ...] | None, int]:
    """Implements: NAP-9.5.1.

    Pay what is owed, payer by payer. Where the match plays from a fixed stock of chips and
    short payments are paid as far as they go, a payer who owes more than they hold pays all
    they have, one unit at a time to each payee in turn clockwise from the payer's left (the
    pool, if owed, after the players), and the rest is forgiven. Otherwise everything is paid,
    and a balance may go below zero.
    """
    funds = list(state.funds) if state.funds is not None else None
    pool = state.pool
    short = funds is not None and state.game.rules.short_payment == "pay-what-you-have"
    payments: list[Payment] = []
    payers: list[int] = []
    for payer, _, _, _ in owed:
        if payer not in payers:
            payers.append(payer)
    for payer in payers:
        mine = [d for d in owed if d[0] == payer]
        total = sum(d[2] for d in mine)
        if short and funds is not None and funds[payer] < total:
            seats = _clockwise_from(state, payer)
            mine.sort(key=lambda d: len(seats) if d[1] == POOL else seats.index(d[1]))
            paid = [0] * len(mine)
            have = funds[payer]
            while have > 0:
                for i, d in enumerate(mine):
                    if have > 0 and paid[i] < d[2]:
                        paid[i] += 1
                        have -= 1
            amounts = paid
        else:
            amounts = [d[2] for d in mine]
        for (p, payee, _, rule), amount in zip(mine, amounts, strict=True):
            if amount <= 0:
                continue
            payments.append(Payment(p, payee, amount, rule))
            if funds is not None:
                funds[p] -= amount
                if payee != POOL:
                    funds[payee] += amount
            if payee == POOL:
                pool += amount
    return payments, tuple(funds) if funds is not None else None, pool


def settle(state: HandState) -> HandState:
    """Implements: NAP-9.1.2.

    Settle a hand played out: the payments on the contract, then, where the contract wins the
    pool and was made, everything in the pool to the declarer.
    """
    from napkit.play import made

    ok = made(state)
    payments, funds, pool = pay(state, debts(state, ok))
    bid = state.game.rules.bids[state.contract]
    if ok and bid.win_pool and pool > 0:
        payments.append(Payment(POOL, state.declarer, pool, "NAP-9.1.2"))
        if funds is not None:
            funds = funds[:state.declarer] + (funds[state.declarer] + pool,) + funds[
                state.declarer + 1:]
        pool = 0
    ledger = state.ledger + tuple(payments)
    result = Result(
        thrown_in=False, declarer=state.declarer, contract=bid.id, tricks=state.won, made=ok,
        trick_winners=tuple(t.winner for t in state.tricks), payments=ledger, pool=pool,
        net=net(ledger, state.game.players))
    return state._replace(phase=OVER, turn=NOBODY, pool=pool, funds=funds, ledger=ledger,
                          result=result)


def throw_in(state: HandState) -> HandState:
    """A hand nobody bid for ends unplayed; only looks already bought have been paid."""
    result = Result(thrown_in=True, declarer=-1, contract=None, tricks=0, made=None,
                    trick_winners=(), payments=state.ledger, pool=state.pool,
                    net=net(state.ledger, state.game.players))
    return state._replace(phase=OVER, turn=NOBODY, result=result)


def net(ledger: tuple[Payment, ...], players: int) -> tuple[int, ...]:
    """Each seat's gain over these payments (what it received less what it paid)."""
    out = [0] * players
    for p in ledger:
        if p.payer != POOL:
            out[p.payer] -= p.amount
        if p.payee != POOL:
            out[p.payee] += p.amount
    return tuple(out)
