"""``gin play``: a person plays a whole match at the terminal against computer players.

Two-hand, or three-hand (R10) with the person and two computer opponents.  Any preset and
rule (R13, R14).  Input is read line by line from stdin; see :data:`HELP` for the commands.
The computer players see only their :class:`~ginrummy.views.PlayerView` (DESIGN principle 3);
the person's screen is drawn from his own view too.

Replay: the match seed is ``str(seed).encode()`` (``--seed``, printed at the start when it
was chosen at random), computer player ``i`` draws from ``random.Random(f"{seed}/player/{i}")``
and the hint player (``hint``, ``auto``) from ``random.Random(f"{seed}/hint")``; see
:func:`match_seed`, :func:`computer_players` and :func:`hint_player`.

Record and review: ``--record FILE`` saves the match's record (:func:`ginrummy.record.dumps`,
``docs/record-format.md``) after every deal and when the match ends or is stopped, for
``gin review`` and ``gin verify``.  After each deal the prompt takes ``review`` (the person's
decisions of that deal, valued by the expert from his own view, :mod:`ginrummy.analysis.review`), and
at the end of the match the table offers the review of the whole match.

Language: ``--lang el`` (or ``fi``, ``mt``, ``fr``, ``es``, ``en``), by default the terminal's
(``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``, English when it is none of these): every
word on the screen goes through a :class:`~ginrummy.i18n.Translator`.  The commands a person
types (``draw``, ``7H``, ``knock 7H``, ``help``...) are the same in every language; the help
explains them in the table's language.
"""

from __future__ import annotations

import datetime
import random
import secrets
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from ..actions import ACTION_HELP, Action, ActionKind, parse_action
from ..analysis.review import DEFAULT_BUDGET_MS, MAX_BUDGET_MS
from ..cards import parse_card, value_of
from ..errors import N_, CardParseError, GinRummyError, IllegalActionError
from ..i18n import (
    LANGUAGES,
    Translator,
    lang_from_env,
    level_in_text,
    level_name,
    normalize,
    translate_error,
    translator,
)
from ..match import Match
from ..melds import best_arrangement, best_discard_deadwood_except, deadwood
from ..players import make_player
from ..players.base import Player
from ..record import dumps
from ..rules import RuleSet, make_rules
from ..views import PlayerView
from . import render as R
from .common import PresetOpt, SetOpt, fail, text_console
from .main import app
from .review import only, run_review, show_performance, show_review

__all__ = [
    "play",
    "match_seed",
    "computer_players",
    "hint_player",
    "player_names",
    "computer_name",
    "level_name",
    "PlayTable",
    "HELP",
    "help_text",
]

HUMAN = 0
"""The person is always player 0 of the match."""

HELP = N_("""Commands (case does not matter):
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
Cards: rank A 2-9 T (or 10) J Q K, then suit C D H S: AS, TD, 10H, KC.""")
"""The commands of the prompt (English; :func:`help_text` gives them in a language)."""


def help_text(tr: Translator, rules: RuleSet | None = None) -> str:
    """:data:`HELP` in ``tr``'s language, with the suit letters named in it.  With ``rules``,
    only the commands those rules allow: no ``big gin`` line when big gin is not played (R6.5),
    and no ``knock`` line in Straight gin (R8.1).  (A command's line starts with its typed form, which every
    language keeps.)"""
    suits = tr._(
        "Suits: C {clubs}, D {diamonds}, H {hearts}, S {spades}.",
        clubs=R.suit_name(0, tr),
        diamonds=R.suit_name(1, tr),
        hearts=R.suit_name(2, tr),
        spades=R.suit_name(3, tr),
    )
    lines = tr.gettext(HELP).split("\n")
    if rules is not None:
        drop = []
        if rules.big_gin_bonus is None:
            drop.append("  big gin ")
        if rules.variant == "straight":
            drop.append("  k 7H, knock 7H ")
        lines = [line for line in lines if not any(line.startswith(d) for d in drop)]
    return "\n".join(lines) + ("\n" + suits if tr.lang != "en" else "")


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


