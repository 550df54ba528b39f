"""Tests of :mod:`ginrummy.text_view`: the text observation of a seat's view for a language
model, and the reader of a free-text answer (issue 35, item 2).

The round trip: in every phase of random deals (R4.2 upcard offer, R4.1 draw and discard, R5.1
knock, R7.2 the wall, the end of the deal), the move chosen by its number (or its text, or
both) is the move applied, and an answer that is no legal move raises one error naming every
legal move.  The text cites no hidden card (R3.2, R4.1).
"""

from __future__ import annotations

import json
import random
import re

import pytest

from ginrummy.actions import DRAW_STOCK, Action, discard
from ginrummy.cards import card_str, cards_of
from ginrummy.errors import IllegalActionError
from ginrummy.match import Match
from ginrummy.melds import is_meld
from ginrummy.players import make_player
from ginrummy.players.layout import choose_move
from ginrummy.rules import make_rules, preset
from ginrummy.text_view import parse_reply, rules_text, text_observation
from ginrummy.views import view_of
from helpers import act, deal

ND = "AS 2S 3S 4H 4D 4C 7C 8C 9C KD"
DEALER_A = "5S 7S 9S TH QH 2D 6D 8D JS KH"
DEALER_B = "5S 7S 9S TH QH 3D 6H 8H JH KH"  # differs in 2D 6D 8D JS -> 3D 6H 8H JH

#: rule sets the round trip cycles through: every phase, every way a deal ends
RULES = (
    preset("standard"),
    make_rules("standard", {"stock_end": "wall", "big_gin_bonus": 31}),
    preset("oklahoma"),
    preset("straight"),
    make_rules("single", {"discard_taken_card": True}),
    make_rules("standard", {"stock_end": "wall", "knock_limit": 0}),
)


def _numbered(text: str) -> list[str]:
    """The legal-move lines of a text observation, without their numbers, checked in order."""
    lines = text.split("Legal moves (answer with the number, the move, or both):\n")
    if len(lines) == 1:
        return []
    out = []
    for i, line in enumerate(lines[1].splitlines(), 1):
        head, _, rest = line.partition(". ")
        assert head == str(i), line
        out.append(rest)
    return out


def _illegal_move(view) -> Action:
    """A move that is not legal for ``view`` (its seat to act)."""
    legal = set(view.legal)
    if DRAW_STOCK not in legal:
        return DRAW_STOCK
    return next(discard(c) for c in range(52) if discard(c) not in legal)


def _layoff_target(view, card: int) -> int:
    """The knocker's meld (with the cards laid off on it so far) that ``card`` extends, or 0."""
    for m in view.laid[view.knocker]:
        group, grew = m, True
        while grew:
            grew = False
            for c in view.layoffs:
                if not (group >> c) & 1 and is_meld(group | (1 << c)):
                    group |= 1 << c
                    grew = True
        if is_meld(group | (1 << card)):
            return group
    return 0


def _layout_replies(view, chosen: Action) -> list[str]:
    """The answers of the layout decisions' grammar (R5.6) that choose ``chosen``."""
    if chosen.kind == "meld":
        cards = [card_str(c) for c in cards_of(chosen.melds[0])][::-1]
        return [f"meld {', '.join(cards)}", f"I lay down the meld {' '.join(cards[:-1])} and {cards[-1]}."]
    if chosen.kind == "layoff":
        out = [f"lay off {card_str(chosen.card)}", f"I'll lay_off the {card_str(chosen.card).lower()}"]
        onto = _layoff_target(view, chosen.card)
        if onto:
            out.append(f"I will lay off {card_str(chosen.card)} on {' '.join(card_str(c) for c in cards_of(onto))}.")
        return out
    if chosen.kind == "pass" and view.phase in ("layout", "layoff"):
        return ["done", "Done."]
    return []


