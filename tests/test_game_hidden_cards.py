"""The hidden cards (rule book 002, the two-player deduction game; no title in our copy): the deal
entered card by card, the laid card, questions answered only truly, the drink going onto the
right card, the forced guess at six drinks, and who wins a guess."""
from __future__ import annotations

import pytest

from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.rules.games import hidden_cards as g

# seat 0 is dealt red, blue, black and two cans; seat 1 the other colours but purple and the
# bottles but the tallest: the hidden pair is purple and tallest_bottle
HAND_A = ("red", "blue", "black", "stubby_can", "short_can")
HAND_B = ("white", "mint", "tall_can", "square_bottle", "not_tallest_bottle")


def dealt(first: int = 0, lay_a: str = "black", lay_b: str = "mint"):
    s = g.setup({"names": ["Aki", "Ben"], "options": {"first_player": first}})
    for card in HAND_A + HAND_B:
        s, _ = g.apply(s, Move("card", CHANCE, {"card": card}))
    s, _ = g.apply(s, Move("lay", 0, {"card": lay_a}))
    s, _ = g.apply(s, Move("lay", 1, {"card": lay_b}))
    return s


def test_the_deal_is_entered_on_each_players_phone_and_leaves_one_colour_and_one_shape_hidden():
    """002 The hidden cards, VORBEREITUNG: one colour and one shape card hidden, five cards each."""
    s = g.setup({"names": ["Aki", "Ben"]})
    assert [(w.actor, w.secret_for) for w in g.pending(s)] == [(CHANCE, 0)]
    for card in HAND_A:
        s, events = g.apply(s, Move("card", CHANCE, {"card": card}))
        assert events[0].data == {"seat": 0, "secret": True}    # the card itself is not in the event
    assert [w.secret_for for w in g.pending(s)] == [1]
    for card in HAND_B[:4]:
        s, _ = g.apply(s, Move("card", CHANCE, {"card": card}))
    # five colours are dealt: the last one (purple) must stay hidden, so Ben's fifth card is a
    # bottle; a card already dealt is refused in the same words, which do not tell whose it is
    offered = {m.args["card"] for m, _ in g.chance(s).outcomes}
    assert offered == {"not_tallest_bottle", "tallest_bottle"}
    assert len(g.chance(s).offer) == 12           # the phone is offered every card all the same
    with pytest.raises(IllegalMove):
        g.apply(s, Move("card", CHANCE, {"card": "purple"}))
    with pytest.raises(IllegalMove) as held:
        g.apply(s, Move("card", CHANCE, {"card": "red"}))
    assert "check the card in your hand" in held.value.reason
    s, _ = g.apply(s, Move("card", CHANCE, {"card": "not_tallest_bottle"}))
    assert s.phase == g.LAY and s.hidden() == ("purple", "tallest_bottle")


def test_each_player_lays_one_of_their_own_cards_in_secret():
    """002 The hidden cards, VORBEREITUNG: one card face down in front, four in hand."""
    s = g.setup({"names": ["Aki", "Ben"]})
    for card in HAND_A + HAND_B:
        s, _ = g.apply(s, Move("card", CHANCE, {"card": card}))
    assert {w.actor for w in g.pending(s)} == {0, 1}
    with pytest.raises(IllegalMove):
        g.apply(s, Move("lay", 0, {"card": "white"}))           # Ben's card, not Aki's
    s, events = g.apply(s, Move("lay", 0, {"card": "black"}))
    assert events[0].data == {"seat": 0, "secret": True}
    assert g.view(s, 1)["players"][0]["laid"] is None and g.view(s, 0)["players"][0]["laid"] == "black"
    assert g.view(s, 0)["players"][0]["hand"] == ["red", "blue", "stubby_can", "short_can"]
    s, _ = g.apply(s, Move("lay", 1, {"card": "mint"}))
    assert s.phase == g.ASK and g.pending(s)[0].actor == 0


