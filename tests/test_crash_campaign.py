"""The crash campaign, short (issue 25): the real `companion serve` in a process, several games
played through its HTTP API (computer seats, sealed bids, secret cards, a real table and the
simulated one), SIGKILLed at random points (seeded) and restarted on the same data folder.
After every restart no confirmed move is lost, no game waits on nobody, and every view equals
a fold of the stored log; at the end every game is played on to its end (tests/crash_support.py
says what is checked and how). benchmarks/crash_campaign.py runs it with 200 kills."""
from __future__ import annotations

import os

from crash_support import Campaign

KILLS = 8
SEED = int(os.environ.get("CRASH_CAMPAIGN_SEED", "25"))


def test_a_server_killed_at_random_loses_no_confirmed_move_and_wedges_no_game(tmp_path):
    campaign = Campaign(tmp_path / "data", seed=SEED)
    try:
        report = campaign.run(kills=KILLS)
    finally:
        campaign.close()
    summary = report.summary()
    print(summary)
    assert report.kills == KILLS and report.confirmed > 0
    assert report.finished == report.games, summary
