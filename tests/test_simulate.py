"""Computer-vs-computer simulation (ginrummy.analysis.simulate) and ``gin simulate``: determinism,
consistent counts, fair rotation of the first dealer (R3.1) and three-hand roles (R10.1), the
Wilson interval.  Commands run in-process via ``main([...])``."""

from __future__ import annotations

import json
import math

import pytest

from ginrummy.analysis.simulate import play_game, simulate, wilson_interval
from ginrummy.cli.main import main
from ginrummy.rules import PRESETS

STANDARD = PRESETS["standard"]
# short games keep the tests fast: target 25 needs about one or two deals
SHORT = ("--set", "target=25")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def sim_json(capsys, *argv: str) -> dict:
    rc, out, err = run(capsys, "simulate", "--json", *argv)
    assert rc == 0, err
    assert err == ""
    return json.loads(out)


# -- Wilson interval ---------------------------------------------------------------------------

def test_wilson_interval_hand_computed():
    # 8 of 10, z = 1.96: p = 0.8, z² = 3.8416, denominator 1.38416;
    # centre = (0.8 + 0.19208) / 1.38416 = 0.716738;
    # half = 1.96 * sqrt(0.016 + 0.009604) / 1.38416 = 0.226581  ->  (0.490157, 0.943319)
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(0.490157, abs=1e-6)
    assert hi == pytest.approx(0.943319, abs=1e-6)
    # 0 of 10: centre = half = 0.19208 / 1.38416 = 0.138770: (0, 0.277540)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.277540, abs=1e-6)
    # 10 of 10 mirrors it
    lo, hi = wilson_interval(10, 10)
    assert lo == pytest.approx(1 - 0.277540, abs=1e-6) and hi == 1.0
    # 50 of 100 is symmetric about 0.5: half = 1.96 * sqrt(0.0025 + 0.00009604) / 1.038416
    lo, hi = wilson_interval(50, 100)
    half = 1.96 * math.sqrt(0.0025 + 0.000096040) / 1.038416
    assert (lo, hi) == (pytest.approx(0.5 - half, abs=1e-9), pytest.approx(0.5 + half, abs=1e-9))
    assert half == pytest.approx(0.096170, abs=1e-6)


def test_wilson_interval_edges_and_errors():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    # z = 2.576 (99%) is wider than 95%
    lo99, hi99 = wilson_interval(8, 10, z=2.576)
    lo95, hi95 = wilson_interval(8, 10)
    assert lo99 < lo95 and hi99 > hi95
    for bad in ((11, 10), (-1, 10), (1.0, 10), (1, -1)):
        with pytest.raises(ValueError):
            wilson_interval(*bad)
    with pytest.raises(ValueError):
        wilson_interval(1, 2, z=0)


# -- the engine-side runner ----------------------------------------------------------------------

def test_simulate_deterministic_and_consistent():
    a = simulate(STANDARD.replace(target=25), ["novice", "random"], 6, seed=3)
    b = simulate(STANDARD.replace(target=25), ["novice", "random"], 6, seed=3)
    assert a == b and a.to_json() == b.to_json()
    assert sum(a.wins) == a.games == 6
    assert a.knocks + a.gins + a.undercuts + a.draws == a.deals >= 6
    assert a.points_per_deal == tuple(p / a.deals for p in a.points)
    assert a.interval95 == tuple(wilson_interval(w, 6) for w in a.wins)


def test_first_dealer_alternates_between_levels():
    # R3.1: the first dealer of game i is the level at position i % 2 (fair rotation).
    rules = STANDARD.replace(target=25)
    for i in range(4):
        game = play_game(rules, ["novice", "random"], i, seed=11)
        first = game.match.deals[0]
        dealer_player = first.seat_players[first.dealer]
        assert game.order.index(dealer_player) == i % 2
        assert game.levels[dealer_player] == ["novice", "random"][i % 2]


def test_three_hand_roles_rotate():
    # R10.1: the level at position i % 3 starts in the box, the next as captain.
    rules = STANDARD.replace(target=25, players=3)
    for i in range(3):
        game = play_game(rules, ["novice", "random", "novice"], i, seed=5)
        box, captain, out = game.match.deals[0].seat_players + (None,)
        assert game.order[i % 3] == box
        assert game.order[(i + 1) % 3] == captain


def test_on_game_receives_every_finished_match():
    seen = []
    summary = simulate(STANDARD.replace(target=25), ["novice", "novice"], 3, seed=1, on_game=seen.append)
    assert [g.index for g in seen] == [0, 1, 2]
    assert all(g.match.finished for g in seen)
    assert sum(len(g.match.deals) for g in seen) == summary.deals
    # equal levels get distinct names in the match
    assert sorted(seen[0].match.names) == ["novice-1", "novice-2"]


def test_simulate_rejects_bad_arguments():
    with pytest.raises(ValueError, match="2 or 3 players"):
        simulate(STANDARD, ["novice"], 1)
    with pytest.raises(ValueError, match="unknown player"):
        simulate(STANDARD, ["novice", "grandmaster"], 1)
    with pytest.raises(ValueError, match="games"):
        simulate(STANDARD, ["novice", "novice"], -1)
    with pytest.raises(ValueError, match="two players"):
        simulate(PRESETS["hollywood"], ["novice", "novice", "novice"], 1)


# -- gin simulate --------------------------------------------------------------------------------

