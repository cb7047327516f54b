"""Tables for people, in the terminal: columns laid out from their cells, numbers to the right.

:func:`table` is the one way napkit draws one (the summary of ``napkit conform``, its
timings and ``--list``, the coverage matrix, ``napkit rules``, the verdicts of a dispute).
Widths are measured as a terminal prints the text (:func:`width`): a wide character (a CJK
ideograph, an emoji) takes two columns, a combining accent none. Every text cell is passed
through :func:`printable` first, since cells come from outside (case files, house rulesets,
a program's name): a control character (an escape sequence that would move the cursor or
recolour the terminal, a line break, a right-to-left override) is shown as its escape
(``\\x1b``, ``\\n``, ``\\u202e``), never sent to the terminal. Lines that are not a table's
go through :func:`printable_lines` as they are printed, and a long string from outside is
kept as its beginning and its length (:func:`shorten`).

>>> print("\\n".join(table(["ruleset", "cases", "share"], [["pagat", 328, "10%"],
...                                                       ["napoleon ♠", 1204, "38%"]],
...                    align="<>>", rule=True)))
ruleset     cases  share
----------  -----  -----
pagat         328    10%
napoleon ♠   1204    38%
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Iterable, Sequence

Cell = str | int | float | None

#: The columns an East Asian "ambiguous" character takes (the card suits ♠♥♦♣, say): one, as
#: terminals print them outside CJK locales.
AMBIGUOUS = 1
_EMOJI_PRESENTATION = "\ufe0f"  # after a character, asks for its (wide) emoji form: ♠️
_JOINERS = frozenset("\u200c\u200d")  # zero width; kept, for the emoji written with them
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def counted(count: int, word: str) -> str:
    """A count and its noun, as people write it: ``1 episode``, ``2 episodes``, ``0 hands``.

    >>> counted(1, "position"), counted(3, "case")
    ('1 position', '3 cases')
    """
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: each control character (C0 and C1, DEL), format
    character (a right-to-left override, a soft hyphen; not the joiners emoji use), lone
    surrogate and line or paragraph separator written as its escape.

    >>> printable("ok\\x1b[2Jgone\\n")
    'ok\\\\x1b[2Jgone\\\\n'
    """
    if text.isprintable():  # the common case, at C speed (a space is printable; \\t is not)
        return text
    out = []
    for char in text:
        if unicodedata.category(char) in _UNPRINTABLE and char not in _JOINERS:
            code = ord(char)
            out.append(_ESCAPES.get(char) or (f"\\x{code:02x}" if code < 0x100 else
                                              f"\\u{code:04x}" if code < 0x10000 else
                                              f"\\U{code:08x}"))
        else:
            out.append(char)
    return "".join(out)


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal: two for a wide or full-width character (and
    for one followed by U+FE0F, its emoji form), none for a combining mark or a joiner,
    :data:`AMBIGUOUS` for an ambiguous one, else one. ``text`` is printable (:func:`printable`).

    >>> width("10♥"), width("王"), width("é"), width("e\\u0301")
    (3, 2, 1, 1)
    """
    if text.isascii():
        return len(text)
    total = 0
    last = 0  # the columns of the last character counted
    for char in text:
        if char == _EMOJI_PRESENTATION:
            if last == 1:  # a narrow character in its wide form
                total += 1
                last = 2
        elif char not in _JOINERS and unicodedata.category(char) not in ("Mn", "Me"):
            east = unicodedata.east_asian_width(char)
            last = 2 if east in ("W", "F") else AMBIGUOUS if east == "A" else 1
            total += last
    return total


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` columns at most, ending with "…" where it was cut."""
    if width(text) <= limit:
        return text
    kept = ""
    for char in text:
        if width(kept + char) > limit - 1:
            break
        kept += char
    return kept + "…"


_SHORTENED = re.compile(r"…\(([0-9]{1,3}(?:,[0-9]{3})*) characters\)\Z")


