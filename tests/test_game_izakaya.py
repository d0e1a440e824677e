"""IZAKAYA (rule book 000), one test per rule, driven with explicit moves (chance included)."""

from dataclasses import replace

import pytest

from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.rules.games import GAMES
from companion.rules.games import izakaya as iz
from companion.rules.games.izakaya_grid import Grid
from companion.rules.games.izakaya_state import building_score, scores


def play(state, *moves):
    for m in moves:
        state, _ = iz.apply(state, m)
    return state


def turn(state):
    return iz.pending(state)[0].actor


def act(state, kind, **args):
    """The move ``kind`` by whoever lays the next disc."""
    return play(state, Move(kind, turn(state), args))


def game(n=2, order=None, bids=None, **options):
    """Order discs drawn in ``order`` (default 0, 1, ...), then the first bids (default all 0)."""
    state = laid_out(iz.setup({"names": [f"P{i + 1}" for i in range(n)], "options": options}))
    for p in (order or range(n))[:n - 1]:
        state = play(state, Move("order_disc", CHANCE, {"seat": p}))
    return bid(state, bids or [0] * n)


def laid_out(state, *two_lots):
    """The table marks the cards with two lots (if it is asked), then says it is done."""
    if state.phase == "layout":
        state = play(state, *[Move("two_lot_card", CHANCE, {"card": c}) for c in two_lots],
                     Move("layout_done", CHANCE, {}))
    return state


def bid(state, amounts):
    return play(state, *[Move("bid", p, {"amount": a}) for p, a in enumerate(amounts)])


def refused(state, move, words):
    with pytest.raises(IllegalMove) as exc:
        iz.apply(state, move)
    assert words in exc.value.reason, exc.value.reason


def test_registered_and_set_up_by_player_count():
    """000 IZAKAYA, Vorbereitung: 3x3 with the middle unusable for 2-3, 4x4 for 4, 5x5 for 5;
    prices 100 100 200 200 300 300; 1,000 yen each; six full crates."""
    assert GAMES["izakaya"] is iz.GAME
    for n, size, blocked in ((2, 3, (4,)), (3, 3, (4,)), (4, 4, ()), (5, 5, ())):
        s = iz.setup({"names": [str(i) for i in range(n)]})
        assert (s.grid.size, s.grid.blocked) == (size, blocked)
    s = iz.setup({"names": ["A", "B"]})
    assert [s.price(c) for c in s.options.colour_row] == [100, 100, 200, 200, 300, 300]
    assert [x.yen for x in s.seats] == [1000, 1000] and len(s.crates) == 36 and s.phase == "layout"
    with pytest.raises(IllegalMove, match="is played by 2 to 5 players"):
        iz.setup({"names": ["A"]})
    with pytest.raises(IllegalMove, match="two_lots must name plot cards 0 to 8"):
        iz.setup({"names": ["A", "B"], "options": {"two_lots": [4]}})
    with pytest.raises(IllegalMove, match="colour_row must list the six colours"):
        iz.setup({"names": ["A", "B"], "options": {"colour_row": ["red"] * 6}})


def test_the_table_marks_the_cards_with_two_lots_unless_the_option_names_them():
    """000 IZAKAYA, Bauaktion: a card with two dark plot borders holds two separate buildings."""
    s = iz.setup({"names": ["A", "B"]})
    odds = dict((m.kind + str(m.args.get("card", "")), p) for m, p in iz.chance(s).outcomes)
    assert odds["layout_done"] == 0.5 and "two_lot_card4" not in odds and len(odds) == 9
    s = play(s, Move("two_lot_card", CHANCE, {"card": 3}))
    refused(s, Move("two_lot_card", CHANCE, {"card": 3}), "a plot card not marked yet")
    refused(s, Move("two_lot_card", CHANCE, {"card": 4}), "not 4")
    s = laid_out(s, 8)
    assert s.phase == "order" and [c for c, k in enumerate(s.lots) if k == 2] == [3, 8]
    s = iz.setup({"names": ["A", "B"], "options": {"two_lots": [0]}})
    assert s.phase == "order" and s.lots[0] == 2


