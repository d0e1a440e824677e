"""The Vend Machine unit for Wash Machine (rule book 002, the add-on): the crates filled by colour,
three drinks per party in a chain, the unit (6 points, 6 HP) that collects a crate's drinks as
ammunition and fires them through the tower; each drink out is a shot entered as a hit (with its
damage) or a miss; the drinks go back to their own crates after the shot."""
from __future__ import annotations

from dataclasses import replace

import pytest

from companion.drinks import DRINK_IDS
from companion.rules.engine import CHANCE, ChanceDrop, IllegalMove, Move
from companion.rules.games import vend_machine as g


def battle(names=("Aki", "Ben"), owner=0, **options):
    s = g.setup({"names": list(names), "options": {"chain": 0, **options}})
    s, _ = g.apply(s, Move("drafted", CHANCE, {"seat": owner}))
    return s


def act(s, move):
    s, _ = g.apply(s, Move("activate", CHANCE, {}))
    return g.apply(s, move)[0]


def test_the_crates_hold_the_36_drinks_by_colour_and_each_party_sets_out_a_chain_of_three():
    """002 Vend Machine, KISTEN & GETRÄNKE: six crates by colour; each player sets 3 drinks in a chain."""
    s = g.setup({"names": ["Aki", "Ben"]})
    assert sorted(s.in_crates()) == sorted(DRINK_IDS)
    assert all(g.colour(d) == c for c in g.CRATES for d in s.crate(c))
    s, _ = g.apply(s, Move("drafted", CHANCE, {"seat": 1}))
    assert s.phase == g.CHAIN and [w.actor for w in g.pending(s)] == [0]
    for seat, drinks in ((0, ("red-tall_can", "red-short_can", "blue-tall_can")),
                         (1, ("mint-tall_can", "white-short_can", "black-tall_can"))):
        for d in drinks:
            s, _ = g.apply(s, Move("chain", seat, {"drink": d}))
    assert s.phase == g.BATTLE and s.chains[1] == ("mint-tall_can", "white-short_can", "black-tall_can")
    assert len(s.in_crates()) == 30
    with pytest.raises(IllegalMove):
        g.apply(s, Move("chain", 0, {"drink": "red-tall_can"}))


def test_the_unit_has_6_points_6_hp_and_three_parties_draft_with_6_points():
    """002 Vend Machine: 6 points, 6 HP, triangle movement, vend attack; three parties draft with 6 instead of 8."""
    v = g.view(battle(), None)
    assert v["vend_unit"]["points"] == 6 and v["vend_unit"]["hp"] == 6 and v["vend_unit"]["movement"] == "triangle"
    assert v["draft_points"] == 8
    assert g.view(battle(("A", "B", "C")), None)["draft_points"] == 6


def test_ending_a_move_at_a_filled_crate_takes_all_its_drinks():
    """002 Vend Machine: ending its move at a crate, the unit takes all the crate's drinks as ammunition."""
    s = battle()
    assert [m.kind for m in g.legal_moves(act(s, Move("move", 0, {})), 0)] == []  # back in battle
    s, _ = g.apply(s, Move("activate", CHANCE, {}))
    assert "fire" not in {m.kind for m in g.legal_moves(s, 0)}   # no ammunition yet: first collect
    s, events = g.apply(s, Move("collect", 0, {"crate": "mint"}))
    assert len(s.ammo) == 6 and s.crate("mint") == () and events[0].data["drinks"] == list(s.ammo)
    assert s.phase == g.BATTLE
    s, _ = g.apply(s, Move("activate", CHANCE, {}))
    assert Move("collect", 0, {"crate": "mint"}) not in g.legal_moves(s, 0)
    with pytest.raises(IllegalMove, match="the mint crate is empty"):
        g.apply(s, Move("collect", 0, {"crate": "mint"}))


