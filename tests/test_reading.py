"""napkit.reading: every input's text is read strictly, and whatever the text, the reader gives
a value or a ReadError naming where and what, never another exception."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from napkit.reading import MAX_DEPTH, WHOLE, ReadError, loads, loads_toml

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-WHOLE, max_value=WHOLE) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30)


@given(JSON_VALUES)
def test_what_json_dumps_writes_is_read_back(value: Any) -> None:
    assert loads(json.dumps(value)) == value
    assert loads(json.dumps(value, indent=2, ensure_ascii=False)) == value


@settings(max_examples=500)
@given(st.text())
def test_any_text_gives_a_value_or_a_read_error(text: str) -> None:
    try:
        loads(text)
    except ReadError as exc:
        assert exc.where and exc.message
    try:
        loads_toml(text)
    except ReadError as exc:
        assert exc.where and exc.message


@settings(max_examples=300)
@given(st.binary())
def test_any_bytes_decoded_as_text_give_a_value_or_a_read_error(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    for whole in (True, False):
        with contextlib.suppress(ReadError):
            loads(text, whole=whole)


@pytest.mark.parametrize(("text", "where", "message"), [
    ('{"dealer": 1.0}', "$.dealer", "1.0 is not a whole number"),
    ('{"stakes": 1e308}', "$.stakes", "1e308 is not a whole number"),
    ('{"a": {"b": [0, {"c": 1, "c": 2}]}}', "$.a.b[1]", 'the key "c" is given twice'),
    ('{"pool": NaN}', "$", "NaN is not a JSON value"),
    ("[Infinity]", "$", "Infinity is not a JSON value"),
    ("[-Infinity]", "$", "-Infinity is not a JSON value"),
    ('{"n": 9007199254740992}', "$.n", "beyond the largest whole number"),
    ('{"n": -9007199254740992}', "$.n", "beyond the largest whole number"),
    ("[" + "7" * 100_000 + "]", "$", "a number with too many digits"),
    ("[" * 101 + "]" * 101, "$[0][0][0][0][0]...", f"nested too deeply (over {MAX_DEPTH} levels)"),
    ("[" * 5000 + "]" * 5000, "$", f"nested too deeply (over {MAX_DEPTH} levels)"),
    ('{"a": 1', "line 1, column 8", "a comma (,) or the end of the array or object was expected "
     "here (the text ends too soon"),
    ('{"a": 1} x', "line 1, column 10", "more text after the value"),
    ("  \n", "$", "the text is empty (no JSON value)"),
    # A fraction, then a syntax error: the second reading, which says where the fraction is,
    # meets the syntax error first (it once escaped as Python's JSONDecodeError).
    ('{"id": 1.0,}', "line 1, column 12", "a key in double quotes was expected here"),
    ("[1.5, ]", "line 1, column 7", "a value was expected here"),
])
def test_each_refusal_says_where_and_what(text: str, where: str, message: str) -> None:
    with pytest.raises(ReadError) as caught:
        loads(text)
    assert caught.value.where == where
    assert message in caught.value.message


def test_the_largest_whole_numbers_and_a_byte_order_mark_are_read() -> None:
    assert loads(f"[{WHOLE}, {-WHOLE}]") == [WHOLE, -WHOLE]
    assert loads('\ufeff{"a": [1]}') == {"a": [1]}
    assert loads("[1.5, 2e3]", whole=False) == [1.5, 2000.0]
    with pytest.raises(ReadError, match="too large"):
        loads("[1e400]", whole=False)


@pytest.mark.parametrize(("text", "message"), [
    ("a = 1\na = 2\n", "a key is given twice"),
    ("a = nan\n", "nan is not a number napkit reads"),
    ("a = 1.5\n", "1.5 is not a whole number"),
    ("a = 99999999999999999999\n", "beyond the largest whole number"),
    ("a = 1979-05-27\n", "a date is not allowed here"),
    ("a = " + "[" * 900 + "]" * 900 + "\n", "nested too deeply"),
])
def test_toml_refusals(text: str, message: str) -> None:
    with pytest.raises(ReadError, match=message):
        loads_toml(text)


def test_not_utf8_says_where_and_names_utf16() -> None:
    from napkit.reading import not_utf8

    try:
        '{"a": 1}'.encode("utf-16").decode("utf-8")
    except UnicodeDecodeError as exc:
        assert "it is UTF-16" in not_utf8(exc)
    try:
        b'{"id": "caf\xe9"}'.decode("utf-8")
    except UnicodeDecodeError as exc:
        assert not_utf8(exc) == "not UTF-8 text (invalid continuation byte, byte 11)"
        assert not_utf8(exc, 3) == "not UTF-8 text (invalid continuation byte, line 3)"


def test_a_long_number_across_the_scans_pieces_is_found() -> None:
    """The scan for 16 digits in a row reads a megabyte at a time: a number across two pieces
    is still found (and refused, being beyond 2^53 - 1)."""
    for before in (2**20 - 8, 2**20 - 15, 2**20 - 1, 2**20, 3 * 2**20 - 3):
        text = "[" + " " * before + "9" * 20 + "]"
        with pytest.raises(ReadError, match="beyond the largest whole number"):
            loads(text)
