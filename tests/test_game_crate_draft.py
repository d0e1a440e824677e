"""The crate-filling draft with secret cards (rule book 002; no title in our copy): the deal and the
draft on the phones, crates filling in order, cards laid after the 2nd and 4th full crate, the
200/300 scoring and the tie-break on the first full crate."""
from __future__ import annotations

import pytest

from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.rules.games import crate_draft as g

DEALS = (("red", "blue", "tall_can"), ("mint", "white", "short_can"), ("black", "purple", "stubby_can"))


def drafted():
    """Three players: the cards entered, then each keeps the first card of every packet."""
    s = g.setup({"names": ["Aki", "Ben", "Chie"]})
    for cards in DEALS:
        for c in cards:
            s, _ = g.apply(s, Move("card", CHANCE, {"card": c}))
    while s.phase == g.DRAFT:
        for p in range(3):
            if not s.seats[p].picked:
                s, _ = g.apply(s, Move("pick", p, {"card": s.seats[p].packet[0]}))
    return s


def test_the_draft_keeps_one_and_passes_the_rest_to_the_left_in_secret():
    """002 The crate-filling draft, VORBEREITUNG: pick one, pass the rest left, until all are chosen."""
    s = g.setup({"names": ["Aki", "Ben", "Chie"]})
    for cards in DEALS:
        for c in cards:
            s, _ = g.apply(s, Move("card", CHANCE, {"card": c}))
    assert s.phase == g.DRAFT and {w.actor for w in g.pending(s)} == {0, 1, 2}
    with pytest.raises(IllegalMove):
        g.apply(s, Move("pick", 0, {"card": "mint"}))            # Ben's card
    s, events = g.apply(s, Move("pick", 0, {"card": "blue"}))
    assert events[0].data == {"seat": 0, "secret": True}
    s, _ = g.apply(s, Move("pick", 1, {"card": "white"}))
    s, events = g.apply(s, Move("pick", 2, {"card": "stubby_can"}))
    # Aki gets what Chie passed, Ben what Aki passed
    assert set(s.seats[0].packet) == {"black", "purple"} and set(s.seats[1].packet) == {"red", "tall_can"}
    assert g.view(s, 1)["players"][0]["packet"] is None and g.view(s, 0)["players"][0]["packet"] == ["black", "purple"]
    for p, c in ((0, "purple"), (1, "tall_can"), (2, "short_can")):
        s, events = g.apply(s, Move("pick", p, {"card": c}))
    assert s.phase == g.PLAY and events[-1].kind == "draft_done"
    # the last card of each packet is simply taken: Aki ends with blue, purple and what Chie left her
    assert s.seats[0].hand == ("blue", "purple", "mint") and len(s.seats[1].hand) == 3


def fill(s, drinks_by_crate):
    """Stand the drinks, each crate in turn, by whoever's turn it is (laying the first hand card
    whenever a card is due)."""
    for k, drinks in drinks_by_crate:
        for d in drinks:
            while s.phase == g.LAY:
                for p in range(s.n):
                    moves = g.legal_moves(s, p)
                    if moves:
                        s, _ = g.apply(s, moves[0])
            if s.phase == g.OVER:
                return s
            s, _ = g.apply(s, Move("put", s.player, {"drink": d, "crate": k}))
    return s


