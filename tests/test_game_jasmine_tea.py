"""JASMINE TEA, one test per rule, driven with explicit moves (chance included)."""

import copy
import json
import random
from dataclasses import replace

import pytest
from estimate_support import assert_estimates_blind

from companion.rules import engine
from companion.rules.engine import CHANCE, ChanceChoice, ChanceDrop, Event, IllegalMove, Move, Pending
from companion.rules.games import GAMES
from companion.rules.games import jasmine_tea as jt
from companion.rules.options import RULES_VERSION
from companion.sim.table import SIM_TABLE  # the simulated table, wired in as `companion serve` does
from companion.table.session import TableSession


def chance(kind, **args):
    return Move(kind, CHANCE, args)


def game(n=3, start=0, **options):
    """A new game (under the rules version new games are stored with) whose start player is
    already known (no start bid)."""
    return jt.setup({"names": [f"P{i + 1}" for i in range(n)], "start_player": start, "options": options,
                     "rules": RULES_VERSION})


def play(state, *moves):
    for m in moves:
        state, _ = jt.apply(state, m)
    return state


def passes(state, k):
    for _ in range(k):
        state = play(state, Move("pass", jt.current(state)))
    return state


def yen(state):
    return [s.yen for s in state.seats]


def bet(p, **stakes):
    return Move("bet", p, {"cards": tuple(stakes), "amounts": tuple(stakes.values())})


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        jt.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


# --- setup ------------------------------------------------------------------------------------

@pytest.mark.parametrize("n,rounds", [(2, 5), (3, 4), (4, 4), (5, 3), (6, 3)])
def test_setup_rounds_by_player_count_and_2000_yen(n, rounds):
    state = jt.setup({"names": [str(i) for i in range(n)]})
    assert state.options.total_rounds == rounds
    assert yen(state) == [2000] * n
    assert set(state.middle) == set(jt.CARD_IDS) and len(state.middle) == 12
    assert len(state.supply) == 36 and state.bank == 0


@pytest.mark.parametrize("n", [1, 7])
def test_setup_two_to_six_players(n):
    with pytest.raises(IllegalMove, match="2 to 6 players"):
        jt.setup({"names": [str(i) for i in range(n)]})


def test_setup_unknown_or_bad_options_refused():
    with pytest.raises(IllegalMove, match="unknown option"):
        jt.setup({"options": {"colour": 1}})
    with pytest.raises(IllegalMove, match="whole number"):
        jt.setup({"options": {"start_yen": "lots"}})
    with pytest.raises(IllegalMove, match="bet_limit_per"):
        jt.setup({"options": {"bet_limit_per": "game"}})


def test_registered():
    assert GAMES["jasmine_tea"] is jt.GAME


# --- the start bid ----------------------------------------------------------------------------

def test_start_bid_is_sealed_and_simultaneous():
    state = jt.setup({"names": ["A", "B", "C"]})
    assert state.phase == jt.BID
    assert jt.pending(state) == [Pending(0), Pending(1), Pending(2)]
    state, events = jt.apply(state, Move("bid", 1, {"amount": 300}))
    assert events == [Event("bid_placed", {"seat": 1})]  # no amount in the event
    assert jt.pending(state) == [Pending(0), Pending(2)]
    for viewer in (None, 0, 2):
        v = jt.view(state, viewer)
        assert v["players"][1]["has_bid"] is True and v["players"][1]["bid"] is None
        assert v["bidding"]["my_bid"] is None
        assert "300" not in json.dumps(v["players"])
    mine = jt.view(state, 1)
    assert mine["players"][1]["bid"] == 300 and mine["bidding"]["my_bid"] == 300
    assert_illegal(state, Move("bid", 1, {"amount": 100}), "not b's turn")


