"""How fast the engine plays, replays and serves POCARI BET.

Run: .venv/bin/python benchmarks/engine.py   (or: make bench)
Prints one line per measurement; docs/performance.md keeps the results.
"""
from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.rules.engine import CHANCE, ChanceDrop, Move, replay  # noqa: E402
from companion.rules.games import pocari_bet as game  # noqa: E402


def random_game(seed: int) -> list[Move]:
    rng, state, moves = random.Random(seed), game.setup({}), []
    while not game.is_over(state):
        actor = game.pending(state)[0].actor
        spec = game.chance(state) if actor == CHANCE else None
        if isinstance(spec, ChanceDrop):
            move = Move("drop", CHANCE, {"out": tuple(d for d in spec.candidates if rng.random() < 0.8)})
        else:
            move = rng.choice(game.legal_moves(state, actor))
        state, _ = game.apply(state, move)
        moves.append(move)
    return moves


def measure(label: str, fn, repeat: int, unit: str) -> None:
    times = []
    for i in range(repeat):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    print(f"{label}: median {median * 1000:.2f} ms per {unit} ({1 / median:,.0f} per second)")


def main() -> None:
    games = [random_game(s) for s in range(20)]
    n_moves = statistics.mean(len(g) for g in games)
    print(f"a random 9-round game has {n_moves:.0f} moves on average")
    measure("random playout (legal moves + apply)", lambda i: random_game(1000 + i), 20, "game")
    measure("replay of a whole game log", lambda i: replay(game, {}, games[i % 20]), 50, "game")
    state = replay(game, {}, games[0][:40])[0]
    measure("legal_moves + view (draft phase)", lambda i: (game.legal_moves(state, 0), game.view(state, None)),
            2000, "call")

    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient

    from companion.server.app import create_app
    from companion.sim.table import SimTable
    from companion.table.store import EventStore

    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(EventStore(Path(tmp)),
                                                                     automation=SimTable())) as client:
        gid = client.post("/api/games", json={"bots": [1, 2], "seed": 1}).json()["id"]

        def one_move(_):
            v = client.get(f"/api/games/{gid}/view").json()
            if v["over"]:
                return
            if v["state"]["phase"] == "drop":
                client.post(f"/api/games/{gid}/throw")
            else:
                client.post(f"/api/games/{gid}/moves", json={"move": v["moves"][0]["move"]})

        measure("HTTP move round trip (view + move + SQLite commit + bots)", one_move, 60, "request")


if __name__ == "__main__":
    main()
