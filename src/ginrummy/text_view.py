"""A seat's view as text for a language model, and the reader of its free-text answer.

:func:`text_observation` writes a :class:`~ginrummy.views.PlayerView` as plain English lines:
the rules in force, the score, the seat's hand split into melds and deadwood, the discard pile
(top first), what is known of the opponent's hand, the moves of the deal so far, the phase and
what it asks, and the legal moves as numbered lines with their text form (the forms of
:mod:`ginrummy.actions`).  :func:`parse_reply` reads an answer back: the number, the move's
text, or both.

The text is for programs, so it is English only and is not translated (the game's own strings
are, ``docs/i18n.md``).  It is made from the view alone: two views that differ only in cards the
seat may not see (the opponent's hand, the order of the stock) give the same text.
Under ``layout="engine"`` (the default) layoffs are never a decision: after a knock the engine
lays out the defender's melds and layoffs at their best (R5.5), and a knock lays down the
arrangement proposed by R5.2, which the knock's line shows.  Under ``layout="players"`` (R5.6,
OpenSpiel's rules) the layout is a sequence of decisions: the knocker lays his melds one by one
and passes, the defender lays off cards one by one, passes, lays his melds and passes; the text
then shows the melds laid by each side and the cards laid off, and the numbered moves are the
``meld``, ``layoff`` and ``pass`` moves with the deadwood each leaves; :func:`parse_reply` reads
their numbers, their texts and the layout's words (``meld 9C, 8C and 7C``, ``lay off 5H on 2H
3H 4H``, ``done``).

>>> from ginrummy.deal import new_deal
>>> from ginrummy.rules import preset
>>> from ginrummy.views import view_of
>>> v = view_of(new_deal(preset("standard"), 1, list(range(52))), 0)
>>> print(text_observation(v).splitlines()[-3:])
['Legal moves (answer with the number, the move, or both):', '1. take upcard (takes 8D)', '2. pass']
>>> parse_reply("I pass.", v.legal).text, parse_reply("1", v.legal).text
('pass', 'take upcard')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .actions import LAYOUT_KINDS, PASS, Action, ActionKind, layout_action, meld, parse_action
from .cards import FULL_DECK, card_str, cards_of, mask_of, mask_value, parse_card
from .deal import DealResult, Event
from .errors import IllegalActionError
from .melds import Arrangement, best_arrangement, deadwood, deadwood_after_discards, is_meld, knock_arrangement
from .rules import RuleSet
from .views import PlayerView

__all__ = ["text_observation", "rules_text", "parse_reply", "MAX_REPLY_CHARS"]

#: The longest answer :func:`parse_reply` reads (characters); a longer one is refused.
MAX_REPLY_CHARS = 8000

_PHASE_NAMES = {
    "upcard_offer": "the upcard offer",
    "draw": "draw",
    "discard": "discard or knock",
    "wall": "the wall",
    "over": "the deal is over",
    "layout": "the knocker's layout (R5.6)",
    "layoff": "the defender's layoffs and melds (R5.6)",
}


def _cards(cards: Sequence[int] | int) -> str:
    seq = cards_of(cards) if isinstance(cards, int) else list(cards)
    return " ".join(card_str(c) for c in seq) if seq else "none"


def _times(n: int) -> str:
    """``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _count(n: int, what: str = "card") -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _arrangement_text(arr: Arrangement) -> str:
    melds = " / ".join(_cards(m) for m in arr.melds) or "none"
    return f"melds {melds}; deadwood {_cards(arr.deadwood)} ({arr.deadwood_value} points)"


