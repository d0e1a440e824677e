"""The bottle-giving game (rule book 002; no title in our copy): the uneven hand-out and yen by
player count, secret cards entered on the phones, gifts, 100 to the bank per matching drink, the
deck reshuffled from the discards, and the end when a player's yen run out."""
from __future__ import annotations

import pytest

from companion.drinks import DRINK_IDS
from companion.rules.engine import CHANCE, IllegalMove, Move
from companion.rules.games import bottle_giving as g


def handed(names=("Aki", "Ben", "Chie"), start=0, cards=("red", "blue", "mint"), options=None):
    """A game with the drinks handed out in catalogue order and the cards drawn, seat by seat
    from the start player."""
    s = g.setup({"names": list(names), "start_player": start, "options": options or {}})
    for d in DRINK_IDS[:sum(s.counts)]:
        s, _ = g.apply(s, Move("hand_out", CHANCE, {"drink": d}))
    for card in cards:
        s, _ = g.apply(s, Move("card", CHANCE, {"card": card}))
    return s


@pytest.mark.parametrize("n, counts, yen", [(3, (8, 10, 12), 1500), (4, (7, 8, 9, 10), 1000),
                                            (5, (5, 6, 7, 8, 9), 700), (6, (3, 4, 5, 6, 7, 8), 500)])
def test_drinks_and_yen_by_the_number_of_players(n, counts, yen):
    """002 The bottle-giving game, VORBEREITUNG: the table of drinks and yen; the start player gets the fewest."""
    s = g.setup({"names": [f"P{i}" for i in range(n)], "start_player": 1})
    assert s.counts == tuple(counts[(p - 1) % n] for p in range(n))
    assert all(x.yen == yen for x in s.seats) and s.counts[1] == min(counts)


def test_the_hand_out_goes_from_the_start_player_on_and_the_rest_stays_in_the_box():
    s = g.setup({"names": ["Aki", "Ben", "Chie"], "start_player": 2})
    assert [w.actor for w in g.pending(s)] == [CHANCE]
    s, events = g.apply(s, Move("hand_out", CHANCE, {"drink": "red-tall_can"}))
    assert events[0].data == {"seat": 2, "drink": "red-tall_can"}
    with pytest.raises(IllegalMove):
        g.apply(s, Move("hand_out", CHANCE, {"drink": "red-tall_can"}))
    for d in [d for d in DRINK_IDS if d != "red-tall_can"][:29]:
        s, _ = g.apply(s, Move("hand_out", CHANCE, {"drink": d}))
    assert [len(x.drinks) for x in s.seats] == [10, 12, 8] and len(s.box()) == 6
    assert s.phase == g.CARDS and g.pending(s)[0].secret_for == 2


def test_each_card_is_entered_on_its_owners_phone_and_shown_to_nobody_else():
    s = handed(cards=("red",))
    assert g.pending(s)[0].secret_for == 1
    assert len(g.chance(s).offer) == 12          # every card offered: the missing one would tell Aki's
    with pytest.raises(IllegalMove) as held:
        g.apply(s, Move("card", CHANCE, {"card": "red"}))
    assert "check the card you drew" in held.value.reason
    s, events = g.apply(s, Move("card", CHANCE, {"card": "blue"}))
    assert events[0].data == {"seat": 1, "secret": True}
    assert g.view(s, 0)["players"][1]["secret"] is None and g.view(s, 1)["players"][1]["secret"] == "blue"
    assert g.view(s, None)["players"][0]["has_secret"] is True