def test_start_bid_only_the_winner_pays():
    state = jt.setup({"names": ["A", "B", "C"]})
    state = play(state, Move("bid", 0, {"amount": 200}), Move("bid", 1, {"amount": 500}),
                 Move("bid", 2, {"amount": 0}))
    # B bid most: pays 500 to the bank (2000 - 500 = 1500); A and C keep their 2000
    assert yen(state) == [2000, 1500, 2000] and state.bank == 500
    assert state.start_player == 1 and state.phase == jt.TURNS and jt.current(state) == 1


def test_start_bid_tie_bids_again_among_the_tied():
    state = jt.setup({"names": ["A", "B", "C"]})
    state, events = jt.apply(play(state, Move("bid", 0, {"amount": 400}), Move("bid", 1, {"amount": 400})),
                             Move("bid", 2, {"amount": 100}))
    assert Event("rebid", {"seats": [0, 1]}) in events
    assert yen(state) == [2000, 2000, 2000]  # the tied take their yen back
    assert jt.pending(state) == [Pending(0), Pending(1)]
    state = play(state, Move("bid", 0, {"amount": 100}), Move("bid", 1, {"amount": 0}))
    # A wins the re-bid and pays 100: 2000 - 100 = 1900
    assert yen(state) == [1900, 2000, 2000] and state.start_player == 0


def test_start_bid_tied_too_often_a_coin_decides():
    state = jt.setup({"names": ["A", "B"], "options": {"max_rebids": 1}})
    state = play(state, Move("bid", 0, {"amount": 300}), Move("bid", 1, {"amount": 300}),
                 Move("bid", 0, {"amount": 200}), Move("bid", 1, {"amount": 200}))
    assert state.phase == jt.BID_TIE
    spec = jt.chance(state)
    assert isinstance(spec, ChanceChoice)
    assert [m for m, _ in spec.outcomes] == [chance("tie_break", seat=0), chance("tie_break", seat=1)]
    assert_illegal(state, chance("tie_break", seat=2), "seat")
    state = play(state, chance("tie_break", seat=1))
    # B wins the coin and pays the tied 200: 2000 - 200 = 1800
    assert yen(state) == [2000, 1800] and state.start_player == 1


def test_bid_more_than_you_have_refused():
    state = jt.setup({"names": ["A", "B"]})
    assert [m.args["amount"] for m in jt.legal_moves(state, 0)][-1] == 2000
    assert_illegal(state, Move("bid", 0, {"amount": 2100}), "0 to 2000")
    assert_illegal(state, Move("bid", 0, {"amount": 150}), "steps of 100")


def test_start_player_at_random_option():
    state = jt.setup({"names": ["A", "B", "C"], "options": {"start_by": "random"}})
    assert jt.pending(state) == [Pending(CHANCE)]
    state = play(state, chance("start_player", seat=2))
    assert jt.current(state) == 2 and yen(state) == [2000] * 3


# --- turns ------------------------------------------------------------------------------------

def test_three_actions_each_clockwise_from_the_start_player():
    state = game(3, start=1)
    seen = []
    for _ in range(9):
        seen.append(jt.current(state))
        state = passes(state, 1)
    assert seen == [1, 2, 0] * 3
    assert state.round == 2


def test_last_round_has_two_actions_each():
    state = game(2, start=0)            # 5 rounds with 2 players
    for r in range(1, 5):
        assert state.round == r and state.actions_this_round == 3
        state = passes(state, 6)
        if state.phase == jt.NEXT_START:  # everyone still has 2000: a coin picks the start
            state = play(state, chance("start_player", seat=0))
    assert state.round == 5 and state.actions_this_round == 2
    state = passes(state, 4)
    assert state.phase == jt.OVER


def test_buy_card_for_500():
    state = game(3)
    state, events = jt.apply(state, Move("buy_card", 0, {"card": "blue"}))
    assert yen(state) == [1500, 2000, 2000] and state.bank == 500
    assert state.seats[0].cards == ("blue",) and "blue" not in state.middle
    assert events[0] == Event("bought_card", {"seat": 0, "card": "blue", "paid": 500})
    assert_illegal(state, Move("buy_card", 1, {"card": "blue"}), "not in the middle", "p1 owns it")


