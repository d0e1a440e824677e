"""BOTTLE BONUS (rule book 002, the TOKYO JUTAKU variant): after each round the finisher throws a
drink per opponent, the others take one each, the drinks are one-shot powers by colour, and a blue
drink is a bet on the next round worth +200 at the end when won."""
from __future__ import annotations

import pytest

from companion.rules.engine import CHANCE, ChanceDrop, IllegalMove, Move
from companion.rules.games import bottle_bonus as g


def thrown(s, drinks, out):
    for d in drinks:
        s, _ = g.apply(s, Move("draw", CHANCE, {"drink": d}))
    assert isinstance(g.chance(s), ChanceDrop)
    s, _ = g.apply(s, Move("drop", CHANCE, {"out": list(out)}))
    return s


def test_the_finisher_throws_one_drink_per_opponent_and_the_others_take_one_each():
    """002 BOTTLE BONUS: after the round, draw as many drinks as opponents, throw them, each other player takes one."""
    s = g.setup({"names": ["Aki", "Ben", "Chie"]})
    s, events = g.apply(s, Move("finished", CHANCE, {"seat": 1}))
    assert s.phase == g.DRAW and events[0].data["seat"] == 1
    s = thrown(s, ["red-tall_can", "blue-short_can"], ["red-tall_can", "blue-short_can"])
    # Chie (left of Ben) takes first, then Aki; Ben, the thrower, takes nothing
    assert [w.actor for w in g.pending(s)] == [2]
    with pytest.raises(IllegalMove):
        g.apply(s, Move("take", 2, {"drink": "mint-tall_can"}))          # did not come out
    s, _ = g.apply(s, Move("take", 2, {"drink": "blue-short_can"}))
    assert g.legal_moves(s, 0) == [Move("take", 0, {"drink": "red-tall_can"}), Move("take", 0, {"drink": None})]
    s, _ = g.apply(s, Move("take", 0, {"drink": None}))
    assert s.phase == g.BUILD and s.round == 2 and "red-tall_can" in s.box()   # not taken: back in the box
    assert s.seats[2].held == ("blue-short_can",)


def test_a_stuck_drink_stays_in_the_tower_and_can_come_out_with_a_later_throw():
    s = g.setup({"names": ["Aki", "Ben"]})
    s, _ = g.apply(s, Move("finished", CHANCE, {"seat": 0}))
    s = thrown(s, ["red-tall_can"], [])
    assert s.phase == g.BUILD and s.tower.inside == {"red-tall_can"}
    s, _ = g.apply(s, Move("finished", CHANCE, {"seat": 0}))
    s = thrown(s, ["mint-tall_can"], ["red-tall_can"])
    s, _ = g.apply(s, Move("take", 1, {"drink": "red-tall_can"}))
    assert s.seats[1].held == ("red-tall_can",) and s.tower.inside == {"mint-tall_can"}


def taken(names, seat, drink):
    s = g.setup({"names": names})
    s, _ = g.apply(s, Move("finished", CHANCE, {"seat": (seat + len(names) - 1) % len(names)}))
    others = [d for d in ("black-stubby_can", "white-stubby_can", "mint-stubby_can") if d != drink][:len(names) - 2]
    s = thrown(s, [drink, *others], [drink])
    s, _ = g.apply(s, Move("take", seat, {"drink": drink}))
    while s.phase == g.TAKE:
        w = g.pending(s)[0]
        s, _ = g.apply(s, Move("take", w.actor, {"drink": None}))
    return s


def test_a_power_is_spent_once_at_any_time():
    """002 BOTTLE BONUS, SCHWARZ ... LILA: each colour a power, used once."""
    s = taken(["Aki", "Ben"], 1, "red-tall_can")
    s, events = g.apply(s, Move("spend", 1, {"drink": "red-tall_can"}))
    assert events[0].data == {"seat": 1, "drink": "red-tall_can", "power": "two_pieces"}
    assert s.seats[1].held == () and "red-tall_can" in s.box()
    with pytest.raises(IllegalMove):
        g.apply(s, Move("spend", 1, {"drink": "red-tall_can"}))


def test_a_blue_bet_won_is_kept_for_200_and_a_lost_one_is_gone():
    """002 BOTTLE BONUS, BLAU: bet before a round; win it and keep the drink for +200 at the end."""
    s = taken(["Aki", "Ben"], 1, "blue-tall_can")
    s, _ = g.apply(s, Move("spend", 1, {"drink": "blue-tall_can"}))
    assert s.seats[1].bet == "blue-tall_can"
    s, events = g.apply(s, Move("finished", CHANCE, {"seat": 1}))        # Ben wins the round he bet on
    assert events[0].data["bets"] == [{"seat": 1, "won": True}] and s.seats[1].kept == ("blue-tall_can",)
    lost = taken(["Aki", "Ben"], 1, "blue-short_can")
    lost, _ = g.apply(lost, Move("spend", 1, {"drink": "blue-short_can"}))
    lost, _ = g.apply(lost, Move("finished", CHANCE, {"seat": 0}))
    assert lost.seats[1].kept == () and "blue-short_can" in lost.box()


def test_the_end_adds_the_blue_drinks_kept_to_tokyo_jutakus_scores():
    s = taken(["Aki", "Ben"], 1, "blue-tall_can")
    s, _ = g.apply(s, Move("spend", 1, {"drink": "blue-tall_can"}))
    s, _ = g.apply(s, Move("finished", CHANCE, {"seat": 1}))
    s = thrown(s, ["white-tall_can"], [])                                # nothing came out
    with pytest.raises(IllegalMove):
        g.apply(s, Move("end", CHANCE, {"scores": [1000]}))              # one score per player
    done, events = g.apply(s, Move("end", CHANCE, {"scores": [1500, 1400]}))
    assert g.payouts(done)["yen"] == [1500, 1600] and done.winners == (1,)
    bonus_only, _ = g.apply(s, Move("end", CHANCE, {}))
    assert g.payouts(bonus_only)["yen"] == [0, 200] and events[0].data["with_scores"] is True
