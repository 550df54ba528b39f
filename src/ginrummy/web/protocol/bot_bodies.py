"""The JSON bodies of the bot API and of bot accounts' management (docs/bot-api.md): pydantic
models with every field bounded, read with :func:`~ginrummy.web.protocol.bodies.parse_body`."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictStr

from .bodies import NAME_FIELD_RULES, NAME_SENT_MAX, _Body  # one base for every body: parse_body reads them all alike

__all__ = ["MakeBotBody", "TokenBody", "SeekBody", "ChallengeBody", "BotChatBody"]


class MakeBotBody(_Body):
    """``POST /api/bots``: the ``name`` and ``password`` of the fresh account to turn into a bot."""

    name: Annotated[StrictStr, Field(max_length=NAME_SENT_MAX)]
    password: Annotated[StrictStr, Field(max_length=1000)]

    FIELD_RULES = NAME_FIELD_RULES


class TokenBody(_Body):
    """``POST /api/bots/{name}/tokens``: the token's ``name`` (1-40 characters) and ``scopes``
    (some of ``play``, ``challenge``, ``chat``)."""

    name: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    scopes: Annotated[list[Annotated[StrictStr, Field(max_length=20)]], Field(min_length=1, max_length=3)]


class SeekBody(_Body):
    """``POST /api/bot/seek``: the ``preset`` (R13) and whether the table is ``rated``."""

    preset: Annotated[StrictStr, Field(max_length=40)] = "standard"
    rated: bool = False


class ChallengeBody(_Body):
    """``POST /api/bot/challenge`` and ``POST /api/challenges``: ``to`` (an account's name) or
    ``level`` (a computer level: the bot API only), the ``preset`` (R13) and ``rated``."""

    to: Annotated[StrictStr, Field(max_length=100)] | None = None
    level: Annotated[StrictStr, Field(max_length=40)] | None = None
    preset: Annotated[StrictStr, Field(max_length=40)] = "standard"
    rated: bool = False


class BotChatBody(_Body):
    """``POST /api/bot/tables/{id}/chat``: one line of ``text`` (1-500 characters)."""

    text: Annotated[StrictStr, Field(min_length=1, max_length=500)]
