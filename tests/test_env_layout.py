"""The layout decisions (R5.6, ``layout="players"``) in the research environments (issue 36).

Under OpenSpiel's rules the envs offer 398 action codes (161..397 the melds and layoffs), a
593-value observation (the layout extension of ``env/observation.py``), the text of those
phases, and the computer levels' simple layout policy as opponents.  Replayed OpenSpiel games
agree with the AEC env decision by decision (legal actions through the action map, returns).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ginrummy.actions import NUM_CODES, NUM_LAYOUT_CODES, layout_action
from ginrummy.cards import parse_cards
from ginrummy.env import GinRummyAEC, GinRummySingle
from ginrummy.env.core import GameCore
from ginrummy.env.observation import OBS_SIZE, OBS_SIZE_LAYOUT, encode_view, plane
from ginrummy.interop.openspiel import OPENSPIEL_RULES
from ginrummy.players.layout import layout_move
from ginrummy.text_view import parse_reply, text_observation

# seat 0 (the non-dealer) holds AC-3C, 4D-6D, 7H-9H, KS: draws 2S from the stock and knocks
# with KS at deadwood 2 (AS-10 below are the dealer's and the stock)
NON_DEALER = "AC 2C 3C 4D 5D 6D 7H 8H 9H KS"
DEALER = "TD JD QD KD 4C 6S 7S 8S AH 3S"


def _deck() -> list[int]:
    nd, dl = parse_cards(NON_DEALER), parse_cards(DEALER)
    up = parse_cards("QH")
    stock_top = parse_cards("2S")
    used = set(nd + dl + up + stock_top)
    return nd + dl + up + stock_top + [c for c in range(52) if c not in used]


def _to_layout(core: GameCore) -> None:
    """Play the fixed deal to the knocker's layout: pass, pass, draw 2S, knock KS."""
    core.reset(b"layout", deck=_deck(), dealer=1)
    for text in ("pass", "pass", "draw stock", "knock KS"):
        p = core.to_act
        code = next(c for c in core.legal_codes(p) if layout_action(c).text == text)
        core.step(code)


def test_spaces_are_398_codes_and_593_values_only_under_layout_players():
    env = GinRummyAEC(rules=OPENSPIEL_RULES)
    assert env.action_space("player_0").n == NUM_LAYOUT_CODES == 398
    assert env.observation_space("player_0")["observation"].shape == (OBS_SIZE_LAYOUT,) == (593,)
    assert env.observation_space("player_0")["action_mask"].shape == (398,)
    std = GinRummyAEC()
    assert std.action_space("player_0").n == NUM_CODES == 161
    assert std.observation_space("player_0")["observation"].shape == (OBS_SIZE,) == (433,)
    single = GinRummySingle("novice", rules=OPENSPIEL_RULES)
    assert single.action_space.n == 398 and single.observation_space["observation"].shape == (593,)


def test_knocker_layout_masks_observation_and_text():
    core = GameCore(OPENSPIEL_RULES)
    _to_layout(core)
    assert core.match.deal.phase == "layout" and core.to_act == 0
    legal = core.legal_codes(0)
    texts = sorted(layout_action(c).text for c in legal)
    assert texts == ["meld 4D 5D 6D", "meld 7H 8H 9H", "meld AC 2C 3C"]  # deadwood 2S + 2: no pass yet
    mask = core.mask(0)
    assert mask.shape == (398,) and sorted(np.nonzero(mask)[0].tolist()) == legal
    assert not core.mask(1).any()
    obs = core.observe(0)
    assert obs.shape == (593,)
    assert np.array_equal(obs, core.observe_slow(0))
    assert obs[OBS_SIZE_LAYOUT - 4:].tolist() == [1.0, 0.0, 1.0, 0.0]  # phase layout, I knocked
    assert obs[417:422].tolist() == [0.0] * 5  # the five phases of the 433 are all off
    view = core.view(0)
    text = text_observation(view)
    assert "Phase: your layout (R5.6)." in text
    assert "1. meld AC 2C 3C (deadwood of the cards left, at best: 2)" in text
    assert parse_reply("2", view.legal).text == "meld 4D 5D 6D"
    # lay the three melds, then pass: the defender lays off
    for c in sorted(legal):
        core.step(c)
    assert [layout_action(c).text for c in core.legal_codes(0)] == ["pass"]
    obs1 = core.observe(1)
    assert obs1[plane("opponent_melds")].sum() == 9 and obs1[plane("my_melds")].sum() == 0
    assert np.array_equal(obs1, core.observe_slow(1))
    core.step(3)
    assert core.match.deal.phase == "layoff" and core.to_act == 1
    assert sorted(layout_action(c).text for c in core.legal_codes(1)) == ["layoff 4C", "pass"]
    assert "Phase: your layoffs (R5.6)." in text_observation(core.view(1))


def test_computer_levels_lay_off_then_meld_then_pass():
    core = GameCore(OPENSPIEL_RULES)
    _to_layout(core)
    moves = []
    while not core.done:
        view = core.view(core.to_act)
        a = layout_move(view, view.legal)
        moves.append(a.text)
        core.step(a.code)
    assert moves == ["meld AC 2C 3C", "meld 4D 5D 6D", "meld 7H 8H 9H", "pass",
                     "layoff 4C", "pass", "meld TD JD QD KD", "meld 6S 7S 8S", "pass"]
    r = core.match.deal.result
    # knocker 2S = 2, defender AH 3S = 4: the knocker wins 2 points
    assert (r.outcome, r.winner, r.points) == ("knock", 0, 2)


