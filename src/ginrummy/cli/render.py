"""Rich rendering of the things of a gin table: cards, hands with their melds, the discard
pile, the score sheet and the end of a deal (layouts, layoffs, how the score was reached).

Used by ``gin play`` and reusable by the other commands.  Every function is pure: it takes
engine values (cards as ints 0..51, card sets as masks, :class:`~ginrummy.melds.Arrangement`,
:class:`~ginrummy.deal.DealResult`, :class:`~ginrummy.scoring.ScoreSheet`) and returns Rich
renderables or plain strings; nothing here prints.  Cards show their suit as a symbol, hearts
and diamonds in red, and where a person must type a card its text form (R1.4, ``7H``) is shown
too.

Every function takes an optional ``tr`` (:class:`ginrummy.i18n.Translator`, default English):
the words around the cards are in its language; the card symbols and the text forms to type
(``7H``) are the same in every language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..actions import Action
from ..cards import card_str, cards_of, rank_of, suit_of
from ..deal import DealResult, Event
from ..i18n import Translator, translator
from ..melds import best_arrangement
from ..rules import PRESETS, RuleSet, shown
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
    "is_you",
    "sheet_table",
    "score_lines",
    "draw_reason",
    "deal_end",
    "games_written",
    "suit_name",
    "rank_name",
    "card_name",
]

SUIT_SYMBOLS = "♣♦♥♠"
"""Suit symbols in the suit order of :mod:`ginrummy.cards` (clubs, diamonds, hearts, spades)."""

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def rules_label(rules: RuleSet) -> str:
    """The rule set's name as a player reads it: the preset (R13), then every field that
    differs from it as ``KEY=VALUE`` (R14, written as typed on the command line):
    ``"standard"``, ``"standard, gin_bonus=30"``.  The number of players (R10) is not a rule
    choice: three-hand standard gin is ``"standard"``, not ``"standard+custom"``."""
    base_name = rules.name.removesuffix("+custom")
    base = PRESETS.get(base_name)
    if base is None:
        return rules.name
    changed = [
        f"{k}={shown(v)}" for k, v in rules.to_dict().items() if k not in ("name", "players") and getattr(base, k) != v
    ]
    return ", ".join([base_name, *changed])


def _tr(tr: Translator | None) -> Translator:
    return tr if tr is not None else translator("en")


def suit_name(s: int, tr: Translator | None = None) -> str:
    """The name of suit ``s`` (0 clubs, 1 diamonds, 2 hearts, 3 spades) in ``tr``'s language
    (``"hearts"``; Greek ``"κούπα"``)."""
    tr = _tr(tr)
    return (tr.p_("suit", "clubs"), tr.p_("suit", "diamonds"), tr.p_("suit", "hearts"), tr.p_("suit", "spades"))[s]


def rank_name(r: int, tr: Translator | None = None) -> str:
    """The name of rank ``r`` (0 ace .. 12 king) in ``tr``'s language; 2-10 are numerals."""
    tr = _tr(tr)
    if r == 0:
        return tr.p_("rank", "ace")
    if r >= 10:
        return (tr.p_("rank", "jack"), tr.p_("rank", "queen"), tr.p_("rank", "king"))[r - 10]
    return str(r + 1)


def card_name(c: int, tr: Translator | None = None) -> str:
    """Card ``c`` (int 0..51) by name in ``tr``'s language: ``"seven of hearts"``."""
    tr = _tr(tr)
    return tr.p_("card name", "{rank} of {suit}", rank=rank_name(rank_of(c), tr), suit=suit_name(suit_of(c), tr))


def is_you(name: str, tr: Translator | None = None) -> bool:
    """Whether ``name`` is the person addressed as "you" (``You``, or its translation)."""
    folded = name.casefold()
    return folded == "you" or folded == _tr(tr)._("You").casefold()


def card_label(c: int) -> str:
    """The symbol form of card ``c`` (int 0..51): ``"7♥"``, ``"10♦"``, ``"A♠"``."""
    return _RANKS[rank_of(c)] + SUIT_SYMBOLS[suit_of(c)]


def _style(c: int) -> str:
    return "bold red" if suit_of(c) in (1, 2) else "bold"


def card_text(c: int, *, highlight: bool = False, typed: bool = False) -> Text:
    """Card ``c`` in its symbol form (``typed``: its R1.4 text form, ``7H``), red for hearts and
    diamonds (reverse video if ``highlight``)."""
    return Text(card_str(c) if typed else card_label(c), style=_style(c) + (" reverse" if highlight else ""))


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


