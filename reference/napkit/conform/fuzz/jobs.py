"""``napkit fuzz -j N``: a campaign split among N worker processes, one program each.

Drawing an episode and judging the answers is Python work, so the workers are processes (each
``napkit fuzz --shard`` of the run's episodes, with a program of its own), not threads. Worker
``j`` of ``N`` takes the episodes ``j, j + N, j + 2N...`` of the run's shard, so the N workers
together play exactly the episodes ``-j 1`` plays, and ``--hands H`` is split so that the total
is H. They share a folder: each writes its progress there, and a worker that finds a
disagreement writes its episode number, past which the others stop (every episode before it is
still played, by some worker). The run's disagreement is the lowest-numbered one found, the one
``-j 1`` finds first; this process then replays it and shrinks it as ``-j 1`` would.
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

from napkit.conform.fuzz.campaign import Campaign, Outcome, Reach
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
             replay: Callable[[int, float], Outcome | None]) -> tuple[Outcome | None, str]:
    """Run the workers (``argv(shard, hands, report, folder)`` is each one's command line) to
    the end, with one progress bar; then the joined outcome, with the lowest-numbered
    disagreement replayed and shrunk here (``replay(index)``). None and why if a worker could
    not run."""
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
    return _join(reports, time.monotonic() - began, replay), ""


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


def _join(reports: list[dict[str, Any]], seconds: float,
          replay: Callable[[int, float], Outcome | None]) -> Outcome:
    reach = Reach()
    for r in reports:
        reach.episodes += r["episodes"]
        reach.hands += r["hands"]
        reach.steps += r["steps"]
        reach.events.update(Counter(r["reached"]))
        reach.breaches.update(Counter(r["breaches"]))
        reach.rules |= set(r["rules_exercised"])
        reach.unnamed += r["rule_not_named"]
    found = sorted((r["disagreement"]["episode"], r["disagreement"]["seconds_to_find"])
                   for r in reports if r["disagreement"] is not None)
    stops = {r["stopped"] for r in reports}
    stopped = ("interrupted" if "interrupted" in stops else "time" if "time" in stops
               else "hands")
    restarts = sum(r["restarts"] for r in reports)
    if found:
        outcome = replay(*found[0])
        if outcome is not None:
            outcome.reach = reach
            outcome.restarts += restarts
            return outcome
        stopped = "not replayed"
    # The time played is the longest worker's campaign, counted as -j 1 counts its own: from
    # its first episode, without starting napkit and the program (the workers play at once).
    played = max((r["seconds"] for r in reports), default=seconds)
    return Outcome(reach, None, played, stopped, restarts)


def replayer(campaign: Campaign, shrink_seconds: float, do_shrink: bool
             ) -> Callable[[int, float], Outcome | None]:
    """Replay episode ``index`` here and shrink its disagreement (None: it did not disagree
    again, so the program's answers do not depend on the requests alone)."""
    def replay(index: int, seconds_to_find: float) -> Outcome | None:
        began = time.monotonic()
        episode = campaign.episode(index)
        found, _ = campaign.check(episode)
        if found is None:
            return None
        result = campaign.shrink_found(episode, found, seconds_to_find, shrink_seconds,
                                       do_shrink)
        return Outcome(Reach(), result, time.monotonic() - began, "found", campaign.restarts)
    return replay


# --- joining shards run apart -------------------------------------------------------------------
FUZZ_REPORT = "napkit-fuzz-report/1"
_SAME = ("program", "seed", "rulesets", "kinds", "budget")  # what every shard of a run shares


def merge_fuzz_reports(documents: list[tuple[str, object]]) -> dict[str, Any]:
    """The JSON reports of ``napkit fuzz --shard K/N`` (K from 1 to N, one run: the same
    program, seed, rulesets, kinds and budget) joined into one: the counts summed, the rules
    joined, the disagreement the lowest-numbered episode's (each shard's is already shrunk).
    MergeError (one line naming the file) for anything else."""
    from napkit.conform.run.shards import MergeError

    first: dict[str, Any] | None = None
    seen: dict[int, str] = {}
    count = 0
    for path, doc in documents:
        if not isinstance(doc, dict) or doc.get("format") != FUZZ_REPORT:
            raise MergeError(f"{path}: not a napkit fuzz report ({FUZZ_REPORT})")
        shard = doc.get("shard")
        if not isinstance(shard, dict):
            raise MergeError(f"{path}: the report of a whole run, not of a shard (--shard K/N)")
        if first is None:
            first, count = doc, shard["count"]
        for key in _SAME:
            if doc.get(key) != first.get(key):
                raise MergeError(f"{path}: another run: its {key} is {doc.get(key)!r}, not "
                                 f"{first.get(key)!r}")
        if shard["count"] != count:
            raise MergeError(f"{path}: shard {shard['index']}/{shard['count']} is not one of "
                             f"{count}")
        index = shard["index"]
        if index in seen:
            raise MergeError(f"{path}: shard {index}/{count} is also {seen[index]}")
        seen[shard["index"]] = path
    assert first is not None
    missing = sorted(set(range(1, count + 1)) - set(seen))
    if missing:
        raise MergeError(f"shard {missing[0]}/{count} is missing")
    docs = [doc for _, doc in documents if isinstance(doc, dict)]
    merged = dict(first)
    for key in ("episodes", "hands", "steps", "restarts", "rule_not_named"):
        merged[key] = sum(d[key] for d in docs)
    merged["seconds"] = round(sum(d["seconds"] for d in docs), 3)
    for key in ("reached", "breaches"):
        total: Counter[str] = Counter()
        for d in docs:
            total.update(d[key])
        merged[key] = dict(sorted(total.items()))
    merged["rules_exercised"] = sorted({r for d in docs for r in d["rules_exercised"]})
    merged["notes"] = sorted({n for d in docs for n in d["notes"]})
    found = [d["disagreement"] for d in docs if d["disagreement"] is not None]
    merged["disagreement"] = min(found, key=lambda f: f["episode"]) if found else None
    stops = {d["stopped"] for d in docs}
    merged["stopped"] = ("found" if found else "interrupted" if "interrupted" in stops
                         else "time" if "time" in stops else "hands")
    merged["shard"] = None
    return merged


__all__ = ["FUZZ_REPORT", "Worker", "merge_fuzz_reports", "replayer", "run_jobs",
           "worker_shards"]
