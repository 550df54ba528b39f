"""The one schema of everything the web table reads from the network (see ``docs/protocol.md``).

Every WebSocket message and every JSON request body is read by :func:`read_json` (size and
nesting depth bounded *before* the JSON is decoded) and then validated by a pydantic v2 model
(strict types, no unknown field, every string, list and integer bounded).  Nothing else in
the server looks at raw input.

Inbound WebSocket messages (client -> server), one JSON object per text frame, at most
:data:`MAX_MESSAGE_BYTES` bytes:

* ``{"type": "action", "action": "discard 7H"}`` - a deal action in its text form
  (:func:`ginrummy.actions.parse_action`; short forms accepted).
* ``{"type": "next_deal"}`` - start the next deal once the deal is over.
* ``{"type": "client_seed", "deal": 2, "seed": "9f3a..."}`` - this seat's client seed for the
  next deal (``docs/record-format.md``, "A deal no one controls").
* ``{"type": "suggest", "text": "keep the 7s"}`` - the adviser's suggestion to the captain
  (three-hand gin, R10.2), at most :data:`MAX_SUGGESTION_CHARS` characters.
* ``{"type": "chat", "text": "good game"}`` - say something at the table (at most
  :data:`MAX_CHAT_CHARS` characters; in the lobby also ``"name"``).
* ``{"type": "rematch"}`` - once the match is over: ask for a rematch.
* ``{"type": "hint"}`` - what would the table's hint player do here, and why?
* ``{"type": "review", "deal": 3}`` - the expert's review of my decisions in deal 3 (over), or
  ``"deal": null`` of the whole match (over); ``ginrummy.web.room.review_service``.
* ``{"type": "sync"}`` - ask for the current state again.
* ``{"type": "ping"}`` - answered by ``{"type": "pong"}``.
* ``{"type": "set_lang", "lang": "el"}`` - say this connection's error messages in that language.

Every inbound message may carry an ``"id"`` (a string of at most 64 characters or an integer of
at most 18 digits) that the answer echoes back as ``"reply_to"``.

JSON bodies: :class:`CreateTableBody` (``POST /api/tables``), :class:`SheetBody`
(``POST /api/sheet``), :class:`ClaimBody` (``POST /api/tables/{id}/claim``), :class:`AccountBody`
(``POST /api/account``, ``POST /api/session``), :class:`DeleteAccountBody`
(``DELETE /api/account``), each at most
:data:`MAX_BODY_BYTES` bytes and :data:`MAX_BODY_DEPTH` levels deep.

:func:`parse_inbound` and :func:`parse_body` never raise anything but :class:`MessageError`,
whose ``code`` is ``too_large``, ``bad_json`` or ``bad_message`` and whose message is a
:class:`~ginrummy.errors.Msg` (:func:`ginrummy.web.texts.W_`), said in the seat's language.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, ValidationError

from ...errors import Msg
from ...i18n import LANGUAGES
from ...match import CLIENT_SEED_MAX_CHARS
from ..texts import W_

__all__ = [
    "MAX_MESSAGE_BYTES", "MAX_SUGGESTION_CHARS", "MAX_BODY_BYTES", "MAX_BODY_DEPTH", "MAX_MESSAGE_DEPTH",
    "MessageError", "ActionMsg", "NextDealMsg", "ClientSeedMsg", "SuggestMsg", "SyncMsg", "PingMsg", "SetLangMsg",
    "HintMsg", "ChatMsg", "LobbyChatMsg", "RematchMsg", "Inbound", "CreateTableBody", "SeatBody", "SheetBody",
    "ClaimBody", "SitBody", "ClockBody", "AccountBody", "DeleteAccountBody", "parse_inbound", "parse_lobby", "parse_body", "MAX_CHAT_CHARS",
    "read_json", "plain_text", "error_message", "hint_message", "INBOUND_TYPES", "ReviewMsg", "ReviewQuery", "parse_query",
    "MIN_REVIEW_BUDGET_MS", "MAX_REVIEW_BUDGET_MS",
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

INBOUND_TYPES = ("action", "next_deal", "client_seed", "suggest", "chat", "rematch", "hint", "review", "sync", "ping",
                 "set_lang")


class MessageError(ValueError):
    """An inbound message or body was rejected before it reached the game.

    Attributes:
        code: ``too_large``, ``bad_json`` or ``bad_message``.
        reply_to: the message's ``id`` if one could be read, else ``None``.
        key, params: the message's key (English template) and parameters when ``message`` is a
            :class:`~ginrummy.errors.Msg`, for :func:`ginrummy.i18n.translate_error`.
    """

    def __init__(self, code: str, message: str, reply_to: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.reply_to = reply_to
        self.key: str | None = message.key if isinstance(message, Msg) else None
        self.params: dict[str, Any] = dict(message.params) if isinstance(message, Msg) else {}


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

    Raises :class:`MessageError` ``too_large`` or ``bad_json``."""
    size = len(raw.encode("utf-8", "replace") if isinstance(raw, str) else raw)
    if size > limit:
        raise MessageError("too_large", W_("message of {size} bytes is too large; the limit is {limit} bytes",
                                           size=size, limit=limit))
    try:
        text = raw if isinstance(raw, str) else raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MessageError("bad_json", W_("message is not valid UTF-8 text")) from None
    # no text nests deeper than it has brackets: most messages are settled by a count
    if text.count("{") + text.count("[") > max_depth and _depth(text) > max_depth:
        raise MessageError("bad_json", W_("JSON nested more than {depth} levels deep is refused", depth=max_depth))
    try:
        return _DECODER.decode(text)
    except _RepeatedKey as exc:
        # the words of a query's repeated key (parse_query)
        raise MessageError("bad_json", W_("{field}: {problem}", field=exc.key[:40], problem=W_("is given twice"))) from None
    except (ValueError, RecursionError):
        raise MessageError("bad_json", W_("message is not valid JSON; send one JSON object such as {example}",
                                          example='{"type": "action", "action": "draw stock"}')) from None