def rules_text(rules: RuleSet, knock_limit: int | None, multiplier: int = 1, one_deal: bool = False) -> str:
    """The rules in force, in one short paragraph (R4-R12), for :func:`text_observation`.

    ``knock_limit`` and ``multiplier`` are the deal's (:attr:`PlayerView.knock_limit`,
    :attr:`PlayerView.multiplier`): Oklahoma sets them from the first upcard (R9).
    ``one_deal``: the deal is played alone, outside a match (an environment's episode), so
    the scoring line says so instead of naming a game to the rules' target (R11.1).

    >>> print(rules_text(RuleSet(), 10))  # doctest: +NORMALIZE_WHITESPACE
    Rules: standard gin. Knock with 10 or less deadwood (R5.1). Gin bonus 25 (R6.1), undercut
    bonus 25 (R6.3). A card taken from the discard pile may not be discarded in the same turn
    (R4.3). When a discard leaves two cards in the stock the deal is a draw (R7.1). Scoring: a
    game to 100 points, game bonus 100, box bonus 25 a deal won (R11).
    """
    out = [f"Rules: {rules.variant} gin."]
    if knock_limit is None:
        out.append("Only gin ends this deal: no knocking (R8.1, R9.2).")
    else:
        out.append(
            f"Knock with {knock_limit} or less deadwood (R5.1{', R9.1' if rules.variant == 'oklahoma' else ''})."
        )
    bonus = f"Gin bonus {rules.gin_bonus} (R6.1)"
    if knock_limit is not None:
        bonus += f", undercut bonus {rules.undercut_bonus} (R6.3)"
    if rules.big_gin_bonus is not None:
        bonus += f", big gin bonus {rules.big_gin_bonus} (R6.5)"
    out.append(bonus + ".")
    if multiplier != 1:
        out.append(f"The first upcard was a spade: every point of this deal counts {_times(multiplier)} (R9.3).")
    out.append(
        "A card taken from the discard pile may be discarded in the same turn (R4.3)."
        if rules.discard_taken_card
        else "A card taken from the discard pile may not be discarded in the same turn (R4.3)."
    )
    if rules.stock_end == "wall":
        out.append(
            "When a discard leaves two cards in the stock, the next player may take that discard only to "
            "knock or go gin at once; else the deal is a draw (the wall, R7.2)."
        )
    elif rules.stock_end == "reshuffle":
        out.append(
            f"An empty stock is rebuilt from the discard pile at most {_times(rules.max_reshuffles)}; "
            "then the deal is a draw (R7.3)."
        )
    else:
        out.append("When a discard leaves two cards in the stock the deal is a draw (R7.1).")
    if rules.scoring == "deal":
        out.append("Scoring: a single deal (R11.1).")
    elif one_deal:
        out.append("Scoring: this deal is played alone, not as part of a game; its points are scored as in R6.")
    else:
        kind = "Hollywood, three games" if rules.scoring == "hollywood" else "a game"
        extra = (
            f", game bonus {rules.game_bonus}, box bonus {rules.box_bonus} a deal won"
            if rules.bonuses_on
            else ", no bonuses"
        )
        out.append(
            f"Scoring: {kind} to {rules.target} points{extra} (R11{', R12' if rules.scoring == 'hollywood' else ''})."
        )
    return " ".join(out)


def _names(view: PlayerView) -> tuple[str, str]:
    """(this seat's name, the opponent's name) from the view's match context, if any."""
    sc = view.scores
    names, seats = sc.get("names"), sc.get("seat_players")
    if isinstance(names, list) and isinstance(seats, list) and len(seats) == 2:
        return str(names[seats[view.seat]]), str(names[seats[1 - view.seat]])
    return f"seat {view.seat}", f"seat {1 - view.seat}"


def _score_lines(view: PlayerView, me: str, other: str) -> list[str]:
    sc = view.scores
    names, totals, seats = sc.get("names"), sc.get("totals"), sc.get("seat_players")
    out = []
    if isinstance(names, list) and isinstance(totals, list) and len(names) == len(totals):
        parts = [f"{n} {t}" + (" (you)" if isinstance(seats, list) and n == me else "") for n, t in zip(names, totals)]
        number = sc.get("deal_number")
        out.append(f"Match score: {', '.join(parts)}" + (f"; this is deal {number}." if number is not None else "."))
    else:
        out.append("Match score: not given.")
    return out


def _event_text(e: Event, seat: int, me: str, other: str) -> str:
    who = "you" if e.seat == seat else other if e.seat is not None else ""
    body = e.kind.replace("_", " ")
    if e.kind == "draw_stock" and e.card is None:
        body = "draw stock (hidden)"
    elif e.card is not None:
        body += " " + card_str(e.card)
    return f"{who} {body}".strip()


