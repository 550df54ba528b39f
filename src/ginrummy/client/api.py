"""The bot API's client side (docs/bot-api.md): :class:`BotApi` calls a ``gin serve`` server's
``/api/bot/...`` routes with a bot account's API token, and :func:`serve_games` is the loop of
``gin bot --server URL --token T``: wait for challenges (accepting them by a policy) or seek
or challenge, and play each game's seat with a :class:`~ginrummy.client.session.SeatClient`.

The token is sent only in the ``Authorization`` header, never logged nor put in a URL.
"""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from .deciders import Decider
from .link import LinkError, SeatLink, parse_link
from .session import MatchOutcome, SeatClient

__all__ = ["BotApi", "ApiError", "ACCEPT_POLICIES", "GamePlan", "serve_games"]

log = logging.getLogger("ginrummy.client")
_HTTP_TIMEOUT = 20.0
ACCEPT_POLICIES = ("all", "none", "rated", "casual", "people", "bots")
"""Which challenges ``gin bot --server`` accepts: every one, none, rated or casual ones only,
those from people or from bots only; the others are declined."""


class ApiError(Exception):
    """An answer of the bot API that is an error: ``status``, ``code`` and the server's words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code = status, code


class BotApi:
    """The bot API of the server at ``server`` (``http(s)://HOST``) with API ``token``."""

    def __init__(self, server: str, token: str) -> None:
        u = urllib.parse.urlsplit(server.strip())
        if u.scheme not in ("http", "https") or not u.netloc:
            raise LinkError(f"--server is http(s)://HOST[:PORT], not {server[:80]!r}")
        self.base = f"{u.scheme}://{u.netloc}"
        self._token = token

    def __repr__(self) -> str:
        return f"BotApi({self.base!r}, token=***)"

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """One call: the JSON answer.  Raises :class:`ApiError` for an error answer and
        :class:`LinkError` when the server cannot be reached."""
        headers = {"Authorization": f"Bearer {self._token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=_HTTP_TIMEOUT) as r:
                return dict(json.loads(r.read()))
        except urllib.error.HTTPError as exc:
            try:
                answer = json.loads(exc.read() or b"{}")
            except ValueError:
                answer = {}
            raise ApiError(exc.code, str(answer.get("code", "")), str(answer.get("error", ""))) from None
        except (urllib.error.URLError, OSError) as exc:
            raise LinkError(f"cannot reach {self.base}: {exc}") from None

    def account(self) -> dict[str, Any]:
        """``GET /api/bot/account``: the bot's name, kind, rating and the token's scopes."""
        return self.call("GET", "/api/bot/account")

    def events(self, since: int = 0) -> dict[str, Any]:
        """``GET /api/bot/events?since=N``: ``{"events", "last"}``."""
        return self.call("GET", f"/api/bot/events?since={int(since)}")

    def challenges(self) -> list[dict[str, Any]]:
        """``GET /api/bot/challenges``: the open challenges to the bot."""
        return list(self.call("GET", "/api/bot/challenges")["challenges"])

    def seek(self, preset: str = "standard", rated: bool = False) -> dict[str, Any]:
        """``POST /api/bot/seek``: the bot's seat at a new open table of the lobby."""
        return self.call("POST", "/api/bot/seek", {"preset": preset, "rated": rated})

    def challenge(
        self, to: str | None = None, level: str | None = None, preset: str = "standard", rated: bool = False
    ) -> dict[str, Any]:
        """``POST /api/bot/challenge``: a level's table (the bot's seat) or an account's challenge."""
        body: dict[str, Any] = {"preset": preset, "rated": rated}
        body.update({"to": to} if to is not None else {"level": level})
        return self.call("POST", "/api/bot/challenge", body)

    def accept(self, challenge_id: str) -> dict[str, Any]:
        """``POST /api/bot/challenge/ID/accept``: the bot's seat."""
        return self.call("POST", f"/api/bot/challenge/{urllib.parse.quote(challenge_id, safe='')}/accept")

    def decline(self, challenge_id: str) -> dict[str, Any]:
        """``POST /api/bot/challenge/ID/decline``."""
        return self.call("POST", f"/api/bot/challenge/{urllib.parse.quote(challenge_id, safe='')}/decline")

    def chat(self, table: str, text: str) -> dict[str, Any]:
        """``POST /api/bot/tables/ID/chat``: say ``text`` at the bot's table."""
        return self.call("POST", f"/api/bot/tables/{urllib.parse.quote(table, safe='')}/chat", {"text": text})


def accepts(policy: str, challenge: dict[str, Any]) -> bool:
    """Whether :data:`ACCEPT_POLICIES` ``policy`` accepts ``challenge`` (an event's)."""
    return {
        "all": True,
        "none": False,
        "rated": bool(challenge.get("rated")),
        "casual": not challenge.get("rated"),
        "people": challenge.get("from_kind") == "human",
        "bots": challenge.get("from_kind") == "bot",
    }[policy]


@dataclass
class GamePlan:
    """What ``gin bot --server`` does: ``games`` to play (0: until stopped), ``accept`` policy,
    ``seek`` an open table or ``challenge`` an account or a level (``LEVELS``) before each
    game, with ``preset`` and ``rated``; ``poll`` seconds between event reads."""

    games: int = 1
    accept: str = "all"
    seek: bool = False
    challenge: str | None = None
    preset: str = "standard"
    rated: bool = False
    poll: float = 0.5
    levels: tuple[str, ...] = ()
    outcomes: list[MatchOutcome] = field(default_factory=list)
    links: list[SeatLink] = field(default_factory=list)
    """Each game's seat link (for its record: :func:`~ginrummy.client.link.download_record`)."""


async def serve_games(
    api: BotApi,
    plan: GamePlan,
    decider: Callable[[], Decider],
    chat: str | None = None,
    transcript: TextIO | None = None,
) -> GamePlan:
    """Play ``plan.games`` games through ``api`` (each with a new ``decider()``; ``chat`` said
    at each table; every message written to ``transcript``, as :class:`SeatClient` does);
    returns ``plan`` with each game's outcome and seat link.  Raises :class:`ApiError` or
    :class:`LinkError`."""
    since = (await asyncio.to_thread(api.events, 0))["last"]
    handled: set[str] = set()
    while plan.games == 0 or len(plan.outcomes) < plan.games:
        seat: dict[str, Any] | None = None
        if plan.seek:
            seat = await asyncio.to_thread(api.seek, plan.preset, plan.rated)
        elif plan.challenge is not None and plan.challenge in plan.levels:
            seat = await asyncio.to_thread(api.challenge, None, plan.challenge, plan.preset, plan.rated)
        elif plan.challenge is not None:
            await asyncio.to_thread(api.challenge, plan.challenge, None, plan.preset, plan.rated)
        # the open challenges (some may be events read already, or received before this started)
        waiting = [{"type": "challenge", "challenge": c} for c in await asyncio.to_thread(api.challenges)]
        while seat is None:
            got = await asyncio.to_thread(api.events, since)
            for ev in waiting + got["events"]:
                since = max(since, ev.get("seq", 0))  # the events after a break are read next time
                if ev["type"] == "challenge" and ev["challenge"]["id"] not in handled:
                    c = ev["challenge"]
                    handled.add(c["id"])
                    if accepts(plan.accept, c):
                        log.info("accepting challenge %s from %s", c["id"], c["from"])
                        seat = await asyncio.to_thread(api.accept, c["id"])
                        break
                    log.info("declining challenge %s from %s", c["id"], c["from"])
                    await asyncio.to_thread(api.decline, c["id"])
                elif ev["type"] == "game_start" and ev.get("id") is not None and ev["seat"] == 0:
                    seat = ev  # our challenge was accepted
                    break
                elif ev["type"] == "challenge_declined" and plan.challenge is not None:
                    raise ApiError(403, "declined", f"{plan.challenge} declined the challenge")
            waiting = []
            if seat is None:
                await asyncio.sleep(plan.poll)
        log.info("playing table %s, seat %s", seat["table"], seat["seat"])
        client = SeatClient(parse_link(seat["link"]), decider(), chat=chat, transcript=transcript)
        plan.outcomes.append(await client.run())
        plan.links.append(client.link)
    return plan
