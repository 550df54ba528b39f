"""The ``openspiel-simple`` level: OpenSpiel's simple bot deciding in our engine.  Inside
OpenSpiel's own game, at every decision of the real bot, the level (given only the view our
bridge rebuilds from the bot's observations) must choose the same move."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from ginrummy.interop.openspiel import SeatObserver  # noqa: E402
from ginrummy.match import Match  # noqa: E402
from ginrummy.players import PLAYER_LEVELS, make_player  # noqa: E402
from ginrummy.players.base import load_levels  # noqa: E402
from ginrummy.rules import preset  # noqa: E402


def test_level_is_registered():
    load_levels()
    assert "openspiel-simple" in PLAYER_LEVELS
    assert make_player("openspiel-simple", 1).name == "openspiel-simple"


def _deal(seed: int, bot_seat: int) -> int:
    """One OpenSpiel deal: the real bot at ``bot_seat`` against random moves; returns the number of
    the bot's decisions compared with the level's."""
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    level = make_player("openspiel-simple", seed)
    bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), bot_seat)
    ob = SeatObserver(bot_seat)
    st = game.new_initial_state()
    compared = 0
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(rng.choice(st.chance_outcomes())[0])
        elif st.current_player() != bot_seat:
            st.apply_action(rng.choice(st.legal_actions()))
        else:
            try:
                view, mapping = ob.view(st)
            except ValueError:  # the knocker's or defender's layout: no decision of ours
                view = None
            action = bot.step(st)
            if view is not None and len(view.legal) > 1:
                ours = mapping[level.choose(view, view.legal)]
                assert ours[0] == action, (seed, view.phase, ours, action)
                if action == 55 and len(ours) == 2:  # the knock's discard, the bot's next move
                    st.apply_action(action)
                    ob.observe(st)
                    action = bot.step(st)
                    assert ours[1] == action, (seed, ours, action)
                compared += 1
            st.apply_action(action)
        ob.observe(st)
    return compared


def test_level_decides_as_the_real_bot_inside_openspiel():
    compared = sum(_deal(seed, seed % 2) for seed in range(8))
    assert compared > 80


def test_level_plays_whole_games_in_our_engine():
    m = Match.new(preset("oklahoma"), ["a", "b"], b"os-level")
    players = [make_player("openspiel-simple", 1), make_player("random", 2)]
    deals = 0
    while not m.finished and deals < 6:
        p = m.player_to_act()
        if p is None:
            m.next_deal()
            deals += 1
            continue
        view = m.view(p)
        m.apply(p, players[p].choose(view, view.legal))  # raises if a choice were illegal
    assert deals >= 1 and sum(m.sheet.totals) > 0


def test_levels_and_their_order_unchanged():
    """The level names and their order (make_player's error message, the web table's list) are
    those of main before the move of the bridge to ginrummy.interop (an entry point since)."""
    load_levels()
    # the fixed-sample levels (issue 36) follow the master, the sages (issue 37) the ismcts; rlcard-rule (an entry point too) may
    # be registered earlier by an import of its module, so it is left out of the order
    assert [x for x in PLAYER_LEVELS if x != "rlcard-rule"] == ["random", "novice", "club", "expert", "master",
                                                                "expert-fixed", "master-fixed", "ismcts", "sage",
                                                                "sage-fast", "openspiel-simple"]
    assert type(make_player("openspiel-simple", 1)).__module__ == "ginrummy.interop.openspiel_simple"
    with pytest.raises(ValueError) as e:
        make_player("nope")
    assert str(e.value).startswith("unknown player 'nope'; players: random, novice, club, expert, master, expert-fixed, "
                                   "master-fixed, ismcts, sage, sage-fast, ")
