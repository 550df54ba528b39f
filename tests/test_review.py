"""Tests of the review (``ginrummy.analysis.review``, ``ginrummy.analysis.hindsight``, ``gin review``; issue 15).

The review values each decision from the deciding player's PlayerView only (DESIGN principle
3): the same review under swapped hidden cards.  Planted blunders (passing on a gin card, R6.1;
not going gin at 0 deadwood, R2.5; discarding into a meld the opponent is known to hold, R4.1,
R2.1) are marked.  The JSON contract and determinism with a seed are checked exactly.
"""

from __future__ import annotations

import json
import random

import pytest

from ginrummy.actions import Action
from ginrummy.analysis.hindsight import first_wins
from ginrummy.analysis.review import THRESHOLDS, build_review, outcome_value, review_match, samples_for
from ginrummy.cli.main import main
from ginrummy.deal import deck_from_seed, new_deal
from ginrummy.errors import RecordError
from ginrummy.match import Match
from ginrummy.melds import best_discard_deadwood, melds_with
from ginrummy.players import make_player
from ginrummy.players.expert import ExpertPlayer
from ginrummy.record import dumps, dumps_deal, loads
from ginrummy.rules import preset
from ginrummy.scoring import ScoreSheet
from ginrummy.views import view_of

BUDGET = 40.0  # 20 sampled deals a decision: enough for the exact checks below, and quick


def novice_deal(rules, deck, plant=None, stop=None):
    """The actions of a deal from ``deck`` (dealer seat 1) between two seeded novices; ``plant``
    is ``(predicate(state, view), make(state, view) -> Action)``: the first state where the
    predicate holds gets the planted action.  Returns ``(actions, planted index or None)``."""
    st = new_deal(rules, 1, deck)
    players = [make_player("novice", 1), make_player("novice", 2)]
    actions, planted = [], None
    while not st.is_over and (stop is None or len(actions) < stop):
        seat = st.to_act
        v = view_of(st, seat)
        a = players[seat].choose(v, v.legal)
        if plant is not None and planted is None and plant[0](st, v):
            a, planted = plant[1](st, v), len(actions) + 1
        actions.append((seat, a))
        st, _ = st.apply(seat, a)
    return actions, planted


def planted_review(seed, plant, scoring="standard"):
    rules = preset(scoring)
    deck = deck_from_seed(f"plant{seed}".encode())
    actions, planted = novice_deal(rules, deck, plant)
    assert planted is not None
    text = dumps_deal(rules, 1, deck, actions, names=("Ann", "Bob"))
    name = ("Ann", "Bob")[actions[planted - 1][0]]
    review = build_review(text, player=name)
    return next(d for d in review.deals[0].decisions if d.index == planted), review


GIN_CARD = (lambda st, v: st.phase == "draw" and Action("take_discard") in v.legal
            and best_discard_deadwood(st.hands[st.to_act] | 1 << st.pile[-1]) == 0,
            lambda st, v: Action("draw_stock"))
NO_GIN = (lambda st, v: any(a.kind == "gin" for a in v.legal),
          lambda st, v: Action("discard", next(a for a in v.legal if a.kind == "gin").card))
FEED = (lambda st, v: st.phase == "discard" and any(a.kind == "discard" and a.card != st.taken
                                                    and melds_with(a.card, st.seen[1 - st.to_act]) for a in v.legal),
        lambda st, v: next(a for a in v.legal if a.kind == "discard" and a.card != st.taken
                           and melds_with(a.card, st.seen[1 - st.to_act])))


# -- planted blunders -----------------------------------------------------------------------------

def test_passing_on_a_gin_card_is_a_blunder():
    """R6.1: the top discard gives gin; drawing from the stock instead is marked a blunder."""
    d, _ = planted_review(119, GIN_CARD)
    assert (d.index, d.phase, d.played, d.best, d.mark) == (38, "draw", "draw stock", "take discard", "blunder")
    assert d.loss > d.noise and d.loss >= THRESHOLDS["win_chance"][2]


def test_not_going_gin_at_zero_deadwood_is_marked():
    """R2.5/R6.1: nothing forces play on at 0 deadwood; a plain discard instead of gin is marked."""
    d, _ = planted_review(106, NO_GIN)
    assert (d.index, d.phase, d.played, d.best) == (14, "discard", "discard JS", "gin JS")
    assert d.mark == "mistake" and d.loss > d.noise


