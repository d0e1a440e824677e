"""POCARI BET, one test per rule, driven with explicit moves (chance included).

Each round is played the way a table would enter it: the start player by chance,
then per player a draw (their choice of deck) and the secret card (chance, seen by
that player alone), the two cards turned up, six snake-draft picks, the stakes,
the declarations, and the drop (the drinks that came out).
"""

import copy
import json

import pytest

from companion.drinks import ALL_DRINKS, CARD_IDS, Card
from companion.rules import engine
from companion.rules.engine import CHANCE, ChanceChoice, ChanceDrop, Event, IllegalMove, Move, Pending
from companion.rules.games import pocari_bet as pb

# --- a standard round ------------------------------------------------------------------------
# Secrets chosen so that nobody gets the bonus unless a test asks for it.
SECRETS = {0: "white", 1: "tall_can", 2: "mint"}
FACE_UP = ("red", "stubby_can")          # names the 7th drink: red-stubby_can
SEVENTH = "red-stubby_can"
HANDS = {0: ("blue-short_can", "red-tallest_bottle"),
         1: ("blue-tall_can", "white-square_bottle"),
         2: ("mint-not_tallest_bottle", "purple-short_can")}
BETS = {0: (200, "blue"), 1: (100, "tallest_bottle"), 2: (300, "purple")}

# A second set of drinks for a later round (none of them in HANDS or the 7th above).
FACE_UP_2 = ("black", "short_can")        # names black-short_can
HANDS_2 = {0: ("blue-square_bottle", "red-short_can"),
           1: ("blue-stubby_can", "white-tallest_bottle"),
           2: ("mint-short_can", "purple-tall_can")}
BETS_2 = {0: (100, "blue"), 1: (100, "tallest_bottle"), 2: (100, "purple")}


def chance(kind, **args):
    return Move(kind, CHANCE, args)


def new_game(start=0, **options):
    state = pb.setup({"options": options} if options else {})
    state, events = pb.apply(state, chance("start_player", seat=start))
    assert events == [Event("start_player", {"seat": start})]
    return state


def draw_secrets(state, secrets=SECRETS):
    """Each player in turn chooses the deck of their card, then chance hands them the card."""
    for p in state.order:
        card = secrets[p]
        state, _ = pb.apply(state, Move("draw", p, {"deck": Card.parse(card).kind}))
        state, _ = pb.apply(state, chance("secret_card", card=card))
    return state


def turn_up(state, colour, shape):
    state, _ = pb.apply(state, chance("turn_up", colour=colour, shape=shape))
    return state


def snake(state):
    order = state.order
    return order + order[::-1]


def draft(state, hands):
    left = {p: list(h) for p, h in hands.items()}
    for p in snake(state):
        state, _ = pb.apply(state, Move("pick", p, {"drink": left[p].pop(0)}))
    return state


def bet(state, bets):
    for p in state.order:
        state, _ = pb.apply(state, Move("invest", p, {"amount": bets[p][0]}))
    for p in state.order:
        state, _ = pb.apply(state, Move("declare", p, {"kind": bets[p][1]}))
    return state


def to_drop(state, secrets=SECRETS, face_up=FACE_UP, hands=HANDS, bets=BETS):
    """Play a round up to the moment the start player throws."""
    state = draw_secrets(state, secrets)
    state = turn_up(state, *face_up)
    state = draft(state, hands)
    state = bet(state, bets)
    assert state.phase == pb.DROP
    return state


def drop(state, *out):
    return pb.apply(state, chance("drop", out=tuple(out)))


def yen(state):
    return [s.yen for s in state.seats]


def auto_round(state, declare=None, amount=100):
    """A quick round: everyone draws from the colour deck, the first cards turn up, everyone
    picks the first drink left, stakes ``amount`` and declares ``declare[p]`` (a shape by
    default, so no colour secret earns a bonus), and everything in play comes out but the
    7th drink (which stays stuck, so the start player never forfeits)."""
    declare = declare or {p: "tallest_bottle" for p in range(3)}
    for p in state.order:
        state, _ = pb.apply(state, Move("draw", p, {"deck": "colour"}))
        state, _ = pb.apply(state, pb.chance(state).outcomes[0][0])
    state, _ = pb.apply(state, pb.chance(state).outcomes[0][0])
    while state.phase == pb.DRAFT:
        p = pb.pending(state)[0].actor
        state, _ = pb.apply(state, pb.legal_moves(state, p)[0])
    state = bet(state, {p: (amount, declare[p]) for p in range(3)})
    spec = pb.chance(state)
    return drop(state, *[d for d in spec.candidates if d != state.seventh])


