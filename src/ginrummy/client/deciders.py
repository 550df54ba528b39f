"""Who chooses the move at a seat: a :class:`~ginrummy.players.Player` (a level by name, or a
``module:Class``) or an external program that reads JSON lines (``gin bot --command``,
docs/bot-api.md).

A decider is an object with ``async decide(view, data, error) -> Action`` (``view`` the
rebuilt :class:`~ginrummy.views.PlayerView`, ``data`` the JSON the program gets,
``error`` the server's refusal of the previous answer or ``None``) and ``async close()``.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import random
import shlex
from typing import Any, Protocol

from ..actions import Action
from ..errors import IllegalActionError
from ..players import Player, make_player
from ..text_view import MAX_REPLY_CHARS, parse_reply
from ..views import PlayerView

__all__ = ["Decider", "PlayerDecider", "CommandDecider", "load_player", "read_answer", "DeciderError"]


class DeciderError(RuntimeError):
    """The decider could not answer at all (the program ended, or said nothing in time)."""


class Decider(Protocol):
    """Chooses one of ``view.legal``."""

    async def decide(self, view: PlayerView, data: dict[str, Any], error: str | None) -> Action:
        """The move to send; ``error`` is the server's refusal of the last answer, if any."""
        ...

    async def close(self) -> None:
        """Release what the decider holds (a program is ended)."""
        ...


def load_player(spec: str, seed: int | None = None) -> Player:
    """A :class:`Player`: a level name (``novice``, ``expert``; :func:`~ginrummy.players.make_player`)
    or ``package.module:Class`` (called with a ``random.Random``, as the level factories are).
    Raises ``ValueError`` naming the levels, or what could not be imported."""
    if ":" not in spec:
        return make_player(spec, random.Random(seed))
    mod, _, name = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(mod), name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load the player {spec!r}: {exc}") from exc
    player = factory(random.Random(seed))
    if not callable(getattr(player, "choose", None)):
        raise ValueError(f"{spec!r} made {player!r}, which has no choose(view, legal) method")
    return player


class PlayerDecider:
    """A :class:`Player` at the seat; its ``choose`` runs in a thread (an expert thinks for a while)."""

    def __init__(self, player: Player) -> None:
        self.player = player

    async def decide(self, view: PlayerView, data: dict[str, Any], error: str | None) -> Action:
        """``player.choose(view, view.legal)``."""
        return await asyncio.to_thread(self.player.choose, view, list(view.legal))

    async def close(self) -> None:
        """Nothing to release."""


def read_answer(line: str, legal: list[Action]) -> Action:
    """The move a program's answer line chooses: an action code (digits: one of ``legal_codes``,
    the codes of :attr:`Action.code`), else the move's text or a free-text answer read by
    :func:`ginrummy.text_view.parse_reply` (``discard 7H``, ``knock 7H``).  Raises
    :class:`IllegalActionError` naming the answer and the legal moves."""
    text = line.strip()
    if text.isdigit() and len(text) <= 4:
        code = int(text)
        for a in legal:
            if a.code == code:
                return a
        shown = ", ".join(f"{a.code} ({a.text})" for a in legal)
        raise IllegalActionError(
            f"action code {code} is not legal now; legal codes: {shown}", text, [a.text for a in legal]
        )
    return parse_reply(text[:MAX_REPLY_CHARS], legal)


class CommandDecider:
    """An external program: it is started once (``command``, split as a shell would, run
    without a shell), and for each decision it is sent one line, the JSON ``data`` (the view in
    ``to_json(agent=True)`` form; after a refused answer with ``"error"`` added), and must answer
    one line within ``timeout`` seconds (:func:`read_answer`)."""

    def __init__(self, command: str, timeout: float = 60.0) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("--command is empty; give the program to run, e.g. --command 'python my_bot.py'")
        self.timeout = timeout
        self.proc: asyncio.subprocess.Process | None = None
        self.sent: list[str] = []

    async def _start(self) -> asyncio.subprocess.Process:
        if self.proc is None or self.proc.returncode is not None:
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
            )
        return self.proc

    async def decide(self, view: PlayerView, data: dict[str, Any], error: str | None) -> Action:
        """Send ``data`` (plus ``error``) as one line and read the answer line."""
        proc = await self._start()
        assert proc.stdin is not None and proc.stdout is not None
        payload = dict(data, error=error) if error else data
        line = json.dumps(payload, separators=(",", ":"))
        self.sent.append(line)
        try:
            proc.stdin.write(line.encode() + b"\n")
            await proc.stdin.drain()
            answer = await asyncio.wait_for(proc.stdout.readline(), self.timeout)
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise DeciderError(f"the program {self.argv[0]!r} ended (exit {proc.returncode})") from exc
        except TimeoutError as exc:
            raise DeciderError(f"the program {self.argv[0]!r} did not answer within {self.timeout:g} s") from exc
        if not answer:
            raise DeciderError(f"the program {self.argv[0]!r} closed its output (exit {proc.returncode})")
        return read_answer(answer.decode("utf-8", "replace"), list(view.legal))

    async def close(self) -> None:
        """Close the program's input and wait for it briefly; kill it if it stays."""
        proc, self.proc = self.proc, None
        if proc is None or proc.returncode is not None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 5)
        except TimeoutError:
            proc.kill()
            await proc.wait()
