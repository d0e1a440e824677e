"""How fast the TOKYO METRO engine lists moves, runs a train phase and plays a whole game.

Run: .venv/bin/python benchmarks/metro.py
Prints one line per measurement (median of repeated runs, one core). Targets (issue 5):
legal moves <= 1 ms, one train phase <= 2 ms, a random full 4-player game <= 50 ms; and for the
hints, one request for estimates (the server's default playouts, capped by its budget) < 2 s.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.rules.engine import Move, replay  # noqa: E402
from companion.rules.metro import game  # noqa: E402
from companion.rules.estimate import play_out  # noqa: E402
from companion.rules.metro.state import ACTIONS, TRAINS  # noqa: E402
from companion.table.session import ESTIMATE_BUDGET, ESTIMATE_PLAYOUTS  # noqa: E402

NAMES = ["Aki", "Ben", "Chie", "Dai"]
CONFIG = {"names": NAMES}


ECONOMIC = ("invest", "station", "station_swap", "speculate", "start", "assign_tempo", "board")


def economic(rng, moves):
    """A random player that picks a kind of move first, favouring the economy, bids low and
    rarely passes: busier games (shares, stations, riders) than uniform random moves."""
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


def random_game(seed: int, config=CONFIG, stop=None, policy=None, state=None):
    """A whole game of random legal moves (chance included); returns the moves and the states
    where ``stop`` was true (to pick benchmark positions from)."""
    rng, moves, picked = random.Random(seed), [], []
    state = game.setup(config) if state is None else state
    while not game.is_over(state):
        if stop is not None and stop(state):
            picked.append(state)
        actor = game.pending(state)[0].actor
        options = game.legal_moves(state, actor)
        move = policy(rng, options) if policy is not None and actor != "chance" else rng.choice(options)
        state, _ = game.apply(state, move)
        moves.append(move)
    return moves, picked


def measure(label: str, fn, repeat: int, unit: str, target_ms: float | None = None) -> float:
    times = []
    for i in range(repeat):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    median = statistics.median(times) * 1000
    verdict = "" if target_ms is None else f"  (target <= {target_ms:g} ms: {'met' if median <= target_ms else 'MISSED'})"
    print(f"{label}: median {median:.3f} ms per {unit}{verdict}")
    return median


def run_train_phase(state) -> None:
    """Apply a whole train phase: the start, then every rider's first choice (skip / ride on / the
    first field) until the phase is over."""
    first = state.order[0]
    state, _ = game.apply(state, Move("run_trains", first, {}))
    while state.phase == TRAINS and state.run is not None:
        who = game.pending(state)[0].actor
        state, _ = game.apply(state, game.legal_moves(state, who)[-1])


def main() -> None:
    games = [random_game(s)[0] for s in range(20)]
    print(f"a random 4-player game has {statistics.mean(len(g) for g in games):.0f} moves on average "
          f"(chance moves included)")
    measure("random full 4-player game (legal moves + apply for every move)",
            lambda i: random_game(1000 + i), 30, "game", 50)
    measure("random full 4-player game, economy-minded random players",
            lambda i: random_game(1000 + i, policy=economic), 30, "game", 50)
    measure("replay of a whole game log", lambda i: replay(game, CONFIG, games[i % 20]), 30, "game")
    middle = random_game(7, stop=lambda s: s.phase == ACTIONS and s.round == 3)[1][0]
    measure("uniform random playout from a round-3 position to the end",
            lambda i: random_game(4000 + i, state=middle), 100, "playout")

    estimates()

    # Action-phase positions from late in random games: the heaviest move lists.
    positions = []
    for seed in range(20):
        positions += random_game(2000 + seed, stop=lambda s: s.phase == ACTIONS and s.round >= 3)[1]
    positions.sort(key=lambda s: -len(game.legal_moves(s, s.order[s.turn])))
    heavy = positions[: max(1, len(positions) // 10)]
    sizes = [len(game.legal_moves(s, s.order[s.turn])) for s in heavy]
    print(f"heaviest tenth of {len(positions)} action-phase positions: {min(sizes)}-{max(sizes)} legal moves")
    measure("legal_moves, heaviest action-phase positions",
            lambda i: game.legal_moves(heavy[i % len(heavy)], heavy[i % len(heavy)].order[heavy[i % len(heavy)].turn]),
            2000, "call", 1)
    typical = positions[len(positions) // 2]
    measure("legal_moves, median action-phase position", lambda i: game.legal_moves(typical, typical.order[typical.turn]),
            2000, "call", 1)

    # Train phases: the positions waiting for run_trains, busiest (most trains on the board) first.
    waiting = []
    for seed in range(20):
        waiting += random_game(3000 + seed, stop=lambda s: s.phase == TRAINS and s.run is None)[1]
    waiting.sort(key=lambda s: -sum(ls.train >= 0 for ls in s.lines))
    busy = waiting[: max(1, len(waiting) // 10)]
    trains_on = [sum(ls.train >= 0 for ls in s.lines) for s in busy]
    print(f"busiest tenth of {len(waiting)} train phases: {min(trains_on)}-{max(trains_on)} trains on the board")
    measure("one train phase (busiest), riders answering", lambda i: run_train_phase(busy[i % len(busy)]),
            500, "phase", 2)
    measure("train_phase_preview (busiest)", lambda i: game.train_phase_preview(busy[i % len(busy)]), 500, "call")
    measure("table view (busiest train phase)", lambda i: game.view(busy[i % len(busy)], None), 500, "call")


def first_action_turn(names: list[str]):
    """Round 1's first action turn (the most game left to play out), reached by random moves."""
    return random_game(11, config={"names": names}, stop=lambda s: s.phase == ACTIONS and s.round == 1)[1][0]


def estimates() -> None:
    """The hints: a playout of the estimator's policy, and whole estimate requests as the server
    makes them (its default playouts, capped by its budget of playout seat-rounds)."""
    start = game.setup(CONFIG)
    t = measure("estimator playout of a whole 4-player game (the playout policy)",
                lambda i: play_out(game.GAME, start, random.Random(i)), 40, "playout")
    per = t / game.GAME.estimate_cost(start)
    print(f"  = {per:.3f} ms per seat-round of playout; the server's budget of {ESTIMATE_BUDGET} seat-rounds "
          f"per request is about {per * ESTIMATE_BUDGET / 1000:.2f} s")
    for names in (NAMES[:2], NAMES, NAMES + ["Emi"]):
        state = first_action_turn(names)
        seat = state.order[state.turn]
        moves = game.legal_moves(state, seat)
        n = min(ESTIMATE_PLAYOUTS, max(1, int(ESTIMATE_BUDGET / game.GAME.estimate_cost(state))))
        measure(f"estimate request, {len(names)} players, round 1 ({len(moves)} moves, {n} playouts)",
                lambda i: game.GAME.estimate(state, seat, moves, random.Random(i), n, seat), 5, "request", 2000)
    state = first_action_turn(NAMES[:2])
    seat = state.order[state.turn]
    moves = game.legal_moves(state, seat)
    cap = max(1, int(ESTIMATE_BUDGET / game.GAME.estimate_cost(state)))
    measure(f"estimate request at the cap, 2 players, round 1 ({cap} playouts)",
            lambda i: game.GAME.estimate(state, seat, moves, random.Random(i), cap, seat), 5, "request", 2000)


if __name__ == "__main__":
    main()
