"""Hints for the players: the expected final yen of each move offered, from random playouts
(the game's ``estimate``), computed off the request threads and kept for the current log length.
Mixed into TableSession (uses its game, state, lock, records and ``allowed_moves``)."""
from __future__ import annotations

import random
import threading
from typing import Callable

from ..rules.engine import Move
from .errors import NotOffered

# Hints of the expected final yen (games that offer ``estimate``): playouts per request by
# default, and the most work one request may take, in playout "seat-rounds" (the game's
# ``estimate_cost``: seats x rounds left). 5,000 of them take about 1.1-1.6 s on the table's
# 2-core machine, busy or not (benchmarks/metro.py, docs/performance.md), so a request stays
# under ~2 s; the default 200 playouts fit the budget from round 1 on with up to 5 players.
ESTIMATE_PLAYOUTS = 200
ESTIMATE_BUDGET = 5000


class Hints:
    def _init_hints(self) -> None:
        # Answers of estimates, kept for the current log length (the lock guards the dict only:
        # estimates are computed outside every lock, and the server bounds how many run).
        self.estimate_lock = threading.Lock()
        self.estimate_cache: dict[tuple, dict] = {}

    def estimates(self, viewer, playouts: int = ESTIMATE_PLAYOUTS) -> dict:
        """The expected final yen of each move this viewer is offered now, from random playouts
        in which whatever this viewer cannot see is drawn again (the game's ``estimate``). The
        seed comes from the game id and the log length, so asking again gives the same answer
        (kept until the next move); the playouts are capped by ``ESTIMATE_BUDGET``."""
        return self.estimate_job(viewer, playouts)[1]()

    def estimate_job(self, viewer, playouts: int = ESTIMATE_PLAYOUTS) -> tuple[tuple, Callable[[], dict]]:
        """The question (game, viewer, log length, playouts) and the work that answers it, for a
        caller that runs heavy work elsewhere (the server's bounded workers). Refuses at once
        (NotOffered, ValueError); the work answers from the kept answers when it can, and takes
        no lock while it plays, so moves and views go on meanwhile."""
        if not self.game.offers_estimates:
            raise NotOffered(f"{self.game.title} offers no estimates of the final yen: they would tell a player "
                             "what they cannot see")
        if playouts < 1:
            raise ValueError("ask for at least 1 playout")
        with self.lock:
            seq, state = len(self.records), self.state
            moves = self.allowed_moves(viewer)
        key = (viewer, seq, playouts)

        def work() -> dict:
            known = self.kept_estimate(key)
            if known is not None:
                return known
            by_seat: dict[int, list[Move]] = {}
            for move in moves:
                if move.player not in self.bots:  # not for a computer's move held for a tap
                    by_seat.setdefault(move.player, []).append(move)
            cost = self.game.estimate_cost(state)
            cap = max(1, int(ESTIMATE_BUDGET / max(1, len(by_seat)) / cost))
            n = min(playouts, cap)
            seats = [self.game.estimate(state, seat, seat_moves, random.Random(f"estimate:{self.id}:{seq}:{seat}"), n, viewer)
                     for seat, seat_moves in by_seat.items()]
            answer = {"game_id": self.id, "seq": seq, "viewer": viewer, "requested": playouts, "playouts": n,
                      "capped": n < playouts, "method": "random playouts", "seats": seats}
            with self.estimate_lock:
                answer = self.estimate_cache.setdefault(key, answer)  # the first of two at once wins
                self.estimate_cache = {k: v for k, v in self.estimate_cache.items() if k[1] == len(self.records)}
            return answer

        return key, work

    def kept_estimate(self, key: tuple) -> dict | None:
        """The answer already given to this question (viewer, log length, playouts), if any."""
        with self.estimate_lock:
            return self.estimate_cache.get(key)
