"""``gin score``: lay out and score a knock, gin or big gin (R5.2-R5.5, R6, R8, R9)."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from ..cards import cards_str, mask_of, parse_cards
from ..i18n import translator
from ..showdown import Showdown, showdown
from .analyze import cards_text, deal_limit, melds_text, read_cards, read_upcard
from .common import CARDS_HELP, JsonOpt, PresetOpt, SetOpt, bad_input, emit_json, fail, rules_from, text_console
from .main import app

__all__ = ["score", "score_json"]

_OUTCOME_TEXT = {
    "knock": "Result: knock — the knocker wins the difference (R6.2)",
    "undercut": "Result: undercut — the defender wins the undercut bonus plus the difference (R6.3)",
    "gin": "Result: gin — the knocker wins the gin bonus plus the defender's deadwood (R6.1)",
    "big_gin": "Result: big gin — the knocker wins the big gin bonus plus the defender's deadwood (R6.5)",
}


def score_json(sd: Showdown) -> dict[str, Any]:
    """The ``gin score`` JSON of a showdown::

        {"outcome": "knock" | "undercut" | "gin" | "big_gin",
         "knocker": {"melds": [[card...]...], "deadwood": [card...], "deadwood_value": int},
         "defender": {"melds", "layoffs": [{"card", "onto": [card...]}...], "deadwood",
                      "deadwood_value"},
         "winner": "knocker" | "defender", "points": int, "multiplier": int}

    :meth:`Showdown.to_json` without its ``bonus`` key; ``points`` includes the bonus and the
    Oklahoma multiplier (R9.3).
    """
    data = sd.to_json()
    return {key: data[key] for key in ("outcome", "knocker", "defender", "winner", "points", "multiplier")}


def render_score(data: dict[str, Any], console: Console) -> None:
    """Print the readable form of :func:`score_json`'s result."""
    k, d = data["knocker"], data["defender"]

    def melds(side: dict[str, Any]) -> Text:
        return melds_text([mask_of(parse_cards(m)) for m in side["melds"]])

    console.print(Text(_OUTCOME_TEXT[data["outcome"]], style="bold"))
    console.print(Text("Knocker   melds: ").append_text(melds(k)))
    console.print(
        Text("       deadwood: ")
        .append_text(cards_text(parse_cards(k["deadwood"])))
        .append(f"  ({k['deadwood_value']})")
    )
    console.print(Text("Defender  melds: ").append_text(melds(d)))
    for lay in d["layoffs"]:
        console.print(
            Text("        lays off ")
            .append_text(cards_text(parse_cards([lay["card"]])))
            .append(" onto ")
            .append_text(cards_text(parse_cards(lay["onto"])))
        )
    console.print(
        Text("       deadwood: ")
        .append_text(cards_text(parse_cards(d["deadwood"])))
        .append(f"  ({d['deadwood_value']})")
    )
    doubled = " (doubled: spade upcard, R9.3)" if data["multiplier"] > 1 else ""
    points = translator("en").n_("{n} point", "{n} points", data["points"])
    console.print(Text(f"The {data['winner']} scores {points}{doubled}.", style="bold green"))


@app.command("score")
def score(
    knocker: list[str] = typer.Option(
        ...,
        "--knocker",
        metavar="CARDS",
        help=f"The knocker's ten cards after his discard (eleven for big gin): {CARDS_HELP}.",
        show_default=False,
    ),
    defender: list[str] = typer.Option(
        ..., "--defender", metavar="CARDS", help=f"The defender's ten cards: {CARDS_HELP}.", show_default=False
    ),
    upcard: str = typer.Option(
        None,
        "--upcard",
        help="The deal's first upcard: Oklahoma knock limit and spade doubling (R9); needed under Oklahoma.",
    ),
    preset: str = PresetOpt,
    overrides: list[str] = SetOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Lay out and score a knock, gin or big gin (R5.2-R5.5, R6).

    The knocker's proposed layout is the one with the least deadwood and, among those, the
    fewest possible layoffs for the cards he cannot see (R5.2; here every card not in his
    hand).  The defender melds and lays off to leave the least deadwood (R5.4, R5.5), nothing
    after gin (R6.1).  A knock the rules forbid (deadwood above the knock limit, or any knock
    where only gin ends the deal: Straight R8.1, Oklahoma ace R9.2) exits with status 2.
    JSON keys: outcome, knocker, defender (with layoffs), winner, points, multiplier.
    """
    rules = rules_from(preset, overrides)
    k_cards = read_cards(knocker, "--knocker")
    d_cards = read_cards(defender, "--defender")
    if len(k_cards) not in (10, 11):
        fail(f"--knocker: the knocker lays out 10 cards after his discard (11 for big gin), not {len(k_cards)}")
    if len(d_cards) != 10:
        fail(f"--defender: the defender holds 10 cards, not {len(d_cards)}")
    k_mask, d_mask = mask_of(k_cards), mask_of(d_cards)
    both = k_mask & d_mask
    if both:
        fail(f"{cards_str(both)} given to both the knocker and the defender")
    up = read_upcard(upcard, rules, k_mask | d_mask)
    limit = deal_limit(rules, up)
    multiplier = 1 if up is None else rules.deal_multiplier(up)
    with bad_input():
        sd = showdown(rules, k_mask, d_mask, knock_limit=limit, multiplier=multiplier)
    data = score_json(sd)
    if as_json:
        emit_json(data)
    else:
        render_score(data, text_console())
