"""``gin play``: a person plays a whole match at the terminal against computer players.

Two-hand, or three-hand (R10) with the person and two computer opponents.  Any preset and
rule (R13, R14).  Input is read line by line from stdin; see :data:`HELP` for the commands.
The computer players see only their :class:`~ginrummy.views.PlayerView` (DESIGN principle 3);
the person's screen is drawn from his own view too.

Replay: the match seed is ``str(seed).encode()`` (``--seed``, printed at the start when it
was chosen at random), computer player ``i`` draws from ``random.Random(f"{seed}/player/{i}")``
and the hint player (``hint``, ``auto``) from ``random.Random(f"{seed}/hint")``; see
:func:`match_seed`, :func:`computer_players` and :func:`hint_player`.
"""

from __future__ import annotations

import random
import secrets
import sys
import time
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from ..actions import Action, parse_action
from ..cards import cards_of, parse_card, value_of
from ..errors import CardParseError, GinRummyError, IllegalActionError
from ..match import Match
from ..melds import best_arrangement, deadwood
from ..players import make_player
from ..players.base import Player
from ..rules import RuleSet
from ..views import PlayerView
from . import render as R
from .common import PresetOpt, SetOpt, bad_input, fail, rules_from
from .main import app

__all__ = ["play", "match_seed", "computer_players", "hint_player", "player_names", "PlayTable", "HELP"]

HUMAN = 0
"""The person is always player 0 of the match."""

HELP = """Commands (case does not matter):
  s, draw, draw stock     draw the top card of the stock
  t, take                 take the top card of the discard pile (the upcard at the offer)
  u, take upcard          take the upcard (first turn, R4.2)
  p, pass                 pass the upcard (or the discard at the wall, R7.2)
  7H                      discard 7H (after drawing); x 7H and discard 7H work too
  k 7H, knock 7H          knock, discarding 7H (R5); knock alone: knock with the best discard
  g 7H, gin 7H            go gin, discarding 7H; gin alone: gin with the right card
  big gin                 lay down all eleven cards (if big gin is played, R6.5)
  hint                    suggest a move and say why
  auto                    let the hint player make this move
  pile                    show the whole discard pile
  sheet                   show the score sheet
  help                    this help
  quit                    stop the match
Cards: rank A 2-9 T (or 10) J Q K, then suit C D H S: AS, TD, 10H, KC."""


def match_seed(seed: int) -> bytes:
    """The match seed (bytes) of ``--seed`` ``seed``: ``str(seed).encode()``."""
    return str(seed).encode()


def computer_players(level: str, seed: int, players: int) -> dict[int, Player]:
    """The computer players of a match: player index -> player of ``level``, for indices
    1..players-1, player ``i`` drawing from ``random.Random(f"{seed}/player/{i}")``.

    Raises :class:`~ginrummy.players.base.UnknownPlayerError` for an unknown level."""
    return {i: make_player(level, random.Random(f"{seed}/player/{i}")) for i in range(1, players)}


def hint_player(level: str, seed: int) -> Any:
    """The player whose ``hint(view, legal) -> (action, reason)`` answers ``hint`` and plays
    ``auto``: the ``level`` player if it has a ``hint`` method, else a novice; it draws from
    ``random.Random(f"{seed}/hint")``."""
    p = make_player(level, random.Random(f"{seed}/hint"))
    if not callable(getattr(p, "hint", None)):
        p = make_player("novice", random.Random(f"{seed}/hint"))
    return p


def player_names(name: str, level: str, players: int) -> list[str]:
    """The names of the match: the person's, then ``Novice`` (two-hand) or ``Novice 1`` and
    ``Novice 2`` (three-hand) after the level; a computer name equal to the person's (ignoring
    case) gets `` (computer)`` appended."""
    base = level.capitalize()
    others = [base] if players == 2 else [f"{base} {i}" for i in range(1, players)]
    others = [o + " (computer)" if o.casefold() == name.casefold() else o for o in others]
    return [name, *others]


