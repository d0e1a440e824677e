"""The four-crate colour-sorting solo game (rule book 002; id ``colour_sort``): rules, the worked
examples of its section, and refusals that change nothing (docs/rules-notes.md, its section)."""
from dataclasses import replace

import pytest

from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.rules.games import colour_sort as g

EMPTY = (None,) * 6
SHAPES = g.SHAPE_IDS


def sorted_crates(colours=("mint", "blue", "red")):
    """Each outer crate full of one colour, shape s in slot s; the middle crate empty."""
    return tuple(tuple(f"{c}-{s}" for s in SHAPES) for c in colours) + (EMPTY,)


def started(**options):
    return g.setup({"layout": g.LAYOUT_EXAMPLE, "options": options})


def turned(state, card):
    state, _ = g.apply(state, Move("draw", CHANCE, {"card": card}))
    return state


def refused(state, move, match):
    with pytest.raises(IllegalMove, match=match):
        g.apply(state, move)


def test_setup_from_chance_picks_colours_then_fills_the_outer_crates():
    s = g.setup({})
    assert s.phase == g.LEAVE and s.yen == 3900
    for c in ("red", "black", "mint"):
        s, _ = g.apply(s, Move("colour", CHANCE, {"colour": c}))
    assert s.phase == g.FILL and s.colours == ("black", "mint", "red")
    refused(s, Move("fill", CHANCE, {"drink": "blue-tall_can"}), "not a drink still to be placed")
    for d in s.drinks:
        s, _ = g.apply(s, Move("fill", CHANCE, {"drink": d}))
    # drawn in order, each outer crate holds one colour: far over the start rule
    assert s.phase == g.FIX and s.crates[-1] == EMPTY
    while s.phase == g.FIX:
        s, _ = g.apply(s, g.legal_moves(s, 0)[0])
    assert s.phase == g.DRAW and g._excess(s) == 0 and len(s.deck) == 9


def test_a_layout_keeping_the_start_rule_begins_with_the_deck():
    s = started()
    assert s.phase == g.DRAW and set(s.deck) == set(SHAPES) | {"mint", "blue", "red"}
    assert {m.args["card"] for m, _ in g.chance(s).outcomes} == set(s.deck)
    with pytest.raises(IllegalMove, match="layout"):
        g.setup({"layout": g.LAYOUT_EXAMPLE[:-1]})


def test_a_stubby_can_card_moves_a_stubby_can_to_the_same_slot_of_another_crate():
    """Worked example: 002 the colour-sorting game with four crates, Spielablauf (the stubby can
    top left goes to the top-left slot of another crate)."""
    s = turned(started(), "stubby_can")
    assert s.phase == g.MOVE and s.card == "stubby_can"
    assert s.crates[0][0] == "mint-stubby_can"
    # every stubby can stands in slot 0, which is free only in the middle crate
    assert {(m.args["crate"], m.args["at"], m.args["into"]) for m in g.legal_moves(s, 0) if m.kind == "move"} \
        == {(0, 0, 3), (1, 0, 3), (2, 0, 3)}
    after, events = g.apply(s, Move("move", 0, {"crate": 0, "at": 0, "into": 3}))
    assert after.crates[3][0] == "mint-stubby_can" and after.crates[0][0] is None
    assert after.phase == g.DRAW and after.card is None and len(after.deck) == 8
    assert events[0].kind == "drink_moved"


def test_refused_moves_change_nothing():
    s = turned(started(), "stubby_can")
    before = replace(s)
    refused(s, Move("move", 0, {"crate": 0, "at": 1, "into": 3}), "matching the stubby_can card")
    refused(s, Move("move", 0, {"crate": 0, "at": 0, "into": 1}), "same slot")
    refused(s, Move("move", 0, {"crate": 0, "at": 0, "into": 0}), "same slot")
    refused(s, Move("move", 0, {"crate": 9, "at": 0, "into": 3}), "crate must be 0 to 3")
    refused(s, Move("pass", 0, {}), "pass only when none can")
    refused(s, Move("shift", 0, {"crate": 0, "at": 0, "to_slot": 1}), "empty slot beside it")
    refused(s, Move("swap_two", 0, {"crate": 3, "slots": [0, 1]}), "two drinks")
    refused(s, Move("draw", CHANCE, {"card": "red"}), "draw")
    assert s == before


def test_special_actions_cost_their_own_coin_and_stop_when_it_is_gone():
    s = turned(started(), "red")
    s, _ = g.apply(s, Move("move", 0, {"crate": 0, "at": 2, "into": 3}))   # the red tall can into the middle
    s = turned(s, "blue")
    s1, _ = g.apply(s, Move("shift", 0, {"crate": 0, "at": 0, "to_slot": 2}))
    assert s1.crates[0][2] == "mint-stubby_can" and s1.fives == 2 and s1.yen == 3400 and s1.phase == g.MOVE
    refused(s, Move("shift", 0, {"crate": 0, "at": 5, "to_slot": 2}), "not diagonally")
    s2, _ = g.apply(s, Move("swap_two", 0, {"crate": 1, "slots": [0, 5]}))
    assert s2.crates[1][0] == s.crates[1][5] and s2.thousands == 1 and s2.yen == 2900
    broke = replace(s, fives=0, thousands=0)
    refused(broke, Move("shift", 0, {"crate": 0, "at": 0, "to_slot": 2}), "500-yen coin")
    refused(broke, Move("swap_two", 0, {"crate": 1, "slots": [0, 5]}), "1,000-yen note")
    assert not [m for m in g.legal_moves(broke, 0) if m.kind == "shift"] and not g.composite_moves(broke, 0)
    pickers = g.composite_moves(s, 0)       # the middle crate holds one drink: nothing to swap there
    assert [c["base"]["crate"] for c in pickers] == [0, 1, 2] and pickers[1]["pick"]["from"] == list(range(6))
    assert pickers[0]["pick"]["from"] == [0, 1, 3, 4, 5]      # slot 2 of crate 0 is empty
    refused(s, Move("swap_two", 0, {"crate": 1, "slots": [0]}), "two slots")


