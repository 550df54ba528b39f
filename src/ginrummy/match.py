"""A match: a sequence of deals with the dealer rotation, the three-hand roles, the score
sheet and the fair-shuffle seeds (R3.1, R10, R11, R12).

Players are numbered 0..n-1 (n = 2, or 3 for three-hand gin).  Each deal is two-seated: deal
seat ``i`` is played by player ``seat_players[i]``.  Two-hand: ``seat_players`` is ``(0, 1)``
and the dealer changes by R11.2.  Three-hand (R10): seat 0 is the player in the **box**, who
deals every deal (R10.3), seat 1 the **captain**; the third player sits out and advises.

Chance: the caller passes a secret ``seed`` (bytes).  The server's seed of deal ``k``
(1-based, drawn deals included) is ``deal_seed(seed, k) = SHA-256(seed || "/deal/k")``; its
commitment SHA-256(deal seed) may be shown before the deal and the deal seed revealed after
it (DESIGN "Fair shuffling").  Each deal may also take the players' **client seeds** (one
short text per player, ``""`` for a computer seat): the deck is then shuffled from
:func:`deck_seed` of the server's deal seed and every client seed, so that neither the server
nor any one player chooses the cards (``docs/record-format.md``, "A deal no one controls").  The first dealer (R3.1) and the three-hand role draw (R10.1)
come from the seed too.  The match is mutable, but every method that can fail checks
everything before it changes anything.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from .actions import Action
from .cards import rank_of
from .deal import DealResult, DealState, Event, deck_from_seed, new_deal, seeded_shuffle
from .errors import N_, IllegalActionError, NotYourTurnError, RuleSetError
from .rules import RuleSet
from .scoring import ScoreSheet
from .views import PlayerView, view_of

__all__ = [
    "Chooser",
    "Match",
    "DealRecord",
    "deal_seed",
    "first_dealer_of",
    "deck_seed",
    "start_deal",
    "check_client_seeds",
    "commitment",
    "draw_roles",
    "CLIENT_SEED_MAX_CHARS",
]

CLIENT_SEED_MAX_CHARS = 64
"""The longest client seed, in characters (ASCII letters, digits, ``_`` and ``-``)."""

_CLIENT_SEED_RE = re.compile(rf"[0-9A-Za-z_-]{{0,{CLIENT_SEED_MAX_CHARS}}}")


class Chooser(Protocol):
    """Anything that picks an action from a view, as a computer player does
    (:class:`ginrummy.players.Player`): :meth:`Match.play_out` asks it."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """One of ``legal``, from ``view`` alone."""
        ...


def first_dealer_of(seed: bytes) -> int:
    """The first dealer (player 0 or 1) of a two-hand match seeded with ``seed`` when none is
    given: ``SHA-256(seed || "/first-dealer")[0] mod 2`` (R3.1: chosen at random, from the seed).

    >>> first_dealer_of(bytes(32)) in (0, 1)
    True
    """
    return hashlib.sha256(bytes(seed) + b"/first-dealer").digest()[0] % 2


def deal_seed(seed: bytes, number: int) -> bytes:
    """The seed (32 bytes) of deal ``number`` (1-based) of a match seeded with ``seed``."""
    return hashlib.sha256(seed + b"/deal/" + str(number).encode()).digest()


def check_client_seeds(client_seeds: Sequence[str], players: int) -> tuple[str, ...]:
    """``client_seeds`` as a tuple after checking it: one text per player (``players`` = 2 or
    3), each 0 to :data:`CLIENT_SEED_MAX_CHARS` characters of ``A-Z a-z 0-9 _ -`` (``""`` for a
    computer seat).  Raises ``ValueError`` naming the first bad entry."""
    if isinstance(client_seeds, (str, bytes)) or not isinstance(client_seeds, Sequence):
        raise ValueError(f"client seeds are a list of {players} texts, one per player")
    seeds = tuple(client_seeds)
    if len(seeds) != players:
        raise ValueError(f"client seeds are one per player: {players}, not {len(seeds)}")
    for i, c in enumerate(seeds):
        if not isinstance(c, str) or not _CLIENT_SEED_RE.fullmatch(c):
            raise ValueError(
                f"client seed of player {i} must be 0 to {CLIENT_SEED_MAX_CHARS} characters of A-Z a-z 0-9 _ -"
            )
    return seeds


def deck_seed(server_seed: bytes, client_seeds: Sequence[str] | None) -> bytes:
    """The seed the deck of a deal is shuffled from (``docs/record-format.md``).

    Without client seeds (``None``: simulations, deal scripts, old records) it is the server's
    deal seed itself.  With them (one text per player, checked by :func:`check_client_seeds`)
    it is ``SHA-256(server_seed || "/clients" || "/" c0 || "/" c1 [|| "/" c2])``, each client
    seed written in ASCII; ``/`` cannot occur inside a client seed, so the encoding is
    unambiguous."""
    if client_seeds is None:
        return bytes(server_seed)
    n = len(client_seeds) if isinstance(client_seeds, Sequence) and not isinstance(client_seeds, str) else 0
    seeds = check_client_seeds(client_seeds, n if n in (2, 3) else 2)
    return hashlib.sha256(bytes(server_seed) + b"/clients" + b"".join(b"/" + c.encode("ascii") for c in seeds)).digest()


def start_deal(
    rules: RuleSet,
    dealer: int,
    deck: Sequence[int] | None,
    server_seed: bytes | None,
    client_seeds: Sequence[str] | None,
) -> DealState:
    """The first state of a deal (R3.2), with the source of its reshuffles (R7.3): the one
    place that says where a deal's chance comes from, used alike by a live match (a web
    table), the record replay, the review and hindsight.

    ``deck`` is the 52 card ints in :func:`ginrummy.deal.new_deal` order, or ``None`` to
    shuffle it from the seeds.  With the server's deal seed ``server_seed`` known, the deck
    and every reshuffle come from :func:`deck_seed` of it and ``client_seeds`` (the deal's
    client seeds, or ``None``): reshuffle ``n`` is :func:`ginrummy.deal.seeded_shuffle` of the
    pile below its top card with SHA-256(deck seed || "/reshuffle/" || n).  With
    ``server_seed`` ``None`` (a deal script, or a deal whose seed is still secret) they come
    from the deck (:func:`ginrummy.deal.new_deal`'s default), and ``deck`` is required.
    Raises ``ValueError`` for bad client seeds and :class:`~ginrummy.errors.RecordError` for a
    deck that is not 52 distinct cards."""
    if server_seed is None:
        if deck is None:
            raise ValueError("a deal without a seed needs its deck")
        return new_deal(rules, dealer, deck)
    seed = deck_seed(server_seed, client_seeds)
    return new_deal(rules, dealer, deck_from_seed(seed) if deck is None else deck, seed=seed)


def commitment(seed: bytes) -> str:
    """The SHA-256 of a seed, in hex: shown before a deal, checked after it is revealed."""
    return hashlib.sha256(seed).hexdigest()


def draw_roles(seed: bytes) -> tuple[tuple[int, int, int], list[list[int]]]:
    """The three-hand role draw (R10.1): each player draws a card; highest rank (king high,
    ace low) is in the box, middle is captain, lowest sits out; a tie draws again.

    Returns ``((box, captain, out), draws)`` with each round's three cards in ``draws``.
    """
    deck = seeded_shuffle(range(52), hashlib.sha256(seed + b"/roles").digest())
    draws = []
    pos = 0
    while True:
        if pos + 3 > 52:  # pragma: no cover - 17 tied rounds in a row cannot happen with 52 cards
            deck = seeded_shuffle(deck, hashlib.sha256(bytes(deck)).digest())
            pos = 0
        cards = deck[pos : pos + 3]
        pos += 3
        draws.append(cards)
        ranks = [rank_of(c) for c in cards]
        if len(set(ranks)) == 3:
            order = sorted(range(3), key=lambda p: -ranks[p])
            return (order[0], order[1], order[2]), draws


@dataclass
class DealRecord:
    """One deal of the match as played.

    Attributes:
        number: 1-based deal number (drawn deals included).
        seat_players: (player at seat 0, player at seat 1).
        dealer: the dealer's deal seat.
        seed: the server's deal seed (bytes); keep secret until the deal is over (and, for a
            drawn deal, until the match is over: its hands were never shown).
        actions: ``(seat, action)`` pairs in order.
        result: the result once over.
        client_seeds: the players' client seeds of this deal (one text per player, ``""`` for
            a computer seat), or ``None`` when the deck comes from the server's seed alone.
    """

    number: int
    seat_players: tuple[int, int]
    dealer: int
    seed: bytes
    actions: list[tuple[int, Action]] = field(default_factory=list)
    result: DealResult | None = None
    client_seeds: tuple[str, ...] | None = None

    @property
    def commitment(self) -> str:
        """SHA-256 of the server's deal seed, hex (shown before the deal)."""
        return commitment(self.seed)

    @property
    def deck_seed(self) -> bytes:
        """The seed the deck is shuffled from: :func:`deck_seed` of :attr:`seed` and
        :attr:`client_seeds`."""
        return deck_seed(self.seed, self.client_seeds)


