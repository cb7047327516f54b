"""Talking to a program under test: one request, one response, within a time limit.

A :class:`Channel` carries one request to a program and brings back its answer. There are two:
:class:`ProcessChannel`, the real thing (a long-lived process spoken to in JSON Lines over its
standard input and output, spec/conformance.md 2.1), and :class:`InProcessChannel`, napkit's
own :class:`~napkit.adapter.Adapter` called directly (no process, no JSON text), for the
benchmark and for quick runs.

A :class:`Session` numbers the requests, does the handshake and checks every response: that it
is a JSON object, that it repeats the request's id, and that its schema accepts it
(adapter.schema.json). Anything else (the program exits, hangs, writes something that is not
one JSON object on one line, answers another request, or answers with an object its schema
refuses) raises :class:`ProtocolError`, which carries the last lines the program wrote on its
standard error; the caller then kills the program and starts it again.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from napkit.conform.fastschema import definition_problems, fast_validator

PROTOCOL = "napkit-adapter/1"
JSONObject = dict[str, Any]

MAX_LINE = 64 * 1024 * 1024  # a response longer than this is not an answer
STDERR_KEPT = 64 * 1024  # bytes of the program's standard error kept for reports
RESPONSE_TYPES = ("hello", "ok", "legal", "accepted", "refused", "outcome", "bye", "error")


class ProtocolError(Exception):
    """The program broke the protocol. ``what`` is one of: ``cannot-start``, ``exited``,
    ``timeout``, ``not-json``, ``wrong-id``, ``schema``; ``stderr`` its last lines of standard
    error, where it has any."""

    def __init__(self, what: str, message: str, stderr: str = "") -> None:
        super().__init__(what, message)
        self.what = what
        self.message = message
        self.stderr = stderr

    def __str__(self) -> str:
        return self.message


class Channel(Protocol):
    """One program, asked one thing at a time."""

    def exchange(self, request: JSONObject, timeout: float) -> object:
        """Send ``request``; the value the program answers with (parsed JSON)."""

    def stderr_tail(self, lines: int = 10) -> str:
        """The last lines of the program's standard error ("" if none)."""

    def wait(self, seconds: float) -> bool:
        """Wait for the program to exit by itself; whether it did."""

    def kill(self) -> None:
        """End the program now."""


# --- the reference, in this process --------------------------------------------------------
class InProcessChannel:
    """napkit's adapter, called directly: what the protocol costs is measured against this."""

    def __init__(self) -> None:
        from napkit.adapter import Adapter

        self.adapter = Adapter()

    def exchange(self, request: JSONObject, timeout: float) -> object:
        return self.adapter.handle(request)

    def stderr_tail(self, lines: int = 10) -> str:
        return ""

    def wait(self, seconds: float) -> bool:
        return True

    def kill(self) -> None:
        pass


