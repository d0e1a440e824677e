"""GENMAICHA (rule book 002), one test per rule, driven with explicit moves (chance included)."""

import copy

import pytest

from companion.rules.engine import CHANCE, IllegalMove, Move, Pending
from companion.rules.games import genmaicha as gm
from companion.rules.games.genmaicha_recipes import covers

# row0: blue, stubby can, red; row1: white, tall can, mint; row2: black, short can, purple
GRID = ("blue", "stubby_can", "red", "white", "tall_can", "mint", "black", "short_can", "purple")


def chance(kind, **args):
    return Move(kind, CHANCE, args)


def play(state, *moves):
    for m in moves:
        state, _ = gm.apply(state, m)
    return state


def dealt(n=2, **options):
    state = gm.setup({"names": [f"P{i + 1}" for i in range(n)], "options": {"drinks_per_crate": 3, **options}})
    return play(state, *(chance("deal_card", card=c) for c in GRID))


def filled(crates, **options):
    """Dealt, with crate k holding ``crates[k]`` (three drinks each)."""
    state = dealt(len(crates), **options)
    return play(state, *(chance("draw", drink=d) for c in crates for d in c))


def bid_and_take(state, bids, takes):
    """Everyone bids ``bids`` (seat order, all different) and takes crates ``takes`` in bid order."""
    state = play(state, *(Move("bid", p, {"amount": a}) for p, a in enumerate(bids)))
    return play(state, *(Move("take_crate", p, {"crate": k}) for p, k in zip(state.order, takes)))


def yen(state):
    return [s.yen for s in state.seats]


def money(state):
    return state.bank + sum(yen(state)) + sum(state.lines) + sum(state.pots) + sum(b.amount for b in state.brands)


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        gm.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before


BLUE_STUBBY = "blue-stubby_can"


def test_setup_500_each_row_yen_100_to_300_column_yen_400_to_600_and_rounds_by_players():
    """002 GENMAICHA, VORBEREITUNG and RUNDEN."""
    s = gm.setup({"names": ["A", "B", "C"]})
    assert yen(s) == [500, 500, 500] and s.phase == gm.DEAL
    assert dict(zip(("row0", "row1", "row2", "col0", "col1", "col2"), s.lines)) == {
        "row0": 300, "row1": 200, "row2": 100, "col0": 400, "col1": 500, "col2": 600}
    assert s.options.total_rounds == 3 and gm.setup({"names": ["A", "B"]}).options.total_rounds == 4
    assert money(s) == 0 and len(s.crates) == 3


def test_the_grid_is_dealt_by_chance_one_card_at_a_time_never_twice():
    s = gm.setup({"names": ["A", "B"]})
    assert [w.actor for w in gm.pending(s)] == [CHANCE] and len(gm.chance(s).outcomes) == 12
    s = play(s, chance("deal_card", card="blue"))
    assert_illegal(s, chance("deal_card", card="blue"), "card")
    s = play(s, *(chance("deal_card", card=c) for c in GRID[1:]))
    assert s.phase == gm.FILL and gm.view(s, None)["grid"][1] == ["white", "tall_can", "mint"]


def test_crates_fill_from_the_bag_to_the_option_drinks_per_crate_then_the_bids():
    """The fill table is missing from our copy: option drinks_per_crate (docs/rules-notes.md)."""
    s = dealt(2)
    assert len(gm.chance(s).outcomes) == 36
    first = ("red-tall_can", "mint-tall_can", "white-tall_can", "black-tall_can")
    s = play(s, *(chance("draw", drink=d) for d in first))
    assert s.crates == (("red-tall_can", "mint-tall_can", "white-tall_can"), ("black-tall_can",))
    assert_illegal(s, chance("draw", drink="red-tall_can"), "drink")
    s = play(s, chance("draw", drink="blue-tall_can"), chance("draw", drink="purple-tall_can"))
    assert s.phase == gm.BID and len(s.bag) == 30
    assert gm.setup({"names": list("ABCD")}).options.per_crate == 4


def test_all_bids_open_at_once_are_paid_and_the_highest_takes_a_crate_first():
    """002 GENMAICHA, BIETRUNDE: sealed bids, then the crates taken from the highest bid down."""
    s = filled([("red-tall_can", "mint-tall_can", "white-tall_can"),
                ("black-tall_can", "blue-tall_can", "purple-tall_can"),
                ("red-short_can", "mint-short_can", "white-short_can")])
    s = play(s, Move("bid", 0, {"amount": 100}))
    assert gm.view(s, 1)["players"][0]["bid"] is None and gm.view(s, 0)["players"][0]["bid"] == 100
    assert_illegal(s, Move("bid", 1, {"amount": 600}), "bid 0 to 500")
    s = play(s, Move("bid", 1, {"amount": 300}), Move("bid", 2, {"amount": 0}))
    assert s.order == (1, 0, 2) and yen(s) == [400, 200, 500] and s.phase == gm.DRAFT
    assert gm.pending(s) == [Pending(1)]
    s = play(s, Move("take_crate", 1, {"crate": 2}))
    assert_illegal(s, Move("take_crate", 0, {"crate": 2}), "crates still there")
    s = play(s, Move("take_crate", 0, {"crate": 0}), Move("take_crate", 2, {"crate": 1}))
    assert set(s.seats[1].drinks) == {"red-short_can", "mint-short_can", "white-short_can"}
    assert s.phase == gm.BREW and gm.pending(s) == [Pending(1)] and money(s) == 0


