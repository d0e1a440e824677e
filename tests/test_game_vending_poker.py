"""The vending-machine poker game, one test per rule, driven with explicit moves."""

import copy
import json
import random
from dataclasses import replace

import pytest

from companion.rules.engine import CHANCE, ChanceDrop, Event, IllegalMove, Move, Pending
from companion.rules.games import GAMES
from companion.rules.games import vending_poker as vp


def chance(kind, **args):
    return Move(kind, CHANCE, args)


def game(n=3, start=0, rules=1, **options):
    """A game stored under rules version ``rules`` (a log without one: 1)."""
    return vp.setup({"names": [f"P{i + 1}" for i in range(n)], "start_player": start, "options": options,
                     "rules": rules})


def play(state, *moves):
    for m in moves:
        state, _ = vp.apply(state, m)
    return state


def yen(state):
    return [s.yen for s in state.seats]


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        vp.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


def with_crate(state, p, crate):
    """Seat p's crate set directly, its cans taken from the heap."""
    seats = list(state.seats)
    seats[p] = replace(seats[p], crate=tuple(crate))
    return replace(state, seats=tuple(seats), heap=state.heap - set(crate))


def buy(state, p, cans, coins, out=None):
    """Buy and throw: each can comes out unless ``out`` says otherwise (list per can)."""
    state = play(state, Move("buy", p, {"drinks": tuple(cans), "coins": tuple(coins)}))
    for i, can in enumerate(cans):
        state = play(state, chance("drop", out=tuple(out[i]) if out is not None else (can,)))
    return state


FIVE_TALL = ("black-tall_can", "white-tall_can", "mint-tall_can", "blue-tall_can", "red-tall_can")


# --- setup ------------------------------------------------------------------------------------

def test_registered():
    assert GAMES["vending_poker"] is vp.GAME


def test_setup_a_crate_and_1000_500_500_100_100_100():
    state = game(4)
    for s in state.seats:
        assert s.coins == (1, 2, 3) and s.yen == 2300 and s.crate == ()
    assert len(state.heap) == 36 and state.pot == (0, 0, 0)


def test_setup_random_start_player():
    state = vp.setup({"names": ["A", "B", "C"]})
    assert state.phase == vp.START and vp.pending(state) == [Pending(CHANCE)]
    state = play(state, chance("start_player", seat=2))
    assert state.player == 2 and state.phase == vp.TURN


# --- buying ------------------------------------------------------------------------------------

def test_prices_cans_100_bottles_200():
    state = game()
    for shape in ("stubby_can", "short_can", "tall_can"):
        assert vp.price(state, f"red-{shape}") == 100
    assert vp.price(state, "red-square_bottle") == vp.price(state, "red-not_tallest_bottle") == 200
    assert vp.price(state, "red-tallest_bottle") == 200


def test_buy_pays_into_the_pot_and_throws_each_can():
    state = game()
    state = play(state, Move("buy", 0, {"drinks": ("red-tall_can", "blue-square_bottle"), "coins": (100, 100, 100)}))
    # 100 + 200 = 300, paid with three 100s: 2300 - 300 = 2000; the pot holds 300
    assert yen(state)[0] == 2000 and vp.coin_value(state.pot) == 300
    assert state.phase == vp.DROP
    spec = vp.chance(state)
    assert isinstance(spec, ChanceDrop) and spec.thrown == ("red-tall_can",)
    state = play(state, chance("drop", out=()))
    assert vp.chance(state).thrown == ("blue-square_bottle",)  # one at a time
    assert vp.chance(state).inside == ("red-tall_can",)
    state = play(state, chance("drop", out=("blue-square_bottle", "red-tall_can")))
    # the stuck can was pushed out with the second one: both are seat 0's
    assert set(state.seats[0].crate) == {"red-tall_can", "blue-square_bottle"}
    assert state.phase == vp.CALL