def _result_lines(res: DealResult, seat: int, me: str, other: str) -> list[str]:
    who = {seat: "you", 1 - seat: other}
    if res.showdown is None:
        return [f"Result: a draw ({res.reason}): nobody scores."]
    sd = res.showdown
    assert res.knocker is not None and res.winner is not None
    out = [
        f"Result: {res.outcome.replace('_', ' ')}; {who[res.winner]} score {res.points} points."
        if res.winner == seat
        else f"Result: {res.outcome.replace('_', ' ')}; {who[res.winner]} scores {res.points} points."
    ]
    out.append(f"Knocker ({who[res.knocker]}): {_arrangement_text(sd.knocker)}.")
    d = sd.defender
    lays = "; ".join(f"{card_str(lay.card)} on {_cards(lay.onto)}" for lay in d.layoffs) or "none"
    melds = " / ".join(_cards(m) for m in d.melds) or "none"
    out.append(
        f"Defender ({who[1 - res.knocker]}): melds {melds}; layoffs {lays}; "
        f"deadwood {_cards(d.deadwood)} ({d.deadwood_value} points)."
    )
    return out


def _phase_lines(view: PlayerView, other: str) -> list[str]:
    top = view.top_discard
    if view.phase == "over":
        return ["Phase: the deal is over."]
    if not view.my_turn:
        return [f"Phase: {_PHASE_NAMES[view.phase]}. It is not your turn: {other} is to act."]
    if view.phase == "upcard_offer":
        return [
            f"Phase: the upcard offer (R4.2). The upcard is {_cards([view.upcard])}: take it (then discard), or pass."
        ]
    if view.phase == "wall":
        return [
            f"Phase: the wall (R7.2). Two cards are left in the stock. You may take the discard "
            f"{_cards([top] if top is not None else [])} only to knock or go gin with it at once; "
            "if you pass, the deal is a draw."
        ]
    if view.phase == "layout":
        return [
            "Phase: your layout (R5.6). You knocked: lay your melds on the table one at a time (each move "
            f"below), then pass when the cards you keep are within the knock limit ({view.knock_limit or 0}); "
            "they are your deadwood."
        ]
    if view.phase == "layoff":
        if not view.layoffs_done:
            return [
                f"Phase: your layoffs (R5.6). {other} knocked: lay off your cards on {other}'s melds one at a "
                "time, then pass; after that you lay your own melds."
            ]
        return [
            "Phase: your melds (R5.6). Lay your melds on the table one at a time, then pass; the cards "
            "you keep are your deadwood."
        ]
    if view.phase == "draw":
        if view.stock_only:
            return ["Phase: draw. Both players passed the upcard: draw from the stock (R4.2)."]
        return [
            f"Phase: draw (R4.1). Draw from the stock, or take the top discard "
            f"{_cards([top] if top is not None else [])}."
        ]
    out = [
        "Phase: discard or knock. You hold 11 cards: discard one (R4.1), or knock or go gin if a move "
        "below allows it (R5.1, R6.1)."
    ]
    if view.taken is not None:
        out.append(
            f"You took {card_str(view.taken)} from the discard pile this turn"
            + (
                ": you must knock or go gin with it (R7.2)."
                if view.must_knock
                else "."
                if view.rules.discard_taken_card
                else ": it may not be discarded (R4.3)."
            )
        )
    return out


def _move_line(view: PlayerView, a: Action, after: dict[int, int]) -> str:
    text = a.text
    if view.phase in ("layout", "layoff"):  # the layout decisions (R5.6)
        if a.kind == ActionKind.MELD and a.melds:
            return f"{text} (deadwood of the cards left, at best: {deadwood(view.hand & ~a.melds[0])})"
        if a.kind == ActionKind.LAYOFF and a.card is not None:
            return f"{text} (deadwood of the cards left, at best: {deadwood(view.hand & ~(1 << a.card))})"
        if a.kind == ActionKind.PASS:
            if view.phase == "layoff" and not view.layoffs_done:
                return f"{text} (no more layoffs; then you lay your melds)"
            return f"{text} (your layout is done: deadwood {mask_value(view.hand)})"
    if a.kind == ActionKind.DISCARD and a.card is not None and a.card in after:
        return f"{text} (deadwood after: {after[a.card]})"
    if a.kind in (ActionKind.KNOCK, ActionKind.GIN) and a.card is not None:
        # the arrangement the engine lays down for this knock (R5.2), as deal.py proposes it
        kept = view.hand & ~(1 << a.card)
        unseen = FULL_DECK & ~kept & ~mask_of(view.pile) & ~(1 << a.card)
        arr = knock_arrangement(kept, unseen)
        return f"{text} (lays down {_arrangement_text(arr)})"
    if a.kind == ActionKind.TAKE_DISCARD and view.top_discard is not None:
        return f"{text} (takes {card_str(view.top_discard)})"
    if a.kind == ActionKind.TAKE_UPCARD:
        return f"{text} (takes {card_str(view.upcard)})"
    return text


