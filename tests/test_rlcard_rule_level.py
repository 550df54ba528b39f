"""RLCard's gin rummy rule agent as the level ``rlcard-rule`` (issue 36, item 6): it decides
through the agent's own ``step`` in our engine, reproducibly given its seed."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("rlcard")

from ginrummy.actions import PASS, TAKE_UPCARD  # noqa: E402
from ginrummy.interop.action_maps import RL_DRAW, RL_PICK_UP  # noqa: E402
from ginrummy.interop.rlcard_rule import RLCardRulePlayer, rlcard_ids  # noqa: E402
from ginrummy.match import Match  # noqa: E402
from ginrummy.melds import deadwood  # noqa: E402
from ginrummy.players import make_player  # noqa: E402
from ginrummy.record import dumps  # noqa: E402
from ginrummy.rules import make_rules  # noqa: E402

ONE_DEAL = make_rules("eaai", {"scoring": "deal"})


def _deal(seed: bytes, check: list[str] | None = None) -> str:
    match = Match.new(ONE_DEAL, ["rlcard", "novice"], seed)
    players = [make_player("rlcard-rule", 7), make_player("novice", 7)]
    assert type(players[0]) is RLCardRulePlayer
    while not match.finished:
        p = match.player_to_act()
        view = match.view(p)
        a = players[p].choose(view, view.legal)
        if p == 0 and check is not None:
            kinds = {x.kind for x in view.legal}
            if "gin" in kinds or "big_gin" in kinds:
                assert a.kind in ("gin", "big_gin")
                check.append("gin")
            elif "knock" in kinds:
                assert a.kind == "knock"  # the agent knocks whenever it may
                check.append("knock")
            elif "discard" in kinds:
                left = [deadwood(view.hand & ~(1 << x.card)) for x in view.legal if x.kind == "discard"]
                assert deadwood(view.hand & ~(1 << a.card)) == min(left)  # the least deadwood left
                check.append("discard")
        match.apply(p, a)
    return dumps(match, date="2000-01-01")


def test_the_offer_maps_to_pick_up_and_draw() -> None:
    match = Match.new(ONE_DEAL, ["a", "b"], b"offer")
    view = match.view(match.player_to_act())
    assert view.phase == "upcard_offer"
    assert rlcard_ids(view, view.legal) == {RL_PICK_UP: TAKE_UPCARD, RL_DRAW: PASS}


def test_plays_the_agents_rules_reproducibly() -> None:
    np.random.seed(123)
    before = np.random.get_state()[1].copy()
    seen: list[str] = []
    records = [_deal(bytes([i]), seen) for i in range(4)]
    assert [_deal(bytes([i])) for i in range(4)] == records  # same seed, same deal
    assert "discard" in seen
    # numpy's global generator is left as it was found
    assert (np.random.get_state()[1] == before).all()


def test_seeded_by_its_rng() -> None:
    match = Match.new(ONE_DEAL, ["a", "b"], b"offer")
    view = match.view(match.player_to_act())
    picks = {RLCardRulePlayer(random.Random(s)).choose(view, view.legal) for s in range(20)}
    assert picks == {TAKE_UPCARD, PASS}  # a random choice, as the agent's own at a draw
