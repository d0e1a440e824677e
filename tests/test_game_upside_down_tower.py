"""The upside-down tower betting game, one test per rule, driven with explicit moves."""

import copy
import json
import random
from dataclasses import replace

import pytest
from estimate_support import assert_estimates_blind

from companion.rules.engine import CHANCE, ChanceChoice, IllegalMove, Move, Pending
from companion.rules.games import GAMES
from companion.rules.games import upside_down_tower as ut


def chance(kind, **args):
    return Move(kind, CHANCE, args)


def land(drink, spot):
    return Move("land", CHANCE, {"drink": drink, "spot": spot})


# Each player's random stock: P1 a mint, P2 a blue, P3 a red drink.
DRAWS = ("mint-stubby_can", "blue-stubby_can", "red-stubby_can")


def game(n=3, draws=DRAWS, **options):
    state = ut.setup({"names": [f"P{i + 1}" for i in range(n)], "options": options})
    for d in draws[:n]:
        state, _ = ut.apply(state, chance("draw", drink=d))
    return state


def play(state, *moves):
    for m in moves:
        state, _ = ut.apply(state, m)
    return state


def bids(state, *amounts):
    for p, a in enumerate(amounts):
        state = play(state, Move("bid", p, {"amount": a}))
    return state


def yen(state):
    return [s.yen for s in state.seats]


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        ut.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


def to_bets(state, winner=0):
    """Seat ``winner`` wins with a 100-yen bid (the others bid 0) and buys nothing."""
    amounts = [100 if p == winner else 0 for p in range(state.n)]
    return play(bids(state, *amounts), Move("done", winner))


# --- setup ------------------------------------------------------------------------------------

def test_registered():
    assert GAMES["upside_down_tower"] is ut.GAME


def test_setup_markers_cards_and_a_random_stock_each():
    state = ut.setup({"names": ["A", "B", "C"]})
    # black and white mark the bet spaces; the 24 drinks of the other four colours go in the lid
    assert len(state.markers) == 12 and all(d.split("-")[0] in ("black", "white") for d in state.markers)
    assert len(state.lid) == 24
    assert state.phase == ut.DRAW and ut.pending(state) == [Pending(CHANCE)]
    assert len(ut.chance(state).outcomes) == 24
    state = game(3)
    assert [s.stocks for s in state.seats] == [(d,) for d in DRAWS]
    assert yen(state) == [1000, 1000, 1000]
    assert {c: len(ds) for c, ds in state.cards} == {"mint": 5, "blue": 5, "red": 5, "purple": 6}
    assert dict(state.prices) == {"mint": 100, "blue": 100, "red": 100, "purple": 100}
    assert state.phase == ut.BID


def test_setup_marker_colours_option():
    state = ut.setup({"names": ["A", "B"], "options": {"marker_colours": ["red", "mint"]}})
    assert sorted(c for c, _ in state.cards) == ["black", "blue", "purple", "white"]
    with pytest.raises(IllegalMove, match="two different colours"):
        ut.setup({"names": ["A", "B"], "options": {"marker_colours": ["red", "red"]}})


# --- the bid ------------------------------------------------------------------------------------

def test_bid_is_sealed_and_yen_are_hidden_while_bidding():
    state = play(game(3), Move("bid", 0, {"amount": 300}))
    assert ut.pending(state) == [Pending(1), Pending(2)]
    for viewer in (None, 1, 2):
        v = ut.view(state, viewer)
        assert v["players"][0]["has_bid"] and v["players"][0]["bid"] is None
        assert v["players"][0]["yen"] is None
    assert ut.view(state, 0)["players"][0]["bid"] == 300 and ut.view(state, 0)["players"][0]["yen"] == 1000
    assert ut.view(state, 1)["players"][1]["yen"] == 1000


def test_only_the_highest_bidder_pays():
    state = bids(game(3), 200, 400, 100)
    assert yen(state) == [1000, 600, 1000] and state.winner == 1 and state.phase == ut.BUY
    assert ut.view(state, None)["players"][0]["yen"] == 1000  # open again after the bid


def test_tied_bids_bid_again_then_a_coin():
    state = bids(game(3), 300, 300, 0)
    assert state.phase == ut.BID and ut.pending(state) == [Pending(0), Pending(1)]
    state = play(state, Move("bid", 0, {"amount": 100}), Move("bid", 1, {"amount": 200}))
    assert state.winner == 1 and yen(state) == [1000, 800, 1000]
    state = bids(game(2, max_rebids=0), 0, 0)
    assert state.phase == ut.BID_TIE
    state = play(state, chance("tie_break", seat=0))
    assert state.winner == 0 and yen(state) == [1000, 1000]


