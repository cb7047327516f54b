"""Moved to :mod:`napkit.engine.players` in napkit 0.2; this path works until napkit 0.3."""

from napkit._moved import moved
from napkit.engine.players import *  # noqa: F403

moved(__name__, "napkit.engine.players")
