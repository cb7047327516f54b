"""Moved to :mod:`napkit.formats.validate` in napkit 0.2; this path works until napkit 0.3."""

from napkit._moved import moved
from napkit.formats.validate import *  # noqa: F403

moved(__name__, "napkit.formats.validate")
