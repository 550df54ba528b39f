"""A tournament as a state machine over JSON events (``docs/compete.md``, "Tournaments").

States: ``created`` → ``registration`` → ``running`` → ``finished``.  Every change is an
event, a JSON object with a ``type``; the web stores them in order (one row each, keyed by
the tournament and a sequence number, so that two server processes cannot both append the
same pairing: the database decides) and rebuilds a tournament with :meth:`Tournament.replay`.
Each method checks its request, then returns the event it applied; a refused request raises
:class:`~ginrummy.compete.errors.CompeteError` and changes nothing.

Events: ``created`` (``settings``), ``opened``, ``joined`` / ``withdrawn`` (``player``),
``started`` (``at``), ``paired`` (Swiss: ``round`` and ``games``; arena: ``games``, each
``{"id", "a", "b"}``), ``result`` (``game``, ``result`` one of
:data:`~ginrummy.compete.swiss.RESULTS`, ``at``), ``finished`` (``at``).  Times are ISO 8601
texts given by the caller (this module has no clock).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import N_
from . import arena, swiss
from .errors import CompeteError

__all__ = ["TournamentSettings", "Tournament", "STATES"]

STATES = ("created", "registration", "running", "finished")
"""The states of a tournament, in order."""


class TournamentSettings(BaseModel):
    """A tournament's settings, as the web receives them (bounded)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=60)
    kind: Literal["swiss", "arena"]
    start: datetime
    rounds: int = Field(default=5, ge=1, le=15, description="Swiss: rounds")
    minutes: int = Field(default=60, ge=10, le=720, description="arena: its length in minutes")
    scoring: Literal["game", "hollywood", "deal"] = Field(
        default="game", description="game: one game to 100 (R11); hollywood (R12); deal: one scored deal (R13 single)"
    )
    clock_move: int = Field(default=20, ge=5, le=600, description="seconds a move")
    clock_bank: int = Field(default=120, ge=0, le=3600, description="seconds of time bank")
    clock_days: int = Field(
        default=0, ge=0, le=3, description="days a move: a turn-based tournament (0: the live clock)"
    )
    levels: tuple[str, ...] = Field(default=(), max_length=8, description="computer levels allowed to enter")
    rated: bool = False
    max_players: int = Field(default=64, ge=2, le=256)


_NOT_NOW = {
    "created": N_("the tournament is not open for entries yet"),
    "registration": N_("the tournament is open for entries and has not started yet"),
    "running": N_("the tournament has started: entries are closed"),
    "finished": N_("the tournament has finished: nothing more can change in it"),
}
"""What the tournament is, by its state: the sentence that refuses a step it does not allow now
(entering a finished one, pairing one not started)."""


def _refuse(msg: Any) -> CompeteError:
    return CompeteError(msg)


