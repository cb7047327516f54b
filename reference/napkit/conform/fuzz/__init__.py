"""Differential testing (``napkit fuzz``): random hands through a program and the engine.

- :mod:`~napkit.conform.fuzz.episodes`: an episode drawn, asked of the program and judged;
- :mod:`~napkit.conform.fuzz.campaign`: episodes one after another until the budget is spent,
  the distinct disagreements found and each shrunk;
- :mod:`~napkit.conform.fuzz.groups`: a disagreement's signature (the rule blamed and the kind
  of difference), and the file of known differences;
- :mod:`~napkit.conform.fuzz.shrink`: choice sequences, and shrinking one to the smallest that
  still shows a bug;
- :mod:`~napkit.conform.fuzz.hands`: a match's hands as lone hands, to find the one a program
  settles otherwise;
- :mod:`~napkit.conform.fuzz.reproducer`: a disagreement written down as a case and a hand;
- :mod:`~napkit.conform.fuzz.report`: the campaign's JSON report, and the reports of shards
  joined;
- :mod:`~napkit.conform.fuzz.jobs`: a campaign split among worker processes (``-j N``).
"""

from typing import TYPE_CHECKING

if not TYPE_CHECKING:  # napkit 0.2's module of this name, forwarded for one release
    from napkit._moved import forward as _forward

    def __getattr__(name: str) -> object:
        return _forward(__name__, name)
