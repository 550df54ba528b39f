"""The ``state`` message: what one connection of a table is sent (``docs/protocol.md``).

Built only from ``Match.view(player)`` (or, for a spectator, :func:`ginrummy.views.spectator_json`),
the score sheet, the names and the commitments: a seat never gets the opponent's hidden cards,
the stock order, another person's token, or a seed before :func:`ginrummy.record.revealable`
says its cards are public (a scored deal when it ends, a drawn deal when the match ends); the
match seed once the match is over.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import lru_cache
from typing import Any

from orjson import dumps as _orjson_dumps

from ...cards import CARD_STRS as _CARD_STRS
from ...cards import card_str, cards_of
from ...compete.daily import reveal_at
from ...match import commitment, deal_seed
from ...melds import best_arrangement, deadwood_after_discards
from ...record import revealable
from ...rules import RuleSet
from ...scoring import ScoreSheet
from ...views import spectator_json, view_of
from ..levels import is_bot_kind, seat_level

Table = Any
"""A :class:`ginrummy.web.room.tables.Table`, read by the functions here (the protocol sits below
the room, so it names the table's type without importing it)."""

SPECTATOR = -1
"""The player number of a spectator (he sees only what is public; ``"you": null`` on the wire)."""

__all__ = ["SPECTATOR", "state_message", "match_state", "StateMessage", "dumps", "daily_sealed"]


def _deals(self: Table) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    m = self.match
    if m is None:
        return out
    for i, d in enumerate(m.deals):
        r = d.result
        shown = _revealed(self, d)
        # a deal that is over never changes but for its reveal (a drawn deal at the match's end)
        cached = self.over_deals.get(i)
        if cached is not None and cached[0] is d and cached[1]["revealed"] == shown:
            out.append(dict(cached[1]))
            continue
        entry: dict[str, Any] = {
            "number": d.number,
            "commitment": d.commitment,
            "players": [self.names[p] for p in d.seat_players],
            "dealer": self.names[d.seat_players[d.dealer]],
            "dealer_seat": d.dealer,
            "seat_players": list(d.seat_players),
            "client_seeds": None if d.client_seeds is None else list(d.client_seeds),
            "over": r is not None,
            "revealed": shown,
            # a deal the match's forfeit stopped (time, resigning, leaving): whose forfeit, not "in play"
            "forfeit": None if r is not None or self.forfeit is None else self.names[self.forfeit],
        }
        if shown:
            entry["seed"] = d.seed.hex()
        if r is not None:
            entry.update(
                {
                    "outcome": r.outcome,
                    "points": r.points,
                    "winner": None if r.winner is None else self.names[d.seat_players[r.winner]],
                    "knocker": None if r.knocker is None else self.names[d.seat_players[r.knocker]],
                    "reason": r.reason,
                    "actions": len(d.actions),
                }
            )
            self.over_deals[i] = (d, entry)
        out.append(dict(entry))
    return out


_commitment = lru_cache(maxsize=1024)(commitment)


def daily_sealed(table: Any) -> bool:
    """Whether ``table`` is a game of a daily deal whose day is not over (by the table's clock,
    ``table.runtime.now``): its seeds stay hidden until then, however its game ended, as the
    day's own seed does (``docs/compete.md``): every entrant of the day plays the same deal, so
    its deck -- the stock's order and the computer's hand, which a seed tells -- would help the
    next account that plays it.  A label that is no ``YYYY-MM-DD/N`` (a friend challenge's
    ``duel/...``) is not sealed here."""
    label = table.options.get("daily")
    if not isinstance(label, str) or label.startswith("duel/"):
        return False
    try:
        day = date.fromisoformat(label.split("/", 1)[0])
    except ValueError:
        return True  # a daily table whose day cannot be read: keep its seeds
    return bool(table.runtime.now() < reveal_at(day).timestamp())


def _revealed(self: Table, d: Any) -> bool:
    """Whether deal record ``d`` of the table's match shows its seed: when
    :func:`ginrummy.record.revealable` says so, and every deal that is over once the match has
    ended by a forfeit (time, resigning, leaving) too, as at the end by the rules: the match seed
    is revealed then (:func:`_fair`), from which its seed follows anyway."""
    m = self.match
    assert m is not None
    if daily_sealed(self):
        return False
    return revealable(m, d) or (self.forfeit is not None and d.result is not None)


def _fair(self: Table, player: int) -> dict[str, Any]:
    """The ``fair`` part of a state: the match seed's commitment (and the seed once the
    match is over, however it ended: by the rules, or by a forfeit on time, by resigning or by
    leaving, even before the first deal) and the deal waiting for client seeds.  Revealing it
    then tells nothing of a deal not yet dealt: the table deals no more, and every other table
    has a seed of its own (a rematch too).  A daily deal's seeds wait for the end of its day
    (:func:`daily_sealed`); a friend challenge's deal seed is revealed to whoever finishes it."""
    out: dict[str, Any] = {
        "commitment": _commitment(self.row.seed),
        "match_seed": self.row.seed.hex() if self.over and not daily_sealed(self) else None,
        "pending": None,
    }
    nxt = self.next_deal_number
    if self.fair and nxt is not None:
        out["pending"] = {
            "deal": nxt,
            "commitment": _commitment(deal_seed(self.row.seed, nxt)),
            "waiting_for": [self.names[p] for p in self.waiting_for],
            "yours": self.pending_seeds.get(player),
        }
    return out


def _seats(self: Table) -> list[dict[str, Any]]:
    return [
        {
            "name": n,
            "kind": "human" if k == "human" else "computer",
            "level": seat_level(k) if is_bot_kind(k) else None,
            "connected": any(p == i for p, _ in self.watchers) or k != "human",
            "account": i in self.signed_in,
            **({"bot": True} if i in self.bot_seats else {}),  # a bot account's seat (docs/bot-api.md)
        }
        for i, (n, k) in enumerate(zip(self.names, self.row.seats))
    ]


def _table_part(self: Table, rules: RuleSet) -> dict[str, Any]:
    """The ``table`` part of a state: id, rules, names and seats, and ``tournament`` (its id)
    at a tournament's table."""
    out = {"id": self.id, "rules": rules.to_dict(), "names": list(self.names), "seats": _seats(self)}
    if self.options.get("tournament"):
        out["tournament"] = str(self.options["tournament"])
    return out


def _waiting_state(self: Table, player: int) -> dict[str, Any]:
    """The state before the first deal: who is here, and whose client seed is missing."""
    rules = RuleSet.from_dict(dict(self.row.rules))
    return {
        "type": "state",
        "started": False,
        "table": _table_part(self, rules),
        "you": None if player == SPECTATOR else player,
        "role": None,
        "seat": None,
        "seq": self.seq,
        "seat_players": [],
        "to_act": None,
        "your_turn": False,
        "roles": None,
        "view": None,
        "arrangement": None,
        "deal": None,
        "deals": [],
        "sheet": ScoreSheet(rules, len(self.names)).to_dict(self.names),
        "match": {"finished": False, "winner": None},
        "can_next_deal": False,
        "suggestions": [],
        "can_suggest": False,
        "can_hint": False,
        "hint_level": self.hint_level,
        "record_available": False,
        "fair": _fair(self, player),
    }


def match_state(self: Table) -> dict[str, Any]:
    """``{"finished", "winner", "forfeit", "ended"}``: a forfeit (on time, by resigning, by
    leaving) ends the match for the other player; ``ended`` says how the match ended
    (``"rules"``, ``"resigned"``, ``"left"``, ``"time"``) or is ``None`` while it goes on."""
    m = self.match
    if self.forfeit is not None:
        return {
            "finished": True,
            "winner": self.names[1 - self.forfeit] if len(self.names) == 2 else None,
            "forfeit": self.names[self.forfeit],
            "ended": self.how_ended,
        }
    return {
        "finished": m is not None and m.finished,
        "winner": None if m is None or m.winner is None else self.names[m.winner],
        "forfeit": None,
        "ended": self.how_ended,
    }


def _room(self: Table, player: int) -> dict[str, Any]:
    """The card-room part of every state: spectators, chat, rematch (``docs/protocol.md``)."""
    done = self.over
    now = self.runtime.now()
    due = None if done else self.leave_due
    return {
        "clock": None if self.clock is None else self.clock.to_json(self.names, now),
        "leaving": None
        if due is None
        else {
            "name": self.names[due[0]],
            "deadline": round(due[1], 1),
            "left": round(max(0.0, due[1] - now), 1),
            "can_claim": player not in (SPECTATOR, due[0]) and now >= due[1],
        },
        "public": self.public,
        "watchers": self.spectators,
        "chat": list(self.chat) if self.sees_chat(player) else [],
        "can_chat": player != SPECTATOR or bool(self.options.get("spectator_chat")),
        "rematch": {
            "asked": [self.names[p] for p in sorted(self.rematch_votes)],
            "can_ask": done
            and player in self.humans
            and player not in self.rematch_votes
            and not self.options.get("tournament"),
        },
    }


def dumps(obj: Any) -> str:
    """A message as it goes on the wire: compact JSON text, non-ASCII characters as they are
    (what Starlette's ``send_json`` writes, by orjson: about ten times faster than the
    standard library's encoder on a state).  Raises ``TypeError`` for what JSON cannot hold."""
    return _orjson_dumps(obj).decode()


_dumps = dumps


class StateMessage(dict[str, Any]):
    """A ``state`` message (a plain ``dict`` to every reader) that knows its own JSON text.

    Its larger parts (the table, the deals, the score sheet, the arrangement...) are built and
    encoded once per change of the table, not once per message and watcher: they are shared
    between messages (treat them as read-only).  :meth:`to_text` gives the same JSON text as
    encoding the dict, but encodes only the parts that are not cached."""

    __slots__ = ("fragments",)
    fragments: dict[str, str]

    def to_text(self) -> str:
        """The message as JSON text (``json.loads(m.to_text()) == m``)."""
        frags: dict[str, str] = self.fragments  # name -> '"name":' and its JSON text
        dyn = {k: v for k, v in self.items() if k not in frags}
        text = _dumps(dyn)
        if not frags:
            return text
        return text[:-1] + ("," if dyn else "") + ",".join(frags.values()) + "}"


def _part(self: Table, name: str, key: Any, build: Callable[[], Any]) -> tuple[Any, str]:
    """The cached part ``name`` of this table's states and its member text ``"name":<JSON>``,
    rebuilt when ``key`` changed (keys compare their objects by identity first)."""
    c = self.state_cache.get(name)
    if c is not None and c[0] == key:
        return c[1], c[2]
    obj = build()
    member = f'"{name}":{_dumps(obj)}'  # as it stands in the message's text
    self.state_cache[name] = (key, obj, member)
    return obj, member


@lru_cache(maxsize=8192)
def _arrangement(hand: int) -> tuple[dict[str, Any], str]:
    """The ``arrangement`` of a hand (R2.4; with 11 cards the deadwood after each discard) and
    its member text ``"arrangement":<JSON>``; a pure function of the hand's cards, so kept for the hands seen lately."""
    arr = best_arrangement(hand)
    cs = _CARD_STRS
    out: dict[str, Any] = {
        "melds": [[cs[c] for c in cards_of(x)] for x in arr.melds],
        "deadwood": [cs[c] for c in cards_of(arr.deadwood)],
        "deadwood_value": arr.deadwood_value,
    }
    if hand.bit_count() == 11:
        # what each discard would leave: the legal knocks and gins already say when a knock is on
        out["after_discard"] = {cs[c]: v for c, v in deadwood_after_discards(hand, cards_of(hand)).items()}
    return out, '"arrangement":' + _dumps(out)


def _history(self: Table, player: int, seat: int, history: tuple[Any, ...]) -> list[str]:
    """The texts of ``history`` (a seat's view of the current deal's events: what
    ``PlayerView.to_json`` writes), kept per deal and seat: within a deal the history only
    grows, so each event's text is made once.  A list shared by the messages of one step and
    never changed: a longer history is a new list (a message already built keeps its own)."""
    key = f"history{player}"
    record = self.match.deals[-1]
    c = self.state_cache.get(key)
    if c is not None and c[0][0] is record and c[0][1] == seat and len(c[1]) <= len(history):
        done: list[str] = c[1]
        if len(done) == len(history):
            return done
        texts = done + [e.text for e in history[len(done) :]]
    else:
        texts = [e.text for e in history]
    self.state_cache[key] = ((record, seat), texts, "")
    return texts


def _deal_part(self: Table) -> dict[str, Any]:
    m = self.match
    assert m is not None
    record = m.record
    return {
        "number": record.number,
        "commitment": record.commitment,
        "seed": record.seed.hex() if _revealed(self, record) else None,
        "dealer": self.names[m.seat_players[m.deal.dealer]],
    }


def state_message(self: Table, player: int) -> dict[str, Any]:
    """The ``state`` message for ``player`` (see ``docs/protocol.md``), a :class:`StateMessage`
    once the first deal is dealt; ``player`` :data:`SPECTATOR` gets only what is public
    (:func:`ginrummy.views.spectator_json`)."""
    m = self.match
    if m is None:
        return {**_waiting_state(self, player), **_room(self, player)}
    frags: dict[str, str] = {}
    msg = StateMessage()
    msg.fragments = frags
    connected = frozenset(p for p, _ in self.watchers)
    names = tuple(self.names)
    rules = m.rules
    table, frags["table"] = _part(
        self,
        "table",
        (rules, names, connected, self.row.seats),
        lambda: _table_part(self, rules),
    )
    arrangement: dict[str, Any] | None = None
    if player == SPECTATOR:
        v = spectator_json(m.deal)
    else:
        seat = m.seat_of(player)
        # Match.view without its score context (the state has the sheet): the same cards
        if seat is None:
            view = m.view(player)
            v = view.to_json()
        else:
            view = view_of(m.deal, seat)
            v = view.to_json(_history(self, player, seat, view.history))
        arrangement, frags["arrangement"] = _arrangement(view.hand)
    over = m.deal.is_over
    roles = None
    if m.roles is not None:
        roles = {"box": self.names[m.roles[0]], "captain": self.names[m.roles[1]], "out": self.names[m.roles[2]]}
    seat = m.seat_of(player)
    is_adviser = m.roles is not None and m.roles[2] == player
    is_captain = m.roles is not None and m.roles[1] == player
    to_act = m.player_to_act()
    finished = m.finished
    deals = m.deals
    record = deals[-1]
    msg["type"] = "state"
    msg["started"] = True
    msg["table"] = table
    msg["you"] = None if player == SPECTATOR else player
    msg["role"] = None if player == SPECTATOR else m.role_of(player)
    msg["seat"] = seat
    msg["seq"] = self.seq
    msg["seat_players"] = [self.names[p] for p in m.seat_players]
    msg["to_act"] = None if to_act is None else self.names[to_act]
    msg["your_turn"] = to_act == player
    msg["roles"] = roles
    # R10.1: each round of the role draw, the rank each player drew (by index; a rank is
    # all the draw uses, and no card text reaches the wire's hidden-card scan); [] for two
    msg["role_draws"], frags["role_draws"] = _part(
        self, "role_draws", (m,), lambda: [[card_str(c)[0] for c in r] for r in m.role_draws]
    )
    msg["view"] = v
    msg["arrangement"] = arrangement
    msg["deal"], frags["deal"] = _part(
        self, "deal", (record, record.result, finished, self.forfeit, names), lambda: _deal_part(self)
    )
    msg["deals"], frags["deals"] = _part(
        self, "deals", (finished, names, self.forfeit, tuple((d, d.result) for d in deals)), lambda: _deals(self)
    )
    msg["sheet"], frags["sheet"] = _part(self, "sheet", (m.sheet, names), lambda: m.sheet.to_dict(self.names))
    msg["match"] = match_state(self)
    msg["can_next_deal"] = over and not self.over
    msg["suggestions"] = list(self.suggestions) if (is_adviser or is_captain) else []
    msg["can_suggest"] = is_adviser and not over
    msg["can_hint"] = player != SPECTATOR and self.can_hint(player)
    msg["hint_level"] = self.hint_level
    msg["record_available"] = player != SPECTATOR and not daily_sealed(self)  # a daily game's: after its day
    msg["fair"] = _fair(self, player)
    msg["rating"] = self.rating
    msg.update(_room(self, player))
    return msg
