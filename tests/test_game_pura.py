"""PURA (solo), one test per rule, driven with explicit moves (chance included)."""

import copy
import json
import random
from dataclasses import replace
from itertools import combinations

import pytest

from companion.drinks import COLOURS, DRINK_IDS, SHAPES
from companion.rules.engine import CHANCE, ChanceDrop, IllegalMove, Move, Pending
from companion.rules.games import GAMES
from companion.rules.games import pura, pura_crates

# A layout that keeps the start rule: slot s of crate k holds colour (k + s) and shape (2k + s),
# so every crate has six colours and six shapes (and each drink appears once).
GOOD = [f"{COLOURS[(k + s) % 6].value}-{SHAPES[(2 * k + s) % 6].value}" for k in range(6) for s in range(6)]


def chance(kind, **args):
    return Move(kind, CHANCE, args)


def game(layout=GOOD, **options):
    return pura.setup({"layout": list(layout), "options": options})


def play(state, *moves):
    for m in moves:
        state, _ = pura.apply(state, m)
    return state


def assert_illegal(state, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        pura.apply(state, move)
    for w in words:
        assert w.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


def with_crates(state, crates):
    """Crates set directly (a list of six lists of six drink ids or None)."""
    return replace(state, crates=tuple(tuple(c) for c in crates))


def test_good_layout_is_a_legal_start():
    assert sorted(GOOD) == sorted(DRINK_IDS)
    assert pura.excess(game().crates) == 0 and game().phase == pura.PLAY


def test_registered():
    assert GAMES["pura"] is pura.GAME and pura.PLAYERS == (1,)


# --- setup ------------------------------------------------------------------------------------

def test_setup_fills_the_crates_one_random_drink_at_a_time():
    state = pura.setup({})
    assert state.phase == pura.FILL and pura.pending(state) == [Pending(CHANCE)]
    assert len(pura.chance(state).outcomes) == 36
    for d in GOOD:
        state = play(state, chance("fill", drink=d))
    assert state.crates == game().crates and state.phase == pura.PLAY
    assert_illegal(pura.setup({}), chance("fill", drink="red"), "not a drink still to be placed")


def test_setup_coins_ten_100s_and_three_500s_and_the_harder_game():
    state = game()
    assert (state.hundreds, state.fives, state.yen) == (10, 3, 2500)
    hard = game(hard=True)
    assert (hard.hundreds, hard.fives, hard.yen) == (8, 2, 1800)


def test_setup_four_alike_in_a_crate_must_be_fixed_by_a_swap():
    state = game(layout=DRINK_IDS)  # crate 0 holds six black drinks
    assert state.phase == pura.FIX and pura.excess(state.crates) > 0
    moves = pura.legal_moves(state, 0)
    assert moves and all(m.kind == "fix" for m in moves)
    # a swap that does not help is refused
    assert_illegal(state, Move("fix", 0, {"a": 0, "a_slot": 0, "b": 0, "b_slot": 1}), "another crate")
    while state.phase == pura.FIX:
        state = play(state, pura.legal_moves(state, 0)[0])
    assert pura.excess(state.crates) == 0 and state.yen == 2500  # fixing costs nothing


# --- 100-yen actions ----------------------------------------------------------------------------

def test_clear_all_drinks_of_one_card_from_one_crate_onto_the_card():
    """Worked example: 002 PURA, 100-Yen-Münze. All blue drinks, or all tall cans, of one crate go
    onto that card for 100."""
    state = game()
    blues = [d for d in state.crates[0] if d.startswith("blue")]
    state2 = play(state, Move("clear", 0, {"crate": 0, "card": "blue"}))
    assert state2.on_card("blue") == tuple(blues) and state2.hundreds == 9 and state2.spent_hundreds == 1
    assert all(d is None or not d.startswith("blue") for d in state2.crates[0])
    assert_illegal(state2, Move("clear", 0, {"crate": 0, "card": "blue"}), "no drink matching")
    # the same by a shape: crate 0's tall can (mint) goes onto the tall can card
    state3 = play(state2, Move("clear", 0, {"crate": 0, "card": "tall_can"}))
    assert state3.on_card("tall_can") == ("mint-tall_can",) and state3.hundreds == 8
    assert not any(d and d.endswith("-tall_can") for d in state3.crates[0])


def test_clearing_six_at_once_takes_300_from_the_spent_100s():
    six_red = [f"red-{s.value}" for s in SHAPES]
    crates = [list(c) for c in game().crates]
    rest = [d for d in DRINK_IDS if d not in six_red]
    crates = [six_red] + [rest[i * 6:(i + 1) * 6] for i in range(5)]
    state = replace(with_crates(game(), crates), hundreds=6, spent_hundreds=4)
    state, events = pura.apply(state, Move("clear", 0, {"crate": 0, "card": "red"}))
    # paid 100 (5 left, 5 spent), then 3 x 100 back from the spent ones: 8 in hand, 2 spent
    assert (state.hundreds, state.spent_hundreds) == (8, 2)
    assert events[1].kind == "bonus" and events[1].data == {"yen": 300}


def test_the_bonus_is_capped_by_the_spent_100s():
    six_red = [f"red-{s.value}" for s in SHAPES]
    rest = [d for d in DRINK_IDS if d not in six_red]
    state = with_crates(game(), [six_red] + [rest[i * 6:(i + 1) * 6] for i in range(5)])
    state = play(state, Move("clear", 0, {"crate": 0, "card": "red"}))
    # only the one coin just spent lies in the spent pile: it comes back (10 in hand again)
    assert (state.hundreds, state.spent_hundreds) == (10, 0)


def test_swap_straight_across_example_up_to_2_on_short_up_to_3_on_long_sides():
    """Worked example: 002 PURA, 100-Yen-Münze (the swap picture). Up to 4 drinks across a short
    side (2 + 2) or 6 across a long side (3 + 3), straight across, as many as the player likes."""
    state = game()
    long = play(state, Move("swap", 0, {"a": 0, "b": 1, "a_slots": (1, 3, 5), "b_slots": (0, 2, 4)}))
    assert [long.crates[0][s] for s in (1, 3, 5)] == [state.crates[1][s] for s in (0, 2, 4)]
    assert [long.crates[1][s] for s in (0, 2, 4)] == [state.crates[0][s] for s in (1, 3, 5)]
    assert long.hundreds == 9
    short = play(state, Move("swap", 0, {"a": 2, "b": 5, "a_slots": (4, 5), "b_slots": (1, 0)}))
    assert (short.crates[2][4], short.crates[2][5]) == (state.crates[5][1], state.crates[5][0])
    # the number swapped is free: one pair is fine
    one = play(state, Move("swap", 0, {"a": 0, "b": 3, "a_slots": (2,), "b_slots": (3,)}))
    assert one.crates[0][2] == state.crates[3][3]


def test_swap_must_face_straight_across():
    state = game()
    assert_illegal(state, Move("swap", 0, {"a": 0, "b": 1, "a_slots": (0, 3), "b_slots": (0, 2)}), "straight across")
    assert_illegal(state, Move("swap", 0, {"a": 0, "b": 1, "a_slots": (0, 2, 4), "b_slots": (4, 0, 2)}),
                   "straight across")
    assert_illegal(state, Move("swap", 0, {"a": 0, "b": 1, "a_slots": (0, 1), "b_slots": (0, 2)}), "straight across")
    assert_illegal(state, Move("swap", 0, {"a": 0, "b": 0, "a_slots": (0,), "b_slots": (1,)}), "two different")
    assert_illegal(state, Move("swap", 0, {"a": 0, "b": 1, "a_slots": (0,), "b_slots": ()}), "as many slots")
    assert pura.side_pairs((0, 2, 4), (5, 3, 1))  # a long side against the other, turned round


def _described_swaps(state):
    """Every swap the composites describe: any pairs of one group, of one pair of crates."""
    found = set()
    for c in pura.composite_moves(state, 0):
        assert c["kind"] == "swap" and c["pick"]["arg"] == ["a_slots", "b_slots"]
        a, b = c["base"]["a"], c["base"]["b"]
        for group in c["pick"]["within"]:
            assert all(p in c["pick"]["from"] for p in group) and len(group) <= c["pick"]["max"]
            for k in range(c["pick"]["min"], len(group) + 1):
                for pairs in combinations(map(tuple, group), k):
                    found.add((a, b, frozenset(pairs)))
    return found


@pytest.mark.parametrize("emptied", [(), (0, 3), (0, 1, 2, 3, 4)])
def test_swaps_are_described_by_composites_not_listed(emptied):
    state = game()
    crates = [[None if (i == 0 and s in emptied) or (i == 4 and s in emptied[:2]) else d for s, d in enumerate(c)]
              for i, c in enumerate(state.crates)]
    state = with_crates(state, crates)
    assert not [m for m in pura.legal_moves(state, 0) if m.kind == "swap"]
    described = _described_swaps(state)
    # exactly the straight-across swaps that move something (no pair of two empty slots)
    assert described == {(a, b, frozenset(zip(sa, sb))) for a, b, sa, sb in pura_crates.all_swaps(state.crates)}
    for a, b, pairs in sorted(described, key=repr)[::37]:
        sa, sb = zip(*sorted(pairs))
        after = play(state, Move("swap", 0, {"a": a, "b": b, "a_slots": sa, "b_slots": sb}))
        assert after.hundreds == 9 and pura.composite_moves(after, 0)
    c = pura.composite_moves(state, 0)[0]
    assert c["price"] == {str(k): 100 for k in range(1, c["pick"]["max"] + 1)}
    # one more pair than a side holds is refused
    assert_illegal(state, Move("swap", 0, {"a": 1, "b": 2, "a_slots": (0, 2, 4, 1), "b_slots": (1, 3, 5, 0)}),
                   "straight across")


def test_listed_moves_still_end_a_game_without_swaps():
    state = game()
    for _ in range(200):
        if state.phase == pura.OVER:
            break
        if state.phase == pura.DROP:
            state = play(state, chance("drop", out=state.thrown))
        else:
            state = play(state, pura.legal_moves(state, 0)[-1])
    assert state.phase == pura.OVER


def test_no_100_coin_no_100_action():
    state = replace(game(), hundreds=0, spent_hundreds=10)
    assert {m.kind for m in pura.legal_moves(state, 0)} == {"throw"} and pura.composite_moves(state, 0) == []
    assert_illegal(state, Move("clear", 0, {"crate": 0, "card": "blue"}), "none left")


# --- 500-yen throws -----------------------------------------------------------------------------

def test_throw_a_whole_crate_what_comes_out_goes_onto_its_card():
    state = game()
    crate = state.crates[2]
    state = play(state, Move("throw", 0, {"crate": 2}))
    assert state.fives == 2 and state.crates[2] == (None,) * 6
    spec = pura.chance(state)
    assert isinstance(spec, ChanceDrop) and set(spec.thrown) == set(crate)
    state = play(state, chance("drop", out=crate[:4]))
    for d in crate[:4]:
        assert d in state.on_card(d.split("-")[0])
    assert state.tower.inside == set(crate[4:]) and state.phase == pura.PLAY


def test_stuck_drinks_can_be_pushed_out_by_a_later_throw():
    state = play(game(), Move("throw", 0, {"crate": 0}), chance("drop", out=()))
    stuck = set(game().crates[0])
    assert state.tower.inside == stuck
    state = play(state, Move("throw", 0, {"crate": 1}))
    assert set(pura.chance(state).inside) == stuck
    state = play(state, chance("drop", out=tuple(stuck) + game().crates[1]))
    assert not state.tower.inside and pura.sorted_count(state) == 12


def test_stuck_after_the_last_500_loses():
    state = replace(game(), fives=1, spent_fives=2)
    state, events = pura.apply(play(state, Move("throw", 0, {"crate": 0})), chance("drop", out=game().crates[0][:5]))
    assert state.phase == pura.OVER and state.result == "lost" and "stuck" in state.why
    assert pura.payouts(state)["winners"] == [] and pura.payouts(state)["final"] is True


def test_running_out_of_money_loses():
    state = replace(game(), hundreds=1, spent_hundreds=9, fives=0, spent_fives=3)
    state = play(state, Move("clear", 0, {"crate": 0, "card": "blue"}))
    assert state.phase == pura.OVER and state.result == "lost" and state.why == "money_ran_out"


def test_winning_scores_the_unspent_yen():
    crates = [[f"{c.value}-{s.value}" for s in SHAPES] for c in COLOURS]  # one colour per crate
    state = with_crates(game(), crates)
    for k, c in enumerate(COLOURS[:5]):
        state = play(state, Move("clear", 0, {"crate": k, "card": c.value}))
    # five clears of six: each pays 100 and takes it straight back (the bonus is 300, but only that
    # one coin lies in the spent pile), so ten 100s stay in hand
    assert state.phase == pura.PLAY and state.hundreds == 10
    state = play(state, Move("throw", 0, {"crate": 5}), chance("drop", out=tuple(crates[5])))
    assert state.result == "won" and pura.sorted_count(state) == 36
    # one 500 spent: 10 x 100 + 2 x 500 = 2000
    assert state.hundreds == 10 and state.fives == 2 and pura.score(state) == 2000
    assert pura.payouts(state) == {"yen": [2000], "score": 2000, "result": "won", "final": True, "winners": [0]}


def test_spilled_drinks_are_sorted_onto_their_card():
    state = play(game(), Move("throw", 0, {"crate": 0}), chance("drop", out=()))
    d = sorted(state.tower.inside)[0]
    state = play(state, chance("spill", out=(d,)))
    assert d in state.on_card(d.split("-")[0])


# --- the start rule with another max_share, estimates ----------------------------------------------

def random_game(config, seed, most=2000):
    """A game played to its end with random legal moves (chance by its listed outcomes; a drop lets
    a random part out); a seat that is waited for must have a move."""
    rng = random.Random(seed)
    state = pura.setup(config)
    for _ in range(most):
        if pura.is_over(state):
            return state
        (who,) = pura.pending(state)
        if who.actor == CHANCE:
            spec = pura.chance(state)
            move = (rng.choice([m for m, _ in spec.outcomes]) if not isinstance(spec, ChanceDrop) else
                    chance("drop", out=tuple(d for d in spec.candidates if rng.random() < 0.7)))
        else:
            moves = pura.legal_moves(state, who.actor)
            assert moves, f"the game waits for the player in {state.phase} but offers no move"
            move = rng.choice(moves)
        state, _ = pura.apply(state, move)
    raise AssertionError(f"no end after {most} moves ({state.phase})")


@pytest.mark.parametrize("share", [2, 4])
def test_a_max_share_other_than_three_plays_to_the_end(share):
    """Rules version 2: the fix-up swaps bring the crates down to max_share (version 1 counted
    three whatever max_share said, and with 4 could wait for a fix none of its swaps made)."""
    for seed in range(6):
        state = random_game({"rules": 2, "options": {"max_share": share}}, seed)
        assert state.options.counted_share == share and state.result in ("won", "lost")
    # a crate with four red drinks keeps a rule of four: play starts at once (version 1 waited for a fix)
    layout = list(GOOD)
    reds = [i for i, d in enumerate(layout) if d.startswith("red-") and i >= 6][:3]
    for slot, i in zip([s for s in range(6) if not layout[s].startswith("red-")], reds):
        layout[slot], layout[i] = layout[i], layout[slot]
    assert pura.excess(game(layout).crates, 4) == 0 < pura.excess(game(layout).crates)
    state = pura.setup({"rules": 2, "layout": layout, "options": {"max_share": 4}})
    assert state.phase == pura.PLAY and pura.view(state, 0)["start_rule_excess"] == 0
    assert pura.setup({"layout": layout, "options": {"max_share": 4}}).phase == pura.FIX


def test_games_stored_under_rules_version_1_keep_counting_three():
    state = pura.setup({"options": {"max_share": 4}})  # a stored game without "rules" is version 1
    assert state.options.fix_counts == "three" and state.options.counted_share == 3
    assert pura.setup({"rules": 2}).options.fix_counts == "max_share"


def test_estimates_of_the_final_yen_for_each_move():
    """A solo game with nothing hidden: every move is estimated from the crates as they stand."""
    state = game()
    moves = pura.legal_moves(state, 0)[::20]
    est = pura.GAME.estimate(state, 0, moves, random.Random(1), playouts=10, viewer=0)
    assert pura.GAME.offers_estimates and sum(m["n"] for m in est["moves"]) == 10
    assert all(m["low"] is None or m["low"] >= 0 for m in est["moves"])


# --- illegal moves, JSON, views ------------------------------------------------------------------

def test_illegal_moves_change_nothing():
    state = game()
    assert_illegal(state, Move("clear", 1, {"crate": 0, "card": "blue"}), "no seat 1")
    assert_illegal(state, Move("clear", 0, {"crate": 9, "card": "blue"}), "crate from 0 to 5")
    assert_illegal(state, Move("fix", 0, {"a": 0, "a_slot": 0, "b": 1, "b_slot": 0}), "not to fix")
    assert_illegal(state, chance("drop", out=()), "no 'drop' outcome")
    state = play(state, Move("throw", 0, {"crate": 0}))
    assert_illegal(state, Move("throw", 0, {"crate": 0}), "not player 1's turn")
    assert_illegal(play(state, chance("drop", out=())), Move("throw", 0, {"crate": 0}), "empty")


@pytest.mark.parametrize("move", [
    chance("fill", drink="red-tall_can"), Move("fix", 0, {"a": 0, "a_slot": 1, "b": 2, "b_slot": 3}),
    Move("clear", 0, {"crate": 1, "card": "tall_can"}), Move("throw", 0, {"crate": 3}),
    Move("swap", 0, {"a": 0, "b": 1, "a_slots": (1, 3), "b_slots": (0, 2)}), chance("drop", out=("red-tall_can",)),
    chance("spill", out=("red-tall_can",)),
], ids=lambda m: m.kind)
def test_moves_round_trip_through_json(move):
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move


def test_view_has_what_a_dashboard_needs():
    state = play(game(), Move("throw", 0, {"crate": 0}))
    v = pura.view(state, 0)
    assert v["crates"][0] == [None] * 6 and v["crates"][1] == list(game().crates[1])
    assert v["coins"] == {"100": 10, "500": 2} and v["spent"] == {"100": 0, "500": 1}
    assert v["thrown"] == list(game().crates[0]) and v["phase"] == "drop" and v["tower"] == {"stuck": []}
    assert v["players"][0]["yen"] == 2000 and set(v["cards"]) == set(pura.CARD_IDS)
    json.dumps(v)
    assert pura.move_info(state, Move("throw", 0, {"crate": 1})).cost == 500


def test_module_doctests():
    import doctest

    result = doctest.testmod(pura)
    assert result.failed == 0 and result.attempted > 0