def test_discarding_into_a_known_meld_of_the_opponent_is_marked():
    """R4.1/R2.1: the opponent took two cards from the pile that meld with the discard."""
    d, _ = planted_review(43, FEED)
    assert (d.index, d.phase, d.played) == (16, "discard", "discard JC")
    assert d.mark == "blunder" and d.loss > d.noise


def test_win_chance_of_the_deal_under_single_deal_scoring():
    """R11.1 ``single``: one deal is the game, so the value is the chance to win that deal, and
    passing on gin is still a blunder."""
    d, review = planted_review(119, GIN_CARD, scoring="single")
    assert review.value == "win_chance" and review.to_dict()["value"] == "win_chance"
    assert d.mark == "blunder" and d.loss >= THRESHOLDS["win_chance"][2]
    assert 0.0 <= d.value_played < d.value_best <= 100.0


# -- fairness: no hidden card -----------------------------------------------------------------------

def test_the_review_sees_no_hidden_card():
    """The same record with two cards swapped that Ann never saw (one in Bob's hand, never
    shown; one deep in the stock, never drawn) gives Ann the same review; Bob's changes."""
    rules = preset("standard")
    deck = deck_from_seed(b"swap")
    actions, _ = novice_deal(rules, deck)
    actions = actions[: min(18, next(i for i, (_, a) in enumerate(actions) if a.kind in ("knock", "gin")))]
    state = new_deal(rules, 1, deck)
    for seat, a in actions:
        state, _ = state.apply(seat, a)
    shown = set(state.pile) | {a.card for _, a in actions if a.card is not None}
    bob_hidden = [c for c in deck[10:20] if c not in shown and not (state.seen[1] >> c) & 1]
    undrawn = deck[21 + state.drawn + 3:]
    x, y = bob_hidden[0], undrawn[-1]
    swapped = [y if c == x else x if c == y else c for c in deck]
    a_text = dumps_deal(rules, 1, deck, actions, names=("Ann", "Bob"))
    b_text = dumps_deal(rules, 1, swapped, actions, names=("Ann", "Bob"))
    assert a_text != b_text
    ann = [review_match(t, player="Ann", budget_ms=BUDGET, seed=3)["deals"][0] for t in (a_text, b_text)]
    assert len(ann[0]["decisions"]) == 8 and ann[0] == ann[1]
    # the deal is not over: no hindsight, which would read the still secret cards
    assert ann[0]["hindsight"]["over"] is False and ann[0]["hindsight"]["first_win"] == {"Ann": None}
    bob = [review_match(t, player="Bob", budget_ms=BUDGET, seed=3)["deals"][0]["decisions"] for t in (a_text, b_text)]
    assert bob[0] != bob[1]


# -- the JSON contract, determinism ----------------------------------------------------------------

@pytest.fixture(scope="module")
def two_deals():
    m = Match.new(preset("standard"), ["Ann", "Bob"], b"review-two")
    players = [make_player("novice", 1), make_player("club", 2)]
    for _ in range(2):
        if m.deal.is_over:
            m.next_deal()
        while not m.deal.is_over:
            p = m.player_to_act()
            v = m.view(p)
            m.apply(p, players[p].choose(v, v.legal))
    return m


