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
:mod:`napkit.formats.values` and are re-exported here, so that the old names still work.
"""

from napkit.formats.values import *  # noqa: F403