def _roundtrip(deals: int, seed: int, rule_sets=None) -> dict[str, int]:
    """Play ``deals`` random deals, checking every step; return how many steps had each phase."""
    rng = random.Random(seed)
    novice = make_player("novice", random.Random(seed))  # plays to knock and gin, so every phase comes
    phases: dict[str, int] = {}
    rule_sets = rule_sets or RULES
    for n in range(deals):
        rules = rule_sets[n % len(rule_sets)]
        m = Match.new(rules, ["ann", "bob"], f"text-{seed}-{n}".encode())
        while not m.deal.is_over:
            p = m.player_to_act()
            v = m.view(p)
            text = text_observation(v)
            assert text == text_observation(m.view(p))  # the same view, the same text
            lines = _numbered(text)
            assert [line.split(" (")[0] for line in lines] == [a.text for a in v.legal]
            phases[v.phase] = phases.get(v.phase, 0) + 1
            if v.must_knock:
                phases["must_knock"] = phases.get("must_knock", 0) + 1
            if rng.random() < 0.2:
                i = rng.randrange(len(v.legal)) + 1
            else:
                i = v.legal.index(choose_move(novice, v, v.legal)) + 1
            chosen = v.legal[i - 1]
            if v.phase in ("layout", "layoff"):
                phases[f"{v.phase}_{chosen.kind}"] = phases.get(f"{v.phase}_{chosen.kind}", 0) + 1
            for reply in (str(i), f"{i}. {chosen.text}", chosen.text.upper(), f"{i}. {lines[i - 1]}",
                          f"Let me think.\nMy deadwood is high.\nAnswer: {i}", f"I will {chosen.text} now.",
                          f"  **{chosen.text}**  ", *_layout_replies(v, chosen)):
                assert parse_reply(reply, v.legal) is chosen, reply
            assert parse_reply(str(i), [a.code for a in v.legal]) == chosen
            for bad in (str(len(v.legal) + 1), _illegal_move(v).text, "I don't know", ""):
                with pytest.raises(IllegalActionError) as err:
                    parse_reply(bad, v.legal)
                msg = str(err.value)
                assert msg.endswith("; legal moves: " + "; ".join(f"{k}. {a.text}" for k, a in enumerate(v.legal, 1)))
                assert err.value.legal == [a.text for a in v.legal]
            m.apply(p, chosen)
        phases["over"] = phases.get("over", 0) + 1
        text = text_observation(m.view(0))
        assert "Phase: the deal is over." in text and "Result: " in text and _numbered(text) == []
        outcome = m.deal.result.outcome
        phases[f"end_{outcome}"] = phases.get(f"end_{outcome}", 0) + 1
    return phases


def test_roundtrip_of_every_phase_of_200_random_deals():
    """Issue 35's goal, bounded: 200 deals (benchmarks/text_roundtrip.py plays 1,000)."""
    phases = _roundtrip(200, 35)
    for phase in ("upcard_offer", "draw", "discard", "wall", "must_knock", "over", "end_knock", "end_gin",
                  "end_draw", "end_undercut"):
        assert phases.get(phase, 0) > 0, (phase, phases)


#: the layout decisions' rule sets (R5.6): standard; OpenSpiel's; Oklahoma; Straight (gin only)
LAYOUT_RULES = (
    make_rules("standard", {"layout": "players"}),
    make_rules("standard", {"layout": "players", "stock_end": "wall", "discard_taken_card": True,
                            "wall_forced_pass": True, "tie": "nothing"}),
    make_rules("oklahoma", {"layout": "players"}),
    make_rules("straight", {"layout": "players"}),
)


def test_roundtrip_of_every_phase_of_200_random_deals_under_layout_players():
    """Issue 36: under ``layout="players"`` the knocker's melds, the defender's layoffs and melds
    and each part's ``pass`` are read back from their numbers, their texts and the layout
    grammar (``meld 9C, 8C, 7C``, ``lay off 5H on 2H 3H 4H``, ``done``) in 200 random deals."""
    phases = _roundtrip(200, 36, LAYOUT_RULES)
    for phase in ("upcard_offer", "draw", "discard", "wall", "over", "end_knock", "end_gin", "end_undercut",
                  "layout_meld", "layout_pass", "layoff_layoff", "layoff_meld", "layoff_pass"):
        assert phases.get(phase, 0) > 0, (phase, phases)


def test_parse_reply_of_the_layout_decisions():
    """R5.6: the knocker's layout (``meld``, ``done``), then the defender's layoffs (``lay off``
    with or without the meld it goes on); one clear error for a meld or a layoff not legal, and
    for a layoff onto cards it makes no meld with."""
    rules = make_rules("standard", {"layout": "players"})
    s = act(deal("AC 2C 3C 4D 5D 6D 7H 8H 9H KS", "TD JD QD KD 4C 6S 7S 8S AH 3S", "QH", "2S", rules=rules),
            "pass", "pass", "draw stock", "knock KS")
    legal = view_of(s, 0).legal
    assert parse_reply("meld 3C 2C AC", legal).text == "meld AC 2C 3C"
    assert parse_reply("I lay down the meld 7h, 8h and 9h.", legal).text == "meld 7H 8H 9H"
    with pytest.raises(IllegalActionError, match="'meld 2C 3C 4C': meld 2C 3C 4C is not legal now; legal moves: 1. "):
        parse_reply("meld 2C 3C 4C", legal)
    with pytest.raises(IllegalActionError, match="'done': pass is not legal now; legal moves: 1. meld "):
        parse_reply("done", legal)
    for m in ("AC 2C 3C", "4D 5D 6D", "7H 8H 9H"):
        s = act(s, "meld " + m)
    assert parse_reply("Done.", view_of(s, 0).legal).text == "pass"
    s = act(s, "pass")
    legal = view_of(s, 1).legal
    assert [a.text for a in legal] == ["pass", "layoff 4C"]
    assert parse_reply("lay off 4C", legal).text == "layoff 4C"
    assert parse_reply("I will lay off the 4c onto AC 2C 3C now", legal).text == "layoff 4C"
    assert parse_reply("2. lay off 4C on the meld AC 2C 3C", legal).text == "layoff 4C"
    with pytest.raises(IllegalActionError, match="move 1 is pass, not layoff 4C"):
        parse_reply("1. lay off 4C", legal)
    with pytest.raises(IllegalActionError, match="4C does not lay off on 7H 8H 9H: together they are no meld; "
                                                 "legal moves: 1. pass; 2. layoff 4C$"):
        parse_reply("lay off 4C on 7H 8H 9H", legal)
    with pytest.raises(IllegalActionError, match="4C does not lay off on 4C 5C 6C: together they are no meld"):
        parse_reply("I lay off 4C on 4C 5C 6C", [a.code for a in legal])  # codes too: the same error
    assert parse_reply("Let me see.\nAnswer: done", legal).text == "pass"
    with pytest.raises(IllegalActionError, match="'lay off 6S': layoff 6S is not legal now"):
        parse_reply("lay off 6S", legal)
    with pytest.raises(IllegalActionError, match="it names several moves: layoff 4C, pass"):
        parse_reply("lay off 4C or pass", legal)


