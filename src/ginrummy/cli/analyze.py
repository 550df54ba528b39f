"""``gin analyze``: the melds, deadwood and knock options of a 10- or 11-card hand (R2, R5.1,
R6.5, R8, R9).

Also holds the small Rich helpers (coloured cards, meld groups) that ``gin score`` uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..cards import card_str, cards_of, mask_of, parse_card, parse_cards
from ..i18n import translator
from ..melds import Arrangement, best_arrangement, knock_arrangement
from ..rules import RuleSet
from ..showdown import arrangement_json
from .common import (
    CARDS_HELP,
    JsonOpt,
    PresetOpt,
    SetOpt,
    bad_input,
    emit_json,
    fail,
    rules_from,
    text_console,
)
from .main import app
from .render import card_text

__all__ = ["analyze", "analyze_hand", "read_cards", "read_upcard", "cards_text", "melds_text"]

# -- Rich helpers (shared with gin score) ----------------------------------------------------


def cards_text(cards: Iterable[int]) -> Text:
    """Cards separated by spaces, as Rich text (``-`` when there are none)."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c, typed=True))
    return out if out.plain else Text("-", style="dim")


def melds_text(melds: Sequence[int]) -> Text:
    """Melds (card-set masks) each in brackets, e.g. ``[AS 2S 3S] [7C 7D 7H]``."""
    out = Text()
    for i, m in enumerate(melds):
        if i:
            out.append(" ")
        out.append("[")
        out.append_text(cards_text(cards_of(m)))
        out.append("]")
    return out if out.plain else Text("no melds", style="dim")


# -- input -----------------------------------------------------------------------------------


def read_cards(items: Sequence[str], what: str) -> list[int]:
    """Parse ``items`` (cards as in R1.4, separated by spaces or commas, in one or several
    strings); exit 2 naming ``what`` on a bad or repeated card."""
    with bad_input():
        try:
            return parse_cards(list(items))
        except ValueError as exc:
            fail(f"{what}: {exc}")
    raise AssertionError  # pragma: no cover


def read_upcard(text: str | None, rules: RuleSet, hands: int) -> int | None:
    """Parse ``--upcard``; exit 2 on a bad card, on an upcard that is in ``hands`` (a mask), and
    when Oklahoma rules (R9.1) are in force but no upcard is given."""
    if text is None:
        if rules.variant == "oklahoma":
            fail("Oklahoma gin takes its knock limit from the upcard (R9.1): give --upcard CARD")
        return None
    try:
        up = parse_card(text)
    except ValueError as exc:
        fail(f"--upcard: {exc}")
    if (hands >> up) & 1:
        fail(f"--upcard {card_str(up)} is also one of the cards given; a card is in one place only")
    return up


def deal_limit(rules: RuleSet, upcard: int | None) -> int | None:
    """The deal's knock limit: ``rules.deal_knock_limit(upcard)`` (R5.1, R8.1, R9.1, R9.2).
    Without an upcard (only outside Oklahoma, see :func:`read_upcard`) the upcard does not
    matter, so any card stands in for it."""
    return rules.deal_knock_limit(0 if upcard is None else upcard)


# -- analysis --------------------------------------------------------------------------------


def _ten(hand: int, limit: int | None) -> tuple[Arrangement, bool, bool]:
    arr = knock_arrangement(hand)
    can_knock = limit is not None and arr.deadwood_value <= limit
    return arr, can_knock, arr.deadwood_value == 0


def analyze_hand(cards: Sequence[int], rules: RuleSet, upcard: int | None = None) -> dict[str, Any]:
    """The ``gin analyze`` JSON of a hand of 10 or 11 cards (ints 0..51).

    Shape::

        {"cards": [card...], "melds": [[card...]...], "deadwood": [card...],
         "deadwood_value": int, "knock_limit": int | None, "can_knock": bool, "is_gin": bool}

    plus, for 11 cards, ``"big_gin": bool`` and ``"discards": [{"discard", "deadwood_value",
    "melds", "can_knock", "is_gin"}...]``.  Cards are text (R1.4) in card order (clubs,
    diamonds, hearts, spades; ace low).

    * ``melds``/``deadwood``: the layout with the least deadwood (R2.4); for 10 cards, among
      those, the one that leaves the fewest layoffs (R5.2).  For 11 cards, of all 11 cards.
    * ``knock_limit``: ``rules.deal_knock_limit(upcard)``; ``None`` when only gin ends the deal
      (Straight gin R8.1, Oklahoma ace R9.2).
    * ``can_knock`` (10 cards): knocking is allowed in the deal and the deadwood is at most the
      knock limit (R5.1).  A gin hand also satisfies this (it would be played as gin, R6.1);
      where knocking is not allowed ``can_knock`` is false even for a gin hand.
    * ``is_gin`` (10 cards): deadwood 0 (R2.5).
    * 11 cards: ``can_knock``/``is_gin`` say whether some discard allows it; ``big_gin``:
      all 11 cards form melds and big gin is played (``big_gin_bonus`` not null, R6.5);
      ``discards``: every card, least deadwood after discarding it first, ties in card order.

    Raises ``ValueError`` for a hand that is not 10 or 11 distinct cards.
    """
    hand = mask_of(cards)
    n = hand.bit_count()
    if n not in (10, 11) or n != len(cards):
        raise ValueError(f"a hand to analyse is 10 or 11 distinct cards, not {len(cards)}")
    limit = deal_limit(rules, upcard)
    out: dict[str, Any] = {"cards": [card_str(c) for c in cards_of(hand)]}
    if n == 10:
        arr, can_knock, is_gin = _ten(hand, limit)
        out.update(arrangement_json(arr), knock_limit=limit, can_knock=can_knock, is_gin=is_gin)
        return out
    full = best_arrangement(hand)
    options = []
    for c in cards_of(hand):
        arr, can_knock, is_gin = _ten(hand & ~(1 << c), limit)
        options.append(
            (
                arr.deadwood_value,
                c,
                {
                    "discard": card_str(c),
                    "deadwood_value": arr.deadwood_value,
                    "melds": arrangement_json(arr)["melds"],
                    "can_knock": can_knock,
                    "is_gin": is_gin,
                },
            )
        )
    options.sort(key=lambda t: (t[0], t[1]))
    discards = [o[2] for o in options]
    out.update(
        **arrangement_json(full),
        knock_limit=limit,
        can_knock=any(d["can_knock"] for d in discards),
        is_gin=any(d["is_gin"] for d in discards),
        big_gin=full.deadwood_value == 0 and rules.big_gin_bonus is not None,
        discards=discards,
    )
    return out


