"""Moved to :mod:`napkit.engine.cards` in napkit 0.2; this path works until napkit 0.3."""

from napkit._moved import moved
from napkit.engine.cards import *  # noqa: F403

moved(__name__, "napkit.engine.cards")
