"""Tests of ``gin play`` (ginrummy.cli.play) and its renderers (ginrummy.cli.render).

Whole matches are driven through ``ginrummy.cli.main.main`` with ``auto`` lines on stdin and
checked against the same match replayed through the Match API with the same seeded players
(R6, R9.3, R10, R11, R12).  Rejected commands must explain themselves and change nothing.
"""

from __future__ import annotations

import io
import re

import pytest

from ginrummy.actions import Action
from ginrummy.cards import card_str, cards_of, mask_of, parse_card, parse_cards
from ginrummy.cli import render as R
from ginrummy.cli.main import main
from ginrummy.cli.play import computer_players, hint_player, match_seed, player_names
from ginrummy.deal import DealResult
from ginrummy.match import Match
from ginrummy.melds import deadwood
from ginrummy.rules import make_rules
from ginrummy.scoring import ScoreSheet
from ginrummy.showdown import showdown


@pytest.fixture(autouse=True)
def _plain_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)


def run_cli(monkeypatch, capsys, args, lines):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = main(["play", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def replay(rules, seed, level="novice", name="You"):
    """The match ``gin play --seed SEED`` plays when the person answers ``auto`` every time."""
    n = rules.players
    m = Match.new(rules, player_names(name, level, n), match_seed(seed))
    bots = computer_players(level, seed, n)
    hinter = hint_player(level, seed)
    while True:
        if m.deal.is_over:
            if m.finished:
                return m
            m.next_deal()
            continue
        p = m.player_to_act()
        v = m.view(p)
        action = hinter.hint(v, v.legal)[0] if p == 0 else bots[p].choose(v, v.legal)
        m.apply(p, action)


def final_line(m: Match) -> str:
    w = m.winner
    who = "You win" if w == 0 else f"{m.names[w]} wins"
    n = len(m.sheet.games)
    detail = f" ({sum(g.winner == w for g in m.sheet.games)} games of {n})" if n > 1 else ""
    totals = ", ".join(f"{name} {t}" for name, t in zip(m.names, m.sheet.totals))
    return f"{who} the match{detail}. Totals: {totals}."


# -- whole matches ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "preset", "sets", "seed", "expect"),
    [
        # R6.1 gin and R6.3 undercut both occur; the person (auto) wins 280 to 142
        (["--seed", "18"], "standard", [], 18, (7, 0, (280, 142))),
        # R12: three games, Computer (novice) wins; totals include the game and box bonuses
        (["--preset", "hollywood", "--seed", "14"], "hollywood", [], 14, (10, 1, (328, 1002))),
        # R9: Oklahoma, two of the three deals doubled by a spade upcard (R9.3)
        (["--preset", "oklahoma", "--seed", "8"], "oklahoma", [], 8, (3, 0, (250, 26))),
        # R10: three-hand, with a drawn deal; Computer (novice) 2 wins the game
        (["--players", "3", "--seed", "20"], "standard", ["players=3"], 20, (6, 2, (4, 1, 103))),
    ],
)
def test_whole_match_with_auto_matches_replay(monkeypatch, capsys, args, preset, sets, seed, expect):
    status, out, err = run_cli(monkeypatch, capsys, args, ["auto"] * 3000)
    assert status == 0 and err == ""
    m = replay(make_rules(preset, sets), seed)
    assert (len(m.deals), m.winner, m.sheet.totals) == expect  # the seeds keep these values
    assert out.rstrip().splitlines()[-1] == final_line(m)
    assert out.count(" is over ──") == len(m.deals)
    assert "The match is over" in out
    # every scored deal's score lines are printed as the engine scored it (R6)
    for rec in m.deals:
        r = rec.result
        if r.showdown is None:
            assert R.draw_reason(r.reason) in " ".join(out.split())
            continue
        names = [m.names[p] for p in rec.seat_players]
        for line in R.score_lines(r, names[r.knocker], names[1 - r.knocker]):
            assert line in out


def test_oklahoma_spade_doubling_shown(monkeypatch, capsys):
    status, out, _ = run_cli(monkeypatch, capsys, ["--preset", "oklahoma", "--seed", "8"], ["auto"] * 3000)
    m = replay(make_rules("oklahoma"), 8)
    doubled = [d for d in m.deals if d.result.showdown and d.result.showdown.multiplier == 2]
    assert len(doubled) == 2
    assert out.count("spade upcard (R9.3) = ") == 2
    assert "doubles every score (R9.3)" in out
    assert "(Oklahoma upcard " in out


def test_three_hand_shows_roles_and_adviser(monkeypatch, capsys):
    status, out, _ = run_cli(monkeypatch, capsys, ["--players", "3", "--seed", "20"], ["auto"] * 3000)
    assert status == 0
    m = Match.new(make_rules("standard", ["players=3"]), player_names("You", "novice", 3), match_seed(20))
    box, captain, out_player = (m.names[i] for i in m.roles)
    assert f"In the box: {box} (deals) · captain: {captain} · sits out: {out_player} (R10)" in out
    # in some deal of this match the person sits out and sees the captain's hand (R10.2)
    assert re.search(r"You sit out this deal and see Computer \(novice\)( 2)?'s hand as adviser \(R10\.2\)", out)
    assert re.search(r"Computer \(novice\)( 2)?'s hand: 1[01] cards", out)


# -- commands -----------------------------------------------------------------------------------

SEED = 1  # the person (non-dealer) acts first; the upcard is K♠


def start(seed=SEED):
    return Match.new(make_rules("standard"), ["You", "Novice"], match_seed(seed))


def test_seed_one_person_acts_first():
    m = start()
    assert m.player_to_act() == 0 and m.deal.phase == "upcard_offer"


def test_rejected_commands_explain_and_change_nothing(monkeypatch, capsys):
    m = start()
    m.apply(0, Action("pass"))
    m.apply(1, Action("pass"))
    m.apply(0, Action("draw_stock"))
    hand = m.view(0).hand
    absent = next(c for c in range(52) if not (hand >> c) & 1)
    absent_text = card_str(absent)
    lines = ["x 7H", "zz", "1H", "p", "s", "s", absent_text, "knock", "quit"]
    status, out, err = run_cli(monkeypatch, capsys, ["--seed", str(SEED)], lines)
    assert status == 0 and err == ""
    # out of phase: discarding at the upcard offer (R4.2)
    assert "✗ discard 7H is not legal now (the upcard offer: take upcard or pass (R4.2))" in out
    assert "✗ not an action: 'zz'" in out
    assert "✗ not a card: '1H'" in out  # echoed as typed
    # drawing twice (R4.1)
    assert "✗ draw stock is not legal now (after the draw, discard, knock or go gin (R4.1, R5.1))" in out
    assert f"✗ discard {absent_text} is not legal now ({absent_text} is not in the hand)" in out
    assert "Legal now: discard a card" in out
    after = deadwood_after_best(hand)
    assert f"✗ you cannot knock: your best discard leaves {after} deadwood, above the knock limit 10 (R5.1)" in out


def deadwood_after_best(hand: int) -> int:
    return min(deadwood(hand & ~(1 << c)) for c in cards_of(hand))


def test_rejections_leave_the_match_unchanged(monkeypatch):
    """Drive the Table directly and check the deal after rejected commands (R4.1, R4.2)."""
    from rich.console import Console

    from ginrummy.cli.play import PlayTable

    m = start()
    absent = next(c for c in range(52) if not (m.view(0).hand >> c) & 1)
    lines = ["x 7H", "s", "zz", "1H", "k 7H", "p", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(x + "\n" for x in lines)))
    table = PlayTable(make_rules("standard"), SEED, "novice", "You", console=Console(file=io.StringIO(), width=120))
    before = table.match.deal
    assert table.run() == 0
    after = table.match.deal
    # only the pass (and the computer's answer) changed the deal: five rejected commands did nothing
    assert [e.kind for e in after.log] == ["pass", "pass"]
    assert after.hands == before.hands and after.pile == before.pile and after.stock_size == before.stock_size
    assert absent not in cards_of(after.hands[0])


