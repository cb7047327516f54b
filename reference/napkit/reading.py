"""Reading JSON and TOML text strictly, whoever wrote it: every input napkit takes (records,
rulesets, conformance cases, the protocol's lines) goes through :func:`loads` or
:func:`loads_toml`, which either give a plain value or raise :class:`ReadError`, never
anything else.

What is refused, and why:

- what is not JSON: syntax errors (with the line and column), ``NaN``, ``Infinity`` and
  ``-Infinity`` (Python's reader takes them; no JSON reader must);
- a key twice in one object (JSON leaves the meaning open; Python keeps the last, so an error
  would talk about a value the reader does not see; TOML refuses it too);
- a number with a point or an exponent where ``whole`` numbers are wanted (every number of
  napkit's formats is a whole number: JSON Schema counts ``1.0`` as an integer, Python does
  not), and, whatever is wanted, any whole number outside :data:`WHOLE` (±(2^53 - 1): a
  whole number every JSON reader keeps exactly, as RFC 7493 advises);
- nesting deeper than :data:`MAX_DEPTH` and numbers of more than a few thousand digits, which
  Python's readers would give up on with a traceback.

A UTF-8 byte-order mark at the start of a text is accepted and dropped, as many editors
write one.

>>> from napkit.reading import ReadError, loads
>>> loads('{"dealer": 1, "seats": [0, 1, 2, 3]}')
{'dealer': 1, 'seats': [0, 1, 2, 3]}
>>> for text in ('{"dealer": 1.0}', '{"a": 1, "a": 2}', '[1, NaN]', '{"pool": 1e400}'):
...     try:
...         loads(text)
...     except ReadError as exc:
...         print(exc.where, "|", exc.message)
$.dealer | 1.0 is not a whole number (write it without a point or an exponent)
$ | the key "a" is given twice
$ | NaN is not a JSON value
$.pool | 1e400 is not a whole number (write it without a point or an exponent)
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from napkit.errors import json_path

__all__ = ["MAX_DEPTH", "WHOLE", "LineMemo", "ReadError", "loads", "loads_toml", "not_utf8",
           "split_id"]

#: The largest magnitude of a number in napkit's formats: 2^53 - 1, the largest whole number
#: a double holds exactly, so that a program in any language reads it as written.
WHOLE = 2**53 - 1
#: How deep arrays and objects may nest (napkit's own documents nest less than 10 deep).
MAX_DEPTH = 100
BOM = "\ufeff"


class ReadError(ValueError):
    """Text that is not a value napkit reads: ``where`` (a JSON path, or ``line L, column C``
    for a syntax error) and ``message``, in napkit's words; ``kind``: ``"syntax"`` (the text
    breaks the grammar of JSON or TOML, NaN and infinities included), ``"limit"`` (nesting or
    a number beyond what napkit reads) or ``"value"`` (well-formed, but a value napkit's
    formats refuse: a key given twice, a fraction, a number out of range, a date)."""

    def __init__(self, where: str, message: str, kind: str = "value") -> None:
        super().__init__(where, message)
        self.where = where
        self.message = message
        self.kind = kind

    def what(self, language: str = "JSON") -> str:
        """The message as every reader of napkit's shows it: ``not JSON: ...`` (or TOML) where
        the text is not one napkit can read at all, the message alone for a refused value."""
        return self.message if self.kind == "value" else f"not {language}: {self.message}"

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class _Findings:
    """What the parse hooks saw that needs a second look (rare: then the value is walked to
    say where)."""

    __slots__ = ("duplicate", "fraction")

    def __init__(self) -> None:
        self.duplicate = False
        self.fraction = False


class _Twice(dict[str, Any]):
    """An object in which a key was given twice (the key is kept to name it)."""

    twice: str = ""


class _Fraction(float):
    """A number written with a point or an exponent (its text is kept to quote it)."""

    text: str = ""


def _not_json(constant: str) -> object:
    raise ReadError("$", f"{constant} is not a JSON value", "syntax")


class _RefusedError(Exception):
    """Raised by the fast reader's hooks: something to find with the reader that says where."""


