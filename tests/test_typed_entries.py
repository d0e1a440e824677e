"""What the table types rather than picks (engine.Typed): each game's typed entry carries the
engine's own bound, so the dashboard's refusal before sending and the engine's refusal agree; a
number at the bound is taken, one past it refused with words, and the table view lists the entries
beside the offered outcomes."""
from __future__ import annotations

import pytest

from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.rules.games import bottle_bonus, mr_sudsy, vend_machine
from companion.table.session import TableSession


def at_build(game, n=3):
    return game.setup({"names": ["Aki", "Ben", "Chie"][:n]})


def typed_move(entry, value):
    return Move(entry.kind, CHANCE, {**entry.base, entry.arg: [value] * 3 if entry.per_seat else value})


@pytest.mark.parametrize("game", [bottle_bonus, mr_sudsy])
def test_the_end_takes_scores_typed_per_seat_up_to_the_engines_bound(game):
    state = at_build(game)
    [entry] = game.chance(state).typed
    assert (entry.kind, entry.arg, entry.per_seat, entry.least, entry.most) == ("end", "scores", True, 0, game.MAX_SCORE)
    assert entry.to_json() == {"kind": "end", "arg": "scores", "min": 0, "max": game.MAX_SCORE, "per_seat": True,
                               "base": {}}
    ended, _ = game.apply(state, typed_move(entry, entry.most))
    assert ended.phase == "over" and [s.score for s in ended.seats] == [entry.most] * 3
    with pytest.raises(IllegalMove, match="whole numbers"):
        game.apply(state, typed_move(entry, entry.most + 1))
    ended, _ = game.apply(state, Move("end", CHANCE, {"scores": [100, 300, 200]}))
    assert list(ended.winners) == [1]                     # the winners follow the scores typed


def test_vend_machine_types_damage_to_the_unit_and_from_each_hit_up_to_max_damage():
    s = vend_machine.setup({"names": ["Aki", "Ben", "Chie"], "options": {"chain": 0, "hp": 60}})
    s, _ = vend_machine.apply(s, Move("drafted", CHANCE, {"seat": 0}))
    [entry] = vend_machine.chance(s).typed
    assert (entry.kind, entry.arg, entry.least, entry.most) == ("damage", "amount", 1, vend_machine.MAX_DAMAGE)
    hurt, _ = vend_machine.apply(s, typed_move(entry, 7))
    assert hurt.hp == 53
    with pytest.raises(IllegalMove, match="1 to 20"):
        vend_machine.apply(s, typed_move(entry, entry.most + 1))

    s, _ = vend_machine.apply(s, Move("activate", CHANCE, {}))
    s, _ = vend_machine.apply(s, Move("collect", 0, {"crate": "red"}))
    s, _ = vend_machine.apply(s, Move("activate", CHANCE, {}))
    drink = s.ammo[0]
    s, _ = vend_machine.apply(s, Move("fire", 0, {"drinks": [drink]}))
    s, _ = vend_machine.apply(s, Move("drop", CHANCE, {"out": [drink]}))
    hits = vend_machine.chance(s).typed
    assert [(e.kind, dict(e.base)) for e in hits] == [("hit", {"drink": drink, "seat": 1}),
                                                      ("hit", {"drink": drink, "seat": 2})]   # never its own party
    s, _ = vend_machine.apply(s, typed_move(hits[1], 20))
    assert s.damage == (0, 0, 20)


def test_the_table_view_lists_the_typed_entries_beside_the_outcomes(store):
    session = TableSession.create(store, "bottle_bonus", ["Aki", "Ben"], simulated=False, seed=1)
    chance = session.view(None)["chance"]
    assert {"move": {"kind": "end", "player": "chance", "args": {}}} in chance["outcomes"]
    assert chance["typed"] == [{"kind": "end", "arg": "scores", "min": 0, "max": bottle_bonus.MAX_SCORE,
                                "per_seat": True, "base": {}}]
