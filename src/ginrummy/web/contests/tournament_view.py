"""The views of a tournament (issue 33; docs/protocol.md, "Tournaments"): the JSON of its page
and of one entrant's place in it, built from a :class:`~ginrummy.compete.tournament.Tournament`
read once (pure: no store, no clock)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...compete import swiss
from ...compete.tournament import Tournament
from ..room.table import Table as GameTable

__all__ = ["tournament_view", "entrant_status", "table_id_of", "table_result", "games_from_tables"]


def table_id_of(tid: str, game: str) -> str:
    """The table id of game ``game`` (``"R-B"``: round and board) of tournament ``tid``."""
    return f"{tid}r{game.replace('-', 'b')}"


def table_result(table: GameTable) -> str | None:
    """The result (:data:`ginrummy.compete.swiss.RESULTS`) of the game played at ``table``, its
    seat 0 the game's ``a``: ``"forfeit_a"`` or ``"forfeit_b"`` when a seat forfeited on time,
    else ``"a"``, ``"b"`` or ``"draw"`` by the match's winner; ``None`` while it is not over."""
    if not table.over:
        return None
    if table.forfeit is not None:
        return "forfeit_a" if table.forfeit == 0 else "forfeit_b"
    assert table.match is not None
    w = table.match.winner
    return "a" if w == 0 else "b" if w == 1 else "draw"


def games_from_tables(tid: str, t: Tournament, load: Callable[[str], GameTable | None]) -> list[swiss.Game]:
    """The games of ``t`` with each result said again by its table (``load`` of its id, e.g. a
    fresh :meth:`TableManager.load <ginrummy.web.room.tables.TableManager.load>`: the table
    rebuilt from its stored steps; ``None`` or a table not over: no result), a bye as it is:
    ``swiss.standings(t.players, games)`` is then the standings recomputed from the games
    played alone, the audit of the tournament's own (tests/web/test_tournaments.py,
    benchmarks/tournament_swiss.py)."""
    games = []
    for gid, g in zip(t.game_ids, t.games):
        if g.b is None:
            games.append(g)
            continue
        table = load(table_id_of(tid, gid))
        games.append(swiss.Game(g.round, g.a, g.b, None if table is None else table_result(table)))
    return games


def tournament_view(tid: str, t: Tournament, names: dict[str, str]) -> dict[str, Any]:
    """The JSON of ``GET /api/tournaments/ID`` (docs/protocol.md, "Tournaments") but ``me``:
    ``names`` maps each entrant (``"a<id>"``, ``"bot:<level>"``) to the name shown."""
    rounds: list[dict[str, Any]] = []
    for gid, g in zip(t.game_ids, t.games):
        while len(rounds) < max(g.round, 1):  # an arena's games: one list, round 0
            rounds.append({"round": len(rounds) + 1, "games": []})
        rounds[max(g.round, 1) - 1]["games"].append(
            {
                "id": gid,
                "a": names.get(g.a, g.a),
                "b": None if g.b is None else names.get(g.b, g.b),
                "result": g.result,
                "table": None if g.b is None else table_id_of(tid, gid),
            }
        )
    rows: list[Any] = t.arena_table() if t.settings.kind == "arena" else swiss.standings(t.players, t.games)
    table = [
        {**r.to_json(), "player": names.get(r.player, r.player), "withdrawn": r.player in t.withdrawn} for r in rows
    ]
    ends = t.end_time()
    return {
        "id": tid,
        "settings": t.settings.model_dump(mode="json"),
        "state": t.state,
        "round": t.round,
        "rounds": t.rounds or t.settings.rounds,
        "ends": None if ends is None or t.settings.kind != "arena" else ends.isoformat(),
        "started_at": t.started_at,
        "finished_at": next((e["at"] for e in t.events if e["type"] == "finished"), None),
        "entrants": [
            {"name": names.get(p, p), "computer": p.startswith("bot:"), "withdrawn": p in t.withdrawn}
            for p in t.players
        ],
        "standings": table,
        "pairings": rounds,
        "final": table if t.state == "finished" else None,
    }


def entrant_status(tid: str, t: Tournament, me: str) -> dict[str, Any]:
    """``{"entered", "withdrawn", "table"}`` of entrant ``me`` in ``tid``: ``table`` the id of his
    table in play, else ``None``."""
    table = next(
        (
            table_id_of(tid, gid)
            for gid in t.in_play()
            if me in (t.games[t.game_ids.index(gid)].a, t.games[t.game_ids.index(gid)].b)
        ),
        None,
    )
    return {"entered": me in t.players, "withdrawn": me in t.withdrawn, "table": table}
