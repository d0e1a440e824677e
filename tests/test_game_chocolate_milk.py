"""CHOCOLATE MILK, one test per rule, driven with explicit moves (chance included)."""

import copy
import json
import random
from dataclasses import replace

import pytest

from companion.rules.engine import CHANCE, ChanceChoice, ChanceDrop, IllegalMove, Move, Pending
from companion.rules.games import GAMES
from companion.rules.games import chocolate_milk as cm


def chance(kind, **args):
    return Move(kind, CHANCE, args)


# The market: cell -> drinks (outer cards one each, the centre two).
MARKET = {0: "red-tall_can", 1: "blue-tall_can", 2: "mint-tall_can", 3: "white-tall_can",
          5: "black-tall_can", 6: "purple-tall_can", 7: "red-short_can", 8: "blue-short_can"}
CENTRE = ("mint-short_can", "white-short_can")


def game(n=3, start=0, rules=1, **options):
    """A game with the market laid out, stored under rules version ``rules`` (a log without one: 1)."""
    state = cm.setup({"names": [f"P{i + 1}" for i in range(n)], "start_player": start, "options": options,
                      "rules": rules})
    for cell in cm.FILL_ORDER[:8]:
        state, _ = cm.apply(state, chance("place", cell=cell, drink=MARKET[cell]))
    for d in CENTRE:
        state, _ = cm.apply(state, chance("place", cell=4, drink=d))
    return state


def play(state, *moves):
    for m in moves:
        state, _ = cm.apply(state, m)
    return state


def yen(state):
    return [s.yen for s in state.seats]


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        cm.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


def buy(state, p, to, d, refill, out=True, crate=0):
    state = play(state, Move("buy", p, {"to": to, "drink": d, "crate": crate}), chance("refill", drink=refill))
    if state.phase == cm.DROP:
        state = play(state, chance("drop", out=(d,) if out else ()))
    return state


def with_crates(state, p, *crates):
    seats = list(state.seats)
    seats[p] = replace(seats[p], crates=tuple(tuple(c) for c in crates))
    return replace(state, seats=tuple(seats), supply=state.supply - {d for c in crates for d in c})


# --- setup ------------------------------------------------------------------------------------

def test_registered():
    assert GAMES["chocolate_milk"] is cm.GAME


def test_setup_market_one_drink_per_outer_card_two_in_the_centre():
    state = cm.setup({"names": ["A", "B", "C"]})
    assert state.phase == cm.FILL and cm.pending(state) == [Pending(CHANCE)]
    assert cm.chance(state).outcomes[0][0].args["cell"] == 0
    assert len(cm.chance(state).outcomes) == 36
    state = game(3)
    assert [len(c) for c in state.grid] == [1, 1, 1, 1, 2, 1, 1, 1, 1]
    assert all(s.pos == 4 and s.yen == 500 and s.crates == ((),) for s in state.seats)
    assert all(y == 0 for _, y in state.prices) and state.crates_left == 3
    assert len(state.supply) == 26


def test_setup_random_start_player_after_the_market():
    state = cm.setup({"names": ["A", "B"]})
    for _ in range(10):
        state = play(state, cm.chance(state).outcomes[0][0])
    assert state.phase == cm.START
    state = play(state, chance("start_player", seat=1))
    assert state.phase == cm.TURN and state.player == 1


# --- moving and buying -------------------------------------------------------------------------

def test_move_one_card_and_buy_for_100_raising_its_colour_and_shape_cards():
    state = game(3)
    state = play(state, Move("buy", 0, {"to": 0, "drink": "red-tall_can", "crate": 0}))
    # 500 - 100 = 400; 100 on the red card and 100 on the tall can card
    assert yen(state)[0] == 400 and state.price("red") == 100 and state.price("tall_can") == 100
    assert state.seats[0].pos == 0 and state.grid[0] == ()
    # the card is refilled at once, at random from the supply
    assert state.phase == cm.REFILL and len(cm.chance(state).outcomes) == 26
    state = play(state, chance("refill", drink="purple-stubby_can"))
    assert state.grid[0] == ("purple-stubby_can",)
    spec = cm.chance(state)
    assert isinstance(spec, ChanceDrop) and spec.thrown == ("red-tall_can",)
    state = play(state, chance("drop", out=("red-tall_can",)))
    assert state.seats[0].crates == (("red-tall_can",),) and state.player == 1


