"""Which shrinker ``napkit fuzz`` uses, by measurement: its choice-sequence passes
(:func:`napkit.conform.fuzz.shrink.shrink`: cut the tail, delete runs, zero runs, lower numbers)
against classic delta debugging (ddmin: delete ever smaller chunks, nothing else) on the same
first disagreements.

    .venv/bin/python benchmarks/fuzz_shrinkers.py                   # a dozen mutants
    .venv/bin/python benchmarks/fuzz_shrinkers.py revoke-allowed pool-not-won

For each mutant it finds the first disagreement (seed 1, the mutant's rulesets) against
``python conformance/mutants/adapter.py NAME``, then shrinks it both ways with the same budget
(2,000 tries, 30 s) and prints the steps of the episode each way, the tries and the seconds,
and the medians.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from napkit.conform.fuzz import campaign as campaign_module  # noqa: E402
from napkit.conform.fuzz.campaign import Campaign  # noqa: E402
from napkit.conform.fuzz.episodes import Games, scope_of  # noqa: E402
from napkit.conform.fuzz.shrink import ShrinkResult, shrink  # noqa: E402
from napkit.protocol.process import Session, process_opener  # noqa: E402
from napkit.spec.catalog import default_spec  # noqa: E402

SAMPLE = ("revoke-allowed", "auction-opens-with-dealer", "purchase-cost-per-card",
          "void-suit-named", "dealer-passes-right", "pool-not-won", "highest-card-wins",
          "trumps-named-before-exchange", "look-costs-nothing", "stakes-ignored",
          "ante-not-taken", "payments-doubled")


def ddmin(choices: Sequence[int], fails: Callable[[list[int]], list[int] | None],
          max_tries: int = 2000, seconds: float = 30.0) -> ShrinkResult:
    """Zeller's ddmin on the list of choices: try removing each of n chunks (n from 2,
    doubling up to the list's length), keep a removal that still fails."""
    began = time.monotonic()
    best, n, tries, kept = list(choices), 2, 0, 0
    while len(best) >= 2 and tries < max_tries and time.monotonic() - began < seconds:
        size = max(1, len(best) // n)
        removed = False
        for start in range(0, len(best), size):
            candidate = best[:start] + best[start + size:]
            tries += 1
            used = fails(candidate)
            if used is not None:
                best, kept, removed = candidate, kept + 1, True
                n = max(n - 1, 2)
                break
            if tries >= max_tries:
                break
        if not removed:
            if size == 1:
                break
            n = min(n * 2, len(best))
    return ShrinkResult(best, tries, kept, time.monotonic() - began, "done")


def one(name: str) -> tuple[int, int, int, int, int, float, float] | None:
    from conformance.mutants import REGISTRY

    mutant = REGISTRY[name]
    session = Session(process_opener([sys.executable, str(ROOT / "conformance" / "mutants" /
                                                            "adapter.py"), name]), 20.0)
    hello = session.open()
    scope = scope_of(hello.supports, default_spec().rulesets, list(mutant.rulesets))
    campaign = Campaign(scope, session, 1, Games(default_spec().rulesets))
    found_at = None
    for index in range(3000):
        episode = campaign.episode(index)
        found, _ = campaign.check(episode)
        if found is not None:
            found_at = (episode, found)
            break
    if found_at is None:
        session.close()
        return None
    episode, found = found_at
    results = []
    for shrinker in (shrink, ddmin):
        setattr(campaign_module, "shrink", shrinker)  # noqa: B010 - the campaign's shrinker
        result = campaign.shrink_found(episode, found, 0.0, 30.0)
        shrunk = result.shrinking
        results.append((len(result.episode.steps), shrunk.tries if shrunk else 0,
                        shrunk.seconds if shrunk else 0.0))
    setattr(campaign_module, "shrink", shrink)  # noqa: B010
    session.close()
    (ours, our_tries, our_s), (dd, dd_tries, dd_s) = results
    return len(episode.steps), ours, dd, our_tries, dd_tries, our_s, dd_s


def main() -> int:
    names = sys.argv[1:] or list(SAMPLE)
    rows = []
    print(f"{'mutant':<30} {'found':>6} {'napkit':>7} {'ddmin':>6}   tries (napkit/ddmin)  "
          "seconds")
    for name in names:
        row = one(name)
        if row is None:
            print(f"{name:<30} not found")
            continue
        rows.append(row)
        found, ours, dd, t1, t2, s1, s2 = row
        print(f"{name:<30} {found:>6} {ours:>7} {dd:>6}   {t1:>5} / {t2:<5}          "
              f"{s1:.1f} / {s2:.1f}", flush=True)
    if rows:
        print(f"\nmedian steps: found {statistics.median(r[0] for r in rows):g}, napkit's "
              f"passes {statistics.median(r[1] for r in rows):g}, ddmin "
              f"{statistics.median(r[2] for r in rows):g}; median tries "
              f"{statistics.median(r[3] for r in rows):g} / "
              f"{statistics.median(r[4] for r in rows):g}; median seconds "
              f"{statistics.median(r[5] for r in rows):.1f} / "
              f"{statistics.median(r[6] for r in rows):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
