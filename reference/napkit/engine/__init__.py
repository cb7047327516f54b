"""The hand engine: the rules of play, executed.

Nothing here reads a file or knows a ruleset by name: a :class:`~napkit.engine.game.Game` is
built from a ruleset's resolved parameters (:mod:`napkit.engine.rules`), and everything after
that is read from them. The engine imports nothing from napkit's other layers (the spec
readers, the record formats, the front ends) but :mod:`napkit.errors`.

- :mod:`~napkit.engine.cards`, :mod:`~napkit.engine.actions`: cards and moves.
- :mod:`~napkit.engine.rules`: a ruleset's parameters, typed; :mod:`~napkit.engine.game`: a
  ruleset for a table, the maker of hands; :mod:`~napkit.engine.finder`: how
  ``Game.create`` finds a ruleset by id (the finder napkit registers).
- :mod:`~napkit.engine.state`: one hand at one moment, data only.
- :mod:`~napkit.engine.hand`: the conductor, which owns the order of the phases and sends
  each action to its phase: :mod:`~napkit.engine.phases.deal`,
  :mod:`~napkit.engine.phases.purchase`,
  :mod:`~napkit.engine.phases.auction`, :mod:`~napkit.engine.phases.widow`,
  :mod:`~napkit.engine.phases.trumps`,
  :mod:`~napkit.engine.phases.play`, :mod:`~napkit.engine.phases.settlement`.
- :mod:`~napkit.engine.acting`: the rules of acting that hold in every phase (NAP-1.3): whose
  turn, cards held, nothing after the end, which rule a refusal names.
- :mod:`~napkit.engine.phases`: the phases of a hand, one module each.
- :mod:`~napkit.engine.match`: hands in sequence; :mod:`~napkit.engine.observation`: what one
  player sees.

The engine's players, which choose moves, are not the rules: they are :mod:`napkit.players`.
"""