def test_text_cites_no_hidden_card():
    """Two deals that differ only in the dealer's hand and the stock below its top card, played
    with the same public moves, give seat 0 the same text at every step (R3.2, R4.1)."""
    a = deal(ND, DEALER_A, "5H", "QC 5D TC")
    b = deal(ND, DEALER_B, "5H", "QC AD 6C")
    assert text_observation(view_of(a, 0)) == text_observation(view_of(b, 0))
    for move in ["pass", "pass", "draw stock", "discard QC", "draw stock", "discard KH"]:
        a, b = act(a, move), act(b, move)
        ta, tb = text_observation(view_of(a, 0)), text_observation(view_of(b, 0))
        assert ta == tb, move
        for card in ("2D", "6D", "8D", "JS", "3D", "6H", "8H", "JH", "AD", "6C", "TC"):
            assert not re.search(rf"\b{card}\b", ta), (move, card)
    assert text_observation(view_of(a, 1)) != text_observation(view_of(b, 1))


def test_text_of_a_draw_turn():
    """The whole text of one turn, exactly: melds and deadwood (R2), the pile top first, the
    opponent's discards and the cards he took (R4.1), the numbered moves."""
    s = act(deal(ND, DEALER_A, "5H", "QC 5D TC"), "pass", "take upcard", "discard KH", "draw stock",
            "discard QC", "draw stock", "discard 2D")
    assert text_observation(view_of(s, 0)) == "\n".join([
        "Gin Rummy. You are seat 0, the non-dealer; your opponent is seat 1.",
        rules_text(preset("standard"), 10, one_deal=True),  # a deal alone: no game to 100 (issue 34)
        "Match score: not given.",
        "Your hand (10 cards): melds 4C 4D 4H / 7C 8C 9C / AS 2S 3S; deadwood KD (10 points).",
        "Discard pile (3 cards, top first): 2D QC KH.",
        "Stock: 29 cards.",
        "seat 1 holds 10 cards; seen taking from the pile and still holds: 5H; discarded this deal: KH 2D.",
        "Moves this deal, oldest first: you pass; seat 1 take upcard 5H; seat 1 discard KH; you draw stock QC; "
        "you discard QC; seat 1 draw stock (hidden); seat 1 discard 2D.",
        "Phase: draw (R4.1). Draw from the stock, or take the top discard 2D.",
        "Legal moves (answer with the number, the move, or both):",
        "1. draw stock",
        "2. take discard (takes 2D)",
    ])


def test_knock_line_shows_the_layout_the_engine_lays_down():
    """R5.2: the knock's line shows the arrangement that knocking lays down; the result after
    it shows both layouts and the defender's layoffs (R5.4, R5.5)."""
    s = act(deal(ND, DEALER_A, "5H", "QC 5D TC"), "pass", "pass", "draw stock")
    lines = _numbered(text_observation(view_of(s, 0)))
    assert lines[-2:] == ["knock QC (lays down melds 4C 4D 4H / 7C 8C 9C / AS 2S 3S; deadwood KD (10 points))",
                          "knock KD (lays down melds 4C 4D 4H / 7C 8C 9C / AS 2S 3S; deadwood QC (10 points))"]
    assert lines[4] == "discard QC (deadwood after: 10)"
    over = act(s, "knock QC")
    assert text_observation(view_of(over, 0)).splitlines()[-4:] == [
        "Phase: the deal is over.",
        "Result: knock; you score 67 points.",
        "Knocker (you): melds 4C 4D 4H / 7C 8C 9C / AS 2S 3S; deadwood KD (10 points).",
        "Defender (seat 1): melds none; layoffs none; deadwood 2D 6D 8D TH QH KH 5S 7S 9S JS (77 points)."]
    assert text_observation(view_of(over, 1)).splitlines()[-3] == "Result: knock; seat 0 scores 67 points."


