"""A text agent: plays a match of gin through any callable ``str -> str`` (a language model, or a
person at the prompt by default) against a computer level, by text observations.

    python examples/text_agent.py [--opponent novice] [--preset standard] [--scope game] [--seed 0]

Each turn the agent is given :func:`ginrummy.text_view.text_observation` of its view (English:
the text is for programs and is not translated) and answers with the number of a legal move,
its text (``discard 7H``), or both; :func:`ginrummy.text_view.parse_reply` reads the answer.
An answer that is no legal move is sent back with the error, which names the legal moves, at
most ``retries`` times.  To plug in a model, pass any function of the prompt, for example::

    from text_agent import play_match
    play_match(lambda prompt: my_model.complete(SYSTEM + prompt), opponent="expert")

Prints how each deal ended and the final totals.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from ginrummy.errors import IllegalActionError
from ginrummy.match import Match
from ginrummy.players import make_player
from ginrummy.rules import preset
from ginrummy.text_view import parse_reply, text_observation

#: What the agent is told once, before its first observation.
INTRO = ("You play Gin Rummy. Each turn you get the table as text; answer with the number of one "
         "legal move (or the move's text, like 'discard 7H').\n\n")


def ask_person(prompt: str) -> str:
    """The default agent: a person at the terminal."""
    print(prompt)
    return input("> ")


def play_match(agent: Callable[[str], str], *, opponent: str = "novice", rules: str = "standard",
               scope: str = "game", seed: int = 0, retries: int = 3,
               out: Callable[[str], None] = print) -> Match:
    """Play one match (``scope="game"``, the preset's scoring) or one deal (``"deal"``) with
    ``agent`` as player 0 against the computer level ``opponent`` as player 1; returns the
    finished :class:`~ginrummy.match.Match`.  Raises :class:`IllegalActionError` when the agent
    gives no legal move ``retries`` + 1 times in a row."""
    rs = preset(rules)
    if scope == "deal":
        rs = rs.replace(scoring="deal")
    m = Match.new(rs, ["agent", opponent], f"text-agent/{seed}".encode())
    bot = make_player(opponent, random.Random(seed))
    first = True
    while not m.finished:
        if m.deal.is_over:
            res = m.deal.result
            out(f"deal {m.record.number}: {res.outcome}, {res.points} points; totals {m.sheet.totals}")
            m.next_deal()
            continue
        p = m.player_to_act()
        view = m.view(p)
        if p == 1:
            m.apply(p, bot.choose(view, view.legal))
            continue
        prompt = (INTRO if first else "") + text_observation(view)
        first = False
        for attempt in range(retries + 1):
            try:
                action = parse_reply(agent(prompt), view.legal)
                break
            except IllegalActionError as exc:
                if attempt == retries:
                    raise
                prompt = f"{exc}\n\n{text_observation(view)}"
        m.apply(p, action)
    res = m.deal.result
    out(f"deal {m.record.number}: {res.outcome}, {res.points} points")
    out(f"final totals: agent {m.sheet.totals[0]}, {opponent} {m.sheet.totals[1]}; winner: "
        f"{'nobody' if m.winner is None else m.names[m.winner]}")
    return m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", default="novice", help="a computer level (random, novice, club, expert, ...)")
    parser.add_argument("--preset", default="standard", help="a rule preset (R13)")
    parser.add_argument("--scope", default="game", choices=("game", "deal"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    play_match(ask_person, opponent=args.opponent, rules=args.preset, scope=args.scope, seed=args.seed)


if __name__ == "__main__":
    main()
