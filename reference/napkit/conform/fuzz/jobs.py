"""``napkit fuzz -j N``: a campaign split among N worker processes, one program each.

Drawing an episode and judging the answers is Python work, so the workers are processes (each
``napkit fuzz --shard`` of the run's episodes, with a program of its own), not threads. Worker
``j`` of ``N`` takes the episodes ``j, j + N, j + 2N...`` of the run's shard, so the N workers
together play exactly the episodes ``-j 1`` plays, and ``--hands H`` is split so that the total
is H. They share a folder: each writes its progress there, and a worker that finds a
disagreement writes its episode number, past which the others stop where the run stops at the
first (``--first``: every episode before it is still played, by some worker). The workers'
disagreements are joined by signature, each group's episode the lowest-numbered that showed
it, the one ``-j 1`` finds first; this process then replays each and shrinks it as ``-j 1``
would.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from napkit.conform.fuzz.campaign import Campaign, Group, Outcome, Reach, group_from_json
from napkit.conform.fuzz.groups import merge
from napkit.output.progress import Progress

FOUND = "found"  # the shared folder's file of the lowest episode number found so far


# --- in a worker -------------------------------------------------------------------------------
class Worker:
    """A worker's side of the shared folder: its progress, and the others' finds."""

    def __init__(self, folder: str, shard: tuple[int, int]) -> None:
        self.folder = Path(folder)
        self.progress = self.folder / f"progress-{shard[0]}"
        self.written = 0.0
        self.known: int | None = None  # the lowest find read so far
        self.read = 0.0  # when the folder was last looked at for one

    def tick(self, reach: Reach) -> None:
        now = time.monotonic()
        if now - self.written >= 0.25:
            self.written = now
            _replace(self.progress, f"{reach.episodes} {reach.hands}")

    def beyond(self) -> int | None:
        """The lowest episode number another worker found a disagreement in, if any, read
        from the folder at most every tenth of a second (it is asked before each episode)."""
        now = time.monotonic()
        if self.known is None and now - self.read >= 0.1:
            self.read = now
            self.known = self._found()
        return self.known

    def _found(self) -> int | None:
        try:
            return int((self.folder / FOUND).read_text())
        except (OSError, ValueError):
            return None

    def found(self, index: int) -> None:
        """Say that episode ``index`` disagrees (keeping the lowest number said)."""
        known = self._found()
        if known is None or index < known:
            _replace(self.folder / FOUND, str(index))


def _replace(path: Path, text: str) -> None:
    temp = path.with_name(path.name + f".{os.getpid()}")
    temp.write_text(text)
    os.replace(temp, path)


# --- the parent --------------------------------------------------------------------------------
def worker_shards(shard: tuple[int, int], jobs: int) -> list[tuple[int, int]]:
    """The shards of ``jobs`` workers that together are ``shard``: worker j takes every
    ``jobs``-th of its episodes from the j-th."""
    k, n = shard
    return [(k + n * j, n * jobs) for j in range(jobs)]


def run_jobs(argv: Callable[[tuple[int, int], int | None, str, str], list[str]],
             jobs: int, shard: tuple[int, int], hands: int | None, quiet: bool,
             finish: Callable[[list[Group]], list[Group]], first: bool = False
             ) -> tuple[Outcome | None, str]:
    """Run the workers (``argv(shard, hands, report, folder)`` is each one's command line) to
    the end, with one progress bar; then the joined outcome, its disagreements replayed and
    shrunk here (``finish(groups)``; with ``first``, only the lowest-numbered new one). None
    and why if a worker could not run."""
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="napkit-fuzz-") as folder:
        procs: list[tuple[subprocess.Popen[bytes], str]] = []
        for j, part in enumerate(worker_shards(shard, jobs)):
            share = None if hands is None else len(range(j, hands, jobs))
            if share == 0:
                continue
            report = os.path.join(folder, f"report-{j}.json")
            procs.append((subprocess.Popen(argv(part, share, report, folder),
                                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                           start_new_session=True), report))
        progress = Progress(hands, "hands", "napkit fuzz", sys.stderr, every=0,
                            enabled=not quiet)
        try:
            _watch(procs, Path(folder), progress)
        except KeyboardInterrupt:
            for proc, _ in procs:  # each worker says it was interrupted, in its report
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGINT)
            for proc, _ in procs:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=10)
        finally:
            progress.finish()
        reports = []
        for proc, path in procs:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            if not os.path.exists(path):
                last = err.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
                return None, f"a worker stopped without its report: {last[0]}"
            reports.append(json.loads(Path(path).read_text()))
    return _join(reports, began, finish, first), ""


def _watch(procs: list[tuple[subprocess.Popen[bytes], str]], folder: Path,
           progress: Progress) -> None:
    shown = 0
    while any(proc.poll() is None for proc, _ in procs):
        time.sleep(0.1)
        done = 0
        for path in folder.glob("progress-*"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                done += int(path.read_text().split()[0])
        while shown < done:
            shown += 1
            progress.step()


def _join(reports: list[dict[str, Any]], began: float,
          finish: Callable[[list[Group]], list[Group]], first: bool) -> Outcome:
    reach = Reach()
    for r in reports:
        reach.episodes += r["episodes"]
        reach.hands += r["hands"]
        reach.steps += r["steps"]
        reach.events.update(Counter(r["reached"]))
        reach.breaches.update(Counter(r["breaches"]))
        reach.rules |= set(r["rules_exercised"])
        reach.unnamed += r["rule_not_named"]
        reach.disagreed += r.get("episodes_disagreeing", 0)
    groups = [group_from_json(e) for e in merge(r["disagreements"] for r in reports)]
    if first:  # the run's first new disagreement, and the known ones before it
        stop = next((g.index for g in groups if g.known is None), None)
        groups = [g for g in groups if stop is None or g.index <= stop]
    stops = {r["stopped"] for r in reports}
    stopped = ("interrupted" if "interrupted" in stops else "time" if "time" in stops
               else "found" if "found" in stops and first else "hands")
    restarts = sum(r["restarts"] for r in reports)
    # The time played is the longest worker's campaign, counted as -j 1 counts its own: from
    # its first episode, without starting napkit and the program (the workers play at once).
    played = max((r["seconds"] for r in reports), default=time.monotonic() - began)
    settling = time.monotonic()
    groups = finish(groups) if stopped != "interrupted" else groups
    return Outcome(reach, groups, played + time.monotonic() - settling, stopped, restarts,
                   played)


def replayer(campaign: Campaign, shrink_seconds: float, do_shrink: bool,
             deadline: float | None) -> Callable[[list[Group]], list[Group]]:
    """Replay here the first episode of each new group the workers found and shrink it (a
    group whose episode does not disagree the same way again keeps no reproducer, and says
    so: the program's answers depend on more than the requests)."""
    def finish(groups: list[Group]) -> list[Group]:
        replayed = []
        for group in groups:
            if group.known is not None:
                continue
            if campaign.replay_group(group):
                replayed.append(group)
            else:
                group.note = ("its episode did not disagree the same way when played again "
                              "here: the program's answers depend on more than the requests")
        campaign.settle(replayed, deadline, shrink_seconds, do_shrink=do_shrink)
        return groups
    return finish


__all__ = ["Worker", "replayer", "run_jobs", "worker_shards"]