def test_buy_card_not_while_a_bet_lies_on_it():
    """Worked example: 002 JASMINE TEA, Eine Bestandskarte kaufen (the picture: a card with a bet
    on it cannot be bought)."""
    state = play(game(3), bet(0, tall_can=100))
    assert Move("buy_card", 1, {"card": "tall_can"}) not in jt.legal_moves(state, 1)
    assert_illegal(state, Move("buy_card", 1, {"card": "tall_can"}), "a bet lies on it")


def test_buy_card_needs_500():
    state = game(3, start_yen=400)
    assert not [m for m in jt.legal_moves(state, 0) if m.kind == "buy_card"]
    assert_illegal(state, Move("buy_card", 0, {"card": "red"}), "costs 500", "have 400")


def test_bet_limit_200_plus_200_per_card_example_two_cards_600():
    """Worked example: 002 JASMINE TEA, Eine Wette setzen. With 2 stock cards a player may bet up
    to 200 + 2 x 200 = 600."""
    state = game(2)
    state = play(state, Move("buy_card", 0, {"card": "blue"}), Move("pass", 1),
                 Move("buy_card", 0, {"card": "red"}), Move("pass", 1))
    assert jt.bet_limit(state, 0) == 600
    assert_illegal(state, bet(0, mint=400, tall_can=300), "up to 600")
    state2 = play(state, bet(0, mint=400, tall_can=200))  # spread over two cards: 600 in all
    assert yen(state2)[0] == 2000 - 1000 - 600
    assert [(b.card, b.amount) for b in state2.bets] == [("mint", 400), ("tall_can", 200)]


def test_bet_limit_without_cards_is_200():
    state = game(3)
    amounts = sorted({m.args["amounts"][0] for m in jt.legal_moves(state, 0) if m.kind == "bet"})
    assert amounts == [100, 200]
    assert_illegal(state, bet(0, blue=300), "up to 200")


def test_bet_limit_is_for_all_the_bets_of_a_round():
    """002 JASMINE TEA, Eine Wette setzen: the limit (200, plus 200 per stock card owned) caps the
    total a player has staked in the round, however many bet actions it is spread over; the next
    round starts afresh (corrected in rules version 2, docs/rules-notes.md)."""
    assert jt.Options().bet_limit_per == "round"
    state = play(game(2), bet(0, blue=100), Move("pass", 1))
    assert jt.bet_limit(state, 0) == 100            # 200 less the 100 staked this round
    state = play(state, bet(0, red=100), Move("pass", 1))
    assert jt.bet_limit(state, 0) == 0
    assert not [m for m in jt.legal_moves(state, 0) if m.kind == "bet"]
    assert [c["kind"] for c in jt.composite_moves(state, 0)] == ["buy_drinks"]
    assert_illegal(state, bet(0, mint=100), "up to 0")
    state = play(state, Move("pass", 0), Move("pass", 1))   # nothing thrown: both bets lost
    assert state.round == 2 and yen(state) == [1800, 2000]
    assert jt.bet_limit(state, 0) == 200


def test_a_game_stored_under_rules_version_1_keeps_the_limit_per_bet_action():
    """A log stored before rules version 2 carries no "rules": it replays with the limit it was
    played with, one for each bet action (docs/log-format.md, config.rules)."""
    config = {"names": ["A", "B"], "start_player": 0}
    state = jt.setup(config)
    assert state.options.bet_limit_per == "action"
    state = play(state, bet(0, blue=200), Move("pass", 1), bet(0, red=200), Move("pass", 1))
    assert jt.bet_limit(state, 0) == 200            # a new bet action has its own limit
    state = play(state, bet(0, mint=200))
    assert sum(b.amount for b in state.bets) == 600
    assert jt.setup({**config, "rules": 2}).options.bet_limit_per == "round"
    assert jt.setup({**config, "options": {"bet_limit_per": "round"}}).options.bet_limit_per == "round"
    assert jt.setup({**config, "rules": 2, "options": {"bet_limit_per": "action"}}).options.bet_limit_per == "action"