def test_the_pot_never_gives_change_but_overpaying_is_allowed():
    """Rules version 1 (a game stored without a rules version): no coin to spare."""
    state = game()
    # a 100 can with only a 500: pays 500
    state2 = play(state, Move("buy", 0, {"drinks": ("red-tall_can",), "coins": (500,)}))
    assert yen(state2)[0] == 1800 and vp.coin_value(state2.pot) == 500
    # but not with a coin to spare
    assert_illegal(state, Move("buy", 0, {"drinks": ("red-tall_can",), "coins": (500, 100)}), "no change")
    assert_illegal(state, Move("buy", 0, {"drinks": ("red-square_bottle",), "coins": (100,)}), "cost 200")
    assert_illegal(state, Move("buy", 0, {"drinks": ("red-tall_can",), "coins": (1000, 1000)}), "do not have")
    assert_illegal(state, Move("buy", 0, {"drinks": ("red-tall_can",), "coins": (50,)}), "coins you pay with")


def test_paying_too_much_is_allowed_and_the_pot_gives_no_change():
    """002 Vending-machine poker: Eine Dose kaufen. Nobody takes change from the pot, but a player
    may pay more than the cans cost: a 100 can paid with a 500 and a 100 puts 600 in the pot. A game
    stored under rules version 1 refused a coin to spare."""
    state = game(rules=2)
    assert state.options.overpay and not game().options.overpay
    after = play(state, Move("buy", 0, {"drinks": ("red-tall_can",), "coins": (500, 100)}))
    assert yen(after)[0] == 2300 - 600 and after.pot == (0, 1, 1) and vp.coin_value(after.pot) == 600
    # several cans, everything paid: 1000 + 500 + 500 + 300 for 300 yen of cans
    cans = ("red-tall_can", "blue-square_bottle")
    after = play(state, Move("buy", 0, {"drinks": cans, "coins": (1000, 500, 500, 100, 100, 100)}))
    assert yen(after)[0] == 0 and vp.coin_value(after.pot) == 2300
    # still no less than the price, and only coins the player has
    assert_illegal(state, Move("buy", 0, {"drinks": cans, "coins": (100, 100)}), "make only 200")
    assert_illegal(state, Move("buy", 0, {"drinks": cans, "coins": (500, 500, 500)}), "do not have")
    # the composite takes a payment with a coin to spare; the listed buys stay those without one
    (c,) = vp.composite_moves(state, 0)
    assert c["coins"] == {"arg": "coins", "have": {"1000": 1, "500": 2, "100": 3}}
    play(state, Move("buy", 0, {"drinks": tuple(c["pick"]["from"][:2]), "coins": (1000, 100)}))
    listed = [m.args["coins"] for m in vp.legal_moves(state, 0) if m.args.get("drinks") == ("red-tall_can",)]
    assert sorted(listed) == [(100,), (500,), (1000,)]
    # rules version 1: a coin to spare was refused
    assert_illegal(game(), Move("buy", 0, {"drinks": ("red-tall_can",), "coins": (500, 100)}), "no change")


def test_listed_buys_are_every_payment_without_a_spare_coin():
    state = game()
    moves = [m for m in vp.legal_moves(state, 0) if m.kind == "buy" and m.args["drinks"] == ("red-tall_can",)]
    assert sorted(m.args["coins"] for m in moves) == [(100,), (500,), (1000,)]
    bottle = [m for m in vp.legal_moves(state, 0) if m.kind == "buy" and m.args["drinks"] == ("red-square_bottle",)]
    assert sorted(m.args["coins"] for m in bottle) == [(100, 100), (500,), (1000,)]


def test_buy_as_many_cans_as_free_slots():
    state = with_crate(game(), 0, FIVE_TALL)
    assert_illegal(state, Move("buy", 0, {"drinks": ("red-short_can", "blue-short_can"), "coins": (100, 100)}),
                   "free slots (1)")
    state = with_crate(state, 0, state.seats[0].crate + ("purple-tall_can",))
    assert not [m for m in vp.legal_moves(state, 0) if m.kind == "buy"]


