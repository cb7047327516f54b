"""How the heuristic players bid: the share of hands thrown in (nobody bid, NAP-5.3.2) and the
share of contracts made, over seeded hands of a table of heuristic players.

Run from the repository root::

    .venv/bin/python benchmarks/players_bidding.py                  # 1,000 hands a table
    .venv/bin/python benchmarks/players_bidding.py --hands 200 --seed 3
    .venv/bin/python benchmarks/players_bidding.py --reference OTHER/reference   # another napkit

The hands are those ``napkit record RULESET --players N --hands H --seed S`` writes (the
table's seeded dealer and players, :func:`napkit.formats.recording.table_hands`). Issue 30's
bound: at most a quarter of 4-player pagat hands thrown in, over 1,000 hands; the made share
says the players do not reach it by bidding wildly. Nothing here is timed:
``tests/test_players_bidding.py`` checks a sample against the bound, with a margin.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


def _reference_from(argv: Sequence[str]) -> str | None:
    """``--reference DIR`` is read before napkit is imported, so that DIR's napkit is used."""
    for i, arg in enumerate(argv):
        if arg == "--reference" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--reference="):
            return arg.split("=", 1)[1]
    return None


_OTHER = _reference_from(sys.argv[1:]) if __name__ == "__main__" else None
if _OTHER:
    sys.path.insert(0, str(Path(_OTHER).resolve()))

from napkit.engine.game import Game  # noqa: E402 (after --reference is put first)
from napkit.formats.recording import table_hands  # noqa: E402

#: The tables measured: (label, ruleset, players). The first is the issue's bound's.
CASES: tuple[tuple[str, str, int], ...] = (
    ("4-player pagat", "pagat", 4),
    ("3-player pagat", "pagat", 3),
    ("5-player pagat", "pagat", 5),
    ("4-player classic", "classic", 4),
    ("4-player peep", "peep", 4),
    ("5-player pagat-floater", "pagat-floater", 5),
)
#: Issue 30: at most this share of 4-player pagat hands thrown in.
BOUND = 0.25


@dataclass(frozen=True)
class Bidding:
    """What a table's hands came to: how many were dealt, thrown in, bid and made."""

    hands: int
    thrown_in: int
    made: int
    by_contract: tuple[tuple[str, int, int], ...]  # (contract, bid, made), by the bids' order

    @property
    def thrown_in_share(self) -> float:
        return self.thrown_in / self.hands if self.hands else 0.0

    @property
    def made_share(self) -> float:
        bid = self.hands - self.thrown_in
        return self.made / bid if bid else 0.0


def bidding(ruleset: str, players: int, hands: int, seed: int = 1) -> Bidding:
    """The thrown-in and made counts of ``hands`` hands of a table of heuristic players."""
    game = Game.create(ruleset, players)
    counts = {bid.id: [0, 0] for bid in game.rules.bids}
    thrown = made = 0
    for state in table_hands(game, seed, hands=hands):
        result = state.result
        assert result is not None
        if result.thrown_in:
            thrown += 1
            continue
        counts[result.contract or ""][0] += 1
        if result.made:
            made += 1
            counts[result.contract or ""][1] += 1
    return Bidding(hands, thrown, made, tuple((bid, n, m) for bid, (n, m) in counts.items()
                                              if n))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0] if __doc__ else None,
        epilog="example: python benchmarks/players_bidding.py --hands 1000")
    parser.add_argument("--hands", type=int, default=1000, help="hands per table")
    parser.add_argument("--seed", type=int, default=1, help="the tables' seed")
    parser.add_argument("--reference", metavar="DIR",
                        help="the napkit to measure: a checkout's reference/ folder")
    args = parser.parse_args(argv)
    import napkit

    print(f"napkit {napkit.__version__} from {Path(napkit.__file__).parent}")
    print(f"{'table':<24} {'hands':>6} {'thrown in':>10} {'made':>6}  contracts (bid/made)")
    for label, ruleset, players in CASES:
        found = bidding(ruleset, players, args.hands, args.seed)
        contracts = ", ".join(f"{bid} {n}/{m}" for bid, n, m in found.by_contract)
        print(f"{label:<24} {found.hands:>6} {found.thrown_in_share:>9.1%} "
              f"{found.made_share:>6.1%}  {contracts}")
    first = bidding(CASES[0][1], CASES[0][2], args.hands, args.seed)
    verdict = "within" if first.thrown_in_share <= BOUND else "OVER"
    print(f"{CASES[0][0]}: {first.thrown_in_share:.1%} thrown in, {verdict} the bound of "
          f"{BOUND:.0%}")


if __name__ == "__main__":
    main()
