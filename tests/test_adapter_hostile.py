"""Hostile input on both sides of the adapter protocol (issue 13): whatever bytes arrive, the
adapter answers every line with one JSON object (``"id": null`` where the line's id cannot be
read, spec/conformance.md 2.1), refuses a line over its limit without keeping it, reads
requests strictly (napkit.reading) and never raises; the harness reads a program's responses
as strictly, in linear time, and never holds more of a line than its limit.

No timing is asserted (speed is measured in benchmarks/adapter_long_line.py): the long lines
here only have to be answered."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from napkit.protocol import process
from napkit.protocol.adapter import MAX_REQUEST, Lines, serve
from napkit.protocol.process import ProcessChannel, ProtocolError
from napkit.reading import loads

HELLO = {"id": 0, "type": "hello", "protocol": "napkit-adapter/1"}
START = {"type": "start-hand", "ruleset": "pagat", "options": {}, "players": 4, "dealer": 0,
         "seats": [0, 1, 2, 3], "pool": 0, "funds": None, "stakes": 1}


def answers(data: bytes, max_line: int = MAX_REQUEST) -> list[dict[str, Any]]:
    """The adapter's answers to ``data`` on its standard input, each read strictly."""
    stdout = io.BytesIO()
    assert serve(io.BytesIO(data), stdout, max_line) == 0
    lines = stdout.getvalue().split(b"\n")
    assert lines.pop() == b""  # every answer ends with its newline
    return [loads(line.decode()) for line in lines]


def line(request: object) -> bytes:
    return json.dumps(request).encode() + b"\n"


def check_answer(answer: object) -> None:
    """One response of the protocol: an object with an id (a whole number or null) and a
    type; an error with a message on one line."""
    assert isinstance(answer, dict) and "id" in answer and "type" in answer, answer
    assert answer["id"] is None or (type(answer["id"]) is int and answer["id"] >= 0)
    if answer["type"] == "error":
        message = answer["message"]
        assert isinstance(message, str) and message and message.splitlines() == [message]


# --- lines over the limit ---------------------------------------------------------------------
def test_a_line_over_the_limit_is_refused_with_id_null_and_the_next_is_answered() -> None:
    got = answers(b"x" * 5000 + b"\n" + line({"id": 3, **START}), max_line=1000)
    assert [a["id"] for a in got] == [None, 3]
    assert got[0]["type"] == "error"
    assert got[0]["message"] == ("$: a request line is at most 1,000 bytes long "
                                 "(spec/conformance.md 2.1); this one has 5,000, not read")
    assert got[1]["type"] == "ok"


def test_a_line_at_the_limit_is_read_and_a_last_line_over_it_refused() -> None:
    request = line({"id": 1, "type": "legal"})
    got = answers(request + b"y" * 1001, max_line=len(request) - 1)
    assert [a["id"] for a in got] == [1, None]
    assert "this one has 1,001" in got[1]["message"]


def test_the_limit_is_16_mib() -> None:
    assert MAX_REQUEST == 16 * 1024 * 1024


@pytest.mark.parametrize("chunk", [1, 7, 1000, 1 << 16])
def test_a_line_over_the_limit_is_never_kept(chunk: int) -> None:
    """Fed in pieces of any size, the reader holds no more than the limit of a long line,
    and gives its length, then the next line whole."""
    lines = Lines(100)
    data = b"z" * 10_000 + b"\nnext\n" + b"w" * 250
    done: list[bytes | bytearray | int] = []
    for at in range(0, len(data), chunk):
        done += lines.feed(data[at:at + chunk])
        assert len(lines.pending) <= 100
    assert done == [10_000, b"next"]
    assert lines.end() == 250 and lines.end() is None


@pytest.mark.parametrize("chunk", [1, 3, 64])
def test_lines_cut_anywhere_come_out_whole(chunk: int) -> None:
    data = b"one\n\ntwo three\nfour"
    lines = Lines(100)
    done: list[bytes | bytearray | int] = []
    for at in range(0, len(data), chunk):
        done += lines.feed(data[at:at + chunk])
    assert [bytes(x) for x in done if not isinstance(x, int)] == [b"one", b"", b"two three"]
    assert lines.end() == b"four"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"bb", b"\n", b"c" * 9, b"d" * 10, b"e" * 11]),
                max_size=30), st.integers(1, 40))