def _around(template: str, **items: Text) -> Text:
    """A translated ``template`` whose ``{name}`` placeholders are replaced by the styled
    ``items`` (so a card keeps its colour in any word order); literal text stays as it is."""
    out = Text()
    rest = template
    while True:
        start = rest.find("{")
        end = rest.find("}", start)
        if start < 0 or end < 0:
            break
        key = rest[start + 1 : end]
        out.append(rest[:start])
        if key in items:
            out.append_text(items[key])
        else:
            out.append(rest[start : end + 1])
        rest = rest[end + 1 :]
    return out.append(rest)


def hand_view(hand: int, *, highlight: int | None = None, indent: str = "  ", tr: Translator | None = None) -> Text:
    """A hand (mask) in two rows: the cards in symbol form, and under each its text form to
    type (R1.4).  Melds of the least-deadwood arrangement (R2.4) come first, one group each,
    then the deadwood cards (suit then rank); groups are separated by wide gaps and the last
    row labels them.  ``highlight`` (a card int) is shown in reverse video (the card just drawn).
    """
    tr = _tr(tr)
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
        name = tr.p_("hand label", "meld") if gi < len(arr.melds) else tr.p_("hand label", "deadwood")
        labels.append(name.center(width) if len(name) <= width else name, style="dim italic")
    return Text("\n").join([top, bottom, labels])


def pile_text(pile: Sequence[int], tr: Translator | None = None) -> Text:
    """The whole discard pile, bottom to top, the top card last and marked."""
    tr = _tr(tr)
    if not pile:
        return Text(tr._("(empty)"))
    out = cards_text(pile[:-1])
    if len(pile) > 1:
        out.append(" ")
    out.append("▶ ").append_text(card_text(pile[-1], highlight=True)).append(tr._(" (top)"))
    return out


def legal_summary(legal: Sequence[Action], hand: int | None = None, tr: Translator | None = None) -> str:
    """The legal actions in short: simple actions by name with their short command, cards
    grouped per kind (``discard a card``, ``knock with 9C KD``).  With ``hand`` (a mask), the
    cards of the hand that may not be discarded are named instead of the allowed ones."""
    tr = _tr(tr)
    short = {
        "draw_stock": tr._("draw stock (s)"),
        "take_discard": tr._("take discard (t)"),
        "take_upcard": tr._("take upcard (u)"),
        "pass": tr._("pass (p)"),
        "big_gin": tr._("big gin"),
    }
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
            parts.append(tr._("discard one of {cards} (type the card)", cards=" ".join(map(card_str, cards))))
        else:
            text = tr._("discard a card (type it, e.g. {card})", card=card_str(cards[-1]))
            barred = [c for c in cards_of(hand) if c not in cards]
            if barred:
                text += tr._(" but not {cards} (just taken, R4.3)", cards=" ".join(map(card_str, barred)))
            parts.append(text)
    if "knock" in by_kind:
        parts.append(tr._("knock with {cards} (k CARD, or knock)", cards=" ".join(map(card_str, by_kind["knock"]))))
    if "gin" in by_kind:
        parts.append(tr._("gin with {cards} (g CARD, or gin)", cards=" ".join(map(card_str, by_kind["gin"]))))
    return tr.p_("list separator", "; ").join(parts)


def _event_words(tr: Translator, you: bool = False) -> dict[str, str]:
    if you:  # the same words said of the person: "You took the upcard" (a verb form of its own in most languages)
        return {
            "take_upcard": tr.p_("your event", "took the upcard"),
            "pass": tr.p_("your event", "passed"),
            "draw_stock": tr.p_("your event", "drew from the stock"),
            "take_discard": tr.p_("your event", "took the discard"),
            "discard": tr.p_("your event", "discarded"),
            "knock": tr.p_("your event", "knocked, discarding"),
            "gin": tr.p_("your event", "went gin, discarding"),
            "big_gin": tr.p_("your event", "went big gin"),
        }
    return {
        "take_upcard": tr.p_("event", "took the upcard"),
        "pass": tr.p_("event", "passed"),
        "draw_stock": tr.p_("event", "drew from the stock"),
        "take_discard": tr.p_("event", "took the discard"),
        "discard": tr.p_("event", "discarded"),
        "knock": tr.p_("event", "knocked, discarding"),
        "gin": tr.p_("event", "went gin, discarding"),
        "big_gin": tr.p_("event", "went big gin"),
        "reshuffle": tr.p_("event", "the stock was reshuffled (R7.3)"),
        "end": tr.p_("event", "the deal ended"),
    }


def verb(name: str, singular: str, plural: str) -> str:
    """``plural`` after the name "You" (you lay off), else ``singular`` (Novice lays off).
    English only: a translated sentence has one message for "you" and one for a name."""
    return plural if name.casefold() == "you" else singular