def test_hint_prints_a_legal_action(monkeypatch, capsys):
    status, out, _ = run_cli(monkeypatch, capsys, ["--seed", str(SEED)], ["hint", "quit"])
    assert status == 0
    hint = re.search(r"^Hint: (.+?) \((.+)\)$", out, re.M)
    assert hint is not None
    legal = [a.text for a in start().view(0).legal]
    assert hint.group(1) in legal


def test_header_names_the_target_only_when_there_is_one(monkeypatch, capsys):
    status, out, _ = run_cli(monkeypatch, capsys, ["--seed", str(SEED)], ["quit"])
    assert status == 0 and "Rules: standard (standard gin, game scoring, target 100)." in out
    # R11.1: with deal scoring one deal is the whole game; there is no target to name
    status, out, _ = run_cli(monkeypatch, capsys, ["--preset", "single", "--seed", str(SEED)], ["quit"])
    assert status == 0 and "Rules: single (standard gin, deal scoring)." in out


def test_auto_plays_the_hinted_move(monkeypatch, capsys):
    m = start()
    expected = hint_player("novice", SEED).hint(m.view(0), m.view(0).legal)[0].text
    status, out, _ = run_cli(monkeypatch, capsys, ["--seed", str(SEED)], ["hint", "auto", "quit"])
    assert f"Hint: {expected} (" in out and f"Auto: {expected} (" in out


