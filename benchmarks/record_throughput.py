"""Recording throughput: what ``napkit record`` costs per hand, against the engine playing hands.

Run from the repository root::

    .venv/bin/python benchmarks/record_throughput.py                  # about 2 s per timing
    .venv/bin/python benchmarks/record_throughput.py --seconds 0.5 --repeats 3
    .venv/bin/python benchmarks/record_throughput.py --cli 20000      # and the whole command
    .venv/bin/python benchmarks/record_throughput.py --reference OTHER/reference   # another napkit

For each table (ruleset and players) it times, in one process and taking turns:

- **engine**: random hands through the public API, as ``engine_throughput.py`` plays them
  (``legal_actions`` and ``apply``, one ``random.Random.choice`` per decision): the engine
  playing, with nothing else to do.
- **replay**: the very hands ``napkit record`` plays (the table's seeded players), their
  actions applied again through the API: the engine's own share of a recording.
- **players**: those hands played by the engine's players (``recording.table_hands``): the
  engine, a view for every decision, and the players' thinking.
- **record**: what ``napkit record RULESET --hands N`` does between its start and its end
  (``recording.record_chunks``, each hand's line written to the null device as it comes).

It prints milliseconds per hand for each, and the ratios record/engine (issue 12's target:
within 2x) and record/players (what writing the record adds to playing the hands). The
heuristic players throw in some hands of standard Nap (nobody bids: about a fifth since issue
30, benchmarks/players_bidding.py), which are shorter than random play's, which is why both
ratios are given. Each figure is the best of ``--repeats``
timings of about ``--seconds`` each.

``--cli N`` also times the whole command, ``napkit record pagat --hands N --seed 1 -o FILE``,
as a new process (start-up included), and prints its milliseconds per hand. ``--reference
DIR`` runs everything against the napkit in DIR (a checkout's ``reference`` folder), for a
before-and-after comparison.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
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

from napkit.engine.actions import Action  # noqa: E402 (after --reference is put first)
from napkit.engine.game import Game  # noqa: E402
from napkit.engine.hand import HandState  # noqa: E402
from napkit.formats.recording import record_chunks, table_hands  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_throughput import api_hands, rates  # noqa: E402

CASES: tuple[tuple[str, str, int], ...] = (
    ("4-player Nap", "pagat", 4),
    ("7-player floater Nap", "pagat-floater", 7),
)
SEED = 1


def player_hands(game: Game, hands: int) -> int:
    """The table's hands played by the engine's (heuristic) players; how many were played."""
    return sum(1 for _ in table_hands(game, SEED, hands=hands))


def record_hands(game: Game, hands: int, sink: Callable[[str], object]) -> int:
    """What ``napkit record`` writes for ``hands`` hands, given to ``sink`` piece by piece."""
    for chunk in record_chunks(game, SEED, hands=hands):
        sink(chunk)
    return hands


def table_actions(game: Game, hands: int) -> list[tuple[int, tuple[Action, ...]]]:
    """(dealer, actions) of the table's first ``hands`` hands, for :func:`replay_hands`."""
    return [(h.dealer, tuple(action for _, action in h.history))
            for h in table_hands(game, SEED, hands=hands)]


def replay_hands(game: Game, played: Sequence[tuple[int, tuple[Action, ...]]],
                 hands: int) -> int:
    """``hands`` of the table's hands replayed through the API, round the ``played`` ones."""
    done = 0
    while done < hands:
        for dealer, actions in played[: hands - done]:
            state: HandState = game.new_hand(dealer)
            for action in actions:
                state = state.apply(action)
            done += 1
    return done


def cli_ms_per_hand(ruleset: str, hands: int) -> float:
    """Milliseconds per hand of the whole ``napkit record`` command, start-up included."""
    env = dict(os.environ)
    if _OTHER:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(_OTHER).resolve()),
                                                          env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "hands.jsonl"
        argv = [sys.executable, "-m", "napkit", "record", ruleset, "--hands", str(hands),
                "--seed", str(SEED), "-o", str(out)]
        start = time.perf_counter()
        subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return (time.perf_counter() - start) / hands * 1e3


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0] if __doc__ else None,
        epilog="example: python benchmarks/record_throughput.py --seconds 1 --repeats 3")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timing")
    parser.add_argument("--repeats", type=int, default=5, help="timings per loop; best reported")
    parser.add_argument("--cli", type=int, metavar="N", default=0,
                        help="also time the whole 'napkit record pagat --hands N' command")
    parser.add_argument("--reference", metavar="DIR",
                        help="the napkit to measure: a checkout's reference/ folder")
    args = parser.parse_args(argv)
    import napkit

    print(f"napkit {napkit.__version__} from {Path(napkit.__file__).parent}")
    print(f"{'table':<22} {'engine':>8} {'replay':>8} {'players':>8} {'record':>8}"
          f" {'record/engine':>14} {'record/players':>15}")
    print(f"{'':<22} {'ms/hand':>8} {'ms/hand':>8} {'ms/hand':>8} {'ms/hand':>8}")
    with open(os.devnull, "w", encoding="utf-8") as null:
        for label, ruleset, players in CASES:
            game = Game.create(ruleset, players)
            played = table_actions(game, 2000)
            per_second = rates([
                partial(api_hands, game, seed=SEED),
                partial(replay_hands, game, played),
                partial(player_hands, game),
                partial(record_hands, game, sink=null.write),
            ], args.seconds, args.repeats)
            engine, replay, by_players, record = (1e3 / r for r in per_second)
            print(f"{label:<22} {engine:>8.4f} {replay:>8.4f} {by_players:>8.4f} {record:>8.4f}"
                  f" {record / engine:>13.2f}x {record / by_players:>14.2f}x")
    if args.cli:
        print(f"napkit record pagat --hands {args.cli} -o FILE (whole process): "
              f"{cli_ms_per_hand('pagat', args.cli):.4f} ms/hand")


if __name__ == "__main__":
    main()
