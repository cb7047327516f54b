"""A badge of a program's result on one ruleset, as an SVG file to put in a README:
``napkit | classic 328/328``, green when every case that ran passed, else coloured by the
share that passed.

The badge is drawn in the usual flat style (two boxes, the label on grey, the message on the
colour), in 11-pixel Verdana (or the system's sans-serif): each box's width is computed from
its text with Verdana's advance widths, and the text is held to that width (``textLength``),
so that it fits whatever font the viewer has. It loads nothing.

>>> svg = badge_svg("napkit", "classic 328/328", badge_colour(328, 328))
>>> svg.startswith("<svg") and 'fill="#2e9e44"' in svg
True
"""

from __future__ import annotations

from html import escape

FONT_SIZE = 11  # pixels: the size README badges are drawn at, readable at 20 px high
HEIGHT = 20
PADDING = 6  # pixels each side of a text
# Verdana's advance widths at 11 px, by character (the rest: AVERAGE).
_WIDTHS = {**dict.fromkeys("iljI!.,:;'|", 3.1), **dict.fromkeys("frt()[]/ -", 4.6),
           **dict.fromkeys("0123456789", 7.0), **dict.fromkeys("mwMW", 10.0),
           **dict.fromkeys("ABCDEFGHKNOPQRSTUVXYZ", 7.6)}
_AVERAGE = 6.6
GREEN, YELLOWGREEN, YELLOW, ORANGE, RED, GREY = ("#2e9e44", "#8a9a1b", "#c99400", "#e0672c",
                                                 "#d0392b", "#6b7580")


def text_width(text: str) -> float:
    """The width of ``text`` in 11-pixel Verdana, in pixels (an estimate from its characters'
    advance widths)."""
    return sum(_WIDTHS.get(c, _AVERAGE) for c in text)


def badge_colour(passed: int, ran: int) -> str:
    """Green when every case that ran passed; else by the share that passed (90 %, 75 %, 50 %
    and below); grey when none ran."""
    if ran <= 0:
        return GREY
    if passed >= ran:
        return GREEN
    share = passed / ran
    if share >= 0.9:
        return YELLOWGREEN
    if share >= 0.75:
        return YELLOW
    if share >= 0.5:
        return ORANGE
    return RED


def badge_svg(label: str, message: str, colour: str) -> str:
    """The badge: ``label`` on grey, ``message`` on ``colour``."""
    left = round(text_width(label) + 2 * PADDING)
    right = round(text_width(message) + 2 * PADDING)
    width = left + right
    title = escape(f"{label}: {message}")

    def text(x: float, words: str, length: int) -> str:
        return (f'<text x="{x:.1f}" y="15" fill="#010101" fill-opacity=".3" '
                f'textLength="{length}" lengthAdjust="spacingAndGlyphs">{escape(words)}</text>'
                f'<text x="{x:.1f}" y="14" textLength="{length}" '
                f'lengthAdjust="spacingAndGlyphs">{escape(words)}</text>')

    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{HEIGHT}" '
            f'viewBox="0 0 {width} {HEIGHT}" role="img" aria-label="{title}">'
            f"<title>{title}</title>"
            '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" '
            'stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>'
            f'<clipPath id="r"><rect width="{width}" height="{HEIGHT}" rx="3" fill="#fff"/>'
            '</clipPath><g clip-path="url(#r)">'
            f'<rect width="{left}" height="{HEIGHT}" fill="#555"/>'
            f'<rect x="{left}" width="{right}" height="{HEIGHT}" fill="{colour}"/>'
            f'<rect width="{width}" height="{HEIGHT}" fill="url(#s)"/></g>'
            f'<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,'
            f'sans-serif" font-size="{FONT_SIZE}">'
            f"{text(left / 2, label, left - 2 * PADDING)}"
            f"{text(left + right / 2, message, right - 2 * PADDING)}</g></svg>\n")


__all__ = ["FONT_SIZE", "HEIGHT", "badge_colour", "badge_svg", "text_width"]