def test_json_contract(two_deals):
    data = review_match(dumps(two_deals), budget_ms=BUDGET, seed=5)
    assert set(data) == {"players", "value", "deals", "summary", "performance", "method"}
    assert data["players"] == ["Ann", "Bob"] and data["value"] == "win_chance"
    assert data["method"] == {"samples": 20, "budget_ms": 40.0, "seed": 5, "noise_z": 2.0,
                              "thresholds": {"inaccuracy": 1.0, "mistake": 3.0, "blunder": 6.0}}
    assert [d["number"] for d in data["deals"]] == [1, 2]
    counted = {"Ann": [0, 0, 0, 0, 0.0], "Bob": [0, 0, 0, 0, 0.0]}
    for d in data["deals"]:
        assert set(d) == {"number", "decisions", "hindsight"}
        assert d["hindsight"]["label"] == "hindsight" and d["hindsight"]["text"].startswith("Hindsight (all hands shown)")
        indexes = [x["index"] for x in d["decisions"]]
        assert indexes == sorted(indexes) and len(set(indexes)) == len(indexes)
        for x in d["decisions"]:
            assert set(x) == {"index", "player", "phase", "played", "best", "value_played", "value_best", "loss",
                              "mark", "reason"}
            assert x["phase"] in ("upcard_offer", "draw", "wall", "discard")
            assert 0.0 <= x["value_played"] <= x["value_best"] <= 100.0
            assert x["loss"] == pytest.approx(x["value_best"] - x["value_played"], abs=0.011)
            assert x["mark"] in (None, "inaccuracy", "mistake", "blunder")
            assert (x["played"] == x["best"]) == (x["loss"] == 0.0)
            if x["mark"] is not None:
                assert x["loss"] >= {"inaccuracy": 1.0, "mistake": 3.0, "blunder": 6.0}[x["mark"]]
            c = counted[x["player"]]
            c[0] += 1
            c[4] += x["loss"]
            if x["mark"]:
                c[("inaccuracy", "mistake", "blunder").index(x["mark"]) + 1] += 1
    for name, s in data["summary"].items():
        assert set(s) == {"decisions", "inaccuracies", "mistakes", "blunders", "mean_loss", "accuracy"}
        c = counted[name]
        assert [s["decisions"], s["inaccuracies"], s["mistakes"], s["blunders"]] == c[:4]
        assert s["mean_loss"] == pytest.approx(c[4] / c[0], abs=0.01)
        assert 0.0 <= s["accuracy"] <= 100.0
    assert json.loads(json.dumps(data)) == data


def test_same_seed_same_review_and_filters_agree(two_deals):
    text = dumps(two_deals)
    a = review_match(text, budget_ms=BUDGET, seed=11)
    assert review_match(text, budget_ms=BUDGET, seed=11) == a
    assert review_match(two_deals, budget_ms=BUDGET, seed=11) == a  # a Match is reviewed as its record
    other = review_match(text, budget_ms=BUDGET, seed=12)
    assert [x["value_played"] for d in other["deals"] for x in d["decisions"]] != \
        [x["value_played"] for d in a["deals"] for x in d["decisions"]]
    # one player, one deal: each decision draws from its own seed, so the values are the same
    bob2 = review_match(text, player="bob", deal=2, budget_ms=BUDGET, seed=11)
    assert bob2["players"] == ["Bob"] and [d["number"] for d in bob2["deals"]] == [2]
    assert bob2["deals"][0]["decisions"] == [x for x in a["deals"][1]["decisions"] if x["player"] == "Bob"]


def test_progress_is_reported(two_deals):
    calls = []
    data = review_match(two_deals, player="Ann", deal=1, budget_ms=BUDGET, progress=lambda d, t: calls.append((d, t)))
    n = len(data["deals"][0]["decisions"])
    assert calls == [(i, n) for i in range(n + 1)]


def test_reviews_in_worker_threads_agree_with_one_thread(two_deals):
    """The web table runs the review off its event loop: two reviews at once in worker threads
    give exactly what they give one after the other (no shared state)."""
    from concurrent.futures import ThreadPoolExecutor
    text = dumps(two_deals)
    jobs = [dict(player="Ann", deal=1), dict(player="Bob", deal=1)]
    alone = [review_match(text, budget_ms=BUDGET, seed=2, **j) for j in jobs]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda j: review_match(text, budget_ms=BUDGET, seed=2, **j), jobs))
    assert together == alone and alone[0] != alone[1]


def test_bad_arguments_raise_clear_errors(two_deals):
    text = dumps(two_deals)
    with pytest.raises(RecordError, match="no player 'Cy' in this record; players: Ann, Bob"):
        build_review(text, player="Cy")
    with pytest.raises(RecordError, match=r"no deal 3 in this record; deals: 1\.\.2"):
        build_review(text, deal=3)
    for bad in (0, -1, float("nan"), 60001, True, "100"):
        with pytest.raises(ValueError, match="budget_ms must be a number > 0 and at most 60000"):
            build_review(text, budget_ms=bad)
    with pytest.raises(RecordError, match="line 1"):
        build_review("not a record")
    assert samples_for(100) == 50 and samples_for(1) == 16