def test_the_others_give_two_each_at_three_players_and_the_matching_ones_cost_100_each():
    """002 The bottle-giving game, SPIELABLAUF: gifts, the card turned up, 100 per matching drink."""
    s = handed()                                    # Aki (start) holds red; Ben blue, Chie mint
    assert s.phase == g.GIVE and {w.actor for w in g.pending(s)} == {1, 2}
    ben, chie = s.seats[1].drinks, s.seats[2].drinks
    with pytest.raises(IllegalMove):
        g.apply(s, Move("give", 0, {"drink": s.seats[0].drinks[0]}))     # the active player gives nothing
    with pytest.raises(IllegalMove):
        g.apply(s, Move("give", 1, {"drink": chie[0]}))                  # not Ben's drink
    gifts = [(1, ben[0]), (1, ben[1]), (2, chie[0]), (2, chie[1])]
    for seat, d in gifts:
        s, events = g.apply(s, Move("give", seat, {"drink": d}))
    given = [d for _, d in gifts]
    matching = [d for d in given if d.startswith("red-")]
    assert events[-1].kind == "card_shown" and events[-1].data["card"] == "red"
    assert events[-1].data["paid"] == 100 * len(matching) and s.bank == 100 * len(matching)
    assert s.seats[0].yen == 1500 - 100 * len(matching) and set(given) <= set(s.seats[0].drinks)
    assert s.discard == ("red",) and s.phase == g.DRAW and g.pending(s)[0].secret_for == 0
    s, _ = g.apply(s, Move("card", CHANCE, {"card": "white"}))
    assert s.player == 1 and {w.actor for w in g.pending(s)} == {0, 2}


def test_drinks_that_match_by_shape_cost_too():
    s = handed(cards=("tall_can", "blue", "mint"))
    ben = s.seats[1].drinks                         # Ben's drinks are black and white ones by catalogue order
    tall = [d for d in ben if d.endswith("-tall_can")][:1]
    other = [d for d in ben if not d.endswith("tall_can")][:2 - len(tall)]
    for d in tall + other:
        s, _ = g.apply(s, Move("give", 1, {"drink": d}))
    chie = [d for d in s.seats[2].drinks if not d.endswith("tall_can")][:2]
    for d in chie:
        s, events = g.apply(s, Move("give", 2, {"drink": d}))
    assert events[-1].data["matching"] == tall and s.bank == 100 * len(tall)


def test_the_game_ends_at_once_when_a_player_runs_out_of_yen_and_a_tie_goes_to_fewer_drinks():
    """002 The bottle-giving game, SPIELENDE: no yen left ends it; the most yen wins, then the fewest drinks."""
    s = handed(options={"price": 1500})             # one matching drink empties a purse
    # give Aki (red card) a red drink from whoever holds one, the rest anything
    reds = [(p, d) for p in (1, 2) for d in s.seats[p].drinks if d.startswith("red-")]
    assert reds, "the catalogue-order hand-out gives Ben or Chie red drinks"
    first = reds[0]
    s, _ = g.apply(s, Move("give", first[0], {"drink": first[1]}))
    while g.pending(s) and s.phase == g.GIVE:
        w = g.pending(s)[0]
        s, events = g.apply(s, g.legal_moves(s, w.actor)[-1])
    assert s.phase == g.OVER and s.seats[0].yen == 0
    assert 0 not in s.winners and events[-1].kind == "game_over"
    # Ben and Chie tie on 1,500: the one with fewer drinks wins (or both, if equal)
    fewer = min(len(s.seats[1].drinks), len(s.seats[2].drinks))
    assert s.winners == tuple(p for p in (1, 2) if len(s.seats[p].drinks) == fewer)


def test_the_deck_is_reshuffled_from_the_discards_when_it_runs_out():
    """002 The bottle-giving game, SPIELABLAUF: an empty deck: the discards make a new one."""
    s = handed(options={"price": 0, "max_turns": 0})
    drawn = 0
    while True:
        w = g.pending(s)[0]
        if w.actor == CHANCE:
            deck = sorted(m.args["card"] for m, _ in g.chance(s).outcomes)
            held = {x.card for x in s.seats if x.card}
            assert not set(deck) & held
            s, events = g.apply(s, Move("card", CHANCE, {"card": deck[0]}))
            drawn += 1
            if any(e.kind == "reshuffled" for e in events):
                break
        else:
            s, _ = g.apply(s, g.legal_moves(s, w.actor)[0])
    # 12 cards, 3 held: the deck of 9 ran out after 9 draws; the 10th came from the reshuffled discards
    assert drawn == 10 and len(s.discard) == 0