def test_cli_same_seed_same_json(capsys):
    a = sim_json(capsys, "--players", "novice,random", "--games", "4", "--seed", "7", *SHORT)
    b = sim_json(capsys, "--players", "novice,random", "--games", "4", "--seed", "7", *SHORT)
    assert a == b
    assert list(a) == ["players", "games", "wins", "win_rate", "interval95", "deals", "knocks", "gins",
                       "undercuts", "draws", "points_per_deal"]
    assert a["players"] == ["novice", "random"] and a["games"] == 4
    # the JSON is the engine's summary
    assert a == simulate(STANDARD.replace(target=25), ["novice", "random"], 4, seed=7).to_json()


def test_cli_counts_consistent(capsys):
    data = sim_json(capsys, "--players", "novice,novice", "--games", "6", *SHORT)
    assert sum(data["wins"]) == data["games"] == 6
    assert data["win_rate"] == [w / 6 for w in data["wins"]]
    assert data["interval95"] == [list(wilson_interval(w, 6)) for w in data["wins"]]
    assert data["knocks"] + data["gins"] + data["undercuts"] + data["draws"] == data["deals"]
    # points per deal times deals is a whole number of points for each player
    for ppd in data["points_per_deal"]:
        assert ppd * data["deals"] == pytest.approx(round(ppd * data["deals"]), abs=1e-6)


def test_cli_three_hand_automatic(capsys):
    data = sim_json(capsys, "--players", "novice,novice,random", "--games", "3", *SHORT)
    assert len(data["wins"]) == len(data["interval95"]) == len(data["points_per_deal"]) == 3
    assert sum(data["wins"]) == 3


def test_cli_readable_summary(capsys):
    rc, out, err = run(capsys, "simulate", "--players", "novice,random", "--games", "2", *SHORT)
    assert rc == 0
    assert err == ""  # no progress bar when stderr is not a terminal
    assert "1. novice" in out and "2. random" in out and " deals: " in out


def test_cli_records(capsys, tmp_path):
    target = tmp_path / "records"
    data = sim_json(capsys, "--players", "novice,random", "--games", "3", "--records", str(target), *SHORT)
    files = sorted(p.name for p in target.iterdir())
    assert files == ["game-0001.gin", "game-0002.gin", "game-0003.gin"]
    from ginrummy.record import loads, verify

    deals = 0
    for name in files:
        text = (target / name).read_text(encoding="utf-8")
        report = verify(text)  # replays every action, checks the seeds (DESIGN "Fair shuffling")
        assert report.ok, report.error
        record = loads(text)
        assert sorted(record.names) == ["novice", "random"] and record.finished is not None
        deals += len(record.deals)
    assert deals == data["deals"]


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--players", "novice,grandmaster"], "unknown player 'grandmaster'"),
        (["--players", "novice"], "give 2 or 3 computer levels"),
        (["--players", "novice,novice,novice,novice"], "give 2 or 3 computer levels"),
        (["--games", "-1"], "--games -1"),
        (["--games", "0"], "--games 0: the number of games is from 1 to 1,000,000,000"),
        (["--games", "99999999999999999999999"], "--games 99999999999999999999999: the number of games is from 1 to 1,000,000,000"),
        (["--games", "ten"], "Invalid value for '--games': a whole number is needed (digits only, e.g. 1000)"),
        (["--games", "1e3"], "Invalid value for '--games': a whole number is needed (digits only, e.g. 1000)"),
        (["--seed", "x"], "Invalid value for '--seed': a whole number is needed"),
        (["--set", "players=3"], "three players"),
        (["--preset", "hollywood", "--players", "novice,novice,random"], "two players (R10.6)"),
        (["--set", "stock_end=sometimes"], "stock_end"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, needle):
    rc, out, err = run(capsys, "simulate", *argv)
    assert rc == 2
    assert out == ""
    assert err.startswith("gin: error: ") and err.count("\n") == 1
    assert needle in err


def test_a_bad_number_says_what_kind_of_value_the_option_takes(capsys):
    """Typer's 'Input should be a valid number' is said in the project's words, for any command."""
    rc, out, err = run(capsys, "serve", "--bot-delay", "soon")
    assert (rc, out) == (2, "")
    assert err == "gin: error: Invalid value for '--bot-delay': a number is needed (e.g. 0.5)\n"


def test_cli_records_path_is_a_file(capsys, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    rc, out, err = run(capsys, "simulate", "--games", "1", "--records", str(f))
    assert rc == 2 and err.startswith("gin: error: --records") and err.count("\n") == 1


def test_the_summary_in_a_file_keeps_its_lines_whole(capsys):
    """Written to a pipe or a file, the summary's last line is one line (Rich would wrap it at
    80 columns): the counts of the 213 deals of 20 games with seed 1."""
    rc, out, err = run(capsys, "simulate", "--games", "20", "--seed", "1")
    assert rc == 0
    last = out.rstrip("\n").splitlines()[-1]
    assert last == "213 deals: 201 knocks won (94.4%), 3 gins (1.4%), 9 undercuts (4.2%), 0 draws (0.0%)"
    assert out.splitlines()[0].strip() == "20 games, seed 1"


def test_the_summary_says_one_game_and_one_deal_in_the_singular(capsys):
    """Every count agrees with its noun: one game of one deal (a single deal, R13) is "1 game",
    "1 deal", "1 knock won", and none is "0 gins" (the plural forms of the catalogs, n_)."""
    rc, out, err = run(capsys, "simulate", "--games", "1", "--preset", "single", "--seed", "1")
    assert rc == 0 and err == ""
    lines = out.rstrip("\n").splitlines()
    assert lines[0].strip() == "1 game, seed 1"
    assert lines[-1] == "1 deal: 1 knock won (100.0%), 0 gins (0.0%), 0 undercuts (0.0%), 0 draws (0.0%)"