def test_the_cards_rise_only_when_the_bought_drink_comes_out():
    """002 CHOCOLATE MILK: SPIELABLAUF (the first of the three actions). The 100 yen go onto the
    drink's colour card and shape card after it has come out of the tower into the buyer's crate;
    a drink that sticks raises no card, nor does it when a later throw pushes it out for another
    player. A game stored under rules version 1 raised the cards on every purchase."""
    assert game(2).options.rise_when == "buy" and game(2, rules=2).options.rise_when == "out"
    stuck = buy(game(3, rules=2), 0, 0, "red-tall_can", "purple-stubby_can", out=False)
    assert stuck.tower.inside == {"red-tall_can"} and yen(stuck)[0] == 400
    assert all(y == 0 for _, y in stuck.prices) and stuck.bank == 100
    # pushed out by seat 1's throw: seat 1's drink (blue tall can) raises its cards, the red one none
    pushed = play(stuck, Move("buy", 1, {"to": 1, "drink": "blue-tall_can", "crate": 0}),
                  chance("refill", drink="purple-short_can"), chance("drop", out=("blue-tall_can", "red-tall_can")))
    assert set(pushed.seats[1].crates[0]) == {"blue-tall_can", "red-tall_can"}
    assert {c: y for c, y in pushed.prices if y} == {"blue": 100, "tall_can": 100}
    came_out = buy(game(3, rules=2), 0, 0, "red-tall_can", "purple-stubby_can")
    assert came_out.price("red") == 100 and came_out.price("tall_can") == 100 and came_out.bank == 100 - 200
    # rules version 1: the cards rose although the drink stuck
    earlier = buy(game(3), 0, 0, "red-tall_can", "purple-stubby_can", out=False)
    assert earlier.price("red") == 100 and earlier.price("tall_can") == 100


def test_a_drink_that_sticks_stays_in_the_tower_and_can_be_pushed_out_later():
    state = buy(game(3), 0, 0, "red-tall_can", "purple-stubby_can", out=False)
    assert state.tower.inside == {"red-tall_can"} and state.seats[0].crates == ((),)
    state = buy(state, 1, 1, "blue-tall_can", "purple-short_can")
    state = play(state, Move("buy", 2, {"to": 2, "drink": "mint-tall_can", "crate": 0}),
                 chance("refill", drink="purple-square_bottle"))
    state = play(state, chance("drop", out=("mint-tall_can", "red-tall_can")))
    assert set(state.seats[2].crates[0]) == {"mint-tall_can", "red-tall_can"}


def test_move_exactly_one_card_also_diagonally():
    state = play(buy(game(2), 0, 0, "red-tall_can", "purple-stubby_can"), Move("buy", 1, {
        "to": 8, "drink": "blue-short_can", "crate": 0}), chance("refill", drink="purple-short_can"),
        chance("drop", out=()))
    assert state.seats[0].pos == 0
    assert_illegal(state, Move("buy", 0, {"to": 2, "drink": "mint-tall_can", "crate": 0}), "not next to it")
    assert_illegal(state, Move("buy", 0, {"to": 0, "drink": "purple-stubby_can", "crate": 0}), "not next to it")
    assert {m.args["to"] for m in cm.legal_moves(state, 0) if m.kind == "buy"} == {1, 3, 4}


def test_buy_needs_100_and_a_crate_with_room():
    state = game(2, start_yen=0)
    assert not [m for m in cm.legal_moves(state, 0) if m.kind == "buy"]
    assert_illegal(state, Move("buy", 0, {"to": 0, "drink": "red-tall_can", "crate": 0}), "costs 100")
    state = with_crates(game(2), 0, ["white-stubby_can", "white-square_bottle", "white-not_tallest_bottle",
                                     "white-tallest_bottle", "black-stubby_can", "black-short_can"])
    assert_illegal(state, Move("buy", 0, {"to": 0, "drink": "red-tall_can", "crate": 0}), "free slot")
    assert_illegal(game(2), Move("buy", 0, {"to": 0, "drink": "blue-tall_can", "crate": 0}), "not on card 0")


