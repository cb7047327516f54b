"""The rules at the table: for players who want a sheet, an answer, or their own game.

- :mod:`~napkit.handbook.sheet`: one ruleset's rules on a printable page (``napkit rules
  sheet``);
- :mod:`~napkit.handbook.search`: questions in players' words, answered with the rules that
  settle them (``napkit rules search``);
- :mod:`~napkit.handbook.newhouse`: a house game written down from a base ruleset and settings
  (``napkit rules new``).

They read the spec (:mod:`napkit.spec`) and are read by the command line and the rules site.
"""