def test_composite_buy_several_cans_as_the_crate_and_the_coins_allow():
    state = game()
    (c,) = vp.composite_moves(state, 0)
    assert c["kind"] == "buy" and c["base"] == {} and c["pick"]["from"] == vp.sort_drinks(state.heap)
    assert (c["pick"]["min"], c["pick"]["max"]) == (1, 6)       # six free slots, 2300 yen
    assert c["coins"] == {"arg": "coins", "have": {"1000": 1, "500": 2, "100": 3}}
    assert c["each"]["red-tall_can"] == 100 and c["each"]["red-tallest_bottle"] == 200
    assert vp.composite_moves(state, 1) == []
    cans = ("red-tall_can", "blue-square_bottle", "mint-stubby_can")     # 400 yen
    state2 = play(state, Move("buy", 0, {"drinks": cans, "coins": (500,)}))
    assert yen(state2)[0] == 1800 and state2.flying == "red-tall_can" and state2.queue == cans[1:]
    assert_illegal(state, Move("buy", 0, {"drinks": cans, "coins": (500, 100)}), "no change")
    # two free slots: two cans, a third is refused
    state = with_crate(state, 0, FIVE_TALL[:4])
    assert vp.composite_moves(state, 0)[0]["pick"]["max"] == 2
    assert_illegal(state, Move("buy", 0, {"drinks": cans, "coins": (500,)}), "free slots (2)")
    # 300 yen in 100s: three cans at most, and only if they are cans
    seats = list(state.seats)
    seats[0] = replace(seats[0], crate=(), coins=(0, 0, 3))
    state = replace(state, seats=tuple(seats), heap=state.heap | set(FIVE_TALL))
    assert vp.composite_moves(state, 0)[0]["pick"]["max"] == 3
    play(state, Move("buy", 0, {"drinks": cans[:1] + cans[2:] + ("blue-tall_can",), "coins": (100, 100, 100)}))
    assert_illegal(state, Move("buy", 0, {"drinks": cans, "coins": (100, 100, 100)}), "make only 300")


def test_buy_only_from_the_heap():
    state = with_crate(game(), 1, ["red-tall_can"])
    assert_illegal(state, Move("buy", 0, {"drinks": ("red-tall_can",), "coins": (100,)}), "not on the heap")


def test_a_can_that_misses_the_machine_goes_back_to_the_heap():
    state = play(game(), Move("buy", 0, {"drinks": ("red-tall_can",), "coins": (100,)}))
    assert_illegal(state, chance("drop", out=(), missed=("blue-tall_can",)), "only the can just thrown")
    state = play(state, chance("drop", out=(), missed=("red-tall_can",)))
    assert "red-tall_can" in state.heap and not state.tower.inside and state.seats[0].crate == ()


# --- throwing from the crate ---------------------------------------------------------------------

def test_throw_from_the_crate_then_more_or_stop():
    state = with_crate(game(), 0, ["red-tall_can", "blue-tall_can"])
    state = play(state, Move("throw", 0, {"drink": "red-tall_can"}))
    assert vp.chance(state).thrown == ("red-tall_can",)
    state = play(state, chance("drop", out=("red-tall_can",)))
    assert state.phase == vp.MORE
    # each can once per turn: only the blue one may follow
    assert vp.legal_moves(state, 0) == [Move("throw", 0, {"drink": "blue-tall_can"}), Move("stop", 0)]
    assert_illegal(state, Move("throw", 0, {"drink": "red-tall_can"}), "once per turn")
    state = play(state, Move("throw", 0, {"drink": "blue-tall_can"}), chance("drop", out=()))
    assert state.tower.inside == {"blue-tall_can"}
    state = play(state, Move("stop", 0))
    assert state.phase == vp.CALL and state.seats[0].crate == ("red-tall_can",)


def test_more_cans_out_than_the_crate_holds_put_back_extras():
    six = ("black-tall_can", "white-tall_can", "mint-tall_can", "blue-tall_can", "red-tall_can", "purple-tall_can")
    state = replace(with_crate(game(), 0, six), tower=vp.Tower(frozenset({"red-short_can"})),
                    heap=game().heap - set(six) - {"red-short_can"})
    state = play(state, Move("throw", 0, {"drink": "black-tall_can"}),
                 chance("drop", out=("black-tall_can", "red-short_can")), Move("stop", 0))
    assert state.phase == vp.DISCARD and len(state.seats[0].crate) == 7
    state = play(state, Move("discard", 0, {"drink": "red-short_can"}))
    assert "red-short_can" in state.heap and len(state.seats[0].crate) == 6
    # six cans at the end of the turn: an automatic call
    assert state.caller == 0


# --- calling and the showdown -------------------------------------------------------------------

