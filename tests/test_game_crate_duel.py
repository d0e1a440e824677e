"""The two-player crate duel (rule book 002; id ``crate_duel``): the deal, the three actions and the
pass, scoring the crates and the cards' majority payouts, and refusals that change nothing."""
from __future__ import annotations

import pytest

from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.rules.games import crate_duel as g

COLOURS = ["black", "white", "mint", "blue", "red", "purple"]
SHAPES = ["stubby_can", "short_can", "tall_can", "square_bottle", "not_tallest_bottle", "tallest_bottle"]


def dealt(colours=COLOURS, shapes=SHAPES, **options) -> g.State:
    """A game with the cards laid in the given order (crate 0 = 100 yen ... crate 5 = 600 yen)."""
    s = g.setup({"names": ["Aki", "Ben"], "options": options})
    for c in [*colours, *shapes]:
        s, _ = g.apply(s, Move("lay", CHANCE, {"card": c}))
    assert s.phase == g.PLAY
    return s


def play(s, *moves):
    for player, kind, args in moves:
        s, _ = g.apply(s, Move(kind, player, args))
    return s


def test_setup_gives_each_side_three_drinks_per_card_and_four_coins():
    """002 crate duel, VORBEREITUNG: 18 drinks each (3 of each colour / each shape), four 500s."""
    s = g.setup({"names": ["Aki", "Ben"]})
    assert s.phase == g.DEAL and s.coins == (4, 4) and s.yen(0) == 2000
    assert not set(s.supply[0]) & set(s.supply[1]) and not s.box
    for c in COLOURS:
        assert sum(d.startswith(c + "-") for d in s.supply[0]) == 3
    for sh in SHAPES:
        assert sum(d.endswith("-" + sh) for d in s.supply[1]) == 3
    few = g.setup({"names": ["A", "B"], "options": {"drinks_per_card": 1}})
    assert len(few.supply[0]) == len(few.supply[1]) == 6 and len(few.box) == 24


def test_the_deal_lays_colour_cards_then_shape_cards_and_refuses_a_card_laid():
    s = g.setup({"names": ["Aki", "Ben"]})
    assert {m.args["card"] for m, _ in g.chance(s).outcomes} == set(COLOURS)
    s, _ = g.apply(s, Move("lay", CHANCE, {"card": "red"}))
    with pytest.raises(IllegalMove):
        g.apply(s, Move("lay", CHANCE, {"card": "red"}))
    with pytest.raises(IllegalMove):
        g.apply(s, Move("lay", CHANCE, {"card": "tall_can"}))  # the shapes come after the colours
    assert s.cards[0][0] == "red" and s.cards[0][1] is None


def test_worked_example_purple_at_300_and_stubby_cans_at_500():
    """Worked example: 002 the two-player crate duel, Spielziel. The purple card beside the 300 crate
    makes each purple drink there worth 3 to the colour player; the stubby-can card beside the 500
    crate makes each stubby can there worth 5 to the shape player."""
    s = dealt(colours=["black", "white", "purple", "blue", "red", "mint"],
              shapes=["short_can", "tall_can", "square_bottle", "not_tallest_bottle", "stubby_can", "tallest_bottle"])
    purple = next(d for d in s.supply[0] if d.startswith("purple-"))
    stubby = next(d for d in s.supply[1] if d.endswith("-stubby_can"))
    assert g.move_info(s, Move("place", 0, {"crate": 2, "drink": purple})).params["n"] == 3
    s = play(s, (0, "place", {"crate": 2, "drink": purple}))
    assert g.move_info(s, Move("place", 1, {"crate": 4, "drink": stubby})).params["n"] == 5
    s = play(s, (1, "place", {"crate": 4, "drink": stubby}))
    assert g.crate_points(s, 2) == (3, 0) and g.crate_points(s, 4) == (0, 5)


def test_worked_example_two_purple_drinks_at_the_300_crate_score_6():
    """Worked example: 002 the two-player crate duel, Spielende. Two purple drinks on the colour
    side of the 300 crate score 2 x 3 = 6; the crate goes to the colour player with both drinks."""
    s = dealt(colours=["black", "white", "purple", "blue", "red", "mint"])
    two = [d for d in s.supply[0] if d.startswith("purple-")][:2]
    ben = s.supply[1][0]  # not a short can: it scores nothing beside the short-can card there
    assert not ben.endswith("-tall_can")
    s = play(s, (0, "place", {"crate": 2, "drink": two[0]}), (1, "place", {"crate": 2, "drink": ben}),
             (0, "place", {"crate": 2, "drink": two[1]}))
    assert g.crate_points(s, 2) == (6, 0)
    s = play(s, (1, "pass", {}), (0, "pass", {}))
    assert s.points[2] == (6, 0) and s.won_by[2] == 0
    assert sorted(s.contents[2]) == sorted([*two, ben])


def test_worked_example_a_card_pays_its_crates_yen_to_the_majority_and_a_tie_pays_nobody():
    """Worked example: 002 the two-player crate duel, Wertung. The blue card beside the 600 crate
    pays 600 from the bank to the player whose won crates hold more blue drinks; a tie pays nobody."""
    s = dealt(colours=["black", "white", "mint", "red", "purple", "blue"])
    blue = [d for d in s.supply[0] if d.startswith("blue-")][:2]
    s = play(s, (0, "place", {"crate": 5, "drink": blue[0]}), (1, "pass", {}),
             (0, "place", {"crate": 5, "drink": blue[1]}), (0, "pass", {}))
    assert s.phase == g.OVER and s.won_by[5] == 0
    pays = {card: (yen, seat) for card, yen, seat in s.card_pays}
    assert pays["blue"] == (600, 0)
    # Each blue drink is also some shape: the shape cards beside other crates pay for those too.
    assert s.earned[0] == sum(yen for yen, seat in pays.values() if seat == 0)
    assert pays["black"] == (100, None)  # nobody collected black: a tie, nobody paid
    assert s.yen(0) == 2000 + s.earned[0] and s.bank == 20_000 - s.earned[0]
    assert s.winners == (0,)