def test_a_tie_bids_again_adding_to_the_first_bid_then_a_coin_decides():
    """002 GENMAICHA, BIETRUNDE: ties add a bid; still tied, a coin."""
    s = filled([("red-tall_can", "mint-tall_can", "white-tall_can"),
                ("black-tall_can", "blue-tall_can", "purple-tall_can")])
    s = play(s, Move("bid", 0, {"amount": 200}), Move("bid", 1, {"amount": 200}))
    assert s.phase == gm.BID and s.bidding.bidders == (0, 1) and yen(s) == [300, 300]
    s = play(s, Move("bid", 0, {"amount": 100}), Move("bid", 1, {"amount": 100}))
    assert s.phase == gm.BID_TIE and s.totals == (300, 300) and yen(s) == [200, 200]
    s = play(s, chance("tie_break", seat=1))
    assert s.order == (1, 0)
    s2 = play(filled([("red-tall_can", "mint-tall_can", "white-tall_can"),
                      ("black-tall_can", "blue-tall_can", "purple-tall_can")]),
              Move("bid", 0, {"amount": 200}), Move("bid", 1, {"amount": 200}),
              Move("bid", 0, {"amount": 100}), Move("bid", 1, {"amount": 0}))
    assert s2.order == (0, 1) and s2.totals == (300, 200)


def test_a_drink_counts_once_as_its_colour_and_once_as_its_shape_never_twice_as_either():
    """Worked example: 002 GENMAICHA, Brührunde (Beispiel)

    A blue stubby can may be the blue ingredient and the stubby-can ingredient, but not two blue
    ingredients or two stubby-can ingredients."""
    assert covers(["blue", "stubby_can"], [BLUE_STUBBY])
    assert not covers(["blue", "blue"], [BLUE_STUBBY])
    assert not covers(["stubby_can", "stubby_can"], [BLUE_STUBBY])
    # On the table: row0 (blue, stubby can, red) from the blue stubby can and a red drink.
    s = bid_and_take(filled([(BLUE_STUBBY, "red-tall_can", "black-tall_can"),
                             ("blue-tall_can", "white-short_can", "mint-short_can")]), (100, 0), (0, 1))
    s2 = play(s, Move("brew", 0, {"lines": ["row0"], "drinks": [BLUE_STUBBY, "red-tall_can"]}))
    assert s2.seats[0].drinks == ("black-tall_can",) and s2.seats[0].yen == 400 + 300
    # col0 and row0 share the blue card: the one blue drink cannot be both.
    assert_illegal(s, Move("brew", 0, {"lines": ["row0", "col0"], "drinks": [BLUE_STUBBY, "red-tall_can",
                                                                            "black-tall_can"]}), "do not brew")


def test_a_brew_pays_the_line_yen_which_then_falls_by_100_but_not_below_0_and_drinks_go_back():
    """002 GENMAICHA, BRÜHRUNDE: the recipe's yen from the bank, then 100 less beside it."""
    s = bid_and_take(filled([("black-short_can", "purple-tall_can", "white-tall_can"),
                             ("black-tall_can", "purple-short_can", "red-tall_can")], row_yen=[300, 200, 100]),
                     (100, 0), (0, 1))
    before = len(s.bag)
    s = play(s, Move("brew", 0, {"lines": ["row2"], "drinks": ["black-short_can", "purple-tall_can"]}))
    assert s.seats[0].yen == 400 + 100 and s.lines[2] == 0 and len(s.bag) == before + 2
    s = play(s, Move("done", 0, {}))
    assert gm.pending(s) == [Pending(1)]
    s = play(s, Move("brew", 1, {"lines": ["row2"], "drinks": ["black-tall_can", "purple-short_can"]}))
    assert s.seats[1].yen == 500 and s.lines[2] == 0 and money(s) == 0