def _once(items: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(items)
    if len(obj) != len(items):
        raise _RefusedError
    return obj


def _no_fraction(literal: str) -> float:
    raise _RefusedError


# Made once (json.loads with arguments builds a decoder at every call): the reader of most
# texts, which finds no fault; on the first it meets, the text is read again by _locate.
_WHOLE_DECODER = json.JSONDecoder(object_pairs_hook=_once, parse_float=_no_fraction,
                                  parse_constant=_not_json)
_ANY_DECODER = json.JSONDecoder(object_pairs_hook=_once, parse_constant=_not_json)
_DIGITS = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))  # each digit "0", else " "
_SIXTEEN = b"0" * 16  # 2^53 - 1 has 16 digits: a number of 16 or more may be beyond it


# Python's words for what breaks JSON's grammar, in napkit's (its own where it has none here).
_SAID = {
    "Expecting value": "a value was expected here",
    "Expecting ':' delimiter": "a colon (:) was expected here, after the key",
    "Expecting ',' delimiter": "a comma (,) or the end of the array or object was expected here",
    "Expecting property name enclosed in double quotes":
        "a key in double quotes was expected here (JSON has no comma before a closing brace)",
    "Unterminated string starting at": "a string starts here and is never closed",
    "Invalid control character at":
        "a control character (a tab, a line break) inside a string: write it as an escape",
    "Invalid \\escape": "an escape (\\) that JSON does not have",
    "Extra data": "more text after the value (a JSON document holds one value)",
}


def loads(text: str, *, whole: bool = True) -> Any:
    """The JSON value of ``text``, read strictly (see the module); ``whole``: every number must
    be a whole number (else a fraction is read too, if finite). A whole number beyond
    :data:`WHOLE` is refused either way. Raises :class:`ReadError`."""
    if text.startswith(BOM):
        text = text[1:]
    try:
        try:
            value = (_WHOLE_DECODER if whole else _ANY_DECODER).decode(text)
        except _RefusedError:
            # Read again to say where; a syntax error after what was refused (``{"a":1.0,}``)
            # is met there, and is reported as any syntax error is.
            return _locate(text, whole)
    except json.JSONDecodeError as exc:
        if not text.strip():
            raise ReadError("$", "the text is empty (no JSON value)", "syntax") from None
        ends = exc.pos >= len(text.rstrip())
        hint = " (the text ends too soon: is it truncated?)" if ends else ""
        raise ReadError(f"line {exc.lineno}, column {exc.colno}",
                        f"{_SAID.get(exc.msg, exc.msg)}{hint}",
                        "syntax") from None
    except RecursionError:
        raise ReadError("$", f"arrays or objects nested too deeply (over {MAX_DEPTH} levels)",
                        "limit") from None
    except ReadError:
        raise
    except ValueError:
        # Python's limit on the digits of a whole number (sys.set_int_max_str_digits).
        raise ReadError("$", "a number with too many digits to read", "limit") from None
    # The walk that checks depth and size is needed only where the text has room for too deep
    # a nesting or too long a number: most texts are read without it.
    if text.count("{") + text.count("[") > MAX_DEPTH or _long_number(text):
        _check(value, [], 0, _Findings(), whole)
    if not whole:
        _check_finite(value)
    return value


def _long_number(text: str) -> bool:
    """Whether ``text`` has 16 digits in a row (room for a number beyond :data:`WHOLE`): read a
    megabyte at a time, each piece overlapping the last, so that a long text is not copied
    whole twice."""
    step = 1 << 20
    for start in range(0, len(text), step):
        piece = text[max(0, start - 15):start + step]
        if _SIXTEEN in piece.encode("utf-8", "surrogatepass").translate(_DIGITS):
            return True
    return False


