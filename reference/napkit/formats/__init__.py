"""The record formats: cards and actions as JSON and as typed text, recorded hands and matches
(``napkit-hand/1``, ``napkit-match/1``), states and views, and their validation.

- :mod:`~napkit.formats.values`: cards, actions, payments, tricks and results as JSON, both
  ways;
- :mod:`~napkit.formats.jsontext`: JSON text as napkit writes it on the wire;
- :mod:`~napkit.formats.notation`: a player's actions as text, as typed at the table;
- :mod:`~napkit.formats.handtext`: the hand notation (``*.nap``), a recorded hand as text;
- :mod:`~napkit.formats.records`: recorded hands and matches, written from the engine and
  checked by replay;
- :mod:`~napkit.formats.recording`: hands and matches played by the engine's players at a
  seeded table, and their records;
- :mod:`~napkit.formats.playthrough`: golden playthroughs (``conformance/playthroughs``);
- :mod:`~napkit.formats.snapshots`: a hand's state as JSON, as the table and as one player
  sees it;
- :mod:`~napkit.formats.validate`: validating records: the schema first, then the rules.

The JSON forms of the engine's values (napkit 0.1's ``napkit.formats``) are in
:mod:`napkit.formats.values` and are re-exported here, so that the old names still work: each
imported when first asked for, so that a module of this folder that needs no engine (the wire's
JSON text, :mod:`~napkit.formats.jsontext`) is imported without it.
"""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    values = importlib.import_module("napkit.formats.values")
    if name in globals():  # "values" itself, now imported
        return globals()[name]
    if name.startswith("_") or not hasattr(values, name):
        raise AttributeError(f"module 'napkit.formats' has no attribute {name!r}")
    value = getattr(values, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    values = importlib.import_module("napkit.formats.values")
    return sorted({*globals(), *(n for n in dir(values) if not n.startswith("_"))})