# --- buying stocks -------------------------------------------------------------------------------

def test_winner_buys_up_to_two_stocks_of_different_colours_at_the_card_price():
    state = bids(game(3), 100, 0, 0)
    state = play(state, Move("buy_stock", 0, {"drink": "purple-tall_can"}))
    # 1000 - 100 (bid) - 100 (purple card) = 800; the purple card rises to 200
    assert yen(state)[0] == 800 and state.price("purple") == 200
    assert state.seats[0].stocks == ("mint-stubby_can", "purple-tall_can")
    assert_illegal(state, Move("buy_stock", 0, {"drink": "purple-short_can"}), "another colour")
    state = play(state, Move("buy_stock", 0, {"drink": "red-tall_can"}))
    assert yen(state)[0] == 700 and state.price("red") == 200
    assert state.phase == ut.BET  # two bought: on to the bets


def test_buying_is_optional_and_needs_the_money():
    state = bids(game(3, start_yen=100), 100, 0, 0)
    assert ut.legal_moves(state, 0) == [Move("done", 0)]
    assert_illegal(state, Move("buy_stock", 0, {"drink": "purple-tall_can"}), "costs 100", "have 0")
    assert_illegal(state, Move("buy_stock", 0, {"drink": "black-tall_can"}), "not on a colour card")
    state = play(state, Move("done", 0))
    assert state.phase == ut.BET


# --- bets, the throw, the landing ------------------------------------------------------------------

def test_bets_in_order_from_the_bid_winner_one_or_two_coins():
    state = to_bets(game(3), winner=1)
    seen = []
    while state.phase == ut.BET:
        (who,) = ut.pending(state)
        seen.append(who.actor)
        state = play(state, Move("pass", who.actor))
    assert seen == [1, 2, 0]
    state = to_bets(game(3), winner=0)
    assert_illegal(state, Move("bet", 0, {"space": "slot", "coins": 3}), "one or two")
    assert_illegal(state, Move("bet", 0, {"space": "roof", "coins": 1}), "slot, crate, outside")


def test_rule_book_example_bets():
    """Worked example: 002 upside-down tower game, Wettphase (Beispiel).
    Worked example: 002 upside-down tower game, Wettphase (Beispiel, Fortsetzung).
    P1 100 on "outside", P2 200 on "in the crate, not in a slot", P3 100 on "in a slot"; one drink
    lands in the crate but not in a slot, one outside."""
    state = to_bets(game(3), winner=0)              # P1 paid a 100 bid: 900
    state = play(state, Move("bet", 0, {"space": "outside", "coins": 1}),
                 Move("bet", 1, {"space": "crate", "coins": 2}),
                 Move("bet", 2, {"space": "slot", "coins": 1}))
    assert yen(state) == [800, 800, 900] and state.phase == ut.THROW
    state = play(state, Move("throw", 0, {"drinks": ("purple-tall_can", "red-tall_can")}))
    state = play(state, chance("land", drink="purple-tall_can", spot="crate"),
                 chance("land", drink="red-tall_can", spot="outside"))
    # P1: stake 100 back + 200 from the bank: 800 + 300 = 1100
    # P2: first coin 100 back + 100, second coin lost: 800 + 200 = 1000
    # P3: nothing landed in a slot, the 100 is lost: 900
    assert yen(state) == [1100, 1000, 900]
    assert state.last_round["counts"] == {"slot": 0, "crate": 1, "outside": 1}


def test_two_coins_win_twice_when_both_drinks_land_there():
    state = to_bets(game(2, draws=DRAWS[:2]), winner=0)
    state = play(state, Move("bet", 0, {"space": "slot", "coins": 2}), Move("pass", 1),
                 Move("throw", 0, {"drinks": ("purple-tall_can", "red-tall_can")}),
                 land("purple-tall_can", "slot"), land("red-tall_can", "slot"))
    # 1000 - 100 bid - 200 staked + 2 x (100 + 300) = 1500
    assert yen(state)[0] == 1500


def test_throw_two_drinks_of_different_colours_from_the_cards():
    state = play(to_bets(game(2, draws=DRAWS[:2]), winner=0), Move("pass", 0), Move("pass", 1))
    assert_illegal(state, Move("throw", 0, {"drinks": ("purple-tall_can", "purple-short_can")}), "different colours")
    assert_illegal(state, Move("throw", 0, {"drinks": ("purple-tall_can",)}), "exactly two")
    assert_illegal(state, Move("throw", 0, {"drinks": ("purple-tall_can", "mint-stubby_can")}), "not on a colour card")
    assert all(ut.colour_of(m.args["drinks"][0]) != ut.colour_of(m.args["drinks"][1])
               for m in ut.legal_moves(state, 0))