# -- the WebSocket messages -----------------------------------------------------------------

MessageId = Union[Annotated[StrictStr, Field(max_length=64)], Annotated[StrictInt, Field(ge=-MAX_INT, le=MAX_INT)], None]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: MessageId = None


class ActionMsg(_Msg):
    """Play ``action`` (its text form, not yet parsed; at most 120 characters)."""

    type: Literal["action"] = "action"
    action: Annotated[StrictStr, Field(min_length=1, max_length=120, pattern=r"\S")]


class NextDealMsg(_Msg):
    """Start the next deal (R11.2, R10.4)."""

    type: Literal["next_deal"] = "next_deal"


class ClientSeedMsg(_Msg):
    """This seat's client seed for deal ``deal`` (``docs/record-format.md``): 1 to 64
    characters of ``A-Z a-z 0-9 _ -``."""

    type: Literal["client_seed"] = "client_seed"
    deal: Annotated[StrictInt, Field(ge=1, le=100_000)]
    seed: Annotated[StrictStr, Field(min_length=1, max_length=CLIENT_SEED_MAX_CHARS, pattern=r"^[0-9A-Za-z_-]+$")]


class SuggestMsg(_Msg):
    """The adviser's suggestion (R10.2); whitespace runs are folded to one space."""

    type: Literal["suggest"] = "suggest"
    text: Annotated[StrictStr, Field(min_length=1, max_length=MAX_MESSAGE_BYTES)]


class ChatMsg(_Msg):
    """A chat message (text only; whitespace runs folded to one space)."""

    type: Literal["chat"] = "chat"
    text: Annotated[StrictStr, Field(min_length=1, max_length=MAX_MESSAGE_BYTES)]


