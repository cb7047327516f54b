"""Settling a dispute over a hand that was played: the hand replayed under other rulesets
(:mod:`napkit.dispute.replay`), one position of it explained (:mod:`napkit.dispute.explain`),
with each rule's text and its sources' lines (:mod:`napkit.dispute.citing`).

A hand is taken as the players remember it: the cards each seat held, the calls and the
cards played. Under another ruleset the same cards are dealt to the same seats
(:mod:`napkit.dispute.deals`), so that the rules of play are what is compared, not the
packets the cards came in.
"""
