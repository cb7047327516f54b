"""Settings for a process that plays hands by the thousand (``napkit fuzz``, the adapter).

Python's cyclic garbage collector runs whenever 700 more container objects are alive than at
its last pass, and each of its full passes walks every object alive: the spec, the schemas,
the engine's tables. Play makes objects by the million and no cycles (a refusal's traceback
once made one: see the engine's ``act``; 2,000 fuzz episodes run with the collector off
leave no cyclic garbage behind), so :func:`settle` moves what start-up made out of the
collector's sight (:func:`gc.freeze`) and lets the collector wait for 100,000 more objects
alive. A campaign's memory is flat (its memos are bounded), so that count is seldom reached:
2,000 fuzz episodes made 4 passes (0.15 s) where a threshold of 7,000 made 102 (0.56 s, 9% of
the fuzzer's time) and 700 more. Were some path to make cycles after all, they would be
collected once 100,000 containers piled up: memory stays bounded either way.
"""

from __future__ import annotations

import gc

#: The youngest generation's threshold (Python's default is 700).
THRESHOLD = 100_000


def settle() -> None:
    """Call once start-up is done: what is alive now is kept out of the collector's passes,
    and the youngest generation is collected once 100,000 more containers are alive (not
    700)."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(THRESHOLD, older, oldest)


__all__ = ["THRESHOLD", "settle"]