def test_the_turn_order_is_drawn_disc_by_disc_the_last_one_known():
    s = laid_out(iz.setup({"names": ["A", "B", "C"]}))
    assert [m.args["seat"] for m in iz.legal_moves(s, CHANCE)] == [0, 1, 2]
    s = play(s, Move("order_disc", CHANCE, {"seat": 2}))
    refused(s, Move("order_disc", CHANCE, {"seat": 2}), "'seat' must be one of 0, 1")
    s = play(s, Move("order_disc", CHANCE, {"seat": 0}))
    assert s.order == (2, 0, 1) and s.phase == "bid"


def test_sealed_bids_all_go_to_the_pot_highest_first_ties_swap():
    """000 IZAKAYA, Bieten um die Zugreihenfolge: every bid is paid into the pot; the highest
    goes first; tied bidders swap their places."""
    s = game(3, bids=[0, 0, 0])
    assert s.order == (2, 1, 0) and s.pot == 0           # all tied: the order turns round
    s = laid_out(iz.setup({"names": ["A", "B", "C"]}))
    s = play(s, Move("order_disc", CHANCE, {"seat": 0}), Move("order_disc", CHANCE, {"seat": 1}))
    s = play(s, Move("bid", 0, {"amount": 200}))
    assert iz.view(s, 1)["players"][0]["bid"] is None and iz.view(s, 0)["players"][0]["bid"] == 200
    assert iz.view(s, None)["players"][0]["has_bid"] is True
    refused(s, Move("bid", 1, {"amount": 1100}), "bid 0 to 1000 yen")
    s = play(s, Move("bid", 1, {"amount": 300}), Move("bid", 2, {"amount": 200}))
    assert s.order == (1, 2, 0) and s.pot == 700 and [x.yen for x in s.seats] == [800, 700, 800]
    assert s.phase == "act" and turn(s) == 1


def test_four_card_corners_fill_first_never_an_outer_corner():
    """000 IZAKAYA, Aktionsphase (farbige Flaschen)."""
    s = game()
    assert s.grid.four_corners == (5, 6, 9, 10)
    assert sorted({m.args["corner"] for m in iz.legal_moves(s, turn(s)) if m.kind == "drink"}) == [5, 6, 9, 10]
    refused(s, Move("drink", turn(s), {"colour": "red", "corner": 1}), "four-card corners first")
    refused(s, Move("drink", turn(s), {"colour": "red", "corner": 0}), "not 0")
    for colour, corner in (("red", 5), ("blue", 6), ("mint", 9)):
        s = act(s, "drink", colour=colour, corner=corner)
    refused(s, Move("drink", turn(s), {"colour": "red", "corner": 10}), "a disc already lies on the red card")
    s = act(s, "drink", colour="white", corner=10)
    assert s.drink_at(5) == "red-stubby_can" and "red-stubby_can" not in s.crates
    assert s.grid.open_corners(k for k, _ in s.drinks) == (1, 2, 4, 7, 8, 11, 13, 14)


def test_price_move_once_a_phase_one_coin_from_a_card_to_another():
    """000 IZAKAYA, Aktionsphase (Preisanpassung)."""
    s = act(game(), "price", **{"from": "black", "onto": "purple"})
    assert s.price("black") == 0 and s.price("purple") == 400
    refused(s, Move("price", turn(s), {"from": "white", "onto": "red"}), "made this phase already")
    assert not [m for m in iz.legal_moves(s, turn(s)) if m.kind == "price"]


