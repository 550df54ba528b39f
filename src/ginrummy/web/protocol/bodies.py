"""The JSON bodies of the HTTP API and the review's query (:func:`parse_body`,
:func:`parse_query`): pydantic models with every field bounded; errors are
:class:`~ginrummy.web.errors.WebError` ``bad_message`` naming the field and what is allowed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, ValidationError

from ...errors import Msg
from ..errors import ErrorCode, WebError
from ..texts import W_
from .problems import DAY_PATTERN as _DAY_PATTERN
from .problems import TIME_PATTERN as _TIME_PATTERN
from .problems import problem as _problem
from .reading import MAX_BODY_BYTES, MAX_BODY_DEPTH, MAX_INT, read_json

__all__ = [
    "NAME_MIN",
    "NAME_MAX",
    "NAME_SENT_MAX",
    "NAME_RULE",
    "NAME_FIELD_RULES",
    "CreateTableBody",
    "EmptyBody",
    "SeatBody",
    "SheetBody",
    "ClaimBody",
    "CreateTournamentBody",
    "SitBody",
    "ClockBody",
    "RATED_CLOCK",
    "AccountBody",
    "DeleteAccountBody",
    "RelationBody",
    "ReportBody",
    "ModActionBody",
    "DailyBody",
    "DailyPath",
    "parse_daily_path",
    "DuelBody",
    "ReviewQuery",
    "PuzzleQuery",
    "PuzzleAnswerBody",
    "parse_body",
    "parse_query",
    "MIN_REVIEW_BUDGET_MS",
    "MAX_REVIEW_BUDGET_MS",
]

_Q = TypeVar("_Q", bound=BaseModel)


# -- the JSON bodies ------------------------------------------------------------------------

# a finite float is let through so that the rule set itself says which value it wants
# ("rule target=1.5 is not a whole number; allowed: 1..1000", R14)
RuleValue = (
    Annotated[StrictStr, Field(max_length=40)]
    | Annotated[StrictInt, Field(ge=-MAX_INT, le=MAX_INT)]
    | bool
    | Annotated[StrictFloat, Field(allow_inf_nan=False)]
    | None
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    #: Fields whose rule is stricter than their bound here, with that rule's error code and words:
    #: a value over the bound gets the rule's (an account's name: ``bad_name``, "2 to 20
    #: characters"), not the bound's ("at most 100"), so one field never states two limits.
    FIELD_RULES: ClassVar[dict[str, tuple[ErrorCode, Msg]]] = {}


#: An account's name: its length once its whitespace is collapsed (checked by
#: :func:`ginrummy.web.community.accounts.check_name`); the body bounds the text as sent at
#: :data:`NAME_SENT_MAX`, since runs of spaces count once.
NAME_MIN, NAME_MAX = 2, 20
NAME_SENT_MAX = 100
NAME_RULE = W_("a name is text of {lo} to {hi} characters", lo=NAME_MIN, hi=NAME_MAX)
#: The :attr:`_Body.FIELD_RULES` of a body with an account's ``name`` (sign-up, sign-in, a bot's making).
NAME_FIELD_RULES: dict[str, tuple[ErrorCode, Msg]] = {"name": (ErrorCode.BAD_NAME, NAME_RULE)}


class EmptyBody(_Body):
    """The body of a request that takes none (join, withdraw, a seat link, an answer to a
    challenge): nothing, or ``{}``; any field is refused by name."""


class SeatBody(_Body):
    """A seat asked for at table creation: ``kind`` ``human`` or ``bot``, ``name`` (cut to the
    table's name limit), ``level`` for a bot."""

    kind: Annotated[StrictStr, Field(max_length=20)] = ""
    name: Annotated[StrictStr, Field(max_length=200)] | None = ""
    level: Annotated[StrictStr, Field(max_length=40)] | None = ""


class ClockBody(_Body):
    """A table's clock (``ginrummy.web.room.clock``): ``move`` seconds for each move (5 to 600) and a
    time ``bank`` in seconds for the match (0 to 3600); or ``days`` a move (1, 2 or 3) alone: a
    turn-based table (``docs/protocol.md``, "Turn-based tables").  One of ``move`` and ``days``
    is given (checked where the table is made, which says so)."""

    move: Annotated[StrictInt, Field(ge=5, le=600)] | None = None
    bank: Annotated[StrictInt, Field(ge=0, le=3600)] = 0
    days: Annotated[StrictInt, Field(ge=1, le=3)] | None = None


RATED_CLOCK = {"move": 20, "bank": 600}
"""The clock of a rated table opened without one: 20 seconds a move and a bank of 10 minutes
(a rated table always has a clock: ``docs/accounts.md``, "Fair play")."""


class CreateTableBody(_Body):
    """``POST /api/tables``: ``preset`` (R13), ``rules`` (RuleSet fields, R14), 2 or 3 ``seats``;
    ``rated`` (a two-hand match on the ladder, ``docs/accounts.md``), which always has a
    ``clock``: :data:`RATED_CLOCK` when none is given (``"clock": null`` is refused there)."""

    preset: Annotated[StrictStr, Field(max_length=40)] = "standard"
    rules: Annotated[dict[Annotated[str, Field(max_length=40)], RuleValue], Field(max_length=40)] | None = None
    seats: Annotated[list[SeatBody], Field(min_length=2, max_length=3)]
    public: bool = False
    spectator_chat: bool = False
    clock: ClockBody | None = None
    rated: bool = False


class SitBody(_Body):
    """``POST /api/tables/{id}/sit``: take the free ``seat`` (player index, from 0) of a public
    table as ``name`` (empty keeps the seat's name).  Any whole number is read: which seats
    may be taken depends on the table, so :meth:`ginrummy.web.room.lobby.Room.sit` refuses one
    that is not free there and names those that are (the schema's bound could only say "at
    most 2", wrong for a two-seat table)."""

    seat: Annotated[StrictInt, Field(ge=-MAX_INT, le=MAX_INT)]
    name: Annotated[StrictStr, Field(max_length=200)] = ""


class SheetBody(_Body):
    """``POST /api/sheet``: the scorekeeper: 2 (or 3) ``names`` and up to 500 ``results``
    (``NAME:POINTS`` or ``draw``, as ``gin sheet``)."""

    preset: Annotated[StrictStr, Field(max_length=40)] = "standard"
    rules: Annotated[dict[Annotated[str, Field(max_length=40)], RuleValue], Field(max_length=40)] | None = None
    names: Annotated[
        list[Annotated[StrictStr, Field(min_length=1, max_length=40, pattern=r"\S")]], Field(min_length=2, max_length=3)
    ]
    results: Annotated[list[Annotated[StrictStr, Field(max_length=60)]], Field(max_length=500)] = []


class ClaimBody(_Body):
    """``POST /api/tables/{id}/claim``: the one-time ``invite`` code of a seat's invite link."""

    invite: Annotated[StrictStr, Field(min_length=1, max_length=100)]


class CreateTournamentBody(_Body):
    """``POST /api/tournaments``: a tournament (docs/compete.md, "Tournaments in the room"):
    ``name``, ``kind`` (``swiss`` or ``arena``), ``start`` (ISO 8601; UTC when no offset),
    ``rounds`` (Swiss), ``minutes`` (an arena's length), ``scoring``
    (``game``, ``hollywood``, ``deal``), the clock (``clock_move``, ``clock_bank`` seconds, or
    ``clock_days`` 1 to 3 days a move: a turn-based Swiss tournament; 0, the default, live),
    the computer ``levels`` that enter, ``rated``, ``max_players``."""

    name: Annotated[StrictStr, Field(min_length=1, max_length=60, pattern=r"\S")]
    kind: Annotated[StrictStr, Field(max_length=10)] = "swiss"
    start: Annotated[StrictStr, Field(min_length=10, max_length=40)]
    rounds: Annotated[StrictInt, Field(ge=1, le=15)] = 5
    minutes: Annotated[StrictInt, Field(ge=10, le=720)] = 60
    scoring: Annotated[StrictStr, Field(max_length=20)] = "game"
    clock_move: Annotated[StrictInt, Field(ge=5, le=600)] = 20
    clock_bank: Annotated[StrictInt, Field(ge=0, le=3600)] = 120
    clock_days: Annotated[StrictInt, Field(ge=0, le=3)] = 0
    levels: Annotated[list[Annotated[StrictStr, Field(max_length=40)]], Field(max_length=8)] = []
    rated: bool = False
    max_players: Annotated[StrictInt, Field(ge=2, le=256)] = 64


class AccountBody(_Body):
    """``POST /api/account`` (sign up) and ``POST /api/session`` (sign in): ``name`` and
    ``password`` (their rules are checked by :mod:`ginrummy.web.community.accounts`)."""

    name: Annotated[StrictStr, Field(max_length=NAME_SENT_MAX)]
    password: Annotated[StrictStr, Field(max_length=1000)]

    FIELD_RULES = NAME_FIELD_RULES


class DeleteAccountBody(_Body):
    """``DELETE /api/account``: the account's ``password``, to confirm."""

    password: Annotated[StrictStr, Field(max_length=1000)]


class PuzzleAnswerBody(_Body):
    """``POST /api/puzzles/ID/answer``: the ``move`` chosen, an action text (``discard 7H``,
    ``draw stock``, ``take``, ``pass``, ``knock``, ``gin``; docs/protocol.md, "Puzzles")."""

    move: Annotated[StrictStr, Field(min_length=1, max_length=40)]


class PuzzleQuery(BaseModel):
    """The query string of ``GET /api/puzzles/next``: ``theme`` one of
    :data:`ginrummy.analysis.puzzles.THEMES` (absent: any), ``after`` the id (12 hex digits) of
    the puzzle just shown, so that the next is another."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    theme: Literal["upcard", "draw", "wall", "knock", "gin", "danger", "discard"] | None = None
    after: Annotated[str, Field(pattern=r"^[0-9a-f]{12}$")] | None = None


_Name = Annotated[StrictStr, Field(min_length=1, max_length=100)]
_Time = Annotated[StrictStr, Field(pattern=_TIME_PATTERN, max_length=40)]


class RelationBody(_Body):
    """``POST`` / ``DELETE /api/relations``: block or mute (or undo) the account ``name``."""

    name: _Name
    kind: Literal["block", "mute"]


class ReportBody(_Body):
    """``POST /api/reports``: a ``reason`` from the short list, free ``text`` (at most 500
    characters), and what is reported: a table (``table_id``), a person (``name``), a chat
    line (``message``, its text, with ``name`` its sender and ``table_id`` its table, or none
    for the lobby)."""

    reason: Literal["abuse", "cheating", "farming", "stalling", "spam", "other"]
    text: Annotated[StrictStr, Field(max_length=500)] = ""
    name: _Name | None = None
    table_id: Annotated[StrictStr, Field(min_length=1, max_length=40)] | None = None
    message: Annotated[StrictStr, Field(min_length=1, max_length=400)] | None = None


class ModActionBody(_Body):
    """``POST /api/moderation/actions``: a moderator's ``action`` on the account ``name``, with
    ``reason`` (1 to 500 characters, shown to the person), ``until`` (ISO time, UTC: the end of
    a mute, bar or suspension; none: for good), the ``report_id`` or ``flag`` it answers, and
    for ``delete_message`` the ``message`` text (and ``table_id``, none for the lobby), for
    ``void_series`` the ``matches`` (result ids, at most 500)."""

    action: Literal["warn", "delete_message", "mute_lobby", "bar_rated", "suspend", "close", "void_series", "dismiss"]
    reason: Annotated[StrictStr, Field(min_length=1, max_length=500)]
    name: _Name | None = None
    until: _Time | None = None
    report_id: Annotated[StrictInt, Field(ge=1, le=MAX_INT)] | None = None
    flag: Annotated[StrictStr, Field(max_length=120)] | None = None
    table_id: Annotated[StrictStr, Field(min_length=1, max_length=40)] | None = None
    message: Annotated[StrictStr, Field(min_length=1, max_length=400)] | None = None
    matches: Annotated[list[Annotated[StrictStr, Field(max_length=60)]], Field(max_length=500)] = []


MIN_REVIEW_BUDGET_MS = 10.0
"""The smallest budget per decision a replay's review may ask for, in milliseconds."""
MAX_REVIEW_BUDGET_MS = 400.0
"""The largest budget per decision a replay's review may ask for (200 sampled deals a decision):
a bigger one would hold the server's one review worker for many minutes."""


class DailyBody(_Body):
    """``POST /api/daily/DAY/K``: the computer level to play the day's deals against (one of
    :data:`ginrummy.compete.daily.DAILY_LEVELS`; fixed for the day by the first deal played)."""

    level: Literal["novice", "club", "expert"]


class DuelBody(_Body):
    """``POST /api/duels``: a friend challenge on the same deals (docs/compete.md): ``to`` the
    name of the person challenged (absent or null: a link, for whoever accepts it first),
    ``deals`` 1..8 (:data:`ginrummy.compete.daily.DAILY_DEALS`), ``level`` the computer level
    both play against (one of :data:`ginrummy.compete.daily.DAILY_LEVELS`)."""

    to: Annotated[StrictStr, Field(min_length=1, max_length=40)] | None = None
    deals: Annotated[StrictInt, Field(ge=1, le=8)] = 4
    level: Literal["novice", "club", "expert"] = "club"


class DailyPath(_Body):
    """The path of a daily route: ``day`` ``YYYY-MM-DD`` and, where there is one, the deal
    number ``number`` 1..8 (:data:`ginrummy.compete.daily.DAILY_DEALS`) and the ``level`` of a
    table (``club`` by default)."""

    day: Annotated[StrictStr, Field(pattern=_DAY_PATTERN)]
    number: Annotated[StrictInt, Field(ge=1, le=8)] = 1
    level: Literal["novice", "club", "expert"] = "club"


class ReviewQuery(BaseModel):
    """The query string of a replay's review (``POST /api/replays/ID/review``, ``POST
    /api/reviews``; ``docs/protocol.md``): ``deal`` 1 to 100,000 (absent: every deal),
    ``budget_ms`` :data:`MIN_REVIEW_BUDGET_MS` to :data:`MAX_REVIEW_BUDGET_MS` (absent: the
    server's ``--review-budget-ms``).  No ``seed``: the server chooses it
    (:data:`ginrummy.web.http.replay_review_routes.SEED`), so identical requests share one job.
    Query values are text, so numbers are read from their digits."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deal: Annotated[int, Field(ge=1, le=100_000)] | None = None
    budget_ms: Annotated[float, Field(ge=MIN_REVIEW_BUDGET_MS, le=MAX_REVIEW_BUDGET_MS, allow_inf_nan=False)] | None = (
        None
    )


def parse_query(items: Sequence[tuple[str, str]], model: type[_Q] | None = None) -> _Q:
    """A query string (its ``(key, value)`` pairs) as ``model`` (default :class:`ReviewQuery`,
    a replay review's; :class:`PuzzleQuery`).
    Raises :class:`WebError` ``bad_message`` naming the field for an unknown or repeated
    key, a value longer than 20 characters, or a value out of range or not a number."""
    counts = Counter(k for k, _ in items)  # once: keys.count per key was quadratic in the query's length
    for k, v in items:
        if counts[k] > 1:
            raise WebError(ErrorCode.BAD_MESSAGE, W_("{field}: {problem}", field=k[:40], problem=W_("is given twice")))
        if len(v) > 20:
            raise WebError(
                ErrorCode.BAD_MESSAGE,
                W_(
                    "{field}: {problem}",
                    field=k[:40],
                    problem=W_("is too long; allowed: at most {limit} characters", limit=20),
                ),
            )
    schema: Any = ReviewQuery if model is None else model
    try:
        out: _Q = schema.model_validate(dict(items))
        return out
    except ValidationError as exc:
        err = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in err.get("loc", ()) if not isinstance(p, int))[:40] or "query"
        where = where.split(".")[0]
        problem = _problem(err)
        if err.get("type") == "extra_forbidden":  # "seed" too: the server chooses it (replay_review_routes.SEED)
            problem = W_("is not a field here; fields: {fields}", fields=", ".join(schema.model_fields))
        raise WebError(ErrorCode.BAD_MESSAGE, W_("{field}: {problem}", field=where, problem=problem)) from None


_B = TypeVar("_B", bound=_Body)

_BODY_HELP: dict[type[_Body], Any] = {
    CreateTableBody: lambda: W_(
        "seats must be a list of 2 or 3 objects like {example}", example='{"kind": "human", "name": "Ann"}'
    ),
    SheetBody: lambda: W_("names must be a list of 2 (or 3) non-empty names"),
    ClaimBody: lambda: W_("send {example}", example='{"invite": "..."}'),
    SitBody: lambda: W_("send {example}", example='{"seat": 1, "name": "Ann"}'),
    AccountBody: lambda: W_("send {example}", example='{"name": "...", "password": "..."}'),
    DeleteAccountBody: lambda: W_("send {example}", example='{"password": "..."}'),
    PuzzleAnswerBody: lambda: W_("send {example}", example='{"move": "discard 7H"}'),
    DailyBody: lambda: W_("send {example}", example='{"level": "club"}'),
}


def body_help(model: type[_Body]) -> Msg:
    """What a body of ``model`` looks like, for an answer that refuses one: the example of
    :data:`_BODY_HELP`, else the model's fields (every body has an answer: a body class added
    without an example is refused in words, never with a ``KeyError``)."""
    example = _BODY_HELP.get(model)
    if example is not None:
        return example()
    return W_("send a JSON object with the fields {fields}", fields=", ".join(model.model_fields))


def parse_body(raw: bytes, model: type[_B]) -> _B:
    """Decode and validate a JSON request body (at most :data:`MAX_BODY_BYTES` bytes and
    :data:`MAX_BODY_DEPTH` levels) as ``model``.  Raises :class:`WebError` saying which
    field was wrong and how (for example ``rules.target: has the wrong type...``; a seat's field
    names the seat counting from 1, as every seat error does: ``seat 1: name is too long;
    allowed: at most 200 characters``)."""
    data = read_json(raw or b"null", limit=MAX_BODY_BYTES, max_depth=MAX_BODY_DEPTH)
    if not isinstance(data, dict):
        raise WebError(ErrorCode.BAD_MESSAGE, W_("the body must be a JSON object: {help}", help=body_help(model)))
    rules = data.get("rules")
    if isinstance(rules, dict):
        for k, v in rules.items():  # a whole number too large is out of range, not "not whole" (1e+23)
            if type(v) is int and abs(v) > MAX_INT:
                raise WebError(
                    ErrorCode.BAD_MESSAGE,
                    W_(
                        "{field}: {problem}",
                        field=f"rules.{str(k)[:40]}",
                        problem=W_("is out of range; allowed: at most {limit}", limit=MAX_INT),
                    ),
                )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in err.get("loc", ()))[:80] or "body"
        loc = [str(p) for p in err.get("loc", ())]
        if loc[0] == "rules":
            if err.get("type") in ("string_too_long", "too_long"):
                # too many fields, a field name too long, or a text value too long: say which
                if len(loc) == 1:
                    field = "rules"
                elif loc[-1] == "[key]":
                    field = "rules (a field name)"
                else:
                    field = f"rules.{loc[1][:40]}"
                raise WebError(
                    ErrorCode.BAD_MESSAGE, W_("{field}: {problem}", field=field, problem=_problem(err))
                ) from None
            if len(loc) >= 2:
                # one field's value: a whole number, text, true/false or null (R14 says which)
                raise WebError(
                    ErrorCode.BAD_MESSAGE,
                    W_(
                        "{field}: {problem}",
                        field=f"rules.{loc[1]}"[:80],
                        problem=W_(
                            "has the wrong type; allowed: a whole number, a finite number, text, true/false or null"
                        ),
                    ),
                ) from None
            raise WebError(ErrorCode.BAD_MESSAGE, W_("rules must be an object of RuleSet fields (R14)")) from None
        if loc[0] == "seats" and len(loc) >= 3 and loc[1].isdigit():
            # one field of one seat: say which, counting seats from 1 as every other seat error
            # does ("seat 2: unknown computer level"), not from 0 as the list's index
            seat, field = int(loc[1]) + 1, loc[2][:40]
            problem = (
                W_("is not a field here; fields: {fields}", fields=", ".join(sorted(SeatBody.model_fields)))
                if err.get("type") == "extra_forbidden"
                else _problem(err)
            )
            raise WebError(
                ErrorCode.BAD_MESSAGE, W_("seat {seat}: {field} {problem}", seat=seat, field=field, problem=problem)
            ) from None
        if loc[0] in ("names", "seats") and err.get("type") != "extra_forbidden":
            raise WebError(ErrorCode.BAD_MESSAGE, body_help(model)) from None
        if where.split(".")[0] == "results":
            raise WebError(
                ErrorCode.BAD_MESSAGE, W_("results must be a list (at most 500) of NAME:POINTS or draw")
            ) from None
        if err.get("type") == "extra_forbidden" and len(loc) == 1:
            raise WebError(
                ErrorCode.BAD_MESSAGE,
                W_(
                    "{field}: {problem}",
                    field=where,
                    problem=W_("is not a field here; fields: {fields}", fields=", ".join(sorted(model.model_fields))),
                ),
            ) from None
        if err.get("type") == "string_too_long" and len(loc) == 1 and loc[0] in model.FIELD_RULES:
            raise WebError(*model.FIELD_RULES[loc[0]]) from None
        raise WebError(ErrorCode.BAD_MESSAGE, W_("{field}: {problem}", field=where, problem=_problem(err))) from None


def parse_daily_path(day: str, number: str | None = None, level: str | None = None) -> DailyPath:
    """The path (and query) of a daily route checked as :class:`DailyPath`: ``day``
    ``YYYY-MM-DD`` and a real date, ``number`` 1..8 written in digits (``None``: no number in
    the path), ``level`` one of the daily levels (``None``: none asked).  Raises
    :class:`WebError` (``bad_message``) naming the part that is wrong and what is allowed."""
    data: dict[str, Any] = {"day": str(day)[:40]}
    if number is not None:
        if number.startswith("-") and number[1:].isascii() and number[1:].isdigit():  # -1: a number, below 1
            raise WebError(
                ErrorCode.BAD_MESSAGE,
                W_(
                    "{field}: {problem}",
                    field="number",
                    problem=W_("is out of range; allowed: at least {limit}", limit=1),
                ),
            )
        if not (number.isascii() and number.isdigit()) or len(number) > 3:
            raise WebError(
                ErrorCode.BAD_MESSAGE,
                W_("{field}: {problem}", field="number", problem=W_("has the wrong type; allowed: a whole number")),
            )
        data["number"] = int(number)
    if level is not None:
        data["level"] = str(level)[:40]
    try:
        path = DailyPath.model_validate(data)
        date.fromisoformat(path.day)
    except ValidationError as exc:
        err = exc.errors(include_url=False, include_input=False)[0]
        where = str((err.get("loc") or ("day",))[0])[:20]
        raise WebError(ErrorCode.BAD_MESSAGE, W_("{field}: {problem}", field=where, problem=_problem(err))) from None
    except ValueError:
        raise WebError(
            ErrorCode.BAD_MESSAGE,
            W_("{field}: {problem}", field="day", problem=W_("is not a date; allowed: YYYY-MM-DD")),
        ) from None
    return path