def test_bare_card_discards_and_knock_alone(monkeypatch, capsys):
    """``7H`` alone discards in the discard phase; ``take`` at the offer takes the upcard."""
    m = start()
    upcard = m.deal.upcard
    m.apply(0, Action("take_upcard"))
    hand = m.view(0).hand
    card = next(c for c in cards_of(hand) if c != upcard)
    text = card_str(card)
    status, out, _ = run_cli(monkeypatch, capsys, ["--seed", str(SEED)], ["take", text.lower(), "quit"])
    assert status == 0
    assert "You took the upcard K♠." in out
    assert f"You discarded {R.card_label(card)}." in out


def test_pile_and_sheet_commands(monkeypatch, capsys):
    status, out, _ = run_cli(monkeypatch, capsys, ["--seed", str(SEED)], ["pile", "sheet", "help", "quit"])
    assert "Discard pile, bottom to top: ▶ K♠ (top)" in out
    assert "Score sheet" in out and "knock, discarding 7H (R5)" in out
    assert "You quit the match." in out


def test_eof_stops_cleanly(monkeypatch, capsys):
    status, out, err = run_cli(monkeypatch, capsys, ["--seed", "5"], [])
    assert status == 0 and err == ""
    assert "End of input: the match is stopped." in out


def test_random_seed_is_printed(monkeypatch, capsys):
    status, out, _ = run_cli(monkeypatch, capsys, [], [])
    seed = re.search(r"Seed (\d+) \(replay with --seed \1\)", out)
    assert status == 0 and seed is not None


def test_piped_output_keeps_every_line_whole(monkeypatch, capsys):
    """Output that is not a terminal (a pipe, a file; capsys here) is not wrapped at Rich's
    assumed 80 columns: the long header line and the long status lines stay whole."""
    monkeypatch.delenv("COLUMNS", raising=False)
    status, out, err = run_cli(monkeypatch, capsys, ["--seed", "18"], ["auto"] * 12)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[1] == ("Rules: standard (standard gin, game scoring, target 100). Seed 18 "
                        "(replay with --seed 18). Type help for the commands.")
    assert len(lines[1]) > 80 and not any(line.startswith("--seed") for line in lines)
    stock = [line for line in lines if line.startswith("Stock ")]
    assert stock and all(re.fullmatch(r"Stock \d+ · discard pile \d+, top: \S+ · Computer \(novice\) holds \d+ cards"
                                      r"(, known: [^·]+)?", line.rstrip()) for line in stock), stock


