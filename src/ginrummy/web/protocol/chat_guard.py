"""Who sees whose chat: blocks and mutes (``docs/accounts.md``, "Block, mute, report").

A chat line posted by a signed-in person is noted with his account (:meth:`ChatGuard.note`);
every connection of a signed-in person is noted with his account (:attr:`ChatGuard.viewers`).
A line is then kept from each viewer who blocked or muted its sender, or whom its sender
blocked: in the live ``chat`` message, in the chat log of every ``state`` and in the lobby's.
The relations are read from the database at each line and each state that holds a signed-in
sender's line (:attr:`ChatGuard.kept_from`, :attr:`ChatGuard.hidden_for`, set by the players'
ladder), so a block made on another server process holds at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["ChatGuard", "LOBBY"]

LOBBY = ""
"""The key of the lobby chat in :attr:`ChatGuard.by` (a table's key is its id)."""


class ChatGuard:
    """The senders' accounts of the kept chat lines and the viewers' accounts."""

    def __init__(self) -> None:
        self.viewers: dict[Any, int] = {}
        """A connection's ``send`` -> the account id of the person signed in on it."""
        self.by: dict[str, dict[int, int]] = {}
        """Table id (or :data:`LOBBY`) -> ``{id(line): sender's account id}`` for the lines kept."""
        self.kept_from: Callable[[int], set[int]] | None = None
        """Sender's account id -> the accounts that must not see his lines."""
        self.hidden_for: Callable[[int], set[int]] | None = None
        """Viewer's account id -> the accounts whose lines he must not see."""

    def note(self, key: str, kept: list[dict[str, Any]], line: dict[str, Any], account: int | None) -> None:
        """Note that ``line`` (now among ``kept``, the lines kept of table ``key``) was posted
        by ``account``; forget the lines no longer kept."""
        by = self.by.setdefault(key, {})
        live = {id(e) for e in kept}
        for k in [k for k in by if k not in live]:
            del by[k]
        # set or cleared in any case: a line dropped earlier may have left its id to this one
        if account is not None:
            by[id(line)] = account
        else:
            by.pop(id(line), None)
        if not by:
            self.by.pop(key, None)

    def kept_from_line(self, account: int | None) -> set[int]:
        """The accounts a new line of ``account`` (``None``: a guest's) is kept from."""
        if account is None or self.kept_from is None:
            return set()
        return self.kept_from(account)

    def shown(self, key: str, lines: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
        """``lines`` of table ``key`` as ``viewer`` (an account id, or ``None``) may see them."""
        by = self.by.get(key)
        if viewer is None or not by or self.hidden_for is None:
            return lines
        senders = {by[id(e)] for e in lines if id(e) in by} - {viewer}
        if not senders:
            return lines
        hidden = self.hidden_for(viewer) & senders
        if not hidden:
            return lines
        return [e for e in lines if by.get(id(e)) not in hidden]

    def for_viewer(self, key: str, send: Any, msg: dict[str, Any]) -> dict[str, Any]:
        """``msg`` as the connection ``send`` may see it: a ``state`` without the chat lines
        kept from its person (a copy that shares the cached parts), else ``msg`` itself."""
        viewer = self.viewers.get(send)
        if viewer is None or not msg.get("chat") or msg.get("type") != "state":
            return msg
        lines = self.shown(key, msg["chat"], viewer)
        if lines is msg["chat"]:
            return msg
        out = type(msg)(msg)
        if hasattr(msg, "fragments"):
            out.fragments = msg.fragments  # type: ignore[attr-defined]
        out["chat"] = lines
        return out

    def drop(self, lines: list[dict[str, Any]], text: str, sender: str | None) -> list[dict[str, Any]]:
        """Remove from ``lines`` (in place) those saying ``text`` from ``sender`` (a moderator
        deleted the message); returns the lines removed."""
        gone = [e for e in lines if e.get("text") == text and (sender is None or e.get("from") == sender)]
        for e in gone:
            lines.remove(e)
        return gone
