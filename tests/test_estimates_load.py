"""Estimates never starve the API (issue 25, defect 4).

An estimate of the final yen plays a few hundred games (1-2 s of CPU). Forty asked at once used
to hold every thread of the server's pool while they queued on one lock, and every other request
waited behind them for over a minute. Now they run on a small bounded pool: a few are computed,
the rest are answered at once with 429 and Retry-After, and a plain GET answers meanwhile in a
small part of the time one estimate takes. The real `companion serve` in its own process."""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
import time
from urllib.parse import parse_qs, urlparse

import httpx

from companion.server.heavy import ESTIMATE_WAITING, ESTIMATE_WORKERS
from server_support import Server

from api_support import seat

BURST = 48  # more than the 40 threads of the server's pool for plain (sync) endpoints
HEAVY = 2000  # playouts asked for: capped at the budget, about 1-2 s of work each


def test_many_estimates_at_once_get_a_busy_answer_and_the_api_stays_responsive(tmp_path):
    with Server(tmp_path / "data") as server, server.client() as api:
        r = api.post("/api/games", json={"game": "tokyo_metro", "seed": 3,
                                         "names": ["Aki", "Ben", "Chie", "Dai", "Emi"]})
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        token = parse_qs(urlparse(r.json()["players"][0]["url"]).query)["token"][0]
        estimates = f"/api/games/{gid}/estimates"

        began = time.monotonic()  # one estimate alone: the yardstick for "promptly"
        r = api.get(estimates, params={"playouts": HEAVY - 1}, headers=seat(token), timeout=120)
        alone = time.monotonic() - began
        assert r.status_code == 200 and r.json()["capped"], r.text

        # A thread of its own: a browser test on this worker may have left Playwright's event
        # loop running in the main thread, where asyncio.run() refuses to start another.
        with ThreadPoolExecutor(1) as pool:
            answers, waits = pool.submit(asyncio.run, burst(server, gid, token)).result()

        # A plain GET answered meanwhile, each in less than the time one estimate takes alone
        # (before: behind the estimates that held the pool's threads, many times that).
        assert waits, "no plain GET was made while the estimates ran"
        assert max(waits) < alone, (f"a plain GET took {max(waits):.2f} s while estimates ran "
                                f"(one estimate alone: {alone:.2f} s; GETs: {sorted(waits)[-5:]})")
        busy = [a for a in answers if a.status_code == 429]
        done = [a for a in answers if a.status_code == 200]
        assert len(busy) + len(done) == BURST, [a.status_code for a in answers]
        # The pool holds a few; far fewer than the burst get an answer computed (a job may end
        # while the burst still arrives, so a few more than the pool's size may get in).
        assert 1 <= len(done) <= BURST // 2, f"{len(done)} of {BURST} estimates were computed at once"
        for a in busy:
            assert int(a.headers["Retry-After"]) >= 1, a.headers
            assert "busy" in a.json()["detail"] and "ask again" in a.json()["detail"], a.text
        assert f"at most {ESTIMATE_WORKERS + ESTIMATE_WAITING} at a time" in busy[0].json()["detail"]


async def burst(server: Server, gid: str, token: str) -> tuple[list[httpx.Response], list[float]]:
    """BURST estimate requests at once, each with its own question (no shared answer); meanwhile
    plain GETs of the game list and the table view, one after the other, timed."""
    limits = httpx.Limits(max_connections=BURST + 8, max_keepalive_connections=BURST + 8)
    async with httpx.AsyncClient(base_url=server.url, headers=server.headers(), limits=limits, timeout=300) as client:
        asks = [asyncio.create_task(client.get(f"/api/games/{gid}/estimates",
                                               params={"playouts": HEAVY - 2 - i}, headers=seat(token)))
                for i in range(BURST)]
        waits: list[float] = []
        await asyncio.sleep(0)  # let the burst go out first
        while not all(a.done() for a in asks):
            for path in ("/api/games", f"/api/games/{gid}/view"):
                began = time.monotonic()
                r = await client.get(path)
                waits.append(time.monotonic() - began)
                assert r.status_code == 200, r.text
            await asyncio.wait(asks, timeout=0.05)
        return [a.result() for a in asks], waits
