"""The ``state`` message: what one connection of a table is sent (``docs/protocol.md``).

Built only from ``Match.view(player)`` (or, for a spectator, :func:`ginrummy.views.spectator_json`),
the score sheet, the names and the commitments: a seat never gets the opponent's hidden cards,
the stock order, another person's token, or a seed before :func:`ginrummy.record.revealable`
says its cards are public (a scored deal when it ends, a drawn deal when the match ends); the
match seed once the match is over.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..cards import card_str, cards_of
from ..match import commitment, deal_seed
from ..melds import best_arrangement, deadwood
from ..record import revealable
from ..rules import RuleSet
from ..scoring import ScoreSheet
from ..views import spectator_json
from .seats import SPECTATOR

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["state_message", "match_state"]


def _deals(self: Table) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    m = self.match
    if m is None:
        return out
    for i, d in enumerate(m.deals):
        r = d.result
        shown = revealable(m, d)
        # a deal that is over never changes but for its reveal (a drawn deal at the match's end)
        cached = self.over_deals.get(i)
        if cached is not None and cached[0] is d and cached[1]["revealed"] == shown:
            out.append(dict(cached[1]))
            continue
        entry: dict[str, Any] = {
            "number": d.number, "commitment": d.commitment,
            "players": [self.names[p] for p in d.seat_players],
            "dealer": self.names[d.seat_players[d.dealer]],
            "dealer_seat": d.dealer, "seat_players": list(d.seat_players),
            "client_seeds": None if d.client_seeds is None else list(d.client_seeds),
            "over": r is not None, "revealed": shown,
        }
        if shown:
            entry["seed"] = d.seed.hex()
        if r is not None:
            entry.update({
                "outcome": r.outcome, "points": r.points,
                "winner": None if r.winner is None else self.names[d.seat_players[r.winner]],
                "knocker": None if r.knocker is None else self.names[d.seat_players[r.knocker]],
                "reason": r.reason, "actions": len(d.actions),
            })
            self.over_deals[i] = (d, entry)
        out.append(dict(entry))
    return out

def _fair(self: Table, player: int) -> dict[str, Any]:
    """The ``fair`` part of a state: the match seed's commitment (and the seed once the
    match is over) and the deal waiting for client seeds."""
    m = self.match
    finished = m is not None and m.finished
    out: dict[str, Any] = {"commitment": commitment(self.row.seed),
                           "match_seed": self.row.seed.hex() if finished else None, "pending": None}
    nxt = self.next_deal_number
    if self.fair and nxt is not None:
        out["pending"] = {"deal": nxt, "commitment": commitment(deal_seed(self.row.seed, nxt)),
                          "waiting_for": [self.names[p] for p in self.waiting_for],
                          "yours": self.pending_seeds.get(player)}
    return out

def _seats(self: Table) -> list[dict[str, Any]]:
    return [{"name": n, "kind": "human" if k == "human" else "computer",
             "level": None if k == "human" else k[4:],
             "connected": any(p == i for p, _ in self.watchers) or k != "human"}
            for i, (n, k) in enumerate(zip(self.names, self.row.seats))]

def _waiting_state(self: Table, player: int) -> dict[str, Any]:
    """The state before the first deal: who is here, and whose client seed is missing."""
    rules = RuleSet.from_dict(dict(self.row.rules))
    return {
        "type": "state", "started": False,
        "table": {"id": self.id, "rules": rules.to_dict(), "names": list(self.names), "seats": _seats(self)},
        "you": player, "role": None, "seat": None, "seq": self.seq, "seat_players": [],
        "to_act": None, "your_turn": False, "roles": None, "view": None, "arrangement": None,
        "deal": None, "deals": [], "sheet": ScoreSheet(rules, len(self.names)).to_dict(self.names),
        "match": {"finished": False, "winner": None}, "can_next_deal": False, "suggestions": [],
        "can_suggest": False, "can_hint": False, "hint_level": self.hint_level, "record_available": False,
        "fair": _fair(self, player),
    }

def match_state(self: Table) -> dict[str, Any]:
    """``{"finished", "winner", "forfeit"}``: a forfeit on time (R: the table's clock) ends
    the match for the other player."""
    m = self.match
    if self.forfeit is not None:
        return {"finished": True, "winner": self.names[1 - self.forfeit] if len(self.names) == 2 else None,
                "forfeit": self.names[self.forfeit]}
    return {"finished": m is not None and m.finished,
            "winner": None if m is None or m.winner is None else self.names[m.winner], "forfeit": None}

def _room(self: Table, player: int) -> dict[str, Any]:
    """The card-room part of every state: spectators, chat, rematch (``docs/protocol.md``)."""
    done = self.over
    return {
        "clock": None if self.clock is None else self.clock.to_json(self.names, time.time()),
        "public": self.public, "watchers": self.spectators,
        "chat": list(self.chat) if self.sees_chat(player) else [],
        "can_chat": player != SPECTATOR or bool(self.options.get("spectator_chat")),
        "rematch": {"asked": [self.names[p] for p in sorted(self.rematch_votes)],
                    "can_ask": done and player in self.humans and player not in self.rematch_votes},
    }

def state_message(self: Table, player: int) -> dict[str, Any]:
    """The ``state`` message for ``player`` (see ``docs/protocol.md``); ``player``
    :data:`SPECTATOR` gets only what is public (:func:`ginrummy.views.spectator_json`)."""
    m = self.match
    if m is None:
        return {**_waiting_state(self, player), **_room(self, player)}
    arrangement: dict[str, Any] | None = None
    if player == SPECTATOR:
        v = spectator_json(m.deal)
    else:
        view = m.view(player)
        v = view.to_json()
        hand = view.hand
        arr = best_arrangement(hand)
        arrangement = {
            "melds": [[card_str(c) for c in cards_of(x)] for x in arr.melds],
            "deadwood": [card_str(c) for c in cards_of(arr.deadwood)],
            "deadwood_value": arr.deadwood_value,
        }
        if hand.bit_count() == 11:
            # what each discard would leave: the legal knocks and gins already say when a knock is on
            arrangement["after_discard"] = {card_str(c): deadwood(hand & ~(1 << c)) for c in cards_of(hand)}
    record = m.record
    over = m.deal.is_over
    roles = None
    if m.roles is not None:
        roles = {"box": self.names[m.roles[0]], "captain": self.names[m.roles[1]], "out": self.names[m.roles[2]]}
    seat = m.seat_of(player)
    is_adviser = m.roles is not None and m.roles[2] == player
    is_captain = m.roles is not None and m.roles[1] == player
    to_act = m.player_to_act()
    state: dict[str, Any] = {
        "type": "state", "started": True,
        "table": {"id": self.id, "rules": m.rules.to_dict(), "names": list(self.names), "seats": _seats(self)},
        "you": None if player == SPECTATOR else player,
        "role": None if player == SPECTATOR else m.role_of(player),
        "seat": seat,
        "seq": self.seq,
        "seat_players": [self.names[p] for p in m.seat_players],
        "to_act": None if to_act is None else self.names[to_act],
        "your_turn": to_act == player,
        "roles": roles,
        # R10.1: each round of the role draw, the rank each player drew (by index; a rank is
        # all the draw uses, and no card text reaches the wire's hidden-card scan); [] for two
        "role_draws": [[card_str(c)[0] for c in r] for r in m.role_draws],
        "view": v,
        "arrangement": arrangement,
        "deal": {
            "number": record.number, "commitment": record.commitment,
            "seed": record.seed.hex() if revealable(m, record) else None,
            "dealer": self.names[m.seat_players[m.deal.dealer]],
        },
        "deals": _deals(self),
        "sheet": m.sheet.to_dict(self.names),
        "match": match_state(self),
        "can_next_deal": over and not self.over,
        "suggestions": list(self.suggestions) if (is_adviser or is_captain) else [],
        "can_suggest": is_adviser and not over,
        "can_hint": player != SPECTATOR and self.can_hint(player),
        "hint_level": self.hint_level,
        "record_available": player != SPECTATOR,
        "fair": _fair(self, player),
        **_room(self, player),
    }
    return state
