"""Reading JSON from the network with bounded size and nesting depth (checked *before* the JSON
is decoded), and the limits of every inbound message and body (:mod:`ginrummy.web.protocol.inbound`).
:func:`read_json` raises only :class:`~ginrummy.web.errors.WebError` (``too_large``, ``bad_json``)."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from ..errors import ErrorCode, WebError
from ..texts import W_

__all__ = [
    "read_json",
    "plain_text",
    "MAX_MESSAGE_BYTES",
    "MAX_MESSAGE_DEPTH",
    "MAX_BODY_BYTES",
    "MAX_BODY_DEPTH",
    "MAX_SUGGESTION_CHARS",
    "MAX_INT",
    "MAX_CHAT_CHARS",
]


MAX_MESSAGE_BYTES = 2048
"""The largest inbound WebSocket message accepted, in bytes of UTF-8."""

MAX_MESSAGE_DEPTH = 3
"""The deepest nesting of arrays and objects in a WebSocket message (a message is one flat object)."""

MAX_BODY_BYTES = 8192
"""The largest JSON request body accepted, in bytes; larger bodies are refused while they are read."""

MAX_BODY_DEPTH = 4
"""The deepest nesting of arrays and objects in a JSON request body."""

MAX_SUGGESTION_CHARS = 200
"""The longest suggestion text accepted, in characters."""

MAX_INT = 10**18 - 1
"""The largest integer (in absolute value) any message or body may carry."""

MAX_CHAT_CHARS = 200
"""The longest chat message accepted, in characters (after whitespace runs are folded)."""


# -- reading JSON with bounded size and depth --------------------------------------------------

_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"?', re.S)


def _depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside strings (an over-estimate for broken JSON)."""
    depth = deepest = 0
    for ch in _STRING_RE.sub("", text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_KEPT_FORMAT = {"\u200c", "\u200d"}  # zero-width non-joiner and joiner: scripts and emoji need them


def plain_text(text: str) -> str:
    """``text`` as a name or a chat line is kept: whitespace runs made one space, ends
    trimmed, and control characters, unassigned code points, surrogates, private-use ones and
    format characters (the bidirectional overrides and isolates that turn the text after them
    around, zero-width spaces...) left out, but for the zero-width (non-)joiner.  Shown as text
    everywhere, so markup stays as typed."""
    if text.isascii() and text.isprintable():
        return " ".join(text.split())
    kept = "".join(c for c in text if unicodedata.category(c)[0] != "C" or c in _KEPT_FORMAT or c.isspace())
    return " ".join(kept.split())


class _RepeatedKey(ValueError):
    """A JSON object names one key twice (``{"action": "pass", "action": "take upcard"}``)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _one_of_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _RepeatedKey(k)
            seen.add(k)
    return out


_DECODER = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_one_of_each)
"""One decoder for every message (``json.loads`` with an option makes a new one at each call);
an object that names a key twice is refused (the standard decoder keeps the last value)."""


def read_json(raw: str | bytes, *, limit: int, max_depth: int) -> Any:
    """Decode ``raw`` (text or UTF-8 bytes) as JSON after checking its size (at most ``limit``
    bytes) and its nesting (at most ``max_depth`` levels), so that neither memory nor the
    decoder's recursion depends on what a client sends.  ``NaN`` and ``Infinity`` are refused,
    and so is an object that names a key twice (which value counts would be a guess).

    Raises :class:`WebError` ``too_large`` or ``bad_json``."""
    size = len(raw.encode("utf-8", "replace") if isinstance(raw, str) else raw)
    if size > limit:
        raise WebError(
            ErrorCode.TOO_LARGE,
            W_("message of {size} bytes is too large; the limit is {limit} bytes", size=size, limit=limit),
        )
    try:
        text = raw if isinstance(raw, str) else raw.decode("utf-8")
    except UnicodeDecodeError:
        raise WebError(ErrorCode.BAD_JSON, W_("message is not valid UTF-8 text")) from None
    # no text nests deeper than it has brackets: most messages are settled by a count
    if text.count("{") + text.count("[") > max_depth and _depth(text) > max_depth:
        raise WebError(ErrorCode.BAD_JSON, W_("JSON nested more than {depth} levels deep is refused", depth=max_depth))
    try:
        return _DECODER.decode(text)
    except _RepeatedKey as exc:
        # the words of a query's repeated key (parse_query)
        raise WebError(
            ErrorCode.BAD_JSON, W_("{field}: {problem}", field=exc.key[:40], problem=W_("is given twice"))
        ) from None
    except (ValueError, RecursionError):
        raise WebError(
            ErrorCode.BAD_JSON,
            W_(
                "message is not valid JSON; send one JSON object such as {example}",
                example='{"type": "action", "action": "draw stock"}',
            ),
        ) from None