def test_values_of_outcomes():
    """R11.1 game to 100 from 0-0: a win moves the chance up, 100 points ends the game; R12
    Hollywood: the three games' chances; single deal: the deal won, lost or drawn (R7), whatever
    its points."""
    sheet = ScoreSheet(preset("standard"), 2)
    assert outcome_value(sheet, 0, 1, None, 0) == pytest.approx(50.0)
    assert outcome_value(sheet, 0, 1, 0, 100) == 100.0 and outcome_value(sheet, 0, 1, 1, 100) == 0.0
    assert 50.0 < outcome_value(sheet, 0, 1, 0, 20) < 100.0
    assert outcome_value(sheet, 0, 1, 0, 20) == pytest.approx(100.0 - outcome_value(sheet, 1, 0, 0, 20))
    hw = ScoreSheet(preset("hollywood"), 2)
    assert outcome_value(hw, 0, 1, None, 0) == pytest.approx(50.0)
    assert outcome_value(hw, 0, 1, 0, 30) > 50.0
    single = ScoreSheet(preset("single"), 2)
    assert (outcome_value(single, 0, 1, 0, 17), outcome_value(single, 0, 1, 1, 17)) == (100.0, 0.0)
    assert outcome_value(single, 0, 1, 0, 70) == outcome_value(single, 0, 1, 0, 1) == 100.0
    assert outcome_value(single, 1, 0, None, 0) == 50.0


# -- hindsight -----------------------------------------------------------------------------------

def test_hindsight_finds_the_first_winning_knock():
    """The planted deal where Ann discarded instead of going gin at move 14 (R6.1): in
    hindsight she could have won by then at the latest."""
    d, review = planted_review(106, NO_GIN)
    h = review.deals[0].hindsight
    fw = h.first[d.player]
    assert fw is not None and fw.move <= 14 and fw.points > 0
    assert h.to_dict()["first_win"][d.player] == {"move": fw.move, "moves": list(fw.moves), "points": fw.points}
    # recomputed on the real states: at move fw.move the line wins, before it nothing does
    rules = preset("standard")
    deck = deck_from_seed(b"plant106")
    actions, _ = novice_deal(rules, deck, NO_GIN)
    st, states = new_deal(rules, 1, deck), []
    for i, (seat, a) in enumerate(actions, 1):
        states.append((i, st))
        st, _ = st.apply(seat, a)
    seat = actions[13][0]
    assert first_wins(states, [seat])[seat] == fw
    assert first_wins(states[: fw.move - 1], [seat])[seat] is None


# -- the command ----------------------------------------------------------------------------------

