"""Rich rendering of the things of a gin table: cards, hands with their melds, the discard
pile, the score sheet and the end of a deal (layouts, layoffs, how the score was reached).

Used by ``gin play`` and reusable by the other commands.  Every function is pure: it takes
engine values (cards as ints 0..51, card sets as masks, :class:`~ginrummy.melds.Arrangement`,
:class:`~ginrummy.deal.DealResult`, :class:`~ginrummy.scoring.ScoreSheet`) and returns Rich
renderables or plain strings; nothing here prints.  Cards show their suit as a symbol, hearts
and diamonds in red, and where a person must type a card its text form (R1.4, ``7H``) is shown
too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..actions import Action
from ..cards import card_str, cards_of, rank_of, suit_of
from ..deal import DealResult, Event
from ..melds import best_arrangement
from ..scoring import ScoreSheet

__all__ = [
    "SUIT_SYMBOLS",
    "card_label",
    "card_text",
    "cards_text",
    "meld_text",
    "hand_view",
    "pile_text",
    "legal_summary",
    "event_line",
    "verb",
    "sheet_table",
    "score_lines",
    "draw_reason",
    "deal_end",
    "games_written",
]

SUIT_SYMBOLS = "♣♦♥♠"
"""Suit symbols in the suit order of :mod:`ginrummy.cards` (clubs, diamonds, hearts, spades)."""

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def card_label(c: int) -> str:
    """The symbol form of card ``c`` (int 0..51): ``"7♥"``, ``"10♦"``, ``"A♠"``."""
    return _RANKS[rank_of(c)] + SUIT_SYMBOLS[suit_of(c)]


def _style(c: int) -> str:
    return "bold red" if suit_of(c) in (1, 2) else "bold"


def card_text(c: int, *, highlight: bool = False) -> Text:
    """Card ``c`` in its symbol form, red for hearts and diamonds (reverse video if ``highlight``)."""
    return Text(card_label(c), style=_style(c) + (" reverse" if highlight else ""))


def cards_text(cards: Iterable[int] | int, sep: str = " ") -> Text:
    """Several cards (an iterable of ints, or a mask: card order) in symbol form."""
    if isinstance(cards, int):
        cards = cards_of(cards)
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(c))
    return out


def meld_text(mask: int) -> Text:
    """One meld in brackets, e.g. ``[4♣ 4♦ 4♥]``."""
    return Text("[").append_text(cards_text(mask)).append("]")


def _sorted_meld(mask: int) -> list[int]:
    cards = cards_of(mask)
    if len({rank_of(c) for c in cards}) == 1:
        return sorted(cards, key=suit_of)
    return sorted(cards, key=rank_of)


def hand_view(hand: int, *, highlight: int | None = None, indent: str = "  ") -> Text:
    """A hand (mask) in two rows: the cards in symbol form, and under each its text form to
    type (R1.4).  Melds of the least-deadwood arrangement (R2.4) come first, one group each,
    then the deadwood cards (suit then rank); groups are separated by wide gaps and the last
    row labels them.  ``highlight`` (a card int) is shown in reverse video (the card just drawn).
    """
    arr = best_arrangement(hand)
    groups = [_sorted_meld(m) for m in arr.melds]
    dead = sorted(cards_of(arr.deadwood), key=lambda c: (suit_of(c), rank_of(c)))
    if dead:
        groups.append(dead)
    top, bottom, labels = Text(indent), Text(indent), Text(indent)
    for gi, group in enumerate(groups):
        if gi:
            for row in (top, bottom, labels):
                row.append(" │ " if row is not labels else "   ", style="dim")
        width = 0
        for i, c in enumerate(group):
            if i:
                top.append(" ")
                bottom.append(" ")
                width += 1
            label = card_label(c)
            top.append_text(card_text(c, highlight=c == highlight))
            top.append(" " * (3 - len(label)))
            bottom.append(card_str(c).ljust(3), style="dim")
            width += 3
        name = "meld" if gi < len(arr.melds) else "deadwood"
        labels.append(name.center(width) if len(name) <= width else name, style="dim italic")
    return Text("\n").join([top, bottom, labels])


def pile_text(pile: Sequence[int]) -> Text:
    """The whole discard pile, bottom to top, the top card last and marked."""
    if not pile:
        return Text("(empty)")
    out = cards_text(pile[:-1])
    if len(pile) > 1:
        out.append(" ")
    out.append("▶ ").append_text(card_text(pile[-1], highlight=True)).append(" (top)")
    return out


def legal_summary(legal: Sequence[Action], hand: int | None = None) -> str:
    """The legal actions in short: simple actions by name with their short command, cards
    grouped per kind (``discard a card``, ``knock with 9C KD``).  With ``hand`` (a mask), the
    cards of the hand that may not be discarded are named instead of the allowed ones."""
    short = {"draw_stock": "draw stock (s)", "take_discard": "take discard (t)", "take_upcard": "take upcard (u)",
             "pass": "pass (p)", "big_gin": "big gin"}
    parts: list[str] = []
    by_kind: dict[str, list[int]] = {}
    for a in legal:
        if a.card is None:
            parts.append(short.get(a.kind, a.text))
        else:
            by_kind.setdefault(a.kind, []).append(a.card)
    if "discard" in by_kind:
        cards = by_kind["discard"]
        if hand is None:
            parts.append("discard one of " + " ".join(map(card_str, cards)) + " (type the card)")
        else:
            text = f"discard a card (type it, e.g. {card_str(cards[-1])})"
            barred = [c for c in cards_of(hand) if c not in cards]
            if barred:
                text += " but not " + " ".join(map(card_str, barred)) + " (just taken, R4.3)"
            parts.append(text)
    if "knock" in by_kind:
        parts.append("knock with " + " ".join(map(card_str, by_kind["knock"])) + " (k CARD, or knock)")
    if "gin" in by_kind:
        parts.append("gin with " + " ".join(map(card_str, by_kind["gin"])) + " (g CARD, or gin)")
    return "; ".join(parts)


_EVENT_WORDS = {
    "take_upcard": "took the upcard", "pass": "passed", "draw_stock": "drew from the stock",
    "take_discard": "took the discard", "discard": "discarded", "knock": "knocked, discarding",
    "gin": "went gin, discarding", "big_gin": "went big gin", "reshuffle": "the stock was reshuffled (R7.3)",
    "end": "the deal ended",
}


def verb(name: str, singular: str, plural: str) -> str:
    """``plural`` after the name "You" (you lay off), else ``singular`` (Novice lays off)."""
    return plural if name.casefold() == "you" else singular


def event_line(e: Event, who: str) -> Text:
    """One event as a short line, e.g. ``Novice discarded K♠``, ``You drew 4♣ from the
    stock`` (a hidden card omitted); with ``who`` empty, just ``discarded K♠``."""
    out = Text(f"{who} " if who and e.seat is not None else "")
    if e.kind == "draw_stock" and e.card is not None:
        return out.append("drew ").append_text(card_text(e.card)).append(" from the stock")
    out.append(_EVENT_WORDS.get(e.kind, e.kind.replace("_", " ")))
    if e.card is not None:
        out.append(" ").append_text(card_text(e.card))
    return out


def sheet_table(sheet: ScoreSheet, names: Sequence[str], *, title: str | None = None) -> Table:
    """The score sheet as a table: one row per player, one column per game (three for
    Hollywood, R12.1) and the total (R12.5).  A finished game's cell shows its points, the
    game bonus (shutout doubled) and the box bonus, and the total (R11.3, R12.4); the winner
    of a game is marked."""
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False, box=None,
                  header_style="bold")
    table.add_column("")
    games = sheet.games
    many = len(games) > 1
    for g in games:
        head = f"Game {g.number}" if many else ("Points" if sheet.rules.scoring == "game" else "Deal")
        if g.finished:
            head += " ✓"
        table.add_column(head, justify="right")
    with_total = many
    if with_total:
        table.add_column("Total", justify="right")
    for p, name in enumerate(names):
        row: list[RenderableType] = [Text(name)]
        for g in games:
            cell = Text(str(g.points[p]))
            if g.finished:
                if g.winner == p:
                    cell.append(" won", style="bold green")
                if g.game_bonus[p]:
                    shutout = g.game_bonus[p] > sheet.rules.game_bonus
                    cell.append(f"\n+{g.game_bonus[p]} game" + (" (shutout)" if shutout else ""))
                if g.box_bonus[p]:
                    cell.append(f"\n+{g.box_bonus[p]} box")
                if g.game_bonus[p] or g.box_bonus[p]:
                    cell.append(f"\n= {g.total[p]}")
            row.append(cell)
        if with_total:
            row.append(Text(str(sheet.totals[p]), style="bold"))
        table.add_row(*row)
    return table


def games_written(before: ScoreSheet, after: ScoreSheet) -> list[int]:
    """Numbers of the games whose points changed from ``before`` to ``after`` (R12.2, R12.3)."""
    return [g.number for g, h in zip(before.games, after.games) if g.points != h.points]


def score_lines(result: DealResult, knocker: str, defender: str) -> list[str]:
    """How the score of a knock, gin or big gin deal was reached, one plain line per step (R6,
    R9.3), e.g. ``["Defender deadwood 23 - knocker deadwood 7 = 16 (R6.2)", ...]``.
    ``knocker``/``defender`` are the names.  A drawn deal gives its :func:`draw_reason`."""
    sd = result.showdown
    if sd is None:
        return [draw_reason(result.reason)]
    k = sd.knocker.deadwood_value
    d = sd.defender.deadwood_value
    lines: list[str] = []
    if sd.outcome == "knock":
        lines.append(f"Defender deadwood {d} - knocker deadwood {k} = {sd.base_points} (R6.2)")
    elif sd.outcome == "undercut":
        lines.append(f"Knocker deadwood {k} >= defender deadwood {d}: undercut (R6.3)")
        lines.append(f"undercut bonus {sd.bonus} + ({k} - {d}) = {sd.base_points}")
    elif sd.outcome == "gin":
        lines.append(f"gin bonus {sd.bonus} + defender deadwood {d} = {sd.base_points} (R6.1)")
    else:
        lines.append(f"big gin bonus {sd.bonus} + defender deadwood {d} = {sd.base_points} (R6.5)")
    if sd.multiplier != 1:
        lines.append(f"x{sd.multiplier} spade upcard (R9.3) = {sd.points}")
    winner = knocker if sd.winner == "knocker" else defender
    lines.append(f"{winner} {verb(winner, 'scores', 'score')} {sd.points}")
    return lines


def draw_reason(reason: str) -> str:
    """The sentence for a drawn deal's rule (``"R7.1"``, ``"R7.2"``, ``"R7.3"``)."""
    return {
        "R7.1": "Two cards left in the stock and nobody knocked: the deal is a draw, no score; "
                "the same dealer deals again (R7.1)",
        "R7.2": "Two cards left in the stock and the discard could not be used to knock: the deal is "
                "a draw, no score (R7.2)",
        "R7.3": "The stock ran out after its last rebuild: the deal is a draw, no score (R7.3)",
    }.get(reason, f"The deal is a draw, no score ({reason})")


