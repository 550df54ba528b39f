"""Replays for the browser: a game record turned into frames, deal by deal and move by move,
with both hands open.

:func:`replay_frames` reads a record (``docs/record-format.md``; a finished table's public
record or a file someone uploads), checks it completely with :func:`ginrummy.record.replay`
(a record that does not add up is refused, naming the line), and rebuilds every deal whose
cards it reveals with :func:`ginrummy.record.deal_states` (the recorded actions; reshuffles
as at the table).  A sealed deal (its cards still secret: a drawn deal of a match in
progress, or the deal in progress of a public record taken during play) is listed without
frames.  A match ended by a forfeit (the record's ``forfeit`` line) is finished, its winner
the record's, and says who forfeited and how; the deal the forfeit stopped has its frames up to
the stop and no result.

Its JSON (``GET /api/replays/ID``, ``POST /api/replays``)::

    {"names": [a, b], "rules": {...R14...}, "finished": bool, "winner": name | null, "totals": [n, n],
     "forfeit": name of who forfeited | null, "ended": "rules" | "resigned" | "left" | "time" | null,
     "deals": [{"number", "dealer": name, "players": [name at seat 0, at seat 1], "sealed": bool,
                "frames": [{"action": text | null, "by": name | null, "hands": [[card...], [card...]],
                            "deadwood": [n, n], "pile": [card...  bottom first], "stock": n,
                            "to_act": name | null, "phase": "..."}],
                "result": null | {"outcome", "winner": name | null, "knocker": name | null, "points",
                                  "reason", "knocker_layout", "defender_layout", "bonus", "multiplier"},
                "score": [n, n] | null}]}
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...cards import card_str, cards_of
from ...deal import DealState
from ...melds import deadwood
from ...record import deal_states, dumps, loads, replay

__all__ = ["replay_frames", "public_record", "MAX_RECORD_BYTES"]

MAX_RECORD_BYTES = 512 * 1024
"""The largest record accepted for a replay upload, in bytes."""


def public_record(table: Any) -> str:
    """The public record (text, ``docs/record-format.md``) of a web table with a match: what a
    player downloads, a replay shows and a moderator reads.  A match ended by a forfeit
    (``table.forfeit``, ``table.how_ended``: resigned, left, time) is written as over, with its
    ``forfeit`` line and the match seed (as ``state.fair.match_seed`` reveals it); otherwise
    every deal the rules still hide is sealed (:func:`ginrummy.record.dumps`, ``public=True``)."""
    m = table.match
    forfeit = None if table.forfeit is None or m.finished else (table.forfeit, table.how_ended)
    return dumps(m, date=table.row.created[:10], public=True, forfeit=forfeit)


def _frame(s: DealState, names: list[str], action: str | None, by: str | None) -> dict[str, Any]:
    hands = [[card_str(c) for c in cards_of(h)] for h in s.hands]
    return {
        "action": action,
        "by": by,
        "hands": hands,
        "deadwood": [deadwood(h) for h in s.hands],
        "pile": [card_str(c) for c in s.pile],
        "stock": len(s.stock) - s.drawn,
        "to_act": None if s.to_act is None else names[s.to_act],
        "phase": s.phase,
    }


def replay_frames(text: str) -> dict[str, Any]:
    """The replay JSON (module docstring) of a record's text.  Raises
    :class:`ginrummy.errors.RecordError` (a ``ValueError``) for a text that is not a record or
    does not add up, naming the line."""
    rec = loads(text)
    # a deal in progress whose cards are still secret (a match forfeited on time, or a record
    # downloaded during play) is listed, sealed; the deals before it are checked and shown
    checked = rec
    if rec.deals and rec.deals[-1].sealed and rec.deals[-1].result is None:
        checked = dataclasses.replace(rec, deals=rec.deals[:-1])
    # every check of gin verify's replay (raises RecordError); nothing to replay before deal 1
    match = replay(checked) if checked.deals else None
    names = list(rec.names)
    deals: list[dict[str, Any]] = []
    for d in rec.deals:
        seat_names = [names[p] for p in d.seat_players]
        entry: dict[str, Any] = {
            "number": d.number,
            "dealer": seat_names[d.dealer],
            "players": seat_names,
            "sealed": d.sealed,
            "frames": [],
            "result": None,
            "score": None if d.score is None else list(d.score),
        }
        if not d.sealed:
            states, s = deal_states(rec.rules, d)  # reshuffles (R7.3) as at the table
            befores = [st for _, st, _, _ in states]
            entry["frames"].append(_frame(befores[0] if befores else s, seat_names, None, None))
            for (_, _, seat, action), after in zip(states, befores[1:] + [s]):
                entry["frames"].append(_frame(after, seat_names, action.text, seat_names[seat]))
            if s.result is not None:
                r = s.result.to_json()
                r["winner"] = None if r["winner"] is None else seat_names[r["winner"]]
                r["knocker"] = None if r["knocker"] is None else seat_names[r["knocker"]]
                entry["result"] = r
        deals.append(entry)
    finished = match is not None and match.finished
    winner = match.winner if match is not None and finished else None
    ended = "rules" if finished else None
    if rec.forfeit is not None and rec.finished is not None:  # over by a forfeit (checked by replay)
        finished, winner, ended = True, rec.finished[1], rec.forfeit[2]
    totals = [0] * len(names) if match is None else list(match.sheet.totals)
    return {
        "names": names,
        "rules": rec.rules.to_dict(),
        "finished": finished,
        "winner": None if winner is None else names[winner],
        "totals": totals,
        "deals": deals,
        "forfeit": None if rec.forfeit is None else names[rec.forfeit[1]],
        "ended": ended,
    }
