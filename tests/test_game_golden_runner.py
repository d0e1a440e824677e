"""The golden-ball runner race (rule book 002; no title in our copy): the runner against the crate
players, teams at five to seven, one full crate enough for a team, the times stamped by the
table's clock (not the engine's), several races with the runner's role passing on."""
from __future__ import annotations

import pytest

from companion.rules.engine import IllegalMove, Move
from companion.rules.games import golden_runner as g
from companion.table.session import TableSession
from companion.table.store import EventStore


def test_the_first_side_done_wins_and_its_time_is_the_difference_of_the_stamps():
    """002 The golden-ball runner race, SPIELABLAUF: whoever finishes first wins."""
    s = g.setup({"names": ["Aki", "Ben", "Chie"]})
    assert [w.actor for w in g.pending(s)] == [0]                 # the runner's side starts the race
    s, events = g.apply(s, Move("go", 0, {"at_ms": 5_000}))
    assert {w.actor for w in g.pending(s)} == {0, 1, 2} and events[0].data["runner"] == 0
    s, events = g.apply(s, Move("done", 0, {"at_ms": 47_250}))
    assert events[0].data == {"race": 1, "seat": 0, "winners": [0], "side": "runner", "elapsed_ms": 42_250}
    assert s.phase == g.OVER and s.winners == (0,) and g.payouts(s)["points"] == [1, 0, 0]


def test_from_five_players_the_crate_players_form_two_teams_and_one_full_crate_wins_for_all():
    """002 The golden-ball runner race: at 5-7 players two teams; one full crate is enough."""
    s = g.setup({"names": list("ABCDE"), "options": {"runner": 4}})
    assert g.teams(s) == ((0, 2), (1, 3))
    s, _ = g.apply(s, Move("go", 4, {}))
    s, events = g.apply(s, Move("done", 2, {}))
    assert events[0].data["winners"] == [0, 2] and events[0].data["elapsed_ms"] is None
    four = g.setup({"names": list("ABCD")})
    assert g.teams(four) == ((1,), (2,), (3,))                    # under five: each crate player alone
    with pytest.raises(IllegalMove):
        g.setup({"names": list("ABCDE"), "options": {"teams": [[1, 2], [3]]}})   # seat 4 left out


def test_a_listed_crate_must_hold_one_of_each_colour_and_shape():
    s = g.setup({"names": ["Aki", "Ben"]})
    s, _ = g.apply(s, Move("go", 0, {}))
    wrong = ["red-tall_can", "blue-short_can", "mint-stubby_can", "white-square_bottle", "black-tallest_bottle",
             "red-not_tallest_bottle"]                            # red twice, no purple
    with pytest.raises(IllegalMove) as refused:
        g.apply(s, Move("done", 1, {"drinks": wrong}))
    assert "one of each colour" in refused.value.reason
    right = wrong[:5] + ["purple-not_tallest_bottle"]
    s, events = g.apply(s, Move("done", 1, {"drinks": right}))
    assert events[0].data["side"] == "crates" and s.winners == (1,)


def test_several_races_pass_the_runners_role_on_and_count_the_wins():
    s = g.setup({"names": ["Aki", "Ben", "Chie"], "options": {"races": 3}})
    for runner, finisher in ((0, 1), (1, 1), (2, 0)):
        assert s.runner == runner
        s, _ = g.apply(s, Move("go", runner, {}))
        s, _ = g.apply(s, Move("done", finisher, {}))
    # race 1: Ben (a crate); race 2: Ben as the runner; race 3: Aki (a crate)
    assert g.points(s) == [1, 2, 0] and s.winners == (1,) and s.phase == g.OVER


def test_the_table_stamps_the_moments_with_its_own_clock_whatever_a_device_sends(tmp_path):
    """The service keeps the time: a device's own at_ms is replaced by the table's clock."""
    store = EventStore(tmp_path / "t.sqlite")
    session = TableSession.create(store, "golden_runner", ["Aki", "Ben"])
    session.submit(Move("go", 0, {"at_ms": 1}), viewer=None)
    session.submit(Move("done", 1, {"at_ms": 2}), viewer=None)
    race = session.state.races[0]
    assert race.elapsed_ms is not None and 0 <= race.elapsed_ms < 60_000
    stamps = [r["move"]["args"]["at_ms"] for r in session.records if r.get("type") == "move"]
    assert all(x > 1_600_000_000_000 for x in stamps)            # the wall clock, not the device's 1 and 2
