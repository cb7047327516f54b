"""JSON text as napkit writes it on the wire: compact (no spaces), UTF-8 characters as they
are, in one call of a C encoder made once.

``json.JSONEncoder.encode`` builds a new C encoder for every value it writes, which is half
the cost of writing an action's text or a short answer; the adapter writes one for every
request, and the fuzzer's expectations and request lines are written the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable

#: The encoder whose text :func:`dumps` writes (``separators=(",", ":")``,
#: ``ensure_ascii=False``), for anything that needs the encoder itself.
ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def _made_once() -> Callable[[object], str]:
    """``ENCODER.encode``, made once: the C encoder ``encode`` builds for ``ENCODER``, but
    without its check for cycles (what napkit writes is built of JSON read and of the
    engine's values, and holds none); where this Python has no C encoder, or the one made
    here writes a sample otherwise, ``ENCODER.encode`` itself."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C encoder (another Python)
        return ENCODER.encode
    try:
        encoder = make(None, ENCODER.default, json.encoder.encode_basestring, None, ":", ",",
                       False, False, True)

        def made(value: object) -> str:
            return "".join(encoder(value, 0))

        sample = {"a": [1, -2, "\u00e9\"\n\ud800", None, True, False, {}, []], "b": {"c": ""},
                  "d": 1.5}
        if all(made(v) == ENCODER.encode(v) for v in (sample, "x\u00e9", 7)):
            return made
    except Exception:  # a C encoder called otherwise
        pass
    return ENCODER.encode


#: ``ENCODER.encode(value)``: the compact JSON text of ``value``, characters as they are.
dumps = _made_once()

__all__ = ["ENCODER", "dumps"]
