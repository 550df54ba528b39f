"""``gin replay FILE|-`` and ``gin verify RECORD``.

``gin replay`` reads either a **deal script** (JSON) or a saved **game record**
(``docs/record-format.md``), chosen by the first character of the input (``{`` = a script).

A deal script is one JSON object::

    {"rules": {"preset": NAME, KEY: VALUE, ...},      optional; default: --preset
     "dealer": 0 | 1,
     "deck": [52 cards],                               deck[0:10] the non-dealer's hand,
                                                       deck[10:20] the dealer's, deck[20] the
                                                       upcard, deck[21:] the stock, top first
     "actions": ["take upcard", "discard 7H", ...]}   optional; each taken by the seat to act

and ``gin replay`` prints the state after the actions as JSON: ``phase``, ``to_act``,
``legal_actions``, ``hands`` (seat 0, seat 1), ``stock_size``, ``discard_pile`` (bottom to
top) and ``result`` (``null`` or :meth:`ginrummy.deal.DealResult.to_json`).  ``--record``
prints the deal's game record instead.  ``--preset`` replaces the script's preset and
``--set KEY=VALUE`` overrides its rules.  An illegal action exits 2 with one line naming its
index in ``actions`` (0-based), the action and the legal actions.

For a saved record ``gin replay`` replays it (checking every line) and prints a summary, or
with ``--json`` the final score sheet and every deal's result.  ``gin verify`` recomputes every
deck from the revealed seeds, checks the commitments and replays the record: it prints OK and
what it checked, or exits 1 naming the first mismatch, or 3 (INCOMPLETE) naming the line where
a record that checks out so far stops (a match in progress, or a file cut off).  A record carries its own rule set, so
``gin replay`` refuses ``--preset``/``--set`` for records, and ``gin verify`` has neither
option.  Bad input exits 2 with one line on stderr.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import typer

from ..actions import parse_action
from ..cards import card_str, cards_of, parse_cards
from ..deal import DealState, new_deal
from ..errors import IllegalActionError, RecordError
from ..i18n import translator
from ..match import Match
from ..record import dumps_deal, forfeit_winner
from ..record import loads as load_record
from ..record import replay as replay_record
from ..record import verify as verify_record
from ..rules import PRESETS, RuleSet, parse_overrides, preset
from ..scoring import ScoreSheet
from .common import JsonOpt, SetOpt, bad_input, emit_json, fail, read_text
from .main import app
from .render import rules_label

__all__ = ["replay_command", "verify_command", "run_script", "load_script", "state_json", "INCOMPLETE_EXIT"]

INCOMPLETE_EXIT = 3
"""``gin verify``'s exit status for a record whose lines check out but that stops before the
end of the match (or of a deal script's deal): a match in progress or a file cut off."""

_PresetOpt = typer.Option(None, "--preset", help="Rule set preset (R13) for a deal script: " + ", ".join(PRESETS) + ".")
_SCRIPT_KEYS = ("rules", "dealer", "deck", "actions")


def _read(path: str) -> str:
    return read_text(path)


def load_script(
    data: Any, preset_name: str | None = None, overrides: list[str] | tuple[str, ...] = ()
) -> tuple[RuleSet, int, list[int], list[str]]:
    """Read a deal script (the parsed JSON object): returns ``(rules, dealer, deck, actions)``.

    Rules: the script's ``rules`` object (``preset`` plus fields), with ``preset_name``
    replacing its preset and ``overrides`` (``KEY=VALUE``) applied last.  Raises
    :class:`RecordError` for a script that is not of the documented form (naming the key),
    :class:`~ginrummy.errors.RuleSetError` for bad rules and
    :class:`~ginrummy.errors.CardParseError` for a bad card.
    """
    if not isinstance(data, dict):
        raise RecordError("a deal script is a JSON object with keys rules, dealer, deck, actions")
    unknown = [k for k in data if k not in _SCRIPT_KEYS]
    if unknown:
        raise RecordError(f"unknown deal script key {unknown[0]!r}; keys: {', '.join(_SCRIPT_KEYS)}")
    rules_data = data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise RecordError('"rules" must be a JSON object such as {"preset": "standard", "knock_limit": 10}')
    rules_data = dict(rules_data)
    if preset_name is not None:
        rules_data["preset"] = preset_name
    base = preset(rules_data.pop("preset", "standard"))
    changes = {**rules_data, **parse_overrides(overrides)}
    rules = base.replace(**changes) if changes else base
    dealer = data.get("dealer")
    if type(dealer) is not int or dealer not in (0, 1):
        raise RecordError(f'"dealer" must be the seat 0 or 1, not {json.dumps(dealer)}')
    deck_data = data.get("deck")
    if not isinstance(deck_data, (list, str)):
        raise RecordError('"deck" must be a list of the 52 cards, e.g. ["AS", "TD", ...]')
    deck = parse_cards(deck_data)
    if len(deck) != 52:
        missing = sorted(set(range(52)) - set(deck))
        raise RecordError(
            f'"deck" has {len(deck)} cards, not 52'
            + (f"; missing: {' '.join(card_str(c) for c in missing)}" if missing else "")
        )
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError('"actions" must be a list of action texts, e.g. ["pass", "pass", "draw stock"]')
    return rules, dealer, deck, actions


def run_script(rules: RuleSet, dealer: int, deck: list[int], actions: list[str]) -> DealState:
    """Deal from ``deck`` and apply ``actions`` (texts), each by the seat to act.

    Raises :class:`IllegalActionError` naming the action's index (0-based), its text and the
    legal actions, for a malformed or illegal action or one after the end of the deal.
    """
    state = new_deal(rules, dealer, deck)
    for i, text in enumerate(actions):
        legal = [a.text for a in state.legal_actions()]
        where = f"action {i} {text!r}"
        try:
            action = parse_action(text)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{where}: {exc}; legal now: {', '.join(legal) or 'none'}", text, legal) from None
        if state.is_over:
            raise IllegalActionError(
                f"{where}: the deal is already over ({state.result.outcome if state.result else ''}); legal: none",
                text,
                [],
            )
        try:
            state, _ = state.apply(state.to_act if state.to_act is not None else 0, action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{where} by seat {state.to_act}: {exc}", text, legal) from None
    return state


def state_json(state: DealState) -> dict[str, Any]:
    """The JSON that ``gin replay`` prints for a deal script (see the module docstring)."""
    return {
        "phase": state.phase,
        "to_act": state.to_act,
        "legal_actions": [a.text for a in state.legal_actions()],
        "hands": [[card_str(c) for c in cards_of(h)] for h in state.hands],
        "stock_size": state.stock_size,
        "discard_pile": [card_str(c) for c in state.pile],
        "result": None if state.result is None else state.result.to_json(),
    }


_HOW = {"resigned": "resigned", "left": "left the table", "time": "lost on time"}
"""How a forfeit line's ``how`` reads in ``gin replay``'s summary."""


def _match_summary(m: Match, forfeit: tuple[int, int, str] | None = None) -> dict[str, Any]:
    """The JSON summary of replayed match ``m``; ``forfeit`` the record's ``(line, player, how)``
    when the match ended by a forfeit (then it is finished, the winner by
    :func:`ginrummy.record.forfeit_winner`, and ``"forfeit"`` says who and how)."""
    names = list(m.names)
    deals = []
    for d in m.deals:
        res = d.result
        deals.append(
            {
                "number": d.number,
                "dealer": names[d.seat_players[d.dealer]],
                "seats": [names[p] for p in d.seat_players],
                "winner": None if res is None or res.winner is None else names[d.seat_players[res.winner]],
                "result": None if res is None else res.to_json(),
            }
        )
    return {
        "names": names,
        "rules": m.rules.to_dict(),
        "deals": deals,
        "sheet": m.sheet.to_dict(names),
        "finished": m.finished or forfeit is not None,
        "winner": None if (w := _winner(m, forfeit)) is None else names[w],
        "forfeit": None if forfeit is None else {"player": names[forfeit[1]], "how": forfeit[2]},
    }


def _winner(m: Match, forfeit: tuple[int, int, str] | None) -> int | None:
    return m.winner if forfeit is None else forfeit_winner(len(m.names), forfeit[1])


def _print_summary(m: Match, forfeit: tuple[int, int, str] | None = None) -> None:
    # No verb follows a name (a player may be named You: "You deals" would be wrong), so the
    # lines say "dealer NAME", "knock by NAME", "N points to NAME", "winner NAME".
    tr = translator("en")
    names = list(m.names)
    deals = tr.n_("{n} deal", "{n} deals", len(m.deals))
    print(f"{' vs '.join(names)}; rules {rules_label(m.rules)}; {deals}")
    for d, (totals, points_only) in zip(m.deals, _running_totals(m)):
        res = d.result
        head = f"deal {d.number}: dealer {names[d.seat_players[d.dealer]]}"
        if res is None:
            to_act = names[d.seat_players[m.deal.to_act]] if m.deal.to_act is not None else "-"
            print(
                f"{head}; "
                + ("not played out (the forfeit stopped it)" if forfeit else f"in progress, {to_act} to act")
            )
            continue
        if res.winner is None:
            what = f"draw ({res.reason})"
        else:
            knocker = names[d.seat_players[res.knocker or 0]]
            winner = names[d.seat_players[res.winner]]
            points = tr.n_("{n} point", "{n} points", res.points) + f" to {winner}"
            if res.outcome == "undercut":  # the defender undercuts the knocker (R6.3)
                what = f"knock by {knocker}, undercut by {winner}; {points}"
            else:
                what = f"{res.outcome.replace('_', ' ')} by {knocker}; {points}"
        print(f"{head}; {what}; {_totals_text(names, totals, points_only)}")
    if m.finished or forfeit is not None:
        champion = _winner(m, forfeit)
        print(
            "match over: "
            + ("" if forfeit is None else f"forfeit, {names[forfeit[1]]} {_HOW[forfeit[2]]}; ")
            + (f"winner {names[champion]}" if champion is not None else "no winner")
            + "; "
            + _totals_text(names, m.sheet.totals, _game_points(m.sheet))
        )


def _totals_text(names: list[str], totals: tuple[int, ...], points_only: tuple[int, ...]) -> str:
    """``totals Ann 29, Bob 0``; once a finished game has added its bonuses (game, shutout, box:
    R11.3, R12), the game points first and then the totals with the bonuses, so that a jump
    from 74 to 174 is explained on the line."""
    listed = ", ".join(f"{n} {t}" for n, t in zip(names, totals))
    if totals == points_only:
        return f"totals {listed}"
    points = ", ".join(f"{n} {t}" for n, t in zip(names, points_only))
    return f"game points {points}; with the bonuses of finished games (R11.3) totals {listed}"


def _game_points(sheet: ScoreSheet) -> tuple[int, ...]:
    """Each player's points summed over the sheet's games, bonuses not included (R11.3)."""
    return tuple(sum(g.points[p] for g in sheet.games) for p in range(sheet.players))


def _running_totals(m: Match) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """After each deal of ``m``: the sheet's totals (bonuses included) and its game points."""
    sheet = ScoreSheet(m.rules, len(m.names))
    out = []
    for d in m.deals:
        if d.result is not None:
            winner = None if d.result.winner is None else d.seat_players[d.result.winner]
            sheet = sheet.add(winner, d.result.points)
        out.append((sheet.totals, _game_points(sheet)))
    return out


def _no_rules_for_records(preset_name: str | None, overrides: list[str]) -> None:
    if preset_name is not None or overrides:
        fail("a game record carries its own rule set; --preset and --set apply to deal scripts only")


@app.command("replay")
def replay_command(
    file: str = typer.Argument(..., metavar="FILE|-", help="A deal script (JSON) or a game record; - reads stdin."),
    preset_name: str | None = _PresetOpt,
    overrides: list[str] = SetOpt,
    as_json: bool = JsonOpt,
    record: bool = typer.Option(
        False, "--record", help="For a deal script: print the deal's game record instead of the state."
    ),
    date: str | None = typer.Option(None, "--date", help="With --record: the date written in the record."),
) -> None:
    """Replay a deal script (print the state as JSON) or a saved game record (print a summary)."""
    text = _read(file)
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            fail(f"{file}: not valid JSON: {exc}")
        with bad_input():
            rules, dealer, deck, actions = load_script(data, preset_name, overrides)
            state = run_script(rules, dealer, deck, actions)
            if record:
                sys.stdout.write(dumps_deal(rules, dealer, deck, [parse_action(a) for a in actions], date=date))
                return
        emit_json(state_json(state))
        return
    _no_rules_for_records(preset_name, overrides)
    if record:
        fail("--record applies to deal scripts; this input is already a game record")
    with bad_input():
        rec = load_record(text)
        m = replay_record(rec)
    if as_json:
        emit_json(_match_summary(m, rec.forfeit))
    else:
        _print_summary(m, rec.forfeit)


@app.command("verify")
def verify_command(
    file: str = typer.Argument(..., metavar="RECORD", help="A game record; - reads stdin."),
    as_json: bool = JsonOpt,
) -> None:
    """Recompute every deck from the revealed seed, check the commitments and replay the record.

    Prints OK and what was checked (exit 0) for a complete record: a finished match with its
    seed revealed, or a deal script's deal that is over.  Exits 1 naming the first mismatch;
    2 (bad input) when the file is not a game record at all; 3 when every line checks out but
    the record is incomplete (a match in progress, or a file cut off): it prints INCOMPLETE,
    the line where the record stops and what is missing there, then what was checked.  A
    record carries its own rule set, so there is no --preset or --set here."""
    text = _read(file)
    report = verify_record(text)
    if not report.ok:  # not a record at all (exit 2), or a record that does not check out (1)
        with bad_input():
            load_record(text)
    if as_json:
        emit_json(report.to_dict())
    elif report.ok:
        print("OK" if report.complete else f"INCOMPLETE: every line checks out, but {report.incomplete}")
        for check in report.checks:
            print(f"  {check}")
    if not report.ok:
        if not as_json:
            print(f"gin: verify: MISMATCH {' '.join(str(report.error).split())}", file=sys.stderr)
        raise typer.Exit(1)
    if not report.complete:
        raise typer.Exit(INCOMPLETE_EXIT)


daily_app = typer.Typer(help="The daily deal's checks (docs/compete.md).", no_args_is_help=True)
app.add_typer(daily_app, name="daily")


def _daily_bundle(text: str) -> tuple[str, bool, bytes, str, list[tuple[int, str, int | None, str]]]:
    """``(label, duel, seed, commitment, [(deal number, player, seat, record text)])`` of a
    day's games as ``GET /api/daily/DAY/records`` answers them (``label`` the day), or of a
    friend challenge's as ``GET /api/duels/ID/records`` does (``"duel"``: its id; ``duel``
    true; each game with the player's ``seat``); exits 2 naming what is wrong."""
    try:
        data = json.loads(text)
    except ValueError:
        fail("not a day's games: the file is not JSON (save GET /api/daily/DAY/records)")
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        fail('not a day\'s games: want {"day", "seed", "commitment", "records": [...]} (GET /api/daily/DAY/records)')
    duel = "duel" in data and "day" not in data
    label, seed, promised = data.get("duel" if duel else "day"), data.get("seed"), data.get("commitment")
    if duel and (not isinstance(label, str) or not 1 <= len(label) <= 40 or not label.isalnum()):
        fail("duel: want the challenge's id (GET /api/duels/ID/records)")
    if not duel and (not isinstance(label, str) or len(label) != 10):
        fail("day: want YYYY-MM-DD")
    for name, value in (("seed", seed), ("commitment", promised)):
        if not isinstance(value, str) or len(value) != 64 or any(ch not in "0123456789abcdef" for ch in value):
            fail(f"{name}: want 64 lowercase hex digits (the seed is shown once the day is over)")
    games = []
    for i, g in enumerate(data["records"], start=1):
        if not isinstance(g, dict) or type(g.get("number")) is not int or not isinstance(g.get("record"), str):
            fail(f"records[{i}]: want an object with a deal number and a record")
        seat = g.get("seat")
        if duel and seat not in (0, 1):
            fail(f"records[{i}]: want the player's seat, 0 or 1")
        games.append((g["number"], str(g.get("player", "?"))[:80], seat if duel else None, g["record"]))
    return str(label), duel, bytes.fromhex(str(seed)), str(promised), games


def _seat_problems(text: str, player: str, seat: int | None) -> list[str]:
    """A challenge game's record that does not seat ``player`` at ``seat``: one problem."""
    if seat is None:
        return []
    names = load_record(text).names
    return [] if names[seat] == player else [f"{player} is not player {seat} of this record"]


@daily_app.command("verify")
def daily_verify_command(
    file: str = typer.Argument(
        ...,
        metavar="GAMES",
        help="A day's games (GET /api/daily/DAY/records) or a friend challenge's (GET /api/duels/ID/records); - reads stdin.",
    ),
    promised: str = typer.Option(
        "",
        "--commitment",
        help="The day's commitment as published before the day (GET /api/daily); default: the file's.",
    ),
) -> None:
    """Check a daily set (or a friend challenge) from its revealed seed: the seed matches the
    commitment published before the day (when the challenge was sent), and every game is gin
    verify's OK, dealt from the seed's deal (same cards, dealer and stock for every entrant),
    under the single preset, without client seeds; a challenge's game also seats its player
    where the file says (0 for the challenger, 1 for the other: the seats swapped).
    Exits 0 when all holds, 1 naming each mismatch, 2 for a file that is not a day's games."""
    from ..compete.daily import check_record
    from ..match import commitment

    want = promised.strip().lower()
    if want and (len(want) != 64 or any(ch not in "0123456789abcdef" for ch in want)):
        fail("--commitment: want 64 hex digits (the day's commitment as GET /api/daily showed it)")
    day, duel, seed, published, games = _daily_bundle(read_text(file, "a day's games (JSON)"))
    want = want or published
    if commitment(seed) != want:
        print(f"{day}: the seed does not match the commitment published before the day")
        raise typer.Exit(1)
    bad = 0
    for number, player, seat, text in games:
        if not 1 <= number <= 8:
            problems = [f"no daily deal {number}: the deals are numbered 1 to 8"]
        else:
            problems = check_record(text, seed, number)
            problems += [] if problems else _seat_problems(text, player, seat)
        bad += bool(problems)
        print(f"deal {number}, {player}: {'OK' if not problems else '; '.join(problems)}")
    if bad:
        print(f"{day}: {bad} of {len(games)} games were not dealt from the {'challenge' if duel else 'day'}'s seed")
        raise typer.Exit(1)
    print(f"{day}: the seed matches its commitment; {len(games)} games, every one dealt from it")
