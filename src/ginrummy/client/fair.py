"""The fair-deal client seed and its check, as the table page does it (``web/static/fair.js``,
``docs/fair-check.md``), for a program at a seat.

One seed per deal: the first one sent for deal K (16 random bytes as 32 hex digits, or one
given) is the only one ever sent for it, re-sent unchanged while the server's
``fair.pending.yours`` does not show it.  The deal's commitment is kept before the seed is
first sent.  While the deal is on, what this seat saw is kept (its ten dealt cards, the upcard,
each card it drew from the stock and the stock size before the draw, the pile at each
reshuffle, R7.3); once the server reveals the deal seed, the deck is recomputed with the
engine's own functions (:func:`ginrummy.match.deck_seed`, :func:`ginrummy.deal.deck_from_seed`,
:func:`ginrummy.deal.seeded_shuffle`) and every card checked.  Once the match is over (by the
rules, or by a forfeit: resigned, left, on time) the server reveals the match seed
(``fair.match_seed``): it is checked against the table's seed commitment first seen, and
every deal not checked yet, the one a forfeit stopped included, is checked with its deal seed
SHA-256(match seed || "/deal/" || k) (``docs/record-format.md``).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cards import card_str, parse_card
from ..deal import deck_from_seed, seeded_shuffle
from ..match import commitment, deal_seed, deck_seed

__all__ = ["FairDeals", "Observed", "DealCheck", "RESEND_SECONDS", "STOCK_AT_START"]

#: The page re-sends the same seed at most this often while the server does not show it.
RESEND_SECONDS = 3.0
#: The stock at the start of a deal: 52 - 10 - 10 - the upcard (R3.2).
STOCK_AT_START = 31


@dataclass
class Observed:
    """What this seat saw of one deal (the fields of fair.js's ``observed``)."""

    commitment: str | None = None
    client_seed: str | None = None
    sends: int = 0
    player: int | None = None
    dealer: bool | None = None
    hand: list[str] | None = None
    upcard: str | None = None
    draws: list[dict[str, Any]] = field(default_factory=list)
    reshuffles: list[list[str]] = field(default_factory=list)


@dataclass(frozen=True)
class DealCheck:
    """The check of one revealed deal: ``ok`` is ``True`` when every check passed, ``False``
    when one failed, ``None`` when one could not be made; ``problems`` names each failure."""

    deal: int
    ok: bool | None
    problems: tuple[str, ...]


class FairDeals:
    """The client-seed half of "a deal no one controls" for one seat of one table.

    ``new_seed``: makes a fresh seed (default ``secrets.token_hex(16)``); ``clock``: seconds
    (default ``time.monotonic``), for the re-send interval only."""

    def __init__(self, new_seed: Callable[[], str] | None = None, clock: Callable[[], float] | None = None) -> None:
        self.new_seed = new_seed or (lambda: secrets.token_hex(16))
        self.clock = clock or time.monotonic
        self.observed: dict[int, Observed] = {}
        self.sent_at: dict[int, float] = {}
        self.checks: dict[int, DealCheck] = {}
        self.warnings: list[str] = []
        self.match_commitment: str | None = None
        """The table's seed commitment (``fair.commitment``) as first seen."""
        self.match_seed_checked = False

    def _obs(self, k: int) -> Observed:
        return self.observed.setdefault(k, Observed())

    def seed_message(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The ``client_seed`` message to send now for ``state`` (a ``state`` message), or
        ``None``: when a deal waits for this seat's seed (``fair.pending.yours`` null) and the
        seed was not sent in the last :data:`RESEND_SECONDS`.  The pending commitment is kept
        before the first send; the seed of a deal never changes."""
        fair = state.get("fair") or {}
        pending = fair.get("pending")
        if not pending or state.get("you") is None:
            return None
        k = int(pending["deal"])
        obs = self._obs(k)
        if obs.commitment is None:
            obs.commitment = pending.get("commitment")
        obs.player = state["you"]
        if obs.client_seed is None:
            obs.client_seed = self.new_seed()
        yours = pending.get("yours")
        if yours is not None:
            if yours != obs.client_seed:
                self._warn(
                    f"deal {k}: the server shows {yours} as this seat's client seed, but it sent {obs.client_seed}"
                )
            return None
        now = self.clock()
        if k in self.sent_at and now - self.sent_at[k] < RESEND_SECONDS:
            return None
        self.sent_at[k] = now
        obs.sends += 1
        return {"type": "client_seed", "deal": k, "seed": obs.client_seed}

    def _warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    def observe(self, state: dict[str, Any]) -> None:
        """Keep what this seat sees of the deal in progress (its dealt hand, the upcard, its
        stock draws, the pile at each reshuffle).  A hand or upcard once kept is never replaced."""
        v = state.get("view")
        deal = state.get("deal")
        if not v or not deal or state.get("seat") is None or v.get("seat") is None:
            return
        obs = self._obs(int(deal["number"]))
        me = str(v["seat"])
        stock, r = STOCK_AT_START, 0
        pile = [v["upcard"]] if v.get("upcard") else []
        draws, piles = [], []
        dealt = set(v["hand"])
        for h in v.get("history") or []:
            parts = h.split(" ")
            if parts[0] == "reshuffle":
                r += 1
                piles.append(pile[:-1])
                stock = len(pile) - 1
                pile = pile[-1:]
                continue
            kind = " ".join(parts[1:3])
            mine = parts[0] == me
            if kind == "draw stock":
                if mine and len(parts) > 3:
                    draws.append({"card": parts[3], "stock_before": stock, "reshuffle": r})
                    dealt.discard(parts[3])
                stock -= 1
            elif kind in ("take upcard", "take discard"):
                if pile:
                    taken = pile.pop()
                    if mine:
                        dealt.discard(taken)
            elif len(parts) > 2 and parts[1] in ("discard", "knock", "gin"):
                pile.append(parts[2])
                if mine:
                    dealt.add(parts[2])
        if obs.hand is None and len(dealt) == 10:
            obs.hand = sorted(dealt)
            obs.dealer = v["dealer"] == v["seat"]
        if obs.upcard is None and v.get("upcard"):
            obs.upcard = v["upcard"]
        obs.player = state.get("you")
        obs.draws = draws
        obs.reshuffles = piles

    def check_revealed(self, state: dict[str, Any]) -> list[DealCheck]:
        """Check each deal of ``state["deals"]`` that is revealed (its ``seed`` sent) and not
        checked yet, and, once ``fair.match_seed`` is revealed, the match seed and every deal
        (:meth:`check_match_seed`); returns the new checks (also kept in :attr:`checks`)."""
        fair = state.get("fair") or {}
        if self.match_commitment is None and fair.get("commitment"):
            self.match_commitment = str(fair["commitment"]).lower()
        out = []
        for d in state.get("deals") or []:
            k = d.get("number")
            if not d.get("revealed") or not d.get("seed") or k in self.checks:
                continue
            c = self.check(k, d["seed"], d.get("client_seeds"), d.get("commitment"))
            self.checks[k] = c
            out.append(c)
        if fair.get("match_seed") and not self.match_seed_checked:
            self.match_seed_checked = True
            out += self.check_match_seed(str(fair["match_seed"]), state.get("deals") or [])
        return out

    def check_match_seed(self, seed_hex: str, deals: list[dict[str, Any]]) -> list[DealCheck]:
        """Check the revealed match seed ``seed_hex`` against :attr:`match_commitment`, then each
        of ``deals`` (``state["deals"]``) with its deal seed SHA-256(match seed || "/deal/" || k):
        a revealed deal seed must be that one; a deal not checked yet (the one a forfeit stopped,
        whose seed the server does not send on its own) is checked as :meth:`check` does.  A
        failure of the match seed itself is a check of deal 0.  Returns the new checks."""
        try:
            seed = bytes.fromhex(seed_hex)
        except ValueError:
            seed = b""
        if not seed or (self.match_commitment is not None and commitment(seed) != self.match_commitment):
            c = DealCheck(0, False, ("the revealed match seed is not the one the table's seed commitment was made of",))
            self.checks[0] = c
            return [c]
        out = []
        for d in deals:
            k = d.get("number")
            if not isinstance(k, int) or k < 1:
                continue
            derived = deal_seed(seed, k).hex()
            if d.get("seed") and str(d["seed"]).lower() != derived:
                c = DealCheck(k, False, ('the revealed deal seed is not SHA-256(match seed || "/deal/" || k)',))
            elif k in self.checks:
                continue
            else:
                c = self.check(k, derived, d.get("client_seeds"), d.get("commitment"))
            self.checks[k] = c
            out.append(c)
        return out

    def check(self, k: int, seed_hex: str, client_seeds: list[str] | None, shown: str | None = None) -> DealCheck:
        """Check deal ``k`` revealed with server seed ``seed_hex`` and ``client_seeds`` against
        what this seat saw (fair-check.md, "The checks of checkDeal")."""
        obs = self._obs(k)
        problems: list[str] = []
        unknown = False
        try:
            server = bytes.fromhex(seed_hex)
        except ValueError:
            return DealCheck(k, False, ("the revealed seed is not hex",))
        h = commitment(server)
        if obs.commitment is None:
            unknown = True
        elif h != obs.commitment.lower():
            problems.append("SHA-256 of the revealed seed is not the commitment seen before the seed was sent")
        if shown and h != shown.lower():
            problems.append("SHA-256 of the revealed seed is not the deal's commitment")
        if obs.client_seed is not None and obs.player is not None:
            used = client_seeds[obs.player] if client_seeds and obs.player < len(client_seeds) else None
            if used != obs.client_seed:
                problems.append(
                    f"the deal did not use this seat's client seed ({used!r} instead of {obs.client_seed!r})"
                )
        try:
            dseed = deck_seed(server, client_seeds)
        except ValueError:
            return DealCheck(k, False, tuple(problems) + ("the revealed values do not give a deck",))
        deck = [card_str(c) for c in deck_from_seed(dseed)]
        if obs.hand:
            dealt = deck[10:20] if obs.dealer else deck[0:10]
            if sorted(dealt) != sorted(obs.hand):
                problems.append("the ten cards dealt are not the ones this seed deals")
        if obs.upcard and obs.upcard != deck[20]:
            problems.append(f"the upcard {obs.upcard} is not the one this seed gives ({deck[20]})")
        rebuilt: dict[int, list[str]] = {}
        for dr in obs.draws:
            r = dr["reshuffle"]
            if r == 0:
                pos = 21 + (STOCK_AT_START - dr["stock_before"])
                expected = deck[pos] if 21 <= pos <= 51 else None
            else:
                pile = obs.reshuffles[r - 1] if r - 1 < len(obs.reshuffles) else None
                if pile is None:
                    unknown = True
                    continue
                if r not in rebuilt:
                    rs = hashlib.sha256(dseed + b"/reshuffle/" + str(r).encode()).digest()
                    rebuilt[r] = [card_str(c) for c in seeded_shuffle([parse_card(c) for c in pile], rs)]
                m = len(pile) - dr["stock_before"]
                expected = rebuilt[r][m] if 0 <= m < len(rebuilt[r]) else None
            if expected != dr["card"]:
                problems.append(f"the card drawn, {dr['card']}, is not the one this seed gives ({expected})")
        ok: bool | None = False if problems else (None if unknown else True)
        return DealCheck(k, ok, tuple(problems))