def test_a_terminal_still_wraps_at_its_width(monkeypatch):
    from ginrummy.cli.play import play_console

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("COLUMNS", "40")
    term, piped = Terminal(), io.StringIO()
    for file in (term, piped):
        play_console(file).print("Rules: standard (standard gin, game scoring, target 100).")
    assert [line.rstrip() for line in term.getvalue().splitlines()] == ["Rules: standard (standard gin, game",
                                                                        "scoring, target 100)."]
    assert piped.getvalue() == "Rules: standard (standard gin, game scoring, target 100).\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "nope"], "unknown preset 'nope'"),
        (["--set", "knock_limit=11"], "knock_limit=11 is out of range"),
        (["--set", "oops"], "is not KEY=VALUE"),
        (["--opponent", "grandmaster"], "unknown player 'grandmaster'"),
        (["--players", "4"], "--players 4 is not allowed"),
        (["--preset", "hollywood", "--players", "3"], "hollywood' is for two players (R10.6)"),
        (["--name", "  "], "--name must not be empty"),
    ],
)
def test_bad_options_exit_2(monkeypatch, capsys, args, message):
    status, out, err = run_cli(monkeypatch, capsys, args, [])
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("gin: error: ") and message in err
    assert out == ""


# -- renderers ----------------------------------------------------------------------------------


def m_(text: str) -> int:
    return mask_of(parse_cards(text))


def result_of(knocker: str, defender: str, *, rules=None, multiplier=1, knock_limit=10) -> DealResult:
    rules = rules or make_rules("standard")
    sd = showdown(rules, m_(knocker), m_(defender), knock_limit=knock_limit, multiplier=multiplier)
    winner = 0 if sd.winner == "knocker" else 1
    return DealResult(sd.outcome, winner, sd.points, 0, sd)


def test_score_lines_knock_with_layoff():
    # knocker: AS 2S 3S, 4H 4D 4C, 7C 8C 9C + KD (10); defender lays off 4S and TC (R5.4)
    r = result_of("AS 2S 3S 4H 4D 4C 7C 8C 9C KD", "4S TC QH QD JS 5H 6D 2D 3H 9H")
    assert r.showdown.defender.deadwood_value == 10 + 10 + 10 + 5 + 6 + 2 + 3 + 9
    assert R.score_lines(r, "Ann", "Bob") == [
        "Defender deadwood 55 - knocker deadwood 10 = 45 (R6.2)",
        "Ann scores 45",
    ]


def test_score_lines_undercut_gin_and_doubling():
    under = result_of("AS 2S 3S 4H 4D 4C 7C 8C 9C KD", "AH 2H 3H 5D 6D 7D JC QC KC 5S")
    assert R.score_lines(under, "Ann", "You") == [
        "Knocker deadwood 10 >= defender deadwood 5: undercut (R6.3)",
        "undercut bonus 25 + (10 - 5) = 30",
        "You score 30",
    ]
    gin = result_of("AS 2S 3S 4H 4D 4C 7C 8C 9C TC", "AH 2H 3H 5D 6D 7D JC QC KC 4S", multiplier=2)
    assert R.score_lines(gin, "Ann", "Bob") == [
        "gin bonus 25 + defender deadwood 4 = 29 (R6.1)",
        "x2 spade upcard (R9.3) = 58",
        "Ann scores 58",
    ]


def test_deal_end_shows_both_layouts_and_layoffs():
    from rich.console import Console

    r = result_of("AS 2S 3S 4H 4D 4C 7C 8C 9C KD", "4S TC QH QD JS 5H 6D 2D 3H 9H")
    console = Console(file=io.StringIO(), width=120, no_color=True)
    console.print(R.deal_end(r, ["Ann", "Bob"], knock_card=parse_card("KS")))
    text = console.file.getvalue()
    assert "Ann knocked, discarding K♠" in text
    assert "Ann (knocker): [4♣ 4♦ 4♥] [7♣ 8♣ 9♣] [A♠ 2♠ 3♠]  deadwood: K♦ = 10" in text
    assert "Bob (defender): deadwood: 2♦ 6♦ Q♦ 3♥ 5♥ 9♥ Q♥ J♠ = 55" in text
    # the 4♠ could go on the set or the run: the engine lays it on the run (R5.4)
    assert "Bob lays off: 10♣ on [7♣ 8♣ 9♣], 4♠ on [A♠ 2♠ 3♠]" in text


def test_hand_view_groups_melds_and_shows_text_forms():
    text = R.hand_view(m_("AS 2S 3S 4H 4D 4C KD 7H 9C QS")).plain.splitlines()
    # melds by their lowest card (clubs first), then the deadwood by suit and rank
    assert text[0].split() == ["4♣", "4♦", "4♥", "│", "A♠", "2♠", "3♠", "│", "9♣", "K♦", "7♥", "Q♠"]
    assert text[1].split() == ["4C", "4D", "4H", "│", "AS", "2S", "3S", "│", "9C", "KD", "7H", "QS"]
    assert text[2].split() == ["meld", "meld", "deadwood"]