def test_brew_refusals_change_nothing():
    s = bid_and_take(filled([(BLUE_STUBBY, "red-tall_can", "black-tall_can"),
                             ("blue-tall_can", "white-short_can", "mint-short_can")]), (100, 0), (0, 1))
    assert_illegal(s, Move("brew", 0, {"lines": ["row0"], "drinks": ["blue-tall_can", "red-tall_can"]}),
                   "do not have")
    assert_illegal(s, Move("brew", 0, {"lines": ["row0"], "drinks": [BLUE_STUBBY, "red-tall_can",
                                                                      "black-tall_can"]}), "every drink")
    assert_illegal(s, Move("brew", 0, {"lines": ["row9"], "drinks": [BLUE_STUBBY]}), "lines")
    assert_illegal(s, Move("brew", 0, {"lines": ["row0"], "drinks": [BLUE_STUBBY, "red-tall_can"],
                                       "matcha": ["c0g0"]}), "matcha")
    assert_illegal(s, Move("brew", 1, {"lines": ["col0"], "drinks": ["blue-tall_can"]}), "turn")
    assert_illegal(s, Move("brand", 0, {"line": "row0", "amount": 100}), "market")


def test_matcha_iri_a_row_with_the_card_below_takes_the_yen_in_the_gap():
    """002 GENMAICHA, MATCHA-IRI: 100 between the cards of the left column, 200 in the others."""
    s = bid_and_take(filled([(BLUE_STUBBY, "red-tall_can", "white-tall_can"),
                             ("blue-tall_can", "white-short_can", "mint-short_can")], matcha=True), (100, 0), (0, 1))
    assert s.pots == (100, 100, 200, 200, 200, 200)
    # row0 plus the white card below its blue one (gap c0g0): 300 + 100
    s = play(s, Move("brew", 0, {"lines": ["row0"], "matcha": ["c0g0"],
                                 "drinks": [BLUE_STUBBY, "red-tall_can", "white-tall_can"]}))
    assert s.seats[0].yen == 400 + 400 and s.pots[0] == 0 and money(s) == 0
    assert_illegal(s, Move("brew", 0, {"lines": ["row0"], "matcha": ["c0g0"], "drinks": []}), "gap")


def test_tea_market_the_first_brewer_brands_a_recipe_and_the_next_other_brewer_pays_it_twice():
    """002 GENMAICHA, TEEMARKT: the owner gets the stake paid out and the stake back."""
    s = bid_and_take(filled([(BLUE_STUBBY, "red-tall_can", "black-tall_can"),
                             ("blue-short_can", "red-stubby_can", "mint-short_can")], market=True), (100, 0), (0, 1))
    s = play(s, Move("brew", 0, {"lines": ["row0"], "drinks": [BLUE_STUBBY, "red-tall_can"]}))
    assert_illegal(s, Move("brand", 0, {"line": "row1", "amount": 100}), "first to brew")
    assert_illegal(s, Move("brand", 0, {"line": "row0", "amount": 50}), "steps of 100")
    s = play(s, Move("brand", 0, {"line": "row0", "amount": 200}), Move("done", 0, {}))
    assert s.seats[0].yen == 400 + 300 - 200 and money(s) == 0
    s = play(s, Move("brew", 1, {"lines": ["row0"], "drinks": ["blue-short_can", "red-stubby_can"]}))
    # the brewer gets the row's 200 (300 less 100); the brand's owner 200 back and 200 more
    assert yen(s) == [500 + 400, 500 + 200] and s.brands == () and money(s) == 0
    assert_illegal(s, Move("brand", 1, {"line": "row0", "amount": 100}), "first to brew")


def test_after_the_last_round_the_most_yen_wins_then_the_most_drinks_left():
    """002 GENMAICHA, SPIELENDE."""
    s = bid_and_take(filled([(BLUE_STUBBY, "red-tall_can", "black-tall_can"),
                             ("blue-short_can", "mint-short_can", "white-tall_can")], rounds=1), (0, 100), (1, 0))
    assert s.order == (1, 0) and gm.payouts(s)["final"] is False
    s = play(s, Move("done", 1, {}), Move("brew", 0, {"lines": ["row0"], "drinks": [BLUE_STUBBY, "red-tall_can"]}))
    s = play(s, Move("done", 0, {}))
    assert gm.is_over(s) and yen(s) == [800, 400] and s.winners == (0,) and gm.payouts(s)["final"]
    # equal yen (bids only set the order here, a recipe worth 0): the most drinks left wins
    tie = bid_and_take(filled([(BLUE_STUBBY, "red-tall_can", "black-tall_can"),
                               ("blue-short_can", "red-stubby_can", "white-tall_can")],
                              rounds=1, bids_paid="none", row_yen=[0, 0, 0]), (0, 100), (1, 0))
    tie = play(tie, Move("brew", 1, {"lines": ["row0"], "drinks": ["blue-short_can", "red-stubby_can"]}),
               Move("done", 1, {}), Move("done", 0, {}))
    assert yen(tie) == [500, 500] and tie.winners == (0,)