def computer_name(level: str, tr: Translator | None = None) -> str:
    """The name of a computer player of ``level``, as the web table names a computer seat:
    ``Computer (novice)``, Greek ``Υπολογιστής (αρχάριος)`` (the msgid ``Computer ({level})``
    with :func:`~ginrummy.i18n.level_in_text`, in ``tr``'s language, default English)."""
    tr = tr or translator("en")
    return tr._("Computer ({level})", level=level_in_text(level, tr))


def player_names(name: str, level: str, players: int, tr: Translator | None = None) -> list[str]:
    """The names of the match: the person's, then the computer's as the web table gives them
    (:func:`computer_name`): ``Computer (novice)`` (two-hand), or ``Computer (novice)`` and
    ``Computer (novice) 2`` (three-hand, R10), in ``tr``'s language, default English; a
    computer name equal to the person's (ignoring case) gets `` (computer)`` appended."""
    tr = tr or translator("en")
    base = computer_name(level, tr)
    others = [base] + [f"{base} {i}" for i in range(2, players)]
    others = [o + tr._(" (computer)") if o.casefold() == name.casefold() else o for o in others]
    return [name, *others]


_NOT_LEGAL_KEY = "{action} is not legal now ({why}); legal: {legal}"
"""The key of the engine's "not legal now" error (:meth:`ginrummy.deal.DealState.verify`)."""


def play_console(file: Any = None) -> Console:
    """The console ``gin play`` writes to: :func:`~ginrummy.cli.common.text_console`
    (standard output, or ``file``; whole lines when it is not a terminal)."""
    return text_console(file)


