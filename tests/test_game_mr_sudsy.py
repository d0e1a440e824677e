"""Mr. Sudsy's laundromat with the tower (rule book 002, the add-on): pay 200 and throw a detergent
bottle; out, it is the buyer's; stuck, it stays until another bottle pushes it out; a used bottle
goes back beside the machine. The laundromat game's end is entered by the table."""
from __future__ import annotations

import pytest

from companion.rules.engine import CHANCE, ChanceDrop, IllegalMove, Move
from companion.rules.games import mr_sudsy as g


def visiting(seat=0, **options):
    s = g.setup({"names": ["Aki", "Ben", "Chie"], "options": options})
    s, _ = g.apply(s, Move("visit", CHANCE, {"seat": seat}))
    return s


def bought(s, out):
    seat = s.visitor
    s, _ = g.apply(s, g.legal_moves(s, seat)[0])
    assert isinstance(g.chance(s), ChanceDrop)
    s, events = g.apply(s, Move("drop", CHANCE, {"out": list(out)}))
    return s, events


def test_buying_costs_200_to_the_bank_and_a_bottle_that_comes_out_is_the_buyers():
    """002 Mr. Sudsy, WASCHMITTEL KAUFEN: pay 200 yen, throw a bottle from beside the machine; out, keep it."""
    s = visiting(1)
    assert g.legal_moves(s, 1)[0] == Move("buy", 1, {"bottle": "detergent-1"})
    assert g.move_info(s, g.legal_moves(s, 1)[0]).cost == 200
    s, _ = g.apply(s, Move("buy", 1, {"bottle": "detergent-1"}))
    assert g.chance(s) == ChanceDrop("drop", ("detergent-1",), ())
    s, _ = g.apply(s, Move("drop", CHANCE, {"out": ["detergent-1"]}))
    assert s.seats[1].yen == 800 and s.bank == 200 and s.seats[1].held == ("detergent-1",)
    assert "detergent-1" not in s.beside and s.phase == g.SHOP


def test_a_stuck_bottle_stays_until_another_bottle_pushes_it_out():
    """002 Mr. Sudsy, WASCHMITTEL KAUFEN: a stuck bottle stays inside until another bottle pushes it out."""
    s = visiting(0)
    s, _ = bought(s, [])
    assert s.tower.inside == {"detergent-1"} and s.seats[0].held == ()
    # the next bottle may push it out: the drop awaited lists it as a candidate
    s, _ = g.apply(s, Move("buy", 0, {"bottle": "detergent-2"}))
    assert g.chance(s) == ChanceDrop("drop", ("detergent-2",), ("detergent-1",))
    s, events = g.apply(s, Move("drop", CHANCE, {"out": ["detergent-1", "detergent-2"]}))
    assert s.seats[0].held == ("detergent-1", "detergent-2") and not s.tower.inside
    assert events[0].data["freed"] == ["detergent-1"]


def test_a_stuck_bottle_never_falls_out_on_its_own():
    s, _ = bought(visiting(0), [])
    with pytest.raises(IllegalMove, match="cannot fall out on its own"):
        s.tower.spill(("detergent-1",))
    assert s.tower.loose == ()


def test_a_pushed_out_bottle_goes_to_the_thrower_or_back_to_its_buyer():
    for rule, owner in (("thrower", 1), ("buyer", 0)):
        s, _ = bought(visiting(0, pushed_out_to=rule), [])
        s, _ = g.apply(s, Move("leave", 0, {}))
        s, _ = g.apply(s, Move("visit", CHANCE, {"seat": 1}))
        s, _ = bought(s, ["detergent-1"])
        assert s.seats[owner].held == ("detergent-1",), rule
        assert s.tower.inside == {"detergent-2"}


def test_a_used_bottle_goes_back_beside_the_machine_to_be_bought_again():
    """002 Mr. Sudsy: used detergent bottles are put back beside the machine, buyable again."""
    s, _ = bought(visiting(0, bottles=1), ["detergent-1"])
    assert s.beside == () and g.legal_moves(s, 0)[0].kind == "use"   # nothing left to buy
    s, events = g.apply(s, Move("use", 0, {"bottle": "detergent-1"}))
    assert s.beside == ("detergent-1",) and s.seats[0].used == 1 and events[0].kind == "used"
    assert g.legal_moves(s, 0)[0] == Move("buy", 0, {"bottle": "detergent-1"})


def test_refusals_change_nothing_and_say_what_is_allowed():
    s = visiting(0, start_yen=100)
    with pytest.raises(IllegalMove, match="costs 200 yen and you have 100"):
        g.apply(s, Move("buy", 0, {"bottle": "detergent-1"}))
    assert [m.kind for m in g.legal_moves(s, 0)] == ["leave"]
    s = visiting(0)
    with pytest.raises(IllegalMove, match="not beside the machine"):
        g.apply(s, Move("buy", 0, {"bottle": "detergent-9"}))
    with pytest.raises(IllegalMove, match="not a bottle you hold"):
        g.apply(s, Move("use", 0, {"bottle": "detergent-1"}))
    with pytest.raises(IllegalMove, match="turn"):
        g.apply(s, Move("buy", 1, {"bottle": "detergent-1"}))
    s, _ = g.apply(s, Move("buy", 0, {"bottle": "detergent-1"}))
    with pytest.raises(IllegalMove, match="cannot have come out"):
        g.apply(s, Move("drop", CHANCE, {"out": ["red-tall_can"]}))
    assert s.flying == "detergent-1" and s.bank == 200


def test_a_drink_never_pushes_out_a_stuck_bottle():
    from companion.rules.tower import Tower
    t, _ = Tower().drop(("detergent-1",), ())
    assert t.freeable_by(("red-tall_can",)) == ()
    with pytest.raises(IllegalMove, match="pushed out only by another detergent bottle"):
        t.drop(("red-tall_can",), ("detergent-1",))
    t2, drop = t.drop(("detergent-2",), ("detergent-1",))
    assert drop.freed == ("detergent-1",) and t2.inside == {"detergent-2"}


def test_the_table_enters_the_end_with_the_laundromat_scores():
    s = g.setup({"names": ["Aki", "Ben"]})
    assert Move("end", CHANCE, {}) in g.chance(s).offer
    with pytest.raises(IllegalMove, match="2 whole numbers"):
        g.apply(s, Move("end", CHANCE, {"scores": [3]}))
    s, events = g.apply(s, Move("end", CHANCE, {"scores": [12, 15]}))
    assert g.is_over(s) and g.payouts(s)["winners"] == [1] and g.payouts(s)["projected"] == [12, 15]
    assert g.payouts(s)["yen"] == [1000, 1000]


def test_the_game_ends_after_the_visits_it_was_given():
    s = g.setup({"names": ["Aki"], "options": {"max_visits": 1}})
    s, _ = g.apply(s, Move("visit", CHANCE, {"seat": 0}))
    s, _ = g.apply(s, Move("leave", 0, {}))
    assert g.is_over(s) and g.payouts(s)["winners"] == [0]