class LobbyChatMsg(_Msg):
    """A lobby chat message: the sender's ``name`` (1 to 24 characters) and ``text``.  The name
    counts for a guest only, who must give it: a signed-in person posts under his account's
    name and may leave ``name`` out (or ``null``; one he gives is still checked here), and a
    guest may not take a computer seat's, a reserved one or an account's
    (:meth:`ginrummy.web.room.lobby.RoomMixin.say_in_lobby`, which refuses a guest's line without
    ``name``: :func:`lobby_guest_name_help`)."""

    type: Literal["chat"] = "chat"
    name: Annotated[StrictStr, Field(min_length=1, max_length=24, pattern=r"\S")] | None = None
    text: Annotated[StrictStr, Field(min_length=1, max_length=MAX_MESSAGE_BYTES)]


class RematchMsg(_Msg):
    """Ask for a rematch once the match is over."""

    type: Literal["rematch"] = "rematch"


class SyncMsg(_Msg):
    """Send me the state again."""

    type: Literal["sync"] = "sync"


class PingMsg(_Msg):
    """Keep-alive."""

    type: Literal["ping"] = "ping"


class SetLangMsg(_Msg):
    """Say this connection's errors in ``lang`` (a code of :data:`ginrummy.i18n.LANGUAGES`)."""

    type: Literal["set_lang"] = "set_lang"
    lang: StrictStr


class HintMsg(_Msg):
    """What would the table's hint player do here, and why?"""

    type: Literal["hint"] = "hint"


class ReviewMsg(_Msg):
    """The expert's review of my own decisions: in deal number ``deal`` (1 to 100,000; the deal
    must be over), or in the whole match when ``deal`` is ``null`` (the match must be over)."""

    type: Literal["review"] = "review"
    deal: Annotated[StrictInt, Field(ge=1, le=100_000)] | None


Inbound = Union[ActionMsg, NextDealMsg, ClientSeedMsg, SuggestMsg, ChatMsg, RematchMsg, HintMsg, ReviewMsg, SyncMsg,
                PingMsg, SetLangMsg]

_MODELS: dict[str, type[_Msg]] = {
    "action": ActionMsg, "next_deal": NextDealMsg, "client_seed": ClientSeedMsg, "suggest": SuggestMsg,
    "chat": ChatMsg, "rematch": RematchMsg, "hint": HintMsg, "review": ReviewMsg, "sync": SyncMsg, "ping": PingMsg,
    "set_lang": SetLangMsg,
}

LOBBY_TYPES = ("chat", "ping")
_LOBBY_MODELS: dict[str, type[_Msg]] = {"chat": LobbyChatMsg, "ping": PingMsg}

# what a message of each type needs, said when its own field is missing or wrong
_FIELD_HELP: dict[str, Any] = {
    "action": lambda: W_('an action message needs "action": a text such as "discard 7H"'),
    "suggest": lambda: W_('a suggest message needs "text": a non-empty string'),
    "set_lang": lambda: W_('a set_lang message needs "lang": one of {languages}', languages=", ".join(LANGUAGES)),
    "chat": lambda: W_('a chat message needs "text": a non-empty string'),
    "review": lambda: W_('a review message needs "deal": a deal number (1 or more), or null for the whole match'),
    "client_seed": lambda: W_('a client_seed message needs "deal": the deal number, and "seed": 1 to {limit} '
                              'characters of A-Z a-z 0-9 _ -', limit=CLIENT_SEED_MAX_CHARS),
}


# a text that plain_text() emptied: it held characters, but none that shows
_INVISIBLE_HELP: dict[str, Any] = {
    "suggest": lambda: W_('a suggest message needs "text" with something visible: its invisible characters (such as '
                          'zero-width spaces) were left out, and nothing visible remained'),
    "chat": lambda: W_('a chat message needs "text" with something visible: its invisible characters (such as '
                       'zero-width spaces) were left out, and nothing visible remained'),
}


def lobby_name_help() -> Msg:
    """The error for a lobby chat message whose ``name`` is missing, too long or only spaces
    (the schema's, and :meth:`~ginrummy.web.room.lobby.RoomMixin.say_in_lobby`'s once folded)."""
    return W_('a lobby chat message needs "name": your name, 1 to 24 characters, not only spaces')