class _Stop(Exception):
    """The person quit or the input ended."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _discard_typed_ahead() -> None:
    """Throw away what the person typed while a deal he sits out played itself (R10.2), so it
    does not run later at another prompt.  Only for a terminal; a no-op where unsupported."""
    try:
        import termios

        termios.tcflush(sys.stdin, termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):
        pass


class PlayTable:
    """The terminal table of one match: reads the person's commands, runs the computer
    players, prints the screens.  ``run()`` returns the exit status (0)."""

    def __init__(
        self,
        rules: RuleSet,
        seed: int,
        level: str,
        name: str,
        *,
        console: Console,
        delay: float = 1.0,
        clear: bool = True,
        tr: Translator | None = None,
        record: Path | None = None,
        review_budget_ms: float = DEFAULT_BUDGET_MS,
    ) -> None:
        n = rules.players
        self.tr = tr = tr or translator("en")
        self.rules = rules
        self.seed = seed
        self.level = level
        self.names = player_names(name, level, n, tr)
        self.bots = computer_players(level, seed, n)
        self.hinter = hint_player(level, seed)
        self.match = Match.new(rules, self.names, match_seed(seed))
        self.console = console
        self.delay = delay
        self.interactive = sys.stdin.isatty()
        self.clear = clear and self.interactive and console.is_terminal
        self._hint: tuple[tuple[int, int], Action, str] | None = None
        self._run_out = False
        self.record_path = record
        self.review_budget_ms = review_budget_ms
        self.offer_review = self.interactive

    # -- input ------------------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        """One line from stdin (stripped); raises :class:`_Stop` at end of input."""
        try:
            line = input(prompt)
        except EOFError:
            raise _Stop(self.tr._("End of input: the match is stopped.")) from None
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
                    self.save_record()
                    if m.finished:
                        self.end_of_match()
                        self.offer_match_review()
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
            self.say(R.sheet_table(m.sheet, self.names, title=self.tr._("Score sheet"), tr=self.tr))
            self.save_record()
            return 0

    # -- record and review ------------------------------------------------------------------

    def save_record(self) -> None:
        """Write the match's record to ``--record`` (if given), dated today; a failure is said
        on the screen and the match goes on."""
        if self.record_path is None:
            return
        try:
            self.record_path.write_text(dumps(self.match, date=datetime.date.today().isoformat()), encoding="utf-8")
        except OSError as exc:
            self.error(
                self.tr._(
                    "The record could not be saved to {path}: {error}",
                    path=str(self.record_path),
                    error=exc.strerror or str(exc),
                )
            )

    def offer_match_review(self) -> None:
        """At the end of the match, when ``offer_review`` (by default: when reading from a
        terminal, so that a script's output ends with the result): every player's score of the
        match (:func:`~ginrummy.cli.review.show_performance`: the review of the whole match, with
        a progress bar), then ``review`` shows the review of the person's decisions in every
        deal (from the same review); Enter (or the end of the input) finishes.  After each deal
        the prompt takes ``review`` whatever the input."""
        if not self.offer_review:
            return
        tr = self.tr
        whole = run_review(self.match, tr=tr, budget_ms=self.review_budget_ms, seed=self.seed, console=self.console)
        self.say(Text(tr._("The score of each player in this match (100: the expert's moves):"), style="bold"))
        show_performance(whole, self.console, tr)
        try:
            line = self.ask(tr._("Type review for the expert's review of your match, or press Enter to finish> "))
        except _Stop:
            return
        if line.lower() in ("review", "r"):
            show_review(only(whole, self.names[HUMAN]), self.console, tr)

    def review(self, deal: int | None) -> None:
        """Show the expert's review of the person's decisions in deal number ``deal`` (``None``:
        the whole match), with a progress bar while it runs."""
        tr = self.tr
        review = run_review(
            self.match,
            tr=tr,
            player=self.names[HUMAN],
            deal=deal,
            budget_ms=self.review_budget_ms,
            seed=self.seed,
            console=self.console,
        )
        show_review(review, self.console, tr)

    def you(self, player: int = HUMAN) -> bool:
        """Whether player ``player`` is addressed as "you" (the person, under the name You)."""
        return R.is_you(self.names[player], self.tr)

    def quit_message(self) -> str:
        if self.you():
            return self.tr._("You quit the match.")
        return self.tr._("{name} quit the match.", name=self.names[HUMAN])

    def intro(self) -> None:
        r, tr = self.rules, self.tr
        opp = ", ".join(self.names[1:])
        # the computer's names hold its level ("Computer (novice)"): not said a second time
        self.say(Text(tr._("Gin Rummy: {name} against {opponents}", name=self.names[0], opponents=opp), style="bold"))
        variant = {
            "standard": tr.p_("variant", "standard gin"),
            "oklahoma": tr.p_("variant", "oklahoma gin"),
            "straight": tr.p_("variant", "straight gin"),
        }.get(r.variant, f"{r.variant} gin")
        scoring = {
            "game": tr.p_("scoring", "game scoring"),
            "deal": tr.p_("scoring", "deal scoring"),
            "hollywood": tr.p_("scoring", "hollywood scoring"),
        }.get(r.scoring, f"{r.scoring} scoring")
        if r.scoring == "deal":  # one deal is the whole game (R11.1): no target
            rules_line = tr._(
                "Rules: {rules} ({variant}, {scoring}).", rules=R.rules_label(r), variant=variant, scoring=scoring
            )
        else:
            rules_line = tr._(
                "Rules: {rules} ({variant}, {scoring}, target {target}).",
                rules=R.rules_label(r),
                variant=variant,
                scoring=scoring,
                target=r.target,
            )
        self.say(
            rules_line
            + " "
            + tr._("Seed {seed} (replay with --seed {seed}).", seed=str(self.seed))
            + " "
            + tr._("Type help for the commands.")
        )
        m = self.match
        if m.roles is not None:
            for draw in m.role_draws:
                self.say(
                    Text(tr._("Draw for the roles (R10.1):") + " ").append_text(
                        Text(", ").join(
                            Text(f"{self.names[i]} ").append_text(R.card_text(c)) for i, c in enumerate(draw)
                        )
                    )
                )
        self.deal_header()

    def roles_text(self) -> str:
        m, tr = self.match, self.tr
        if m.roles is not None:
            box, captain, out = (self.names[i] for i in m.roles)
            return tr._(
                "In the box: {box} (deals) · captain: {captain} · sits out: {out} (R10)",
                box=box,
                captain=captain,
                out=out,
            )
        dealer = self.names[m.seat_players[m.deal.dealer]]
        first_player = m.seat_players[1 - m.deal.dealer]
        if self.you(first_player):
            return tr._("Dealer: {dealer} · You play first (R3.3)", dealer=dealer)
        return tr._("Dealer: {dealer} · {first} plays first (R3.3)", dealer=dealer, first=self.names[first_player])

    def deal_header(self) -> None:
        m, tr = self.match, self.tr
        self.say(Text("\n" + tr._("── Deal {number} ──", number=m.record.number), style="bold cyan"))
        if m.roles is not None and m.roles[2] == HUMAN:
            captain = self.names[m.roles[1]]
            self.say(
                tr._(
                    "You sit out this deal and see {captain}'s hand as adviser (R10.2); the deal plays itself.",
                    captain=captain,
                )
            )

    def limit_text(self, v: PlayerView) -> str:
        r, tr = self.rules, self.tr
        if v.knock_limit is None:
            if r.variant == "straight":
                text = tr._("Knock limit: none, gin only (Straight gin, R8.1)")
            else:
                text = tr._("Knock limit: none, gin only (Oklahoma ace upcard, R9.2)")
        elif r.variant == "oklahoma":
            text = tr._(
                "Knock limit {limit} (Oklahoma upcard {card}, R9.1)", limit=v.knock_limit, card=R.card_label(v.upcard)
            )
        else:
            text = tr._("Knock limit {limit}", limit=v.knock_limit)
        if v.multiplier != 1:
            text += " · " + tr._("x{factor}: spade upcard doubles every score (R9.3)", factor=v.multiplier)
        return text

    def screen(self, v: PlayerView, *, adviser: bool = False) -> None:
        """The table as player ``v.seat`` sees it (his hand, the pile, the stock, the
        opponent, the knock limit, the sheet, the opponent's last moves, the legal actions)."""
        m, tr = self.match, self.tr
        seat_names = [self.names[p] for p in m.seat_players]
        me, opp = seat_names[v.seat], seat_names[1 - v.seat]
        if self.clear:
            self.console.clear()
        self.say(Text(tr._("Deal {number}", number=m.record.number) + " · " + self.roles_text(), style="bold cyan"))
        self.say(
            Text(self.limit_text(v), style="bold").append(
                " · " + tr._("rules {rules} · seed {seed}", rules=R.rules_label(self.rules), seed=str(self.seed)),
                style="dim",
            )
        )
        self.say(R.sheet_table(m.sheet, self.names, tr=tr))
        moves = self.last_moves(v)
        if moves:
            self.say(Text(f"{opp}: ").append_text(Text(", ").join(moves)))
        top = v.top_discard
        line = Text(tr._("Stock {stock} · discard pile {pile}, top:", stock=v.stock_size, pile=len(v.pile)) + " ")
        line.append_text(R.card_text(top, highlight=True) if top is not None else Text(tr.p_("no cards", "none")))
        line.append(" · " + tr.n_("{name} holds {n} card", "{name} holds {n} cards", v.opponent_count, name=opp))
        if v.opponent_seen:
            line.append(tr._(", known:") + " ").append_text(R.cards_text(v.opponent_seen))
        self.say(line)
        drawn = self.just_drawn(v)
        arr = best_arrangement(v.hand)
        n = v.hand.bit_count()
        if adviser:
            head = Text(
                tr.n_(
                    "{name}'s hand: {n} card, deadwood {deadwood}",
                    "{name}'s hand: {n} cards, deadwood {deadwood}",
                    n,
                    name=me,
                    deadwood=arr.deadwood_value,
                )
            )
        else:
            head = Text(
                tr.n_(
                    "Your hand: {n} card, deadwood {deadwood}",
                    "Your hand: {n} cards, deadwood {deadwood}",
                    n,
                    deadwood=arr.deadwood_value,
                )
            )
        if n == 11:
            after = best_discard_deadwood_except(v.hand, v.taken)
            head.append(
                tr.p_("list separator", "; ")
                + (
                    tr._("the best discard leaves {after}", after=after)
                    if adviser
                    else tr._("your best discard leaves {after}", after=after)
                )
            )
            if v.knock_limit is not None and 0 < after <= v.knock_limit:
                head.append(" " + (tr._("(he may knock)") if adviser else tr._("(you may knock)")), style="bold green")
            elif after == 0:
                head.append(" " + tr._("(gin!)"), style="bold green")
        if drawn is not None:
            took = drawn[1] == "took"
            if adviser:
                template = tr._("took {card}", card="{card}") if took else tr._("drew {card}", card="{card}")
            else:
                template = tr._("you took {card}", card="{card}") if took else tr._("you drew {card}", card="{card}")
            head.append(" · ").append_text(R._around(template, card=R.card_text(drawn[0])))
        self.say(head)
        self.say(R.hand_view(v.hand, highlight=None if drawn is None else drawn[0], tr=tr))
        if v.legal:
            self.say(Text(tr._("Legal:") + " " + R.legal_summary(v.legal, v.hand, tr), style="dim"))

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
                out.append(R.event_line(e, "", self.tr))
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
        m, tr = self.match, self.tr
        v = m.view(HUMAN)
        self.screen(v)
        while True:
            line = self.ask(f"{self.names[HUMAN]}> ")
            word = line.lower()
            if not word:
                self.screen(v)
                continue
            if word in ("quit", "q", "exit"):
                raise _Stop(self.quit_message())
            if word in ("help", "?", "h"):
                self.say(help_text(tr, self.rules), markup=False)
                continue
            if word == "pile":
                self.say(Text(tr._("Discard pile, bottom to top:") + " ").append_text(R.pile_text(v.pile, tr)))
                continue
            if word == "sheet":
                self.say(R.sheet_table(m.sheet, self.names, title=tr._("Score sheet"), tr=tr))
                continue
            if word == "hint":
                action, reason = self.hint(v)
                self.say(
                    Text(
                        tr._("Hint: {action} ({reason})", action=action.text, reason=translate_error(reason, tr)),
                        style="yellow",
                    )
                )
                continue
            if word == "auto":
                action, reason = self.hint(v)
                self.say(
                    Text(
                        tr._("Auto: {action} ({reason})", action=action.text, reason=translate_error(reason, tr)),
                        style="yellow",
                    )
                )
            else:
                try:
                    action = self.read_action(line, v)
                except GinRummyError as exc:
                    self.error(translate_error(exc, tr))
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
        e = next(
            (x for x in reversed(m.view(HUMAN).history) if x.seat is not None and m.seat_players[x.seat] == HUMAN), None
        )
        if e is not None and action.kind not in ("knock", "gin", "big_gin"):
            self.say(
                R._around(self.tr._("You {event}.", event="{event}"), event=R.event_line(e, "", self.tr, you=True))
            )

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
        typed = " ".join(line.split())  # as typed: a bad card is echoed the way it was written
        word = typed.lower()
        if word in ("knock", "k"):
            return self.best_of(v, "knock")
        if word in ("gin", "g"):
            return self.best_of(v, "gin")
        if word == "review":
            raise IllegalActionError(N_("the review is offered when the deal is over; now type your move"))
        card_error: CardParseError | None = None
        if " " not in word:
            try:
                return Action(ActionKind.DISCARD, parse_card(typed))
            except CardParseError as exc:
                card_error = exc
        try:
            action = parse_action(line)
        except IllegalActionError as exc:
            if exc.params.get("actions") == ACTION_HELP:  # name the moves legal now, as the Legal: line does
                exc = IllegalActionError(
                    N_(
                        "not an action: {text!r}; now: {legal}",
                        text=exc.params["text"],
                        legal=R.legal_summary(v.legal, v.hand, self.tr),
                    )
                )
            if card_error is not None and 2 <= len(word) <= 3 and word[0] in "a123456789tjqk":
                raise IllegalActionError(N_("{error}; type help for the commands", error=card_error)) from None
            raise IllegalActionError(N_("{error}; type help for the commands", error=exc)) from None
        # "take" means the upcard at the offer, and "u" the discard afterwards
        if action.kind == "take_discard" and v.phase == "upcard_offer":
            return Action(ActionKind.TAKE_UPCARD)
        if action.kind == "take_upcard" and v.phase in ("draw", "wall"):
            return Action(ActionKind.TAKE_DISCARD)
        return action

    def best_of(self, v: PlayerView, kind: str) -> Action:
        """``knock`` (or ``gin``) alone: the legal one whose discard leaves the least deadwood,
        the highest card among equals."""
        options = [a for a in v.legal if a.kind == kind]
        if not options:
            if kind == "knock" and any(a.kind == "gin" for a in v.legal):
                raise IllegalActionError(N_("you have gin: type gin (R2.5)"))
            if v.phase != "discard":
                if kind == "gin":
                    raise IllegalActionError(N_("you cannot gin now: first draw a card (R4.1, R5.1)"))
                raise IllegalActionError(N_("you cannot knock now: first draw a card (R4.1, R5.1)"))
            after = best_discard_deadwood_except(v.hand, v.taken)
            if kind == "gin":
                raise IllegalActionError(
                    N_("you cannot go gin: your best discard leaves {after} deadwood (R2.5)", after=after)
                )
            if v.knock_limit is None:
                raise IllegalActionError(N_("knocking is not allowed in this deal: only gin ends it (R8.1, R9.2)"))
            raise IllegalActionError(
                N_(
                    "you cannot knock: your best discard leaves {after} deadwood, above the knock limit {limit} (R5.1)",
                    after=after,
                    limit=v.knock_limit,
                )
            )

        def least_deadwood(a: Action) -> tuple[int, int, int]:
            card = a.card
            assert card is not None  # knocks and gins name their discard
            return (deadwood(v.hand & ~(1 << card)), -value_of(card), card)

        return min(options, key=least_deadwood)

    def explain(self, exc: IllegalActionError, v: PlayerView) -> None:
        """Say why the move was refused (without the engine's list of legal action texts) and
        what is legal now, in the table's language."""
        tr = self.tr
        if exc.key == _NOT_LEGAL_KEY:
            why = tr._(
                "{action} is not legal now ({why})",
                action=exc.params["action"],
                why=translate_error(exc.params["why"], tr),
            )
        else:
            why = translate_error(exc, tr).split(tr._("; legal:"))[0]
        self.error(why)
        if v.legal:
            self.say(Text(tr._("Legal now:") + " " + R.legal_summary(v.legal, v.hand, tr), style="dim"))

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
            self.say(Text("› ").append_text(R.event_line(e, self.names[m.seat_players[e.seat]], self.tr)))
        if not self.interactive or self._run_out or m.deal.is_over:
            return
        if self.delay > 0:
            time.sleep(self.delay)
            _discard_typed_ahead()
            return
        while True:
            typed = self.ask(self.tr._("Enter: next move · run: play out the deal · quit> "))
            line = typed.lower()
            if line in ("", "n", "next", "c", "continue"):
                return
            if line in ("quit", "q", "exit"):
                raise _Stop(self.quit_message())
            if line == "run":
                self._run_out = True
                return
            if line in ("help", "?"):
                self.say(help_text(self.tr, self.rules), markup=False)
                continue
            # any other text is not taken for Enter: say what the prompt accepts
            self.error(
                self.tr._("{line!r}: not a choice here; press Enter for the next move, or type run or quit", line=typed)
            )

    # -- ends ---------------------------------------------------------------------------------

    def end_of_deal(self) -> None:
        m, tr = self.match, self.tr
        result = m.deal.result
        assert result is not None
        seat_names = [self.names[p] for p in m.seat_players]
        v = m.view(HUMAN)
        knock_card = next((e.card for e in reversed(v.history) if e.kind in ("knock", "gin")), None)
        written: list[int] = []
        if self.rules.scoring == "hollywood" and result.winner is not None:
            before = type(m.sheet)(m.sheet.rules, m.sheet.players, m.sheet.results[:-1])
            written = R.games_written(before, m.sheet)
        self.say(Text("\n" + tr._("── Deal {number} is over ──", number=m.record.number), style="bold cyan"))
        if m.seat_of(HUMAN) is not None:
            moves = self.last_moves(v, ending=False)
            if moves:
                opp = seat_names[1 - v.seat]
                self.say(Text(f"{opp}: ").append_text(Text(", ").join(moves)))
        self.say(R.deal_end(result, seat_names, knock_card=knock_card, written=written, tr=tr))
        if self.rules.scoring == "hollywood" and result.winner is not None and not written:
            self.say(
                Text("  " + tr._("written nowhere: the games it is credited to are finished (R12.3)"), style="dim")
            )
        if not m.finished:
            self.say(R.sheet_table(m.sheet, self.names, title=tr._("Score sheet"), tr=tr))

    def between_deals(self) -> None:
        """Wait for Enter (or ``next``/``auto``) before the next deal; ``review`` (the expert's
        review of the person's decisions in the deal just played), ``sheet``, ``help`` and ``quit``
        work too, anything else is not taken for a move of the next deal."""
        tr = self.tr
        while True:
            typed = self.ask(tr._("Enter for the next deal (review, sheet, quit)> "))
            line = typed.lower()
            if line in ("", "n", "next", "auto", "c", "continue"):
                return
            if line in ("quit", "q", "exit"):
                raise _Stop(self.quit_message())
            if line == "sheet":
                self.say(R.sheet_table(self.match.sheet, self.names, title=tr._("Score sheet"), tr=tr))
                continue
            if line in ("review", "r"):
                self.review(self.match.record.number)
                continue
            if line in ("help", "?"):
                self.say(help_text(tr, self.rules), markup=False)
                continue
            self.error(
                tr._(
                    "{line!r}: the deal is over; press Enter for the next deal, or type review, sheet or quit",
                    line=typed,
                )
            )

    def end_of_match(self) -> None:
        m, tr = self.match, self.tr
        self.say(Text("\n" + tr._("══ The match is over ══"), style="bold cyan"))
        self.say(R.sheet_table(m.sheet, self.names, title=tr._("Final score sheet"), tr=tr))
        w = m.winner
        if w is None:
            self.say(tr._("Nobody won the match."))
            return
        won = sum(1 for g in m.sheet.games if g.winner == w)
        total = len(m.sheet.games)
        totals = ", ".join(f"{n} {tr.format_number(t)}" for n, t in zip(self.names, m.sheet.totals))
        if total > 1:
            games = tr.n_("{n} game of {total}", "{n} games of {total}", won, total=total)
            text = (
                tr._("You win the match ({games}). Totals: {totals}.", games=games, totals=totals)
                if w == HUMAN
                else tr._(
                    "{name} wins the match ({games}). Totals: {totals}.", name=self.names[w], games=games, totals=totals
                )
            )
        else:
            text = (
                tr._("You win the match. Totals: {totals}.", totals=totals)
                if w == HUMAN
                else tr._("{name} wins the match. Totals: {totals}.", name=self.names[w], totals=totals)
            )
        self.say(Text(text, style="bold"))


def play_language(lang: str | None) -> str:
    """The table's language code for ``--lang`` (``None``: from the environment, else English);
    exits 2 (:func:`fail`) for a language that is not supported."""
    if lang is None:
        code = lang_from_env()
    else:
        found = normalize(lang)
        if found is None or lang.strip() in ("C", "POSIX"):
            fail(f"--lang {lang} is not a supported language; languages: {', '.join(LANGUAGES)}")
        code = found
    return code


def _checked_play_options(
    tr: Translator,
    preset: str,
    sets: list[str],
    players: int | None,
    name: str | None,
    delay: float,
    review_budget_ms: float,
    opponent: str,
) -> tuple[RuleSet, str]:
    """``(rules, player name)`` of ``gin play``'s options; exits 2 (:func:`fail`) with one
    translated line naming the first option that is not allowed (R10 for ``--players``)."""

    def bad(message: str) -> NoReturn:
        fail(message)

    try:
        rules = make_rules(preset, sets)
        if players is not None:
            if players not in (2, 3):
                bad(tr._("--players {players} is not allowed; allowed: 2, 3 (R10)", players=str(players)))
            if any(s.split("=", 1)[0].strip() == "players" for s in sets) and rules.players != players:
                bad(
                    tr._(
                        "--players {players} contradicts --set players={rules}",
                        players=str(players),
                        rules=str(rules.players),
                    )
                )
            rules = rules.replace(players=players)
        name = tr._("You") if name is None else name.strip()
        if not name:
            bad(tr._("--name must not be empty"))
        if delay < 0:
            bad(tr._("--delay {delay} must be >= 0 seconds", delay=str(delay)))
        if not 0 < review_budget_ms <= MAX_BUDGET_MS:
            bad(
                tr._(
                    "--review-budget-ms {budget} must be a number > 0 and at most {most}",
                    budget=str(review_budget_ms),
                    most=str(int(MAX_BUDGET_MS)),
                )
            )
        make_player(opponent)
    except GinRummyError as exc:
        bad(translate_error(exc, tr))
    return rules, name


def _record_path(tr: Translator, record: str | None) -> Path | None:
    """The file of ``--record`` (``None``: no record), checked writable now (it is created,
    never truncated); exits 2 (:func:`fail`) with a translated line when it cannot be written."""
    path = None
    if record is not None:
        path = Path(record)
        try:
            with path.open("a", encoding="utf-8"):
                pass
        except OSError as exc:
            fail(
                tr._(
                    "--record {path}: the file cannot be written ({error})", path=record, error=exc.strerror or str(exc)
                )
            )
    return path


@app.command("play")
def play(
    preset: str = PresetOpt,
    sets: list[str] = SetOpt,
    opponent: str = typer.Option(
        "novice",
        "--opponent",
        help="Computer player level: random, novice, club or expert (weakest to strongest), or master (the expert thinking up to 1 s a move; measured, no stronger than the expert); also ismcts, sage and sage-fast (research levels, README).",
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Seed of the match (int); default a random one, printed so the match can be replayed."
    ),
    name: str | None = typer.Option(
        None, "--name", help="Your name on the score sheet (default: You, in the table's language)."
    ),
    players: int | None = typer.Option(
        None, "--players", help="2, or 3 for three-hand gin (R10); same as --set players=N."
    ),
    delay: float = typer.Option(
        1.0, "--delay", help="Seconds between moves when you sit out a three-hand deal; 0: wait for Enter."
    ),
    no_clear: bool = typer.Option(False, "--no-clear", help="Do not clear the terminal between turns."),
    record: str | None = typer.Option(
        None,
        "--record",
        help="Save the record of the match to this file after every deal (for gin review, gin verify).",
    ),
    review_budget_ms: float = typer.Option(
        DEFAULT_BUDGET_MS,
        "--review-budget-ms",
        help="Budget per decision of the review offered after each deal, in ms (it fixes the sampled deals).",
    ),
    lang: str | None = typer.Option(
        None,
        "--lang",
        help="Language of the table: "
        + ", ".join(LANGUAGES)
        + " (el_GR and el-GR work too); default from LANGUAGE, LC_ALL, LC_MESSAGES, LANG, else English.",
    ),
) -> None:
    """Play a match against the computer at the terminal (type help at the prompt)."""
    tr = translator(play_language(lang))
    rules, name = _checked_play_options(tr, preset, sets, players, name, delay, review_budget_ms, opponent)
    path = _record_path(tr, record)
    if seed is None:
        seed = secrets.randbelow(10**9)
    console = play_console()
    table = PlayTable(
        rules,
        seed,
        opponent.lower(),
        name,
        console=console,
        delay=delay,
        clear=not no_clear,
        tr=tr,
        record=path,
        review_budget_ms=review_budget_ms,
    )
    status = table.run()
    raise typer.Exit(status)