def test_the_next_round_fills_the_crates_again_from_the_bag():
    s = bid_and_take(filled([(BLUE_STUBBY, "red-tall_can", "black-tall_can"),
                             ("blue-short_can", "red-stubby_can", "mint-short_can")]), (100, 0), (0, 1))
    s = play(s, Move("done", 0, {}), Move("done", 1, {}))
    assert s.phase == gm.FILL and s.round == 2 and s.crates == ((), ()) and len(s.bag) == 30


def ceremony_brewing():
    """Seat 0 brews with the tea ceremony on; the hidden cards are the three not in GRID."""
    return bid_and_take(filled([("white-tall_can", "red-short_can", "blue-square_bottle"),
                                ("white-stubby_can", "mint-short_can", "black-tall_can")], ceremony=True),
                        (100, 0), (0, 1))


def test_tea_ceremony_a_drink_matching_a_hidden_card_buys_a_look_entered_on_the_phone():
    """002 GENMAICHA, TEEZEREMONIE: the look is that player's secret."""
    s = ceremony_brewing()
    assert sorted(gm.view(s, None)["hidden_cards"][0]) == ["card", "column", "face_up", "seen_by"]
    # hidden: square_bottle, not_tallest_bottle, tallest_bottle; a red short can matches none
    assert_illegal(s, Move("peek", 0, {"column": 0, "drink": "red-short_can"}), "matches none")
    s = play(s, Move("peek", 0, {"column": 0, "drink": "blue-square_bottle"}))
    assert s.phase == gm.PEEK and gm.pending(s) == [Pending(CHANCE, secret_for=0)]
    assert_illegal(s, chance("peek_card", card="blue"), "card")
    s = play(s, chance("peek_card", card="tallest_bottle"))
    assert s.phase == gm.BREW and "blue-square_bottle" in s.bag
    assert gm.view(s, 0)["hidden_cards"][0]["card"] == "tallest_bottle"
    assert gm.view(s, 1)["hidden_cards"][0]["card"] is None and gm.view(s, None)["hidden_cards"][0]["card"] is None
    assert_illegal(s, Move("peek", 0, {"column": 0, "drink": "white-tall_can"}), "seen")


def test_tea_ceremony_four_card_recipe_pays_500_and_turns_the_card_up_else_the_drinks_are_lost():
    """002 GENMAICHA, TEEZEREMONIE: col0 is blue, white, black (+ the hidden card above it)."""
    s = play(ceremony_brewing(), Move("done", 0, {}))
    four = Move("brew", 1, {"lines": ["col0"], "ceremony": 0,
                            "drinks": ["white-stubby_can", "black-tall_can", "mint-short_can"]})
    # blue is missing: not even the column's three cards
    assert_illegal(s, four, "do not brew")
    s = bid_and_take(filled([("blue-tall_can", "black-square_bottle", "white-short_can"),
                             ("red-short_can", "black-tallest_bottle", "mint-tall_can")], ceremony=True),
                     (0, 100), (1, 0))
    assert s.order == (1, 0)
    # the black square bottle is the black ingredient and, if the card is the square bottle, the fourth
    attempt = {"lines": ["col0"], "ceremony": 0, "drinks": ["blue-tall_can", "black-square_bottle", "white-short_can"]}
    won = play(s, Move("done", 1, {}), Move("brew", 0, attempt))
    # the companion does not know the card yet: the brewer enters it on the phone
    assert won.phase == gm.REVEAL and gm.pending(won) == [Pending(CHANCE, secret_for=0)]
    assert won.seats[0].yen == 500 + 400 and won.lines[3] == 300
    won = play(won, chance("ceremony_card", card="square_bottle"))
    assert won.seats[0].yen == 500 + 400 + 500 and won.revealed == (0,) and money(won) == 0
    assert gm.view(won, None)["hidden_cards"][0] == {"column": 0, "face_up": True, "card": "square_bottle",
                                                     "seen_by": []}
    lost = play(s, Move("done", 1, {}), Move("brew", 0, attempt), chance("ceremony_card", card="tallest_bottle"))
    assert lost.seats[0].yen == 500 + 400 and lost.revealed == () and (0, 0) in lost.seen
    assert "black-square_bottle" in lost.bag and gm.view(lost, None)["hidden_cards"][0]["card"] is None


def test_estimates_forget_the_hidden_cards_a_viewer_has_not_seen():
    s = play(ceremony_brewing(), Move("peek", 0, {"column": 0, "drink": "blue-square_bottle"}),
             chance("peek_card", card="tallest_bottle"))
    assert gm.GAME.redraw(s, 0, None).hidden == ("tallest_bottle", None, None)
    assert gm.GAME.redraw(s, 1, None).hidden == (None, None, None)
