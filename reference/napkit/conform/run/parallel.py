"""Work shared among several workers, its results handed back in order; and slices of work for
several machines.

:class:`Pool` maps a function over work items with N workers (each, say, a
:class:`~napkit.protocol.process.Session` whose program runs in its own process), one thread
each (a :class:`concurrent.futures.ThreadPoolExecutor` of N threads), and yields the results
**in the order of the items**, whatever order they finish in. A caller that reads the results
one by one and stops at some point (the first failure, a time budget) sees exactly what it
would see with one worker: the items after that point may have been started, but their
results are never yielded. With one worker nothing runs in another thread: the items are
worked in the caller's thread, one after another, as without a pool.

Threads suit work that mostly waits on other processes (``select`` and pipe reads release
the interpreter lock), but what Python work each does between its waits holds the others up.
:class:`ProcessPool` has the same ``map``, each worker made and used in a process of its own,
forked from this one (POSIX only): ``napkit conform -j N`` uses it where it can, and it is the
one to use where the work is mostly Python of its own (an oracle engine played in process).
It keeps each process an item ahead (one in hand, the next waiting in its pipe), reading the
answers in the caller's thread: :class:`concurrent.futures.ProcessPoolExecutor` does not serve
(its processes are anonymous, so none can make a worker of its own, say what closing it gave,
or be aborted; one process that dies breaks the whole pool), and handing each process its
items from a thread of a :class:`Pool`, one at a time, made ``napkit conform -j 2`` a fifth
slower (each process idle while its answer went through a thread and its next item came).
``benchmarks/conform_parallel.py`` measures both against one worker.

:func:`shard` is the K-th of N slices of a sequence of items (every N-th item, from the K-th),
so that N machines of a CI matrix between them do every item exactly once (``--shard K/N``
and ``-j N`` are read by :mod:`napkit.cli.common`, with every other number option).

>>> with Pool(["a", "b"]) as pool:
...     list(pool.map(lambda worker, n: n * n, range(6)))
[0, 1, 4, 9, 16, 25]
>>> shard(list(range(10)), 2, 3)
[1, 4, 7]
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

if TYPE_CHECKING:  # concurrent.futures (and the logging it imports) for threads only
    from concurrent.futures import ThreadPoolExecutor

W = TypeVar("W")
T = TypeVar("T")
R = TypeVar("R")

__all__ = ["Pool", "ProcessPool", "can_fork", "cores", "shard"]


class Pool(Generic[W]):
    """Workers (any objects: sessions, say) that items are shared among, one thread each.

    ``with Pool(workers, abort=...) as pool: for r in pool.map(work, items): ...`` calls
    ``work(worker, item)`` for every item, each worker in one thread and busy with one item at
    a time (so a worker needs no lock), and yields the results in the items' order. The
    workers belong to the caller, who makes them before and ends them after.

    * ``items`` is read lazily, in the caller's thread, one item at a time, never more than
      ``ahead`` items beyond the last result yielded (default: 16 per worker): it may be
      endless (an ``itertools.count()``), and should be cheap to read (indices, cases); the
      work goes in ``work``. An exception raised in reading them is raised at its place.
    * An exception raised by ``work`` is raised by the iterator at that item's place, once
      the results before it have been yielded (as one worker would have raised it).
    * Leaving the ``with`` block (the caller has what it wants, or an exception) stops the
      threads: each finishes the item in hand and takes no other; its result is dropped. On an
      exception (Ctrl-C above all), ``abort(worker)`` is called first for every worker, from
      the caller's thread: it must make the item in hand end at once (kill the worker's
      program, say) and be safe to call from another thread.

    Only one ``map`` may run at a time, and a pool's ``map`` runs once.
    """

    def __init__(self, workers: Sequence[W], *, abort: Callable[[W], None] | None = None,
                 ahead: int | None = None) -> None:
        if not workers:
            raise ValueError("a pool needs at least one worker")
        self.workers = list(workers)
        self.abort = abort
        self.ahead = ahead if ahead is not None else 16 * len(self.workers)
        if self.ahead < 1:
            raise ValueError("ahead must be 1 or more")
        self._executor: ThreadPoolExecutor | None = None
        self._started: threading.Barrier | None = None
        self._stop = False

    def __enter__(self) -> Pool[W]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if kind is not None and not issubclass(kind, GeneratorExit):
            self._abort()
        self.close()

    def close(self) -> None:
        """Stop the threads: each ends after the item in hand (its result dropped), the items
        not begun are dropped. A second Ctrl-C while they finish aborts every worker (see
        :class:`Pool`)."""
        self._stop = True
        if self._started is not None:
            self._started.abort()  # a thread still waiting for the others to start: stop it
        if self._executor is None:
            return
        try:
            self._executor.shutdown(wait=True, cancel_futures=True)
        except BaseException:
            self._abort()
            raise

    def _abort(self) -> None:
        if self.abort is not None:
            for worker in self.workers:
                self.abort(worker)

    def map(self, work: Callable[[W, T], R], items: Iterable[T]) -> Iterator[R]:
        """``work(worker, item)`` for each item, yielded in the items' order."""
        if len(self.workers) == 1:
            worker = self.workers[0]
            for item in items:
                if self._stop:
                    return
                yield work(worker, item)
            return
        yield from self._threaded(work, iter(items))

    def _threaded(self, work: Callable[[W, T], R], items: Iterator[T]) -> Iterator[R]:
        from concurrent.futures import CancelledError, Future, ThreadPoolExecutor

        count = len(self.workers)
        executor = self._executor = ThreadPoolExecutor(count, "napkit-worker")
        # Each thread takes one worker for good: a worker's first task holds its thread until
        # every worker has one, so that the executor starts all of its threads at once.
        mine = threading.local()
        everyone = self._started = threading.Barrier(count)

        def take(worker: W) -> None:
            mine.worker = worker
            with contextlib.suppress(threading.BrokenBarrierError):  # the pool is closing
                everyone.wait()

        def run(item: T) -> R:
            return work(mine.worker, item)

        try:
            for worker in self.workers:
                executor.submit(take, worker)
        except BaseException:
            everyone.abort()
            raise
        pending: deque[Future[R]] = deque()
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < self.ahead and not self._stop:
                    try:
                        item = next(items)
                    except StopIteration:
                        exhausted = True
                        break
                    except Exception as exc:  # the items themselves failed: raised there
                        failed: Future[R] = Future()
                        failed.set_exception(exc)
                        pending.append(failed)
                        exhausted = True
                        break
                    pending.append(executor.submit(run, item))
                if not pending:
                    return
                future = pending.popleft()
                while True:
                    try:  # a timeout, so that Ctrl-C is seen at once however the wait ends
                        failure = future.exception(timeout=1.0)
                    except TimeoutError:
                        continue
                    except CancelledError:  # the pool was closed
                        return
                    break
                if failure is not None:
                    raise failure
                yield future.result()
        finally:
            for future in pending:
                future.cancel()


