"""The observations of the pyspiel game ``python_ginrummy`` (issue 36): its observation tensor
is the research environments' observation (``ginrummy.env.observation``), the same values at
every state; it never holds a card the player cannot see (a player's tensor and strings are
unchanged when the cards it cannot see are dealt otherwise); the information state string is
the player's history as it saw it; OpenSpiel's ``make_observation`` and ``random_sim_test`` take
the game."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from ginrummy.cards import card_str  # noqa: E402
from ginrummy.env.core import GameCore  # noqa: E402
from ginrummy.env.observation import OBS_SIZE, OBS_SIZE_LAYOUT, plane  # noqa: E402
from ginrummy.interop import spiel_game  # noqa: E402

#: the game parameters of the checks: OpenSpiel's rules (layout decisions, 593 values) and
#: presets of 433 (none rebuilds the stock, R7.3, so the dealt cards are the deck's order)
PARAMS = (
    {},
    {"preset": "standard"},
    {"preset": "oklahoma"},
    {"preset": "hollywood"},
    {"preset": "straight", "overrides": "stock_end=wall"},
    {"preset": "standard", "overrides": "layout=players,big_gin_bonus=31"},
)


def _random_game(game, rng: random.Random, knock_first: bool = True) -> list[int]:
    """The actions (chance outcomes included) of one game of random play; a knock or gin is
    chosen whenever one is legal (so the layout phases come), else a random move."""
    st = game.new_initial_state()
    hist = []
    while not st.is_terminal():
        if st.is_chance_node():
            a = rng.choice([x for x, _ in st.chance_outcomes()])
        else:
            legal = st.legal_actions()
            knocks = [x for x in legal if 57 <= x < 161] if knock_first else []
            a = rng.choice(knocks or legal)
        hist.append(a)
        st.apply_action(a)
    return hist


def test_observation_tensor_is_the_env_observation_at_every_state():
    """72 random games (12 a rule set): at every decision and at the end, both players'
    ``observation_tensor`` equals the observation :class:`GameCore` (the AEC, Gymnasium and
    vector envs' core) gives the same player after the same deal and moves."""
    rng = random.Random(36)
    counts = {"states": 0, "layout": 0, "layoff": 0}
    for params in PARAMS:
        game = pyspiel.load_game(spiel_game.SHORT_NAME, params)
        size = OBS_SIZE_LAYOUT if game.rules.layout == "players" else OBS_SIZE
        assert game.observation_tensor_shape() == [size]
        for _ in range(12):
            hist = _random_game(game, rng)
            st = game.new_initial_state()
            chance = []
            for a in hist:  # the chance outcomes in order: the deck as the env takes it
                if st.is_chance_node():
                    chance.append(a)
                st.apply_action(a)
            deck = chance + [c for c in range(52) if c not in set(chance)]
            core = GameCore(game.rules, scope="deal")
            core.reset(b"spiel", deck=deck, dealer=1)  # player 0 is the non-dealer
            st = game.new_initial_state()
            for a in hist:
                was_chance, drawing = st.is_chance_node(), st.drawing
                st.apply_action(a)
                if st.deal is None:
                    continue
                if was_chance and drawing:  # the drawn card dealt: the env steps the draw with it
                    core.step(0)
                elif not was_chance:
                    if st.drawing:
                        continue  # a draw waits for its card
                    core.step(a)
                for p in (0, 1):
                    assert np.array_equal(np.asarray(st.observation_tensor(p), np.float32), core.observe(p)), (
                        params, len(st.history()), p)
                counts["states"] += 1
                counts[st.deal.phase] = counts.get(st.deal.phase, 0) + 1
            assert st.is_terminal() and core.done
    assert counts["states"] > 3000 and counts["layout"] > 0 and counts["layoff"] > 0, counts


def _unseen(st, player: int) -> list[int]:
    """The cards ``player`` cannot see in ``st``: the opponent's hand less the cards it was
    seen taking, and the stock."""
    d = st.deal
    other = d.hands[1 - player] & ~d.seen[1 - player]
    return [c for c in range(52) if (other >> c) & 1] + list(d.stock[d.drawn :])


def _redealt(game, hist: list[int], player: int, upto: int, rng: random.Random) -> list[int] | None:
    """``hist`` with the cards ``player`` cannot see after ``upto`` actions dealt otherwise (a
    random permutation of them applied to every chance outcome), or ``None`` when a move of the
    opponent is then not legal (a knock needs its deadwood, R5.1)."""
    st = game.new_initial_state()
    for a in hist[:upto]:
        st.apply_action(a)
    hidden = _unseen(st, player)
    perm = hidden[:]
    rng.shuffle(perm)
    swap = dict(zip(hidden, perm))
    out = []
    st = game.new_initial_state()
    for a in hist[:upto]:
        if st.is_chance_node():
            a = swap.get(a, a)
        elif a not in st.legal_actions():
            return None
        out.append(a)
        st.apply_action(a)
    return out


@pytest.mark.parametrize("params", [{}, {"preset": "standard"}])
def test_no_hidden_card_leaks_into_the_observations(params):
    """At random points of 40 random games, the opponent's unseen cards and the stock are dealt
    otherwise (the same public moves): the player's observation tensor, observation string and
    information state string are the same at every state up to there; the opponent's differ
    somewhere (so the re-deal did change something)."""
    game = pyspiel.load_game(spiel_game.SHORT_NAME, params)
    rng = random.Random(7)
    tried = checked = changed = 0
    for _ in range(40):
        hist = _random_game(game, rng)
        for player in (0, 1):
            upto = rng.randrange(22, len(hist) + 1)
            st = game.new_initial_state()
            for a in hist[:upto]:
                st.apply_action(a)
            if st.is_terminal():  # the result shows both hands: hidden no more
                upto -= 1
            tried += 1
            other = _redealt(game, hist, player, upto, rng)
            if other is None:
                continue
            a_st, b_st = game.new_initial_state(), game.new_initial_state()
            differ = False
            for x, y in zip(hist[:upto], other):
                a_st.apply_action(x)
                b_st.apply_action(y)
                if a_st.deal is None:
                    continue
                assert a_st.observation_tensor(player) == b_st.observation_tensor(player)
                assert a_st.observation_string(player) == b_st.observation_string(player)
                assert a_st.information_state_string(player) == b_st.information_state_string(player)
                differ |= a_st.observation_tensor(1 - player) != b_st.observation_tensor(1 - player)
                checked += 1
            changed += differ
    assert checked > 1000 and changed > tried // 2, (tried, checked, changed)


def test_observer_dict_flags_and_make_observation():
    """OpenSpiel's conventions: the game type offers the observation tensor and string and the
    information state string; ``make_observation`` gives the observer, whose ``dict`` holds
    views of ``tensor`` (card planes as (4, 13): suit by rank) named as the env's planes."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(spiel_game.SHORT_NAME)
    t = game.get_type()
    assert (t.provides_observation_tensor, t.provides_observation_string, t.provides_information_state_string,
            t.provides_information_state_tensor) == (True, True, True, False)
    obs = make_observation(game)
    assert list(obs.dict) == ["hand", "opponent_known", "pile", "top", "pile_order", "dead", "opponent_discarded",
                              "taken", "scalars", "my_melds", "opponent_melds", "laid_off", "layout_scalars"]
    assert obs.tensor.shape == (593,) and obs.dict["hand"].shape == (4, 13) and obs.dict["scalars"].shape == (17,)
    st = game.new_initial_state()
    for c in range(21):  # player 0: AC..TC; player 1: JC QC KC AD..7D; the upcard 8D
        st.apply_action(c)
    obs.set_from(st, 1)
    assert np.array_equal(obs.tensor, np.asarray(st.observation_tensor(1), np.float32))
    assert obs.tensor[plane("hand")].nonzero()[0].tolist() == list(range(10, 20))
    assert obs.dict["hand"][0].tolist() == [0] * 10 + [1] * 3 and obs.dict["top"][1, 7] == 1.0  # 8D on the pile
    assert obs.dict["scalars"][1] == 1.0  # phase_upcard_offer
    assert obs.string_from(st, 1) == st.observation_string(1)
    with pytest.raises(ValueError, match="takes no observation parameters"):
        game.make_py_observer(None, {"x": 1})
    for public, private in ((True, pyspiel.PrivateInfoType.ALL_PLAYERS), (True, pyspiel.PrivateInfoType.NONE),
                            (False, pyspiel.PrivateInfoType.SINGLE_PLAYER)):  # not offered: None, as OpenSpiel says
        assert make_observation(game, pyspiel.IIGObservationType(public_info=public, perfect_recall=False,
                                                                 private_info=private)) is None
    assert game.observation_tensor_size() == 593
    assert pyspiel.load_game(spiel_game.SHORT_NAME, {"preset": "standard"}).observation_tensor_size() == 433


def test_tensor_while_dealing_holds_the_cards_dealt_so_far():
    """Before the upcard is dealt only the player's own cards dealt so far are set."""
    game = pyspiel.load_game(spiel_game.SHORT_NAME)
    st = game.new_initial_state()
    for c in (5, 9, 30):
        st.apply_action(c)
    assert np.nonzero(st.observation_tensor(0))[0].tolist() == [5, 9, 30]
    assert not any(st.observation_tensor(1))


def test_information_state_string_is_the_history_as_the_player_saw_it():
    """Its own cards in the order dealt, the opponent's as ?, the upcard, every move (our codes),
    its own stock draws and the opponent's as ?; with perfect recall (two moves that change no
    card still change the string)."""
    game = pyspiel.load_game(spiel_game.SHORT_NAME)
    st = game.new_initial_state()
    for c in range(21):
        st.apply_action(c)
    mine = ", ".join(f"deal {card_str(c)}" for c in range(10))
    theirs = ", ".join(["deal ?"] * 10)
    assert st.information_state_string(0) == f"p0, {mine}, {theirs}, deal 8D"
    st.apply_action(3)  # player 0 passes the upcard
    st.apply_action(3)  # player 1 passes
    st.apply_action(0)  # player 0 draws from the stock: chance deals its card
    assert st.is_chance_node()
    st.apply_action(51)  # KS
    assert st.information_state_string(0).endswith("deal 8D, p0 3, p1 3, p0 0, draw KS")
    assert st.information_state_string(1).endswith("deal 8D, p0 3, p1 3, p0 0, draw ?")
    assert st.information_state_string(1).startswith("p1, " + theirs)
    # the strings never name a card the player cannot see
    hidden1 = {card_str(c) for c in range(10)} | {"KS"}
    assert not hidden1 & set(st.information_state_string(1).replace(",", " ").split())


@pytest.mark.parametrize("params", [{}, {"preset": "oklahoma"}])
def test_random_sim_test_with_observations(params):
    """OpenSpiel's own checks of a game (``random_sim_test``: the tensor's shape, the strings at
    every state, clones) pass with the observations on."""
    game = pyspiel.load_game(spiel_game.SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_openspiel_rl_environment_plays_on_the_tensor():
    """OpenSpiel's ``rl_environment`` takes the game (its ``info_state`` is our observation
    tensor, 593 values) and its random agents play one deal to the end."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    game = pyspiel.load_game(spiel_game.SHORT_NAME)
    env = rl_environment.Environment(game, seed=3)
    assert env.observation_spec()["info_state"] == (593,)
    agents = [random_agent.RandomAgent(player_id=i, num_actions=env.action_spec()["num_actions"]) for i in (0, 1)]
    ts = env.reset()
    steps = 0
    while not ts.last() and steps < 1000:
        p = ts.observations["current_player"]
        assert np.array_equal(ts.observations["info_state"][p], env.get_state.observation_tensor(p))
        ts = env.step([agents[p].step(ts).action])
        steps += 1
    assert ts.last() and env.get_state.is_terminal()
    assert ts.rewards == env.get_state.returns()


def test_openspiel_api_test_on_a_partial_tree():
    """OpenSpiel's own API checks on 400 sampled states (``integration_tests/api_test.py``,
    ``EnforceAPIOnPartialTreeBase``): the observation and information state functions at every
    state and their errors for a bad player, sequence lengths, the private and public observers."""
    import io
    import unittest

    api_test = pytest.importorskip("open_spiel.integration_tests.api_test")

    class Case(api_test.EnforceAPIOnPartialTreeBase):
        game_name = spiel_game.SHORT_NAME
        game = pyspiel.load_game(spiel_game.SHORT_NAME)

    result = unittest.TextTestRunner(verbosity=0, stream=io.StringIO()).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(Case))
    assert result.testsRun == 5 and result.errors == [] and result.failures == [], result.errors + result.failures
