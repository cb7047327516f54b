"""Moved to :mod:`napkit.engine.state` (the data) and :mod:`napkit.engine.hand` (``HandState``)
in napkit 0.2; this path works until napkit 0.3."""

import warnings

from napkit.engine.hand import HandState, new_hand, over_error  # noqa: F401
from napkit.engine.state import *  # noqa: F403

warnings.warn("napkit.state is now napkit.engine.state (HandState: napkit.engine.hand); the old "
              "name goes in napkit 0.3", DeprecationWarning, stacklevel=2)
