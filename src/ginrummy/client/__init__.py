"""A Python client for the web card room (``gin serve``): a program at a seat of a table.

:class:`SeatClient` speaks the table's WebSocket protocol (docs/protocol.md) as the browser's
table page does, with the same fair-deal client seeds (:class:`FairDeals`), and lets a
:class:`~ginrummy.players.Player` (:class:`PlayerDecider`, any level by name or a
``module:Class``) or an external program (:class:`CommandDecider`) choose the moves.
``gin bot`` (``ginrummy.cli.bot``) is its command; docs/bot-api.md describes both.

This layer may import the engine and the players; never the web package (it talks to the server
only over the network).
"""

from __future__ import annotations

from .api import ACCEPT_POLICIES, ApiError, BotApi, GamePlan, serve_games
from .deciders import CommandDecider, Decider, DeciderError, PlayerDecider, load_player, read_answer
from .fair import DealCheck, FairDeals
from .link import LinkError, SeatLink, claim_invite, download_record, parse_link
from .session import ClientError, MatchOutcome, SeatClient, backoff
from .views import ViewError, agent_json, view_from_state

__all__ = [
    "BotApi",
    "ApiError",
    "GamePlan",
    "serve_games",
    "ACCEPT_POLICIES",
    "SeatClient",
    "MatchOutcome",
    "ClientError",
    "backoff",
    "Decider",
    "PlayerDecider",
    "CommandDecider",
    "DeciderError",
    "load_player",
    "read_answer",
    "FairDeals",
    "DealCheck",
    "SeatLink",
    "parse_link",
    "claim_invite",
    "download_record",
    "LinkError",
    "view_from_state",
    "agent_json",
    "ViewError",
]
