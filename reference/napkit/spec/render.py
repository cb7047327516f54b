"""Parameter values in words: player counts as ``3-7``, packs as ``3: 9-A; 4-7: 2-A``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from napkit.spec.loading import JSON


def format_players(counts: Iterable[int]) -> str:
    """``[3, 4, 5, 7]`` as ``3-5, 7``."""
    ordered = sorted(set(counts))
    runs: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        runs.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ", ".join(runs)


def compact(value: JSON) -> str:
    """Compact JSON on one line (strings bare)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "none"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _is_counts(value: JSON) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in value))


def _is_pack(value: JSON) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(e, dict) and set(e) == {"players", "lowest_rank"} for e in value)


def value_text(path: str, value: JSON) -> str:
    """A resolved parameter value as shown to people; ``path`` says which parameter it is."""
    leaf = path.rsplit(".", 1)[-1]
    if leaf == "players" and _is_counts(value):
        assert isinstance(value, list)
        return format_players(n for n in value if isinstance(n, int))
    if _is_pack(value):
        assert isinstance(value, list)
        parts = []
        for entry in value:
            assert isinstance(entry, dict)
            counts = entry["players"]
            players = (format_players(n for n in counts if isinstance(n, int))
                       if isinstance(counts, list) else compact(counts))
            parts.append(f"{players}: {compact(entry['lowest_rank'])}-A")
        return "; ".join(parts)
    if isinstance(value, dict) and value and all(
            isinstance(v, str | int | float | bool) or v is None for v in value.values()):
        # A small record of settings (the widow: its name, when it is dealt) reads as words.
        return ", ".join(f"{key}: {compact(v)}" for key, v in value.items())
    return compact(value)


def param_values(resolved: Mapping[str, JSON], entry: str) -> list[tuple[str, str]]:
    """The values a rule's params entry names, as (label, text) pairs.

    ``players`` gives one pair labelled ``players``; ``bids[*].lead`` one pair per bid that
    has the field, labelled by the bid's id; ``bids`` lists the bid ids.
    """
    if entry.startswith("bids[*]."):
        field = entry.removeprefix("bids[*].")
        bids = resolved.get("bids")
        pairs = []
        for bid in bids if isinstance(bids, list) else []:
            if isinstance(bid, dict):
                found, value = lookup(bid, field)
                if found:
                    pairs.append((str(bid.get("id")), value_text(field, value)))
        return pairs
    if entry == "bids":
        bids = resolved.get("bids")
        listed = bids if isinstance(bids, list) else []
        ids = [str(b.get("id")) for b in listed if isinstance(b, dict)]
        return [("bids", ", ".join(ids) if ids else "none")]
    found, value = lookup(resolved, entry)
    return [(entry, value_text(entry, value) if found else "not set")]


def lookup(value: Mapping[str, JSON], dotted: str) -> tuple[bool, JSON]:
    """The value at a dotted path (``preparation.usual``), and whether it is there at all."""
    current: JSON = dict(value)
    for key in dotted.split("."):
        if not isinstance(current, dict) or key not in current:
            return False, None
        current = current[key]
    return True, current