def test_a_new_table_game_plays_under_the_corrected_limit(store):
    session = TableSession.create(store, "jasmine_tea", ["Aki", "Ben"], seed=1, automation=SIM_TABLE)
    assert session.config["rules"] == RULES_VERSION == 2
    assert session.state.options.bet_limit_per == "round"


def test_bet_malformed_refused():
    state = game(2)
    assert_illegal(state, Move("bet", 0, {"cards": ("blue",), "amounts": (100, 100)}), "one amount per card")
    assert_illegal(state, Move("bet", 0, {"cards": ("green",), "amounts": (100,)}), "not cards")
    assert_illegal(state, Move("bet", 0, {"cards": ("blue", "blue"), "amounts": (100, 100)}), "each card once")
    assert_illegal(state, Move("bet", 0, {"cards": ("blue",), "amounts": (50,)}), "100, 200")
    assert_illegal(state, Move("bet", 0, {"cards": "blue", "amounts": 100}), "must be a list")


@pytest.mark.parametrize("k,price", [(1, 100), (2, 400), (3, 900)])
def test_buy_drinks_1_2_3_for_100_400_900(k, price):
    drinks = ("red-tall_can", "blue-short_can", "mint-stubby_can")[:k]
    state, events = jt.apply(game(3), Move("buy_drinks", 0, {"drinks": drinks}))
    assert yen(state)[0] == 2000 - price and state.bank == price
    assert state.bought == tuple((0, d) for d in drinks)
    assert not set(drinks) & state.supply


def test_buy_drinks_at_most_three_and_from_the_supply():
    state = game(3)
    four = ("red-tall_can", "blue-short_can", "mint-stubby_can", "white-tall_can")
    assert_illegal(state, Move("buy_drinks", 0, {"drinks": four}), "1 to 3 drinks")
    state = play(state, Move("buy_drinks", 0, {"drinks": ("red-tall_can",)}))
    assert_illegal(state, Move("buy_drinks", 1, {"drinks": ("red-tall_can",)}), "not in the supply")
    assert_illegal(game(3, start_yen=300), Move("buy_drinks", 0, {"drinks": four[:2]}), "cost 400")


def test_composites_describe_bets_on_several_cards_and_up_to_three_drinks():
    state = game(2)
    bets, buys = jt.composite_moves(state, 0)
    assert bets == {"kind": "bet", "base": {}, "pick": {"arg": "cards", "from": list(jt.CARD_IDS), "min": 1, "max": 2},
                    "amounts": {"arg": "amounts", "min": 100, "step": 100, "max_total": 200}}
    assert buys == {"kind": "buy_drinks", "base": {},
                    "pick": {"arg": "drinks", "from": jt.sort_drinks(state.supply), "min": 1, "max": 3},
                    "price": {"1": 100, "2": 400, "3": 900}}
    assert jt.composite_moves(state, 1) == []  # not seat 1's turn
    play(state, bet(0, red=100, tall_can=100))
    assert_illegal(state, bet(0, red=100, tall_can=100, mint=100), "up to 200")
    # two cards owned: 600 to bet, on up to six cards
    state = play(state, Move("buy_card", 0, {"card": "blue"}), Move("pass", 1),
                 Move("buy_card", 0, {"card": "red"}), Move("pass", 1))
    bets = jt.composite_moves(state, 0)[0]
    assert bets["pick"]["max"] == 6 and bets["amounts"]["max_total"] == 600
    six = dict.fromkeys(jt.CARD_IDS[:6], 100)
    play(state, bet(0, **six))
    assert_illegal(state, bet(0, **six, tall_can=100), "up to 600")


