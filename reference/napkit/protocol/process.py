"""Talking to a program under test: requests and their responses, within a time limit.

A :class:`Channel` carries requests to a program and brings back its answers. There are two:
:class:`ProcessChannel`, the real thing (a long-lived process spoken to in JSON Lines over its
standard input and output, spec/conformance.md 2.1), and :class:`InProcessChannel`, napkit's
own :class:`~napkit.protocol.adapter.Adapter` called directly (no process, no JSON text), for the
benchmark and for quick runs.

A :class:`Session` numbers the requests, does the handshake and checks every response: that it
is a JSON object, that it repeats the request's id, and that its schema accepts it
(adapter.schema.json). Requests go in batches (a case's at once): the program reads them as a
stream and answers each in turn, and the harness reads the answers as they come, in order,
each within the time limit of the answer before it. A program sees exactly the requests it
would see one at a time; only the round trips are saved.

A program that exits, hangs, writes something that is not one JSON object on one line,
answers another request or answers with an object its schema refuses raises
:class:`ProtocolError`, which carries the last lines the program wrote on its standard error;
the caller then kills the program and starts it again. Responses are read as strictly as
every input of napkit (:func:`napkit.reading.loads`: no NaN, no key twice, whole numbers only)
and a response line is at most :data:`MAX_LINE` bytes: the reading of a line never holds more
than that, and scans each byte once however long the line. What a program sends is kept
within the limits of spec/conformance.md 2.6 from the moment it is read (:func:`bounded`,
:data:`LONGEST_TEXT`): a program that floods its output grows nothing downstream.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import select
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from napkit.formats.jsontext import dumps
from napkit.output.tables import shorten
from napkit.reading import LineMemo, ReadError, loads, not_utf8
from napkit.spec.schemas import action_valid, is_valid, schema_problems

PROTOCOL = "napkit-adapter/1"
JSONObject = dict[str, Any]

#: The longest response line read, in bytes without its newline (spec/conformance.md 2.1):
#: a longer one is not an answer (the longest napkit writes, its hello, is under 2 KB).
MAX_LINE = 64 * 1024 * 1024
STDERR_KEPT = 64 * 1024  # bytes of the program's standard error kept for reports
#: The most kept of a string a program sends (spec/conformance.md 2.6), in
#: characters: its name and its version; any other string of an answer (a refusal's reason,
#: an error's message, a name it declares), and each line of its standard error. A longer one
#: is kept as its first characters and its length (napkit.output.tables.shorten), as soon as
#: its line is read: reports, the terminal and whatever a run keeps never hold the rest.
LONGEST_NAME = 100
LONGEST_TEXT = 1000
#: A response line longer than this, in bytes, is read without the memo of lines
#: (reading.LineMemo), which keeps each line it reads: the longest napkit's adapter writes is
#: about 2 KB, and 4,096 long lines of a program that floods would be kept there whole.
MEMO_LINE = 8 * 1024
#: What a caller expects the answer to a request to be, as napkit's adapter writes it: a
#: function giving the line's text after the id (from its comma on, without the newline) and
#: the value that text reads as, without the id, a new dict at each call. A line that is
#: exactly that is not read: napkit's own text of a value it made is strict JSON that the
#: schema accepts; the answer is that dict, with the id added. Anything else is read and
#: checked as usual. So that a caller need not look at such an answer again, the value must
#: be one that passes the caller's own check of that request (see Session.read).
Expected = Callable[[], tuple[bytes, "JSONObject"]]
RESPONSE_TYPES = ("hello", "ok", "legal", "accepted", "refused", "outcome", "bye", "error",
                  "chance", "perft", "state")


class ProtocolError(Exception):
    """The program broke the protocol. ``what`` is one of: ``cannot-start``, ``exited``,
    ``timeout``, ``not-json``, ``wrong-id``, ``schema``; ``stderr`` its last lines of standard
    error, where it has any."""

    def __init__(self, what: str, message: str, stderr: str = "", index: int = 0) -> None:
        super().__init__(what, message)
        self.what = what
        self.message = message
        self.stderr = stderr
        self.index = index  # which request of a batch it broke on
        self.partial: list[JSONObject] = []  # the good answers before it

    def __str__(self) -> str:
        return self.message


class Channel(Protocol):
    """One program, asked one thing at a time."""

    def exchange(self, requests: Sequence[JSONObject], timeout: float) -> tuple[
            list[object], ProtocolError | None]:
        """Send ``requests``; the values the program answered with (parsed JSON), in order,
        and the error that stopped the answers short, if any (its ``index`` set)."""

    def stderr_tail(self, lines: int = 10) -> str:
        """The last lines of the program's standard error ("" if none)."""

    def wait(self, seconds: float) -> bool:
        """Wait for the program to exit by itself; whether it did."""

    def kill(self) -> None:
        """End the program now."""


