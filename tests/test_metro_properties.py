"""TOKYO METRO over random legal playouts: invariants after every move, and replay determinism.

Hypothesis draws a player count, options and a seed; ``random.Random(seed)`` then plays a whole
game through the engine's own surface: whoever ``pending`` names moves, picking among
``legal_moves``; chance picks among the listed outcomes. Now and then a move with junk arguments
is tried first: it must be refused with IllegalMove and change nothing.
"""
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import engine
from companion.rules.engine import CHANCE, ChanceChoice, IllegalMove, Move
from companion.rules.metro import game as metro
from companion.rules.metro.state import OVER
from suite_plan import examples
from test_metro_support import NAMES, check_invariants, total_yen

# Whole games: some 0.6 s of CPU each, the dearest property of `make test` at 25 (14.5 s); 12
# there, 200 in a longer run (suite_plan.examples).
SETTINGS = settings(max_examples=examples(12, 200), deadline=None, suppress_health_check=[HealthCheck.too_slow])

CONFIGS = st.sampled_from([
    {"names": NAMES[:4]},
    {"names": NAMES[:2]},
    {"names": NAMES[:3]},
    {"names": NAMES[:5]},
    {"names": NAMES[:1]},                                          # solo
    {"names": NAMES[:4], "options": {"start_yen": 9000, "bank_yen": 120_000}},  # rich: every action affordable
    {"names": NAMES[:3], "options": {"steps": 9, "tempo_tokens": 20}},
])

JUNK = [
    lambda p: Move("invest", p, {"card": "nope", "action": 0, "line": "G"}),
    lambda p: Move("station", p, {"card": "HT1", "action": 7, "station": "shinjuku"}),
    lambda p: Move("walk", p, {"field": -3}),
    lambda p: Move("walk", p, {"field": "north"}),
    lambda p: Move("bid", p, {"amount": 150}),
    lambda p: Move("speculate", p, {"card": "ZN1", "action": 0, "line": "Q", "stake": 100}),
    lambda p: Move("alight", p, {"field": 10_000}),
    lambda p: Move("board", p, {"line": "Q"}),
    lambda p: Move("fly", p, {}),
    lambda p: Move("deal", CHANCE, {"column": 99, "card": 3}),
    lambda p: Move("tie_break", CHANCE, {"seat": "x"}),
    lambda p: Move("move", 17, {"card": "GM1", "action": 0, "field": 0}),
]


ECONOMIC = ("invest", "station", "station_swap", "speculate", "start", "assign_tempo", "board")


def uniform_policy(rng, moves):
    return rng.choice(moves)


def economic_policy(rng, moves):
    """Picks a kind of move first, favouring the ones that build the economy (so that lines get
    three holders, stations pay, riders travel), bids low, and passes rarely."""
    kinds = sorted({m.kind for m in moves})
    if kinds == ["bid"]:
        return rng.choice(moves[:4])
    econ = [k for k in kinds if k in ECONOMIC]
    if econ and rng.random() < 0.6:
        kind = rng.choice(econ)
    else:
        rest = [k for k in kinds if k != "pass"] if rng.random() < 0.85 else kinds
        kind = rng.choice(rest or kinds)
    return rng.choice([m for m in moves if m.kind == kind])


POLICIES = st.sampled_from([uniform_policy, economic_policy])


def next_move(state, rng, policy=uniform_policy):
    who = metro.pending(state)[0].actor
    if who == CHANCE:
        spec = metro.chance(state)
        assert isinstance(spec, ChanceChoice)
        assert abs(sum(p for _, p in spec.outcomes) - 1) < 1e-9
        assert 1 <= len(spec.outcomes) <= 9, "chance outcomes should be a small list"
        return rng.choice([m for m, _ in spec.outcomes])
    moves = metro.legal_moves(state, who)
    assert moves, f"seat {who} is pending in {state.phase} but has no legal move"
    return policy(rng, moves)


def playout(config, seed, junk_rate=0.05, check=True, policy=uniform_policy):
    rng = random.Random(seed)
    state = metro.setup(config)
    if check:
        check_invariants(state)
    moves = []
    while not metro.is_over(state):
        if rng.random() < junk_rate:
            who = metro.pending(state)[0].actor
            junk = rng.choice(JUNK)(who if who != CHANCE else 0)
            if junk not in metro.legal_moves(state, junk.player):
                before = state
                try:
                    metro.apply(state, junk)
                except IllegalMove as exc:
                    assert exc.reason
                else:
                    raise AssertionError(f"junk move {junk} was accepted in {state.phase}")
                assert state == before
        move = next_move(state, rng, policy)
        state, events = metro.apply(state, move)
        moves.append(move)
        for e in events:
            json.dumps(e.to_json())
        if check:
            check_invariants(state)
        assert len(moves) < 5000
    return state, moves


@SETTINGS
@given(config=CONFIGS, seed=st.integers(0, 2**32 - 1), policy=POLICIES)
def test_random_playouts_keep_the_invariants(config, seed, policy):
    state, moves = playout(config, seed, policy=policy)
    assert state.phase == OVER
    assert state.round == state.rules.rounds
    result = state.result
    assert [s.yen for s in state.seats] == result["totals"]
    assert total_yen(state) == state.options.bank_yen
    best = max(result["totals"])
    assert result["totals"][result["winner"]] == best
    tied = [p for p in state.order if result["totals"][p] == best]
    assert result["winner"] == tied[0], "ties go to the player further left on the order track"


@SETTINGS
@given(config=CONFIGS, seed=st.integers(0, 2**32 - 1), policy=POLICIES)
def test_replay_is_deterministic_and_survives_json(config, seed, policy):
    state, moves = playout(config, seed, junk_rate=0, check=False, policy=policy)
    replayed, _ = engine.replay(metro, config, moves)
    assert replayed == state
    log = json.loads(json.dumps([m.to_json() for m in moves]))
    from_log = [Move.from_json(line) for line in log]
    assert from_log == moves
    again, _ = engine.replay(metro, json.loads(json.dumps(config)), from_log)
    assert again == state
    assert metro.view(again, None) == metro.view(state, None)
    assert metro.payouts(again) == metro.payouts(state)


def test_legal_moves_are_all_accepted_and_move_info_is_sane():
    """Every listed move of many positions applies; costs are never negative nor above the yen."""
    rng = random.Random(5)
    state = metro.setup({"names": NAMES[:4]})
    seen = 0
    while not metro.is_over(state) and seen < 60:
        who = metro.pending(state)[0].actor
        moves = metro.legal_moves(state, who)
        if who != CHANCE and len(moves) > 1:
            seen += 1
            for m in moves:
                metro.apply(state, m)
                info = metro.move_info(state, m)
                assert 0 <= info.cost <= state.seats[who].yen, (m, info)
                assert info.pays_up_to >= 0
        state, _ = metro.apply(state, rng.choice(moves))
    assert seen == 60, f"only {seen} positions with a choice before the game ended"