def test_parse_reply_forms_and_errors():
    """The number, the text, both; case and surrounding words; one clear error otherwise."""
    s = act(deal(ND, DEALER_A, "5H", "QC 5D TC"), "pass", "pass", "draw stock")
    legal = view_of(s, 0).legal
    texts = [a.text for a in legal]
    k = texts.index("knock QC") + 1
    assert parse_reply(str(k), legal).text == "knock QC"
    assert parse_reply(f"#{k}", legal).text == "knock QC"
    assert parse_reply(f"({k}) knock qc", legal).text == "knock QC"
    assert parse_reply("KNOCK qc", legal).text == "knock QC"
    assert parse_reply("I'd knock the QC here.", legal).text == "knock QC"
    assert parse_reply("move: discard kd", legal).text == "discard KD"
    assert parse_reply("knock QC melds AS 2S 3S / 4H 4D 4C / 7C 8C 9C", legal).melds is not None
    # "meld" words choose a move only in the layout phases (R5.6); here they describe the hand
    assert parse_reply("I'd knock QC since I meld AS 2S 3S and 4H 4D 4C", legal).text == "knock QC"
    with pytest.raises(IllegalActionError, match="'meld AS 2S 3S': meld AS 2S 3S is not legal now"):
        parse_reply("meld AS 2S 3S", legal)
    with pytest.raises(IllegalActionError, match=r"^no legal move in the answer '1. knock QC': move 1 is discard 4C, "
                                                 r"not knock QC; legal moves: 1. discard 4C; 2. discard 7C; "):
        parse_reply("1. knock QC", legal)
    with pytest.raises(IllegalActionError, match="it names several moves: discard KD, knock QC; legal moves: 1. "):
        parse_reply("discard KD or knock QC?", legal)
    with pytest.raises(IllegalActionError, match="'gin QC': gin QC is not legal now; legal moves: 1. "):
        parse_reply("gin QC", legal)
    with pytest.raises(IllegalActionError, match="there is no move 99"):
        parse_reply("99", legal)
    with pytest.raises(IllegalActionError, match="it gives several numbers"):
        parse_reply("2 or 3", legal)
    with pytest.raises(IllegalActionError, match="longer than 8000 characters"):
        parse_reply("x" * 8001, legal)
    with pytest.raises(IllegalActionError, match="not your turn"):
        parse_reply("1", view_of(s, 1).legal)
    with pytest.raises(IllegalActionError, match="an answer is text"):
        parse_reply(3, legal)  # type: ignore[arg-type]


WEB_KEYS = ["seat", "phase", "to_act", "dealer", "hand", "discard_pile", "stock_size", "opponent_count",
            "opponent_seen", "upcard", "knock_limit", "multiplier", "taken", "legal_actions", "history", "result"]


def test_json_view_for_agents_carries_codes_scores_and_rules():
    """``to_json(agent=True)`` adds the legal codes, the match score and the rules, and
    ``json.dumps`` takes it as it is; the web's ``to_json()`` keeps its keys exactly."""
    m = Match.new(preset("hollywood"), ["ann", "bob"], b"json")
    p = m.player_to_act()
    v = m.view(p)
    assert list(v.to_json()) == WEB_KEYS
    js = v.to_json(agent=True)
    assert list(js) == [*WEB_KEYS, "legal_codes", "scores", "rules"]
    assert js["legal_codes"] == [2, 3] and js["legal_actions"] == ["take upcard", "pass"]
    assert js["scores"] == {"names": ["ann", "bob"], "totals": [0, 0], "deal_number": 1, "seat_players": [0, 1]}
    assert js["rules"]["scoring"] == "hollywood"
    assert json.loads(json.dumps(js)) == js


def test_text_agent_example_plays_a_deal_through_a_callable():
    """examples/text_agent.py: a callable str -> str plays; a bad answer comes back with the
    error naming the legal moves, then the next answer is read."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
    from text_agent import play_match

    prompts: list[str] = []

    def agent(prompt: str) -> str:
        prompts.append(prompt)
        return "no idea" if len(prompts) == 1 else "1"

    said: list[str] = []
    m = play_match(agent, opponent="novice", scope="deal", seed=4, out=said.append)
    assert m.finished and said[-1].startswith("final totals: agent ")
    assert prompts[0].startswith("You play Gin Rummy.")
    assert prompts[1].startswith("no legal move in the answer 'no idea': it names no move; legal moves: 1. ")