def _layout_line(head: str, melds: Sequence[int], dead: int, value: int) -> Text:
    """``head`` then the melds in brackets, two spaces, ``deadwood: ... = value``."""
    line = Text(head)
    for i, m in enumerate(melds):
        line.append(" " if i else "").append_text(meld_text(m))
    line.append("  deadwood: " if melds else "deadwood: ")
    line.append_text(cards_text(dead) if dead else Text("none"))
    return line.append(f" = {value}")


def deal_end(result: DealResult, seat_names: Sequence[str], *, knock_card: int | None = None,
             written: Sequence[int] = ()) -> Group:
    """The end of a deal: the knocker's layout, the defender's melds, layoffs and deadwood,
    and :func:`score_lines` (or the reason of a draw).  ``seat_names`` are the names of deal
    seats 0 and 1; ``knock_card`` the knocker's discard; ``written`` the Hollywood games the
    score went to (R12.2), shown when given."""
    parts: list[RenderableType] = []
    sd = result.showdown
    if sd is None or result.knocker is None:
        parts.append(Text(draw_reason(result.reason), style="bold"))
        return Group(*parts)
    kname = seat_names[result.knocker]
    dname = seat_names[1 - result.knocker]
    did = {"knock": "knocked", "undercut": "knocked", "gin": "went gin", "big_gin": "went big gin"}[sd.outcome]
    head = Text(f"{kname} {did}", style="bold")
    if knock_card is not None:
        head.append(", discarding ").append_text(card_text(knock_card))
    parts.append(head)
    dl = sd.defender
    parts.append(_layout_line(f"  {kname} (knocker): ", sd.knocker.melds, sd.knocker.deadwood,
                              sd.knocker.deadwood_value))
    parts.append(_layout_line(f"  {dname} (defender): ", dl.melds, dl.deadwood, dl.deadwood_value))
    if dl.layoffs:
        lo = Text(f"  {dname} {verb(dname, 'lays', 'lay')} off: ")
        for i, x in enumerate(dl.layoffs):
            if i:
                lo.append(", ")
            lo.append_text(card_text(x.card)).append(" on ").append_text(meld_text(x.onto))
        parts.append(lo)
    elif sd.outcome in ("gin", "big_gin"):
        parts.append(Text("  no layoffs onto a gin hand (R5.4)", style="dim"))
    else:
        parts.append(Text("  no layoffs", style="dim"))
    for line in score_lines(result, kname, dname):
        parts.append(Text("  " + line))
    if written:
        parts.append(Text("  written to " + ", ".join(f"game {n}" for n in written) + " (R12.2)", style="dim"))
    return Group(*parts)