@dataclass
class Tournament:
    """A tournament rebuilt from its events.  ``players`` in entry order (the seed),
    ``withdrawn`` those who left, ``games`` every game (Swiss: by round; arena: in pairing
    order, ``game_ids`` their ids), ``ended`` the arena games' end times."""

    settings: TournamentSettings
    state: str = "created"
    players: list[str] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    games: list[swiss.Game] = field(default_factory=list)
    game_ids: list[str] = field(default_factory=list)
    ended: dict[str, str] = field(default_factory=dict)
    round: int = 0
    rounds: int = 0
    started_at: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)

    # -- building ----------------------------------------------------------------------------

    @classmethod
    def create(cls, settings: TournamentSettings | dict[str, Any]) -> Tournament:
        """A new tournament (state ``created``) with its ``created`` event.  Raises
        ``pydantic.ValidationError`` for bad settings."""
        s = settings if isinstance(settings, TournamentSettings) else TournamentSettings.model_validate(settings)
        t = cls(s)
        t.events.append({"type": "created", "settings": s.model_dump(mode="json")})
        return t

    @classmethod
    def replay(cls, events: list[dict[str, Any]]) -> Tournament:
        """The tournament after ``events`` (the first is ``created``).  Raises
        :class:`CompeteError` (or ``pydantic.ValidationError``) for an event the rules refuse."""
        if not events or events[0].get("type") != "created":
            raise ValueError("a tournament's events start with 'created'")
        t = cls.create(events[0]["settings"])
        for e in events[1:]:
            t.apply(e)
        return t

    def apply(self, event: dict[str, Any]) -> dict[str, Any]:
        """Check and apply one stored event; returns it.  Raises :class:`CompeteError`."""
        kind = event.get("type")
        if kind == "opened":
            return self.open()
        if kind == "joined":
            return self.join(str(event["player"]))
        if kind == "withdrawn":
            return self.withdraw(str(event["player"]))
        if kind == "started":
            return self.start(str(event["at"]))
        if kind == "paired":
            return self._paired(event)
        if kind == "result":
            return self.result(str(event["game"]), str(event["result"]), str(event.get("at", "")))
        if kind == "finished":
            return self.finish(str(event["at"]))
        raise ValueError(f"unknown tournament event {kind!r}")

    def _emit(self, event: dict[str, Any]) -> dict[str, Any]:
        self.events.append(event)
        return event

    def _need(self, *states: str) -> None:
        """Refuse unless the tournament is in one of ``states``: one sentence per state it is in
        (what it is, hence what cannot be done now), never a state's code name."""
        if self.state not in states:
            raise _refuse(_NOT_NOW[self.state])

    # -- registration ------------------------------------------------------------------------

    def open(self) -> dict[str, Any]:
        """Open the registration (``created`` → ``registration``)."""
        self._need("created")
        self.state = "registration"
        return self._emit({"type": "opened"})

    def join(self, player: str) -> dict[str, Any]:
        """``player`` enters (during the registration, or an arena while it runs)."""
        self._need("registration", *(("running",) if self.settings.kind == "arena" else ()))
        if player in self.players and player not in self.withdrawn:
            raise _refuse(N_("{player} has already entered", player=player))
        if player not in self.players and len(self.players) >= self.settings.max_players:
            raise _refuse(N_("the tournament is full: at most {most} players", most=self.settings.max_players))
        if player in self.withdrawn:
            if self.state == "running":
                raise _refuse(N_("{player} has withdrawn and cannot enter again", player=player))
            self.withdrawn.remove(player)
        else:
            self.players.append(player)
        return self._emit({"type": "joined", "player": player})

    def withdraw(self, player: str) -> dict[str, Any]:
        """``player`` leaves: before the start he is no longer entered; while it runs he is
        not paired again (the web forfeits his game in play with a ``result`` event)."""
        self._need("registration", "running")
        if player not in self.players or player in self.withdrawn:
            raise _refuse(N_("{player} has not entered", player=player))
        if self.state == "registration":
            self.players.remove(player)
        else:
            self.withdrawn.append(player)
        return self._emit({"type": "withdrawn", "player": player})

    def active(self) -> list[str]:
        """The players still in, in entry order."""
        return [p for p in self.players if p not in self.withdrawn]

    def start(self, at: str) -> dict[str, Any]:
        """Start (``registration`` → ``running``) at ``at``; needs two players.  A Swiss
        tournament plays at most ``n - 1`` rounds (``n`` with an odd ``n``: one bye each)."""
        self._need("registration")
        n = len(self.players)
        if n < 2:
            raise _refuse(N_("a tournament needs at least 2 players to start, not {n}", n=n))
        self.state, self.started_at = "running", at
        self.rounds = min(self.settings.rounds, n if n % 2 else n - 1)
        return self._emit({"type": "started", "at": at})

    # -- games -------------------------------------------------------------------------------

    def in_play(self) -> list[str]:
        """The ids of the games without a result (byes excluded)."""
        return [i for i, g in zip(self.game_ids, self.games) if g.b is not None and g.result is None]

    def pair(self) -> dict[str, Any]:
        """Swiss: pair the next round, once every game of this one has its result.  Returns
        the ``paired`` event (``{"round", "games": [{"id", "a", "b"}]}``, ``b`` ``null`` for
        the bye, ids ``"R-B"``: round and board)."""
        self._need("running")
        if self.settings.kind != "swiss":
            raise ValueError("pair() is for a Swiss tournament; an arena uses pair_free()")
        if self.in_play():
            raise _refuse(N_("round {round} is still in play", round=self.round))
        if self.round >= self.rounds:
            raise _refuse(N_("all {rounds} rounds have been played", rounds=self.rounds))
        new = swiss.pair_round(self.players, self.games, self.round + 1, self.withdrawn)
        return self._paired(
            {
                "type": "paired",
                "round": self.round + 1,
                "games": [{"id": f"{self.round + 1}-{i + 1}", "a": g.a, "b": g.b} for i, g in enumerate(new)],
            }
        )

    def free(self) -> list[str]:
        """Arena: the players in who are not in a game."""
        busy = {
            p for i, g in zip(self.game_ids, self.games) if g.result is None and g.b is not None for p in (g.a, g.b)
        }
        return [p for p in self.active() if p not in busy]

    def end_time(self) -> datetime | None:
        """Arena: when it ends (start + minutes), once started."""
        if self.started_at is None:
            return None
        return datetime.fromisoformat(self.started_at) + timedelta(minutes=self.settings.minutes)

    def pair_free(self, at: str) -> dict[str, Any] | None:
        """Arena: pair the free players at ``at`` (before the end), near score first, not
        twice in a row against the same opponent when avoidable; ``None`` (no event) when
        fewer than two are free or the time is up."""
        self._need("running")
        end = self.end_time()
        if self.settings.kind != "arena" or end is None or datetime.fromisoformat(at) >= end:
            return None
        free = self.free()
        standings = {r.player: r.points for r in self.arena_table()}
        last: dict[str, str] = {}
        for g in self.games:
            if g.b is not None:
                last[g.a], last[g.b] = g.b, g.a
        pairs = arena.arena_pairs(free, standings, last, self.players)
        if not pairs:
            return None
        first = len(self.games)
        return self._paired(
            {"type": "paired", "games": [{"id": f"g{first + i + 1}", "a": a, "b": b} for i, (a, b) in enumerate(pairs)]}
        )

    def _paired(self, event: dict[str, Any]) -> dict[str, Any]:
        self._need("running")
        rnd = int(event.get("round", self.round + 1 if self.settings.kind == "swiss" else 0))
        if self.settings.kind == "swiss" and (rnd != self.round + 1 or self.in_play()):
            raise _refuse(N_("round {round} is still in play", round=self.round))
        seen: set[str] = set()
        busy = set() if self.settings.kind == "swiss" else set(self.active()) - set(self.free())
        for g in event["games"]:
            for p in (g["a"], g["b"]):
                if p is None:
                    continue
                if p not in self.active() or p in seen or p in busy:
                    raise _refuse(N_("{player} cannot be paired now", player=p))
                seen.add(p)
        for g in event["games"]:
            self.games.append(swiss.Game(rnd, g["a"], g["b"]))
            self.game_ids.append(g["id"])
        if self.settings.kind == "swiss":
            self.round = rnd
        return self._emit(event)

    def result(self, game: str, result: str, at: str = "") -> dict[str, Any]:
        """The ``result`` (:data:`~ginrummy.compete.swiss.RESULTS`) of game ``game`` at ``at``."""
        self._need("running")
        if (
            game not in self.game_ids
            or self.games[self.game_ids.index(game)].result is not None
            or self.games[self.game_ids.index(game)].b is None
        ):
            raise _refuse(N_("no game {game} in play", game=game))
        if result not in swiss.RESULTS:
            raise _refuse(
                N_("a result is one of {results}, not {result!r}", results=", ".join(swiss.RESULTS), result=result)
            )
        i = self.game_ids.index(game)
        g = self.games[i]
        self.games[i] = swiss.Game(g.round, g.a, g.b, result)
        self.ended[game] = at
        return self._emit({"type": "result", "game": game, "result": result, "at": at})

    def finish(self, at: str) -> dict[str, Any]:
        """End it at ``at``: a Swiss tournament once its last round has every result (or once
        fewer than two players are still in, the others withdrawn); an arena
        once its time is up (games still in play then do not count)."""
        self._need("running")
        if self.settings.kind == "swiss" and ((self.round < self.rounds and len(self.active()) >= 2) or self.in_play()):
            raise _refuse(N_("round {round} is still in play", round=self.round))
        end = self.end_time()
        if self.settings.kind == "arena" and end is not None and datetime.fromisoformat(at) < end:
            raise _refuse(N_("the arena ends at {end}", end=end.isoformat()))
        self.state = "finished"
        return self._emit({"type": "finished", "at": at})

    # -- tables ------------------------------------------------------------------------------

    def swiss_table(self) -> list[swiss.Standing]:
        """The Swiss standings (:func:`ginrummy.compete.swiss.standings`)."""
        return swiss.standings(self.players, self.games)

    def arena_outcomes(self) -> dict[str, list[str]]:
        """Arena: each player's outcomes in order, counting only the games that ended before
        the end time."""
        end = self.end_time()
        out: dict[str, list[str]] = {p: [] for p in self.players}
        for gid, g in zip(self.game_ids, self.games):
            if g.result is None or g.b is None:
                continue
            if end is not None and self.ended.get(gid) and datetime.fromisoformat(self.ended[gid]) > end:
                continue
            pa, pb = swiss.points_of(g)
            out[g.a].append("win" if pa > pb else "loss" if pa < pb else "draw" if pa else "loss")
            out[g.b].append("win" if pb > pa else "loss" if pb < pa else "draw" if pb else "loss")
        return out

    def arena_table(self) -> list[arena.ArenaStanding]:
        """The arena standings (:func:`ginrummy.compete.arena.arena_standings`)."""
        return arena.arena_standings(self.players, self.arena_outcomes())