def test_composites_buy_only_what_the_money_and_the_supply_allow():
    assert jt.composite_moves(game(2, start_yen=500), 0)[1]["pick"]["max"] == 2
    assert jt.composite_moves(game(2, start_yen=500), 0)[1]["price"] == {"1": 100, "2": 400}
    assert [c["kind"] for c in jt.composite_moves(game(2, start_yen=100), 0)] == ["bet", "buy_drinks"]
    assert_illegal(game(2, start_yen=500), Move("buy_drinks", 0, {"drinks": ("red-tall_can", "blue-short_can",
                                                                              "mint-stubby_can")}), "cost 900")
    state = game(2)
    state = replace(state, supply=frozenset(["red-tall_can", "blue-short_can"]))
    buys = jt.composite_moves(state, 0)[1]
    assert buys["pick"]["from"] == ["blue-short_can", "red-tall_can"] and buys["pick"]["max"] == 2
    state = play(state, Move("buy_drinks", 0, {"drinks": ("red-tall_can", "blue-short_can")}))
    assert yen(state)[0] == 1600 and [c["kind"] for c in jt.composite_moves(state, 1)] == ["bet"]


# --- the end of a round ------------------------------------------------------------------------

def _round_with_drinks(bets=(), buys=None):
    """3 players; seat 0 buys red-tall_can + blue-short_can (400), seat 1 buys mint-stubby_can
    (100); then the given bets; everyone else passes to the end of round 1."""
    state = game(3)
    buys = buys or [(0, ("red-tall_can", "blue-short_can")), (1, ("mint-stubby_can",))]
    queue = list(buys) + list(bets)
    while state.phase == jt.TURNS:
        p = jt.current(state)
        mine = next((x for x in queue if x[0] == p), None)
        if mine is None:
            state = play(state, Move("pass", p))
        elif isinstance(mine[1], tuple):
            queue.remove(mine)
            state = play(state, Move("buy_drinks", p, {"drinks": mine[1]}))
        else:
            queue.remove(mine)
            state = play(state, mine[1])
    return state


def test_poorest_player_throws_all_drinks_bought_this_round():
    state = _round_with_drinks()
    # seat 0 paid 400 (1600), seat 1 paid 100 (1900): seat 0 is the poorest and throws
    assert state.phase == jt.DROP and state.thrower == 0
    spec = jt.chance(state)
    assert isinstance(spec, ChanceDrop)
    assert set(spec.thrown) == {"red-tall_can", "blue-short_can", "mint-stubby_can"}
    assert jt.view(state, None)["thrower"] == 0


def test_a_paying_bet_pays_3_to_1_once_per_card():
    # seat 2 bets 100 on blue and 100 on tall_can; blue-short_can and red-tall_can come out
    state = _round_with_drinks(bets=[(2, bet(2, blue=100, tall_can=100))])
    state, events = jt.apply(state, chance("drop", out=("blue-short_can", "red-tall_can")))
    # seat 2: 2000 - 200 staked; blue pays 3 x 100 = 300 and tall_can 3 x 100 = 300 -> 2400
    # the stakes (200) go to the bank: bank 400 + 100 (drinks) + 200 - 600 = 100
    assert yen(state) == [1600, 1900, 2400]
    assert state.bank == 100


def test_a_shape_bet_pays_on_one_drink_of_any_colour_a_colour_bet_on_one_of_any_shape():
    """Worked example: 002 JASMINE TEA, Rundenende. A bet on the stubby can pays when one stubby can
    of any colour comes out; a bet on mint when one mint drink of any shape does."""
    buys = [(0, ("red-stubby_can", "mint-tall_can")), (1, ("blue-short_can",))]
    state = _round_with_drinks(bets=[(2, bet(2, stubby_can=100, mint=100))], buys=buys)
    assert state.phase == jt.DROP and state.thrower == 0   # seat 0 paid 400: the poorest
    state = play(state, chance("drop", out=("red-stubby_can", "mint-tall_can")))
    # seat 2: 2000 - 200 staked + 3 x 100 (a red stubby can) + 3 x 100 (a mint tall can) = 2400
    assert yen(state)[2] == 2400
    assert state.last_round["paid"][2] == 600


