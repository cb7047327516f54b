"""The phases of a hand, one module each, in the order of the law book's chapters.

- :mod:`~napkit.engine.phases.deal`: the deal (NAP-4), the pack and where each card goes;
- :mod:`~napkit.engine.phases.purchase`: buying cards before the auction (NAP-5, purchase games);
- :mod:`~napkit.engine.phases.auction`: the bidding (NAP-5) and paid looks at the widow;
- :mod:`~napkit.engine.phases.widow`: the widow or floater taken, exchanged or left (NAP-6);
- :mod:`~napkit.engine.phases.trumps`: how trumps are fixed (NAP-7);
- :mod:`~napkit.engine.phases.play`: the tricks (NAP-8), the engine's hot loop;
- :mod:`~napkit.engine.phases.settlement`: what is paid when a hand ends (NAP-9).

The conductor (:mod:`napkit.engine.hand`) alone knows their order; no phase imports another's
start.
"""