def test_lines_in_chunks_of_any_size_are_the_lines_split_at_once(
        pieces: list[bytes], chunk: int) -> None:
    """Lines of 10 bytes at most, fed in chunks that hold several whole lines, a line's end
    or none: each line given whole or by its length, as splitting all the data at once."""
    data = b"".join(pieces)
    *whole, last = data.split(b"\n")
    lines = Lines(10)
    done: list[bytes | bytearray | int] = []
    for at in range(0, len(data), chunk):
        done += lines.feed(data[at:at + chunk])
    assert [x if isinstance(x, int) else bytes(x) for x in done] == [
        x if len(x) <= 10 else len(x) for x in whole]
    end = lines.end()
    expected = None if not last else last if len(last) <= 10 else len(last)
    assert (end if end is None or isinstance(end, int) else bytes(end)) == expected


def test_twenty_megabytes_of_junk_then_a_request() -> None:
    """The reader is linear: 20 MB in one line (over the limit) and 12 MB within it are read
    and answered, as the quadratic reader took seconds to do."""
    junk = b"\x00junk" * 4_000_000
    padded = b'{"id": 2, "type": "legal", "pad": "' + b"x" * 12_000_000 + b'"}\n'
    got = answers(junk + b"\n" + padded + line({"id": 3, "type": "bye"}))
    assert [a["id"] for a in got] == [None, 2, 3]
    assert "this one has 20,000,000" in got[0]["message"]
    assert got[1]["message"] == "$.pad: unexpected field 'pad' in the legal request"


# --- what cannot be read ----------------------------------------------------------------------
@pytest.mark.parametrize(("data", "words"), [
    (b"not json", "$: not JSON: a value was expected here (at line 1, column 1)"),
    (b'{"id": 1, "type": "legal"', "$: not JSON: a comma (,) or the end of the array or object"),
    (b'{"id": 1, "type": "\xff"}', "$: not UTF-8 text"),
    (b'[1, 2]', "$: a request is a JSON object"),
    (b'{"type": "legal"}', "$: missing field 'id'"),
    (b'{"id": "1", "type": "legal"}', "$.id: expected a whole number"),
    (b'{"id": -1, "type": "legal"}', "$.id: expected a whole number of at least 0"),
    (b'{"id": 1, "id": 2, "type": "legal"}', '$: the key "id" is given twice'),
    (b'{"id": 1.0, "type": "legal"}', "$.id: 1.0 is not a whole number"),
    (b'{"id": 9007199254740992, "type": "legal"}', "$.id: 9007199254740992 is beyond"),
    (b'{"id": NaN, "type": "legal"}', "$: not JSON: NaN is not a JSON value"),
    (b"[" * 5000, "$: not JSON"),
    (b"[" * 200 + b"]" * 200, "$[0][0][0][0][0]...: not JSON: arrays or objects nested too"),
])
def test_a_line_whose_id_cannot_be_read_is_answered_with_id_null(data: bytes,
                                                                 words: str) -> None:
    got = answers(line(HELLO) + data + b"\n" + line({"id": 5, "type": "legal"}))
    assert [a["id"] for a in got] == [0, None, 5]  # not 0: that is the hello's
    assert got[1]["type"] == "error" and got[1]["message"].startswith(words), got[1]


def test_an_id_of_thousands_of_digits_is_refused_in_napkits_words() -> None:
    (got,) = answers(b'{"id": ' + b"7" * 5000 + b', "type": "legal"}\n')
    assert got == {"id": None, "type": "error",
                   "message": "$: not JSON: a number with too many digits to read"}
    assert "int_max_str_digits" not in json.dumps(got)


@pytest.mark.parametrize(("request_", "words"), [
    ('"seat": 1.0, "action": {"type": "pass"}',
     "$.seat: 1.0 is not a whole number (write it without a point or an exponent)"),
    ('"seat": 1, "action": {"type": "play", "card": 1.0}', "$.action.card: 1.0 is not a whole"),
    ('"seat": 1, "action": {"type": "play", "card": "AS", "card": "KS"}',
     '$.action: the key "card" is given twice'),
    ('"seat": 1, "seat": 2, "action": {"type": "pass"}', '$: the key "seat" is given twice'),
    ('"seat": 1e0, "action": {"type": "pass"}', "$.seat: 1e0 is not a whole number"),
    ('"seat": 1, "action": {"type": "bid", "bid": 123456789012345678901}',
     "$.action.bid: 123456789012345678901 is beyond the largest whole number"),
])
def test_strict_json_errors_name_the_path_and_keep_a_readable_id(request_: str,
                                                                  words: str) -> None:
    (got,) = answers(b'{"id": 4, "type": "apply", ' + request_.encode() + b"}\n")
    assert got["id"] == 4 and got["type"] == "error"
    assert got["message"].startswith(words), got


