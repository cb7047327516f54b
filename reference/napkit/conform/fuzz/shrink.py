"""Choice sequences, and shrinking one to the smallest that still shows a bug.

``napkit fuzz`` draws everything random about a hand or a match (the game, the table, the
deal, each player's choice, the illegal actions it tries) from one :class:`Choices`, a
:class:`random.Random` that keeps the list of every number it gave out. Played again from that
list, the same hand comes back; played from another list, any list at all, a valid hand comes
back too, because every number only picks among what the engine offers at that point (a
number past the end of the list is 0, the first choice). That is what makes shrinking safe:
:func:`shrink` edits the list (deletes runs of it, sets runs to 0, lowers single numbers) and
keeps each edit after which the program still fails the same way. Shorter and lower lists are
simpler hands: fewer players (the smallest table is drawn as 0), the default options, the deal
in its plainest order, no illegal tries but the one that matters.

This is the way Hypothesis shrinks (its "choice sequence" or internal reduction, as in
minithesis), done here by hand because the hand to reduce comes from a run of the fuzzer, not
from a Hypothesis test, and because each try runs an outside program: the passes are ordered to
cut the most with the fewest tries, and a time and try budget bounds them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

__all__ = ["Choices", "ShrinkResult", "shrink"]

_FLOAT_BITS = 53  # random() is a draw below 2**53, scaled
_FLOAT_ONE = 1 << _FLOAT_BITS
_FLOAT_SCALE = 2.0 ** -_FLOAT_BITS
_T = TypeVar("_T")


class Choices(random.Random):
    """A random source that records its draws, or replays a list of them.

    Without ``replay`` it draws from ``random.Random(seed)`` and records each number; with
    ``replay`` it gives out those numbers in turn (each taken modulo the range asked for) and
    then zeros. ``drawn`` is the list of numbers given out, what replaying gives back.

    >>> first = Choices(seed=7)
    >>> hand = [first.randrange(10) for _ in range(3)]
    >>> Choices(replay=first.drawn).randrange(10) == hand[0]
    True
    >>> Choices(replay=[]).choice("abc")  # past the end: the first choice
    'a'
    """

    def __init__(self, seed: int | None = None, replay: Sequence[int] | None = None) -> None:
        source = None if replay is not None else random.Random(seed)
        self._bits = None if source is None else source.getrandbits
        self._replay = list(replay) if replay is not None else []
        self._at = 0
        self.drawn: list[int] = []
        self._record = self.drawn.append
        super().__init__(0)

    def _next(self, bound: int) -> int:
        if self._bits is not None:
            # What random.Random's randrange(bound) draws (rejection on bound's bit length),
            # without its checks.
            k = bound.bit_length()
            value = self._bits(k)
            while value >= bound:
                value = self._bits(k)
        elif self._at < len(self._replay):
            value = self._replay[self._at] % bound
            self._at += 1
        else:
            value = 0
        self._record(value)
        return value

    # Every method of random.Random that draws goes through one of these three. They are the
    # fuzzer's hottest calls (a deal alone asks random() once a card), so a draw from the seed
    # is made here in line, as _next would make it: the same numbers, a call fewer each.
    def _randbelow(self, n: int) -> int:
        if n <= 1:
            return 0
        bits = self._bits
        if bits is None:
            return self._next(n)
        k = n.bit_length()
        value = bits(k)
        while value >= n:
            value = bits(k)
        self._record(value)
        return value

    def random(self) -> float:
        bits = self._bits
        if bits is None:
            return self._next(_FLOAT_ONE) / _FLOAT_ONE
        # _next's draw: the bit length of 2**53 (54 bits), rejected while not below 2**53 (a
        # comparison, which makes no new int as value >> 53 would). Scaled by 2**-53, exactly
        # the division (both are exact, the value being below 2**53), which on an int is
        # several times slower: a deal asks a card each.
        value = bits(54)
        while value >= _FLOAT_ONE:
            value = bits(54)
        self._record(value)
        return value * _FLOAT_SCALE

    def randoms(self, n: int) -> list[float]:
        """``n`` calls of :meth:`random` in one: the same floats, and the same numbers recorded.
        A deal draws a key for each card (napkit.engine.phases.deal.sample_deal), most of the
        fuzzer's
        draws: one loop here is a quarter cheaper than a call a card."""
        bits = self._bits
        if bits is None:
            return [self.random() for _ in range(n)]
        values: list[int] = []
        add = values.append
        for _ in range(n):
            value = bits(54)  # random()'s draw, as above
            while value >= _FLOAT_ONE:
                value = bits(54)
            add(value)
        self.drawn.extend(values)
        return [value * _FLOAT_SCALE for value in values]

    def getrandbits(self, k: int) -> int:
        return self._next(1 << k) if k > 0 else 0

    # random.Random's own randrange and choice, without their checks where the call is the
    # common one (one positive int; a non-empty sequence): they draw through _randbelow, as
    # Random's do.
    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None and step == 1 and type(start) is int and start > 0:
            return self._randbelow(start)
        return super().randrange(start, stop, step)

    def choice(self, seq: SupportsLenAndGetItem[_T]) -> _T:
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def seed(self, a: object = None, version: int = 2) -> None:
        # Random.__init__ seeds; a Choices is seeded by its list, so there is nothing to do.
        super().seed(0)


class ShrinkResult:
    """What shrinking came to: the smallest failing list found, and how it got there."""

    def __init__(self, choices: list[int], tries: int, kept: int, seconds: float,
                 stopped: str) -> None:
        self.choices = choices
        self.tries = tries  # lists run
        self.kept = kept  # edits that still failed
        self.seconds = seconds
        self.stopped = stopped  # "done" (no edit helps), "tries" or "time" (the budget ran out)


def _key(choices: Sequence[int]) -> tuple[int, Sequence[int]]:
    """Shortlex: a shorter list is simpler, then the lower at the first difference."""
    return len(choices), choices


def shrink(choices: Sequence[int], fails: Callable[[list[int]], list[int] | None],
           max_tries: int = 2000, seconds: float = 30.0) -> ShrinkResult:
    """The simplest list found whose run still fails.

    ``fails(candidate)`` runs a list and returns the numbers that run really drew (which may
    be fewer than given: the rest were never needed) if it failed the same way, or None. The
    passes, repeated while any of them helps: cut the tail; delete runs of 8, 4, 2 and 1
    numbers; set runs to 0; lower each number (to 0, to half, by one).
    """
    shrinker = _Shrinker(list(choices), fails, max_tries, seconds)
    try:
        while shrinker.cut_tail() | shrinker.delete_runs() | shrinker.zero_runs() | (
                shrinker.lower_each()):
            pass
    except _BudgetError:
        pass
    return ShrinkResult(shrinker.best, shrinker.tries, shrinker.kept,
                        time.monotonic() - shrinker.began, shrinker.stopped)


class _Shrinker:
    """The smallest failing list so far, and the passes that try to make it smaller."""

    def __init__(self, best: list[int], fails: Callable[[list[int]], list[int] | None],
                 max_tries: int, seconds: float) -> None:
        self.best = best
        self.fails = fails
        self.max_tries = max_tries
        self.seconds = seconds
        self.began = time.monotonic()
        self.tries = self.kept = 0
        self.stopped = "done"

    def attempt(self, candidate: list[int]) -> bool:
        """Whether ``candidate``, simpler than the best, fails the same way (it is then the
        best). _BudgetError once the tries or the time are spent."""
        if _key(candidate) >= _key(self.best):
            return False
        if self.tries >= self.max_tries:
            self.stopped = "tries"
            raise _BudgetError
        if time.monotonic() - self.began > self.seconds:
            self.stopped = "time"
            raise _BudgetError
        self.tries += 1
        used = self.fails(candidate)
        if used is None:
            return False
        # What the run drew is at least as simple as what it was given.
        self.best = used if _key(used) < _key(candidate) else candidate
        self.kept += 1
        return True

    def cut_tail(self) -> bool:
        """A run often needs only the front of the list: cut halves, quarters... off its end."""
        improved = False
        size = len(self.best) // 2
        while size >= 1:
            if self.attempt(self.best[:len(self.best) - size]):
                improved = True
            else:
                size //= 2
        return improved

    def _runs(self, edit: Callable[[list[int], int, int], list[int] | None]) -> bool:
        improved = False
        for size in (8, 4, 2, 1):
            i = len(self.best) - size
            while i >= 0:
                candidate = edit(self.best, i, size)
                if candidate is not None and self.attempt(candidate):
                    improved = True
                i = min(i - 1, len(self.best) - size)
        return improved

    def delete_runs(self) -> bool:
        return self._runs(lambda best, i, size: best[:i] + best[i + size:])

    def zero_runs(self) -> bool:
        return self._runs(lambda best, i, size: best[:i] + [0] * size + best[i + size:]
                          if any(best[i:i + size]) else None)

    def lower_each(self) -> bool:
        improved = False
        i = len(self.best) - 1
        while i >= 0:
            if i < len(self.best) and self.best[i] > 0:
                value = self.best[i]
                for lower in sorted({0, value // 2, value - 1}):
                    if i < len(self.best) and self.attempt(
                            self.best[:i] + [lower] + self.best[i + 1:]):
                        improved = True
                        break
            i -= 1
        return improved


class _BudgetError(Exception):
    """The tries or the time allowed for shrinking ran out."""