class Match:
    """A whole match under one rule set: deals until the score sheet is finished.

    Create with :meth:`Match.new`.  Use :meth:`apply` for a player's action, :meth:`view` for
    what a player may see, :meth:`next_deal` after a deal is over.
    """

    def __init__(
        self,
        rules: RuleSet,
        names: Sequence[str],
        seed: bytes,
        client_seeds: Sequence[str] | None = None,
        first_dealer: int | None = None,
    ) -> None:
        n = len(names)
        if n not in (2, 3):
            raise RuleSetError(N_("a match has 2 or 3 players, not {n}", n=n))
        if n != rules.players:
            rules = rules.replace(players=n)
        if not isinstance(seed, (bytes, bytearray)) or not seed:
            raise ValueError("a match seed is non-empty bytes")
        if client_seeds is not None:
            client_seeds = check_client_seeds(client_seeds, n)
        if first_dealer is not None and (n != 2 or first_dealer not in (0, 1)):
            raise ValueError("first_dealer is player 0 or 1 of a two-hand match")
        self.first_dealer_given = first_dealer
        self.rules = rules
        self.names = tuple(names)
        self.seed = bytes(seed)
        self.sheet = ScoreSheet(rules, n)
        self.deals: list[DealRecord] = []
        self.roles: tuple[int, int, int] | None = None
        self.role_draws: list[list[int]] = []
        if n == 3:
            self.roles, self.role_draws = draw_roles(self.seed)
            first_players = (self.roles[0], self.roles[1])
            first_dealer = 0
        else:
            first_players = (0, 1)
            if first_dealer is None:  # R3.1: chosen at random (from the seed)
                first_dealer = first_dealer_of(self.seed)
        self.deal: DealState = self._start(1, first_players, first_dealer, client_seeds)

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        names: Sequence[str],
        seed: bytes,
        client_seeds: Sequence[str] | None = None,
        first_dealer: int | None = None,
    ) -> Match:
        """A new match of ``names`` (2 or 3 players) under ``rules`` with secret ``seed``; the
        first deal's deck also depends on ``client_seeds`` when given (one text per player,
        :func:`check_client_seeds`; ``ValueError`` for a bad one).  ``first_dealer`` (player 0
        or 1 of a two-hand match) deals first instead of the random choice of R3.1: a rematch
        goes on by R11.2 (:meth:`next_dealer`)."""
        return cls(rules, names, seed, client_seeds, first_dealer)

    def next_dealer(self) -> int | None:
        """The player who deals the next deal by R11.2 (the winner of a scored deal; after a
        draw the same dealer; ``alternate``: the other player after a scored deal), or ``None``
        while the deal is on or in three-hand gin (R10.3: the box deals)."""
        if self.roles is not None or not self.deal.is_over:
            return None
        result = self.deal.result
        assert result is not None
        dealer = self.deal.dealer
        if result.winner is not None:
            dealer = result.winner if self.rules.next_dealer == "winner" else 1 - dealer
        return self.seat_players[dealer]

    def _start(
        self, number: int, seat_players: tuple[int, int], dealer: int, client_seeds: tuple[str, ...] | None = None
    ) -> DealState:
        rec = DealRecord(number, seat_players, dealer, deal_seed(self.seed, number), client_seeds=client_seeds)
        self.deals.append(rec)
        return start_deal(self.rules, dealer, None, rec.seed, client_seeds)

    # -- reading -----------------------------------------------------------------------------

    @property
    def record(self) -> DealRecord:
        """The record of the current (last) deal."""
        return self.deals[-1]

    @property
    def seat_players(self) -> tuple[int, int]:
        """(player at deal seat 0, player at deal seat 1) of the current deal."""
        return self.record.seat_players

    @property
    def finished(self) -> bool:
        """Whether the match is over (the score sheet is finished)."""
        return self.sheet.finished

    @property
    def winner(self) -> int | None:
        """The player who won the match, once finished."""
        return self.sheet.match_winner

    def seat_of(self, player: int) -> int | None:
        """The deal seat of ``player`` in the current deal, ``None`` if he sits out (R10.2)."""
        sp = self.seat_players
        return sp.index(player) if player in sp else None

    def player_to_act(self) -> int | None:
        """The player to act now, ``None`` between deals or when the match is over."""
        seat = self.deal.to_act
        return None if seat is None else self.seat_players[seat]

    def role_of(self, player: int) -> str:
        """``"dealer"``/``"non-dealer"`` (two-hand) or ``"box"``/``"captain"``/``"out"``."""
        if self.roles is not None:
            return ("box", "captain", "out")[self.roles.index(player)]
        return "dealer" if self.seat_of(player) == self.deal.dealer else "non-dealer"

    def view(self, player: int, deal: DealState | None = None) -> PlayerView:
        """What ``player`` may see now.  The player sitting out of a three-hand deal sees the
        captain's hand (R10.2): his view is the captain's, without the right to act.

        ``deal``: a later state of the current deal to show instead of :attr:`deal` (what the
        player would see after actions tried but not applied yet, such as the web table's look
        ahead at the computer's answer); the score sheet is the current one, so ``deal`` must
        not be over.  Raises ``ValueError`` for an unknown player."""
        if type(player) is not int or not 0 <= player < len(self.names):
            raise ValueError(f"no player {player!r}; players are 0..{len(self.names) - 1}")
        seat = self.seat_of(player)
        scores = {
            "names": list(self.names),
            "totals": list(self.sheet.totals),
            "deal_number": self.record.number,
            "seat_players": list(self.seat_players),
        }
        if self.roles is not None:
            scores["roles"] = {"box": self.roles[0], "captain": self.roles[1], "out": self.roles[2]}
        state = self.deal if deal is None else deal
        if seat is None:
            v = view_of(state, 1, scores=scores)
            return replace(v, legal=())
        return view_of(state, seat, scores=scores)

    # -- acting ------------------------------------------------------------------------------

    def apply(
        self, player: int, action: Action, *, checked: tuple[DealState, DealState, list[Event]] | None = None
    ) -> list[Event]:
        """Apply ``player``'s action to the current deal; when it ends the deal, score it on
        the sheet (R6, R11, R12).  Returns the deal events.

        ``checked``: ``(deal, new, events)``, what ``deal.apply(seat, action)`` returned when the
        caller tried this very action on the current deal just before (the web table verifies
        every action first); used only while ``deal`` is still :attr:`deal`, so the action is
        not worked out twice.

        Raises :class:`NotYourTurnError` if the player sits out, the match is over or another
        player is to act; :class:`IllegalActionError` for an illegal action.  Nothing changes
        when it raises.
        """
        if self.finished:
            raise NotYourTurnError(N_("the match is over"), getattr(action, "text", repr(action)), [], player, None)
        if type(player) is not int or not 0 <= player < len(self.names):
            raise NotYourTurnError(
                N_("no player {player!r}; players are 0..{last}", player=player, last=len(self.names) - 1),
                getattr(action, "text", repr(action)),
                [],
                None,
                self.deal.to_act,
            )
        seat = self.seat_of(player)
        if seat is None:
            raise NotYourTurnError(
                N_("{name} sits out this deal (R10.2)", name=self.names[player]),
                getattr(action, "text", repr(action)),
                [],
                None,
                self.deal.to_act,
            )
        if checked is not None and checked[0] is self.deal:
            new, events = checked[1], checked[2]
        else:
            new, events = self.deal.apply(seat, action)
        self.advance(seat, action, new)
        return events

    def advance(self, seat: int, action: Action, new: DealState) -> None:
        """Make ``new`` the current deal state: what :meth:`apply` does once the deal engine has
        applied ``action`` of deal seat ``seat`` (``new`` must be ``self.deal.apply(seat,
        action)[0]``, for callers that applied it themselves): record the action and, when it
        ends the deal, the result, scored on the sheet (R6, R11, R12)."""
        self.deal = new
        rec = self.deals[-1]
        rec.actions.append((seat, action))
        if new.result is not None:
            rec.result = new.result
            winner = None if new.result.winner is None else rec.seat_players[new.result.winner]
            self.sheet = self.sheet.add(winner, new.result.points)

    def next_deal(self, client_seeds: Sequence[str] | None = None) -> DealState:
        """Start the next deal after one is over: dealer by R11.2 (winner deals; after a draw
        the same dealer; ``alternate`` passes the deal after every scored deal), three-hand
        roles by R10.4.  ``client_seeds``: the players' client seeds of the new deal (one text
        per player, see :func:`deck_seed`), or ``None``.  Raises :class:`IllegalActionError`
        while the deal is still on or when the match is over, ``ValueError`` for bad client
        seeds; nothing changes when it raises."""
        if not self.deal.is_over:
            raise IllegalActionError(N_("the deal is not over yet"))
        if self.finished:
            raise IllegalActionError(N_("the match is over"))
        if client_seeds is not None:
            client_seeds = check_client_seeds(client_seeds, len(self.names))
        result = self.deal.result
        assert result is not None
        sp = self.seat_players
        number = self.record.number + 1
        if self.roles is not None:
            box, captain, out = self.roles
            if result.winner is not None:
                if sp[result.winner] == box:
                    self.roles = (box, out, captain)
                else:
                    self.roles = (captain, out, box)
            self.deal = self._start(number, (self.roles[0], self.roles[1]), 0, client_seeds)
            return self.deal
        dealer = self.next_dealer()
        assert dealer is not None and sp == (0, 1)
        self.deal = self._start(number, sp, dealer, client_seeds)
        return self.deal

    def play_out(self, players: Sequence[Chooser], max_actions: int | None = None) -> int:
        """Play the match to its end: each deal's actions chosen by ``players[p].choose(view,
        legal)`` for the player ``p`` to act (one object per player, 2 or 3, indexed like
        :attr:`names`; each sees only :meth:`view`), each deal started by :meth:`next_deal`
        once the last is over.  Stops early after ``max_actions`` actions (``None``: no limit).
        Returns the number of actions applied.  Raises ``ValueError``, before any action, when
        ``players`` does not hold one chooser a player or ``max_actions`` is not ``None`` or an
        int >= 0; and what :meth:`apply` raises for an action that is not legal (the match is
        left as it was before that action).

        >>> from ginrummy.players import make_player
        >>> from ginrummy.rules import preset
        >>> m = Match.new(preset("eaai").replace(target=10), ["a", "b"], b"seed")
        >>> m.play_out([make_player("novice", 1), make_player("novice", 2)], max_actions=5)
        5
        >>> m.finished
        False
        >>> n = m.play_out([make_player("novice", 1), make_player("novice", 2)])
        >>> m.finished and n > 0
        True
        """
        if len(players) != len(self.names):
            raise ValueError(f"play_out needs one chooser a player: {len(self.names)}, not {len(players)}")
        if max_actions is not None and (type(max_actions) is not int or max_actions < 0):
            raise ValueError(f"max_actions must be None or an int >= 0, not {max_actions!r}")
        n = 0
        while not self.finished and (max_actions is None or n < max_actions):
            if self.deal.is_over:
                self.next_deal()
                continue
            p = self.player_to_act()
            assert p is not None
            view = self.view(p)
            self.apply(p, players[p].choose(view, view.legal))
            n += 1
        return n