def event_line(e: Event, who: str, tr: Translator | None = None, *, you: bool = False) -> Text:
    """One event as a short line, e.g. ``Novice discarded K♠``, ``You drew 4♣ from the
    stock`` (a hidden card omitted); with ``who`` empty, just ``discarded K♠``.  ``you``: the
    words are said of the person (``You ...``), which most languages conjugate differently."""
    tr = _tr(tr)
    out = Text(f"{who} " if who and e.seat is not None else "")
    if e.kind == "draw_stock" and e.card is not None:
        template = (
            tr.pgettext("your event", "drew {card} from the stock")
            if you
            else tr.pgettext("event", "drew {card} from the stock")
        )
        return out.append_text(_around(template, card=card_text(e.card)))
    text = _event_words(tr, you).get(e.kind) or _event_words(tr).get(e.kind) or e.kind.replace("_", " ")
    out.append(text)
    if e.card is not None:
        out.append(" ").append_text(card_text(e.card))
    return out


def sheet_table(
    sheet: ScoreSheet, names: Sequence[str], *, title: str | None = None, tr: Translator | None = None
) -> Table:
    """The score sheet as a table: one row per player, one column per game (three for
    Hollywood, R12.1) and the total (R12.5).  A finished game's cell shows its points, the
    game bonus (shutout doubled) and the box bonus, and the total (R11.3, R12.4); the winner
    of a game is marked.  Points are in ``tr``'s number format."""
    tr = _tr(tr)
    num = tr.format_number
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("")
    games = sheet.games
    many = len(games) > 1
    for g in games:
        if many:
            head = tr.p_("sheet", "Game {number}", number=g.number)
        else:
            head = tr.p_("sheet", "Points") if sheet.rules.scoring == "game" else tr.p_("sheet", "Deal")
        if g.finished:
            head += " ✓"
        table.add_column(head, justify="right")
    with_total = many
    if with_total:
        table.add_column(tr.p_("sheet", "Total"), justify="right")
    for p, name in enumerate(names):
        row: list[RenderableType] = [Text(name)]
        for g in games:
            cell = Text(num(g.points[p]))
            if g.finished:
                if g.winner == p:
                    cell.append(" " + tr.p_("sheet", "won"), style="bold green")
                if g.game_bonus[p]:
                    shutout = g.game_bonus[p] > sheet.rules.game_bonus
                    bonus = (
                        tr.p_("sheet", "+{points} game (shutout)", points=g.game_bonus[p])
                        if shutout
                        else tr.p_("sheet", "+{points} game", points=g.game_bonus[p])
                    )
                    cell.append("\n" + bonus)
                if g.box_bonus[p]:
                    cell.append("\n" + tr.p_("sheet", "+{points} box", points=g.box_bonus[p]))
                if g.game_bonus[p] or g.box_bonus[p]:
                    cell.append(f"\n= {num(g.total[p])}")
            row.append(cell)
        if with_total:
            row.append(Text(num(sheet.totals[p]), style="bold"))
        table.add_row(*row)
    return table


def games_written(before: ScoreSheet, after: ScoreSheet) -> list[int]:
    """Numbers of the games whose points changed from ``before`` to ``after`` (R12.2, R12.3)."""
    return [g.number for g, h in zip(before.games, after.games) if g.points != h.points]


def score_lines(result: DealResult, knocker: str, defender: str, tr: Translator | None = None) -> list[str]:
    """How the score of a knock, gin or big gin deal was reached, one plain line per step (R6,
    R9.3), e.g. ``["Defender deadwood 23 - knocker deadwood 7 = 16 (R6.2)", ...]``.
    ``knocker``/``defender`` are the names.  A drawn deal gives its :func:`draw_reason`."""
    tr = _tr(tr)
    sd = result.showdown
    if sd is None:
        return [draw_reason(result.reason, tr)]
    k = sd.knocker.deadwood_value
    d = sd.defender.deadwood_value
    lines: list[str] = []
    if sd.outcome == "knock":
        lines.append(
            tr._("Defender deadwood {d} - knocker deadwood {k} = {points} (R6.2)", d=d, k=k, points=sd.base_points)
        )
    elif sd.outcome == "undercut":
        lines.append(tr._("Knocker deadwood {k} >= defender deadwood {d}: undercut (R6.3)", k=k, d=d))
        lines.append(
            tr._("undercut bonus {bonus} + ({k} - {d}) = {points}", bonus=sd.bonus, k=k, d=d, points=sd.base_points)
        )
    elif sd.outcome == "gin":
        lines.append(
            tr._(
                "gin bonus {bonus} + defender deadwood {d} = {points} (R6.1)",
                bonus=sd.bonus,
                d=d,
                points=sd.base_points,
            )
        )
    else:
        lines.append(
            tr._(
                "big gin bonus {bonus} + defender deadwood {d} = {points} (R6.5)",
                bonus=sd.bonus,
                d=d,
                points=sd.base_points,
            )
        )
    if sd.multiplier != 1:
        lines.append(tr._("x{factor} spade upcard (R9.3) = {points}", factor=sd.multiplier, points=sd.points))
    winner = knocker if sd.winner == "knocker" else defender
    if is_you(winner, tr):
        lines.append(tr.n_("You score {n}", "You score {n}", sd.points))
    else:
        lines.append(tr.n_("{name} scores {n}", "{name} scores {n}", sd.points, name=winner))
    return lines