def test_a_shot_throws_any_part_of_the_ammo_and_each_drink_out_is_a_shot_entered_as_hit_or_miss():
    """002 Vend Machine, Vend-Angriff: any number of ammo drinks into the tower; each drink out that hits
    an enemy unit is a normal shot with its own damage; the drinks go back to their crates after the shot."""
    s = act(battle(("Aki", "Ben", "Chie")), Move("collect", 0, {"crate": "red"}))
    s, _ = g.apply(s, Move("activate", CHANCE, {}))
    s, _ = g.apply(s, Move("fire", 0, {"drinks": ["red-tall_can", "red-short_can", "red-stubby_can"]}))
    assert g.chance(s) == ChanceDrop("drop", ("red-tall_can", "red-short_can", "red-stubby_can"), ())
    s, _ = g.apply(s, Move("drop", CHANCE, {"out": ["red-tall_can", "red-short_can"]}))
    assert s.phase == g.SHOTS and s.shots == ("red-short_can", "red-tall_can")
    offered = [m for m, _ in g.chance(s).outcomes]
    assert Move("miss", CHANCE, {"drink": "red-short_can"}) in offered
    assert not [m for m in offered if m.args.get("seat") == 0]          # never its own party
    with pytest.raises(IllegalMove):
        g.apply(s, Move("hit", CHANCE, {"drink": "red-short_can", "seat": 0, "damage": 1}))
    s, _ = g.apply(s, Move("hit", CHANCE, {"drink": "red-short_can", "seat": 2, "damage": 2}))
    s, _ = g.apply(s, Move("miss", CHANCE, {"drink": "red-tall_can"}))
    assert s.phase == g.BATTLE and s.damage == (0, 0, 2) and (s.hits, s.misses) == (1, 1)
    assert set(s.crate("red")) == {"red-tall_can", "red-short_can"}          # back in their crate
    assert s.tower.inside == {"red-stubby_can"} and len(s.ammo) == 3          # stuck; the rest still held


def test_a_stuck_drink_that_comes_out_with_a_later_shot_counts_for_that_shot():
    s = act(battle(), Move("collect", 0, {"crate": "blue"}))
    s, _ = g.apply(s, Move("activate", CHANCE, {}))
    s, _ = g.apply(s, Move("fire", 0, {"drinks": ["blue-tall_can"]}))
    s, _ = g.apply(s, Move("drop", CHANCE, {"out": []}))
    assert s.phase == g.BATTLE and s.tower.inside == {"blue-tall_can"}
    for rule, shots in (("count", ("blue-short_can", "blue-tall_can")), ("back", ("blue-short_can",))):
        t = replace(s, options=g.Options(chain=0, stuck_shots=rule))
        t, _ = g.apply(t, Move("activate", CHANCE, {}))
        t, _ = g.apply(t, Move("fire", 0, {"drinks": ["blue-short_can"]}))
        t, _ = g.apply(t, Move("drop", CHANCE, {"out": ["blue-short_can", "blue-tall_can"]}))
        assert t.shots == shots, rule
        assert ("blue-tall_can" in t.crate("blue")) == (rule == "back")   # not a shot: straight back


def test_a_spilled_drink_goes_back_to_its_crate_without_a_shot():
    s = act(battle(), Move("collect", 0, {"crate": "blue"}))
    s, _ = g.apply(s, Move("activate", CHANCE, {}))
    s, _ = g.apply(s, Move("fire", 0, {"drinks": ["blue-tall_can"]}))
    s, _ = g.apply(s, Move("drop", CHANCE, {"out": []}))
    s, _ = g.apply(s, Move("spill", CHANCE, {"out": ["blue-tall_can"]}))
    assert s.crate("blue") == ("blue-tall_can",) and s.hits == s.misses == 0


def test_at_0_hp_the_unit_is_destroyed_and_its_ammo_goes_back():
    s = act(battle(), Move("collect", 0, {"crate": "purple"}))
    s, _ = g.apply(s, Move("damage", CHANCE, {"amount": 4}))
    assert s.hp == 2 and not s.destroyed
    s, events = g.apply(s, Move("damage", CHANCE, {"amount": 3}))
    assert s.hp == 0 and s.destroyed and s.ammo == () and len(s.crate("purple")) == 6
    assert [e.kind for e in events] == ["damaged", "destroyed"]
    assert {m.kind for m, _ in g.chance(s).outcomes} == {"end"}
    s, _ = g.apply(s, Move("end", CHANCE, {"winner": 1}))
    assert g.is_over(s) and g.payouts(s)["winners"] == [1]


def test_refusals_say_what_is_allowed():
    s = battle()
    s, _ = g.apply(s, Move("activate", CHANCE, {}))
    with pytest.raises(IllegalMove, match="not the unit's ammunition"):
        g.apply(s, Move("fire", 0, {"drinks": ["red-tall_can"]}))
    with pytest.raises(IllegalMove, match="crate by its colour"):
        g.apply(s, Move("collect", 0, {"crate": "gold"}))
    with pytest.raises(IllegalMove, match="turn"):
        g.apply(s, Move("collect", 1, {"crate": "red"}))
    with pytest.raises(IllegalMove, match="1 to 20"):
        g.apply(battle(), Move("damage", CHANCE, {"amount": 0}))
