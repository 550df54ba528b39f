"""What a pydantic validation error of a request says to a person (:func:`problem`): one
translatable phrase naming what was wrong and what is allowed, used by
:mod:`ginrummy.web.protocol.bodies` after the field's name ("name: is too long; allowed: at most
200 characters")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import Msg
from ..texts import W_

__all__ = ["DAY_PATTERN", "TIME_PATTERN", "PATTERN_WORDS", "problem"]

DAY_PATTERN = r"^20[0-9]{2}-[01][0-9]-[0-3][0-9]$"
TIME_PATTERN = r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?(Z|[+-]\d\d:\d\d)?$"

PATTERN_WORDS = {
    DAY_PATTERN: W_("is not a date; allowed: YYYY-MM-DD"),
    TIME_PATTERN: W_("is not a time; allowed: an ISO 8601 time such as 2026-12-24T18:00Z"),
    r"\S": W_("is blank; allowed: text with a character that is not a space"),
}
"""What a value that does not match a field's pattern should look like, by the pattern (a
pattern not here: "has characters that are not allowed")."""


def problem(err: Mapping[str, Any]) -> Msg:
    """One pydantic error as a translatable phrase."""
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    if kind == "missing":
        return W_("is missing")
    if kind == "extra_forbidden":
        return W_("is not a field here")
    if kind == "string_too_long":
        return W_("is too long; allowed: at most {limit} characters", limit=ctx.get("max_length", "?"))
    if kind == "too_long":
        return W_("has too many items; allowed: at most {limit}", limit=ctx.get("max_length", "?"))
    if kind == "string_too_short" and ctx.get("min_length") == 1:
        return W_("is empty; allowed: a text of at least one character")
    if kind == "string_too_short":
        return W_("is too short; allowed: at least {limit} characters", limit=ctx.get("min_length", "?"))
    if kind == "too_short":
        return W_("has too few items; allowed: at least {limit}", limit=ctx.get("min_length", "?"))
    if kind in ("less_than_equal", "less_than"):
        return W_("is out of range; allowed: at most {limit}", limit=ctx.get("le", ctx.get("lt", "?")))
    if kind in ("greater_than_equal", "greater_than"):
        return W_("is out of range; allowed: at least {limit}", limit=ctx.get("ge", ctx.get("gt", "?")))
    if kind == "literal_error":
        return W_("is not allowed; allowed: {allowed}", allowed=str(ctx.get("expected", "?"))[:80])
    if kind == "string_pattern_mismatch":
        return PATTERN_WORDS.get(str(ctx.get("pattern", "")), W_("has characters that are not allowed"))
    if kind.startswith("int_") or kind.startswith("float_"):
        return W_("has the wrong type; allowed: a whole number")
    if kind.startswith("string_"):
        return W_("has the wrong type; allowed: text")
    if kind.startswith("bool_"):
        return W_("has the wrong type; allowed: true or false")
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return W_("has the wrong type; allowed: an object")
    if kind == "list_type":
        return W_("has the wrong type; allowed: a list")
    return W_("has the wrong type")