def test_strategic_variant_without_the_tower():
    state = play(game(2, use_tower=False), Move("buy", 0, {"to": 0, "drink": "red-tall_can", "crate": 0}),
                 chance("refill", drink="purple-stubby_can"))
    assert state.seats[0].crates == (("red-tall_can",),) and state.player == 1


def test_refill_by_dice_rule_book_example():
    """Worked example: 002 CHOCOLATE MILK, Nachfüllen. A 3 then a 6 names the black short can (in
    that book's card rows); without a black short can, the black tallest bottle, the next shape
    card to the right."""
    colour_row = ("white", "mint", "black", "blue", "red", "purple")
    shape_row = ("tallest_bottle", "stubby_can", "tall_can", "square_bottle", "not_tallest_bottle", "short_can")
    supply = {d.id for d in cm.ALL_DRINKS}
    assert cm.dice_refill(supply, 3, 6, colour_row, shape_row) == "black-short_can"
    assert cm.dice_refill(supply - {"black-short_can"}, 3, 6, colour_row, shape_row) == "black-tallest_bottle"
    # a colour no longer in the supply moves on to the next colour card to the right
    no_black = {d for d in supply if not d.startswith("black")}
    assert cm.dice_refill(no_black, 3, 6, colour_row, shape_row) == "blue-short_can"


def test_refill_by_dice_gives_the_odds_of_two_dice():
    state = play(game(2, refill="dice"), Move("buy", 0, {"to": 0, "drink": "red-tall_can", "crate": 0}))
    spec = cm.chance(state)
    assert isinstance(spec, ChanceChoice) and abs(sum(p for _, p in spec.outcomes) - 1) < 1e-9
    odds = {m.args["drink"]: p for m, p in spec.outcomes}
    assert odds["black-stubby_can"] == pytest.approx(1 / 36)
    # red short can (on the market) and red tall can (just bought) are not in the supply: a red
    # roll with the shape die on short, tall or square names the red square bottle: 3 / 36
    assert "red-tall_can" not in odds and odds["red-square_bottle"] == pytest.approx(3 / 36)


# --- selling ------------------------------------------------------------------------------------

def test_sell_example_two_mint_drinks_at_200_then_the_card_is_0():
    """Worked example: 002 CHOCOLATE MILK, Spielablauf (selling). Two mint drinks sold for 200
    each; the mint card is back to 0."""
    state = with_crates(game(2), 0, ["mint-stubby_can", "mint-square_bottle", "red-stubby_can"])
    state = replace(state, prices=tuple((c, 200 if c == "mint" else y) for c, y in state.prices), bank=-200)
    state = play(state, Move("sell", 0, {"card": "mint", "drinks": ("mint-stubby_can", "mint-square_bottle")}))
    # 500 + 2 x 200 = 900; the 200 on the mint card go back to the bank
    assert yen(state)[0] == 900 and state.price("mint") == 0
    assert state.seats[0].crates == (("red-stubby_can",),)
    assert {"mint-stubby_can", "mint-square_bottle"} <= state.supply
    assert state.bank == -200 - 400 + 200


def test_sell_only_drinks_that_match_the_one_card():
    state = with_crates(game(2), 0, ["mint-stubby_can", "red-stubby_can"])
    assert_illegal(state, Move("sell", 0, {"card": "mint", "drinks": ("mint-stubby_can", "red-stubby_can")}),
                   "does not match the mint card")
    assert_illegal(state, Move("sell", 0, {"card": "mint", "drinks": ("mint-tall_can",)}), "not in your crates")
    # against the stubby can card both may go
    state = play(state, Move("sell", 0, {"card": "stubby_can", "drinks": ("mint-stubby_can", "red-stubby_can")}))
    assert state.seats[0].crates == ((),)