def test_many_matching_drinks_pay_a_card_only_once():
    """Worked example: 002 JASMINE TEA, Rundenende. A bet on blue with 4 blue drinks out is paid once."""
    blues = ("blue-short_can", "blue-tall_can", "blue-stubby_can")
    state = _round_with_drinks(bets=[(2, bet(2, blue=200))], buys=[(0, blues), (1, ("blue-square_bottle",))])
    state = play(state, chance("drop", out=blues + ("blue-square_bottle",)))
    # 2000 - 200 + 3 x 200 = 2400 (not 4 x 600)
    assert yen(state)[2] == 2400


def test_losing_bet_stake_goes_to_the_bank():
    state = _round_with_drinks(bets=[(2, bet(2, purple=200))])
    bank = state.bank
    state = play(state, chance("drop", out=("red-tall_can",)))
    assert yen(state)[2] == 1800 and state.bank == bank + 200


def test_stake_on_another_players_card_goes_to_its_owner():
    # seat 1 owns blue; seat 2 bets 100 on blue (pays whether or not it wins), seat 0 bets 200 on blue
    state = game(3)
    state = play(state, Move("pass", 0), Move("buy_card", 1, {"card": "blue"}), bet(2, blue=100),
                 bet(0, blue=200), Move("buy_drinks", 1, {"drinks": ("blue-tall_can",)}))
    state = passes(state, 4)
    assert state.phase == jt.DROP
    state = play(state, chance("drop", out=("blue-tall_can",)))
    # seat 0: 2000 - 200 + 600 = 2400; seat 2: 2000 - 100 + 300 = 2200
    # seat 1: 2000 - 500 - 100 + 200 + 100 (both stakes) = 1700
    assert yen(state) == [2400, 1700, 2200]
    state2 = game(3)
    state2 = play(state2, Move("pass", 0), Move("buy_card", 1, {"card": "blue"}), bet(2, blue=100))
    state2 = passes(state2, 6)
    # nothing was bought, nothing thrown: the bet lost, but seat 1 still gets the 100 stake
    assert yen(state2) == [2000, 1600, 1900]


def test_own_bet_on_own_card_goes_to_the_bank():
    state = play(game(2), Move("buy_card", 0, {"card": "red"}), Move("pass", 1), bet(0, red=300))
    state = passes(state, 3)
    # no drinks thrown: the 300 goes to the bank, not back to its owner: 2000 - 500 - 300 = 1200
    assert yen(state)[0] == 1200 and state.bank == 800


def test_drinks_that_came_out_leave_the_game_stuck_ones_stay():
    state = _round_with_drinks()
    state = play(state, chance("drop", out=("red-tall_can",)))
    assert "red-tall_can" in state.box and "red-tall_can" not in state.supply
    assert state.tower.inside == {"blue-short_can", "mint-stubby_can"}
    assert state.phase == jt.TURNS  # seat 0 (1600) is the poorest and starts
    assert_illegal(state, Move("buy_drinks", 0, {"drinks": ("red-tall_can",)}), "not in the supply")
    assert_illegal(state, Move("buy_drinks", 0, {"drinks": ("blue-short_can",)}), "not in the supply")