# --- the reference, in this process --------------------------------------------------------
class InProcessChannel:
    """napkit's adapter, called directly: what the protocol costs is measured against this."""

    def __init__(self, rulesets: Sequence[Any] = (), adapter: Any = None) -> None:
        from napkit.protocol.adapter import Adapter

        # house rulesets played beside the spec's; or an adapter of one's own (a test's)
        self.adapter = adapter if adapter is not None else Adapter(rulesets=rulesets)

    def exchange(self, requests: Sequence[JSONObject], timeout: float) -> tuple[
            list[object], ProtocolError | None]:
        handle = self.adapter.handle
        return [handle(r) for r in requests], None

    def stderr_tail(self, lines: int = 10) -> str:
        return ""

    def wait(self, seconds: float) -> bool:
        return True

    def kill(self) -> None:
        pass


# --- a program in its own process ----------------------------------------------------------
#: Every program this process started and has not ended yet. A program runs in its own
#: session, so the terminal's Ctrl-C never reaches it: whatever way napkit ends (an interrupt
#: in a handshake, a SIGTERM, an error of ours), the programs it started end with it.
_RUNNING: dict[int, ProcessChannel] = {}


@atexit.register
def end_programs() -> None:
    """End every program this process started that is still running (at exit: the
    ``napkit`` command's quick exit, which skips ``atexit``, calls it itself)."""
    for channel in list(_RUNNING.values()):
        if channel._owner == os.getpid():  # not a forked worker's copy of its parent's
            channel.kill()