def text_observation(view: PlayerView) -> str:
    """``view`` as English lines for a language model (see the module docstring).

    The lines: who you are and the phase's rules (R4-R12); the match score (from
    :attr:`PlayerView.scores`, ``Match.view`` fills it); your hand split into melds and deadwood
    with the deadwood count (R2, the least of R2.4); the discard pile, top first; the stock count;
    the opponent's card count, the cards he was seen taking from the pile and still holds, and
    the cards he discarded this deal; the moves of the deal so far (stock draws by the opponent
    hidden, R4.1); the phase and what it asks (R4.2, R4.1, R5.1, R7.2), or the result once over
    (layouts and layoffs, R5.2-R5.5, R6); and when the seat is to act, the legal moves numbered
    from 1 in the order of :attr:`PlayerView.legal`, each with its text form
    (:attr:`~ginrummy.actions.Action.text`) and a note in brackets (the deadwood a discard
    leaves, the layout a knock lays down).  Only what the seat may see; no errors raised.
    """
    me, other = _names(view)
    role = "the dealer" if view.dealer == view.seat else "the non-dealer"
    lines = [
        f"Gin Rummy. You are {me}, {role}; your opponent is {other}.",
        rules_text(view.rules, view.knock_limit, view.multiplier, one_deal=not view.scores),
    ]
    lines += _score_lines(view, me, other)
    hand = view.hand
    if hand:
        arr = best_arrangement(hand)
        lines.append(f"Your hand ({_count(hand.bit_count())}): {_arrangement_text(arr)}.")
    lines.append(f"Discard pile ({_count(len(view.pile))}, top first): {_cards(list(reversed(view.pile)))}.")
    lines.append(
        f"Stock: {_count(view.stock_size)}"
        + (f"; rebuilt {_count(view.reshuffles, 'time')} (R7.3)." if view.reshuffles else ".")
    )
    discarded = list(
        dict.fromkeys(
            e.card
            for e in view.history
            if e.seat == 1 - view.seat and e.card is not None and e.kind in ("discard", "knock", "gin")
        )
    )  # each card once, first time first
    lines.append(
        f"{other} holds {_count(view.opponent_count)}; seen taking from the pile and still holds: "
        f"{_cards(view.opponent_seen)}; discarded this deal: {_cards(discarded)}."
    )
    moves = [_event_text(e, view.seat, me, other) for e in view.history if e.kind != "end"]
    lines.append("Moves this deal, oldest first: " + ("; ".join(moves) if moves else "none") + ".")
    if view.knocker is not None:  # the layout decisions (R5.6): what is on the table
        k = view.knocker
        who = {view.seat: "you", 1 - view.seat: other}
        lines.append(
            f"On the table: the knocker ({who[k]}) laid melds "
            f"{' / '.join(_cards(m) for m in view.laid[k]) or 'none'}; "
            f"{who[1 - k]} laid off {_cards(list(view.layoffs))} and laid melds "
            f"{' / '.join(_cards(m) for m in view.laid[1 - k]) or 'none'}."
        )
    lines += _phase_lines(view, other)
    if view.result is not None:
        lines += _result_lines(view.result, view.seat, me, other)
    if view.legal:
        after = deadwood_after_discards(hand, cards_of(hand)) if hand.bit_count() == 11 else {}
        lines.append("Legal moves (answer with the number, the move, or both):")
        lines += [f"{i}. {_move_line(view, a, after)}" for i, a in enumerate(view.legal, 1)]
    return "\n".join(lines)


# -- reading an answer --------------------------------------------------------------------------

