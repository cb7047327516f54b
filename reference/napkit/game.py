"""Moved to :mod:`napkit.engine.game` (``Game``) and :mod:`napkit.engine.rules` (``Rules``,
now typed, with sub-records) in napkit 0.2; this path works until napkit 0.3."""

import warnings

from napkit.engine.game import *  # noqa: F403
from napkit.engine.rules import *  # noqa: F403
from napkit.spec.catalog import default_spec  # noqa: F401

warnings.warn("napkit.game is now napkit.engine.game (Rules: napkit.engine.rules); the old name "
              "goes in napkit 0.3", DeprecationWarning, stacklevel=2)