def test_a_pass_discards_the_supply_and_the_other_plays_on_alone():
    """002 crate duel, PASSEN."""
    s = dealt()
    s = play(s, (0, "pass", {}))
    assert s.supply[0] == () and len(s.discarded) == 18 and s.turn == 1
    d = s.supply[1][0]
    s = play(s, (1, "place", {"crate": 0, "drink": d}))
    assert s.turn == 1 and s.phase == g.PLAY
    before = s
    with pytest.raises(IllegalMove):
        g.apply(s, Move("place", 0, {"crate": 0, "drink": d}))
    assert s == before


def test_throwing_spends_a_coin_and_what_comes_out_goes_back_onto_the_card():
    """002 crate duel, SPIELABLAUF 2: the stuck drink stays in the tower; pushed out later, it is discarded."""
    s = dealt()
    (a, b), (x, y) = s.supply[1][:2], s.supply[0][:2]
    s = play(s, (0, "place", {"crate": 0, "drink": x}), (1, "place", {"crate": 3, "drink": a}),
             (0, "place", {"crate": 1, "drink": y}), (1, "place", {"crate": 3, "drink": b}))
    s = play(s, (0, "throw", {"crate": 3}))
    assert s.phase == g.DROP and s.coins == (3, 4) and s.bank == 20_500 and s.placed[1][3] == ()
    s = play(s, (CHANCE, "drop", {"out": [a]}))
    assert s.placed[1][3] == (a,) and s.tower.inside == {b} and s.turn == 1 and s.phase == g.PLAY
    s = play(s, (1, "throw", {"crate": 0}))
    first = s.thrown[0]
    s = play(s, (CHANCE, "drop", {"out": [first, b]}))
    assert b in s.discarded and s.placed[0][0] == (first,) and not s.tower.inside


def test_taking_back_spends_a_coin_and_returns_the_drinks_to_the_supply():
    """002 crate duel, SPIELABLAUF 3."""
    s = dealt(coins=1)
    d = s.supply[0][0]
    s = play(s, (0, "place", {"crate": 4, "drink": d}), (1, "pass", {}), (0, "take_back", {"crate": 4}))
    assert d in s.supply[0] and s.coins[0] == 0 and s.yen(0) == 0
    s = play(s, (0, "place", {"crate": 4, "drink": d}))
    before = s
    with pytest.raises(IllegalMove, match="none left"):
        g.apply(s, Move("take_back", 0, {"crate": 4}))
    assert s == before and not [m for m in g.legal_moves(s, 0) if m.kind == "take_back"]


def test_a_tied_crate_discards_both_sides_and_a_full_one_lets_the_winner_discard_the_rest():
    """002 crate duel, SPIELENDE: a tie discards every drink there; beyond six the winner chooses."""
    s = dealt(crate_size=2)
    black = [d for d in s.supply[0] if d.startswith("black-")]
    stubby = [d for d in s.supply[1] if d.endswith("-stubby_can")]
    short = next(d for d in s.supply[1] if d.endswith("-short_can"))
    s = play(s, (0, "place", {"crate": 0, "drink": black[0]}), (1, "place", {"crate": 0, "drink": stubby[0]}),
             (0, "place", {"crate": 1, "drink": black[1]}), (1, "place", {"crate": 1, "drink": short}),
             (0, "place", {"crate": 1, "drink": black[2]}), (1, "pass", {}), (0, "pass", {}))
    assert s.points[0] == (1, 1) and s.won_by[0] is None and not s.contents[0]
    assert {black[0], stubby[0]} <= set(s.discarded)
    assert s.phase == g.KEEP and s.turn == 1 and s.keeping[0] == 1  # Ben wins crate 1 with three drinks there
    assert s.points[1] == (0, 2)  # two black drinks beside the white card score nothing; a short can 2
    with pytest.raises(IllegalMove):
        g.apply(s, Move("discard", 1, {"drink": stubby[0]}))  # discarded already, not in this crate
    s = play(s, (1, "discard", {"drink": black[1]}))
    assert set(s.contents[1]) == {black[2], short} and black[1] in s.discarded
    assert s.phase == g.OVER


def test_refusals_name_what_is_wrong_and_change_nothing():
    s = dealt()
    bad = [Move("place", 0, {"crate": 6, "drink": s.supply[0][0]}),
           Move("place", 0, {"crate": 0, "drink": s.supply[1][0]}),
           Move("place", 1, {"crate": 0, "drink": s.supply[1][0]}),  # not Ben's turn
           Move("throw", 0, {"crate": 0}), Move("take_back", 0, {"crate": 0}),
           Move("discard", 0, {"drink": s.supply[0][0]}), Move("drop", CHANCE, {"out": []})]
    for move in bad:
        with pytest.raises(IllegalMove):
            g.apply(s, move)
    assert s == dealt()


def test_crate_yen_and_first_player_options():
    s = dealt(first="shape", crate_yen=True)
    assert s.turn == 1
    d = next(d for d in s.supply[1] if d.endswith("-tallest_bottle"))
    s = play(s, (1, "place", {"crate": 5, "drink": d}), (0, "pass", {}), (1, "pass", {}))
    assert s.won_by[5] == 1 and s.earned[1] >= 600 + 600  # the crate's yen and the tallest-bottle card's