def test_landing_is_an_observation_per_drink():
    state = play(to_bets(game(2, draws=DRAWS[:2]), winner=0), Move("pass", 0), Move("pass", 1),
                 Move("throw", 0, {"drinks": ("purple-tall_can", "red-tall_can")}))
    spec = ut.chance(state)
    assert isinstance(spec, ChanceChoice)
    assert {(m.args["drink"], m.args["spot"]) for m, _ in spec.outcomes} == {
        (d, s) for d in ("purple-tall_can", "red-tall_can") for s in ("slot", "crate", "outside", "stuck")}
    assert abs(sum(p for _, p in spec.outcomes) - 1) < 1e-9
    state = play(state, chance("land", drink="red-tall_can", spot="stuck"))
    assert_illegal(state, chance("land", drink="red-tall_can", spot="slot"), "still to land")
    assert_illegal(state, chance("land", drink="purple-tall_can", spot="roof"), "slot, crate, outside, stuck")


def test_drinks_in_the_crate_go_to_the_front_crates_and_raise_their_card():
    state = play(to_bets(game(2, draws=DRAWS[:2]), winner=0), Move("pass", 0), Move("pass", 1),
                 Move("throw", 0, {"drinks": ("purple-tall_can", "red-tall_can")}),
                 land("purple-tall_can", "slot"), land("red-tall_can", "stuck"))
    assert state.front == ("purple-tall_can",) and state.price("purple") == 200
    # the stuck one is shaken out and goes back to its card, no result, no price change
    assert "red-tall_can" in state.card("red") and state.price("red") == 100


def test_outside_goes_back_to_its_card():
    state = play(to_bets(game(2, draws=DRAWS[:2]), winner=0), Move("pass", 0), Move("pass", 1),
                 Move("throw", 0, {"drinks": ("purple-tall_can", "red-tall_can")}),
                 land("purple-tall_can", "outside"), land("red-tall_can", "crate"))
    assert "purple-tall_can" in state.card("purple") and state.front == ("red-tall_can",)


# --- selling and the end ----------------------------------------------------------------------------

def _to_selling(state, winner=0):
    state = to_bets(state, winner=winner)
    while state.phase == ut.BET:
        state = play(state, Move("pass", ut.pending(state)[0].actor))
    return play(state, Move("throw", winner, {"drinks": ("purple-tall_can", "red-tall_can")}),
                land("purple-tall_can", "crate"), land("red-tall_can", "crate"))


def test_selling_from_the_bid_winner_at_the_card_price():
    state = _to_selling(game(3), winner=1)
    assert state.phase == ut.SELL and ut.pending(state) == [Pending(1)]
    # red rose to 200 when the red drink landed in the crate; P3 holds a red stock
    state = play(state, Move("done", 1))
    state = play(state, Move("sell", 2, {"drink": "red-stubby_can"}))
    assert yen(state)[2] == 1200 and "red-stubby_can" in state.card("red")
    assert state.price("red") == 200  # selling does not change the price
    assert_illegal(state, Move("sell", 0, {"drink": "red-stubby_can"}), "not one of your stocks")


def test_end_when_the_twelve_front_slots_are_full():
    state = game(2, draws=DRAWS[:2])
    ten = tuple(d for _, ds in state.cards for d in ds if d.startswith("purple"))[:4] + \
        tuple(d for _, ds in state.cards for d in ds if d.startswith("mint"))[:5]
    gone = set(ten) | {"blue-tall_can"}
    state = replace(state, front=ten + ("blue-tall_can",),
                    cards=tuple((c, tuple(d for d in ds if d not in gone)) for c, ds in state.cards))
    assert len(state.front) == 10
    state = to_bets(state, winner=0)
    state = play(state, Move("pass", 0), Move("pass", 1),
                 Move("throw", 0, {"drinks": ("red-tall_can", "blue-short_can")}),
                 land("red-tall_can", "crate"), land("blue-short_can", "slot"))
    state = play(state, Move("done", 0), Move("done", 1))
    assert state.phase == ut.OVER and state.final["reason"] == "front_crates_full"