def test_gin_review_command(tmp_path, capsys, two_deals):
    path = tmp_path / "m.gin"
    path.write_text(dumps(two_deals), encoding="utf-8")
    assert main(["review", str(path), "--json", "--budget-ms", "40", "--seed", "5", "--deal", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == review_match(dumps(two_deals), deal=1, budget_ms=40, seed=5)
    assert main(["review", str(path), "--budget-ms", "40", "--player", "Ann", "--deal", "2"]) == 0
    text = capsys.readouterr().out
    assert "Deal 2: the expert's review" in text and "Hindsight (all hands shown, not part of the review)" in text
    assert "Summary" in text and "Bob" not in text.split("Summary")[1].split("Values:")[0]
    assert main(["review", str(tmp_path / "none.gin")]) == 2
    assert capsys.readouterr().err.strip() == f"gin: error: cannot read {tmp_path / 'none.gin'}: no such file"
    assert main(["review", str(path), "--player", "Cy"]) == 2
    assert "no player 'Cy' in this record; players: Ann, Bob" in capsys.readouterr().err
    assert main(["review", str(path), "--budget-ms", "-1"]) == 2
    assert capsys.readouterr().err.strip() == "gin: error: --budget-ms -1 must be a number > 0 and at most 60000"


@pytest.mark.slow
def test_expert_play_loses_less_than_novice_play():
    """Over 8 reviewed deals (the 50-deal figures are in benchmarks/RESULTS.md) the expert's
    own moves lose less, on average, than the novice's."""
    loss = {"expert": [], "novice": []}
    for i in range(8):
        levels = ["expert", "novice"] if i % 2 == 0 else ["novice", "expert"]
        m = Match.new(preset("standard"), levels, f"loss/{i}".encode())
        players = [make_player(lv, random.Random(i)) if lv == "novice" else
                   ExpertPlayer(random.Random(i), budget_ms=None, samples=32) for lv in levels]
        while not m.deal.is_over:
            p = m.player_to_act()
            v = m.view(p)
            m.apply(p, players[p].choose(v, v.legal))
        for d in build_review(m, budget_ms=BUDGET, seed=i).deals:
            for x in d.decisions:
                loss[x.player].append(x.loss)
    mean = {k: sum(v) / len(v) for k, v in loss.items()}
    assert len(loss["expert"]) > 60 and len(loss["novice"]) > 60
    assert mean["expert"] < mean["novice"]


# -- gin play: --record, the review after a deal and at the end -------------------------------------

def _own_moves(seed: int, rules=None, whole: bool = False) -> int:
    """How many lines the person (auto) types in deal 1 (or, ``whole``, the whole match, with
    one Enter between deals) of ``gin play --seed SEED`` against the novice."""
    from ginrummy.cli.play import computer_players, hint_player, match_seed, player_names
    m = Match.new(rules or preset("standard"), player_names("You", "novice", 2), match_seed(seed))
    bots, hinter = computer_players("novice", seed, 2), hint_player("novice", seed)
    n = 0
    while True:
        if m.deal.is_over:
            if not whole or m.finished:
                return n
            m.next_deal()
            n += 1
        p = m.player_to_act()
        v = m.view(p)
        n += p == 0
        m.apply(p, hinter.hint(v, v.legal)[0] if p == 0 else bots[p].choose(v, v.legal))


@pytest.mark.parametrize(("lang", "title", "hindsight"), [
    ("en", "Deal 1: the expert's review", "Hindsight (all hands shown, not part of the review)"),
    ("el", "Μοιρασιά 1: η ανάλυση του Ειδήμονα", "Εκ των υστέρων (με όλα τα φύλλα ανοιχτά, εκτός ανάλυσης)"),
])
def test_play_records_the_match_and_reviews_a_deal(monkeypatch, capsys, tmp_path, lang, title, hindsight):
    import io
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    path = tmp_path / "played.gin"
    lines = ["auto"] * _own_moves(18) + ["review", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(x + "\n" for x in lines)))
    assert main(["play", "--seed", "18", "--lang", lang, "--record", str(path), "--review-budget-ms", "32"]) == 0
    out = capsys.readouterr().out
    assert title in out and hindsight in out
    text = path.read_text(encoding="utf-8")
    rec = loads(text)  # saved after deal 1 and again at the quit: one finished deal
    assert len(rec.deals) == 1 and rec.deals[0].result is not None and rec.date is not None
    you = "You" if lang == "en" else "Εσύ"
    expected = review_match(text, player=you, deal=1, budget_ms=32, seed=18)["deals"][0]["decisions"]
    table = out.split(title)[1].split(hindsight)[0]
    rows = [r.split("│")[1:-1] for r in table.splitlines() if r.startswith("│")]
    assert [int(r[0]) for r in rows] == [x["index"] for x in expected]  # the person's decisions only
    assert [r[1].strip() for r in rows] == [x["played"] for x in expected]


def test_play_bad_record_path_is_one_error_line(monkeypatch, capsys, tmp_path):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seed", "1", "--record", str(tmp_path / "no" / "such" / "x.gin")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gin: error: --record {tmp_path / 'no' / 'such' / 'x.gin'}: the file cannot be written (")


def test_play_offers_the_match_review_at_the_end(monkeypatch, capsys, tmp_path):
    """At a terminal the end of the match offers the review of every deal (here forced on)."""
    import io

    from rich.console import Console

    from ginrummy.cli.play import PlayTable
    from ginrummy.i18n import translator
    lines = _own_moves(8, preset("oklahoma"), whole=True)
    monkeypatch.setattr("sys.stdin", io.StringIO("auto\n" * lines + "review\n"))
    console = Console(file=io.StringIO(), width=120, no_color=True)
    table = PlayTable(preset("oklahoma"), 8, "novice", "You", console=console, tr=translator("fi"),
                      record=tmp_path / "m.gin", review_budget_ms=32)
    table.offer_review = True
    assert table.run() == 0
    out = console.file.getvalue()
    deals = len(table.match.deals)
    assert deals == 3
    assert capsys.readouterr().out.endswith("Kirjoita review, niin Mestari arvioi ottelusi, tai lopeta painamalla Enter> ")
    assert all(f"Jako {n}: Mestarin arvio" in out for n in range(1, deals + 1))
    assert out.count("Jälkiviisaus (kaikki kädet näkyvissä, ei osa arviota)") == deals
    assert "Yhteenveto" in out
    assert (tmp_path / "m.gin").read_text(encoding="utf-8").rstrip().splitlines()[-2] == "finished winner 0"