def shorten(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters, else its first ``limit`` and its
    length, so that a reader knows how much was left out: what napkit keeps and shows of a
    string from outside (a program's name or reasons, spec/conformance.md 2.6). A text
    shortened already keeps the length it said.

    >>> shorten("x" * 1_048_576, 3)
    'xxx…(1,048,576 characters)'
    >>> shorten(shorten("x" * 1_048_576, 3), 2)
    'xx…(1,048,576 characters)'
    """
    if len(text) <= limit:
        return text
    said = _SHORTENED.search(text, max(0, len(text) - 40))
    if said is None:
        return f"{text[:limit]}…({len(text):,} characters)"
    kept = text[:said.start()]
    return text if len(kept) <= limit else f"{kept[:limit]}…({said.group(1)} characters)"


#: The longest run of characters without a space a line printed keeps whole: a longer one
#: (a ruleset id, an option or a file name of a megabyte, typed or sent) is shortened with its
#: length said (:func:`shorten`), the rest of the line kept.
LONGEST_WORD = 200
# A long run, with the "…(N characters)" a shortening left after it (which holds a space):
# shortened again, it keeps the length first said.
_LONG_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}?(?:…\([\d,]+ characters\)|(?=\s|$))")


def short_words(text: str) -> str:
    """``text`` with each run of more than :data:`LONGEST_WORD` characters without a space
    shortened (:func:`shorten`).

    >>> short_words("no ruleset '" + "x" * 9000 + "' (known: classic)")[-38:]
    'xx…(9,002 characters) (known: classic)'
    """
    return _LONG_WORD.sub(lambda m: shorten(m.group(), LONGEST_WORD), text)


def printable_message(text: str) -> str:
    """A message safe to print as one line: :func:`short_words`, then :func:`printable`."""
    return printable(short_words(text))


def printable_lines(lines: Iterable[str]) -> list[str]:
    """Lines safe to print, each one line: every control character in them escaped
    (:func:`printable`), so that text from outside can neither drive the terminal nor, with a
    line break or a carriage return, forge a line of its own (an ``ok:`` verdict), and every
    run of characters without a space longer than :data:`LONGEST_WORD` shortened. The last
    step of every renderer of lines that may hold such text."""
    return [printable_message(line) for line in lines]


def _text(cell: Cell) -> str:
    if cell is None:
        return ""
    return printable(cell) if isinstance(cell, str) else str(cell)


def _is_number(cell: Cell) -> bool:
    return isinstance(cell, int | float) and not isinstance(cell, bool)


def table(headings: Sequence[str] | None, rows: Iterable[Sequence[Cell]],
          align: str | None = None, *, gap: int | Sequence[int] = 2,
          widths: Sequence[int] = (), rule: bool = False, limit: int | None = None,
          wrap: int | None = None) -> list[str]:
    """The lines of a table: ``headings`` (None: none) over ``rows``, each column as wide as
    its widest cell (:func:`width`), lines without trailing spaces.

    - a cell is a text (made :func:`printable`), a number (written as ``str`` writes it;
      format it first for another form, ``f"{n:,}"``) or None (empty);
    - ``align``: a character a column, ``<`` (left) or ``>`` (right); a column it does not
      cover is right-aligned if every cell of it below the headings is a number, else left;
    - ``gap``: the spaces between columns, one number for all or one a gap (the last
      repeated); ``widths``: the least width of each column it covers;
    - ``rule``: a line of dashes under the headings; ``limit``: cells wider than this are cut,
      ending in "…" (:func:`cut`);
    - ``wrap``: the last column wrapped at spaces so that lines fit in ``wrap`` columns (the
      column never narrower than 20), its further lines under its first.

    >>> table(None, [["a", 1], ["bb", 22]])
    ['a    1', 'bb  22']
    """
    raw = [list(row) for row in rows]
    count = max([len(headings or ()), *(len(row) for row in raw)], default=0)
    if count == 0:
        return []
    body = [[_text(c) for c in row] + [""] * (count - len(row)) for row in raw]
    head = None if headings is None else [_text(h) for h in headings] + [""] * (
        count - len(headings))
    if limit is not None:
        body = [[cut(c, limit) for c in row] for row in body]
        head = None if head is None else [cut(c, limit) for c in head]
    kinds = align or ""
    right = [kinds[c] == ">" if c < len(kinds) else bool(raw) and all(
        _is_number(row[c]) for row in raw if c < len(row) and row[c] is not None)
        for c in range(count)]
    gaps = [gap] * count if isinstance(gap, int) else [*gap, *[gap[-1]] * count][:count]
    every = ([head] if head is not None else []) + body
    sizes = [max([widths[c] if c < len(widths) else 0, *(width(r[c]) for r in every)])
             for c in range(count)]
    start = sum(sizes[c] + gaps[c] for c in range(count - 1))
    if wrap is not None:
        room = max(20, wrap - start)
        sizes[-1] = min(sizes[-1], room)

    def line(cells: Sequence[str]) -> list[str]:
        last = [cells[-1]]
        if wrap is not None:
            last = textwrap.wrap(cells[-1], sizes[-1], break_on_hyphens=False) or [""]
        out = ""
        for c, cell in enumerate([*cells[:-1], last[0]]):
            pad = " " * (sizes[c] - width(cell))
            out += (pad + cell if right[c] else cell + pad) + " " * gaps[c]
        return [out.rstrip(), *(" " * start + more for more in last[1:])]

    lines: list[str] = []
    if head is not None:
        lines += line(head)
        if rule:
            lines.append("".join("-" * sizes[c] + " " * gaps[c] for c in range(count)).rstrip())
    for row in body:
        lines += line(row)
    return lines