# -- rendering -------------------------------------------------------------------------------


def _parse_meld_lists(melds: list[list[str]]) -> list[int]:
    return [mask_of(parse_cards(m)) for m in melds]


def _yes(flag: bool) -> Text:
    return Text("yes", style="green") if flag else Text("no", style="dim")


def render_analysis(data: dict[str, Any], console: Console) -> None:
    """Print the readable form of :func:`analyze_hand`'s result."""
    limit = data["knock_limit"]
    cards = parse_cards(data["cards"])
    console.print(Text("Hand: ").append_text(cards_text(cards)))
    console.print(Text("Melds: ").append_text(melds_text(_parse_meld_lists(data["melds"]))))
    points = translator("en").n_("{n} point", "{n} points", data["deadwood_value"])
    console.print(Text("Deadwood: ").append_text(cards_text(parse_cards(data["deadwood"]))).append(f"  ({points})"))
    console.print("Knock limit: " + ("none: only gin ends the deal" if limit is None else str(limit)))
    if "discards" not in data:
        if data["is_gin"]:
            console.print(Text("Gin!", style="bold green"))
        elif data["can_knock"]:
            console.print(Text(f"Can knock with {data['deadwood_value']} deadwood.", style="green"))
        else:
            console.print("Cannot knock.")
        return
    if data["big_gin"]:
        console.print(Text("Big gin: all eleven cards are melded!", style="bold green"))
    elif data["deadwood_value"] == 0:
        console.print("All eleven cards are melded, but big gin is not played under these rules.")
    table = Table(title="Discards (least deadwood first)")
    table.add_column("discard")
    table.add_column("deadwood", justify="right")
    table.add_column("melds kept")
    table.add_column("knock")
    table.add_column("gin")
    for d in data["discards"]:
        table.add_row(
            card_text(parse_card(d["discard"]), typed=True),
            str(d["deadwood_value"]),
            melds_text(_parse_meld_lists(d["melds"])),
            _yes(d["can_knock"]),
            _yes(d["is_gin"]),
        )
    console.print(table)


@app.command("analyze")
def analyze(
    cards: list[str] = typer.Argument(..., help=f"The 10 or 11 cards of the hand: {CARDS_HELP}.", show_default=False),
    upcard: str = typer.Option(
        None,
        "--upcard",
        help="The deal's first upcard: gives the Oklahoma knock limit (R9.1, R9.2); needed under Oklahoma.",
    ),
    preset: str = PresetOpt,
    overrides: list[str] = SetOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Melds, deadwood and knock options of a 10- or 11-card hand (R2, R5.1).

    10 cards: the proposed layout (least deadwood, then fewest layoffs, R5.2), whether the hand
    may knock (deadwood at most the deal's knock limit, knocking allowed; true for a gin hand
    too unless only gin ends the deal: Straight gin, Oklahoma ace) and whether it is gin.
    11 cards (after the draw): the melds of all 11, big gin (R6.5), and every discard with the
    deadwood it leaves, least first, ties in card order.  JSON keys: cards, melds, deadwood,
    deadwood_value, knock_limit (null when only gin ends the deal), can_knock, is_gin; for 11
    cards also big_gin and discards.
    """
    rules = rules_from(preset, overrides)
    hand = read_cards(cards, "cards")
    if len(hand) not in (10, 11):
        fail(f"a hand to analyse is 10 or 11 cards (11 after the draw), not {len(hand)}")
    up = read_upcard(upcard, rules, mask_of(hand))
    data = analyze_hand(hand, rules, up)
    if as_json:
        emit_json(data)
    else:
        render_analysis(data, text_console())