def _check_finite(value: Any) -> None:
    """A float too large for a double is read as infinity: refused (with ``whole`` False)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ReadError("$", "a number too large to read")
    if isinstance(value, dict):
        for item in value.values():
            _check_finite(item)
    elif isinstance(value, list):
        for item in value:
            _check_finite(item)


def _locate(text: str, whole: bool) -> Any:
    """Read ``text`` again, keeping what the fast reader refused, to say where it is."""
    found = _Findings()

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        if len(obj) == len(items):
            return obj
        found.duplicate = True
        twice = _Twice(obj)
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                twice.twice = key
                break
            seen.add(key)
        return twice

    def number(literal: str) -> float:
        found.fraction = True
        value = _Fraction(literal)
        value.text = literal
        return value

    value = json.loads(text, object_pairs_hook=pairs, parse_float=number,
                       parse_constant=_not_json)
    _check(value, [], 0, found, whole)
    return value


def _check(value: Any, path: list[str | int], depth: int, found: _Findings,
           whole: bool) -> None:
    """Walk ``value`` for what :func:`loads` refuses after parsing: nesting, a key given twice
    (where the hook saw one), and every number and value of a kind JSON does not have."""
    if depth >= MAX_DEPTH:
        raise ReadError(json_path(path[:5]) + "...",
                        f"arrays or objects nested too deeply (over {MAX_DEPTH} levels)",
                        "limit")
    if isinstance(value, dict):
        if found.duplicate and isinstance(value, _Twice):
            raise ReadError(json_path(path), f"the key {json.dumps(value.twice)} is given twice")
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        _plain(value, path, whole)
        return
    for key, item in items:
        kind = type(item)
        if kind is dict or kind is list or kind is _Twice:
            _check(item, [*path, key], depth + 1, found, whole)
        elif kind is int:
            if not -WHOLE <= item <= WHOLE:
                _plain(item, [*path, key], whole)
        elif kind is not str and kind is not bool and item is not None:
            _plain(item, [*path, key], whole)


def _plain(value: Any, path: list[str | int], whole: bool) -> None:
    """A value that is no array or object: refused if it is no JSON value napkit reads."""
    if isinstance(value, _Fraction):
        if whole:
            raise ReadError(json_path(path), f"{value.text} is not a whole number (write it "
                                             "without a point or an exponent)")
        if not math.isfinite(value):
            raise ReadError(json_path(path), f"{value.text} is too large a number")
    elif type(value) is float and not whole:  # read by the fast reader: checked for size there
        if not math.isfinite(value):
            raise ReadError(json_path(path), f"{value} is too large a number")
    elif type(value) is int:
        if not -WHOLE <= value <= WHOLE:
            raise ReadError(json_path(path), f"{value} is beyond the largest whole number "
                                             f"napkit reads (2^53 - 1 either way)")
    elif not (value is None or type(value) is str or type(value) is bool):
        # TOML dates and times have no JSON form, and no schema of napkit's accepts one.
        raise ReadError(json_path(path), f"a {type(value).__name__} is not allowed here")


def loads_toml(text: str, *, whole: bool = True) -> dict[str, Any]:
    """The table of a TOML text (a ruleset file), read strictly: TOML's own rules (a key once,
    no NaN where :func:`loads` refuses it), nesting within :data:`MAX_DEPTH`, and the same
    numbers as JSON (``whole`` as :func:`loads` takes it). Raises :class:`ReadError`."""
    import tomllib  # here, not above: most commands read no TOML (napkit --help is quicker)

    if text.startswith(BOM):
        text = text[1:]
    try:
        table = tomllib.loads(text, parse_float=_toml_number)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_POSITION.search(message)
        if found is None:
            raise ReadError("$", message, "syntax") from None
        what = message[: found.start()].strip()
        raise ReadError(f"line {found[1]}, column {found[2]}", _TOML_SAID.get(what, what),
                        "syntax") from None
    except RecursionError:
        raise ReadError("$", f"tables or arrays nested too deeply (over {MAX_DEPTH} levels)",
                        "limit") from None
    except ValueError as exc:
        if isinstance(exc, ReadError):
            raise
        raise ReadError("$", "a number with too many digits to read", "limit") from None
    _check(table, [], 0, _Findings(), whole)
    return table


_TOML_SAID = {"Cannot overwrite a value": "a key is given twice (TOML allows it once)"}
_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


def _toml_number(literal: str) -> float:
    if literal.lstrip("+-") in ("nan", "inf"):
        raise ReadError("$", f"{literal} is not a number napkit reads (no NaN or infinities)",
                        "syntax")
    value = _Fraction(literal)
    value.text = literal
    return value


def not_utf8(exc: UnicodeDecodeError, line: int | None = None) -> str:
    """What to say of bytes that are not UTF-8 text: where (``line``, for a file read a line
    at a time, else the byte), and, for a file saved as UTF-16, so (an editor's choice easily
    undone, which Python's own message does not suggest).

    >>> from napkit.reading import not_utf8
    >>> not_utf8(UnicodeDecodeError("utf-8", b"\\xff\\xfe{", 0, 1, "invalid start byte"))
    'not UTF-8 text: it is UTF-16 (it starts with its byte-order mark); save it as UTF-8'
    """
    data = exc.object
    if exc.start == 0 and bytes(data[:2]) in (b"\xff\xfe", b"\xfe\xff"):
        return "not UTF-8 text: it is UTF-16 (it starts with its byte-order mark); save it as UTF-8"
    where = f"line {line}" if line is not None else f"byte {exc.start}"
    return f"not UTF-8 text ({exc.reason}, {where})"


def split_id(raw: bytes) -> tuple[int, bytes] | None:
    """For a line that starts ``{"id":N,`` (N: digits, no sign, no leading zero, at most
    :data:`WHOLE`), N and what follows the comma; else None. Such a line reads the same
    whatever N is, but for the id: what :class:`LineMemo` and napkit's adapter remember lines
    by. Found by hand: a regular expression takes longer than the rest of a remembered line.

    >>> from napkit.reading import split_id
    >>> split_id(b'{"id":12,"type":"legal"}'), split_id(b'{"id":012,"type":"legal"}')
    ((12, b'"type":"legal"}'), None)
    """
    comma = raw.find(b",", 6, 24) if raw.startswith(b'{"id":') else -1
    digits = raw[6:comma]
    if comma <= 6 or not digits.isdigit() or (comma > 7 and digits[0] == 48):  # 48: "0"
        return None
    ident = int(digits)
    return (ident, raw[comma + 1:]) if ident <= WHOLE else None


class LineMemo:
    """Strict reads (:func:`loads`) of JSON lines that differ only by the id they start with,
    remembered by the rest of the line: a conversation of the adapter protocol repeats the
    same few hundred requests and answers (``{"id":7,"type":"accepted"}``), and reading each
    again costs more than the work it asks for.

    A line read once, with ``{"id":N,`` first (see :func:`split_id`), is known to read
    without fault with any other id of that form; the value read is the one remembered with
    the new id first. Any other line (no id first, an id out of that form) is read as
    :func:`loads` reads it. The values share what they hold with the memo: they are read,
    never changed. At most ``size`` lines are remembered (then it starts afresh).

    >>> from napkit.reading import LineMemo
    >>> memo = LineMemo()
    >>> memo.read(b'{"id":1,"type":"accepted"}'), memo.read(b'{"id":2,"type":"accepted"}')
    ({'id': 1, 'type': 'accepted'}, {'id': 2, 'type': 'accepted'})
    >>> memo.hits
    1
    """

    __slots__ = ("hits", "known", "size")

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.known: dict[bytes, dict[str, Any]] = {}
        self.hits = 0

    def read(self, raw: bytes) -> Any:
        """The value of one line (UTF-8, without its newline); ReadError or
        UnicodeDecodeError as :func:`loads` and ``bytes.decode`` raise them."""
        split = split_id(raw)
        if split is None:
            return loads(raw.decode())
        ident, body = split
        rest = self.known.get(body)
        if rest is not None:
            self.hits += 1
            return {"id": ident, **rest}
        value = loads(raw.decode())
        if len(self.known) >= self.size:
            self.known.clear()
        # The line read whole, so its rest holds no second "id" (a key twice is refused).
        self.known[body] = {k: v for k, v in value.items() if k != "id"}
        return value