# --- a program in its own process ----------------------------------------------------------
class ProcessChannel:
    """A program started once and spoken to in JSON Lines.

    Reading is done with ``select`` on both of its output pipes, so that a request's time
    limit holds whatever the program does, and its standard error is drained as it comes
    (a program that writes a lot there never blocks on it).
    """

    def __init__(self, command: Sequence[str], cwd: str | None = None) -> None:
        self.command = list(command)
        try:
            self.proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0, cwd=cwd,
                start_new_session=True)  # its own process group: kill() ends its children too
        except OSError as exc:
            raise ProtocolError("cannot-start", f"cannot start {' '.join(self.command)}: "
                                                f"{exc.strerror or exc}") from None
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        self._err = self.proc.stderr.fileno()
        os.set_blocking(self._in, False)
        self._buffer = bytearray()
        self._stderr = bytearray()
        self._open = [self._out, self._err]

    # the exchange -----------------------------------------------------------------------
    def exchange(self, request: JSONObject, timeout: float) -> object:
        deadline = time.monotonic() + timeout
        line = json.dumps(request, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
        self._write(line, deadline, request)
        raw = self._readline(deadline, request)
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            text = raw.decode("utf-8", "replace")
            shown = text if len(text) <= 200 else text[:200] + "..."
            raise ProtocolError("not-json", f"answered the {_what(request)} with a line that "
                                            f"is not JSON: {shown!r}",
                                self.stderr_tail()) from None

    def _write(self, data: bytes, deadline: float, request: JSONObject) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._in, view)
                view = view[written:]
                continue
            except BlockingIOError:
                pass
            except OSError:  # EPIPE: it has closed its input, or exited
                raise self._ended(request) from None
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([], [self._in], [], remaining)[1]:
                raise ProtocolError("timeout", f"did not read the {_what(request)} within the "
                                               "time limit", self.stderr_tail())

    def _readline(self, deadline: float, request: JSONObject) -> bytes:
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[:end + 1]
                return line
            if len(buffer) > MAX_LINE:
                raise ProtocolError("not-json", f"answered the {_what(request)} with more "
                                                f"than {MAX_LINE} bytes and no end of line",
                                    self.stderr_tail())
            remaining = deadline - time.monotonic()
            ready = select.select(self._open, [], [], remaining)[0] if remaining > 0 else []
            if not ready:
                raise ProtocolError("timeout", f"did not answer the {_what(request)} within "
                                               "the time limit", self.stderr_tail())
            for fd in ready:
                data = os.read(fd, 1 << 16)
                if fd == self._err:
                    if data:
                        self._keep_stderr(data)
                    else:
                        self._open.remove(fd)
                elif data:
                    buffer += data
                else:
                    if buffer:
                        raise ProtocolError("not-json", f"answered the {_what(request)} with "
                                                        "a line that does not end (no newline) "
                                                        "and stopped", self.stderr_tail())
                    raise self._ended(request)

    def _ended(self, request: JSONObject) -> ProtocolError:
        """The error for a program that has gone (or closed its pipes) mid-request."""
        try:
            status = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            how = "closed its standard output"
        else:
            if status < 0:
                try:
                    name = signal.Signals(-status).name
                except ValueError:
                    name = f"signal {-status}"
                how = f"was killed by {name}"
            else:
                how = f"exited with status {status}"
        self._drain_stderr(0.5)
        return ProtocolError("exited", f"{how} before answering the {_what(request)}",
                             self.stderr_tail())

    # standard error ----------------------------------------------------------------------
    def _keep_stderr(self, data: bytes) -> None:
        self._stderr += data
        if len(self._stderr) > STDERR_KEPT:
            del self._stderr[:len(self._stderr) - STDERR_KEPT]

    def _drain_stderr(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self._err in self._open:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._err], [], [], remaining)[0]:
                return
            data = os.read(self._err, 1 << 16)
            if not data:
                self._open.remove(self._err)
                return
            self._keep_stderr(data)

    def stderr_tail(self, lines: int = 10) -> str:
        text = self._stderr.decode("utf-8", "replace").rstrip("\n")
        return "\n".join(text.splitlines()[-lines:]) if text else ""

    # ending --------------------------------------------------------------------------------
    def wait(self, seconds: float) -> bool:
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return False
        return True

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL is not refused
            self.proc.wait(timeout=5)
        self._drain_stderr(0.2)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def _what(request: JSONObject) -> str:
    return f"{request.get('type')} request (id {request.get('id')})"


# --- checking responses ---------------------------------------------------------------------
_SIMPLE = frozenset({"ok", "accepted", "bye"})


def response_problem(response: JSONObject) -> tuple[str, str] | None:
    """Where and why adapter.schema.json refuses this response, or None if it accepts it."""
    kind = response.get("type")
    if kind in _SIMPLE and len(response) == 2:
        ident = response.get("id")
        if type(ident) is int and ident >= 0:
            return None  # {"id": N, "type": T}: exactly the schema of these three
    if kind not in RESPONSE_TYPES:
        return ("$.type", f"unknown response type {kind!r} (one of {', '.join(RESPONSE_TYPES)})")
    uri = f"adapter.schema.json#/$defs/response-{kind}"
    if fast_validator(uri).is_valid(response):
        return None
    problems = definition_problems(uri, response)
    return problems[0] if problems else ("$", "refused by adapter.schema.json")