def test_a_yes_puts_the_drink_on_the_answerers_card_a_no_on_the_askers():
    """002 The hidden cards, SPIELABLAUF: the drink goes to whoever the answer favours."""
    s = dealt()
    s, _ = g.apply(s, Move("ask", 0, {"drink": "white-stubby_can"}))
    # Ben holds white in hand: only "yes" is offered on his phone, a "no" is refused
    assert g.legal_moves(s, 1) == [Move("answer", 1, {"answer": "yes"})]
    with pytest.raises(IllegalMove):
        g.apply(s, Move("answer", 1, {"answer": "no"}))
    s, events = g.apply(s, Move("answer", 1, {"answer": "yes"}))
    assert s.seats[1].won == ("white-stubby_can",) and events[0].data["to_seat"] == 1
    assert s.phase == g.ASK and s.turn == 1
    # a purple tallest bottle matches none of Aki's hand: "no", and it goes onto Ben's card
    s, _ = g.apply(s, Move("ask", 1, {"drink": "purple-tallest_bottle"}))
    assert g.legal_moves(s, 0) == [Move("answer", 0, {"answer": "no"})]
    s, _ = g.apply(s, Move("answer", 0, {"answer": "no"}))
    assert s.seats[1].won == ("white-stubby_can", "purple-tallest_bottle")
    s, _ = g.apply(s, Move("ask", 0, {"drink": "black-tall_can"}))
    s, _ = g.apply(s, Move("answer", 1, {"answer": "yes"}))   # Ben's tall_can card
    with pytest.raises(IllegalMove):
        g.apply(s, Move("ask", 1, {"drink": "black-tall_can"}))   # no longer in the middle


def test_a_laid_card_does_not_answer():
    """002 The hidden cards, SPIELABLAUF: the question is about the hand cards only."""
    s = dealt()                                           # Ben laid mint
    s, _ = g.apply(s, Move("ask", 0, {"drink": "mint-tallest_bottle"}))
    assert g.legal_moves(s, 1) == [Move("answer", 1, {"answer": "no"})]


def test_six_drinks_on_a_card_force_that_player_to_guess_at_once():
    """002 The hidden cards, SPIELENDE: six drinks on your card: you must guess now."""
    s = dealt()
    # Aki asks white drinks (Ben holds white: yes), Ben asks white bottles and a tall can (Aki
    # holds none of them: no): every one lands on Ben's card
    yes_for_ben = ["white-short_can", "white-tall_can", "white-square_bottle", "white-not_tallest_bottle",
                   "white-stubby_can", "white-tallest_bottle"]
    for d in yes_for_ben:
        asker = s.turn
        s, _ = g.apply(s, Move("ask", asker, {"drink": d}))
        s, events = g.apply(s, g.legal_moves(s, 1 - asker)[0])
        assert events[0].data["answer"] == ("yes" if asker == 0 else "no")
    assert len(s.seats[1].won) == 6 and s.phase == g.GUESS and s.guesser == 1
    assert {m.kind for m in g.legal_moves(s, 1)} == {"guess"} and g.pending(s)[0].actor == 1


@pytest.mark.parametrize("guess, winner", [(("purple", "tallest_bottle"), 0), (("purple", "short_can"), 1),
                                           (("red", "tallest_bottle"), 1)])
def test_a_right_guess_wins_and_one_wrong_card_hands_the_win_to_the_other(guess, winner):
    """002 The hidden cards, DIE VERBORGENEN KARTEN ERRATEN: both right wins, one wrong loses."""
    s = dealt()
    s, events = g.apply(s, Move("guess", 0, {"colour": guess[0], "shape": guess[1]}))
    assert s.phase == g.OVER and s.winners == (winner,)
    assert events[0].data["hidden"] == ["purple", "tallest_bottle"]
    assert g.payouts(s) == {"yen": [0, 0], "final": True, "winners": [winner], "projected":
                            [int(winner == 0), int(winner == 1)]}
    table = g.view(s, None)
    assert table["hidden"] == ["purple", "tallest_bottle"] and table["players"][1]["laid"] == "mint"


def test_a_guess_is_made_only_in_ones_own_turn():
    s = dealt()
    with pytest.raises(IllegalMove):
        g.apply(s, Move("guess", 1, {"colour": "purple", "shape": "tallest_bottle"}))
    with pytest.raises(IllegalMove):
        g.apply(s, Move("guess", 0, {"colour": "tallest_bottle", "shape": "purple"}))


def test_a_players_view_shows_their_own_candidates_and_never_the_other_hand():
    s = dealt()
    mine = g.view(s, 0)
    assert mine["candidates"] == {"colours": ["white", "mint", "purple"],
                                  "shapes": ["tall_can", "square_bottle", "not_tallest_bottle", "tallest_bottle"]}
    assert mine["players"][1]["hand"] is None and g.view(s, None)["candidates"] is None
    s, _ = g.apply(s, Move("ask", 0, {"drink": "white-stubby_can"}))
    info = g.move_info(s, Move("answer", 1, {"answer": "yes"}), viewer=1)
    assert info.params["cards"] == ["white"]
