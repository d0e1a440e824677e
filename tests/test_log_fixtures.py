"""Logs written by this version keep replaying to the same result (issue 27, item 4): games of
every title recorded through the real app by tools/record_logs.py, with what they replayed to
then. A change of the engine that changes any of these results breaks a promise to every table
that kept a log (docs/log-format.md); a deliberate change of the format is said there."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.rules.games import GAMES
from companion.table.log import replayed

FIXTURES = Path(__file__).with_name("fixtures") / "logs"
LOGS = sorted(FIXTURES.glob("*.jsonl"))


def test_every_title_has_recorded_logs():
    titles = {path.stem.rsplit("-", 1)[0] for path in LOGS}
    assert titles == set(GAMES), "record the new title's games: .venv/bin/python tools/record_logs.py --games NAME"


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_a_recorded_log_replays_to_what_it_did(path):
    replay = replayed(path.read_text(encoding="utf-8").splitlines())
    result = {"payouts": replay["payouts"], "players": replay["view"]["players"]}
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    assert result["payouts"]["final"], "a recorded game was played to its end"
    assert json.loads(json.dumps(result)) == expected
