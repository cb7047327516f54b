"""How the reports number a case's steps, as people count them: step 0 is the deal, step 1 the
first action after it, as ``napkit replay`` and ``napkit explain`` count a hand's actions.

A hand's steps (a case that starts with ``start-hand``) are numbered by their place in the case:
its first step is chance's deal, step 0. A match has no deal step: the pack that chance shuffles
or cuts before each hand is that hand's deal (spec/conformance.md 2.3), so each hand of a match
counts its own steps from it: ``hand 2, step 0`` is the second hand's shuffle or cut, ``hand 2,
step 1`` the first action after it (an ante, or the first bid). The choice of the first dealer
comes before the first hand: ``before hand 1, step 0``.

>>> labels([{"seat": None, "action": {"type": "choose-dealer", "seat": 0}},
...         {"seat": None, "action": {"type": "shuffle", "pack": []}},
...         {"seat": 1, "action": {"type": "pass"}}], match=True)
['before hand 1, step 0', 'hand 1, step 0', 'hand 1, step 1']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# The chance steps of a match that make the pack ready for a hand: that hand's deal.
DEALS = frozenset({"shuffle", "cut"})


def places(steps: Sequence[Mapping[str, Any]], match: bool) -> list[tuple[int | None, int]]:
    """For each step, its hand (1 for the first; 0 before it; None in a lone hand) and its number
    within that hand."""
    if not match:
        return [(None, i) for i in range(len(steps))]
    out: list[tuple[int | None, int]] = []
    hand, number = 0, -1
    for step in steps:
        action = step.get("action")
        if isinstance(action, Mapping) and action.get("type") in DEALS:
            hand, number = hand + 1, 0
        else:
            number += 1
        out.append((hand, number))
    return out


def label(place: tuple[int | None, int]) -> str:
    """``step 3``, ``hand 2, step 5`` or ``before hand 1, step 0``."""
    hand, number = place
    if hand is None:
        return f"step {number}"
    if hand == 0:
        return f"before hand 1, step {number}"
    return f"hand {hand}, step {number}"


def labels(steps: Sequence[Mapping[str, Any]], match: bool) -> list[str]:
    """Each step's label (:func:`label`)."""
    return [label(p) for p in places(steps, match)]


def hand_bounds(steps: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """A match's hands as ranges of its steps: (first, end) for each hand, ``first`` its deal
    (the shuffle or cut) and ``end`` one past its last step."""
    starts = [i for i, step in enumerate(steps)
              if isinstance(step.get("action"), Mapping) and step["action"].get("type") in DEALS]
    return [(start, starts[n + 1] if n + 1 < len(starts) else len(steps))
            for n, start in enumerate(starts)]


STEPS_NOTE = ("steps are counted as people count them: step 0 is the deal, step 1 the first "
              "action after it; in a match each hand counts from its own deal, the shuffle or "
              "cut of its pack")

__all__ = ["DEALS", "STEPS_NOTE", "hand_bounds", "label", "labels", "places"]
