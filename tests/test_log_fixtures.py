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
    assert holds(json.loads(json.dumps(result)), expected)


def holds(got, expected) -> bool:
    """``got`` says everything ``expected`` says, the same: a later version may show more (a view's
    new field), never other values for what was recorded."""
    if isinstance(expected, dict):
        return isinstance(got, dict) and all(k in got and holds(got[k], v) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and all(map(holds, got, expected))
    return got == expected


def test_a_result_holds_what_was_recorded_and_no_other_value():
    assert holds({"a": 1, "b": [1, {"c": 2, "new": 0}]}, {"a": 1, "b": [1, {"c": 2}]})
    assert not holds({"a": 1, "b": [1, {"c": 3}]}, {"a": 1, "b": [1, {"c": 2}]})
    assert not holds({"a": 1, "b": [1]}, {"a": 1, "b": [1, {"c": 2}]})
    assert not holds({"b": [1]}, {"a": 1, "b": [1]})


# --- one record for a reading taken (issue 27, item 2) --------------------------------------------

def merged(lines: list[str]) -> tuple[list[str], int]:
    """The log as this version writes it: each observation that a move record follows (made by
    the observation's source: the reading taken) made ONE record carrying that move. The number of
    records merged."""
    out, merges, records = [lines[0]], 0, [json.loads(line) for line in lines[1:] if line.strip()]
    i = 0
    while i < len(records):
        record = records[i]
        after = records[i + 1] if i + 1 < len(records) else None
        seen = record.get("observation") or {}
        # (a record that carries its move already is in this form: the chance move after it is its own)
        if record.get("type") == "observation" and "move" not in record and record.get("question") is None \
                and after is not None \
                and after.get("type") == "move" and after.get("by") == seen.get("source") and set(after) <= {
                    "type", "move", "by"}:
            out.append(json.dumps({**record, "move": after["move"], "by": after["by"]}, sort_keys=True))
            merges += 1
            i += 2
            continue
        out.append(json.dumps(record, sort_keys=True))
        i += 1
    return out, merges


PAIRED = [p for p in LOGS if merged(p.read_text(encoding="utf-8").splitlines())[1]]


def test_recorded_logs_hold_readings_in_two_records():
    assert len(PAIRED) >= 6, "the fixtures hold the older form: an observation, then the move it became"


@pytest.mark.parametrize("path", PAIRED, ids=[p.stem for p in PAIRED])
def test_a_reading_in_one_record_folds_as_the_older_two(path):
    """The two forms of a reading taken fold to the same state, record by record, undo included."""
    from companion.table.log import read_jsonl

    lines = path.read_text(encoding="utf-8").splitlines()
    one, _ = merged(lines)
    old, new = read_jsonl(lines), read_jsonl(one)
    assert new.game.view(new.state, None) == old.game.view(old.state, None)
    assert new.game.payouts(new.state) == old.game.payouts(old.state)
    assert [(m, by) for _s, m, by in new.history] == [(m, by) for _s, m, by in old.history]
    assert len(one) < len(lines)


def test_companion_replay_reads_a_reading_in_one_record(tmp_path):
    import subprocess
    import sys

    path = PAIRED[0]
    one, merges = merged(path.read_text(encoding="utf-8").splitlines())
    log = tmp_path / "one-record.jsonl"
    log.write_text("\n".join(one) + "\n")
    result = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(log), "--json"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    assert {"payouts": out["payouts"], "players": out["view"]["players"]} == expected