def test_end_when_two_colour_cards_are_empty_and_the_final_sale():
    state = game(2, draws=DRAWS[:2])
    emptied = {"purple": (), "red": ()}
    state = replace(state, cards=tuple((c, emptied.get(c, ds)) for c, ds in state.cards))
    state = to_bets(state, winner=0)
    state = play(state, Move("pass", 0), Move("pass", 1),
                 Move("throw", 0, {"drinks": ("mint-tall_can", "blue-tall_can")}),
                 land("mint-tall_can", "outside"), land("blue-tall_can", "outside"))
    state = play(state, Move("done", 0), Move("done", 1))
    assert state.phase == ut.OVER and state.final["reason"] == "two_cards_empty"
    # final sale: P1 sells its mint stock at 100 (900 + 100), P2 its blue at 100 (1000 + 100)
    assert yen(state) == [1000, 1100] and state.winners == (1,)
    assert all(s.stocks == () for s in state.seats)
    assert ut.payouts(state)["final"] is True


def test_no_throw_with_fewer_than_two_colours_left_bets_go_back():
    state = game(2, draws=DRAWS[:2])
    state = replace(state, cards=tuple((c, ds if c == "mint" else ()) for c, ds in state.cards))
    state = to_bets(state, winner=0)
    state, events = ut.apply(play(state, Move("bet", 0, {"space": "slot", "coins": 1})), Move("pass", 1))
    # 1000 - 100 bid - 100 bet, and the bet comes back: 900
    assert yen(state)[0] == 900 and events[1].kind == "no_throw"


def test_round_limit_ends_the_game():
    state = _to_selling(game(2, draws=DRAWS[:2], max_rounds=1))
    state = play(state, Move("done", 0), Move("done", 1))
    assert state.phase == ut.OVER and state.final["reason"] == "round_limit"


# --- illegal moves, JSON, views ---------------------------------------------------------------------

def test_illegal_moves_change_nothing():
    state = game(3)
    assert_illegal(state, Move("bet", 0, {"space": "slot", "coins": 1}), "not to bet")
    assert_illegal(state, Move("bid", 0, {"amount": 1100}), "0 to 1000")
    assert_illegal(state, chance("land", drink="red-tall_can", spot="slot"), "no 'land' outcome")
    state = to_bets(state)
    assert_illegal(state, Move("bet", 1, {"space": "slot", "coins": 1}), "not p2's turn")


@pytest.mark.parametrize("move", [
    chance("draw", drink="red-tall_can"), Move("bid", 0, {"amount": 200}), chance("tie_break", seat=1),
    Move("buy_stock", 0, {"drink": "red-tall_can"}), Move("done", 0), Move("bet", 1, {"space": "slot", "coins": 2}),
    Move("pass", 2), Move("throw", 0, {"drinks": ("red-tall_can", "blue-tall_can")}),
    chance("land", drink="red-tall_can", spot="stuck"), Move("sell", 1, {"drink": "red-tall_can"}),
], ids=lambda m: m.kind)
def test_moves_round_trip_through_json(move):
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move


def test_view_has_what_a_dashboard_needs():
    state = play(to_bets(game(3)), Move("bet", 0, {"space": "outside", "coins": 2}))
    v = ut.view(state, None)
    assert [c["colour"] for c in v["colour_cards"]] == ["mint", "blue", "red", "purple"]
    assert v["colour_cards"][3] == {"colour": "purple", "price": 100, "drinks": list(state.card("purple"))}
    assert len(v["colour_cards"][3]["drinks"]) == 6
    assert v["spaces"][2] == {"space": "outside", "rate": 200, "bets": [{"seat": 0, "coins": 2}]}
    assert v["players"][0]["bets"] == [{"space": "outside", "coins": 2}]
    assert v["players"][0]["stocks"] == ["mint-stubby_can"]
    assert v["bid_winner"] == 0 and v["phase"] == "bet" and v["markers"] == ["black", "white"]
    json.dumps(v)
    info = ut.move_info(state, Move("bet", 1, {"space": "slot", "coins": 2}))
    assert (info.cost, info.pays_up_to) == (200, 800)


def test_module_doctests():
    import doctest

    result = doctest.testmod(ut)
    assert result.failed == 0 and result.attempted > 0


# --- estimates ----------------------------------------------------------------------------------

def test_estimates_do_not_leak_another_seats_sealed_bid():
    """Two bid states that differ only in seat 1's sealed amount (the amount, and the yen while
    bidding, are hidden) give seat 0 the same estimates."""
    low = play(game(3), Move("bid", 1, {"amount": 0}), Move("bid", 2, {"amount": 200}))
    high = replace(low, bidding=replace(low.bidding, sealed=((1, 1000), (2, 200))))
    assert_estimates_blind(ut.GAME, low, high, 0, ut.legal_moves(low, 0)[::3], seed=7)
    drawn = ut.GAME.redraw(low, 2, random.Random(1))
    assert drawn.bidding.amount(2) == 200 and ut.view(drawn, 2) == ut.view(low, 2)