_CARD = r"(?:10|[a2-9tjqk])\s?[cdhs]"
_CARDS = rf"{_CARD}(?:\s*,?\s*(?:and\s+)?{_CARD})*"  # cards apart by spaces, commas or "and"
_MOVE_RE = re.compile(
    r"(?<![a-z0-9])(?:(big[ _]gin)|(take[ _]upcard)|(draw[ _]stock)|(take[ _]discard)|(pass)"
    rf"|(discard|knock|gin)\s+(?:the\s+)?({_CARD})"
    rf"|meld\s+(?:the\s+)?({_CARDS})"
    rf"|lay[ _]?off\s+(?:the\s+)?({_CARD})(?:\s+on(?:to)?\s+(?:the\s+)?(?:meld\s+)?({_CARDS}))?)(?![a-z0-9])"
)
_CARD_RE = re.compile(_CARD)
_NUMBER_RE = re.compile(r"(?<![\w.])#?(\d{1,4})(?![\w])")
_LEAD_RE = re.compile(r"^\s*(?:move|answer|choice|option|action)?\s*[:#]?\s*\(?(\d{1,4})\s*[.):\-]?\s*(.*)$", re.DOTALL)
_MARK_RE = re.compile(r"(?:answer|move|choice|action|option)\s*(?:is)?\s*[:=]\s*(.+)")
#: whole answers that mean ``pass`` (the end of a part of the layout, R5.6)
_DONE = frozenset(("done", "i'm done", "i am done"))


def _card_mask(text: str) -> int:
    """The cards named in ``text`` (lower case, as :data:`_CARDS` matched them), as a mask."""
    return mask_of(parse_card(c.replace(" ", "")) for c in _CARD_RE.findall(text))


def _mentions(text: str, reply: str, legal: list[Action]) -> list[Action]:
    """The moves named in ``text`` (lower case), in order, each once.  A layoff that names the
    meld it goes on (``lay off 5H on 2H 3H 4H``) must make a meld with it (R2, R5.4); else
    raises the error of ``reply``.  Melds and layoffs are read only when one is legal (the
    layout phases of R5.6): elsewhere ``meld AS 2S 3S`` in an answer describes a hand."""
    out: list[Action] = []
    layout = any(a.kind in LAYOUT_KINDS for a in legal)
    for m in _MOVE_RE.finditer(text):
        if (m.group(8) or m.group(9)) and not layout:
            continue
        if m.group(6):
            a = parse_action(f"{m.group(6)} {m.group(7).replace(' ', '')}")
        elif m.group(8):
            a = meld(_card_mask(m.group(8)))
        elif m.group(9):
            a = parse_action(f"layoff {m.group(9).replace(' ', '')}")
            onto = _card_mask(m.group(10)) if m.group(10) else 0
            assert a.card is not None
            if onto and ((onto >> a.card) & 1 or not is_meld(onto | (1 << a.card))):
                raise _error(
                    reply, legal, f"{card_str(a.card)} does not lay off on {_cards(onto)}: together they are no meld"
                )
        else:
            a = parse_action(next(g for g in m.groups()[:5] if g))
        if a not in out:
            out.append(a)
    return out


def _whole(text: str, legal: list[Action], reply: str) -> Action | None:
    """``text`` as a whole answer: a number, a move, or a number and its move; ``None`` if it
    is none of these.  Raises when it is one of them but not a legal move."""
    t = text.strip().strip("\"'`*").strip().rstrip(".!").strip()
    if "\n" in t:
        return None
    m = _LEAD_RE.match(t)
    if m:
        number = int(m.group(1))
        rest = m.group(2).strip().strip("\"'`*").strip().rstrip(".!")
        if not 1 <= number <= len(legal):
            raise _error(reply, legal, f"there is no move {number}")
        chosen = legal[number - 1]
        if rest:
            named = _mentions(rest, reply, legal)
            if named and all(_base(n) != _base(chosen) for n in named):
                raise _error(reply, legal, f"move {number} is {chosen.text}, not {named[0].text}")
            if not named and _NUMBER_RE.search(rest):
                raise _error(reply, legal, "it gives several numbers")
        return chosen
    if t in _DONE:
        return _legal_one(PASS, reply, legal)
    try:
        a = parse_action(t)
    except IllegalActionError:
        return None
    return _legal_one(a, reply, legal)


def _base(a: Action) -> tuple[str, int | None, tuple[int, ...] | None]:
    return a.kind, a.card, a.melds if a.kind == ActionKind.MELD else None


