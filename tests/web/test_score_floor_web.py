"""The web scorekeeper (``POST /api/sheet``) refuses a won deal below the fewest points a win
scores under its rules (``scoring.min_deal_score``: 1 by default, R6.2; 0 with a 0 bonus,
R6.1, R6.3), naming the allowed range."""

from __future__ import annotations


def test_web_scorekeeper_refuses_a_win_of_0(client):
    body = {"names": ["Ann", "Bob"], "results": ["Ann:0", "Ann:100"]}
    r = client.post("/api/sheet", json=body)
    assert r.status_code == 400
    assert r.json()["error"] == (
        "deal result 'Ann:0': 0 points is less than a won deal scores under these rules "
        "(allowed: 1 to 123 points; a deal nobody won is a draw, R6, R7)"
    )
    r = client.post("/api/sheet", json={**body, "rules": {"undercut_bonus": 0}})
    assert r.status_code == 200, r.text
    assert r.json()["games"][0]["deals_won"] == {"Ann": 2, "Bob": 0}