# --- workers in processes of their own ------------------------------------------------------------
class ProcessPool(Generic[W]):
    """:class:`Pool`'s ordered ``map``, each of ``count`` workers in a process of its own.

    ``with ProcessPool(count, make, close=..., abort=...) as pool: for r in pool.map(work,
    items): ...``. Each process is forked from this one when ``map`` begins (so ``make`` and
    ``work`` may be closures, and see this process's data as it was then). It makes its worker
    with ``make(k)`` (``k`` from 0), which should start nothing that would outlive the process
    (a program: ``work`` starts those, where ``abort`` can reach them); runs ``work(worker,
    item)`` for each item it is sent; and at the end calls ``close(worker)``, whose value (it
    must pickle) is kept, each process's in its place, in :attr:`closed`. On an abort (an
    exception in the caller, Ctrl-C above all) each process is sent SIGTERM, calls
    ``abort(worker)`` (which must end at once: kill the worker's program) and exits. Items,
    results and exceptions go between the processes pickled. The items are read as
    :class:`Pool` reads them, and an exception raised by ``work`` is raised at its item's place
    (one that cannot be pickled as a RuntimeError that names it). A worker process that dies
    fails the items it had with RuntimeError.

    The processes ignore SIGINT (Ctrl-C reaches this one, which aborts them). A process
    forked while other threads run may find their locks held: begin ``map`` before starting
    any thread that holds one. Only one ``map`` per pool.
    """

    def __init__(self, count: int, make: Callable[[int], W], *,
                 close: Callable[[W], object] | None = None,
                 abort: Callable[[W], None] | None = None, ahead: int | None = None) -> None:
        if count < 1:
            raise ValueError("a pool needs at least one worker")
        self.count = count
        self.make = make
        self.close_worker = close
        self.abort_worker = abort
        self.ahead = ahead if ahead is not None else 16 * count
        if self.ahead < 1:
            raise ValueError("ahead must be 1 or more")
        self._children: list[tuple[Any, Any]] = []  # (process, connection)
        #: What ``close`` returned in each process, by ``k`` (None where it was not called:
        #: an abort, a process that died), once the ``with`` block is over.
        self.closed: list[object] = []

    def __enter__(self) -> ProcessPool[W]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if kind is not None and not issubclass(kind, GeneratorExit):
            self._end(abort=True)
        else:
            try:
                self._end(abort=False)
            except BaseException:  # a second Ctrl-C while they say goodbye
                self._end(abort=True)
                raise

    def _end(self, abort: bool) -> None:
        import signal

        for process, connection in self._children:
            if abort:
                if process.is_alive() and process.pid is not None:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(process.pid, signal.SIGTERM)
            else:
                with contextlib.suppress(OSError, ValueError):
                    connection.send(None)
        self.closed = [None] * len(self._children)
        for k, (process, connection) in enumerate(self._children):
            if not abort:
                with contextlib.suppress(EOFError, OSError):
                    while True:  # results still on their way, then what close returned
                        message = connection.recv()
                        if message[0] == "closed":
                            self.closed[k] = message[1]
                            break
            process.join(5 if abort else None)
            if process.is_alive():
                process.kill()
                process.join()
            connection.close()
        self._children = []

    def map(self, work: Callable[[W, T], R], items: Iterable[T]) -> Iterator[R]:
        """``work(worker, item)`` for each item, each in one of the processes, yielded in the
        items' order."""
        import multiprocessing
        from multiprocessing.connection import wait

        context = multiprocessing.get_context("fork")
        for k in range(self.count):
            mine, theirs = context.Pipe()
            process = context.Process(target=_child, args=(theirs, k, self.make, work,
                                                           self.close_worker,
                                                           self.abort_worker),
                                      name=f"napkit-worker-{k + 1}", daemon=True)
            process.start()
            theirs.close()
            self._children.append((process, mine))
        source = iter(items)
        outstanding: dict[Any, list[int]] = {c: [] for _, c in self._children}
        done: dict[int, tuple[bool, object]] = {}
        taken = index = 0
        exhausted = False
        while True:
            # Keep every process two items ahead (one in hand, one waiting), within ``ahead``:
            # one each first, so that a few items go to as many processes.
            for depth in (1, 2):
                for connection, held in list(outstanding.items()):
                    if exhausted or len(held) >= depth or taken - index >= self.ahead:
                        continue
                    try:
                        item = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    held.append(taken)
                    taken += 1
                    try:
                        connection.send((held[-1], item))
                    except OSError:  # the process has died (a broken pipe)
                        exhausted |= _lost(outstanding, connection, done)
            if index in done:
                ok, value = done.pop(index)
                index += 1
                if not ok:
                    assert isinstance(value, BaseException)
                    raise value
                yield cast(R, value)
                continue
            busy = [c for c, held in outstanding.items() if held]
            if not busy:
                return  # every item read has been yielded
            for ready in wait(busy, timeout=1.0):
                connection = cast(Any, ready)
                held = outstanding[connection]
                try:
                    number, ok, value = connection.recv()
                except (EOFError, OSError):  # the process has died
                    exhausted |= _lost(outstanding, connection, done)
                    continue
                held.remove(number)
                done[number] = (ok, value)