class ProcessChannel:
    """A program started once and spoken to in JSON Lines.

    Reading is done with ``select`` on both of its output pipes, so that a request's time
    limit holds whatever the program does, and its standard error is drained as it comes
    (a program that writes a lot there never blocks on it).
    """

    def __init__(self, command: Sequence[str], cwd: str | None = None,
                 started: Any = None) -> None:
        # ``started``: the program already running, as a subprocess.Popen shows it (its pid,
        # its three pipes, poll, wait, kill), in its own process group: napkit's reference
        # adapter forked from the harness (napkit.protocol.adapter.Forked), ``command`` what
        # would start it.
        self.command = list(command)
        try:
            self.proc = started if started is not None else subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0, cwd=cwd,
                start_new_session=True)  # its own process group: kill() ends its children too
        except OSError as exc:
            raise ProtocolError("cannot-start", f"cannot start {' '.join(self.command)}: "
                                                f"{exc.strerror or exc}") from None
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._owner = os.getpid()
        _RUNNING[id(self)] = self
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        self._err = self.proc.stderr.fileno()
        os.set_blocking(self._in, False)
        self._buffer = bytearray()  # what the program wrote that is not yet an answer
        self._scanned = 0  # how much of the buffer is known to hold no newline
        self._stderr = bytearray()
        self._open = [self._out, self._err]
        self._sent: tuple[Sequence[JSONObject], memoryview,
                          Sequence[Expected | None] | None] | None = None  # see send()
        # The text of each request body met, by identity (kept alive here; see _encoded).
        self._texts: dict[int, tuple[JSONObject, bytes]] = {}
        self._lines = LineMemo()
        # The indexes, in order, of the last exchange's answers that were read: the others
        # were exactly the expected line (see _exchange), which Session.call_many need not
        # check against the schema.
        self.read: list[int] = []

    # the exchange -----------------------------------------------------------------------
    def exchange(self, requests: Sequence[JSONObject], timeout: float) -> tuple[
            list[object], ProtocolError | None]:
        answers: list[object] = []
        try:
            self._exchange(requests, timeout, answers)
        except ProtocolError as exc:
            exc.index = len(answers)
            return answers, exc
        return answers, None

    def send(self, requests: Sequence[JSONObject],
             bodies: Sequence[JSONObject] | None = None,
             expected: Sequence[Expected | None] | None = None) -> None:
        """Start writing ``requests`` now, as much of them as the pipe takes without waiting,
        so that the program works on them while this process does something else; the
        :meth:`exchange` of the same requests writes the rest and reads the answers.
        ``bodies``: the requests without their ids (each request is its body with ``id``
        first), whose text is remembered (see :meth:`_encoded`); ``expected``: what each
        answer is expected to be, where the caller knows (see :data:`Expected`)."""
        self._sent = (requests, self._write_some(self._encoded(requests, bodies)), expected)

    def _write_some(self, pending: memoryview) -> memoryview:
        """What is left of ``pending`` once the program's input has taken what it takes now
        (nothing if it has closed it: reading then tells why)."""
        try:
            return pending[os.write(self._in, pending[:1 << 16]):]
        except BlockingIOError:
            return pending
        except OSError:  # EPIPE: it has closed its input, or exited
            return memoryview(b"")

    def _encoded(self, requests: Sequence[JSONObject],
                 bodies: Sequence[JSONObject] | None = None) -> memoryview:
        """The lines of ``requests``. A body met before (the same object: a harness asks the
        same few hundred requests again and again, and keeps them) is not encoded again: its
        text follows the id."""
        if bodies is None:
            return memoryview(b"".join(dumps(r).encode() + b"\n" for r in requests))
        texts = self._texts
        lines = []
        for request, body in zip(requests, bodies, strict=True):
            known = texts.get(id(body))
            if known is None or known[0] is not body:
                if "id" in body:  # not a body: its own id would be overwritten
                    lines.append(dumps(request).encode() + b"\n")
                    continue
                if len(texts) >= 8192:
                    texts.clear()
                text = dumps(body).encode()
                known = texts[id(body)] = (body, b"," + text[1:] if len(text) > 2 else b"}")
            lines.append(b'{"id":%d%s\n' % (request["id"], known[1]))
        return memoryview(b"".join(lines))

    def _exchange(self, requests: Sequence[JSONObject], timeout: float,
                  answers: list[object]) -> None:
        """Write the requests while reading the answers (full duplex: neither side can block
        the other however much either writes), each answer within ``timeout`` of the one
        before."""
        sent, self._sent = self._sent, None
        expected: Sequence[Expected | None] | None = None
        if sent is not None and sent[0] is requests:
            pending, expected = sent[1], sent[2]
        else:
            pending = self._encoded(requests)
        buffer = self._buffer
        wanted = len(requests)
        self.read = []
        deadline = time.monotonic() + timeout
        while True:
            before = len(answers)
            self._take(requests, expected, answers)
            if len(answers) == wanted:
                return
            if len(answers) > before:  # the time limit runs from the last answer
                deadline = time.monotonic() + timeout
            request = requests[len(answers)]
            if len(buffer) > MAX_LINE:  # the buffer is one unfinished line here
                raise ProtocolError("not-json", f"answered the {_what(request)} with a line "
                                                f"longer than {MAX_LINE:,} bytes, the "
                                                "protocol's limit (spec/conformance.md 2.1)",
                                    self.stderr_tail())
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._late(request, bool(pending))
            readable, writable, _ = select.select(self._open, [self._in] if pending else [],
                                                  [], remaining)
            if not readable and not writable:
                raise self._late(request, bool(pending))
            if writable:
                pending = self._write_some(pending)
            for fd in readable:
                self._read(fd, request)

    def _take(self, requests: Sequence[JSONObject], expected: Sequence[Expected | None] | None,
              answers: list[object]) -> None:
        """Add to ``answers`` the answers the buffer holds whole, in order (see Expected)."""
        buffer = self._buffer
        read = self.read
        while len(answers) < len(requests):
            index = len(answers)
            want = expected[index] if expected else None
            if want is not None and not self._scanned:
                # The line napkit's adapter would write, if it is there whole: taken as its
                # value, neither copied nor read (see Expected).
                tail, value = want()
                ident = requests[index]["id"]
                line = b'{"id":%d%b\n' % (ident, tail)
                if buffer.startswith(line):
                    del buffer[:len(line)]
                    value["id"] = ident
                    answers.append(value)
                    continue
            # From where the last look stopped: a long line is scanned once, not at every read.
            end = buffer.find(b"\n", self._scanned)
            if end < 0:
                self._scanned = len(buffer)
                return
            raw = bytes(buffer[:end])
            del buffer[:end + 1]
            self._scanned = 0
            # The expected line, met across two reads, is taken as above.
            exact = None if want is None else self._exact(raw, requests[index], want)
            if exact is not None:
                answers.append(exact)
                continue
            answers.append(self._parse(raw, requests[index]))
            read.append(index)  # after: a line that does not parse is no answer

    def _read(self, fd: int, request: JSONObject) -> None:
        # The buffer is one unfinished line when this reads: at most one byte past the limit
        # is read into it, so that a line over the limit is found holding no more than that.
        size = 1 << 16 if fd == self._err else min(1 << 16, MAX_LINE + 1 - len(self._buffer))
        data = os.read(fd, size)
        if fd == self._err:
            if data:
                self._keep_stderr(data)
            else:
                self._open.remove(fd)
        elif data:
            self._buffer += data
        elif self._buffer:
            raise ProtocolError("not-json", f"answered the {_what(request)} with a line that "
                                            "does not end (no newline) and stopped",
                                self.stderr_tail())
        else:
            raise self._ended(request)

    def _parse(self, raw: bytes, request: JSONObject) -> object:
        """The value of a response line, read strictly (napkit.reading.loads): ProtocolError
        for one that is not UTF-8, not JSON, or JSON no napkit format has (NaN, a key twice,
        1.0 for a whole number), naming where. (A line that is exactly the expected text is
        taken before: :meth:`_exact`.) Its strings are kept to :data:`LONGEST_TEXT`
        characters (:func:`bounded`); a line no longer than that holds none longer."""
        try:
            if len(raw) > MEMO_LINE:
                return bounded(loads(raw.decode()))
            value = self._lines.read(raw)
            return value if len(raw) <= LONGEST_TEXT else bounded(value)
        except UnicodeDecodeError as exc:
            problem = f"is {not_utf8(exc)}"
        except ReadError as exc:
            if exc.kind != "value":
                text = raw.decode("utf-8", "replace")
                shown = text if len(text) <= 200 else text[:200] + "..."
                problem = f"is not JSON: {shown!r} ({exc.where}: {exc.message})"
            else:
                problem = f"is JSON that the protocol does not allow: {exc.where}: {exc.message}"
        raise ProtocolError("not-json", f"answered the {_what(request)} with a line that "
                                        f"{problem}", self.stderr_tail())

    @staticmethod
    def _exact(raw: bytes, request: JSONObject, expected: Expected) -> JSONObject | None:
        """The value of ``raw`` if it is exactly the ``expected`` line, else None."""
        tail, value = expected()
        head = b'{"id":%d' % request["id"]
        if len(raw) == len(head) + len(tail) and raw.endswith(tail) and raw.startswith(head):
            value["id"] = request["id"]
            return value
        return None

    def _late(self, request: JSONObject, unread: bool) -> ProtocolError:
        if self.proc.poll() is not None:
            return self._ended(request)
        how = "did not read the" if unread else "did not answer the"
        return ProtocolError("timeout", f"{how} {_what(request)} within the time limit",
                             self.stderr_tail())

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
        # Each line shortened: one line may be all the 64 KB kept, and every failure keeps it.
        return "\n".join(shorten(line, LONGEST_TEXT) for line in text.splitlines()[-lines:])

    # ending --------------------------------------------------------------------------------
    def wait(self, seconds: float) -> bool:
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return False
        return True

    def abort(self) -> None:
        """End the program now, from any thread: a signal only, so that a thread reading its
        pipes sees them end (the reader then calls :meth:`kill`, which closes them)."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)

    def kill(self) -> None:
        _RUNNING.pop(id(self), None)
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
_LEGAL_KEYS = frozenset({"id", "type", "turn", "actions"})
_REFUSED_KEYS = frozenset({"id", "type", "rule", "reason"})
_RULE_ID = re.compile(r"NAP-[0-9]+\.[0-9]+\.[0-9]+")


def _accepted_at_once(response: JSONObject) -> bool:
    """Whether the response is one of the common shapes that the schema certainly accepts
    (checked by hand, strictly; anything else goes to the schema itself)."""
    ident = response.get("id")
    if type(ident) is not int or ident < 0:
        return False
    kind = response.get("type")
    if kind in _SIMPLE:
        return len(response) == 2
    if kind == "legal":
        turn, actions = response.get("turn"), response.get("actions")
        return (response.keys() == _LEGAL_KEYS and isinstance(actions, list)
                and ((type(turn) is int and turn >= 0) or turn in ("chance", "over"))
                and _actions_valid(actions))
    if kind == "refused":
        rule = response.get("rule")
        return (response.keys() == _REFUSED_KEYS and isinstance(response.get("reason"), str)
                and (rule is None or (type(rule) is str and _RULE_ID.fullmatch(rule) is not None)))
    return False


def vouch(actions: list[Any]) -> None:
    """Take a list of actions as valid under the schema, while it lives (see _VALID_LISTS)."""
    if len(_VALID_LISTS) >= 8192:
        _VALID_LISTS.clear()
    _VALID_LISTS[id(actions)] = actions


# Lists of actions found valid, by identity, each kept alive here so that its id is not
# reused: a line a program repeats is read as the same objects (reading.LineMemo), and its
# actions need no second look. Emptied when full.
_VALID_LISTS: dict[int, list[Any]] = {}


def _actions_valid(actions: list[Any]) -> bool:
    if _VALID_LISTS.get(id(actions)) is actions:
        return True
    if not all(action_valid(a) for a in actions):
        return False
    vouch(actions)
    return True


def response_problem(response: JSONObject) -> tuple[str, str] | None:
    """Where and why adapter.schema.json refuses this response, or None if it accepts it."""
    if _accepted_at_once(response):
        return None
    kind = response.get("type")
    if kind == "chance" and response.keys() == {"id", "type", "action"} and isinstance(
            response["action"], dict) and isinstance(response["action"].get("type"), str):
        # The event a program made: whether the rules allow it (a pack with a card twice or
        # a card short) is for the harness to judge, with the rule it breaks
        # (napkit.conform.fuzz.episodes.ProgramChance), not for the schema to refuse in its words.
        return None
    if kind not in RESPONSE_TYPES:
        return ("$.type", f"unknown response type {kind!r} (one of {', '.join(RESPONSE_TYPES)})")
    name = f"adapter#/$defs/response-{kind}"
    if is_valid(name, response):
        return None
    problems = schema_problems(name, response)
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

    def __init__(self, opener: Callable[[], Channel], timeout: float,
                 start_timeout: float = 30.0) -> None:
        self.opener = opener
        self.timeout = timeout
        self.start_timeout = start_timeout  # for the handshake, which includes starting up
        self.channel: Channel | None = None
        self.hello: Hello | None = None
        self.next_id = 0
        self.starts = 0  # processes started
        self.aborted = False  # abort() was called: no program is to run any more
        # The indexes, in order, of the last call_many's answers that were read; the others
        # were exactly the line expected, whose value passes the caller's check by the
        # contract of Expected, so a caller need not check them again. None after a
        # protocol error.
        self.read: Sequence[int] | None = None

    @property
    def alive(self) -> bool:
        return self.channel is not None

    def open(self) -> Hello:
        """Start the program and shake hands; ProtocolError if either fails."""
        self.kill()
        self.channel = self.opener()
        self.starts += 1
        self.next_id = 0
        if self.aborted:  # abort() came while the program started: it must not run
            self.kill()
            raise ProtocolError("exited", "was stopped (the run was interrupted)")
        timeout, self.timeout = self.timeout, max(self.timeout, self.start_timeout)
        try:
            answer = self.call("hello", protocol=PROTOCOL)
        except BaseException:  # Ctrl-C or SIGTERM in the handshake too: the program ends
            self.kill()
            raise
        finally:
            self.timeout = timeout
        if answer.get("type") != "hello":
            stderr = self.channel.stderr_tail()
            self.kill()
            detail = f": {answer.get('message')}" if answer.get("type") == "error" else ""
            raise ProtocolError("schema", f"answered hello with {answer.get('type')!r}{detail}",
                                stderr)
        self.hello = Hello(shorten(answer["name"], LONGEST_NAME),
                           shorten(answer.get("version", ""), LONGEST_NAME), answer["supports"])
        return self.hello

    def call(self, kind: str, **fields: Any) -> JSONObject:
        """Send one request; its response, checked (ProtocolError if it breaks the protocol)."""
        return self.call_many([{"type": kind, **fields}])[0]

    def post(self, requests: Sequence[JSONObject],
             expected: Sequence[Expected | None] | None = None) -> list[JSONObject]:
        """Number ``requests`` and start sending them (what the program's input takes at
        once), so that it answers while the caller does other work; :meth:`call_many` with
        ``posted`` set to what this returns then reads and checks the answers. The program
        sees the same lines either way. ``expected``: see :data:`Expected`."""
        channel = self.channel
        if channel is None:
            raise ProtocolError("exited", "is not running")
        return self._send(channel, requests, None, expected)

    def _send(self, channel: Channel, requests: Sequence[JSONObject], first_id: int | None,
              expected: Sequence[Expected | None] | None) -> list[JSONObject]:
        """The requests numbered from ``first_id`` (default: the next id), sent as far as
        the channel sends ahead (a process channel: what its pipe takes now)."""
        first = self.next_id if first_id is None else first_id
        self.next_id = first + len(requests)
        numbered = [{"id": first + i, **r} for i, r in enumerate(requests)]
        send = getattr(channel, "send", None)
        if send is not None:
            send(numbered, requests, expected)
        return numbered

    def call_many(self, requests: Sequence[JSONObject],
                  first_id: int | None = None, *,
                  posted: list[JSONObject] | None = None,
                  expected: Sequence[Expected | None] | None = None) -> list[JSONObject]:
        """Send requests (each a type and its fields) in one batch; their responses, each
        checked. ProtocolError at the first that breaks the protocol, with the index of that
        request and the good responses before it. The requests are numbered from
        ``first_id`` (default: the session's next id; a caller that gives it keeps a process's
        ids increasing)."""
        channel = self.channel
        if channel is None:
            raise ProtocolError("exited", "is not running")
        numbered = (posted if posted is not None
                    else self._send(channel, requests, first_id, expected))
        answers, error = channel.exchange(numbered, self.timeout)
        # Only the answers read are checked: the others were exactly the expected line,
        # valid and of the request's id (see Expected).
        read: Sequence[int] | None = getattr(channel, "read", None)
        indexes = range(len(answers)) if read is None else read
        good = len(answers)
        for index in indexes:
            problem = _problem(numbered[index], answers[index])
            if problem is not None:
                what, message = problem
                error = ProtocolError(what, message, channel.stderr_tail(), index)
                good = index
                break
        # Every answer is a dict now: read ones passed _problem, the others are Expected's.
        checked = cast("list[JSONObject]", answers if good == len(answers) else answers[:good])
        if error is not None:
            error.partial = checked
            self.read = None
            raise error
        self.read = indexes
        return checked

    def stderr_tail(self) -> str:
        return self.channel.stderr_tail() if self.channel is not None else ""

    def kill(self) -> None:
        if self.channel is not None:
            self.channel.kill()
            self.channel = None

    def abort(self) -> None:
        """End the program now, from another thread than the one using the session (Ctrl-C in
        a run with several workers): the request in hand fails at once, as if the program had
        exited, and no program is started again. The thread using the session still ends it
        (:meth:`kill`). A channel without an ``abort`` method (one in this process) is left
        to finish the request in hand."""
        self.aborted = True
        stop = getattr(self.channel, "abort", None)
        if stop is not None:
            stop()

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


def _problem(request: JSONObject, answer: object) -> tuple[str, str] | None:
    """Why ``answer`` is no answer to ``request`` under the protocol (None: it is one)."""
    if not isinstance(answer, dict):
        return "not-json", (f"answered the {_what(request)} with {_short(answer)}, not a JSON "
                            "object")
    got = answer.get("id")
    if got is None and answer.get("type") == "error":  # spec/conformance.md 2.1
        return "wrong-id", (f"answered the {_what(request)} with id null, an error for a line "
                            f"it could not read: {_short(answer.get('message'))}")
    if type(got) is not int or got != request["id"]:
        return "wrong-id", f"answered the {_what(request)} with id {_short(got)}"
    problem = response_problem(answer)
    if problem is not None:
        path, message = problem
        return "schema", (f"answered the {_what(request)} with a response that "
                          f"adapter.schema.json refuses: {path}: {message}")
    return None


def bounded(value: Any, limit: int = LONGEST_TEXT) -> Any:
    """A value read from a program with each string in it (keys too) longer than ``limit``
    characters shortened, saying its length (napkit.output.tables.shorten); what holds none is
    returned as it is, the same object (a list of actions vouched for stays vouched for).
    Nothing a program may send is longer: a name or a choice so long is no ruleset's, and
    shortened it is still none (the "…" is in no name), so every check judges it as before.

    >>> bounded({"type": "refused", "rule": None, "reason": "no" * 600})["reason"][-25:]
    'nonono…(1,200 characters)'
    """
    if isinstance(value, str):
        return shorten(value, limit)
    if isinstance(value, list):
        items = [bounded(item, limit) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if isinstance(value, dict):
        pairs = [(shorten(k, limit), bounded(v, limit)) for k, v in value.items()]
        if all(k is k2 and v is v2 for (k, v), (k2, v2) in zip(value.items(), pairs,
                                                                strict=True)):
            return value
        return dict(pairs)
    return value


def _short(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, bytes) else repr(value)
    return text if len(text) <= 120 else text[:120] + "..."


def process_opener(command: Sequence[str]) -> Callable[[], Channel]:
    return lambda: ProcessChannel(command)


def in_process_opener(rulesets: Sequence[Any] = ()) -> Callable[[], Channel]:
    """The opener of napkit's adapter in this process, playing ``rulesets`` (house rulesets,
    napkit.spec.rulesets.Ruleset) beside the spec's."""
    return lambda: InProcessChannel(rulesets)


__all__ = ["LONGEST_NAME", "LONGEST_TEXT", "Channel", "Expected", "Hello", "InProcessChannel",
           "ProcessChannel", "ProtocolError", "Session", "bounded", "in_process_opener",
           "process_opener", "response_problem", "vouch"]