def test_cards_are_laid_after_the_second_and_fourth_full_crate_and_the_fifth_ends_it():
    """002 The crate-filling draft, SPIELABLAUF and SPIELENDE."""
    s = drafted()
    crate0 = ["red-tall_can", "red-short_can", "red-stubby_can", "red-square_bottle", "blue-tall_can",
              "mint-tall_can"]
    s = fill(s, [(0, crate0)])
    assert s.full == (0,) and s.phase == g.PLAY
    with pytest.raises(IllegalMove):
        g.apply(s, Move("put", s.player, {"drink": "white-tall_can", "crate": 0}))    # full: set aside
    crate1 = ["blue-short_can", "blue-stubby_can", "blue-square_bottle", "white-tall_can", "white-short_can",
              "black-tall_can"]
    s = fill(s, [(1, crate1)])
    assert s.phase == g.LAY and {w.actor for w in g.pending(s)} == {0, 1, 2}
    s, events = g.apply(s, Move("lay", 0, {"card": "purple"}))
    assert events[0].data == {"seat": 0, "secret": True} and g.view(s, 1)["players"][0]["laid"] is None
    with pytest.raises(IllegalMove):
        g.apply(s, Move("lay", 0, {"card": "red"}))                 # one card now, not two
    s, _ = g.apply(s, Move("lay", 1, {"card": s.seats[1].hand[0]}))
    s, events = g.apply(s, Move("lay", 2, {"card": s.seats[2].hand[0]}))
    assert s.phase == g.PLAY and events[-1].kind == "all_laid"


def test_the_first_laid_card_pays_200_in_the_2nd_and_3rd_crates_the_second_300_in_the_4th_and_5th():
    """002 The crate-filling draft, WERTUNG: 200 and 300 a matching drink."""
    s = drafted()           # Aki: red, purple, short_can; Ben: mint, blue, stubby_can; Chie: black, white, tall_can
    crates = [
        (0, ["blue-tall_can", "blue-short_can", "blue-stubby_can", "blue-square_bottle", "mint-tall_can",
             "white-tall_can"]),
        (1, ["red-tall_can", "red-short_can", "red-stubby_can", "white-short_can", "white-stubby_can",
             "black-tall_can"]),
        (2, ["red-square_bottle", "red-not_tallest_bottle", "mint-short_can", "mint-stubby_can", "black-short_can",
             "black-stubby_can"]),
        (3, ["purple-tall_can", "purple-short_can", "purple-stubby_can", "white-square_bottle", "mint-square_bottle",
             "black-square_bottle"]),
        (4, ["purple-square_bottle", "purple-tallest_bottle", "white-tallest_bottle", "mint-tallest_bottle",
             "black-tallest_bottle", "blue-tallest_bottle"]),
    ]
    # each lays the first card of their hand: Aki red then purple, Ben mint then blue, Chie black then white
    s = fill(s, crates)
    assert s.phase == g.OVER
    assert [x.laid for x in s.seats] == [("red", "purple"), ("mint", "blue"), ("black", "white")]
    # Aki: red in the 2nd and 3rd full crates 3 + 2 = 5 x 200, purple in the 4th and 5th 3 + 2 = 5 x 300
    assert g.earned(s, s.seats[0]) == (5 * 200 + 5 * 300, [5, 5])
    # Ben: mint 0 + 2 x 200, blue 0 + 1 x 300; Chie: black 1 + 2 x 200, white 1 + 1 x 300
    assert g.payouts(s)["yen"] == [2500, 700, 1200] and s.winners == (0,)
    assert g.view(s, None)["players"][1]["laid"] is not None        # the end shows every card


def test_a_tie_goes_to_the_most_matching_drinks_in_the_first_full_crate():
    """002 The crate-filling draft, WERTUNG: ties broken by the first full crate."""
    s = g.setup({"names": ["Aki", "Ben"]})
    seats = (g.Seat("Aki", laid=("red", "tall_can")), g.Seat("Ben", laid=("mint", "short_can")))
    crates = (("red-tall_can", "red-short_can", "mint-short_can", "white-stubby_can", "white-square_bottle",
               "white-tallest_bottle"),) + ((),) * 5
    state = g.State(s.options, seats, crates=crates, full=(0,))
    done, _ = g._finish(state, [])
    # no yen for anyone (only one full crate); Aki has 2 + 1 matches in the first, Ben 1 + 2: a shared win
    assert [x.yen for x in done.seats] == [0, 0] and done.winners == (0, 1)
    state = g.State(s.options, (seats[0], g.Seat("Ben", laid=("black", "square_bottle"))), crates=crates, full=(0,))
    done, _ = g._finish(state, [])
    assert done.winners == (0,)