def test_stuck_drinks_can_come_out_in_a_later_round():
    state = play(_round_with_drinks(), chance("drop", out=()))
    assert state.tower.inside == {"red-tall_can", "blue-short_can", "mint-stubby_can"}
    if state.phase == jt.NEXT_START:
        state = play(state, chance("start_player", seat=0))
    state = play(state, Move("buy_drinks", jt.current(state), {"drinks": ("white-tall_can",)}))
    q = jt.current(state)
    state = play(state, bet(q, red=100))
    while state.phase == jt.TURNS:
        state = passes(state, 1)
    spec = jt.chance(state)
    assert spec.thrown == ("white-tall_can",) and set(spec.inside) == {"red-tall_can", "blue-short_can",
                                                                       "mint-stubby_can"}
    state = play(state, chance("drop", out=("red-tall_can",)))
    assert "red-tall_can" in state.box
    assert state.last_round["paid"][q] == 300  # the red bet paid with a freed drink


def test_poorest_player_starts_the_next_round():
    state = play(_round_with_drinks(), chance("drop", out=()))
    # seat 0 has 1600, the least
    assert state.round == 2 and state.start_player == 0 and jt.current(state) == 0


def test_poorest_tie_decided_by_a_coin_or_turn_order():
    state = passes(game(3, start=1), 9)
    assert state.phase == jt.NEXT_START and state.tied == (1, 2, 0)
    state = play(state, chance("start_player", seat=2))
    assert jt.current(state) == 2
    state = passes(game(3, start=1, poorest_tie="turn_order"), 9)
    assert state.phase == jt.TURNS and jt.current(state) == 1


def test_spilled_drinks_are_thrown_again_next_round():
    state = play(_round_with_drinks(), chance("drop", out=()))
    state = play(state, chance("spill", out=("mint-stubby_can",)))
    assert state.rethrow == {"mint-stubby_can"}
    assert_illegal(state, chance("spill", out=("black-tall_can",)), "stuck inside")
    while state.phase == jt.TURNS:
        state = passes(state, 1)
    assert "mint-stubby_can" in jt.chance(state).thrown


# --- the end of the game ----------------------------------------------------------------------

def test_final_bonus_example_blue_card_two_blue_in_the_box_400():
    """Worked example: 002 JASMINE TEA, Spielende. Owning blue with 2 blue drinks in the box pays 400."""
    state = game(2, rounds=1, actions=2, last_round_actions=2)
    state = play(state, Move("buy_card", 0, {"card": "blue"}),
                 Move("buy_drinks", 1, {"drinks": ("blue-tall_can", "blue-short_can")}),
                 Move("pass", 0), Move("pass", 1))
    # seat 0: 1500; seat 1: 1600 -> seat 0 throws
    state = play(state, chance("drop", out=("blue-tall_can", "blue-short_can")))
    assert state.phase == jt.OVER
    assert state.final["bonus"][0] == {"blue": 400}
    assert yen(state) == [1900, 1600]  # 1500 + 400
    assert state.winners == (0,)
    assert jt.payouts(state)["final"] is True and jt.payouts(state)["winners"] == [0]


def test_tie_at_the_end_shares_the_win():
    state = passes(game(2, rounds=1), 4)
    assert state.phase == jt.OVER and state.winners == (0, 1)


def test_game_over_refuses_moves():
    state = passes(game(2, rounds=1), 4)
    assert_illegal(state, Move("pass", 0), "game is over")
    assert jt.pending(state) == [] and jt.legal_moves(state, 0) == []


# --- illegal moves, JSON, views --------------------------------------------------------------

def test_illegal_out_of_turn_and_wrong_phase():
    state = game(3)
    assert_illegal(state, Move("pass", 1), "not p2's turn")
    assert_illegal(state, Move("bid", 0, {"amount": 100}), "not to bid")
    assert_illegal(state, chance("drop", out=()), "no 'drop' outcome")
    assert_illegal(state, Move("pass", 7), "no seat 7")
    assert_illegal(state, Move("buy_card", 0, {"card": 5}), "colour or shape id")


def test_drop_must_name_drinks_in_play():
    state = _round_with_drinks()
    assert_illegal(state, chance("drop", out=("black-tall_can",)), "cannot have come out")
    assert_illegal(state, chance("drop", out="red-tall_can"), "must be a list")