def test_a_sealed_deal_is_left_out_and_cannot_be_asked_for():
    """A public record of a match going on seals its drawn deal (R7; docs/record-format.md): its
    cards are secret, so the review has no deal to show, and asking for it is a RecordError."""
    from ginrummy.analysis.simulate import play_game
    from ginrummy.record import replay

    g = play_game(preset("standard"), ["novice", "novice"], 26, 5)
    assert g.match.deals[0].result.outcome == "draw"
    lines, n = [], 0
    for line in dumps(g.match).splitlines():  # the record up to the end of deal 1, as a match going on
        n += line.startswith("deal ")
        if n <= 1 and not line.startswith(("finished", "seed ")):
            lines.append(line)
    live = replay("\n".join(lines) + "\n")
    assert not live.finished and len(live.deals) == 1
    public = dumps(live, public=True)
    assert "sealed" in public.split()
    assert build_review(public, budget_ms=10).deals == ()
    with pytest.raises(RecordError, match="deal 1 is sealed: its cards are still secret"):
        build_review(public, deal=1, budget_ms=10)


def _score_lines(review) -> list[str]:
    from ginrummy.analysis.performance import performance
    from ginrummy.i18n import translator

    num = translator("en").format_number
    out = []
    for name, p in performance(review).items():
        r = p.rating
        out.append(
            f"{name}: score {num(round(p.score, 1) + 0.0)} of 100, {num(round(p.loss_per_decision, 2) + 0.0)} "
            "points of win chance lost "
            f"a decision over {p.decisions} decisions; played like a player rated about {r.rating} ({r.low} to {r.high})."
        )
    return out


def test_play_shows_every_players_score_at_the_end_of_the_match(monkeypatch, capsys, tmp_path):
    """Issue 32, item 4: at a terminal the end of the match shows each player's score of the
    whole match (the same lines as gin review of the saved record), before the review's offer;
    the performance figure is called "score", never "accuracy" (the review's own figure)."""
    import io

    from rich.console import Console

    from ginrummy.cli.play import PlayTable
    from ginrummy.i18n import translator
    lines = _own_moves(8, preset("oklahoma"), whole=True)
    monkeypatch.setattr("sys.stdin", io.StringIO("auto\n" * lines + "\n"))
    console = Console(file=io.StringIO(), width=400, no_color=True)
    table = PlayTable(preset("oklahoma"), 8, "novice", "You", console=console, tr=translator("en"),
                      record=tmp_path / "m.gin", review_budget_ms=32)
    table.offer_review = True
    assert table.run() == 0
    out = console.file.getvalue()
    review = build_review((tmp_path / "m.gin").read_text(encoding="utf-8"), budget_ms=32, seed=8)
    want = _score_lines(review)
    assert len(want) == 2
    head = "The score of each player in this match (100: the expert's moves):"
    assert out.split(head, 1)[1].strip().splitlines()[:2] == want
    assert "accuracy" not in out.split(head, 1)[1]


def test_gin_review_calls_the_performance_figure_score(tmp_path, capsys, two_deals):
    """Issue 32, item 3: gin review's line per player says "score N of 100" (the performance
    score), not "accuracy", which is the review's own column (the share of decisions within
    the noise); the JSON keeps both keys as documented (summary.accuracy, performance.score)."""
    path = tmp_path / "m.gin"
    path.write_text(dumps(two_deals), encoding="utf-8")
    assert main(["review", str(path), "--budget-ms", "40", "--seed", "5", "--deal", "1"]) == 0
    text = capsys.readouterr().out
    review = build_review(dumps(two_deals), deal=1, budget_ms=40, seed=5)
    flat = " ".join(text.split())
    for line in _score_lines(review):
        assert line in flat
    assert " of 100" in flat and "accuracy" not in flat.split("Values:")[1].split(" Accuracy: the share")[1]