@dataclass(frozen=True)
class Hello:
    """What the program said of itself in the handshake."""

    name: str
    version: str
    supports: JSONObject


class Session:
    """A program and its requests: numbering, the handshake, every response checked, and a
    fresh process (with a fresh handshake) after a failure."""

    def __init__(self, opener: Callable[[], Channel], timeout: float) -> None:
        self.opener = opener
        self.timeout = timeout
        self.channel: Channel | None = None
        self.hello: Hello | None = None
        self.next_id = 0
        self.starts = 0  # processes started

    @property
    def alive(self) -> bool:
        return self.channel is not None

    def open(self) -> Hello:
        """Start the program and shake hands; ProtocolError if either fails."""
        self.kill()
        self.channel = self.opener()
        self.starts += 1
        self.next_id = 0
        try:
            answer = self.call("hello", protocol=PROTOCOL)
        except ProtocolError:
            self.kill()
            raise
        if answer.get("type") != "hello":
            stderr = self.channel.stderr_tail()
            self.kill()
            detail = f": {answer.get('message')}" if answer.get("type") == "error" else ""
            raise ProtocolError("schema", f"answered hello with {answer.get('type')!r}{detail}",
                                stderr)
        self.hello = Hello(answer["name"], answer.get("version", ""), answer["supports"])
        return self.hello

    def call(self, kind: str, **fields: Any) -> JSONObject:
        """Send one request; its response, checked (ProtocolError if it breaks the protocol)."""
        channel = self.channel
        if channel is None:
            raise ProtocolError("exited", "is not running")
        ident = self.next_id
        self.next_id += 1
        request = {"id": ident, "type": kind, **fields}
        answer = channel.exchange(request, self.timeout)
        if not isinstance(answer, dict):
            raise ProtocolError("not-json", f"answered the {_what(request)} with "
                                            f"{_short(answer)}, not a JSON object",
                                channel.stderr_tail())
        got = answer.get("id")
        if type(got) is not int or got != ident:
            raise ProtocolError("wrong-id", f"answered the {_what(request)} with id "
                                            f"{_short(got)}", channel.stderr_tail())
        problem = response_problem(answer)
        if problem is not None:
            path, message = problem
            raise ProtocolError("schema", f"answered the {_what(request)} with a response "
                                          f"that adapter.schema.json refuses: {path}: {message}",
                                channel.stderr_tail())
        return answer

    def stderr_tail(self) -> str:
        return self.channel.stderr_tail() if self.channel is not None else ""

    def kill(self) -> None:
        if self.channel is not None:
            self.channel.kill()
            self.channel = None

    def close(self) -> str:
        """Say bye and let the program exit (killing it if it does not); a note if it did not
        take its leave as the protocol says."""
        channel = self.channel
        if channel is None:
            return ""
        note = ""
        timeout, self.timeout = self.timeout, min(self.timeout, 2.0)
        try:
            answer = self.call("bye")
            if answer.get("type") != "bye":
                note = f"answered bye with {answer.get('type')!r}"
            elif not channel.wait(2.0):
                note = "did not exit after bye"
        except ProtocolError as exc:
            note = f"bye: {exc.message}"
        finally:
            self.timeout = timeout
            self.kill()
        return note


def _short(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, bytes) else repr(value)
    return text if len(text) <= 120 else text[:120] + "..."


def process_opener(command: Sequence[str]) -> Callable[[], Channel]:
    return lambda: ProcessChannel(command)


def in_process_opener() -> Callable[[], Channel]:
    return InProcessChannel


__all__ = ["Channel", "Hello", "InProcessChannel", "ProcessChannel", "ProtocolError", "Session",
           "in_process_opener", "process_opener", "response_problem"]