def test_layout_policy_lays_a_long_run_in_parts():
    from dataclasses import replace

    from ginrummy.actions import meld

    core = GameCore(OPENSPIEL_RULES)
    core.reset(b"x", deck=_deck(), dealer=1)
    # a seven-card run (more than one move lays, R5.6) goes down as a run of three, then of four
    hand = sum(1 << c for c in parse_cards("AC 2C 3C 4C 5C 6C 7C 9H 9D 9S"))
    legal = [meld(sum(1 << c for c in parse_cards(t))) for t in ("2C 3C 4C 5C 6C", "AC 2C 3C", "9D 9H 9S")]
    view = replace(core.view(0), hand=hand, phase="layout")
    assert layout_move(view, legal).text == "meld AC 2C 3C"


@pytest.mark.parametrize("level", ["novice", "club"])
def test_single_env_with_a_level_opponent_finishes_every_deal(level):
    env = GinRummySingle(level, rules=OPENSPIEL_RULES)
    rng = random.Random(7)
    layout_steps = 0
    for ep in range(12):
        obs, info = env.reset(seed=ep)
        done = False
        while not done:
            assert obs["observation"].shape == (593,)
            codes = np.nonzero(obs["action_mask"])[0]
            pick = [c for c in codes if c >= 57 and c < 161] or list(codes)  # knock when it can
            code = int(rng.choice(pick))
            layout_steps += code >= 161
            obs, r, t, tr, info = env.step(code)
            done = t or tr
        assert t and not tr
    assert layout_steps > 0


def test_incremental_observation_matches_the_definition_in_random_play():
    core = GameCore(OPENSPIEL_RULES, scope="game")
    rng = random.Random(3)
    seen = set()
    for ep in range(4):
        core.reset(b"r%d" % ep)
        while not core.done:
            p = core.to_act
            for q in (0, 1):
                assert np.array_equal(core.observe(q), encode_view(core.view(q)))
            seen.add(core.match.deal.phase)
            codes = core.legal_codes(p)
            knocks = [c for c in codes if 57 <= c < 161]
            core.step(rng.choice(knocks or codes))
    assert {"layout", "layoff"} <= seen


# -- agreement with OpenSpiel's gin_rummy through the AEC env (issue 36, item 3) ----------------

def play_openspiel(game, seed: int):
    """One OpenSpiel game of random play: (actions, chance flags, legal lists, returns)."""
    rng = random.Random(seed)
    st = game.new_initial_state()
    hist, ch, leg = [], [], []
    while not st.is_terminal():
        if st.is_chance_node():
            a = rng.choice([x for x, _ in st.chance_outcomes()])
            hist.append(a), ch.append(True), leg.append(None)
        else:
            legal = st.legal_actions()
            a = rng.choice(legal)
            hist.append(a), ch.append(False), leg.append(list(legal))
        st.apply_action(a)
    return hist, ch, leg, st.returns()


def env_replay(history, is_chance, os_legal, os_returns) -> list[str]:
    """Replay an OpenSpiel game through :class:`GinRummyAEC` under ``OPENSPIEL_RULES``: at each
    decision the env's legal codes (its mask), mapped to OpenSpiel's ids by
    :func:`~ginrummy.interop.openspiel_exact.to_openspiel_action`, against OpenSpiel's legal
    actions; at the end the env's rewards against OpenSpiel's returns.  The disagreements."""
    from ginrummy.interop.openspiel import os_to_card
    from ginrummy.interop.openspiel_exact import OS_KNOCK, to_openspiel_action

    dealt = [os_to_card(a) for a, c in zip(history, is_chance) if c]
    deck = dealt + [c for c in range(52) if c not in set(dealt)]
    env = GinRummyAEC(rules=OPENSPIEL_RULES)
    env.reset(seed=0, options={"deck": deck, "dealer": 1})  # OpenSpiel's player 0 is our non-dealer
    knocking = False
    got = [0.0, 0.0]
    for i, (a, c) in enumerate(zip(history, is_chance)):
        if c:
            continue
        if not env.agents or all(env.terminations.values()):
            return [f"move {i}: the env's episode is over, OpenSpiel plays {a}"]
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        deal = env.core.match.deal
        actions = [layout_action(int(k)) for k in np.nonzero(mask)[0]]
        if knocking:
            ours = sorted({to_openspiel_action(deal, x)[-1] for x in actions if x.kind in ("knock", "gin")})
        else:
            ours = sorted({to_openspiel_action(deal, x)[0] for x in actions})
        if ours != sorted(os_legal[i]):
            return [f"move {i} ({deal.phase}): legal env {ours} OpenSpiel {sorted(os_legal[i])}"]
        if not knocking and deal.phase == "discard" and not deal.must_knock and a == OS_KNOCK:
            knocking = True
            continue
        x = next(x for x in actions if to_openspiel_action(deal, x)[-1 if knocking else 0] == a
                 and (not knocking or x.kind in ("knock", "gin"))
                 and (knocking or len(to_openspiel_action(deal, x)) == 1 or deal.must_knock))
        knocking = False
        env.step(x.code)
        for k, name in enumerate(env.possible_agents):
            got[k] += env.rewards.get(name, 0.0)
    if not all(env.terminations.values()):
        return ["end: OpenSpiel's game is over, the env's is not"]
    if got != [float(r) for r in os_returns]:
        return [f"returns env {got} OpenSpiel {list(os_returns)}"]
    return []


def test_openspiel_games_replayed_through_the_aec_env_agree():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("gin_rummy")
    bad = {}
    for seed in range(100):
        d = env_replay(*play_openspiel(game, seed))
        if d:
            bad[seed] = d
    assert bad == {}