def draw_reason(reason: str, tr: Translator | None = None) -> str:
    """The sentence for a drawn deal's rule (``"R7.1"``, ``"R7.2"``, ``"R7.3"``)."""
    tr = _tr(tr)
    if reason == "R7.1":
        return tr._(
            "Two cards left in the stock and nobody knocked: the deal is a draw, no score; "
            "the same dealer deals again (R7.1)"
        )
    if reason == "R7.2":
        return tr._(
            "Two cards left in the stock and the discard could not be used to knock: the deal is "
            "a draw, no score (R7.2)"
        )
    if reason == "R7.3":
        return tr._("The stock ran out after its last rebuild: the deal is a draw, no score (R7.3)")
    return tr._("The deal is a draw, no score ({rule})", rule=reason)


def _layout_line(head: str, melds: Sequence[int], dead: int, value: int, tr: Translator) -> Text:
    """``head`` then the melds in brackets, two spaces, ``deadwood: ... = value``."""
    line = Text(head)
    for i, m in enumerate(melds):
        line.append(" " if i else "").append_text(meld_text(m))
    line.append("  " if melds else "").append(tr._("deadwood:") + " ")
    line.append_text(cards_text(dead) if dead else Text(tr.p_("no cards", "none")))
    return line.append(f" = {tr.format_number(value)}")


def deal_end(
    result: DealResult,
    seat_names: Sequence[str],
    *,
    knock_card: int | None = None,
    written: Sequence[int] = (),
    tr: Translator | None = None,
) -> Group:
    """The end of a deal: the knocker's layout, the defender's melds, layoffs and deadwood,
    and :func:`score_lines` (or the reason of a draw).  ``seat_names`` are the names of deal
    seats 0 and 1; ``knock_card`` the knocker's discard; ``written`` the Hollywood games the
    score went to (R12.2), shown when given."""
    tr = _tr(tr)
    parts: list[RenderableType] = []
    sd = result.showdown
    if sd is None or result.knocker is None:
        parts.append(Text(draw_reason(result.reason, tr), style="bold"))
        return Group(*parts)
    kname = seat_names[result.knocker]
    dname = seat_names[1 - result.knocker]
    you = is_you(kname, tr)
    if sd.outcome in ("knock", "undercut"):
        did = tr._("You knocked") if you else tr._("{name} knocked", name=kname)
        with_card = (
            tr._("You knocked, discarding {card}", card="{card}")
            if you
            else tr._("{name} knocked, discarding {card}", name=kname, card="{card}")
        )
    elif sd.outcome == "gin":
        did = tr._("You went gin") if you else tr._("{name} went gin", name=kname)
        with_card = (
            tr._("You went gin, discarding {card}", card="{card}")
            if you
            else tr._("{name} went gin, discarding {card}", name=kname, card="{card}")
        )
    else:
        did = tr._("You went big gin") if you else tr._("{name} went big gin", name=kname)
        with_card = did
    if knock_card is not None and with_card != did:
        head = _around(with_card, card=card_text(knock_card))
    else:
        head = Text(did)
    head.stylize("bold")
    parts.append(head)
    dl = sd.defender
    parts.append(
        _layout_line(
            "  " + tr._("{name} (knocker):", name=kname) + " ",
            sd.knocker.melds,
            sd.knocker.deadwood,
            sd.knocker.deadwood_value,
            tr,
        )
    )
    parts.append(
        _layout_line("  " + tr._("{name} (defender):", name=dname) + " ", dl.melds, dl.deadwood, dl.deadwood_value, tr)
    )
    if dl.layoffs:
        lo = Text("  " + (tr._("You lay off:") if is_you(dname, tr) else tr._("{name} lays off:", name=dname)) + " ")
        on = tr.gettext("{card} on {meld}")
        for i, x in enumerate(dl.layoffs):
            if i:
                lo.append(", ")
            lo.append_text(_around(on, card=card_text(x.card), meld=meld_text(x.onto)))
        parts.append(lo)
    elif sd.outcome in ("gin", "big_gin"):
        parts.append(Text("  " + tr._("no layoffs onto a gin hand (R5.4)"), style="dim"))
    else:
        parts.append(Text("  " + tr._("no layoffs"), style="dim"))
    for line in score_lines(result, kname, dname, tr):
        parts.append(Text("  " + line))
    if written:
        games = ", ".join(tr.p_("sheet", "game {number}", number=n) for n in written)
        parts.append(Text("  " + tr._("written to {games} (R12.2)", games=games), style="dim"))
    return Group(*parts)