def test_call_is_a_choice_at_the_end_of_a_turn_and_everyone_else_has_one_more_turn():
    state = buy(game(3), 0, ["red-tall_can"], [100])
    assert vp.legal_moves(state, 0) == [Move("call", 0), Move("end_turn", 0)]
    state = play(state, Move("call", 0))
    assert state.caller == 0 and state.final_turns == (1, 2) and state.player == 1
    state = buy(state, 1, ["blue-tall_can"], [100])
    assert state.phase == vp.TURN and state.player == 2  # no call choice in the last turns
    state = buy(state, 2, ["red-short_can"], [100])
    assert state.last_showdown["round"] == 1 and state.round == 2


def test_six_cans_call_automatically():
    state = with_crate(game(2), 0, FIVE_TALL)
    state = buy(state, 0, ["purple-tall_can"], [100])
    assert state.caller == 0 and state.player == 1


def test_best_hand_wins_the_pot_and_the_winner_empties_the_crate():
    state = with_crate(game(2), 0, ["red-tall_can", "blue-tall_can"])
    state = with_crate(state, 1, ["red-short_can", "mint-stubby_can"])
    state = buy(state, 0, ["purple-stubby_can"], [100])        # pot 100
    state = play(state, Move("call", 0))
    state = buy(state, 1, ["blue-square_bottle"], [1000])       # pot 1100
    # seat 0 has a pair of tall cans; seat 1 only a high card: seat 0 takes 1100
    assert state.last_showdown["winners"] == [0]
    assert yen(state) == [2300 - 100 + 1100, 2300 - 1000]
    assert state.seats[0].crate == ()                          # emptied back to the heap
    assert set(state.seats[1].crate) == {"red-short_can", "mint-stubby_can", "blue-square_bottle"}
    assert {"red-tall_can", "blue-tall_can", "purple-stubby_can"} <= state.heap


def test_a_winner_with_six_keeps_the_can_outside_the_hand():
    state = with_crate(game(2), 0, FIVE_TALL)
    state = buy(state, 0, ["purple-stubby_can"], [100])        # six cans: called
    state = buy(state, 1, ["red-short_can"], [100])
    assert state.last_showdown["winners"] == [0]
    assert state.seats[0].crate == ("purple-stubby_can",)       # five tall cans made the hand
    assert state.last_showdown["hands"]["0"]["rank"] == "five_of_a_kind"


def test_tied_hands_split_the_pot_and_both_empty_their_crates():
    state = with_crate(with_crate(game(2), 0, ["red-tall_can"]), 1, ["blue-tall_can"])
    state = play(state, Move("throw", 0, {"drink": "red-tall_can"}), chance("drop", out=("red-tall_can",)),
                 Move("stop", 0), Move("call", 0))
    state = buy(state, 1, ["mint-short_can"], [100], out=[()])   # pot 100, stuck
    # both hold one tall can: a tie; 100 cannot be split into two equal shares without change
    assert state.last_showdown["winners"] == [0, 1]
    assert vp.coin_value(state.pot) == 100 and state.seats[0].crate == () and state.seats[1].crate == ()


def test_split_pot_shares_as_much_as_possible():
    shares, left = vp.split_pot((1, 0, 10), 2)
    assert sorted(vp.coin_value(s) for s in shares) == [1000, 1000] and left == (0, 0, 0)
    # 500 + 3 x 100 between two: the 500 cannot be matched, and three 100s give one each
    shares, left = vp.split_pot((0, 1, 3), 2)
    assert [vp.coin_value(s) for s in shares] == [100, 100] and left == (0, 1, 1)
    shares, left = vp.split_pot((0, 1, 5), 2)     # 500 against 5 x 100: 500 each, nothing left
    assert [vp.coin_value(s) for s in shares] == [500, 500] and left == (0, 0, 0)
    shares, left = vp.split_pot((0, 0, 3), 3)
    assert [vp.coin_value(s) for s in shares] == [100, 100, 100]


def test_round_end_empties_the_machine_and_the_player_left_of_the_caller_starts():
    state = game(3, start=1)
    state = buy(state, 1, ["red-tall_can"], [100], out=[()])
    assert state.tower.inside == {"red-tall_can"}
    state = play(state, Move("call", 1))
    state = buy(state, 2, ["blue-tall_can"], [100])
    state = buy(state, 0, ["mint-tall_can"], [100])
    assert not state.tower.inside and "red-tall_can" in state.heap
    assert state.player == 2 and state.round == 2