def test_nan_in_a_field_is_not_json() -> None:
    (got,) = answers(b'{"id": 4, "type": "apply", "seat": NaN, "action": {"type": "pass"}}\n')
    assert got == {"id": None, "type": "error", "message": "$: not JSON: NaN is not a JSON value"}


def test_a_message_is_one_line_whatever_a_key_holds() -> None:
    (got,) = answers(b'{"id": 1, "type": "legal", "a\\nb\\u2028c": 1}\n')
    assert got["id"] == 1 and got["message"].splitlines() == [got["message"]]
    assert got["message"].startswith('$["a\\u000ab\\u2028c"]: unexpected field')


def test_a_lone_surrogate_is_answered_in_ascii() -> None:
    """UTF-8 cannot carry "\\ud800", which a JSON string may hold: the answer escapes it."""
    stdout = io.BytesIO()
    serve(io.BytesIO(b'{"id": 1, "type": "legal", "\\ud800": 1}\n'), stdout)
    assert stdout.getvalue().isascii()
    got = json.loads(stdout.getvalue())
    assert got["id"] == 1 and got["message"].startswith('$["\ud800"]: unexpected field')


# --- never a crash ----------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "type", "seat", "action", "card"]) | st.text(), inner,
        max_size=5),
    max_leaves=10)
requests = st.fixed_dictionaries(
    {"id": st.integers(-2, 2**54) | json_values,
     "type": st.sampled_from(["legal", "apply", "start-hand", "outcome", "hello"]) | json_values},
    optional={"seat": json_values, "action": json_values})


def serve_all(data: bytes) -> list[object]:
    """The answers to ``data`` (read leniently, so that nothing is hidden), each checked."""
    stdout = io.BytesIO()
    assert serve(io.BytesIO(data), stdout, 4096) == 0
    out = stdout.getvalue()
    assert out == b"" or out.endswith(b"\n")
    got = [json.loads(x) for x in out.split(b"\n")[:-1]]
    for answer in got:
        check_answer(answer)
    return got


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_get_answers(data: bytes) -> None:
    got = serve_all(data)
    assert len(got) <= len([x for x in data.split(b"\n") if x.strip()])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=60).filter(lambda b: b"\n" not in b), max_size=6),
       st.sampled_from([b"\n", b"\r\n"]))
def test_any_lines_get_one_answer_each(lines: list[bytes], newline: bytes) -> None:
    got = serve_all(b"".join(x + newline for x in lines))
    if not any(isinstance(a, dict) and a.get("type") == "bye" for a in got):
        assert len(got) == len([x for x in lines if x.strip()])


@settings(max_examples=300, deadline=None)
@given(st.lists(json_values | requests, min_size=1, max_size=5))
def test_any_json_values_get_one_answer_each(values: list[object]) -> None:
    got = serve_all(b"".join(line(v) for v in [HELLO, {"id": 1, **START}, *values]))
    assert [a["type"] for a in got[:2]] == ["hello", "ok"]  # type: ignore[index]
    if not any(a["type"] == "bye" for a in got):  # type: ignore[index]
        assert len(got) == len(values) + 2
    for value, answer in zip(values, got[2:], strict=False):
        readable = isinstance(value, dict) and type(value.get("id")) is int and \
            0 <= value["id"] < 2**53
        assert answer["id"] == (value["id"] if readable else None)  # type: ignore[index]


