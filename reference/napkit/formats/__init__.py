"""The record formats: cards and actions as JSON and as typed text, recorded hands and matches
(``napkit-hand/1``, ``napkit-match/1``), states and views, and their validation.

The JSON forms of the engine's values (napkit 0.1's ``napkit.formats``) are in
:mod:`napkit.formats.values` and are re-exported here, so that the old names still work.
"""

from napkit.formats.values import *  # noqa: F403