class _Stop(Exception):
    """The person quit or the input ended."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class PlayTable:
    """The terminal table of one match: reads the person's commands, runs the computer
    players, prints the screens.  ``run()`` returns the exit status (0)."""

    def __init__(self, rules: RuleSet, seed: int, level: str, name: str, *, console: Console,
                 delay: float = 1.0, clear: bool = True) -> None:
        n = rules.players
        self.rules = rules
        self.seed = seed
        self.level = level
        self.names = player_names(name, level, n)
        self.bots = computer_players(level, seed, n)
        self.hinter = hint_player(level, seed)
        self.match = Match.new(rules, self.names, match_seed(seed))
        self.console = console
        self.delay = delay
        self.interactive = sys.stdin.isatty()
        self.clear = clear and self.interactive and console.is_terminal
        self._hint: tuple[tuple[int, int], Action, str] | None = None
        self._run_out = False

    # -- input ------------------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        """One line from stdin (stripped); raises :class:`_Stop` at end of input."""
        try:
            line = input(prompt)
        except EOFError:
            raise _Stop("End of input: the match is stopped.") from None
        if not self.interactive:
            self.console.print(line, markup=False, highlight=False)
        return line.strip()

    def say(self, *objs: Any, **kw: Any) -> None:
        self.console.print(*objs, highlight=False, **kw)

    def error(self, message: str) -> None:
        self.say(Text("✗ " + message, style="bold red"))

    # -- the match --------------------------------------------------------------------------

    def run(self) -> int:
        m = self.match
        self.intro()
        try:
            while True:
                if m.deal.is_over:
                    self.end_of_deal()
                    if m.finished:
                        self.end_of_match()
                        return 0
                    self.between_deals()
                    m.next_deal()
                    self._run_out = False
                    self.deal_header()
                    continue
                p = m.player_to_act()
                assert p is not None
                if p == HUMAN:
                    self.human_turn()
                else:
                    self.computer_turn(p)
        except _Stop as stop:
            self.say(stop.message)
            self.say(R.sheet_table(m.sheet, self.names, title="Score sheet"))
            return 0

    def intro(self) -> None:
        r = self.rules
        opp = ", ".join(self.names[1:])
        self.say(Text(f"Gin Rummy: {self.names[0]} against {opp} ({self.level})", style="bold"))
        self.say(f"Rules: {r.name} ({r.variant} gin, {r.scoring} scoring, target {r.target}). "
                 f"Seed {self.seed} (replay with --seed {self.seed}). Type help for the commands.")
        m = self.match
        if m.roles is not None:
            for draw in m.role_draws:
                self.say(Text("Draw for the roles (R10.1): ").append_text(Text(", ").join(
                    Text(f"{self.names[i]} ").append_text(R.card_text(c)) for i, c in enumerate(draw))))
        self.deal_header()

    def roles_text(self) -> str:
        m = self.match
        if m.roles is not None:
            box, captain, out = (self.names[i] for i in m.roles)
            return f"In the box: {box} (deals) · captain: {captain} · sits out: {out} (R10)"
        dealer = self.names[m.seat_players[m.deal.dealer]]
        first = self.names[m.seat_players[1 - m.deal.dealer]]
        return f"Dealer: {dealer} · {first} {R.verb(first, 'plays', 'play')} first (R3.3)"

    def deal_header(self) -> None:
        m = self.match
        self.say(Text(f"\n── Deal {m.record.number} ──", style="bold cyan"))
        if m.roles is not None and m.roles[2] == HUMAN:
            captain = self.names[m.roles[1]]
            self.say(f"You sit out this deal and see {captain}'s hand as adviser (R10.2); the deal plays itself.")

    def limit_text(self, v: PlayerView) -> str:
        r = self.rules
        if v.knock_limit is None:
            why = "Straight gin, R8.1" if r.variant == "straight" else "Oklahoma ace upcard, R9.2"
            text = f"Knock limit: none, gin only ({why})"
        elif r.variant == "oklahoma":
            text = f"Knock limit {v.knock_limit} (Oklahoma upcard {R.card_label(v.upcard)}, R9.1)"
        else:
            text = f"Knock limit {v.knock_limit}"
        if v.multiplier != 1:
            text += f" · x{v.multiplier}: spade upcard doubles every score (R9.3)"
        return text

    def screen(self, v: PlayerView, *, adviser: bool = False) -> None:
        """The table as player ``v.seat`` sees it (his hand, the pile, the stock, the
        opponent, the knock limit, the sheet, the opponent's last moves, the legal actions)."""
        m = self.match
        seat_names = [self.names[p] for p in m.seat_players]
        me, opp = seat_names[v.seat], seat_names[1 - v.seat]
        if self.clear:
            self.console.clear()
        self.say(Text(f"Deal {m.record.number} · {self.roles_text()}", style="bold cyan"))
        self.say(Text(self.limit_text(v), style="bold").append(f" · rules {self.rules.name} · seed {self.seed}", style="dim"))
        self.say(R.sheet_table(m.sheet, self.names))
        moves = self.last_moves(v)
        if moves:
            self.say(Text(f"{opp}: ").append_text(Text(", ").join(moves)))
        top = v.top_discard
        line = Text(f"Stock {v.stock_size} · discard pile {len(v.pile)}, top: ")
        line.append_text(R.card_text(top, highlight=True) if top is not None else Text("none"))
        line.append(f" · {opp} holds {v.opponent_count} cards")
        if v.opponent_seen:
            line.append(", known: ").append_text(R.cards_text(v.opponent_seen))
        self.say(line)
        drawn = self.just_drawn(v)
        arr = best_arrangement(v.hand)
        whose = "Your" if not adviser else f"{me}'s"
        head = Text(f"{whose} hand: {v.hand.bit_count()} cards, deadwood {arr.deadwood_value}")
        if v.hand.bit_count() == 11:
            after = min(deadwood(v.hand & ~(1 << c)) for c in cards_of(v.hand) if c != v.taken)
            head.append(f"; {'the' if adviser else 'your'} best discard leaves {after}")
            if v.knock_limit is not None and 0 < after <= v.knock_limit:
                head.append(f" ({'he' if adviser else 'you'} may knock)", style="bold green")
            elif after == 0:
                head.append(" (gin!)", style="bold green")
        if drawn is not None:
            head.append(f" · {drawn[1]} " if adviser else f" · you {drawn[1]} ").append_text(R.card_text(drawn[0]))
        self.say(head)
        self.say(R.hand_view(v.hand, highlight=None if drawn is None else drawn[0]))
        if v.legal:
            self.say(Text("Legal: " + R.legal_summary(v.legal, v.hand), style="dim"))

    def last_moves(self, v: PlayerView, *, ending: bool = True) -> list[Text]:
        """The opponent's events since this seat last acted (from ``v.history``); without
        the knock, gin or big gin that ended the deal if ``ending`` is false."""
        out: list[Text] = []
        skip = {"end"} if ending else {"end", "knock", "gin", "big_gin"}
        events = list(v.history)
        while events and events[-1].seat == v.seat and v.phase == "discard":
            events.pop()  # this turn's own draw: show the opponent's turn before it
        for e in reversed(events):
            if e.seat == v.seat:
                break
            if e.kind not in skip:
                out.append(R.event_line(e, ""))
        out.reverse()
        return out

    def just_drawn(self, v: PlayerView) -> tuple[int, str] | None:
        """The card this seat drew (``"drew"``) or took (``"took"``) this turn, if it is in
        the discard phase."""
        if v.phase != "discard" or not v.history:
            return None
        e = v.history[-1]
        if e.seat == v.seat and e.card is not None and e.kind in ("draw_stock", "take_discard", "take_upcard"):
            return e.card, "drew" if e.kind == "draw_stock" else "took"
        return None

    # -- the person's turn ------------------------------------------------------------------

    def human_turn(self) -> None:
        m = self.match
        v = m.view(HUMAN)
        self.screen(v)
        while True:
            line = self.ask(f"{self.names[HUMAN]}> ")
            word = line.lower()
            if not word:
                self.screen(v)
                continue
            if word in ("quit", "q", "exit"):
                raise _Stop(f"{self.names[HUMAN]} quit the match.")
            if word in ("help", "?", "h"):
                self.say(HELP, markup=False)
                continue
            if word == "pile":
                self.say(Text("Discard pile, bottom to top: ").append_text(R.pile_text(v.pile)))
                continue
            if word == "sheet":
                self.say(R.sheet_table(m.sheet, self.names, title="Score sheet"))
                continue
            if word == "hint":
                action, reason = self.hint(v)
                self.say(Text(f"Hint: {action.text} ({reason})", style="yellow"))
                continue
            if word == "auto":
                action, reason = self.hint(v)
                self.say(Text(f"Auto: {action.text} ({reason})", style="yellow"))
            else:
                try:
                    action = self.read_action(line, v)
                except GinRummyError as exc:
                    self.error(str(exc))
                    continue
            try:
                m.apply(HUMAN, action)
            except IllegalActionError as exc:
                self.explain(exc, v)
                continue
            self._hint = None
            self.after_human(action)
            return

    def after_human(self, action: Action) -> None:
        """Confirm the person's move in one line."""
        m = self.match
        e = next((x for x in reversed(m.view(HUMAN).history) if x.seat is not None
                  and m.seat_players[x.seat] == HUMAN), None)
        if e is not None and action.kind not in ("knock", "gin", "big_gin"):
            self.say(Text("You ").append_text(R.event_line(e, "")).append("."))

    def hint(self, v: PlayerView) -> tuple[Action, str]:
        """The hint player's move for this state (asked once per state, so ``auto`` after
        ``hint`` plays the move that was suggested)."""
        key = (self.match.record.number, self.match.deal.turn)
        if self._hint is None or self._hint[0] != key:
            action, reason = self.hinter.hint(v, v.legal)
            self._hint = (key, action, reason)
        return self._hint[1], self._hint[2]

    def read_action(self, line: str, v: PlayerView) -> Action:
        """The action a command means (see :data:`HELP`).  Raises :class:`GinRummyError`
        explaining a malformed command or a bare ``knock``/``gin`` that is not possible."""
        word = " ".join(line.lower().split())
        if word in ("knock", "k"):
            return self.best_of(v, "knock")
        if word in ("gin", "g"):
            return self.best_of(v, "gin")
        card_error: CardParseError | None = None
        if " " not in word:
            try:
                return Action("discard", parse_card(word))
            except CardParseError as exc:
                card_error = exc
        try:
            action = parse_action(line)
        except IllegalActionError as exc:
            if card_error is not None and 2 <= len(word) <= 3 and word[0] in "a123456789tjqk":
                raise IllegalActionError(f"{card_error}; type help for the commands") from None
            raise IllegalActionError(f"{exc}; type help for the commands") from None
        # "take" means the upcard at the offer, and "u" the discard afterwards
        if action.kind == "take_discard" and v.phase == "upcard_offer":
            return Action("take_upcard")
        if action.kind == "take_upcard" and v.phase in ("draw", "wall"):
            return Action("take_discard")
        return action

    def best_of(self, v: PlayerView, kind: str) -> Action:
        """``knock`` (or ``gin``) alone: the legal one whose discard leaves the least deadwood,
        the highest card among equals."""
        options = [a for a in v.legal if a.kind == kind]
        if not options:
            if kind == "knock" and any(a.kind == "gin" for a in v.legal):
                raise IllegalActionError("you have gin: type gin (R2.5)")
            if v.phase != "discard":
                raise IllegalActionError(f"you cannot {kind} now: first draw a card (R4.1, R5.1)")
            after = min(deadwood(v.hand & ~(1 << c)) for c in cards_of(v.hand) if c != v.taken)
            if kind == "gin":
                raise IllegalActionError(f"you cannot go gin: your best discard leaves {after} deadwood (R2.5)")
            if v.knock_limit is None:
                raise IllegalActionError("knocking is not allowed in this deal: only gin ends it (R8.1, R9.2)")
            raise IllegalActionError(f"you cannot knock: your best discard leaves {after} deadwood, "
                                     f"above the knock limit {v.knock_limit} (R5.1)")
        assert all(a.card is not None for a in options)
        return min(options, key=lambda a: (deadwood(v.hand & ~(1 << a.card)), -value_of(a.card), a.card))  # type: ignore[operator]

    def explain(self, exc: IllegalActionError, v: PlayerView) -> None:
        why = str(exc).split("; legal: ")[0]
        self.error(why)
        if v.legal:
            self.say(Text("Legal now: " + R.legal_summary(v.legal, v.hand), style="dim"))

    # -- computer turns ---------------------------------------------------------------------

    def computer_turn(self, p: int) -> None:
        m = self.match
        v = m.view(p)
        action = self.bots[p].choose(v, v.legal)
        m.apply(p, action)
        if m.roles is not None and m.roles[2] == HUMAN:
            self.watch(p, action)

    def watch(self, p: int, action: Action) -> None:
        """The person sits out (R10.2): show the move and the captain's hand, then pause
        (``delay`` seconds, or until Enter if 0) when reading from a terminal."""
        m = self.match
        e = next((x for x in reversed(m.view(HUMAN).history) if x.seat is not None), None)
        if e is None:
            return
        if not m.deal.is_over:
            self.screen(m.view(HUMAN), adviser=True)
        if e.seat is not None and action.kind not in ("knock", "gin", "big_gin"):
            self.say(Text("› ").append_text(R.event_line(e, self.names[m.seat_players[e.seat]])))
        if not self.interactive or self._run_out or m.deal.is_over:
            return
        if self.delay > 0:
            time.sleep(self.delay)
            return
        line = self.ask("Enter: next move · run: play out the deal · quit> ").lower()
        if line in ("quit", "q", "exit"):
            raise _Stop(f"{self.names[HUMAN]} quit the match.")
        if line == "run":
            self._run_out = True

    # -- ends ---------------------------------------------------------------------------------

    def end_of_deal(self) -> None:
        m = self.match
        result = m.deal.result
        assert result is not None
        seat_names = [self.names[p] for p in m.seat_players]
        v = m.view(HUMAN)
        knock_card = next((e.card for e in reversed(v.history) if e.kind in ("knock", "gin")), None)
        written: list[int] = []
        if self.rules.scoring == "hollywood" and result.winner is not None:
            before = type(m.sheet)(m.sheet.rules, m.sheet.players, m.sheet.results[:-1])
            written = R.games_written(before, m.sheet)
        self.say(Text(f"\n── Deal {m.record.number} is over ──", style="bold cyan"))
        if m.seat_of(HUMAN) is not None:
            moves = self.last_moves(v, ending=False)
            if moves:
                opp = seat_names[1 - v.seat]
                self.say(Text(f"{opp}: ").append_text(Text(", ").join(moves)))
        self.say(R.deal_end(result, seat_names, knock_card=knock_card, written=written))
        if self.rules.scoring == "hollywood" and result.winner is not None and not written:
            self.say(Text("  written nowhere: the games it is credited to are finished (R12.3)", style="dim"))
        if not m.finished:
            self.say(R.sheet_table(m.sheet, self.names, title="Score sheet"))

    def between_deals(self) -> None:
        """Wait for Enter (or ``next``/``auto``) before the next deal; ``sheet``, ``help`` and
        ``quit`` work too, anything else is not taken for a move of the next deal."""
        while True:
            line = self.ask("Enter for the next deal (sheet, quit)> ").lower()
            if line in ("", "n", "next", "auto", "c", "continue"):
                return
            if line in ("quit", "q", "exit"):
                raise _Stop(f"{self.names[HUMAN]} quit the match.")
            if line == "sheet":
                self.say(R.sheet_table(self.match.sheet, self.names, title="Score sheet"))
                continue
            if line in ("help", "?"):
                self.say(HELP, markup=False)
                continue
            self.error(f"{line!r}: the deal is over; press Enter for the next deal, or type sheet or quit")

    def end_of_match(self) -> None:
        m = self.match
        self.say(Text("\n══ The match is over ══", style="bold cyan"))
        self.say(R.sheet_table(m.sheet, self.names, title="Final score sheet"))
        w = m.winner
        if w is None:
            self.say("Nobody won the match.")
            return
        games = [g for g in m.sheet.games if g.winner == w]
        detail = f" ({len(games)} games of {len(m.sheet.games)})" if len(m.sheet.games) > 1 else ""
        totals = ", ".join(f"{n} {t}" for n, t in zip(self.names, m.sheet.totals))
        who = "You win" if w == HUMAN else f"{self.names[w]} wins"
        self.say(Text(f"{who} the match{detail}. Totals: {totals}.", style="bold"))


@app.command("play")
def play(
    preset: str = PresetOpt,
    sets: list[str] = SetOpt,
    opponent: str = typer.Option("novice", "--opponent", help="Computer player level: random, novice, and any other registered level."),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the match (int); default a random one, printed so the match can be replayed."),
    name: str = typer.Option("You", "--name", help="Your name on the score sheet."),
    players: int | None = typer.Option(None, "--players", help="2, or 3 for three-hand gin (R10); same as --set players=N."),
    delay: float = typer.Option(1.0, "--delay", help="Seconds between moves when you sit out a three-hand deal; 0: wait for Enter."),
    no_clear: bool = typer.Option(False, "--no-clear", help="Do not clear the terminal between turns."),
) -> None:
    """Play a match against the computer at the terminal (type help at the prompt)."""
    rules = rules_from(preset, sets)
    if players is not None:
        if players not in (2, 3):
            fail(f"--players {players} is not allowed; allowed: 2, 3 (R10)")
        if any(s.split("=", 1)[0].strip() == "players" for s in sets) and rules.players != players:
            fail(f"--players {players} contradicts --set players={rules.players}")
        with bad_input():
            rules = rules.replace(players=players)
    name = name.strip()
    if not name:
        fail("--name must not be empty")
    if delay < 0:
        fail(f"--delay {delay} must be >= 0 seconds")
    if seed is None:
        seed = secrets.randbelow(10**9)
    with bad_input():
        make_player(opponent)
    console = Console(highlight=False)
    table = PlayTable(rules, seed, opponent.lower(), name, console=console, delay=delay, clear=not no_clear)
    status = table.run()
    raise typer.Exit(status)

