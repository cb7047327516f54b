"""napkit: the reference rules kit for Nap (Napoleon).

The law book, the rulesets and the decisions register live in ``spec/``; napkit reads them
(:mod:`napkit.spec`), plays by them (:mod:`napkit.engine`), records and checks hands
(:mod:`napkit.formats`), and checks other programs against them (:mod:`napkit.conform`). The
names most programs need are here:

- :class:`Game`: a ruleset with its options, for a table; it makes hands and matches.
- :class:`HandState`: one hand at one moment: whose turn, the legal actions, ``apply``.
- :class:`MatchState` and :func:`new_match`: hands played in sequence, with chips and a pool.
- :func:`play_out`: a hand or a match played to its end by computer players, chance drawn
  from a seeded ``random.Random``.
- :func:`parse_action`: an action from what a player types (``"bid nap"``, ``"10H"``).
- :class:`IllegalActionError`: an action refused, with the id of the rule it breaks.
- :class:`SetupError`: a game or hand that cannot be set up, with its rule id.
- :class:`SpecError`: a spec or ruleset file that is not as its schema says.
- :func:`load_spec`: the whole spec folder, loaded and linked.
- :func:`card_name` and :func:`parse_card`: cards to and from their short names (``"QS"``).

The names are imported when first used, so that ``import napkit`` stays quick.

Thread safety: hand and match states are immutable (``apply`` returns a new state), so any
number of threads may read one and play on from it. A :class:`Game` and everything the engine
caches (each game's ``memo``, the card tables, the play's and the deal's last answer) may be
shared between threads: every cache holds pure functions of its key, filled once, and each
last answer is one tuple stored and read in one step, so a thread never sees half of
another's; ``napkit.engine.game.clear_memos()`` may run while others play. The engine's
players may be shared too: a ``HeuristicPlayer``'s memos hold pure functions of the hand,
read and filled by single dict operations (atomic under the GIL), so it chooses as it would
alone. Not to share: a ``random.Random`` (draws from two threads interleave, so a seed no
longer replays a hand: give each thread its own), and anything that changes the engine for
the whole process (``set_ruleset_finder``, the conformance mutants' patches) while other
threads play. tests/test_threads.py plays every ruleset from four threads at once under a
tracer that switches threads between any two instructions of the engine.
"""

from __future__ import annotations

import os
import sys


def _as_the_command() -> bool:
    """Whether this process is the ``napkit`` command (``python -m napkit``, or the console
    script), rather than a program of someone else's that imports napkit."""
    args = sys.orig_argv
    return os.path.basename(sys.argv[0]) in ("napkit", "napkit.exe") or any(
        args[i] == "-m" and args[i + 1] in ("napkit", "napkit.__main__")
        for i in range(len(args) - 1))


try:
    from typing import TYPE_CHECKING

    from napkit import _lazy, _moved
    from napkit.engine import finder as _finder
except KeyboardInterrupt:
    # Ctrl-C while the package is imported for the napkit command (python -m napkit imports it
    # before napkit's __main__ can catch anything; the console script before main): one line
    # and status 130, as at any other moment, not a traceback. In someone else's program the
    # KeyboardInterrupt is theirs.
    if not _as_the_command():
        raise
    print("\nnapkit: interrupted", file=sys.stderr)
    # A Ctrl-C inside a dataclass's exec'd methods leaves CPython's unhandled-KeyboardInterrupt
    # flag set, and under -m it would then kill itself with SIGINT: running exec clears it.
    exec("pass")
    raise SystemExit(130) from None

__version__ = "0.6.0"

if TYPE_CHECKING:
    from napkit.engine.cards import card_name, parse_card
    from napkit.engine.game import Game
    from napkit.engine.hand import HandState
    from napkit.engine.match import MatchState, new_match
    from napkit.errors import IllegalActionError, SetupError, SpecError
    from napkit.formats.notation import parse_action
    from napkit.players.playout import play_out
    from napkit.spec.catalog import load_spec

# Each public name, and the module it lives in.
_WHERE = {
    "Game": "napkit.engine.game",
    "HandState": "napkit.engine.hand",
    "MatchState": "napkit.engine.match",
    "new_match": "napkit.engine.match",
    "parse_action": "napkit.formats.notation",
    "play_out": "napkit.players.playout",
    "IllegalActionError": "napkit.errors",
    "SetupError": "napkit.errors",
    "SpecError": "napkit.errors",
    "load_spec": "napkit.spec.catalog",
    "card_name": "napkit.engine.cards",
    "parse_card": "napkit.engine.cards",
}

__all__ = ["Game", "HandState", "IllegalActionError", "MatchState", "SetupError", "SpecError",
           "card_name", "load_spec", "new_match", "parse_action", "parse_card", "play_out"]


__getattr__, __dir__ = _lazy.lazy_names(__name__, _WHERE)


def _find_ruleset(ruleset: str) -> _finder.RulesetLike:
    """Game.create's finder: the rulesets of the spec folder napkit ships with."""
    from napkit.errors import SetupError
    from napkit.spec.catalog import default_rulesets  # the rulesets alone: no law book

    rulesets = default_rulesets()
    if ruleset not in rulesets:
        known = ", ".join(sorted(rulesets))
        raise SetupError("NAP-10.1.1", f"no ruleset {ruleset!r} (known: {known})")
    return rulesets[ruleset]


# napkit 0.2's module paths, for one release; napkit 0.1's say where their modules went.
_moved.install()

# The engine reads no files: Game.create finds rulesets through the spec layer, set here
# (with napkit.engine.finder, not napkit.engine.game: importing napkit loads no engine).
_finder.set_ruleset_finder(_find_ruleset)
