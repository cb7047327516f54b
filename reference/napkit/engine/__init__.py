"""The hand engine: the rules of play, executed.

Nothing here reads a file or knows a ruleset by name: a :class:`~napkit.engine.game.Game` is
built from a ruleset's resolved parameters (:mod:`napkit.engine.rules`), and everything after
that is read from them. The engine imports nothing from napkit's other layers (the spec
readers, the record formats, the front ends) but :mod:`napkit.errors`.

- :mod:`~napkit.engine.cards`, :mod:`~napkit.engine.actions`: cards and moves.
- :mod:`~napkit.engine.rules`: a ruleset's parameters, typed; :mod:`~napkit.engine.game`: a
  ruleset for a table, the maker of hands.
- :mod:`~napkit.engine.state`: one hand at one moment, data only.
- :mod:`~napkit.engine.hand`: the conductor, which owns the order of the phases and sends
  each action to its phase: :mod:`~napkit.engine.deal`, :mod:`~napkit.engine.purchase`,
  :mod:`~napkit.engine.auction`, :mod:`~napkit.engine.widow`, :mod:`~napkit.engine.trumps`,
  :mod:`~napkit.engine.play`, :mod:`~napkit.engine.settlement`.
- :mod:`~napkit.engine.match`: hands in sequence; :mod:`~napkit.engine.observation`: what one
  player sees; :mod:`~napkit.engine.players`: computer players.
"""