def test_composite_sell_any_matching_drinks_one_card_at_a_time():
    mine = ["mint-stubby_can", "mint-square_bottle", "red-stubby_can"]
    state = with_crates(game(2), 0, mine[:2], mine[2:])
    state = replace(state, prices=tuple((c, 200 if c == "mint" else y) for c, y in state.prices), bank=-200)
    found = {c["base"]["card"]: c for c in cm.composite_moves(state, 0)}
    assert set(found) == {"mint", "red", "stubby_can", "square_bottle"} and cm.composite_moves(state, 1) == []
    mint = found["mint"]
    assert mint == {"kind": "sell", "base": {"card": "mint"},
                    "pick": {"arg": "drinks", "from": ["mint-stubby_can", "mint-square_bottle"], "min": 1, "max": 2},
                    "pays": {"1": 200, "2": 400}}
    assert found["stubby_can"]["pick"]["from"] == ["mint-stubby_can", "red-stubby_can"]
    assert found["red"]["pays"] == {"1": 0}
    for drinks in (mint["pick"]["from"][:1], mint["pick"]["from"][1:], mint["pick"]["from"]):
        after = play(state, Move("sell", 0, {"card": "mint", "drinks": tuple(drinks)}))
        assert yen(after)[0] == 500 + 200 * len(drinks)
    # one beyond: a drink that does not match the card (or is not yours)
    assert_illegal(state, Move("sell", 0, {"card": "mint", "drinks": tuple(mine)}), "does not match")
    assert not cm.composite_moves(with_crates(game(2), 0, []), 0)


def test_buy_an_extra_crate_for_200():
    state = play(game(3), Move("buy_crate", 0))
    assert yen(state)[0] == 300 and len(state.seats[0].crates) == 2 and state.crates_left == 2
    assert_illegal(game(3, crates_for_sale=0), Move("buy_crate", 0), "no crate left")
    assert_illegal(game(3, start_yen=100), Move("buy_crate", 0), "costs 200")


def test_pass_only_when_nothing_else_is_possible():
    state = game(2, start_yen=0, crates_for_sale=0)
    assert cm.legal_moves(state, 0) == [Move("pass", 0)]
    assert_illegal(game(2), Move("pass", 0), "only when none")
    state = play(state, Move("pass", 0), Move("pass", 1))
    assert state.phase == cm.OVER and state.final["reason"] == "nobody_can_act"


# --- the end and scoring -------------------------------------------------------------------------

def test_end_at_six_of_one_colour_in_a_crate():
    five = ["red-stubby_can", "red-short_can", "red-square_bottle", "red-not_tallest_bottle", "red-tallest_bottle"]
    state = with_crates(game(2), 0, five)
    state = buy(state, 0, 0, "red-tall_can", "purple-stubby_can")
    assert state.phase == cm.OVER and state.final["reason"] == "crate_of_a_kind"


def test_end_at_2000_yen():
    state = with_crates(game(2), 0, ["mint-stubby_can", "mint-square_bottle"])
    state = replace(state, prices=tuple((c, 800 if c == "mint" else y) for c, y in state.prices), bank=-800)
    state = play(state, Move("sell", 0, {"card": "mint", "drinks": ("mint-stubby_can", "mint-square_bottle")}))
    # 500 + 2 x 800 = 2100
    assert state.phase == cm.OVER and state.final["reason"] == "rich" and state.winners == (0,)


def test_scoring_each_crate_by_one_attribute_squared_example_five_mint_2500():
    """Worked example: 002 CHOCOLATE MILK, Wertung. Five mint drinks score 5 x 5 = 25 -> 2,500 yen."""
    five_mint = ["mint-stubby_can", "mint-short_can", "mint-tall_can", "mint-square_bottle", "mint-tallest_bottle"]
    assert cm.crate_score(five_mint) == ("mint", 5, 2500)
    state = with_crates(game(2), 0, five_mint, ["red-tall_can", "blue-tall_can", "red-short_can"])
    sc = cm.scores(state)[0]
    # the second crate: 2 tall cans or 2 red drinks -> 2 x 2 = 400 (not 3: one attribute per crate)
    assert [c["yen"] for c in sc["crates"]] == [2500, 400]
    assert sc["total"] == 500 + 2500 + 400
    assert cm.payouts(state)["projected"][0] == 3400