def test_a_colour_card_whose_drinks_are_home_is_set_aside_and_buys_back_a_500():
    """Worked example: 002 the colour-sorting game with four crates, Auszahlung (all drinks of the
    colour in one outer crate: the card is set aside, and at the round's end buys back a 500)."""
    reds = [f"red-{x}" for x in SHAPES]
    mixed = [f"{'mint' if i % 2 == 0 else 'blue'}-{x}" for i, x in enumerate(SHAPES)]
    other = [f"{'blue' if i % 2 == 0 else 'mint'}-{x}" for i, x in enumerate(SHAPES)]
    s = g.setup({"layout": reds + mixed + other, "options": {"fix_limit": 0}})
    assert g.is_home(s, "red") and not g.is_home(s, "mint") and not g.is_home(s, "tall_can")
    s = replace(s, deck=("red",), fives=2, spent_fives=1)    # a 500 spent earlier this round
    s, events = g.apply(s, Move("draw", CHANCE, {"card": "red"}))
    assert [e.kind for e in events] == ["set_aside", "round_over"]
    assert events[1].data == {"round": 1, "back_500": 1, "back_1000": 0}
    assert s.fives == 3 and s.spent_fives == 0 and s.hundreds == 3 and s.round == 2
    assert s.aside == () and len(s.deck) == 9 and s.phase == g.DRAW


def test_two_cards_buy_back_a_1000_note_first_and_100s_never():
    s = replace(started(), deck=("stubby_can",), aside=("red", "blue", "mint"), fives=2, spent_fives=1,
                thousands=1, spent_thousands=1)
    s = turned(s, "stubby_can")
    s, events = g.apply(s, Move("move", 0, {"crate": 0, "at": 0, "into": 3}))
    assert events[-1].data == {"round": 1, "back_500": 1, "back_1000": 1}
    assert (s.fives, s.thousands, s.hundreds) == (3, 2, 3)


def test_the_last_100_coin_of_the_time_track_loses_the_game():
    s = replace(started(), deck=("stubby_can",), hundreds=1)
    s = turned(s, "stubby_can")
    s, events = g.apply(s, Move("move", 0, {"crate": 0, "at": 0, "into": 3}))
    assert s.phase == g.OVER and s.result == "lost" and s.why == "time_ran_out" and g.score(s) is None
    assert g.payouts(s)["winners"] == []
    refused(s, Move("pass", 0, {}), "over")


def test_sorting_the_last_drink_wins_at_once_and_scores_yen_and_set_aside_cards():
    crates = list(sorted_crates())
    crates[1] = crates[1][:3] + (None,) + crates[1][4:]
    crates[3] = (None, None, None, "blue-square_bottle", None, None)
    s = replace(started(), crates=tuple(crates), deck=("square_bottle", "tall_can"), aside=("red",), fives=2)
    assert not g.is_won(s)
    s = turned(s, "square_bottle")
    s, events = g.apply(s, Move("move", 0, {"crate": 3, "at": 3, "into": 1}))
    assert s.result == "won" and events[-1].kind == "game_over"
    assert g.score(s) == 400 + 1000 + 2000 + 500 and g.payouts(s)["winners"] == [0]


def test_the_same_position_variant_wins_only_with_each_shape_on_one_slot():
    """Worked example: 002 the colour-sorting game with four crates, Varianten (the too-easy
    variant: every drink of a shape on the same slot in its crate, e.g. all tallest bottles top left)."""
    s = replace(started(same_position=True), crates=sorted_crates())
    assert s.hundreds == 5 and g.is_won(s)
    flipped = list(s.crates)
    flipped[2] = tuple(reversed(flipped[2]))     # red's tallest bottle top left, the others bottom right
    assert not g.is_won(replace(s, crates=tuple(flipped)))
    assert g.is_won(replace(started(), crates=tuple(flipped)))
    rotated = [tuple(reversed(c)) if i < 3 else c for i, c in enumerate(s.crates)]
    assert g.is_won(replace(s, crates=tuple(rotated)))    # the slot is the player's choice


def test_the_too_chaotic_variant_wins_with_any_crates_but_one():
    crates = sorted_crates()
    moved = (crates[0], crates[1], EMPTY, crates[2])    # red sorted in the middle crate
    assert not g.is_won(replace(started(), crates=moved))
    assert g.is_won(replace(started(win="any"), crates=moved))


def test_more_colours_bring_a_crate_and_a_round_each_and_options_are_bounded():
    s = g.setup({"options": {"colours": 5, "extra_rounds": 1}})
    assert len(s.crates) == 6 and s.hundreds == 4 + 2 + 1
    with pytest.raises(IllegalMove):
        g.setup({"options": {"colours": 6}})
    with pytest.raises(IllegalMove, match="time track"):
        g.setup({"options": {"hundreds": 0}})


def test_a_pass_only_when_no_drink_of_the_card_can_move():
    s = started()
    s = replace(s, crates=s.crates[:3] + (("black-stubby_can",) + (None,) * 5,))   # slot 0 taken everywhere
    s = turned(s, "stubby_can")
    kinds = {m.kind for m in g.legal_moves(s, 0)}
    assert "move" not in kinds and "pass" in kinds
    s, events = g.apply(s, Move("pass", 0, {}))
    assert events[0].kind == "passed" and s.phase == g.DRAW
