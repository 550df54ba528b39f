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
* ``{"type": "resign"}`` - resign the match (two-hand, once dealt): lose it, rated at a rated table.
* ``{"type": "claim"}`` - claim the win when the opponent is away past the grace period.
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

:func:`parse_inbound` and :func:`parse_body` never raise anything but :class:`WebError`,
whose ``code`` is ``too_large``, ``bad_json`` or ``bad_message`` and whose message is a
:class:`~ginrummy.errors.Msg` (:func:`ginrummy.web.texts.W_`), said in the seat's language.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from ...errors import Msg
from ...i18n import LANGUAGES
from ...match import CLIENT_SEED_MAX_CHARS
from ..errors import ErrorCode, WebError
from ..texts import W_
from .bodies import (
    MAX_REVIEW_BUDGET_MS,
    MIN_REVIEW_BUDGET_MS,
    AccountBody,
    ClaimBody,
    ClockBody,
    CreateTableBody,
    DeleteAccountBody,
    PuzzleAnswerBody,
    PuzzleQuery,
    ReviewQuery,
    SeatBody,
    SheetBody,
    SitBody,
    parse_body,
    parse_query,
)
from .outbound import error_message, hint_message
from .reading import (
    MAX_BODY_BYTES,
    MAX_BODY_DEPTH,
    MAX_CHAT_CHARS,
    MAX_INT,
    MAX_MESSAGE_BYTES,
    MAX_MESSAGE_DEPTH,
    MAX_SUGGESTION_CHARS,
    plain_text,
    read_json,
)

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_SUGGESTION_CHARS",
    "MAX_BODY_BYTES",
    "MAX_BODY_DEPTH",
    "MAX_MESSAGE_DEPTH",
    "ActionMsg",
    "NextDealMsg",
    "ClientSeedMsg",
    "SuggestMsg",
    "SyncMsg",
    "PingMsg",
    "SetLangMsg",
    "HintMsg",
    "ChatMsg",
    "LobbyChatMsg",
    "RematchMsg",
    "ResignMsg",
    "ClaimMsg",
    "Inbound",
    "CreateTableBody",
    "PuzzleAnswerBody",
    "PuzzleQuery",
    "SeatBody",
    "SheetBody",
    "ClaimBody",
    "SitBody",
    "ClockBody",
    "AccountBody",
    "DeleteAccountBody",
    "parse_inbound",
    "parse_lobby",
    "parse_body",
    "MAX_CHAT_CHARS",
    "read_json",
    "plain_text",
    "error_message",
    "hint_message",
    "INBOUND_TYPES",
    "ReviewMsg",
    "ReviewQuery",
    "parse_query",
    "MIN_REVIEW_BUDGET_MS",
    "MAX_REVIEW_BUDGET_MS",
]

INBOUND_TYPES = (
    "action",
    "next_deal",
    "client_seed",
    "suggest",
    "chat",
    "rematch",
    "resign",
    "claim",
    "hint",
    "review",
    "sync",
    "ping",
    "set_lang",
)


# -- the WebSocket messages -----------------------------------------------------------------

