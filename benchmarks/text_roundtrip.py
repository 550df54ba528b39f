"""Issue 35's goal for text observations, at full size: in every phase of 1,000 deals the text
observation parses back (the numbered move chosen is the move applied) and an answer that is no
legal move raises an error naming every legal move.  tests/test_text_view.py runs the same
check on 200 deals.

    PYTHONPATH=src python benchmarks/text_roundtrip.py [--deals 1000] [--seed 35] [--layout players]

Play: the novice level's move 80% of the time, a uniformly random legal move otherwise, so that
deals reach knocks, gins, undercuts and the wall; the rules cycle through standard, the wall with
big gin, Oklahoma, Straight, single (reshuffle, discard_taken_card) and the wall with knock limit 0.
With ``--layout players`` (issue 36, R5.6) they cycle through standard, OpenSpiel's rules,
Oklahoma and Straight, each with the layout decisions the players': the knocker's melds, the
defender's layoffs and melds are answered too, also in the layout's words (``meld 9C, 8C, 7C``,
``lay off 5H``, ``lay off 5H on 2H 3H 4H``, ``done``); the layout phases are played by the simple
layout policy (``players.layout.choose_move``).
Prints the steps checked per phase and outcome, the failures (0 is the goal) and the time.
"""

from __future__ import annotations

import argparse
import random
import time

from ginrummy.actions import DRAW_STOCK, Action, discard
from ginrummy.cards import card_str, cards_of
from ginrummy.errors import IllegalActionError
from ginrummy.match import Match
from ginrummy.melds import is_meld
from ginrummy.players import make_player
from ginrummy.players.layout import choose_move
from ginrummy.rules import make_rules, preset
from ginrummy.text_view import parse_reply, text_observation

RULES = (
    preset("standard"),
    make_rules("standard", {"stock_end": "wall", "big_gin_bonus": 31}),
    preset("oklahoma"),
    preset("straight"),
    make_rules("single", {"discard_taken_card": True}),
    make_rules("standard", {"stock_end": "wall", "knock_limit": 0}),
)

LAYOUT_RULES = (
    make_rules("standard", {"layout": "players"}),
    make_rules(
        "standard",
        {"layout": "players", "stock_end": "wall", "discard_taken_card": True, "wall_forced_pass": True, "tie": "nothing"},
    ),
    make_rules("oklahoma", {"layout": "players"}),
    make_rules("straight", {"layout": "players"}),
)


def layout_replies(view, chosen: Action) -> list[str]:
    """The answers in the layout's words (R5.6) that choose ``chosen``."""
    if chosen.kind == "meld":
        cards = [card_str(c) for c in cards_of(chosen.melds[0])][::-1]
        return [f"meld {', '.join(cards)}", f"I lay down the meld {' '.join(cards[:-1])} and {cards[-1]}."]
    if chosen.kind == "layoff":
        out = [f"lay off {card_str(chosen.card)}"]
        for m in view.laid[view.knocker]:  # the knocker's meld it extends, with its layoffs so far
            group = m
            for _ in view.layoffs:
                group |= sum(1 << c for c in view.layoffs if is_meld(group | (1 << c)))
            if is_meld(group | (1 << chosen.card)):
                out.append(f"I will lay off {card_str(chosen.card)} on {' '.join(card_str(c) for c in cards_of(group))}.")
                break
        return out
    if chosen.kind == "pass" and view.phase in ("layout", "layoff"):
        return ["done"]
    return []


def run(deals: int, seed: int, layout: str = "engine") -> tuple[dict[str, int], list[str]]:
    rng = random.Random(seed)
    rule_sets = LAYOUT_RULES if layout == "players" else RULES
    novice = make_player("novice", random.Random(seed))
    counts: dict[str, int] = {}
    failures: list[str] = []
    for n in range(deals):
        m = Match.new(rule_sets[n % len(rule_sets)], ["ann", "bob"], f"text-bench-{seed}-{n}".encode())
        while not m.deal.is_over:
            p = m.player_to_act()
            v = m.view(p)
            text = text_observation(v)
            key = "wall_take" if v.must_knock else v.phase
            if v.phase == "layoff":  # the defender's layoffs, then (layoffs done) his melds
                key = "layoff_melds" if v.layoffs_done else "layoff"
            counts[key] = counts.get(key, 0) + 1
            i = (
                rng.randrange(len(v.legal)) + 1
                if rng.random() < 0.2
                else v.legal.index(choose_move(novice, v, v.legal)) + 1
            )
            chosen = v.legal[i - 1]
            line = next(x for x in text.splitlines() if x.startswith(f"{i}. "))
            for reply in (str(i), line, chosen.text, f"Thinking...\nAnswer: {i}", *layout_replies(v, chosen)):
                got = parse_reply(reply, v.legal)
                if got is not chosen:
                    failures.append(f"deal {n}: {reply!r} gave {got.text}, not {chosen.text}")
            legal = set(v.legal)
            illegal = DRAW_STOCK if DRAW_STOCK not in legal else next(discard(c) for c in range(52) if discard(c) not in legal)
            for bad in (str(len(v.legal) + 1), illegal.text):
                try:
                    parse_reply(bad, v.legal)
                    failures.append(f"deal {n}: {bad!r} was accepted")
                except IllegalActionError as exc:
                    if not str(exc).endswith("; ".join(f"{k}. {a.text}" for k, a in enumerate(v.legal, 1))):
                        failures.append(f"deal {n}: the error of {bad!r} does not name the legal moves")
            m.apply(p, chosen)
        counts["over"] = counts.get("over", 0) + 1
        if "Result: " not in text_observation(m.view(0)):
            failures.append(f"deal {n}: no result in the text")
        key = f"end_{m.deal.result.outcome}"
        counts[key] = counts.get(key, 0) + 1
    return counts, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--layout", choices=("engine", "players"), default="engine")
    args = parser.parse_args()
    if not 1 <= args.deals <= 100_000:
        parser.error("--deals must be 1..100000")
    t0 = time.perf_counter()
    counts, failures = run(args.deals, args.seed, args.layout)
    dt = time.perf_counter() - t0
    steps = sum(v for k, v in counts.items() if k != "over" and not k.startswith("end_"))
    print(f"{args.deals} deals, {steps} steps checked in {dt:.1f} s")
    for k in sorted(counts):
        print(f"  {k}: {counts[k]}")
    print(f"failures: {len(failures)}")
    for f in failures[:20]:
        print("  " + f)


if __name__ == "__main__":
    main()