def _legal_one(a: Action, text: str, legal: list[Action]) -> Action:
    for b in legal:
        if _base(b) == _base(a):
            return a if a.melds is not None and a.kind == ActionKind.KNOCK else b
    raise _error(text, legal, f"{a.text} is not legal now")


def _error(text: str, legal: list[Action], why: str) -> IllegalActionError:
    shown = text.strip()
    if len(shown) > 80:
        shown = shown[:77] + "..."
    moves = "; ".join(f"{i}. {a.text}" for i, a in enumerate(legal, 1))
    return IllegalActionError(
        f"no legal move in the answer {shown!r}: {why}; legal moves: {moves}", shown, [a.text for a in legal]
    )


def parse_reply(reply: str, legal: Sequence[Action | int]) -> Action:
    """The legal move that the free-text answer ``reply`` chooses.

    ``legal``: the legal moves in the order :func:`text_observation` numbers them
    (:attr:`PlayerView.legal`), as :class:`~ginrummy.actions.Action` or integer codes.  Read,
    in this order, ignoring case:

    1. the whole answer: a number ``3`` (also ``#3``, ``3.``, ``(3)``), a move's text (``discard
       7H``, ``knock 10h``, ``meld 7C 8C 9C``, ``layoff 5H``, the short forms of
       :func:`~ginrummy.actions.parse_action`), ``done`` (``pass``: the end of a part of the
       layout, R5.6), or the number with the text (``3. discard 7H``: both must name the same
       move);
    2. else its last non-empty line, read the same way;
    3. else the last ``answer: ...`` (or ``move:``, ``choice:``, ``action:``) in it;
    4. else the one legal move it names in its words (``I will discard the 7H now``);
    5. else the one number 1..n standing alone in it.

    A knock that names its melds (R5.2) is returned with them when the knock is legal.

    The layout decisions of ``layout="players"`` (R5.6) are named in words too (in step 4 only
    while a meld or a layoff is legal: elsewhere such words describe a hand): ``meld`` and
    the meld's cards in any order, apart by spaces, commas or ``and`` (``meld 9C, 8C and 7C``);
    ``lay off 5H`` (or ``layoff``, ``lay_off``), which may name the meld it goes on (``lay off 5H
    on 2H 3H 4H``, ``onto the meld ...``): those cards with the card must make one meld (R2),
    else the answer is refused (where the card goes is the engine's to decide, R5.4).

    Raises :class:`IllegalActionError` (a ``ValueError``) naming the answer and every legal move
    with its number when the answer chooses no legal move, names a move that is not legal, is
    ambiguous (two different moves), lays a card off on cards it makes no meld with, or is
    longer than :data:`MAX_REPLY_CHARS`; ``legal`` empty
    (not this seat's turn) raises too.
    """
    moves = [layout_action(a) if isinstance(a, int) else a for a in legal]
    if not isinstance(reply, str):
        raise _error(repr(reply), moves, "an answer is text")
    if not moves:
        raise _error(reply, moves, "you have no move now (it is not your turn)")
    if len(reply) > MAX_REPLY_CHARS:
        raise _error(reply, moves, f"the answer is longer than {MAX_REPLY_CHARS} characters")
    low = reply.lower()
    lines = [x for x in low.splitlines() if x.strip()]
    if not lines:
        raise _error(reply, moves, "the answer is empty")
    for part in (low, lines[-1]):
        found = _whole(part, moves, reply)
        if found is not None:
            return found
    marks = _MARK_RE.findall(low)
    if marks:
        found = _whole(marks[-1], moves, reply)
        if found is None:
            named = _mentions(marks[-1], reply, moves)
            if len(named) == 1:
                return _legal_one(named[0], reply, moves)
        else:
            return found
    named = _mentions(low, reply, moves)
    if len(named) == 1:
        return _legal_one(named[0], reply, moves)
    if len(named) > 1:
        legal_named = [a for a in named if any(_base(a) == _base(b) for b in moves)]
        raise _error(reply, moves, "it names several moves: " + ", ".join(a.text for a in (legal_named or named)))
    numbers = {int(n) for n in _NUMBER_RE.findall(low)}
    if len(numbers) == 1:
        number = numbers.pop()
        if 1 <= number <= len(moves):
            return moves[number - 1]
        raise _error(reply, moves, f"there is no move {number}")
    raise _error(reply, moves, "it names no move" if not numbers else "it gives several numbers")
