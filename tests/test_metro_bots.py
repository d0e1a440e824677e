"""The computer players of TOKYO METRO (companion/sim/players.py): greedy, modest bidders,
reproducible from the seed, and better than random players."""
from __future__ import annotations

import statistics

from companion.rules.engine import CHANCE
from companion.rules.games import pocari_bet
from companion.rules.metro import game as metro
from companion.sim.players import BID_CAP, bot_move, choose
from test_metro_support import NAMES


def play(seed: int, greedy_seats: set[int], log: list | None = None):
    state = metro.setup({"names": NAMES[:4]})
    k = 0
    while not metro.is_over(state):
        actor = metro.pending(state)[0].actor
        moves = metro.legal_moves(state, actor)
        key = f"{seed}:{k}"
        move = bot_move(metro.GAME, state, moves, key) if actor in greedy_seats else choose(moves, key)
        assert move in moves
        if log is not None and actor != CHANCE:
            log.append((state.phase, move))
        state = metro.apply(state, move)[0]
        k += 1
    return state


def test_greedy_players_bid_modestly_and_are_reproducible():
    log: list = []
    a = play(3, {0, 1, 2, 3}, log)
    assert play(3, {0, 1, 2, 3}) == a
    bids = [m.args["amount"] for phase, m in log if m.kind == "bid"]
    assert bids and max(bids) <= BID_CAP
    kinds = {m.kind for _, m in log}
    assert {"station", "invest"} <= kinds, kinds  # they build the economy


def test_greedy_players_end_richer_than_random_ones():
    greedy, rand = [], []
    for seed in range(8):
        totals = play(seed, {0, 2}).result["totals"]
        greedy += [totals[0], totals[2]]
        rand += [totals[1], totals[3]]
    assert statistics.mean(greedy) > statistics.mean(rand) + 1000, (greedy, rand)


def test_other_games_keep_their_random_players():
    state = pocari_bet.setup({"names": ["A", "B", "C"]})
    moves = pocari_bet.legal_moves(state, CHANCE)
    assert bot_move(pocari_bet.GAME, state, moves, "7") == choose(moves, "7")