# --- hands -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("cans,rank", [
    (FIVE_TALL, "five_of_a_kind"),
    (("red-stubby_can", "red-short_can", "red-tall_can", "red-square_bottle", "red-not_tallest_bottle"),
     "straight_flush"),
    (("red-tall_can", "blue-tall_can", "mint-tall_can", "white-tall_can", "red-short_can"), "four_of_a_kind"),
    (("red-tall_can", "blue-tall_can", "mint-tall_can", "white-short_can", "red-short_can"), "full_house"),
    (("red-stubby_can", "red-short_can", "red-tall_can", "red-square_bottle", "red-tallest_bottle"), "flush"),
    (("red-short_can", "blue-tall_can", "red-square_bottle", "red-not_tallest_bottle", "red-tallest_bottle"),
     "straight"),
    (("red-tall_can", "blue-tall_can", "mint-tall_can", "white-short_can", "red-stubby_can"), "three_of_a_kind"),
    (("red-tall_can", "blue-tall_can", "mint-short_can", "white-short_can", "red-stubby_can"), "two_pair"),
    (("red-tall_can", "blue-tall_can"), "pair"),
    (("red-tall_can", "blue-short_can", "mint-stubby_can", "white-square_bottle", "red-tallest_bottle"), "high_card"),
    ((), "nothing"),
])
def test_hand_categories(cans, rank):
    assert vp.hand_rank(cans)[0] == rank


def test_hand_order_like_poker_with_five_of_a_kind_on_top():
    order = ["high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
             "four_of_a_kind", "straight_flush", "five_of_a_kind"]
    assert list(vp.CATEGORIES) == order


def test_shapes_rank_lowest_to_tallest_and_colours_never_break_ties():
    tall = vp.best_hand(["red-tall_can", "blue-tall_can"])[0]
    short = vp.best_hand(["red-short_can", "blue-short_can"])[0]
    bottles = vp.best_hand(["red-tallest_bottle", "blue-tallest_bottle"])[0]
    assert short < tall < bottles
    assert vp.best_hand(["red-tall_can", "blue-tall_can"])[0] == vp.best_hand(["mint-tall_can", "white-tall_can"])[0]


def test_best_five_of_six():
    crate = FIVE_TALL[:4] + ("red-short_can", "blue-short_can")
    rank, key = vp.hand_rank(crate)
    assert rank == "four_of_a_kind"


# --- elimination and the end -------------------------------------------------------------------

def test_a_player_who_can_neither_buy_nor_throw_is_out():
    state = game(3, coins_500=0, notes_1000=0, coins_100=1)
    state = buy(state, 0, ["red-tall_can"], [100], out=[()])  # seat 0: no coins, empty crate
    state = play(state, Move("end_turn", 0))
    state = buy(state, 1, ["blue-tall_can"], [100], out=[()])
    state, events = vp.apply(state, Move("end_turn", 1))
    assert state.player == 2
    state = buy(state, 2, ["mint-tall_can"], [100], out=[()])
    state, events = vp.apply(state, Move("end_turn", 2))
    # everyone is broke with an empty crate: seats 0 and 1 go out, seat 2 is the last standing
    assert Event("eliminated", {"seat": 0, "why": "can neither buy nor throw a can"}) in events
    assert state.phase == vp.OVER and state.winners == (2,) and state.end == "last_standing"


def test_touching_the_machine_puts_the_thrower_out():
    state = with_crate(game(3), 0, ["red-tall_can", "blue-tall_can"])
    state = play(state, Move("throw", 0, {"drink": "red-tall_can"}))
    assert_illegal(state, chance("foul", seat=1), "player who is throwing")
    state, events = vp.apply(state, chance("foul", seat=0))
    assert state.seats[0].out and state.seats[0].crate == ()
    assert {"red-tall_can", "blue-tall_can"} <= state.heap
    assert state.player == 1 and state.phase == vp.TURN
    assert_illegal(game(3), chance("foul", seat=0), "while throwing")