def test_claims_lie_between_two_plots_and_each_card_has_one_owner():
    """000 IZAKAYA, Aktionsphase (Grundstück beanspruchen)."""
    s = game()
    first = turn(s)
    refused(s, Move("claim", first, {"plot": 1, "neighbour": 4}), "not two plots side by side")
    refused(s, Move("claim", first, {"plot": 0, "neighbour": 2}), "not two plots side by side")
    s = act(s, "claim", plot=0, neighbour=1)
    refused(s, Move("claim", turn(s), {"plot": 0, "neighbour": 3}), "plot 0 belongs to")
    refused(s, Move("claim", turn(s), {"plot": 1, "neighbour": 0}), "a claim disc lies between cards 1 and 0")
    assert s.owner(0) == first and s.seats[first].claims == ((0, 1),)
    assert iz.view(s, None)["players"][first]["claim_discs"] == 5


def test_three_claim_discs_in_a_line_give_a_free_piece_before_anything_else():
    """000 IZAKAYA, Aktionsphase (Grundstück beanspruchen): three in a straight line (4x4)."""
    s = game(4, bids=[300, 200, 100, 0])
    assert s.order == (0, 1, 2, 3)
    s = play(s, Move("claim", 0, {"plot": 0, "neighbour": 1}))
    s = play(s, Move("price", 1, {"from": "black", "onto": "red"}), Move("drink", 2, {"colour": "red", "corner": 6}),
             Move("drink", 3, {"colour": "mint", "corner": 7}), Move("claim", 0, {"plot": 2, "neighbour": 1}))
    assert s.owed is None
    s = play(s, Move("build", 1, {"plot": 5, "lot": 0, "storeys": 1}), Move("build", 2, {"plot": 5, "lot": 0,
                                                                                           "storeys": 2}))
    s = play(s, Move("build", 3, {"plot": 6, "lot": 0, "storeys": 1}), Move("claim", 0, {"plot": 3, "neighbour": 2}))
    assert s.owed == 0 and turn(s) == 0
    refused(s, Move("claim", 0, {"plot": 9, "neighbour": 13}), "first P1 builds the free piece")
    assert {m.kind for m in iz.legal_moves(s, 0)} == {"free_build"}
    s = play(s, Move("free_build", 0, {"plot": 0, "lot": 0, "storeys": 2}))
    assert s.owed is None and s.storeys(0, 0) == 2 and s.laid(0) == 3 and turn(s) == 1


def test_build_adds_storeys_within_the_limits_two_lots_where_the_card_has_them():
    """000 IZAKAYA, Aktionsphase (Bauaktion): JUTAKU's limits as options (piece_storeys, max_storeys)."""
    s = game(two_lots=[0], piece_storeys=2, max_storeys=3, pieces=3)
    refused(s, Move("build", turn(s), {"plot": 1, "lot": 1, "storeys": 1}), "'lot' one of its lots")
    refused(s, Move("build", turn(s), {"plot": 0, "lot": 0, "storeys": 3}), "1 to 2, not 3")
    refused(s, Move("build", turn(s), {"plot": 4, "lot": 0, "storeys": 1}), "'plot' must be a plot card")
    s = act(s, "build", plot=0, lot=1, storeys=2)
    refused(s, Move("build", turn(s), {"plot": 0, "lot": 1, "storeys": 4}), "3 to 3, not 4")
    s = act(s, "build", plot=0, lot=1, storeys=3)
    s = act(s, "build", plot=0, lot=0, storeys=1)
    assert s.pieces == 0 and s.buildings == ((0, 0, 1, 1), (0, 1, 3, 2))
    refused(s, Move("build", turn(s), {"plot": 2, "lot": 0, "storeys": 1}), "no building piece is left")


def test_build_on_own_plots_only_as_an_option():
    s = game(build_on="own")
    assert not [m for m in iz.legal_moves(s, turn(s)) if m.kind == "build"]
    refused(s, Move("build", turn(s), {"plot": 0, "lot": 0, "storeys": 1}), "plot 0 is not yours to build on")


