"""Moved to :mod:`napkit.engine.actions` in napkit 0.2; this path works until napkit 0.3."""

from napkit._moved import moved
from napkit.engine.actions import *  # noqa: F403

moved(__name__, "napkit.engine.actions")