@pytest.mark.parametrize("move", [
    Move("bid", 0, {"amount": 300}), Move("buy_card", 1, {"card": "blue"}),
    Move("bet", 0, {"cards": ("blue", "tall_can"), "amounts": (100, 200)}),
    Move("buy_drinks", 2, {"drinks": ("red-tall_can", "blue-short_can")}), Move("pass", 0),
    chance("tie_break", seat=1), chance("start_player", seat=0), chance("drop", out=("red-tall_can",)),
    chance("spill", out=("red-tall_can",)),
], ids=lambda m: m.kind)
def test_moves_round_trip_through_json(move):
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move


def test_listed_moves_round_trip_and_apply():
    state = game(3)
    for m in jt.legal_moves(state, 0):
        assert Move.from_json(json.loads(json.dumps(m.to_json()))) == m
        jt.apply(state, m)


def test_view_has_what_a_dashboard_needs():
    state = play(game(3), Move("buy_card", 0, {"card": "blue"}), bet(1, blue=100, red=100),
                 Move("buy_drinks", 2, {"drinks": ("red-tall_can",)}))
    v = jt.view(state, None)
    assert v["players"][0]["cards"] == ["blue"] and v["owners"] == {"blue": 0}
    assert v["players"][1]["bets"] == [{"card": "blue", "amount": 100}, {"card": "red", "amount": 100}]
    assert v["bets_on_cards"]["blue"] == [{"seat": 1, "amount": 100}]
    assert v["bought"] == [{"seat": 2, "drink": "red-tall_can"}]
    assert v["turn"] == 0 and v["phase"] == "turns" and v["round"] == 1 and v["rounds"] == 4
    assert v["players"][0]["actions_left"] == 2 and v["players"][1]["actions_left"] == 2
    assert "tower" in v and "box" in v and "supply" in v
    json.dumps(v)


def test_move_info_costs():
    state = game(3)
    assert jt.move_info(state, Move("buy_card", 0, {"card": "blue"})).cost == 500
    info = jt.move_info(state, bet(0, blue=100, red=100))
    assert (info.cost, info.pays_up_to) == (200, 600)
    assert jt.move_info(state, Move("buy_drinks", 0, {"drinks": ("a", "b", "c")})).cost == 900


def test_replay_is_deterministic():
    moves = [Move("buy_drinks", 0, {"drinks": ("red-tall_can",)}), bet(1, red=100), Move("pass", 2)]
    config = {"names": ["A", "B", "C"], "start_player": 0}
    state, _ = engine.replay(jt, config, moves)
    again, _ = engine.replay(jt, config, [Move.from_json(m.to_json()) for m in moves])
    assert state == again


def test_module_doctests():
    import doctest

    result = doctest.testmod(jt)
    assert result.failed == 0 and result.attempted > 0


# --- estimates ----------------------------------------------------------------------------------

def test_estimates_do_not_leak_another_seats_sealed_bid():
    """Two start-bid states that differ only in seat 2's sealed amount give seat 0 the same
    estimates: the amounts it cannot see are drawn again."""
    low = play(jt.setup({"names": ["A", "B", "C"], "rules": RULES_VERSION}),
               Move("bid", 1, {"amount": 300}), Move("bid", 2, {"amount": 100}))
    high = replace(low, bidding=replace(low.bidding, sealed=((1, 300), (2, 2000))))
    assert_estimates_blind(jt.GAME, low, high, 0, jt.legal_moves(low, 0)[::5])
    # The redraw keeps the viewer's own bid and what everyone sees.
    drawn = jt.GAME.redraw(low, 1, random.Random(1))
    assert drawn.bidding.amount(1) == 300 and jt.view(drawn, 1) == jt.view(low, 1)
    opened = play(low, Move("bid", 0, {"amount": 700}))  # all bids in: opened, nothing hidden any more
    assert opened.phase == jt.TURNS and jt.GAME.redraw(opened, 1, random.Random(1)) == opened