def test_the_last_player_standing_wins():
    state = with_crate(game(2), 0, ["red-tall_can"])
    state = play(state, Move("throw", 0, {"drink": "red-tall_can"}), chance("foul", seat=0))
    assert state.phase == vp.OVER and state.winners == (1,)
    assert vp.payouts(state)["final"] is True and vp.payouts(state)["winners"] == [1]


def test_turn_limit_ends_the_game_richest_wins():
    state = game(2, max_turns=2)
    state = buy(state, 0, ["red-tall_can"], [100])
    state = play(state, Move("end_turn", 0))
    state = buy(state, 1, ["blue-square_bottle"], [500])
    state = play(state, Move("end_turn", 1))
    assert state.phase == vp.OVER and state.end == "turn_limit" and state.winners == (0,)


# --- illegal moves, JSON, views ----------------------------------------------------------------

def test_illegal_moves_change_nothing():
    state = game(3)
    assert_illegal(state, Move("throw", 1, {"drink": "red-tall_can"}), "not p2's turn")
    assert_illegal(state, Move("throw", 0, {"drink": "red-tall_can"}), "not in your crate")
    assert_illegal(state, Move("call", 0), "not to call")
    assert_illegal(state, Move("buy", 0, {"drinks": (), "coins": (100,)}), "at least one")
    assert_illegal(state, Move("buy", 0, {"drinks": ("red-tall_can",), "coins": "100"}), "must be a list")
    assert_illegal(state, chance("drop", out=()), "no 'drop' outcome")


@pytest.mark.parametrize("move", [
    Move("buy", 0, {"drinks": ("red-tall_can", "blue-square_bottle"), "coins": (500,)}),
    Move("throw", 0, {"drink": "red-tall_can"}), Move("stop", 0), Move("discard", 0, {"drink": "red-tall_can"}),
    Move("call", 0), Move("end_turn", 0), chance("drop", out=("red-tall_can",), missed=()),
    chance("foul", seat=0), chance("spill", out=("red-tall_can",)), chance("start_player", seat=1),
], ids=lambda m: m.kind)
def test_moves_round_trip_through_json(move):
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move


def test_buy_coins_from_json_floats():
    state = game()
    move = Move.from_json({"kind": "buy", "player": 0, "args": {"drinks": ["red-tall_can"], "coins": [100.0]}})
    state = play(state, move)
    assert yen(state)[0] == 2200 and type(state.seats[0].coins[2]) is int


def test_view_has_what_a_dashboard_needs():
    state = with_crate(game(3), 1, ["red-tall_can", "blue-tall_can"])
    state = play(state, Move("buy", 0, {"drinks": ("mint-tall_can",), "coins": (500,)}))
    v = vp.view(state, None)
    assert v["pot"] == {"yen": 500, "coins": {"1000": 0, "500": 1, "100": 0}}
    assert v["players"][0]["coins"] == {"1000": 1, "500": 1, "100": 3}
    assert v["players"][1]["hand"] == "pair" and v["players"][1]["crate"] == ["red-tall_can", "blue-tall_can"]
    assert v["throwing"] == "mint-tall_can" and v["turn"] == 0 and v["phase"] == "drop"
    assert v["tower"] == {"stuck": []}
    json.dumps(v)
    assert vp.move_info(state, Move("buy", 0, {"drinks": ("x",), "coins": (500, 100)})).cost == 600


def test_estimates_the_final_yen_of_a_position():
    """Coins, crates, the heap and the tower lie open on the table: any viewer may have estimates."""
    state = buy(game(2, rules=2), 0, ["red-tall_can"], [100])
    assert vp.GAME.offers_estimates and vp.GAME.redraw is vp.nothing_hidden
    moves = vp.legal_moves(state, 0)
    assert moves == [Move("call", 0), Move("end_turn", 0)]
    answer = vp.GAME.estimate(state, 0, moves, random.Random(7), playouts=6)
    assert answer["playouts"] == 6 and [m["n"] for m in answer["moves"]] == [3, 3]
    assert answer["overall"]["low"] >= 0 and answer["overall"]["high"] <= 2 * 2300


@pytest.mark.parametrize("module", ["vending_poker", "poker_coins", "poker_hands", "tower_turns"])
def test_module_doctests(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"companion.rules.games.{module}"))
    assert result.failed == 0 and result.attempted > 0