def test_the_adapter_process_survives_garbage() -> None:
    garbage = (b"\x00\xff\xfe garbage \x80\n" + b"[" * 100_000 + b"\n{" + b"9" * 10_000
               + b"\n" + b"\x1b[2J" * 1000 + b"\n" + b'{"id": 1, "type": "legal"}\n'
               + b"\xed\xa0\x80\n" + line({"id": 2, "type": "bye"}))
    done = subprocess.run([sys.executable, "-m", "napkit.protocol.adapter"], input=garbage,
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stderr == b""
    got = [loads(x.decode()) for x in done.stdout.splitlines()]
    assert [a["id"] for a in got] == [None, None, None, None, 1, None, 2]
    for answer in got:
        check_answer(answer)


# --- the harness's side -----------------------------------------------------------------------
NEWLINE = b"\n"


def program(code: str) -> ProcessChannel:
    """A program that reads one request line and writes what ``code`` writes to ``out``."""
    return ProcessChannel([sys.executable, "-c",
                           f"import sys\nsys.stdin.readline()\nout = sys.stdout.buffer\n{code}\n"
                           "out.flush()\nsys.stdin.read()\n"])


def exchange(code: str) -> tuple[list[object], ProtocolError | None]:
    channel = program(code)
    try:
        return channel.exchange([{"id": 0, "type": "legal"}], 30)
    finally:
        channel.kill()


@pytest.mark.parametrize(("written", "words"), [
    (b'{"id": 0, "type": "legal", "turn": 1.0, "actions": []}',
     "is JSON that the protocol does not allow: $.turn: 1.0 is not a whole number"),
    (b'{"id": 0, "type": "legal", "type": "legal", "turn": 1, "actions": []}',
     'is JSON that the protocol does not allow: $: the key "type" is given twice'),
    (b'{"id": 0, "type": "legal", "turn": NaN, "actions": []}',
     "is not JSON: '{\"id\": 0, \"type\": \"legal\", \"turn\": NaN, \"actions\": []}' "
     "($: NaN is not a JSON value)"),
    (b'{"id": 0, "type": "legal", "turn": 1, "actions": [' + b"1" * 5000 + b"]}",
     "($: a number with too many digits to read)"),
    (b'{"id": 0, "type": "\xff"}', "is not UTF-8 text (invalid start byte, byte 19)"),
    (b"{", "is not JSON: '{' (line 1, column 2: a key in double quotes was expected here"),
])
def test_a_response_that_is_not_strict_json_is_a_protocol_error(written: bytes,
                                                                words: str) -> None:
    got, error = exchange(f"out.write({written + NEWLINE!r})")
    assert got == [] and error is not None and error.what == "not-json"
    assert error.message.startswith("answered the legal request (id 0) with a line that ")
    assert words in error.message, error.message


def test_a_response_over_the_limit_is_reported_holding_no_more_than_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process, "MAX_LINE", 10_000)
    channel = program("out.write(b'x' * 1_000_000)")
    try:
        got, error = channel.exchange([{"id": 0, "type": "legal"}], 30)
        assert len(channel._buffer) == 10_001  # one byte past the limit, no more
    finally:
        channel.kill()
    assert got == [] and error is not None and error.what == "not-json"
    assert error.message == ("answered the legal request (id 0) with a line longer than "
                             "10,000 bytes, the protocol's limit (spec/conformance.md 2.1)")


def test_a_response_at_the_limit_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = b'{"id": 0, "type": "error", "message": "' + b"m" * 9_000 + b'"}'
    monkeypatch.setattr(process, "MAX_LINE", len(answer))
    got, error = exchange(f"out.write({answer + NEWLINE!r})")
    # Read whole; its message kept as spec/conformance.md 2.6 says (issue 27).
    assert error is None and got == [{"id": 0, "type": "error", "message": "m" * (
        process.LONGEST_TEXT) + "…(9,000 characters)"}]


def test_a_long_response_is_read_whole() -> None:
    """20 MB in one response line, within the limit, arriving in pieces: read in one scan."""
    got, error = exchange("out.write(b'{\"id\": 0, \"type\": \"error\", \"message\": \"'"
                          " + b'm' * 20_000_000 + b'\"}\\n')")
    assert error is None and len(got) == 1
    assert isinstance(got[0], dict)  # its message kept as spec/conformance.md 2.6 says
    assert got[0]["message"] == "m" * process.LONGEST_TEXT + "…(20,000,000 characters)"


def test_an_error_with_id_null_is_reported_as_such() -> None:
    session = process.Session(lambda: program(
        "out.write(b'{\"id\": null, \"type\": \"error\", \"message\": \"$: not JSON\"}\\n')"), 30)
    session.channel = session.opener()
    try:
        with pytest.raises(ProtocolError) as caught:
            session.call("legal")
    finally:
        session.kill()
    assert caught.value.what == "wrong-id"
    assert caught.value.message == ("answered the legal request (id 0) with id null, an error "
                                    "for a line it could not read: \"$: not JSON\"")


# --- the benchmark runs -----------------------------------------------------------------------
def test_the_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "adapter_long_line.py"
    spec = importlib.util.spec_from_file_location("adapter_long_line", script)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--sizes", "0.001", "17"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split()[:4] == ["input", "bytes", "seconds", "peak"]
    assert [r.split()[:3] for r in rows] == [["line", "0.001", "MB"], ["line", "17", "MB"],
                                             ["session", "(38", "requests)"]]
    assert '"message":"$.pad: unexpected field' in rows[0]
    assert '{"id":null,"type":"error","message":"$: a request line is at most' in rows[1]