def test_sheet_table_hollywood_bonuses():
    from rich.console import Console

    sheet = ScoreSheet(make_rules("hollywood", ["target=20"]), 2)
    for w, p in [(0, 25), (0, 25), (1, 5), (0, 25)]:
        sheet = sheet.add(w, p)
    console = Console(file=io.StringIO(), width=120, no_color=True)
    console.print(R.sheet_table(sheet, ["Ann", "Bob"]))
    rows = [line.split() for line in console.file.getvalue().splitlines()]
    assert rows[0] == ["Game", "1", "✓", "Game", "2", "✓", "Game", "3", "✓", "Total"]
    # game 1: Ann 25 (won), Bob 0 -> shutout 200 + 1 box 25; game 2: 25 + 200 + 25; game 3 likewise
    assert rows[1] == ["Ann", "25", "won", "25", "won", "25", "won", "750"]
    assert sheet.totals == (750, 0)
    assert R.games_written(ScoreSheet(sheet.rules, 2), ScoreSheet(sheet.rules, 2).add(0, 5)) == [1]


def test_between_deals_a_move_is_not_taken_for_enter(monkeypatch, capsys):
    """After a deal, a stray move is refused (it would belong to no deal); Enter goes on."""
    m = replay(make_rules("standard"), 18)
    own_moves = sum(1 for seat, _ in m.deals[0].actions if m.deals[0].seat_players[seat] == 0)
    lines = ["auto"] * own_moves + ["s", "sheet", "", "quit"]
    status, out, _ = run_cli(monkeypatch, capsys, ["--seed", "18"], lines)
    assert status == 0
    assert "✗ 's': the deal is over; press Enter for the next deal, or type review, sheet or quit" in out
    assert "── Deal 2 ──" in out and "── Deal 2 is over ──" not in out
    assert "You quit the match." in out


def test_review_typed_during_a_deal_says_when_it_comes(monkeypatch, capsys):
    status, out, err = run_cli(monkeypatch, capsys, ["--seed", str(SEED)], ["review", "quit"])
    assert status == 0 and err == ""
    assert "✗ the review is offered when the deal is over; now type your move" in out


@pytest.mark.parametrize("lang", ["en", "el", "fi", "mt", "fr", "es", "de"])
def test_the_computer_is_named_as_the_web_names_it(lang):
    """The terminal table names a computer player as the web table names a computer seat
    ("Computer (novice)", the msgid "Computer ({level})" with the level in the sentence's case,
    translated the same way), never the level twice ("Novice (novice)")."""
    from ginrummy.i18n import level_in_text, translator
    from ginrummy.web.texts import web_translator

    tr, web = translator(lang), web_translator(lang)
    for level in ("random", "novice", "club", "expert", "master", "openspiel-simple"):
        shown = web.t("Computer ({level})", level=level_in_text(level, web))
        assert player_names("Ann", level, 2, tr) == ["Ann", shown]
        assert player_names("Ann", level, 3, tr) == ["Ann", shown, f"{shown} 2"]  # as the web's second seat
    assert player_names("You", "novice", 2) == ["You", "Computer (novice)"]
    assert player_names("You", "novice", 2, translator("el")) == ["You", "Υπολογιστής (αρχάριος)"]
    assert player_names("computer (NOVICE)", "novice", 2) == ["computer (NOVICE)", "Computer (novice) (computer)"]


def test_the_first_line_names_the_computer_once(monkeypatch, capsys):
    status, out, _ = run_cli(monkeypatch, capsys, ["--seed", "3"], ["quit"])
    assert out.splitlines()[0] == "Gin Rummy: You against Computer (novice)"
    status, out, _ = run_cli(monkeypatch, capsys, ["--seed", "3", "--lang", "el", "--opponent", "club"], ["quit"])
    assert out.splitlines()[0] == "Τζιν ράμι: Εσύ εναντίον Υπολογιστής (έμπειρος)"
