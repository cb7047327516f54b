"""Perft for Nap: counting the sequences of legal actions from a position.

- :mod:`~napkit.conform.perft.count`: the reference count, positions read and described;
- :mod:`~napkit.conform.perft.check`: counts asked of a program, a difference followed down to
  the action where the two part.
"""

from typing import TYPE_CHECKING

if not TYPE_CHECKING:  # napkit 0.2's module of this name, forwarded for one release
    from napkit._moved import forward as _forward

    def __getattr__(name: str) -> object:
        return _forward(__name__, name)