def lobby_guest_name_help() -> Msg:
    """The error for a guest's lobby chat message without ``name`` (a signed-in person's may
    leave it out: :meth:`~ginrummy.web.room.lobby.RoomMixin.say_in_lobby`)."""
    return W_('a guest\'s lobby chat message needs "name": your name, 1 to 24 characters, not only spaces '
              '(signed in, you chat under your account\'s name and need none)')


def _read_id(data: dict[str, Any]) -> Any:
    mid = data.get("id")
    if mid is None:
        return None
    if isinstance(mid, bool) or not isinstance(mid, (str, int)) or len(str(mid)) > 64 \
            or (isinstance(mid, int) and abs(mid) > MAX_INT):
        raise MessageError("bad_message", W_("id must be a string or an integer of at most 64 characters"))
    return mid


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_inbound(raw: str | bytes, models: dict[str, type[_Msg]] | None = None) -> Inbound:
    """Read one inbound WebSocket message (see the module docstring).

    Raises :class:`MessageError`: ``too_large`` above :data:`MAX_MESSAGE_BYTES` bytes,
    ``bad_json`` if it is not a JSON object (or nests deeper than :data:`MAX_MESSAGE_DEPTH`),
    ``bad_message`` for an unknown ``type``, an unknown or missing field, or a field of the
    wrong type or size.
    """
    models = _MODELS if models is None else models
    data = read_json(raw, limit=MAX_MESSAGE_BYTES, max_depth=MAX_MESSAGE_DEPTH)
    if not isinstance(data, dict):
        raise MessageError("bad_json", W_("message must be a JSON object such as {example}", example='{"type": "sync"}'))
    mid = _read_id(data)
    kind = data.get("type")
    if "type" not in data:
        raise MessageError("bad_message", W_('a message needs "type": one of {types}', types=", ".join(models)), mid)
    if not isinstance(kind, str) or kind not in models:
        raise MessageError("bad_message", W_("unknown message type {kind!r}; types: {types}",
                                             kind=_short(kind) if not isinstance(kind, str) else kind[:40],
                                             types=", ".join(models)), mid)
    model = models[kind]
    extra = set(data) - set(model.model_fields)
    if extra:
        raise MessageError("bad_message", W_("unknown field(s) {extra} in the {kind} message; fields: {fields}",
                                             extra=", ".join(sorted(x[:40] for x in extra)), kind=kind,
                                             fields=", ".join(sorted(model.model_fields))), mid)
    typed = data.get("text") if kind in ("suggest", "chat") else None
    if isinstance(typed, str):
        data = {**data, "text": plain_text(typed)}
    try:
        msg = model.model_validate(data)
    except ValidationError as exc:
        help_ = _FIELD_HELP.get(kind)
        field = (exc.errors(include_url=False, include_input=False)[0].get("loc") or ("",))[0]
        if model is LobbyChatMsg and field == "name":
            help_ = lobby_name_help
        elif field == "text" and isinstance(typed, str) and typed and not data["text"]:
            help_ = _INVISIBLE_HELP[kind]  # "\u200b": not empty as sent, but nothing in it shows
        raise MessageError("bad_message", help_() if help_ else W_("a {kind} message has only the fields {fields}",
                                                                   kind=kind, fields="type, id"), mid) from None
    if isinstance(msg, SuggestMsg) and len(msg.text) > MAX_SUGGESTION_CHARS:
        raise MessageError("bad_message", W_("a suggestion has at most {limit} characters",
                                             limit=MAX_SUGGESTION_CHARS), mid)
    if isinstance(msg, (ChatMsg, LobbyChatMsg)) and len(msg.text) > MAX_CHAT_CHARS:
        raise MessageError("bad_message", W_("a chat message has at most {limit} characters", limit=MAX_CHAT_CHARS), mid)
    if isinstance(msg, SetLangMsg) and msg.lang not in LANGUAGES:
        raise MessageError("bad_message", _FIELD_HELP["set_lang"](), mid)
    return msg


# -- the JSON bodies ------------------------------------------------------------------------

