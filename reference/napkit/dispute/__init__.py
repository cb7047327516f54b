"""Settling a dispute over a hand that was played.

- :mod:`~napkit.dispute.replay`: the hand replayed under other rulesets, where each parts from
  it and what each settles;
- :mod:`~napkit.dispute.explain`: one position of it explained, and an action ruled on;
- :mod:`~napkit.dispute.citing`: each rule with its text and its sources' lines;
- :mod:`~napkit.dispute.deals`: the same cards in the same seats under another ruleset (the
  pack that deals them), so that the rules of play are what is compared, not the packets the
  cards came in;
- :mod:`~napkit.dispute.report`: the verdicts laid out for reading;
- :mod:`~napkit.dispute.disagreements`: the rules on which the sources' own games give
  different answers, each with a worked hand (the rules site's page);
- :mod:`~napkit.dispute.viewer`: the hand as a table a player steps through, each ruleset's
  verdict beside it (``napkit replay --html``, and the site's hand pages).

A hand is taken as the players remember it: the cards each seat held, the calls and the cards
played.
"""