def test_final_scores_add_crates_to_yen_and_the_richest_wins():
    state = with_crates(game(2, max_turns=1), 1, ["red-tall_can", "red-short_can"])
    state = play(state, Move("buy_crate", 0))
    # seat 0: 300 + 0; seat 1: 500 + 2 x 2 x 100 = 900
    assert state.phase == cm.OVER and state.final["reason"] == "turn_limit"
    assert yen(state) == [300, 900] and state.winners == (1,)
    assert cm.payouts(state)["final"] is True


def test_drinks_stuck_in_the_tower_at_the_end_score_nothing():
    state = buy(game(2, max_turns=1), 0, 0, "red-tall_can", "purple-stubby_can", out=False)
    assert state.phase == cm.OVER and yen(state) == [400, 500]


# --- illegal moves, JSON, views --------------------------------------------------------------------

def test_illegal_moves_change_nothing():
    state = game(3)
    assert_illegal(state, Move("buy_crate", 1), "not p2's turn")
    assert_illegal(state, Move("buy", 0, {"to": "north", "drink": "red-tall_can"}), "whole number")
    assert_illegal(state, Move("sell", 0, {"card": "green", "drinks": ("red-tall_can",)}), "colour or shape id")
    assert_illegal(state, chance("refill", drink="red-tall_can"), "no 'refill' outcome")
    state = play(state, Move("buy", 0, {"to": 0, "drink": "red-tall_can", "crate": 0}))
    assert_illegal(state, chance("refill", drink="red-tall_can"), "not in the supply")


@pytest.mark.parametrize("move", [
    chance("place", cell=4, drink="red-tall_can"), chance("start_player", seat=1),
    Move("buy", 0, {"to": 3, "drink": "red-tall_can", "crate": 1}), Move("sell", 0, {"card": "mint", "drinks": (
        "mint-tall_can", "mint-short_can")}), Move("buy_crate", 1), Move("pass", 0),
    chance("refill", drink="red-tall_can"), chance("drop", out=("red-tall_can",)),
], ids=lambda m: m.kind)
def test_moves_round_trip_through_json(move):
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move


def test_view_has_what_a_dashboard_needs():
    state = buy(game(3), 0, 0, "red-tall_can", "purple-stubby_can")
    v = cm.view(state, None)
    assert v["grid"][0] == {"cell": 0, "drinks": ["purple-stubby_can"], "markers": [0]}
    assert v["grid"][4]["markers"] == [1, 2]
    assert {"card": "red", "yen": 100} in v["cards"] and {"card": "tall_can", "yen": 100} in v["cards"]
    assert v["players"][0]["crates"] == [["red-tall_can"]] and v["players"][0]["pos"] == 0
    assert v["players"][0]["crate_scores"] == [{"by": "red", "count": 1, "yen": 100}]
    assert v["turn"] == 1 and v["crates_for_sale"] == 3 and v["tower"] == {"stuck": []}
    json.dumps(v)
    assert cm.move_info(state, Move("buy_crate", 1)).cost == 200


def test_estimates_the_final_yen_of_a_position():
    """Everything that decides the result lies open on the table: any viewer may have estimates."""
    state = buy(game(2, rules=2), 0, 0, "red-tall_can", "purple-stubby_can")
    assert cm.GAME.offers_estimates and cm.GAME.redraw is cm.nothing_hidden
    moves = cm.legal_moves(state, 1)
    answer = cm.GAME.estimate(state, 1, moves, random.Random(7), playouts=6, viewer=1)
    assert answer["seat"] == 1 and answer["playouts"] == 6 and len(answer["moves"]) == len(moves)
    assert sum(m["n"] for m in answer["moves"]) == 6 and answer["overall"]["low"] >= 0


@pytest.mark.parametrize("module", ["chocolate_milk", "chocolate_market"])
def test_module_doctests(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"companion.rules.games.{module}"))
    assert result.failed == 0 and result.attempted > 0