MessageId = Annotated[StrictStr, Field(max_length=64)] | Annotated[StrictInt, Field(ge=-MAX_INT, le=MAX_INT)] | None


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
    (:meth:`ginrummy.web.room.lobby.Room.say_in_lobby`, which refuses a guest's line without
    ``name``: :func:`lobby_guest_name_help`)."""

    type: Literal["chat"] = "chat"
    name: Annotated[StrictStr, Field(min_length=1, max_length=24, pattern=r"\S")] | None = None
    text: Annotated[StrictStr, Field(min_length=1, max_length=MAX_MESSAGE_BYTES)]


class RematchMsg(_Msg):
    """Ask for a rematch once the match is over."""

    type: Literal["rematch"] = "rematch"


class ResignMsg(_Msg):
    """Resign the match (docs/protocol.md, "Leaving and resigning")."""

    type: Literal["resign"] = "resign"


class ClaimMsg(_Msg):
    """Claim the win: the opponent is away past the grace period."""

    type: Literal["claim"] = "claim"


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


Inbound = (
    ActionMsg
    | NextDealMsg
    | ClientSeedMsg
    | SuggestMsg
    | ChatMsg
    | RematchMsg
    | ResignMsg
    | ClaimMsg
    | HintMsg
    | ReviewMsg
    | SyncMsg
    | PingMsg
    | SetLangMsg
)

_MODELS: dict[str, type[_Msg]] = {
    "action": ActionMsg,
    "next_deal": NextDealMsg,
    "client_seed": ClientSeedMsg,
    "suggest": SuggestMsg,
    "chat": ChatMsg,
    "rematch": RematchMsg,
    "resign": ResignMsg,
    "claim": ClaimMsg,
    "hint": HintMsg,
    "review": ReviewMsg,
    "sync": SyncMsg,
    "ping": PingMsg,
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
    "client_seed": lambda: W_(
        'a client_seed message needs "deal": the deal number, and "seed": 1 to {limit} characters of A-Z a-z 0-9 _ -',
        limit=CLIENT_SEED_MAX_CHARS,
    ),
}


# a text that plain_text() emptied: it held characters, but none that shows
_INVISIBLE_HELP: dict[str, Any] = {
    "suggest": lambda: W_(
        'a suggest message needs "text" with something visible: its invisible characters (such as '
        "zero-width spaces) were left out, and nothing visible remained"
    ),
    "chat": lambda: W_(
        'a chat message needs "text" with something visible: its invisible characters (such as '
        "zero-width spaces) were left out, and nothing visible remained"
    ),
}


def lobby_name_help() -> Msg:
    """The error for a lobby chat message whose ``name`` is missing, too long or only spaces
    (the schema's, and :meth:`~ginrummy.web.room.lobby.Room.say_in_lobby`'s once folded)."""
    return W_('a lobby chat message needs "name": your name, 1 to 24 characters, not only spaces')


def lobby_guest_name_help() -> Msg:
    """The error for a guest's lobby chat message without ``name`` (a signed-in person's may
    leave it out: :meth:`~ginrummy.web.room.lobby.Room.say_in_lobby`)."""
    return W_(
        'a guest\'s lobby chat message needs "name": your name, 1 to 24 characters, not only spaces '
        "(signed in, you chat under your account's name and need none)"
    )


def _read_id(data: dict[str, Any]) -> Any:
    mid = data.get("id")
    if mid is None:
        return None
    if (
        isinstance(mid, bool)
        or not isinstance(mid, (str, int))
        or len(str(mid)) > 64
        or (isinstance(mid, int) and abs(mid) > MAX_INT)
    ):
        raise WebError(ErrorCode.BAD_MESSAGE, W_("id must be a string or an integer of at most 64 characters"))
    return mid


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_inbound(raw: str | bytes, models: dict[str, type[_Msg]] | None = None) -> Inbound:
    """Read one inbound WebSocket message (see the module docstring).

    Raises :class:`WebError`: ``too_large`` above :data:`MAX_MESSAGE_BYTES` bytes,
    ``bad_json`` if it is not a JSON object (or nests deeper than :data:`MAX_MESSAGE_DEPTH`),
    ``bad_message`` for an unknown ``type``, an unknown or missing field, or a field of the
    wrong type or size.
    """
    models = _MODELS if models is None else models
    data = read_json(raw, limit=MAX_MESSAGE_BYTES, max_depth=MAX_MESSAGE_DEPTH)
    if not isinstance(data, dict):
        raise WebError(
            ErrorCode.BAD_JSON, W_("message must be a JSON object such as {example}", example='{"type": "sync"}')
        )
    mid = _read_id(data)
    kind = data.get("type")
    if "type" not in data:
        raise WebError(
            ErrorCode.BAD_MESSAGE, W_('a message needs "type": one of {types}', types=", ".join(models)), mid
        )
    if not isinstance(kind, str) or kind not in models:
        raise WebError(
            ErrorCode.BAD_MESSAGE,
            W_(
                "unknown message type {kind!r}; types: {types}",
                kind=_short(kind) if not isinstance(kind, str) else kind[:40],
                types=", ".join(models),
            ),
            mid,
        )
    model = models[kind]
    extra = set(data) - set(model.model_fields)
    if extra:
        raise WebError(
            ErrorCode.BAD_MESSAGE,
            W_(
                "unknown field(s) {extra} in the {kind} message; fields: {fields}",
                extra=", ".join(sorted(x[:40] for x in extra)),
                kind=kind,
                fields=", ".join(sorted(model.model_fields)),
            ),
            mid,
        )
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
        raise WebError(
            ErrorCode.BAD_MESSAGE,
            help_() if help_ else W_("a {kind} message has only the fields {fields}", kind=kind, fields="type, id"),
            mid,
        ) from None
    if isinstance(msg, SuggestMsg) and len(msg.text) > MAX_SUGGESTION_CHARS:
        raise WebError(
            ErrorCode.BAD_MESSAGE, W_("a suggestion has at most {limit} characters", limit=MAX_SUGGESTION_CHARS), mid
        )
    if isinstance(msg, (ChatMsg, LobbyChatMsg)) and len(msg.text) > MAX_CHAT_CHARS:
        raise WebError(
            ErrorCode.BAD_MESSAGE, W_("a chat message has at most {limit} characters", limit=MAX_CHAT_CHARS), mid
        )
    if isinstance(msg, SetLangMsg) and msg.lang not in LANGUAGES:
        raise WebError(ErrorCode.BAD_MESSAGE, _FIELD_HELP["set_lang"](), mid)
    return msg  # type: ignore[return-value]  # one of the models of ``models``: an Inbound


def parse_lobby(raw: str | bytes) -> Inbound:
    """Read one message of the lobby WebSocket: ``chat`` (with ``name``) or ``ping``; errors as
    :func:`parse_inbound`."""
    return parse_inbound(raw, _LOBBY_MODELS)
