"""The playout policies of the ``expert`` (ginrummy.players.rollout.Policy): the classic one
(knock at once, take only a card that makes a meld; the default) and the variants measured
against it (benchmarks/RESULTS.md, issue 17): knock by the stage of the deal, avoid feeding the
other hand, take a low card that saves much deadwood, knock only without an undercut."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

from ginrummy.players.expert import ExpertPlayer
from ginrummy.players.rollout import (
    CAREFUL,
    CLASSIC,
    POLICIES,
    SAFE,
    STAGED,
    Policy,
    Table,
    feed_mask,
    greedy_discard,
    knocks_now,
    playout,
    policy_discard,
    stage_knock_point,
    take_by_policy,
)
from ginrummy.rules import RuleSet
from helpers import c, m

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import strength  # noqa: E402

TAB = Table.of(RuleSet(name="standard"), 10, 1)


def test_feed_mask_is_the_cards_that_meld_with_two_of_the_hand():
    other = m("5H 6H KC KD 2S 9C 3D JD 8D AS")
    # 5H 6H: a run with 4H or 7H (R2.2); JD KD: with QD; AS 2S: with 3S (the ace is low,
    # R2.2); KC KD: a set with KH or KS (R2.1); 3D 8D 9C are alone
    assert feed_mask(other) == m("4H 7H QD 3S KH KS")
    # a gap: 5S 7S take 6S only
    assert feed_mask(m("5S 7S")) == m("6S")


def test_feed_mask_agrees_with_take_by_policy_on_random_hands():
    r = random.Random(5)
    for _ in range(300):
        other = sum(1 << x for x in r.sample(range(52), 10))
        fm = feed_mask(other)
        for card in range(52):
            if not (other >> card) & 1:
                assert bool((fm >> card) & 1) == take_by_policy(card, other)


def test_policy_discard_avoids_feeding_the_other_hand():
    other = m("5H 6H KC KD 2S 9C 3D JD 8D AS")
    h = m("AC 2C 3C 4D 5D 6D 9H TH QH KS 7H")
    # melds AC 2C 3C and 4D 5D 6D; the deadwood 9H TH QH KS 7H: discarding any 10-point card
    # leaves 36.  The classic discard is the highest such card int (KS); KS would complete the
    # other hand's kings (R2.1), so the careful one charges it 6 points and throws QH
    assert greedy_discard(h) == (c("KS"), 36)
    assert policy_discard(h, other, CLASSIC) == (c("KS"), 36)
    assert policy_discard(h, other, CAREFUL) == (c("QH"), 36)
    # then TH; 7H (it feeds 5H 6H) would leave 39 + 6 and is never the choice
    assert policy_discard(h, other, CAREFUL, forbid=c("QH")) == (c("TH"), 36)


def test_stage_knock_point_falls_as_the_stock_shrinks():
    # the club player's knock point (ginrummy.players.club.knock_point) with the turns read
    # off the stock: (31 - stock) // 2
    assert stage_knock_point(10, 31) == 10
    assert stage_knock_point(10, 21) == 10   # 5 turns: no fall yet
    assert stage_knock_point(10, 15) == 7    # 8 turns: 3 less
    assert stage_knock_point(10, 9) == 3     # 11 turns (6) and a short stock (1): the floor 10 // 3
    assert knocks_now(TAB, CAREFUL, 0, 9)    # gin is always taken (R6.1)
    assert knocks_now(TAB, CAREFUL, 7, 15) and not knocks_now(TAB, CAREFUL, 8, 15)
    assert knocks_now(TAB, CLASSIC, 10, 2) and not knocks_now(TAB, CLASSIC, 11, 30)
    assert knocks_now(TAB, STAGED, 7, 15) and not knocks_now(TAB, STAGED, 8, 15)
    assert not knocks_now(Table.of(RuleSet(name="standard"), None, 1), CLASSIC, 5, 20)  # gin only


def test_careful_playout_plays_on_where_the_classic_one_is_undercut():
    me = m("AC 2C 3C 4D 5D 6D 7S 8S 9S 9H")      # deadwood 9H: 9
    opp = m("TC JC QC 2H 3H 4H 7H 7C 7D AS")     # deadwood AS: 1
    stock = [c("KH"), c("8C"), c("2D")]
    # I draw KH and throw it (9 deadwood).  Classic: knock at once, undercut (R6.3): the
    # opponent scores the bonus 25 and 9 - 1.  Careful: 2 cards left, the knock point is 3 (the
    # floor), so no knock, and the stock ends the deal as a draw (R7.1)
    assert playout(TAB, [me, opp], stock, 0, None, 0) == (1, 25 + 8)
    assert playout(TAB, [me, opp], stock, 0, None, 0, pol=CAREFUL) == (None, 0)


def test_careful_playout_takes_a_low_card_that_saves_much_deadwood():
    me = m("AC 2C 3C 4D 5D 6D 7S 8S 9S KH")      # deadwood KH: 10
    opp = m("TC JC QC 2H 3H 4H 7H 7C 7D 9D")     # deadwood 9D: 9
    stock = [c("9C"), c("8C"), c("2D"), c("5C")]
    # the top discard 2S makes no meld; taking it and throwing KH saves 8 points (>= 6), so the
    # careful side takes it and knocks with 2 (the knock point with 4 cards left is the floor,
    # 3): 9 - 2 = 7 points (R6.2).  The classic side draws 9C, throws KH and knocks with 9
    # against 9: undercut, 25 + 0 (R6.3)
    assert playout(TAB, [me, opp], list(stock), 0, c("2S"), 0, pol=CAREFUL) == (0, 7)
    assert playout(TAB, [me, opp], list(stock), 0, c("2S"), 0) == (1, 25)


def test_safe_knock_is_never_an_undercut_before_layoffs():
    other = m("TC JC QC 2H 3H 4H 7H 7C 7D AS")   # deadwood 1
    # R6.3: a knock with 1 or more against 1 is an undercut, so the safe side only goes gin
    assert not knocks_now(TAB, SAFE, 1, 20, other) and knocks_now(TAB, SAFE, 0, 20, other)
    nine = m("TC JC QC 2H 3H 4H 7H 7C 7D 9D")     # deadwood 9D: 9
    assert knocks_now(TAB, SAFE, 8, 20, nine) and not knocks_now(TAB, SAFE, 9, 20, nine)
    assert knocks_now(TAB, CLASSIC, 9, 20, nine)
    me = m("AC 2C 3C 4D 5D 6D 7S 8S 9S 9H")
    # the undercut position of the classic playout above: the safe side plays on; 2 cards left
    assert playout(TAB, [me, other], [c("KH"), c("8C"), c("2D")], 0, None, 0, pol=SAFE) == (None, 0)


def test_policies_and_the_expert_option():
    assert set(POLICIES) == {"classic", "careful", "staged", "nofeed", "safe"}
    assert POLICIES["careful"] == Policy("careful", staged_knock=True, feed_penalty=6, take_gain=6)
    assert ExpertPlayer(random.Random(1)).playout == "classic"
    assert ExpertPlayer(random.Random(1))._pol is CLASSIC
    assert ExpertPlayer(random.Random(1), playout="careful")._pol is CAREFUL
    with pytest.raises(ValueError, match="playout must be one of classic, careful, staged, nofeed, safe, not 'fast'"):
        ExpertPlayer(random.Random(1), playout="fast")


def test_strength_levels_with_options():
    p = strength.build("expert@classic", random.Random(1), None)
    assert (p.name, p.playout, p.opponent_model) == ("expert", "classic", "rules")
    p = strength.build("expert@learned@careful", random.Random(1), 50.0)
    assert (p.playout, p.opponent_model, p.budget_ms) == ("careful", "learned", 50.0)
    assert p._club.opponent_model == "learned"
    p = strength.build("master@learned", random.Random(1), None)
    assert (p.name, p.opponent_model, p.budget_ms) == ("master", "learned", 1000.0)
    p = strength.build("expert@oz1.0", random.Random(1), None)
    assert (p.override_z, p.playout) == (1.0, "classic")
    p = strength.build("expert@ms280", random.Random(1), 75.0, cpu_clock=True)
    assert (p.budget_ms, p.clock, p.opponent_model) == (280.0, time.process_time, "rules")
    assert strength.build("expert", random.Random(1), 75.0).budget_ms == 75.0
    p = strength.build("expert@ms280@s750", random.Random(1), None)
    assert (p.budget_ms, p.samples) == (280.0, 750)
    assert strength.build("expert", random.Random(1), None).samples == 400
    with pytest.raises(ValueError, match="unknown option 's0'"):
        strength.build("expert@s0", random.Random(1), None)
    with pytest.raises(ValueError, match="unknown option 'ms0' of level 'expert@ms0'.*ms<milliseconds>"):
        strength.build("expert@ms0", random.Random(1), None)
    with pytest.raises(ValueError, match="unknown option 'ms280' of level 'novice@ms280'"):
        strength.build("novice@ms280", random.Random(1), None)
    assert strength.build("club@rules", random.Random(1), None).opponent_model == "rules"
    assert strength.build("club", random.Random(1), None).opponent_model == "learned"
    assert strength.build("master", random.Random(1), None).opponent_model == "rules"
    with pytest.raises(ValueError, match="unknown option 'classic' of level 'club@classic'"):
        strength.build("club@classic", random.Random(1), None)


def test_single_deal_playouts_knock_at_once():
    # R11.1: when the deal is the whole game the club player knocks as soon as it may, and the
    # expert's playouts follow it; the classic policy already does
    e = ExpertPlayer(random.Random(1), playout="careful")
    assert e._pol is CAREFUL and e._pol_deal == Policy("careful", staged_knock=False, feed_penalty=6, take_gain=6)
    assert ExpertPlayer(random.Random(1), playout="classic")._pol_deal == CLASSIC


def test_eager_knock_makes_the_knock_the_default_move():
    from ginrummy.actions import parse_action
    from ginrummy.views import view_of
    from helpers import act, deal

    # after drawing AH: AC 2C 3C, 4D 5D 6D, 9C 9H 9S and AH KS; knocking with KS leaves 1
    # (R5.1).  The club player plays on for gin this early, so that is the expert's default;
    # with eager_knock the knock is.  An override_z no estimate can reach keeps the default.
    script = ("AC 2C 3C 4D 5D 6D 9H 9S 9C KS", "7C 7D 4S 6S 8S TC TD 2H 3H KC", "QH", "AH 8D QD")
    v = view_of(act(deal(*script), "pass", "pass", "draw stock"), 0)
    plain = ExpertPlayer(random.Random(3), budget_ms=None, samples=8, override_z=1e9)
    eager = ExpertPlayer(random.Random(3), budget_ms=None, samples=8, override_z=1e9, eager_knock=True)
    first = plain.analyse(v, v.legal)[0][0]
    assert first.kind == "discard"
    assert eager.analyse(v, v.legal)[0][0] == parse_action("knock KS")
    assert strength.build("expert@eager", random.Random(1), None).eager_knock is True


def test_the_ceiling_levels_sample_the_real_hand_or_no_guess():
    """``@peek`` (told the opponent's real hand: a benchmark's ceiling, never a level) and
    ``@noguess`` (his hidden cards drawn uniformly): what they hand the expert's sampled deals,
    and a game of ``@peek`` played through ``strength.play_game``, which tells it the hand."""
    from ginrummy.cards import mask_of, parse_cards
    from ginrummy.players.inference import read_view
    from ginrummy.views import view_of
    from helpers import act, deal

    script = ("AC 2C 3C 4D 5D 6D 9H 9S 9C KS", "7C 7D 4S 6S 8S TC TD 2H 3H KC", "QH", "AH 8D QD")
    k = read_view(view_of(act(deal(*script), "pass", "pass", "draw stock"), 0))
    real = mask_of(parse_cards("7C 7D 4S 6S 8S TC TD 2H 3H KC"))
    assert real & k.unknown == real  # hidden from seat 0
    peek = strength.build("expert@peek", random.Random(1), None)
    peek.peek_hand = lambda: real
    assert peek._sample_hands(k, 3, None) == [real, real, real]
    hands = strength.build("expert@noguess", random.Random(1), None)._sample_hands(k, 40, None)
    assert len(hands) == 40 and len(set(hands)) == 40
    assert all(bin(h).count("1") == 10 and h & k.hand == 0 and h & k.known_opp == k.known_opp for h in hands)
    assert all(h & ~k.unknown & ~k.known_opp == 0 for h in hands)  # only cards he may hold
    line = strength.play_game(("expert@peek@ms2", "novice"), 0, 5, None)
    assert sum(line["won"]) == 1 and line["deals"] >= 1


def test_strength_checks_every_level_before_any_game(capsys, tmp_path):
    """A bad level or option is refused at once (exit 2, one line naming it), not when its
    pairing's first game starts hours into a run; nothing is written."""
    out = tmp_path / "games.jsonl"
    for pairs, words in (
        ("novice:random,expert@zzz:novice", "--pairs 'expert@zzz:novice': unknown option 'zzz' of level 'expert@zzz'"),
        ("expert@peek@noguess:expert", "peek, noguess and peekdw each replace the sampled hands; take one"),
        ("club", "--pairs 'club': a pairing is two levels, A:B"),
    ):
        with pytest.raises(SystemExit) as e:
            strength.main(["--games", "1", "--pairs", pairs, "--out", str(out)])
        assert e.value.code == 2
        assert words in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(ValueError, match="take one"):
        strength.build("expert@noguess@peekdw", random.Random(1), None)
