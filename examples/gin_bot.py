"""A whole bot for `gin bot --command "python examples/gin_bot.py"` (docs/bot-api.md).

Each line on stdin is one JSON view of your seat (PlayerView.to_json(agent=True)); answer one
line: an action code from "legal_codes", or an action's text.  This one goes gin or knocks when
it can, takes the stock rather than the pile, and otherwise discards its highest card.
"""
import json
import sys

RANKS = "A23456789TJQK"
for line in sys.stdin:
    view = json.loads(line)
    moves = dict(zip(view["legal_actions"], view["legal_codes"]))
    first = [m for m in moves if m.split()[0] in ("big", "gin", "knock")] or \
            [m for m in moves if m in ("draw stock", "pass")] or \
            sorted(moves, key=lambda m: -RANKS.find(m.split()[-1][0]))
    print(moves[first[0]], flush=True)