# a finite float is let through so that the rule set itself says which value it wants
# ("rule target=1.5 is not a whole number; allowed: 1..1000", R14)
RuleValue = Union[Annotated[StrictStr, Field(max_length=40)], Annotated[StrictInt, Field(ge=-MAX_INT, le=MAX_INT)],
                  bool, Annotated[StrictFloat, Field(allow_inf_nan=False)], None]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SeatBody(_Body):
    """A seat asked for at table creation: ``kind`` ``human`` or ``bot``, ``name`` (cut to the
    table's name limit), ``level`` for a bot."""

    kind: Annotated[StrictStr, Field(max_length=20)] = ""
    name: Annotated[StrictStr, Field(max_length=200)] | None = ""
    level: Annotated[StrictStr, Field(max_length=40)] | None = ""


class ClockBody(_Body):
    """A table's clock (``ginrummy.web.room.clock``): ``move`` seconds for each move (5 to 600) and a
    time ``bank`` in seconds for the match (0 to 3600)."""

    move: Annotated[StrictInt, Field(ge=5, le=600)]
    bank: Annotated[StrictInt, Field(ge=0, le=3600)] = 0


class CreateTableBody(_Body):
    """``POST /api/tables``: ``preset`` (R13), ``rules`` (RuleSet fields, R14), 2 or 3 ``seats``;
    ``rated`` (a two-hand match on the ladder, ``docs/accounts.md``)."""

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
    may be taken depends on the table, so :meth:`ginrummy.web.room.lobby.RoomMixin.sit` refuses one
    that is not free there and names those that are (the schema's bound could only say "at
    most 2", wrong for a two-seat table)."""

    seat: Annotated[StrictInt, Field(ge=-MAX_INT, le=MAX_INT)]
    name: Annotated[StrictStr, Field(max_length=200)] = ""


class SheetBody(_Body):
    """``POST /api/sheet``: the scorekeeper: 2 (or 3) ``names`` and up to 500 ``results``
    (``NAME:POINTS`` or ``draw``, as ``gin sheet``)."""

    preset: Annotated[StrictStr, Field(max_length=40)] = "standard"
    rules: Annotated[dict[Annotated[str, Field(max_length=40)], RuleValue], Field(max_length=40)] | None = None
    names: Annotated[list[Annotated[StrictStr, Field(min_length=1, max_length=40, pattern=r"\S")]],
                     Field(min_length=2, max_length=3)]
    results: Annotated[list[Annotated[StrictStr, Field(max_length=60)]], Field(max_length=500)] = []


class ClaimBody(_Body):
    """``POST /api/tables/{id}/claim``: the one-time ``invite`` code of a seat's invite link."""

    invite: Annotated[StrictStr, Field(min_length=1, max_length=100)]


class AccountBody(_Body):
    """``POST /api/account`` (sign up) and ``POST /api/session`` (sign in): ``name`` and
    ``password`` (their rules are checked by :mod:`ginrummy.web.community.accounts`)."""

    name: Annotated[StrictStr, Field(max_length=100)]
    password: Annotated[StrictStr, Field(max_length=1000)]


class DeleteAccountBody(_Body):
    """``DELETE /api/account``: the account's ``password``, to confirm."""

    password: Annotated[StrictStr, Field(max_length=1000)]


MIN_REVIEW_BUDGET_MS = 10.0
"""The smallest budget per decision a replay's review may ask for, in milliseconds."""
MAX_REVIEW_BUDGET_MS = 400.0
"""The largest budget per decision a replay's review may ask for (200 sampled deals a decision):
a bigger one would hold the server's one review worker for many minutes."""


class ReviewQuery(BaseModel):
    """The query string of a replay's review (``POST /api/replays/ID/review``, ``POST
    /api/reviews``; ``docs/protocol.md``): ``deal`` 1 to 100,000 (absent: every deal),
    ``budget_ms`` :data:`MIN_REVIEW_BUDGET_MS` to :data:`MAX_REVIEW_BUDGET_MS` (absent: the
    server's ``--review-budget-ms``), ``seed`` 0 to 2**31-1 (default 0).  Query values are
    text, so numbers are read from their digits."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deal: Annotated[int, Field(ge=1, le=100_000)] | None = None
    budget_ms: Annotated[float, Field(ge=MIN_REVIEW_BUDGET_MS, le=MAX_REVIEW_BUDGET_MS, allow_inf_nan=False)] | None = None
    seed: Annotated[int, Field(ge=0, le=2**31 - 1)] = 0


def parse_query(items: Sequence[tuple[str, str]]) -> ReviewQuery:
    """A replay review's query string (its ``(key, value)`` pairs) as :class:`ReviewQuery`.
    Raises :class:`MessageError` ``bad_message`` naming the field for an unknown or repeated
    key, a value longer than 20 characters, or a value out of range or not a number."""
    counts = Counter(k for k, _ in items)  # once: keys.count per key was quadratic in the query's length
    for k, v in items:
        if counts[k] > 1:
            raise MessageError("bad_message", W_("{field}: {problem}", field=k[:40], problem=W_("is given twice")))
        if len(v) > 20:
            raise MessageError("bad_message", W_("{field}: {problem}", field=k[:40],
                                                 problem=W_("is longer than {limit} (characters or items)", limit=20)))
    try:
        return ReviewQuery.model_validate(dict(items))
    except ValidationError as exc:
        err = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in err.get("loc", ()) if not isinstance(p, int))[:40] or "query"
        where = where.split(".")[0]
        raise MessageError("bad_message", W_("{field}: {problem}", field=where, problem=_problem(err))) from None


_B = TypeVar("_B", bound=_Body)

_BODY_HELP: dict[type[_Body], Any] = {
    CreateTableBody: lambda: W_("seats must be a list of 2 or 3 objects like {example}",
                                example='{"kind": "human", "name": "Ann"}'),
    SheetBody: lambda: W_("names must be a list of 2 (or 3) non-empty names"),
    ClaimBody: lambda: W_('send {example}', example='{"invite": "..."}'),
    SitBody: lambda: W_('send {example}', example='{"seat": 1, "name": "Ann"}'),
    AccountBody: lambda: W_('send {example}', example='{"name": "...", "password": "..."}'),
    DeleteAccountBody: lambda: W_('send {example}', example='{"password": "..."}'),
}


def _problem(err: dict[str, Any]) -> Msg:
    """One pydantic error as a translatable phrase."""
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    if kind == "missing":
        return W_("is missing")
    if kind == "extra_forbidden":
        return W_("is not a field here")
    if kind in ("string_too_long", "too_long"):
        return W_("is longer than {limit} (characters or items)", limit=ctx.get("max_length", "?"))
    if kind in ("string_too_short", "too_short"):
        return W_("is shorter than {limit} (characters or items)", limit=ctx.get("min_length", "?"))
    if kind in ("less_than_equal", "less_than"):
        return W_("is out of range; allowed: at most {limit}", limit=ctx.get("le", ctx.get("lt", "?")))
    if kind in ("greater_than_equal", "greater_than"):
        return W_("is out of range; allowed: at least {limit}", limit=ctx.get("ge", ctx.get("gt", "?")))
    if kind == "string_pattern_mismatch":
        return W_("has characters that are not allowed")
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


def parse_body(raw: bytes, model: type[_B]) -> _B:
    """Decode and validate a JSON request body (at most :data:`MAX_BODY_BYTES` bytes and
    :data:`MAX_BODY_DEPTH` levels) as ``model``.  Raises :class:`MessageError` saying which
    field was wrong and how (for example ``rules.target: has the wrong type...``; a seat's field
    names the seat counting from 1, as every seat error does: ``seat 1: name is longer than
    200 (characters or items)``)."""
    data = read_json(raw or b"null", limit=MAX_BODY_BYTES, max_depth=MAX_BODY_DEPTH)
    if not isinstance(data, dict):
        raise MessageError("bad_message", W_("the body must be a JSON object: {help}", help=_BODY_HELP[model]()))
    rules = data.get("rules")
    if isinstance(rules, dict):
        for k, v in rules.items():  # a whole number too large is out of range, not "not whole" (1e+23)
            if type(v) is int and abs(v) > MAX_INT:
                raise MessageError("bad_message", W_("{field}: {problem}", field=f"rules.{str(k)[:40]}", problem=W_(
                    "is out of range; allowed: at most {limit}", limit=MAX_INT)))
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
                raise MessageError("bad_message", W_("{field}: {problem}", field=field, problem=_problem(err))) from None
            if len(loc) >= 2:
                # one field's value: a whole number, text, true/false or null (R14 says which)
                raise MessageError("bad_message", W_("{field}: {problem}", field=f"rules.{loc[1]}"[:80],
                                                     problem=W_("has the wrong type; allowed: a whole number, "
                                                                "a finite number, text, true/false or null"))) from None
            raise MessageError("bad_message", W_("rules must be an object of RuleSet fields (R14)")) from None
        if loc[0] == "seats" and len(loc) >= 3 and loc[1].isdigit():
            # one field of one seat: say which, counting seats from 1 as every other seat error
            # does ("seat 2: unknown computer level"), not from 0 as the list's index
            seat, field = int(loc[1]) + 1, loc[2][:40]
            problem = (W_("is not a field here; fields: {fields}", fields=", ".join(sorted(SeatBody.model_fields)))
                       if err.get("type") == "extra_forbidden" else _problem(err))
            raise MessageError("bad_message", W_("seat {seat}: {field} {problem}", seat=seat, field=field,
                                                 problem=problem)) from None
        if loc[0] in ("names", "seats") and err.get("type") != "extra_forbidden":
            raise MessageError("bad_message", _BODY_HELP[model]()) from None
        if where.split(".")[0] == "results":
            raise MessageError("bad_message", W_("results must be a list (at most 500) of NAME:POINTS or draw")) from None
        if err.get("type") == "extra_forbidden" and len(loc) == 1:
            raise MessageError("bad_message", W_("{field}: {problem}", field=where, problem=W_(
                "is not a field here; fields: {fields}", fields=", ".join(sorted(model.model_fields))))) from None
        raise MessageError("bad_message", W_("{field}: {problem}", field=where, problem=_problem(err))) from None


# -- outbound -------------------------------------------------------------------------------

def parse_lobby(raw: str | bytes) -> Inbound:
    """Read one message of the lobby WebSocket: ``chat`` (with ``name``) or ``ping``; errors as
    :func:`parse_inbound`."""
    return parse_inbound(raw, _LOBBY_MODELS)


def hint_message(action: str, reason: str, level: str, seq: int, *, reply_to: Any = None) -> dict[str, Any]:
    """The outbound ``hint`` message: ``{"type": "hint", "action": "discard 7H", "reason": "...",
    "level": "club", "seq": 12, "reply_to"?}`` - ``action`` in its text form (not translated),
    ``reason`` in the connection's language, ``level`` the hint player's level, ``seq`` the step
    the hint is about (a hint whose ``seq`` is not the state's is stale)."""
    out: dict[str, Any] = {"type": "hint", "action": action, "reason": reason, "level": level, "seq": seq}
    if reply_to is not None:
        out["reply_to"] = reply_to
    return out


def error_message(code: str, message: str, *, reply_to: Any = None, legal: list[str] | None = None) -> dict[str, Any]:
    """The outbound ``error`` message: ``{"type": "error", "code", "message", "legal"?, "reply_to"?}``.

    Codes: ``too_large``, ``bad_json``, ``bad_message`` (the message itself), ``illegal``
    (the engine refused the action), ``not_your_turn``, ``not_allowed`` (e.g. a suggestion from
    a seat that is not the adviser, a client seed for a deal that is not next), ``conflict``
    (another server wrote first; state resent), the review's ``not_over``, ``bad_deal``, ``busy``
    and ``server_busy`` (``ginrummy.web.room.review_service``), ``too_slow`` (this connection did not read its
    messages; it is closed with code 4408).
    """
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if legal is not None:
        out["legal"] = legal
    if reply_to is not None:
        out["reply_to"] = reply_to
    return out