def _lost(outstanding: dict[Any, list[int]], connection: Any,
          done: dict[int, tuple[bool, object]]) -> bool:
    """A worker process has died: the items it had fail, and it gets no more. Whether no
    process is left."""
    for number in outstanding.pop(connection):
        done[number] = (False, RuntimeError("a worker process ended before it had done its "
                                            "work"))
    return not outstanding


def _child(connection: Any, k: int, make: Callable[[int], W], work: Callable[[W, T], R],
           close: Callable[[W], object] | None, abort: Callable[[W], None] | None) -> None:
    """A worker process: make the worker, work the items sent until told to stop."""
    import pickle
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    made: list[W] = []

    def aborted(_signum: int, _frame: object) -> None:
        if abort is not None and made:
            abort(made[0])
        os._exit(130)

    signal.signal(signal.SIGTERM, aborted)
    made.append(make(k))
    worker = made[0]
    try:
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                return
            if message is None:
                return
            number, item = message
            try:
                answer: tuple[int, bool, object] = (number, True, work(worker, item))
            except BaseException as exc:
                answer = (number, False, exc)
            try:
                connection.send(answer)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                connection.send((number, False, RuntimeError(
                    f"the result of item {number} cannot be sent between processes: {exc}")))
    finally:
        value = close(worker) if close is not None else None
        with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError):
            connection.send(("closed", value))


# --- slices for several machines ---------------------------------------------------------------
def shard(items: Sequence[T], index: int, count: int) -> list[T]:
    """The ``index``-th (from 1) of ``count`` slices of ``items``: every ``count``-th item from
    the ``index``-th. The slices of 1..count hold every item exactly once, their sizes differ
    by one at most, and each is a sample of the whole spread evenly along it (sorted cases: the
    same mix of rulesets and kinds in each)."""
    if not 1 <= index <= count:
        raise ValueError(f"a shard is K/N with 1 <= K <= N, not {index}/{count}")
    return list(items[index - 1::count])


def can_fork() -> bool:
    """Whether :class:`ProcessPool` can run here (a system that forks: not Windows)."""
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
