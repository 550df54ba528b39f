"""The game record: a plain-text, line-based format that a person can read and a program can
replay and verify (DESIGN "The game record", "Fair shuffling").  The format is specified in
``docs/record-format.md``; in short::

    gin-record 1
    date 2024-05-01
    players ["Ann","Bob"]
    rules {"big_gin_bonus":null,...}
    seed-commitment <SHA-256 of the match seed, hex>
    deal 1 dealer 1 seats 0 1 commitment <SHA-256 of the deal seed, hex>
    client-seeds ["9f3a...","",...]               (when the players contributed to the deck)
    deck <52 cards, R1.4 text>
    0 pass
    1 take upcard 7H
    1 discard KS
    0 draw stock 4C
    ...
    reshuffle <the new stock, top first>          (R7.3)
    result knock winner 0 points 12 knocker 0 deadwood 3/15 multiplier 1
    layout {"knocker": {...}, "defender": {...}}
    score 12 0
    deal-seed <hex>
    ...
    forfeit player 1 how resigned                 (a match ended by a forfeit, not by R11)
    finished winner 0
    seed <the match seed, hex>

Three kinds of record:

* a **finished match**: every deal, every deal seed and, last, the match seed are revealed;
* a **forfeited match** (:func:`dumps` with ``forfeit=(player, how)``: a player resigned, left
  or lost on time before the match ended by the rules, R11): over as a finished match is, so
  every deal is revealed with the match seed, the deal the forfeit stopped with its deck and
  its actions up to the stop (no result); a ``forfeit`` line says who and how;
* a **match in progress** (:func:`dumps` of a match not finished): the deal seeds of the
  finished deals are revealed, the seed of the current deal and the match seed are not.  It
  still holds the deck of the current deal, so it is the table's private storage, not
  something to show a player.  :func:`replay` rebuilds it; to continue playing from it, pass
  the secret ``seed=`` (checked against the commitment);
* a **public record** (:func:`dumps` with ``public=True``), which a player may download at
  any point of a match: a deal whose seed may not be revealed yet (the deal in progress, and
  a drawn deal until the match is over: its hands were never shown) is written ``sealed``:
  its deal line, client seeds, result and score, but no deck, no actions and no seed.
  :func:`verify` checks every other deal in full;
* a **single deal from a deal script** (:func:`dumps_deal`): no ``seed-commitment`` line and
  one deal without a commitment; its deck is taken as given (there is no seed to check), and
  a reshuffle (R7.3) follows :func:`ginrummy.deal.new_deal`'s default (SHA-256 of the deck).

Pure code: no I/O and no clock (the date is given by the caller).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, parse_action
from .cards import card_str, parse_card, parse_cards
from .deal import OVER, DealResult, DealState, Event, Outcome, deck_from_seed, new_deal
from .errors import GinRummyError, RecordError
from .match import DealRecord, Match, check_client_seeds, commitment, deck_seed, start_deal
from .rules import RuleSet
from .scoring import ScoreSheet

__all__ = [
    "FORMAT_VERSION",
    "FORFEIT_HOW",
    "forfeit_winner",
    "GameRecord",
    "RecordedDeal",
    "RecordedAction",
    "RecordedReshuffle",
    "RecordedResult",
    "VerifyReport",
    "dumps",
    "dumps_deal",
    "loads",
    "replay",
    "verify",
    "deal_states",
]

FORMAT_VERSION = 1
FORFEIT_HOW = ("resigned", "left", "time")
"""How a match can end by a forfeit (the ``forfeit`` line): a player resigned, left the table
(and the other claimed the win), or lost on time."""
_FORFEIT_FORM = "'forfeit player P how resigned|left|time' (P a player of the players line)"
_DRAW_KINDS = ("draw_stock", "take_discard", "take_upcard")


# -- the parsed record ------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedAction:
    """An action line: ``line`` number (1-based), deal ``seat``, the :class:`Action`, and the
    card shown after a draw (``draw stock 4C``) or ``None``."""

    line: int
    seat: int
    action: Action
    shown: int | None = None


@dataclass(frozen=True)
class RecordedReshuffle:
    """A ``reshuffle`` line (R7.3): the new stock, top first (card ints)."""

    line: int
    stock: tuple[int, ...]


@dataclass(frozen=True)
class RecordedResult:
    """A ``result`` line.  ``winner``/``knocker`` are deal seats; ``deadwood`` is (K, D), the
    knocker's deadwood and the defender's after layoffs (R6); ``reason`` the rule of a draw."""

    line: int
    outcome: Outcome
    winner: int | None
    points: int
    knocker: int | None = None
    deadwood: tuple[int, int] | None = None
    multiplier: int = 1
    reason: str = ""


@dataclass
class RecordedDeal:
    """One deal of a record.  ``seat_players`` maps deal seats to player indexes; ``deck`` is
    the 52 card ints in the order of :func:`ginrummy.deal.new_deal`; ``events`` the action and
    reshuffle lines in order; ``score`` the sheet totals per player after the deal."""

    line: int
    number: int
    dealer: int
    seat_players: tuple[int, int]
    commitment: str | None
    deck: list[int] = field(default_factory=list)
    deck_line: int = 0
    events: list[RecordedAction | RecordedReshuffle] = field(default_factory=list)
    result: RecordedResult | None = None
    layout: dict[str, Any] | None = None
    layout_line: int = 0
    score: tuple[int, ...] | None = None
    score_line: int = 0
    deal_seed: bytes | None = None
    deal_seed_line: int = 0
    client_seeds: tuple[str, ...] | None = None
    sealed: bool = False

    @property
    def deck_seed(self) -> bytes | None:
        """The seed the deck was shuffled from (:func:`ginrummy.match.deck_seed`), once the deal
        seed is revealed."""
        return None if self.deal_seed is None else deck_seed(self.deal_seed, self.client_seeds)


@dataclass
class GameRecord:
    """A parsed record (see :func:`loads`).

    ``seed_commitment`` is ``None`` for a single deal from a deal script; ``seed`` is the
    revealed match seed or ``None``; ``roles``/``role_draws`` are the three-hand role draw
    (R10.1); ``finished`` is ``(line, winner index or None)`` from the ``finished`` line;
    ``forfeit`` is ``(line, player index, how)`` from the ``forfeit`` line of a match that
    ended by a forfeit (``how`` one of :data:`FORFEIT_HOW`), else ``None``.
    """

    version: int
    rules: RuleSet
    names: tuple[str, ...]
    date: str | None = None
    seed_commitment: str | None = None
    roles: tuple[int, int, int] | None = None
    role_draws: list[list[int]] = field(default_factory=list)
    deals: list[RecordedDeal] = field(default_factory=list)
    seed: bytes | None = None
    seed_line: int = 0
    finished: tuple[int, int | None] | None = None
    header_lines: dict[str, int] = field(default_factory=dict)
    first_dealer: int | None = None
    forfeit: tuple[int, int, str] | None = None

    @property
    def is_script(self) -> bool:
        """Whether this is a single deal from a deal script (no seed at all)."""
        return self.seed_commitment is None


@dataclass(frozen=True)
class VerifyReport:
    """What :func:`verify` checked: ``ok``, the ``checks`` passed (text), and for a failure the
    ``error`` (naming the line) and its ``line`` number (0 when not tied to a line).

    ``incomplete`` is ``None`` for a complete record (a finished match with its seed revealed,
    or a deal script's deal that is over); otherwise it says where the record stops and what
    would come next (``"the record stops at line 12, in deal 2 after its actions: no result
    line"``), and ``line`` is that last line.  An incomplete record may be ``ok``: every line it
    has checks out, but it is a match in progress or a file cut off, and says nothing of the
    rest."""

    ok: bool
    checks: tuple[str, ...]
    error: str | None = None
    line: int = 0
    incomplete: str | None = None

    @property
    def complete(self) -> bool:
        """Whether the record is the whole match (or the whole deal of a deal script)."""
        return self.incomplete is None

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"ok", "complete", "checks", "error", "incomplete", "line"}``."""
        return {
            "ok": self.ok,
            "complete": self.complete,
            "checks": list(self.checks),
            "error": self.error,
            "incomplete": self.incomplete,
            "line": self.line,
        }


# -- writing ----------------------------------------------------------------------------------


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def _action_line(seat: int, action: Action, events: Sequence[Event]) -> str:
    text = f"{seat} {action.text}"
    if action.kind in _DRAW_KINDS:
        ev = events[0]
        if ev.card is not None:
            text += " " + card_str(ev.card)
    return text


def _result_lines(result: DealResult) -> list[str]:
    if result.outcome == "draw":
        return [f"result draw reason {result.reason or '-'}"]
    sd = result.showdown
    assert sd is not None
    k, d = sd.knocker.deadwood_value, sd.defender.deadwood_value
    js = sd.to_json()
    layout = json.dumps({"knocker": js["knocker"], "defender": js["defender"]}, separators=(",", ":"))
    return [
        f"result {result.outcome} winner {result.winner} points {result.points} knocker {result.knocker} "
        f"deadwood {k}/{d} multiplier {sd.multiplier}",
        f"layout {layout}",
    ]


def _deal_lines(state: DealState, actions: Sequence[tuple[int, Action]]) -> tuple[list[str], DealState]:
    """The action, reshuffle, result and layout lines of a deal replayed from ``state``."""
    lines = []
    for seat, action in actions:
        state, events = state.apply(seat, action)
        lines.append(_action_line(seat, action, events))
        if any(e.kind == "reshuffle" for e in events):
            lines.append("reshuffle " + _cards_text(state.stock[state.drawn :]))
    if state.result is not None:
        lines += _result_lines(state.result)
    return lines, state


def _header(rules: RuleSet, names: Sequence[str], date: str | None) -> list[str]:
    lines = ["# Gin Rummy game record; format: docs/record-format.md", f"gin-record {FORMAT_VERSION}"]
    if date is not None:
        if not isinstance(date, str) or "\n" in date or not date.strip():
            raise RecordError(f"date must be one line of text, not {date!r}")
        lines.append(f"date {date.strip()}")
    lines.append("players " + json.dumps(list(names), ensure_ascii=False))
    lines.append("rules " + rules.to_json())
    return lines


def revealable(match: Match, rec: DealRecord) -> bool:
    """Whether the seed and deck of deal ``rec`` of ``match`` may be shown to the players: once
    no card they expose is still hidden by the rules.  A scored deal is revealed when it ends
    (both hands were laid down, R5); a drawn deal (R7) only when the match is over, since its
    hands were never shown; the deal in progress never."""
    if rec.result is None:
        return False
    return match.finished or rec.result.outcome != "draw"


def forfeit_winner(players: int, player: int) -> int | None:
    """The winner of a match of ``players`` players (2 or 3) that ``player`` forfeited: the
    other player of a two-hand match; none of a three-hand one (two players are left and the
    match did not end by the rules, R11, so neither has won it)."""
    return 1 - player if players == 2 else None


def _check_forfeit(match: Match, forfeit: tuple[int, str]) -> tuple[int, str]:
    """``forfeit`` as ``(player, how)`` if it can end ``match``, else :class:`RecordError`."""
    try:
        player, how = forfeit
    except (TypeError, ValueError):
        raise RecordError(f"forfeit must be (player, how), not {forfeit!r}") from None
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(match.names):
        raise RecordError(f"the forfeit's player must be 0..{len(match.names) - 1}, not {player!r}")
    if how not in FORFEIT_HOW:
        raise RecordError(f"the forfeit's how must be one of {', '.join(FORFEIT_HOW)}, not {how!r}")
    if match.finished:
        raise RecordError("the match is over by the rules (R11): it cannot end by a forfeit")
    return player, how


def dumps(
    match: Match, *, date: str | None = None, public: bool = False, forfeit: tuple[int, str] | None = None
) -> str:
    """The record (text, lines ending in ``\\n``) of ``match``, finished or in progress.

    A finished match reveals every deal seed and the match seed.  A match in progress reveals
    the seeds of its finished deals only; the current deal's deck is written (the record is
    the table's private storage).  With ``public=True`` (what a player may download at any
    point) every deal that is not :func:`revealable` is written ``sealed``: its deal line,
    client seeds, result and score only.  ``forfeit=(player, how)`` (``how`` one of
    :data:`FORFEIT_HOW`) says the match, not finished by the rules (R11), ended by that
    player's forfeit: it is over, so it is written as a finished match is, public or not (no
    deal sealed, the match seed revealed), the deal the forfeit stopped with its deck and its
    actions so far, then ``forfeit player P how H`` and ``finished winner`` the other player
    (:func:`forfeit_winner`).  ``date`` is any one line of text (the engine has no clock).
    Raises :class:`RecordError` for a bad date, or a forfeit that names no player, says an
    unknown how, or comes with a match finished by the rules.

    >>> from ginrummy.match import Match
    >>> from ginrummy.rules import preset
    >>> text = dumps(Match(preset("standard"), ["Ann", "Bob"], bytes(32)), date="2026-01-01")
    >>> text.splitlines()[1:4]
    ['gin-record 1', 'date 2026-01-01', 'players ["Ann", "Bob"]']
    >>> loads(text).names
    ('Ann', 'Bob')
    """
    ended = None if forfeit is None else _check_forfeit(match, forfeit)
    lines = _header(match.rules, match.names, date)
    lines.append(f"seed-commitment {commitment(match.seed)}")
    if match.first_dealer_given is not None:  # a rematch: the first dealer by R11.2, not R3.1
        lines.append(f"first-dealer {match.first_dealer_given}")
    if match.roles is not None:  # the roles of the first deal (R10.1); later ones follow R10.4
        box, captain = match.deals[0].seat_players
        lines.append(f"roles {box} {captain} {3 - box - captain}")
        lines += ["role-draw " + _cards_text(d) for d in match.role_draws]
    sheet = ScoreSheet(match.rules, len(match.names))
    for rec in match.deals:
        lines.append(
            f"deal {rec.number} dealer {rec.dealer} seats {rec.seat_players[0]} {rec.seat_players[1]} "
            f"commitment {rec.commitment}"
        )
        if rec.client_seeds is not None:
            lines.append("client-seeds " + json.dumps(list(rec.client_seeds)))
        if public and ended is None and not revealable(match, rec):
            lines.append("sealed")
            if rec.result is not None:  # a drawn deal: no points, the totals stay
                lines.append(f"result draw reason {rec.result.reason or '-'}")
                sheet = sheet.add(None, 0)
                lines.append("score " + " ".join(str(t) for t in sheet.totals))
            continue
        deck = deck_from_seed(rec.deck_seed)
        lines.append("deck " + _cards_text(deck))
        body, state = _deal_lines(start_deal(match.rules, rec.dealer, deck, rec.seed, rec.client_seeds), rec.actions)
        lines += body
        if state.result is not None:
            winner = None if state.result.winner is None else rec.seat_players[state.result.winner]
            sheet = sheet.add(winner, state.result.points)
            lines.append("score " + " ".join(str(t) for t in sheet.totals))
            lines.append(f"deal-seed {rec.seed.hex()}")
    winner = match.winner
    if ended is not None:  # over by a forfeit: who and how, then as a finished match
        lines.append(f"forfeit player {ended[0]} how {ended[1]}")
        winner = forfeit_winner(len(match.names), ended[0])
    if match.finished or ended is not None:
        lines.append(f"finished winner {'none' if winner is None else winner}")
        lines.append(f"seed {match.seed.hex()}")
    return "\n".join(lines) + "\n"


def dumps_deal(
    rules: RuleSet,
    dealer: int,
    deck: Sequence[int],
    actions: Sequence[Action | tuple[int, Action]],
    *,
    names: Sequence[str] = ("seat 0", "seat 1"),
    date: str | None = None,
) -> str:
    """The record of a single deal played from a deal script: ``deck`` (52 card ints in
    :func:`~ginrummy.deal.new_deal` order), ``dealer`` seat, and ``actions`` (each an
    :class:`Action` taken by the seat to act, or a ``(seat, action)`` pair).

    The record has no seed: its deck is given.  Raises :class:`RecordError` for a bad deck
    or date, and :class:`~ginrummy.errors.IllegalActionError` for an illegal action.
    """
    state = start_deal(rules, dealer, deck, None, None)
    pairs = []
    for item in actions:
        if isinstance(item, Action):
            seat = state.to_act if state.to_act is not None else 0
            pairs.append((seat, item))
            state, _ = state.apply(seat, item)
        else:
            pairs.append(item)
            state, _ = state.apply(*item)
    lines = _header(rules, names, date)
    lines.append(f"deal 1 dealer {dealer} seats 0 1")
    lines.append("deck " + _cards_text(list(deck)))
    body, _ = _deal_lines(start_deal(rules, dealer, deck, None, None), pairs)
    return "\n".join(lines + body) + "\n"


# -- reading ----------------------------------------------------------------------------------


def _err(line: int, message: str) -> RecordError:
    """A :class:`RecordError` naming ``line``; the number is also kept as its ``line``."""
    exc = RecordError(f"line {line}: {message}" if line else message)
    exc.line = line  # type: ignore[attr-defined]
    return exc


def _int(line: int, text: str, what: str, lo: int | None = None, hi: int | None = None) -> int:
    try:  # isdigit() is true of "²" and of 5,000 digits, both of which int() refuses
        value = int(text) if text.isdigit() else None
    except ValueError:
        value = None
    if value is None:
        raise _err(line, f"{what} must be a whole number, not {_clip(text)!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _err(line, f"{what} {value} is out of range {lo}..{hi}")
    return value


def _clip(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters (with ``...``), to be quoted in an error."""
    return text if len(text) <= limit else text[:limit] + "..."


def _json(line: int, text: str, what: str) -> Any:
    """``text`` read as JSON; :class:`RecordError` saying ``what`` it must be when it is not
    JSON, or holds a number of more than 4,300 digits or a nesting Python cannot read (both
    raise outside ``JSONDecodeError``)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise _err(line, f"{what}: {str(exc)[:120]}") from None


def _hex(line: int, text: str, what: str, size: int | None = None) -> str:
    t = text.strip().lower()
    try:
        raw = bytes.fromhex(t)
    except ValueError:
        raise _err(line, f"{what} must be hex digits, not {text!r}") from None
    if not raw or (size is not None and len(raw) != size):
        raise _err(line, f"{what} must be {size or 'some'} bytes in hex, not {text!r}")
    return t


def _cards(line: int, text: str, what: str) -> list[int]:
    try:
        return parse_cards(text)
    except GinRummyError as exc:
        raise _err(line, f"{what}: {exc}") from None


def _parse_action(line: int, text: str) -> RecordedAction:
    seat_text, _, rest = text.partition(" ")
    if seat_text not in ("0", "1"):
        raise _err(line, f"not a record line: {text!r} (an action line starts with the deal seat 0 or 1)")
    words = rest.split()
    shown = None
    if len(words) == 3 and " ".join(words[:2]).lower() in ("draw stock", "take discard", "take upcard"):
        try:
            shown = parse_card(words[2])
        except GinRummyError as exc:
            raise _err(line, f"card shown after {' '.join(words[:2])}: {exc}") from None
        rest = " ".join(words[:2])
    try:
        action = parse_action(rest)
    except GinRummyError as exc:
        raise _err(line, str(exc)) from None
    return RecordedAction(line, int(seat_text), action, shown)


def _parse_result(line: int, args: str) -> RecordedResult:
    words = args.split()
    if not words:
        raise _err(line, "result line without an outcome")
    outcome = words[0]
    if len(words) % 2 != 1:
        raise _err(line, "result line must be: OUTCOME then KEY VALUE pairs")
    kv = dict(zip(words[1::2], words[2::2]))
    if outcome == "draw":
        return RecordedResult(line, Outcome.DRAW, None, 0, reason=kv.get("reason", ""))
    if outcome not in ("knock", "undercut", "gin", "big_gin"):
        raise _err(line, f"unknown outcome {outcome!r}; outcomes: knock, undercut, gin, big_gin, draw")
    for key in ("winner", "points", "knocker", "deadwood", "multiplier"):
        if key not in kv:
            raise _err(line, f"result line has no {key}")
    k_text, _, d_text = kv["deadwood"].partition("/")
    return RecordedResult(
        line,
        Outcome(outcome),
        _int(line, kv["winner"], "winner", 0, 1),
        _int(line, kv["points"], "points"),
        _int(line, kv["knocker"], "knocker", 0, 1),
        (_int(line, k_text, "knocker's deadwood"), _int(line, d_text, "defender's deadwood")),
        _int(line, kv["multiplier"], "multiplier", 1, 2),
    )


def _header_line(no: int, word: str, args: str, s: str, header: dict[str, Any]) -> GameRecord | None:
    """Read header line ``no`` (``word args``, the whole line ``s``) into ``header``; the record
    once the first ``deal`` line ends the header, else ``None``.  Raises :class:`RecordError`."""
    if header and word in header.get("header_lines", {}) and word != "role-draw":
        raise _err(no, f"a second {word!r} line in the header")
    if header:
        header.setdefault("header_lines", {})[word] = no
    if not header:
        if word != "gin-record":
            raise _err(no, f"a record starts with 'gin-record {FORMAT_VERSION}', not {s!r}")
        header["version"] = _int(no, args, "format version", FORMAT_VERSION, FORMAT_VERSION)
        return None
    if word == "date":
        header["date"] = args
        return None
    if word == "players":
        names = _json(no, args, "players must be a JSON list of names")
        if (
            not isinstance(names, list)
            or len(names) not in (2, 3)
            or not all(isinstance(n, str) for n in names)
            or len(set(names)) != len(names)
        ):
            raise _err(no, "players must be a JSON list of 2 or 3 distinct names")
        header["names"] = tuple(names)
        return None
    if word == "rules":
        data = _json(no, args, "rules must be a JSON object of rule fields")
        try:
            header["rules"] = RuleSet.from_dict(data)
        except (TypeError, AttributeError) as exc:
            raise _err(no, f"rules must be a JSON object of rule fields: {exc}") from None
        except GinRummyError as exc:
            raise _err(no, str(exc)) from None
        return None
    if word == "seed-commitment":
        header["seed_commitment"] = _hex(no, args, "seed-commitment", 32)
        return None
    if word == "first-dealer":
        header["first_dealer"] = _int(no, args, "first dealer", 0, 1)
        return None
    if word == "roles":
        parts = args.split()
        if sorted(parts) != ["0", "1", "2"]:
            raise _err(no, "roles must be the box, captain and sitting-out player: a permutation of 0 1 2")
        header["roles"] = tuple(int(p) for p in parts)
        return None
    if word == "role-draw":
        cards = _cards(no, args, "role-draw")
        if len(cards) != 3:
            raise _err(no, "a role-draw line has three cards (R10.1)")
        header.setdefault("role_draws", []).append(cards)
        return None
    if word != "deal":
        raise _err(no, f"unknown header line {word!r}")
    for key, what in (("names", "players"), ("rules", "rules")):
        if key not in header:
            raise _err(no, f"the header has no {what} line")
    header.pop("version", None)
    rec = GameRecord(FORMAT_VERSION, **header)
    if not rec.is_script and len(rec.names) != rec.rules.players:
        raise _err(no, f"rules say {rec.rules.players} players but {len(rec.names)} are named")
    return rec


def _deal_line(no: int, args: str, s: str, rec: GameRecord) -> RecordedDeal:
    """The deal that line ``no`` (``deal args``, the whole line ``s``) starts in ``rec``."""
    parts = args.split()
    script = rec.is_script
    form = "deal N dealer D seats P Q" + ("" if script else " commitment HEX")
    if (
        len(parts) != (6 if script else 8)
        or parts[1] != "dealer"
        or parts[3] != "seats"
        or (not script and parts[6] != "commitment")
    ):
        raise _err(no, f"a deal line reads {form!r}, not {s!r}")
    number = _int(no, parts[0], "deal number", 1)
    if number != len(rec.deals) + 1:
        raise _err(no, f"deal {number} follows deal {len(rec.deals)}; deals are numbered 1, 2, ...")
    top = len(rec.names) - 1
    seats = (_int(no, parts[4], "seat 0 player", 0, top), _int(no, parts[5], "seat 1 player", 0, top))
    if seats[0] == seats[1]:
        raise _err(no, "the two deal seats have the same player")
    return RecordedDeal(
        no, number, _int(no, parts[2], "dealer", 0, 1), seats, None if script else _hex(no, parts[7], "commitment", 32)
    )


def _forfeit_line(no: int, args: str, rec: GameRecord) -> None:
    """Read a ``forfeit player P how H`` line into ``rec``: once, in a match record, before
    its ``finished`` and ``seed`` lines, P a player of the record, H one of :data:`FORFEIT_HOW`."""
    parts = args.split()
    if len(parts) != 4 or parts[0] != "player" or parts[2] != "how" or parts[3] not in FORFEIT_HOW:
        raise _err(no, f"a forfeit line reads {_FORFEIT_FORM}, not {_clip('forfeit ' + args)!r}")
    top = len(rec.names) - 1
    if not (parts[1].isdigit() and parts[1].isascii() and int(parts[1]) <= top):
        raise _err(no, f"forfeit player {_clip(parts[1])!r} is not a player of this record: players are 0..{top}")
    if rec.is_script:
        raise _err(no, "a deal-script record has no forfeit line: it is a single deal, not a match")
    if rec.forfeit is not None:
        raise _err(no, f"a second forfeit line (the first is line {rec.forfeit[0]})")
    if rec.finished is not None or rec.seed is not None:
        raise _err(no, f"a forfeit line comes before the finished and seed lines: {_FORFEIT_FORM}")
    rec.forfeit = (no, int(parts[1]), parts[3])


def _match_end_line(no: int, word: str, args: str, rec: GameRecord) -> None:
    """Read a ``forfeit``, ``finished`` or ``seed`` line (after the last deal) into ``rec``."""
    if word == "forfeit":
        _forfeit_line(no, args, rec)
    elif word == "finished":
        parts = args.split()
        if len(parts) != 2 or parts[0] != "winner":
            raise _err(no, "a finished line reads 'finished winner N' (or 'finished winner none')")
        rec.finished = (no, None if parts[1] == "none" else _int(no, parts[1], "winner", 0, 2))
        if rec.forfeit is not None:
            want = forfeit_winner(len(rec.names), rec.forfeit[1])
            if rec.finished[1] != want:
                raise _err(
                    no,
                    f"player {rec.forfeit[1]} forfeited (line {rec.forfeit[0]}), so the finished line reads "
                    f"'finished winner {'none' if want is None else want}'"
                    + (" (the other player)" if want is not None else " (a three-hand match has no winner then)"),
                )
    else:
        rec.seed = bytes.fromhex(_hex(no, args, "seed"))
        rec.seed_line = no


def _deal_opening_line(no: int, word: str, args: str, s: str, rec: GameRecord, deal: RecordedDeal) -> bool:
    """Read a line of ``deal`` before its deck (``client-seeds``, ``sealed``, a sealed deal's
    lines, ``deck``); whether it was one of those."""
    if word == "client-seeds":
        if deal.deck or deal.sealed or deal.client_seeds is not None:
            raise _err(no, "a client-seeds line comes once, right after its deal line")
        seeds = _json(no, args, f"client-seeds must be a JSON list of {len(rec.names)} client seeds")
        try:
            deal.client_seeds = check_client_seeds(seeds, len(rec.names))
        except ValueError as exc:
            raise _err(no, f"client-seeds must be a JSON list of {len(rec.names)} client seeds: {exc}") from None
        return True
    if word == "sealed":
        if deal.deck or deal.sealed or args:
            raise _err(no, "a sealed line stands alone, instead of the deal's deck and actions")
        if rec.is_script:
            raise _err(no, "a deal-script record has no sealed deal")
        deal.sealed = True
        return True
    if deal.sealed:
        if word == "result" and args.split()[:1] == ["draw"]:
            deal.result = _parse_result(no, args)
        elif word == "score" and deal.result is not None:
            deal.score = tuple(_int(no, p, "score") for p in args.split())
            deal.score_line = no
        else:
            raise _err(no, f"a sealed deal has only a draw's result and score lines, not {s!r}")
        return True
    if word == "deck":
        if deal.deck:
            raise _err(no, "a second deck line in one deal")
        deal.deck = _cards(no, args, "deck")
        deal.deck_line = no
        if len(deal.deck) != 52:
            raise _err(no, f"a deck has 52 cards, not {len(deal.deck)}")
        return True
    return False


def _deal_body_line(no: int, word: str, args: str, s: str, deal: RecordedDeal) -> None:
    """Read a line of ``deal`` after its deck: an action, a reshuffle, the result, the layout,
    the score or the deal seed."""
    if not deal.deck:
        raise _err(no, "a deal line is followed by its deck line")
    if word == "reshuffle":
        deal.events.append(RecordedReshuffle(no, tuple(_cards(no, args, "reshuffle"))))
    elif word == "result":
        deal.result = _parse_result(no, args)
    elif word == "layout":
        deal.layout = _json(no, args, "layout must be JSON")
        deal.layout_line = no
    elif word == "score":
        deal.score = tuple(_int(no, p, "score") for p in args.split())
        deal.score_line = no
    elif word == "deal-seed":
        deal.deal_seed = bytes.fromhex(_hex(no, args, "deal-seed"))
        deal.deal_seed_line = no
    else:
        if deal.result is not None:
            raise _err(no, f"{s!r} follows the deal's result line")
        deal.events.append(_parse_action(no, s))


def _complete(rec: GameRecord | None, header: dict[str, Any], lines: int) -> GameRecord:
    """``rec`` once the whole text (``lines`` lines) is read: checks what only the end can tell."""
    if rec is None:
        if not header:
            raise _err(1, "empty record (a record starts with 'gin-record 1')")
        raise _err(lines, "the record has no deal")
    for d in rec.deals:
        if not d.deck and not d.sealed:
            raise _err(d.line, f"deal {d.number} has no deck line")
        if d.sealed and d.result is None and d is not rec.deals[-1]:
            raise _err(
                d.line,
                f"deal {d.number} is sealed with no result, so it is in progress, but deal {d.number + 1} follows it",
            )
    if rec.seed is not None and any(d.sealed for d in rec.deals):
        raise _err(rec.seed_line, "a record that reveals the match seed has no sealed deal")
    if rec.is_script and (len(rec.deals) != 1 or rec.seed is not None):
        raise _err(rec.deals[-1].line, "a record without a seed-commitment is a single deal from a deal script")
    return rec


def loads(text: str) -> GameRecord:
    """Parse a record (see ``docs/record-format.md``) into a :class:`GameRecord`.

    Only the syntax is checked here (and that the deck is 52 distinct cards); :func:`replay`
    and :func:`verify` check that it replays.  Raises :class:`RecordError` naming the line
    number and what was wrong.
    """
    if not isinstance(text, str):
        raise _err(0, f"a record is text, not {type(text).__name__}")
    header: dict[str, Any] = {}
    rec: GameRecord | None = None
    deal: RecordedDeal | None = None
    lines = text.splitlines()
    for no, raw in enumerate(lines, 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        word, _, args = s.partition(" ")
        args = args.strip()
        if rec is None:  # the header, ended by the first deal line
            rec = _header_line(no, word, args, s, header)
            if rec is None:
                continue
        if word == "deal":
            deal = _deal_line(no, args, s, rec)
            rec.deals.append(deal)
        elif word in ("forfeit", "finished", "seed"):
            _match_end_line(no, word, args, rec)
            deal = None
        elif deal is None:
            raise _err(no, f"{s!r} is outside a deal")
        elif not _deal_opening_line(no, word, args, s, rec, deal):
            _deal_body_line(no, word, args, s, deal)
    return _complete(rec, header, len(lines))


# -- replaying --------------------------------------------------------------------------------


def deal_states(rules: RuleSet, d: RecordedDeal) -> tuple[list[tuple[int, DealState, int, Action]], DealState]:
    """The states of recorded deal ``d`` (not sealed) under ``rules``: ``(index, state before,
    seat, action)`` for every action line in order (``index`` 1-based, reshuffle lines not
    counted), and the state after the last one.  The deal starts by
    :func:`ginrummy.match.start_deal`, as at the table: a reshuffle (R7.3) comes from the deck
    seed (the deal seed and the client seeds) when the deal seed is revealed, from the deck for
    a deal script, and is the record's ``reshuffle`` line when the deal seed is still secret.
    The record must replay (:func:`replay`); an illegal action raises
    :class:`~ginrummy.errors.IllegalActionError`."""
    state = start_deal(rules, d.dealer, d.deck, d.deal_seed, d.client_seeds)
    out: list[tuple[int, DealState, int, Action]] = []
    index = 0
    for ev in d.events:
        if isinstance(ev, RecordedReshuffle):
            if d.deal_seed is None:  # the deal seed is secret: the record's stock is the chance event
                state.stock, state.drawn = tuple(ev.stock), 0
            continue
        index += 1
        out.append((index, state, ev.seat, ev.action))
        state, _ = state.apply(ev.seat, ev.action)
    return out, state


class _RecordMatch(Match):
    """A :class:`Match` rebuilt from the decks of a record whose match seed is not known: a
    match in progress, or a single deal from a deal script.  After the replay it refuses to
    start a new deal (its deck is unknown), and to continue a match deal whose deal seed is not
    known (a reshuffle, R7.3, would need it): pass ``seed=`` to :func:`replay` for that."""

    _rec: GameRecord
    _sealed: bool

    @classmethod
    def build(cls, rec: GameRecord) -> _RecordMatch:
        m = cls.__new__(cls)
        m._rec, m._sealed = rec, False
        m.rules, m.names, m.seed, m.first_dealer_given = rec.rules, rec.names, b"", rec.first_dealer
        m.sheet = ScoreSheet(rec.rules, len(rec.names))
        m.deals = []
        m.roles, m.role_draws = rec.roles, [list(d) for d in rec.role_draws]
        if len(rec.names) == 3 and rec.roles is None:
            raise _err(rec.deals[0].line, "a three-hand record names the roles (R10.1) before its first deal")
        first = rec.deals[0]
        m.deal = m._start(1, first.seat_players, first.dealer)
        return m

    def _start(
        self, number: int, seat_players: tuple[int, int], dealer: int, client_seeds: tuple[str, ...] | None = None
    ) -> DealState:
        if self._sealed or number > len(self._rec.deals):
            raise RecordError(
                f"deal {number} cannot start: the match seed is not revealed, so its deck is "
                "unknown; replay the record with seed= to continue the match"
            )
        d = self._rec.deals[number - 1]
        self.deals.append(DealRecord(number, seat_players, dealer, d.deal_seed or b"", client_seeds=d.client_seeds))
        if d.sealed:  # its cards are secret: a stand-in deck, never played (see _skip_sealed)
            return new_deal(self.rules, dealer, range(52))
        return start_deal(self.rules, dealer, d.deck, d.deal_seed, d.client_seeds)

    def apply(
        self, player: int, action: Action, *, checked: tuple[DealState, DealState, list[Event]] | None = None
    ) -> list[Event]:
        if self._sealed and not self._rec.is_script and not self.record.seed:
            raise RecordError(
                "this match was replayed from a record whose seeds are not revealed: "
                "replay it with seed= to continue the deal"
            )
        return super().apply(player, action, checked=checked)


def _first_difference(a: Sequence[int], b: Sequence[int]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"position {i + 1}: the record has {card_str(x)}, the seed gives {card_str(y)}"
    return f"the record has {len(a)} cards, the seed gives {len(b)}"  # pragma: no cover


def _count(n: int, noun: str) -> str:
    """``n`` and an English noun in its number ("1 point", "2 points"): what ``gin verify``
    reports is English, and the engine reads no message catalog."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _lines_replayed(n: int) -> str:
    return _count(n, "line") + " replayed"


def _result_text(r: RecordedResult) -> str:
    if r.outcome == "draw":
        return f"draw ({r.reason})"
    assert r.deadwood is not None
    points = _count(r.points, "point")
    return (
        f"{r.outcome}, winner seat {r.winner}, {points}, knocker seat {r.knocker}, "
        f"deadwood {r.deadwood[0]}/{r.deadwood[1]}, multiplier {r.multiplier}"
    )


def _as_recorded(res: DealResult, line: int) -> RecordedResult:
    if res.outcome == "draw":
        return RecordedResult(line, Outcome.DRAW, None, 0, reason=res.reason)
    sd = res.showdown
    assert sd is not None
    return RecordedResult(
        line,
        res.outcome,
        res.winner,
        res.points,
        res.knocker,
        (sd.knocker.deadwood_value, sd.defender.deadwood_value),
        sd.multiplier,
    )


def _check_deal_seed(d: RecordedDeal, checks: list[str]) -> None:
    if d.deal_seed is None:
        return
    if d.commitment is not None and commitment(d.deal_seed) != d.commitment:
        raise _err(
            d.deal_seed_line,
            f"deal {d.number}: SHA-256 of the revealed deal seed is "
            f"{commitment(d.deal_seed)}, not the commitment {d.commitment} of line {d.line}",
        )
    assert d.deck_seed is not None
    deck = deck_from_seed(d.deck_seed)
    if deck != d.deck:
        raise _err(
            d.deck_line,
            f"deal {d.number}: the deck is not the one its deal seed"
            + (" and client seeds give" if d.client_seeds is not None else " gives")
            + f" ({_first_difference(d.deck, deck)})",
        )
    checks.append(
        f"deal {d.number}: SHA-256(deal seed) equals its commitment; the deck is the one the deal seed"
        + (" and the client seeds give" if d.client_seeds is not None else " gives")
    )


def _skip_sealed(m: Match, d: RecordedDeal, checks: list[str]) -> None:
    """A sealed deal of a public record: its cards are secret, so only what is public is
    checked: a drawn deal (R7) leaves the totals as they were; the deal in progress, nothing."""
    if d.result is None:
        checks.append(f"deal {d.number}: sealed (in progress): its cards are still secret, commitment {d.commitment}")
        return
    st = m.deal._copy()
    st.phase, st.to_act = OVER, None
    st.result = DealResult(Outcome.DRAW, None, 0, None, None, d.result.reason)
    m.deal = st
    m.sheet = m.sheet.add(None, 0)
    if d.score is not None and d.score != m.sheet.totals:
        raise _err(
            d.score_line,
            f"deal {d.number}: the score line says {' '.join(map(str, d.score))}; "
            f"after a drawn deal the totals stay {' '.join(map(str, m.sheet.totals))}",
        )
    checks.append(
        f"deal {d.number}: sealed drawn deal ({d.result.reason}): its hands stay secret until the match "
        "is over; the totals are unchanged"
    )


def _check_seeded_deck(r: DealRecord, d: RecordedDeal, checks: list[str]) -> None:
    """Check the recorded deal ``d`` of a seeded match against ``r``, the deal the match seed
    gives (R14): its commitment, deck and deal seed (raises :class:`RecordError` naming the
    line); appends one line to ``checks``."""
    if d.commitment != r.commitment:
        raise _err(
            d.line,
            f"deal {d.number}: the commitment is not SHA-256 of the deal seed "
            f"SHA-256(match seed || '/deal/{d.number}') = {r.commitment}",
        )
    deck = deck_from_seed(r.deck_seed)
    if d.deck != deck:
        raise _err(
            d.deck_line,
            f"deal {d.number}: the deck is not the one the match seed"
            + (" and client seeds give" if d.client_seeds is not None else " gives")
            + f" ({_first_difference(d.deck, deck)})",
        )
    if d.deal_seed is not None and d.deal_seed != r.seed:
        raise _err(d.deal_seed_line, f"deal {d.number}: the deal seed is not SHA-256(match seed || '/deal/{d.number}')")
    checks.append(f"deal {d.number}: deck and commitment recomputed from the match seed")


def _replay_events(m: Match, d: RecordedDeal, known: bool) -> int:
    """Apply the actions of the recorded deal ``d`` to ``m`` (its deal dealt), checking each
    card taken and each reshuffle line (R7.3: the stock the deal seed gives when it is
    ``known``, else the record's, a permutation of the pile below its top card).  Returns the
    number of the deal's last line.  Raises :class:`RecordError` naming the line."""
    pending: int | None = None
    last = d.deck_line
    for ev in d.events:
        last = ev.line
        if isinstance(ev, RecordedReshuffle):
            if pending is None:
                raise _err(ev.line, f"deal {d.number}: a reshuffle line where the stock was not rebuilt")
            stock = m.deal.stock[m.deal.drawn :]
            if known and tuple(ev.stock) != tuple(stock):
                raise _err(
                    ev.line,
                    f"deal {d.number}: the reshuffled stock is not the one the deal seed gives "
                    f"({_first_difference(ev.stock, stock)})",
                )
            if not known:  # the deal seed is secret: the record's stock is the chance event (R7.3)
                if sorted(ev.stock) != sorted(stock):
                    raise _err(
                        ev.line, f"deal {d.number}: the reshuffled stock is not the discard pile below its top card"
                    )
                m.deal.stock, m.deal.drawn = tuple(ev.stock), 0
            pending = None
            continue
        if pending is not None:
            raise _err(
                ev.line,
                f"deal {d.number}: the stock was rebuilt (R7.3) after line {pending} but no reshuffle line follows",
            )
        try:
            events = m.apply(m.seat_players[ev.seat], ev.action)
        except GinRummyError as exc:
            raise _err(ev.line, f"deal {d.number}: seat {ev.seat} {ev.action.text}: {exc}") from None
        if ev.shown is not None and events[0].card != ev.shown:
            raise _err(
                ev.line,
                f"deal {d.number}: the card taken is {card_str(events[0].card or 0)}, "
                f"the record shows {card_str(ev.shown)}",
            )
        if any(e.kind == "reshuffle" for e in events):
            pending = ev.line
    if pending is not None:
        raise _err(pending, f"deal {d.number}: the stock was rebuilt (R7.3) but no reshuffle line follows")
    return last


def _replay_deal(m: Match, rec: GameRecord, d: RecordedDeal, seeded: bool, checks: list[str]) -> None:
    r = m.record
    if (r.dealer, r.seat_players) != (d.dealer, d.seat_players):
        raise _err(
            d.line,
            f"deal {d.number}: by the rules (R11.2, R10.4) the dealer is seat {r.dealer} and the "
            f"seats are players {r.seat_players[0]} {r.seat_players[1]}; the record has dealer "
            f"{d.dealer}, players {d.seat_players[0]} {d.seat_players[1]}",
        )
    if d.sealed:
        _skip_sealed(m, d, checks)
        return
    if seeded:
        _check_seeded_deck(r, d, checks)
    else:
        _check_deal_seed(d, checks)
    known = seeded or rec.is_script or d.deal_seed is not None
    last = _replay_events(m, d, known)
    res = m.deal.result
    if d.result is None:
        if res is not None:
            raise _err(last, f"deal {d.number} is over after this line ({res.outcome}) but has no result line")
        if d.score is not None:
            raise _err(d.score_line, f"deal {d.number}: a score line without a result")
        stopped = rec.forfeit is not None and d is rec.deals[-1]
        checks.append(
            f"deal {d.number}: {_lines_replayed(len(d.events))} "
            + ("(the forfeit stopped it: no result)" if stopped else "(deal in progress)")
        )
        return
    if res is None:
        legal = ", ".join(a.text for a in m.deal.legal_actions())
        raise _err(
            d.result.line,
            f"deal {d.number} is not over after its actions: seat {m.deal.to_act} is to act (legal: {legal})",
        )
    got = _as_recorded(res, d.result.line)
    if got != d.result:
        raise _err(
            d.result.line,
            f"deal {d.number}: the result line says {_result_text(d.result)}; the replay gives {_result_text(got)}",
        )
    if res.showdown is not None and d.layout is not None:
        js = res.showdown.to_json()
        if d.layout != {"knocker": js["knocker"], "defender": js["defender"]}:
            raise _err(d.layout_line, f"deal {d.number}: the layout is not the one the replay gives (R5.2-R5.5)")
    if d.score is not None and d.score != m.sheet.totals:
        raise _err(
            d.score_line,
            f"deal {d.number}: the score line says {' '.join(map(str, d.score))}; "
            f"the sheet gives {' '.join(map(str, m.sheet.totals))}",
        )
    checks.append(
        f"deal {d.number}: {_lines_replayed(len(d.events))}; result {_result_text(got)}"
        + ("" if d.score is None else f"; score {' '.join(map(str, d.score))}")
        + " match"
    )


def _replay(rec: GameRecord, seed: bytes | None, checks: list[str]) -> Match:
    if rec.seed is not None:
        if seed is not None and bytes(seed) != rec.seed:
            raise RecordError("the seed given is not the seed the record reveals")
        seed = rec.seed
    seeded = seed is not None
    if seed is not None:
        if rec.is_script:
            raise RecordError("a deal-script record has no seed")
        if commitment(bytes(seed)) != rec.seed_commitment:
            line = rec.seed_line or rec.header_lines.get("seed-commitment", 0)
            raise _err(
                line,
                f"the seed does not match the seed-commitment: SHA-256(seed) is "
                f"{commitment(bytes(seed))}, the record committed to {rec.seed_commitment}",
            )
        checks.append("SHA-256 of the match seed equals the seed-commitment")
        m = Match.new(
            rec.rules, rec.names, bytes(seed), client_seeds=rec.deals[0].client_seeds, first_dealer=rec.first_dealer
        )
        if m.rules != rec.rules:
            raise _err(rec.header_lines.get("rules", 0), "the rules do not match the number of players")
        if (m.roles, m.role_draws) != (rec.roles, [list(x) for x in rec.role_draws]):
            raise _err(
                rec.header_lines.get("roles", 0),
                f"the three-hand role draw (R10.1) from the seed gives roles {m.roles}, not {rec.roles}",
            )
        if m.roles is not None:
            checks.append("the three-hand role draw (R10.1) recomputed from the match seed")
    else:
        m = _RecordMatch.build(rec)
    for i, d in enumerate(rec.deals):
        if i:
            try:
                m.next_deal(d.client_seeds)
            except GinRummyError as exc:
                raise _err(d.line, f"deal {d.number} cannot start: {exc}") from None
        _replay_deal(m, rec, d, seeded, checks)
    if rec.forfeit is not None:
        _check_forfeit_end(m, rec, checks)
    elif not rec.is_script:
        if rec.finished is not None:
            line, winner = rec.finished
            if not m.finished or m.winner != winner:
                raise _err(
                    line,
                    f"the record says the match is finished with winner {winner}; the replay gives "
                    f"finished={m.finished}, winner {m.winner}",
                )
            checks.append(f"the match is finished; winner {rec.names[winner] if winner is not None else 'none'}")
        elif m.finished:  # a record that stops before its finished line is incomplete (verify says so)
            checks.append("the match is over after the last deal; the record has no finished line yet")
    if isinstance(m, _RecordMatch):
        m._sealed = True
    return m


def _check_forfeit_end(m: Match, rec: GameRecord, checks: list[str]) -> None:
    """Check the ``forfeit`` line of ``rec`` against ``m``, the match replayed to its last line:
    a forfeit ends only a match not over by the rules (R11; its ``finished`` line names
    :func:`forfeit_winner`, checked by :func:`loads`).  Raises :class:`RecordError`."""
    assert rec.forfeit is not None
    line, player, how = rec.forfeit
    if m.finished:
        raise _err(
            line,
            "the match is over by the rules (R11) after the last deal, so it did not end by a forfeit; "
            "a forfeit line follows only a match stopped before its end",
        )
    winner = forfeit_winner(len(rec.names), player)
    d = rec.deals[-1]
    stopped = f"deal {d.number} stopped after its last action line" if d.result is None else "between deals"
    checks.append(
        f"the match ended by a forfeit: {rec.names[player]} {_HOW_TEXT[how]} ({stopped}); "
        + (f"winner {rec.names[winner]}" if winner is not None else "no winner (three-hand)")
        + "; the record cannot show why a player forfeited, only that the match was not over by the rules"
    )


_HOW_TEXT = {"resigned": "resigned", "left": "left the table", "time": "lost on time"}


def replay(record_or_text: GameRecord | str, *, seed: bytes | None = None) -> Match:
    """Rebuild the :class:`Match` of a record by applying every action, checking every
    commitment, deck, card shown, reshuffle, result, layout and score line on the way.

    When the match seed is revealed (or given as ``seed``, bytes), the match is
    ``Match.new(rules, names, seed)`` and every deck is checked against
    ``deck_from_seed(deal_seed(seed, k))``; the returned match can go on.  Otherwise (a match
    in progress, or a deal script) the deals are rebuilt from their recorded decks: the match
    returned shows the state but cannot start a new deal (and, for a match deal whose seed is
    still secret, cannot continue it).  Raises :class:`RecordError` naming the line of the
    first mismatch.
    """
    rec = loads(record_or_text) if isinstance(record_or_text, str) else record_or_text
    if rec.deals and rec.deals[-1].sealed and rec.deals[-1].result is None:
        raise _err(
            rec.deals[-1].line,
            f"deal {rec.deals[-1].number} is sealed: it is in progress and its cards are "
            "still secret, so the match cannot be rebuilt; gin verify checks the deals before it",
        )
    return _replay(rec, seed, [])


def verify(text: str) -> VerifyReport:
    """Check a record completely: its syntax, the seed against its commitment, every deck
    recomputed from the revealed seeds (deal seed = SHA-256(match seed || "/deal/k"), deck =
    :func:`ginrummy.deal.seeded_shuffle` of 0..51), and a replay of every action with its
    result and score lines.  Never raises on a bad record: the report says ok or names the
    first mismatch and its line.

    A file cut off in the middle of a line (a download or a writer interrupted) is
    incomplete, not wrong: when the text does not end with a newline, does not check out as
    it is, and does check out without its unfinished last line, the report is ``ok`` and
    :attr:`VerifyReport.incomplete` says the record stops in the middle of that line.
    """
    report = _verify_whole(text)
    if report.ok or text.endswith("\n") or "\n" not in text:
        return report
    head = text[: text.rindex("\n") + 1]
    line = head.count("\n") + 1
    cut = _verify_whole(head)
    # a whole line just before the cut may need the lost one to be whole itself (a deal's
    # opening lines need its deck, a knock its result line): while the error is at the last
    # line, that line goes too (at most three; an error earlier is a mismatch as it is)
    for _ in range(3):
        if cut.ok or "\n" not in head.rstrip("\n") or cut.line != head.count("\n"):
            break
        head = head.rstrip("\n").rpartition("\n")[0] + "\n"
        cut = _verify_whole(head)
    if not cut.ok:
        return report
    where = f"the record stops in the middle of line {line} (the file ends before that line does)"
    if cut.incomplete is not None:
        where += f"; before it, {cut.incomplete}"
    return VerifyReport(True, cut.checks, line=line, incomplete=where)


def _verify_whole(text: str) -> VerifyReport:
    """:func:`verify` of ``text`` taken line by line as it is."""
    checks: list[str] = []
    try:
        rec = loads(text)
        deals = _count(len(rec.deals), "deal")
        checks.append(f"syntax: format {rec.version}, {len(rec.names)} players, {deals}")
        over = _replay(rec, None, checks).finished
    except RecordError as exc:
        return VerifyReport(False, tuple(checks), str(exc), getattr(exc, "line", 0))
    if rec.is_script:
        checks.append("the deck was given by a deal script: there is no seed to check it against")
    elif rec.seed is None:
        unrevealed = [d.number for d in rec.deals if d.deal_seed is None or d.sealed]
        checks.append(
            "the match seed is not revealed (match in progress)"
            + (
                f"; deck of deal {', '.join(map(str, unrevealed))} not checked: its deal seed is secret"
                if unrevealed
                else ""
            )
        )
    last, where = _stops(rec, text)
    if where is None:
        return VerifyReport(True, tuple(checks))
    if over and rec.finished is None and rec.deals:
        where = f"after deal {rec.deals[-1].number}: the match is over, but the record stops before its finished line"
    return VerifyReport(True, tuple(checks), line=last, incomplete=f"the record stops at line {last}, {where}")


def _stops(rec: GameRecord, text: str) -> tuple[int, str | None]:
    """The last line of the record (1-based, blank and ``#`` lines not counted) and, when the
    record is not complete, where it stops and what line would come next (``None`` when it
    is complete)."""
    last = max(
        (no for no, ln in enumerate(text.splitlines(), 1) if ln.strip() and not ln.lstrip().startswith("#")), default=0
    )
    d = rec.deals[-1] if rec.deals else None
    if d is None:
        return last, "before its first deal"
    if d.result is None and rec.forfeit is None:
        if d.sealed:
            return last, f"in deal {d.number}, which is sealed: the deal was in progress (match in progress)"
        return last, f"in deal {d.number} after its actions: no result line (the deal is in progress)"
    if rec.is_script:
        return last, None
    if d.result is not None and d.score is None:
        return last, f"in deal {d.number} after its result: no score line"
    if d.result is not None and not d.sealed and d.deal_seed is None:
        return last, f"in deal {d.number} after its score: no deal-seed line"
    if rec.finished is None and rec.forfeit is not None:
        return last, "after the forfeit line: no finished line"
    if rec.finished is None:
        return last, f"after deal {d.number}: the match is not finished (no finished line)"
    if rec.seed is None:
        return last, "after the finished line: no seed line"
    return last, None