def assert_illegal(state, move, *words):
    """The move is refused with a reason naming what is wrong, and the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        pb.apply(state, move)
    for word in words:
        assert word.lower() in err.value.reason.lower(), err.value.reason
    assert state == before
    return err.value


def secret_fields(view):
    """Every value under a key 'secret' or 'secrets', anywhere in a view."""
    found = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("secret", "secrets"):
                    found.append(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(view)
    return found


# --- setup ----------------------------------------------------------------------------------

def test_setup_three_players_1000_yen_each():
    state = pb.setup({})
    assert len(state.seats) == 3
    assert yen(state) == [1000, 1000, 1000]
    assert [s.stake for s in state.seats] == [0, 0, 0]
    assert state.bank == 0
    assert state.round == 1 and state.options.rounds == 9


def test_setup_start_player_is_chosen_by_chance():
    state = pb.setup({})
    assert state.phase == pb.START
    assert pb.pending(state) == [Pending(CHANCE)]
    spec = pb.chance(state)
    assert isinstance(spec, ChanceChoice)
    assert [m for m, _ in spec.outcomes] == [chance("start_player", seat=p) for p in range(3)]
    assert [odds for _, odds in spec.outcomes] == pytest.approx([1 / 3] * 3)
    state, _ = pb.apply(state, chance("start_player", seat=2))
    assert state.start_player == 2 and state.phase == pb.DRAW


def test_setup_start_player_given_in_config_and_names():
    state = pb.setup({"names": ["Aki", "Ben", "Chi"], "start_player": 1})
    assert [s.name for s in state.seats] == ["Aki", "Ben", "Chi"]
    assert state.start_player == 1 and state.phase == pb.DRAW
    with pytest.raises(IllegalMove, match="seat must be 0 to 2"):
        pb.setup({"start_player": 3})


@pytest.mark.parametrize("config", [{"options": {"players": 2}}, {"options": {"players": 4}}])
def test_setup_exactly_three_players(config):
    with pytest.raises(IllegalMove, match="exactly 3 players"):
        pb.setup(config)


@pytest.mark.parametrize("names", [["A", "B"], ["A", "B", "C", "D"]])
def test_setup_exactly_three_player_names(names):
    with pytest.raises(IllegalMove) as err:
        pb.setup({"names": names})
    assert "give 3 player names" in err.value.reason and str(len(names)) in err.value.reason


def test_setup_unknown_option_rejected():
    with pytest.raises(IllegalMove) as err:
        pb.setup({"options": {"start_money": 5000}})
    assert "unknown option" in err.value.reason and "start_money" in err.value.reason
    assert "start_yen" in err.value.reason  # lists the known ones


@pytest.mark.parametrize("options, words", [
    ({"rounds": "9"}, ["option rounds", "whole number", "'9'"]),
    ({"seventh_stuck_counts": "yes"}, ["seventh_stuck_counts"]),
    ({"stake_step": 50}, ["option stake_step", "at least 100"]),
    ({"min_stake": 400}, ["min_stake (400)", "max_stake (300)"]),
])
def test_setup_options_are_type_checked(options, words):
    """Rules version 2: every option is checked against its type and bounds like every game's
    (a text where a number belongs is refused at setup, never met later in a round)."""
    with pytest.raises(IllegalMove) as err:
        pb.setup({"options": options})
    for word in words:
        assert word in err.value.reason, err.value.reason


# --- step 1: the secret cards -----------------------------------------------------------------

@pytest.mark.parametrize("start", [0, 1, 2])
def test_draw_order_clockwise_from_start_player(start):
    state = new_game(start)
    seen = []
    for _ in range(3):
        (who,) = pb.pending(state)
        seen.append(who.actor)
        others = [p for p in range(3) if p != who.actor]
        assert all(pb.legal_moves(state, q) == [] for q in others)
        state, _ = pb.apply(state, Move("draw", who.actor, {"deck": "shape"}))
        assert pb.pending(state) == [Pending(CHANCE, secret_for=who.actor)]
        state, _ = pb.apply(state, pb.chance(state).outcomes[0][0])
    assert seen == [start, (start + 1) % 3, (start + 2) % 3]
    assert state.phase == pb.TURN_UP


def test_draw_player_chooses_colour_or_shape_deck():
    state = new_game(0)
    assert pb.legal_moves(state, 0) == [Move("draw", 0, {"deck": "colour"}), Move("draw", 0, {"deck": "shape"})]
    colour, _ = pb.apply(state, Move("draw", 0, {"deck": "colour"}))
    shape, _ = pb.apply(state, Move("draw", 0, {"deck": "shape"}))
    assert colour.drawing_from == "colour" and shape.drawing_from == "shape"
    # chance then offers the cards of that deck alone, each equally likely
    colour_cards = [m.args["card"] for m, _ in pb.chance(colour).outcomes]
    shape_cards = [m.args["card"] for m, _ in pb.chance(shape).outcomes]
    assert sorted(colour_cards) == sorted(CARD_IDS[:6])
    assert sorted(shape_cards) == sorted(CARD_IDS[6:])
    assert [odds for _, odds in pb.chance(shape).outcomes] == pytest.approx([1 / 6] * 6)


def test_draw_from_an_unknown_deck_is_illegal():
    assert_illegal(new_game(0), Move("draw", 0, {"deck": "drinks"}), "colour", "shape", "deck")


def test_secret_card_must_be_from_chosen_deck():
    state, _ = pb.apply(new_game(0), Move("draw", 0, {"deck": "shape"}))
    err = assert_illegal(state, chance("secret_card", card="blue"), "'blue'", "shape deck")
    assert "tall_can" in err.reason  # says which cards are still there
    state, _ = pb.apply(state, chance("secret_card", card="tall_can"))
    assert state.seats[0].secret == "tall_can"


def test_secret_card_drawn_leaves_its_deck():
    state, _ = pb.apply(new_game(0), Move("draw", 0, {"deck": "colour"}))
    state, _ = pb.apply(state, chance("secret_card", card="blue"))
    state, _ = pb.apply(state, Move("draw", 1, {"deck": "colour"}))
    assert "blue" not in [m.args["card"] for m, _ in pb.chance(state).outcomes]
    assert_illegal(state, chance("secret_card", card="blue"), "'blue'", "colour deck")


def test_secret_card_seen_only_by_its_player():
    state = draw_secrets(new_game(0))
    for p in range(3):
        v = pb.view(state, p)
        for q, seat in enumerate(v["players"]):
            assert seat["has_secret"] is True
            assert seat["secret"] == (SECRETS[q] if q == p else None)
        # nowhere else in that player's view are the others' cards
        assert set(secret_fields(v)) == {SECRETS[p], None}
        text = json.dumps(v)
        for q in range(3):
            if q != p:
                assert f'"secret": "{SECRETS[q]}"' not in text
    table = pb.view(state, None)
    assert all(x is None for x in secret_fields(table))
    text = json.dumps(table)
    for card in SECRETS.values():
        assert f'"secret": "{card}"' not in text


def test_secret_card_event_does_not_name_the_card():
    state, _ = pb.apply(new_game(0), Move("draw", 0, {"deck": "colour"}))
    state, events = pb.apply(state, chance("secret_card", card="blue"))
    assert events == [Event("secret_card", {"seat": 0, "secret": True})]
    assert "blue" not in json.dumps([e.to_json() for e in events])


# --- step 2: the 7th drink ---------------------------------------------------------------------

def test_turn_up_sets_aside_drink_matching_both_cards():
    state = draw_secrets(new_game(0))
    assert pb.pending(state) == [Pending(CHANCE)]
    # 4 colour cards x 5 shape cards are left after the three secrets white, tall_can, mint
    assert len(pb.chance(state).outcomes) == 4 * 5
    state, events = pb.apply(state, chance("turn_up", colour="red", shape="stubby_can"))
    assert events[0].data == {"colour": "red", "shape": "stubby_can", "seventh": SEVENTH, "set_aside": True}
    assert state.seventh == SEVENTH and state.seventh_set_aside
    assert state.face_up == ("red", "stubby_can")
    assert SEVENTH not in state.supply
    assert len(state.supply) == 35
    assert Move("pick", 0, {"drink": SEVENTH}) not in pb.legal_moves(state, 0)
    assert_illegal(state, Move("pick", 0, {"drink": SEVENTH}), SEVENTH, "not a drink left to pick")
    view = pb.view(state, None)
    assert view["seventh"] == SEVENTH and view["seventh_set_aside"] is True
    assert SEVENTH not in view["supply"]


def test_turn_up_cannot_use_a_card_held_as_a_secret():
    state = draw_secrets(new_game(0))  # white (colour) is seat 0's secret
    assert_illegal(state, chance("turn_up", colour="white", shape="stubby_can"), "not a card left in its deck")
    assert_illegal(state, chance("turn_up", colour="red", shape="tall_can"), "not a card left in its deck")


# --- step 3: the snake draft ---------------------------------------------------------------------

@pytest.mark.parametrize("start", [0, 1, 2])
def test_snake_draft_order_s_s1_s2_s2_s1_s(start):
    state = turn_up(draw_secrets(new_game(start)), *FACE_UP)
    seen = []
    while state.phase == pb.DRAFT:
        (who,) = pb.pending(state)
        seen.append(who.actor)
        state, _ = pb.apply(state, pb.legal_moves(state, who.actor)[0])
    s = start
    assert seen == [s, (s + 1) % 3, (s + 2) % 3, (s + 2) % 3, (s + 1) % 3, s]
    assert [len(seat.hand) for seat in state.seats] == [2, 2, 2]
    assert state.phase == pb.INVEST
    assert len(state.supply) == 36 - 7


def test_draft_gives_everyone_the_drinks_they_picked():
    state = draft(turn_up(draw_secrets(new_game(0)), *FACE_UP), HANDS)
    assert {p: state.seats[p].hand for p in range(3)} == HANDS
    for hand in HANDS.values():
        assert not set(hand) & state.supply


def test_draft_a_drink_cannot_be_picked_twice():
    state = turn_up(draw_secrets(new_game(0)), *FACE_UP)
    state, _ = pb.apply(state, Move("pick", 0, {"drink": "blue-short_can"}))
    assert_illegal(state, Move("pick", 1, {"drink": "blue-short_can"}), "blue-short_can", "not a drink left")


# --- steps 4 and 5: stakes and declarations ---------------------------------------------------------

def test_invest_100_to_300_in_steps_of_100():
    state = draft(turn_up(draw_secrets(new_game(0)), *FACE_UP), HANDS)
    assert [m.args["amount"] for m in pb.legal_moves(state, 0)] == [100, 200, 300]
    state, events = pb.apply(state, Move("invest", 0, {"amount": 200}))
    # the stake is pushed forward: 1000 - 200 = 800 left in hand, 200 at stake
    assert (state.seats[0].yen, state.seats[0].stake) == (800, 200)
    assert events == [Event("invested", {"seat": 0, "amount": 200})]
    for bad in (0, 50, 150, 400):
        assert_illegal(state, Move("invest", 1, {"amount": bad}), "100 to 300", "steps of 100")


def test_invest_never_more_than_player_has():
    # with 200 yen a player may stake 100 or 200, not 300
    state = draft(turn_up(draw_secrets(new_game(0, start_yen=200)), *FACE_UP), HANDS)
    assert [m.args["amount"] for m in pb.legal_moves(state, 0)] == [100, 200]
    assert_illegal(state, Move("invest", 0, {"amount": 300}), "no more than you have (200)")


def test_invest_in_order_then_declare():
    state = draft(turn_up(draw_secrets(new_game(1)), *FACE_UP), HANDS)
    order = []
    while state.phase == pb.INVEST:
        (who,) = pb.pending(state)
        order.append(who.actor)
        state, _ = pb.apply(state, Move("invest", who.actor, {"amount": 100}))
    assert order == [1, 2, 0]
    assert state.phase == pb.DECLARE


def test_declare_one_of_twelve_kinds():
    """Worked example: 002 POCARI BET, step 5. A player declares one colour ("blue drinks") or one
    shape ("short cans")."""
    state = draft(turn_up(draw_secrets(new_game(0)), *FACE_UP), HANDS)
    for p in range(3):
        state, _ = pb.apply(state, Move("invest", p, {"amount": 100}))
    assert [m.args["kind"] for m in pb.legal_moves(state, 0)] == list(CARD_IDS)
    assert len(pb.legal_moves(state, 0)) == 12
    assert_illegal(state, Move("declare", 0, {"kind": "green"}), "declare one colour or one shape")
    assert_illegal(state, Move("declare", 0, {"kind": "blue-short_can"}), "declare one colour or one shape")
    state, events = pb.apply(state, Move("declare", 0, {"kind": "short_can"}))
    assert state.seats[0].declared == "short_can"
    assert events == [Event("declared", {"seat": 0, "kind": "short_can"})]
    state, _ = pb.apply(state, Move("declare", 1, {"kind": "blue"}))
    assert state.seats[1].declared == "blue"


def test_the_start_player_throws_all_seven():
    state = to_drop(new_game(0))
    spec = pb.chance(state)
    assert isinstance(spec, ChanceDrop) and spec.move_kind == "drop"
    assert sorted(spec.thrown) == sorted([d for h in HANDS.values() for d in h] + [SEVENTH])
    assert spec.inside == ()
    assert pb.pending(state) == [Pending(CHANCE)]


# --- step 7: payouts ------------------------------------------------------------------------------

def test_payout_stake_back_plus_stake_per_matching_drink():
    state = to_drop(new_game(0))
    state, events = drop(state, "blue-short_can", "blue-tall_can")
    # seat 0: 200 on blue, 2 blue out -> 200 + 2 x 200 = 600 back; 1000 - 200 + 600 = 1400 (net +400)
    # seat 1: 100 on tallest_bottle, none out -> 900; seat 2: 300 on purple, none out -> 700
    assert yen(state) == [1400, 900, 700]
    scored = next(e for e in events if e.kind == "round_scored").data
    assert scored["paid"] == [600, 0, 0]
    assert scored["matches"] == [2, 0, 0]
    assert scored["bonus"] == [False, False, False]
    # the bank took 600 in stakes and paid 600 back
    assert state.bank == 0


def test_payout_shape_declaration_counts_drinks_of_that_shape():
    state = to_drop(new_game(0))
    state, _ = drop(state, "red-tallest_bottle", "white-square_bottle")
    # seat 1: 100 on tallest_bottle, 1 out -> 200 back; 1000 - 100 + 200 = 1100
    # seat 0 (blue) and seat 2 (purple): nothing of theirs out -> 800 and 700
    assert yen(state) == [800, 1100, 700]
    assert state.bank == 600 - 200


def test_payout_nothing_matching_loses_stake():
    state = to_drop(new_game(0))
    state, events = drop(state, "mint-not_tallest_bottle")
    # nobody's kind came out (mint is seat 2's secret, but seat 2 declared purple):
    # 1000 - 200 = 800, 1000 - 100 = 900, 1000 - 300 = 700; the bank keeps the 600
    assert yen(state) == [800, 900, 700]
    assert next(e for e in events if e.kind == "round_scored").data["paid"] == [0, 0, 0]
    assert state.bank == 600


def test_bonus_500_when_declared_kind_is_secret_card_and_it_paid():
    secrets = {**SECRETS, 0: "blue"}
    state = to_drop(new_game(0), secrets=secrets)
    state, events = drop(state, "blue-short_can", "blue-tall_can")
    # seat 0 drew blue and declared blue: 200 + 2 x 200 + 500 = 1100 back; 1000 - 200 + 1100 = 1900
    assert yen(state) == [1900, 900, 700]
    scored = next(e for e in events if e.kind == "round_scored").data
    assert scored["bonus"] == [True, False, False]
    assert scored["secrets"] == ["blue", "tall_can", "mint"]  # revealed after the drop
    assert state.bank == 600 - 1100


def test_no_bonus_when_declared_secret_kind_did_not_pay():
    secrets = {**SECRETS, 0: "blue"}
    state = to_drop(new_game(0), secrets=secrets)
    state, events = drop(state, "red-tallest_bottle")
    # seat 0 drew blue and declared blue, but no blue came out: stake lost, no bonus: 800
    # seat 1: tallest_bottle out once -> 200 back: 1100; seat 2 lost 300: 700
    assert yen(state) == [800, 1100, 700]
    assert next(e for e in events if e.kind == "round_scored").data["bonus"] == [False, False, False]


def test_seventh_drink_out_start_player_loses_stake_and_bonus_others_unaffected():
    secrets = {**SECRETS, 0: "blue"}
    bets = {0: (200, "blue"), 1: (100, "red"), 2: (300, "purple")}
    state = to_drop(new_game(0), secrets=secrets, bets=bets)
    state, events = drop(state, SEVENTH, "blue-short_can", "blue-tall_can")
    # the 7th (red-stubby_can) came out: start player seat 0 would get 600 + 500 bonus, gets 0: 800
    # seat 1: 100 on red, the 7th itself is red -> 200 back: 1100 (not affected)
    # seat 2: 300 on purple, none out: 700
    assert yen(state) == [800, 1100, 700]
    scored = next(e for e in events if e.kind == "round_scored").data
    assert scored["seventh_out"] is True
    assert scored["paid"] == [0, 200, 0]
    assert scored["bonus"] == [False, False, False]
    assert scored["matches"][0] == 2  # the matches are still counted, just not paid


def test_seventh_drink_stuck_costs_nothing():
    state = to_drop(new_game(0))
    state, events = drop(state, "blue-short_can")
    # the 7th stayed inside: start player seat 0 is paid normally, 200 x 2 = 400: 1200
    assert yen(state) == [1200, 900, 700]
    assert next(e for e in events if e.kind == "round_scored").data["seventh_out"] is False


def test_drop_events_and_last_round():
    state = to_drop(new_game(0))
    state, events = drop(state, "blue-short_can")
    kinds = [e.kind for e in events]
    assert kinds == ["drop", "round_scored", "round_started"]
    assert events[0].data["out"] == ["blue-short_can"]
    assert state.last_round["round"] == 1
    all_seven = {d for h in HANDS.values() for d in h} | {SEVENTH}
    assert state.last_round["drop"]["stuck"] == sorted(all_seven - {"blue-short_can"})
    json.dumps([e.to_json() for e in events])
    json.dumps(pb.view(state, None))


# --- step 8: the next round -------------------------------------------------------------------------

def test_crate_passes_left_start_player_next_round():
    state = to_drop(new_game(0))
    state, events = drop(state, *pb.chance(state).candidates)
    assert events[-1] == Event("round_started", {"round": 2, "start_player": 1})
    assert state.round == 2 and state.start_player == 1 and state.phase == pb.DRAW
    assert pb.pending(state) == [Pending(1)]
    starts = [state.start_player]
    for _ in range(3):
        state, _ = auto_round(state)
        starts.append(state.start_player)
    assert starts == [1, 2, 0, 1]


def test_round_end_returns_drinks_out_to_supply_and_resets_the_round():
    state = to_drop(new_game(0))
    state, _ = drop(state, *pb.chance(state).candidates)
    assert len(state.supply) == 36 and not state.tower.inside
    assert all(s.hand == () and s.secret is None and s.stake == 0 and s.declared is None for s in state.seats)
    assert state.seventh is None and not state.seventh_set_aside and state.face_up == ()
    assert len(state.colour_deck) == 6 and len(state.shape_deck) == 6  # decks are whole again
    assert state.picks == 0


def test_broke_player_restarts_next_round_with_500():
    bets = {0: (300, "blue"), 1: (100, "tallest_bottle"), 2: (300, "purple")}
    state = to_drop(new_game(0, start_yen=300), bets=bets)
    state, events = drop(state)
    # all stakes lost: seat 0 300 - 300 = 0, seat 1 300 - 100 = 200, seat 2 300 - 300 = 0
    # seats 0 and 2 are broke and start round 2 with 500 each, from the bank:
    # bank 0 + 700 stakes - 1000 restarts = -300; 500 + 200 + 500 - 300 = 900 = 3 x 300
    assert yen(state) == [500, 200, 500]
    assert state.bank == -300
    assert Event("restarted", {"seat": 0, "yen": 500}) in events
    assert Event("restarted", {"seat": 2, "yen": 500}) in events
    assert not any(e.kind == "restarted" and e.data["seat"] == 1 for e in events)


# --- the end of the game ------------------------------------------------------------------------------

def test_game_over_after_nine_rounds_ties_shared():
    state = new_game(0)
    for r in range(1, 10):
        assert state.round == r and not pb.is_over(state)
        state, events = auto_round(state)
    # every round all three stake 100 on tallest_bottle and exactly one tallest bottle comes out:
    # +100 each per round, 1000 + 9 x 100 = 1900 each: a three-way tie, all three win
    assert pb.is_over(state) and state.phase == pb.OVER and state.round == 9
    assert yen(state) == [1900, 1900, 1900]
    assert state.winners == (0, 1, 2)
    assert events[-1] == Event("game_over", {"winners": [0, 1, 2], "instant": False})
    assert pb.pending(state) == []
    assert pb.payouts(state)["final"] is True and pb.payouts(state)["winners"] == [0, 1, 2]
    assert pb.view(state, None)["over"] is True


def test_game_over_after_nine_rounds_most_yen_wins():
    state = new_game(0)
    # round 1: the picks are the six black drinks; seat 0 stakes 100 on stubby_can (1 out):
    # 100 + 100 = 200 back -> 1100; seats 1 and 2 on white (none thrown) -> 900 each
    state, _ = auto_round(state, declare={0: "stubby_can", 1: "white", 2: "white"})
    assert yen(state) == [1100, 900, 900]
    for _ in range(8):
        state, _ = auto_round(state)
    # rounds 2-9: one tallest bottle out, +100 each per round -> 1900, 1700, 1700
    assert yen(state) == [1900, 1700, 1700]
    assert state.winners == (0,)


def test_instant_win_at_10000_yen():
    state = to_drop(new_game(0, start_yen=9800))
    state, events = drop(state, "blue-short_can", "blue-tall_can")
    # seat 0: 9800 - 200 + 600 = 10200 >= 10000: wins at once, in round 1
    # seat 1: 9800 - 100 = 9700; seat 2: 9800 - 300 = 9500
    assert yen(state) == [10200, 9700, 9500]
    assert state.phase == pb.OVER and state.round == 1
    assert state.winners == (0,)
    assert events[-1] == Event("game_over", {"winners": [0], "instant": True})
    assert_illegal(state, Move("draw", 1, {"deck": "colour"}), "game is over")
    assert_illegal(state, chance("spill", out=("red-tallest_bottle",)), "game is over")


def test_instant_win_goes_to_the_richest_when_two_reach_10000():
    bets = {0: (200, "blue"), 1: (100, "blue"), 2: (300, "purple")}
    state = to_drop(new_game(0, start_yen=9800), bets=bets)
    state, _ = drop(state, "blue-short_can", "blue-tall_can")
    # seat 0: 9800 - 200 + 600 = 10200; seat 1: 9800 - 100 + 300 = 10000; both reached it, 0 has more
    assert yen(state) == [10200, 10000, 9500]
    assert state.winners == (0,)


# --- the tower remembers ---------------------------------------------------------------------------

def test_stuck_drinks_stay_in_tower_across_rounds_and_pay_later():
    state = to_drop(new_game(0))
    state, _ = drop(state, "blue-short_can")
    # round 1: seat 0 200 on blue, 1 out -> 400 back: 1200; seats 1, 2 lose: 900, 700
    assert yen(state) == [1200, 900, 700]
    stuck = {SEVENTH, "red-tallest_bottle", "blue-tall_can", "white-square_bottle",
             "mint-not_tallest_bottle", "purple-short_can"}
    assert state.tower.inside == stuck
    assert not stuck & state.supply
    assert pb.view(state, None)["tower"]["stuck"] == sorted(stuck, key=[d.id for d in ALL_DRINKS].index)
    # round 2 (start player seat 1): stuck drinks cannot be drafted
    state = turn_up(draw_secrets(state), *FACE_UP_2)
    assert_illegal(state, Move("pick", 1, {"drink": "blue-tall_can"}), "blue-tall_can", "not a drink left")
    state = bet(draft(state, HANDS_2), BETS_2)
    spec = pb.chance(state)
    assert set(spec.inside) == stuck
    assert "blue-tall_can" in spec.candidates
    state, events = drop(state, "blue-tall_can")
    # the blue tall can stuck since round 1 comes out: seat 0 100 on blue -> 200 back: 1200 - 100 + 200 = 1300
    # seat 1: 900 - 100 = 800; seat 2: 700 - 100 = 600
    assert yen(state) == [1300, 800, 600]
    assert events[0].data["freed"] == ["blue-tall_can"]
    assert "blue-tall_can" in state.supply
    assert state.tower.inside == (stuck - {"blue-tall_can"}) | {d for h in HANDS_2.values() for d in h} | {"black-short_can"}


def _round_one_all_out_but_the_seventh():
    state = to_drop(new_game(0))
    state, _ = drop(state, *[d for h in HANDS.values() for d in h])
    # seat 0: 200 on blue, 2 out -> 600: 1400; seat 1: 100 on tallest_bottle, 1 out -> 200: 1100
    # seat 2: 300 on purple, 1 out -> 600: 1300
    assert yen(state) == [1400, 1100, 1300]
    assert state.tower.inside == {SEVENTH}
    return state


def test_stuck_seventh_not_set_aside_but_still_costs_start_player():
    state = _round_one_all_out_but_the_seventh()
    # round 2, start player seat 1: the same cards turn up and name the drink stuck in the tower
    state = turn_up(draw_secrets(state), *FACE_UP)
    assert state.seventh == SEVENTH and state.seventh_set_aside is False
    assert pb.view(state, None)["seventh_set_aside"] is False
    bets = {0: (200, "blue"), 1: (100, "red"), 2: (300, "stubby_can")}
    state = bet(draft(state, HANDS), bets)
    spec = pb.chance(state)
    assert SEVENTH not in spec.thrown and SEVENTH in spec.inside
    assert len(spec.thrown) == 6
    state, events = drop(state, SEVENTH, "red-tallest_bottle")
    # the stuck 7th came out: start player seat 1 (100 on red, 2 red out) gets nothing: 1100 - 100 = 1000
    # seat 0: 200 on blue, none out: 1400 - 200 = 1200
    # seat 2: 300 on stubby_can, the 7th is one -> 600 back: 1300 - 300 + 600 = 1600
    assert yen(state) == [1200, 1000, 1600]
    assert next(e for e in events if e.kind == "round_scored").data["seventh_out"] is True


def test_stuck_seventh_option_off_start_player_is_paid():
    state = to_drop(new_game(0, seventh_stuck_counts=False))
    state, _ = drop(state, *[d for h in HANDS.values() for d in h])
    state = turn_up(draw_secrets(state), *FACE_UP)
    assert state.seventh_set_aside is False
    bets = {0: (200, "blue"), 1: (100, "red"), 2: (300, "stubby_can")}
    state = bet(draft(state, HANDS), bets)
    state, events = drop(state, SEVENTH, "red-tallest_bottle")
    # with the option off the stuck 7th costs nothing: seat 1 (start) 100 on red, 2 out -> 300 back:
    # 1100 - 100 + 300 = 1300; seat 0 1400 - 200 = 1200; seat 2 1300 - 300 + 600 = 1600
    assert yen(state) == [1200, 1300, 1600]
    assert next(e for e in events if e.kind == "round_scored").data["seventh_out"] is False


def test_spilled_drinks_are_thrown_again_with_next_drop_and_not_in_supply():
    state = to_drop(new_game(0))
    state, _ = drop(state)
    # round 1: nothing came out, all stakes lost: 800, 900, 700; all seven stuck
    assert yen(state) == [800, 900, 700]
    assert len(state.tower.inside) == 7
    spilled = ("blue-short_can", "red-tallest_bottle")
    state, events = pb.apply(state, chance("spill", out=spilled))
    assert events == [Event("spill", {"out": list(spilled)})]
    assert state.rethrow == set(spilled)
    assert not set(spilled) & state.tower.inside
    assert not set(spilled) & state.supply
    assert pb.view(state, None)["rethrow"] == sorted(spilled)
    state = turn_up(draw_secrets(state), *FACE_UP_2)
    assert_illegal(state, Move("pick", 1, {"drink": "blue-short_can"}), "blue-short_can", "not a drink left")
    state = bet(draft(state, HANDS_2), BETS_2)
    spec = pb.chance(state)
    assert set(spilled) <= set(spec.thrown)
    assert len(spec.thrown) == 7 + 2 and len(spec.inside) == 5
    state, _ = drop(state, "blue-short_can")
    # the re-thrown blue short can comes out: seat 0 100 on blue -> 200 back: 800 - 100 + 200 = 900
    # seat 1 900 - 100 = 800; seat 2 700 - 100 = 600
    assert yen(state) == [900, 800, 600]
    assert state.rethrow == frozenset()
    assert "blue-short_can" in state.supply
    assert "red-tallest_bottle" in state.tower.inside  # thrown again, stuck again


def test_spilled_seventh_is_set_aside_again_when_its_cards_turn_up():
    state = _round_one_all_out_but_the_seventh()
    state, _ = pb.apply(state, chance("spill", out=(SEVENTH,)))
    state = turn_up(draw_secrets(state), *FACE_UP)
    # it is no longer in the tower, so it is set aside, and thrown once
    assert state.seventh_set_aside is True
    assert state.rethrow == frozenset()
    state = bet(draft(state, HANDS), BETS)
    assert pb.chance(state).thrown.count(SEVENTH) == 1


def test_spill_must_name_drinks_stuck_inside():
    state = to_drop(new_game(0))
    assert_illegal(state, chance("spill", out=("blue-short_can",)), "blue-short_can", "stuck inside the tower")
    assert_illegal(state, chance("spill", out=()), "at least one")


# --- illegal moves -------------------------------------------------------------------------------------

def test_illegal_out_of_turn():
    state = new_game(0)
    assert_illegal(state, Move("draw", 1, {"deck": "colour"}), "not Player 2's turn")
    state = turn_up(draw_secrets(state), *FACE_UP)
    assert_illegal(state, Move("pick", 2, {"drink": "blue-short_can"}), "not Player 3's turn")


def test_illegal_wrong_phase():
    state = new_game(0)
    assert_illegal(state, Move("invest", 0, {"amount": 100}), "time to draw", "not to invest")
    assert_illegal(state, chance("drop", out=()), "no 'drop' outcome is awaited")
    assert_illegal(state, chance("start_player", seat=1), "no 'start_player' outcome")
    state, _ = pb.apply(state, Move("draw", 0, {"deck": "colour"}))
    assert_illegal(state, Move("draw", 1, {"deck": "colour"}), "not Player 2's turn", "drawn card")


def test_illegal_pick_of_set_aside_drink():
    state = turn_up(draw_secrets(new_game(0)), *FACE_UP)
    assert_illegal(state, Move("pick", 0, {"drink": SEVENTH}), f"'{SEVENTH}'", "not a drink left to pick")


def test_illegal_invest_400():
    state = draft(turn_up(draw_secrets(new_game(0)), *FACE_UP), HANDS)
    assert_illegal(state, Move("invest", 0, {"amount": 400}), "invest 100 to 300 yen")


def test_illegal_drop_listing_a_drink_not_in_play():
    state = to_drop(new_game(0))
    assert_illegal(state, chance("drop", out=("black-tall_can",)), "black-tall_can", "cannot have come out")
    assert_illegal(state, chance("drop", out=("blue-short_can", "blue-short_can")), "twice")
    assert_illegal(state, chance("drop", out="blue-short_can"), "list of drink ids")
    assert_illegal(state, chance("drop"), "list of drink ids")


def test_illegal_no_such_seat():
    assert_illegal(new_game(0), Move("draw", 5, {"deck": "colour"}), "no seat 5")
    assert_illegal(pb.setup({}), chance("start_player", seat=3), "'seat' must be 0 to 2")


def test_illegal_move_carries_the_move():
    state = new_game(0)
    move = Move("draw", 1, {"deck": "colour"})
    err = assert_illegal(state, move)
    assert err.move == move


# --- moves as JSON -------------------------------------------------------------------------------------

ALL_KINDS = [
    chance("start_player", seat=0),
    Move("draw", 0, {"deck": "colour"}),
    chance("secret_card", card="blue"),
    chance("turn_up", colour="red", shape="stubby_can"),
    Move("pick", 2, {"drink": "blue-short_can"}),
    Move("invest", 1, {"amount": 300}),
    Move("declare", 1, {"kind": "tall_can"}),
    chance("drop", out=("blue-short_can", SEVENTH)),
    chance("drop", out=()),
    chance("spill", out=("red-tallest_bottle",)),
]


@pytest.mark.parametrize("move", ALL_KINDS, ids=lambda m: m.kind)
def test_move_json_round_trip(move):
    assert Move.from_json(move.to_json()) == move
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move
    assert hash(Move.from_json(json.loads(json.dumps(move.to_json())))) == hash(move)


def test_every_legal_move_round_trips_through_json():
    moves = []
    state = new_game(0)
    while state.phase != pb.DROP:
        (who,) = pb.pending(state)
        options = pb.legal_moves(state, who.actor)
        moves.extend(options)
        state, _ = pb.apply(state, options[-1])
    for m in moves:
        assert Move.from_json(json.loads(json.dumps(m.to_json()))) == m


@pytest.mark.parametrize("data", [
    None, 5, "draw", ["draw", 0, {}],
    {}, {"player": 0, "args": {}}, {"kind": "", "player": 0}, {"kind": 5, "player": 0},
    {"kind": "draw"}, {"kind": "draw", "player": "bob"}, {"kind": "draw", "player": True},
    {"kind": "draw", "player": 1.0}, {"kind": "draw", "player": None},
    {"kind": "draw", "player": 0, "args": ["deck", "colour"]}, {"kind": "draw", "player": 0, "args": "colour"},
    {"kind": "draw", "player": 0, "args": None},
])
def test_move_from_json_malformed_raises_illegal_move(data):
    with pytest.raises(IllegalMove) as err:
        Move.from_json(data)
    assert err.value.reason


def test_move_from_json_args_default_to_empty():
    assert Move.from_json({"kind": "drop", "player": CHANCE}) == Move("drop", CHANCE, {})


def test_invest_amount_from_json_as_float_is_kept_as_whole_yen():
    state = draft(turn_up(draw_secrets(new_game(0)), *FACE_UP), HANDS)
    move = Move.from_json({"kind": "invest", "player": 0, "args": {"amount": 200.0}})
    state, _ = pb.apply(state, move)
    # 1000 - 200 = 800 in hand, 200 at stake, both whole numbers
    assert (state.seats[0].yen, state.seats[0].stake) == (800, 200)
    assert type(state.seats[0].yen) is int and type(state.seats[0].stake) is int


def test_replay_folds_moves_from_setup():
    moves = [chance("start_player", seat=0)]
    state = pb.setup({})
    state, _ = pb.apply(state, moves[0])
    for p in state.order:
        for m in (Move("draw", p, {"deck": Card.parse(SECRETS[p]).kind}), chance("secret_card", card=SECRETS[p])):
            moves.append(m)
    final, events = engine.replay(pb, {}, moves)
    assert final == draw_secrets(new_game(0))
    assert len(events) == len(moves)
    with pytest.raises(IllegalMove):
        engine.replay(pb, {}, moves + [Move("draw", 2, {"deck": "colour"})])


# --- malformed arguments, list arguments, the end of the game -------------------------------

def _in_phase(phase):
    state = new_game(0)
    if phase == pb.SECRET:
        state, _ = pb.apply(state, Move("draw", 0, {"deck": "colour"}))
    elif phase == pb.TURN_UP:
        state = draw_secrets(state)
    return state


@pytest.mark.parametrize("phase,data", [
    (pb.SECRET, {"kind": "secret_card", "player": "chance", "args": {"card": {"colour": "blue"}}}),
    (pb.SECRET, {"kind": "secret_card", "player": "chance", "args": {"card": [["blue"]]}}),
    (pb.TURN_UP, {"kind": "turn_up", "player": "chance", "args": {"colour": {"x": 1}, "shape": "tall_can"}}),
    (pb.DRAW, {"kind": "spill", "player": "chance", "args": {"out": 5}}),
    (pb.DRAW, {"kind": "spill", "player": "chance", "args": {"out": [{"drink": "blue-tall_can"}]}}),
], ids=["secret_card-object", "secret_card-nested-list", "turn_up-object", "spill-number", "spill-object-item"])
def test_malformed_args_raise_illegal_move_not_type_error(phase, data):
    state = _in_phase(phase)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove):
        pb.apply(state, Move.from_json(data))
    assert state == before


def test_move_with_list_arg_round_trips_equal():
    move = Move("drop", CHANCE, {"out": ["blue-short_can", SEVENTH]})
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move


def test_game_over_does_not_leave_the_seventh_flagged_as_set_aside():
    bets = {0: (200, "blue"), 1: (300, "red"), 2: (300, "purple")}
    state = to_drop(new_game(0, start_yen=9800), bets=bets)
    state, _ = drop(state, SEVENTH, "red-tallest_bottle")
    # seat 1: 300 on red, 2 red out -> 900 back: 9800 - 300 + 900 = 10400, an instant win
    assert state.phase == pb.OVER and state.winners == (1,)
    assert SEVENTH in state.supply  # it came out, so it is no longer set aside
    assert not state.seventh_set_aside


# --- estimates: the secret cards a viewer has not seen are drawn again ----------------------

def test_estimates_draw_the_cards_a_viewer_has_not_seen_again():
    import random

    state = turn_up(draw_secrets(new_game(0)), *FACE_UP)
    drawn = [pb.GAME.redraw(state, 0, random.Random(k)) for k in range(60)]
    assert all(s.seats[0].secret == "white" for s in drawn)  # the viewer's own card stays
    # seat 1 drew from the shape deck, seat 2 from the colour deck: each gets a card of that deck
    # that seat 0 has not seen (not white, not red or stubby_can, which lie face up)
    assert {s.seats[1].secret for s in drawn} == set(CARD_IDS[6:]) - {"stubby_can"}
    assert {s.seats[2].secret for s in drawn} == set(CARD_IDS[:6]) - {"white", "red"}
    for s in drawn:
        held = {x.secret for x in s.seats}
        assert not held & (s.colour_deck | s.shape_deck) and len(s.colour_deck | s.shape_deck) == 12 - 2 - 3
    # so an estimate for seat 0 cannot tell which cards the others hold
    other = draw_secrets(new_game(0), {0: "white", 1: "square_bottle", 2: "blue"})
    other = turn_up(other, *FACE_UP)
    moves = pb.legal_moves(state, 0)[:3]
    one = pb.GAME.estimate(state, 0, moves, random.Random(5), playouts=6, viewer=0)
    two = pb.GAME.estimate(other, 0, moves, random.Random(5), playouts=6, viewer=0)
    assert one == two and sum(m["n"] for m in one["moves"]) == 6
    with pytest.raises(ValueError):
        pb.GAME.estimate(state, 1, pb.legal_moves(state, 0)[:1], random.Random(5), playouts=6, viewer=0)
