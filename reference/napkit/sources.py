"""Moved to :mod:`napkit.spec.sources` in napkit 0.2; this path works until napkit 0.3."""

from napkit._moved import moved
from napkit.spec.sources import *  # noqa: F403

moved(__name__, "napkit.spec.sources")