def test_scoring_example_three_storeys_two_white_one_blue_2100():
    """Worked example: 000 IZAKAYA, Wertung. A 3-storey building whose card has two white drinks
    (200 each) and a blue one (300) at its corners scores 3 x 700 = 2,100.
    Worked example: 002 IZAKAYA, Wertung (the same section, printed in the JIDOHANBAIKI book too)."""
    assert building_score(3, [200, 200, 300]) == 2100
    # white and blue priced 200 and 300 by where their colour cards lie
    s = game(colour_row=["black", "mint", "white", "red", "blue", "purple"], end_pot=100)
    assert (s.price("white"), s.price("blue")) == (200, 300)
    owner = turn(s)
    s = act(s, "claim", plot=0, neighbour=1)
    for colour, corner in (("white", 5), ("black", 6), ("mint", 9), ("red", 10)):
        s = act(s, "drink", colour=colour, corner=corner)
    s = act(s, "build", plot=0, lot=0, storeys=2)
    s = bid(s, [100, 0])
    assert s.last_phase and s.pot == 100
    s = act(s, "drink", colour="white", corner=1)
    s = act(s, "drink", colour="blue", corner=4)
    s = act(s, "build", plot=0, lot=0, storeys=3)
    for _ in range(3):
        s = act(s, "build", plot=8, lot=0, storeys=s.storeys(8, 0) + 1)
    assert iz.is_over(s)
    pay = iz.payouts(s)
    assert pay["buildings"][owner] == 2100 and scores(s)[1 - owner] == 0   # plot 8 is nobody's
    assert pay["projected"][owner] == pay["yen"][owner] + 2100 and pay["winners"] == [owner]
    assert iz.view(s, None)["final"]["totals"] == pay["projected"]


def test_the_pot_mark_gives_one_more_action_phase_then_the_end():
    """000 IZAKAYA, Spielende: 1,500 for two players."""
    s = game(bids=[800, 700])
    assert s.pot == 1500 and s.last_phase and s.options.threshold == 1500
    for _ in range(6):
        s = act(s, "build", plot=0, lot=0, storeys=min(s.storeys(0, 0) + 1, 6))
    assert iz.is_over(s) and iz.pending(s) == []
    assert iz.payouts(s)["final"] and sum(iz.payouts(s)["yen"]) + s.pot == 2000


def test_not_the_mark_then_bidding_again_and_discs_back():
    s = game(bids=[100, 0])
    for _ in range(6):
        s = act(s, "build", plot=0, lot=0, storeys=min(s.storeys(0, 0) + 1, 6))
    assert s.phase == "bid" and s.round == 2 and s.spaces == () and not s.last_phase


def test_a_tie_goes_to_who_kept_more_yen():
    """000 IZAKAYA, Wertung: the most yen wins; a tie goes to whoever kept more of their yen."""
    s = game(bids=[0, 0])
    seats = (replace(s.seats[0], yen=500, plots=(0,)), replace(s.seats[1], yen=800))
    s = replace(s, seats=seats, drinks=((5, "red-stubby_can"),), buildings=((0, 0, 1, 1),))
    assert scores(s) == [300, 0]
    done, _ = iz._finish(s, [])
    assert done.winners == (1,)


def test_grid_lines_of_three():
    g = Grid(4)
    assert g.in_line({(0, 4), (4, 8)}, (8, 12))        # along one grid line
    assert g.in_line({(0, 1), (1, 2)}, (2, 3))         # side by side along a row
    assert not g.in_line({(0, 1), (5, 6)}, (10, 11))   # a staircase is no straight line
    assert not g.in_line({(0, 1)}, (2, 3))             # a gap
    assert len(Grid(3, (4,)).edges) == 8


def test_a_refused_move_changes_nothing_and_the_view_is_json_ready():
    import json

    s = game()
    before = iz.view(s, None)
    refused(s, Move("drink", turn(s), {"colour": "orange", "corner": 5}), "'colour' must be one of")
    assert iz.view(s, None) == before
    json.dumps(before)
    assert before["grid"]["size"] == 3 and before["end_pot"] == 1500 and before["prices"][0]["crate"] == 6


def test_module_doctests():
    import doctest

    from companion.rules.games import izakaya_grid, izakaya_state, izakaya_view

    for module in (iz, izakaya_grid, izakaya_state, izakaya_view):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__
