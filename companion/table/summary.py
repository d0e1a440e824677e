"""What one game came to, in a few hundred bytes: its players, their final yen and score, the
winners, how it ended, and its tower's drops (table/drops.py). The history (table/history.py)
lists these instead of folding every log again; the store keeps them (``summaries``, schema 4).

A summary is made when a game finishes (the session's last commit), or, for a game that finished
before summaries were kept (a store of schema 3 or less) or under an older format, when the
history first asks for it. A game whose log cannot be folded gets a summary that says so
(``status: "set_aside"``, with the record and the reason), never an error.

    {"id", "game", "created", "finished", "status": "completed" | "ended" | "unfinished" | "set_aside",
     "simulated", "moves", "winners": [seat, ...],
     "players": [{"seat", "name", "bot", "yen", "score", "winner"}, ...],
     "set_aside": {"seq", "reason", "message"} | null, "tower": {drops tally}}

``score`` is the game's final standing in yen: the total it scores a seat by when it has one
(TOKYO METRO's shares and loans, MELON SODA's crate bonus, CHOCOLATE MILK's crates, the
upside-down tower's stocks), else the yen in hand. ``winners`` is empty unless the game reached
its end: a game the host ended early has no winner.
"""
from __future__ import annotations

import logging
from typing import Any, Mapping

from . import drops
from .errors import BrokenGame
from .log import Folded, LogError, fold
from .store import CorruptRecord, EventStore

log = logging.getLogger(__name__)

SUMMARY_VERSION = 1  # a change of the format below: every kept summary is made again when asked
SCORE_KEYS = ("projected", "worth", "yen")  # where a game's payouts hold each seat's standing, best first


def _names(config: Mapping[str, Any]) -> list[str]:
    names = config.get("names")
    return [str(n) for n in names] if isinstance(names, list) else []


def _bots(config: Mapping[str, Any]) -> set[int]:
    bots = config.get("bots")
    return {b for b in bots if isinstance(b, int)} if isinstance(bots, list) else set()


def _seat_numbers(value: Any, n: int) -> list[float] | None:
    if isinstance(value, list) and len(value) == n and all(isinstance(v, (int, float)) for v in value):
        return value
    return None


def _head(game_id: str | None, game: str, config: Mapping[str, Any], created: str | None,
          finished: str | None) -> dict:
    return {"id": game_id, "game": game, "created": created, "finished": finished,
            "simulated": bool(config.get("simulated", True))}


def summarize(game_id: str | None, game: str, config: Mapping[str, Any], folded: Folded,
              created: str | None = None, finished: str | None = None) -> dict:
    """The summary of a folded game (``game_id`` None: a log replayed, not stored)."""
    names, bots = _names(config), _bots(config)
    payouts = folded.game.payouts(folded.state)
    over = folded.game.is_over(folded.state)
    status = "ended" if folded.ended else "completed" if over else "unfinished"
    yen = _seat_numbers(payouts.get("yen"), len(names))
    score = next((s for s in (_seat_numbers(payouts.get(k), len(names)) for k in SCORE_KEYS) if s is not None), None)
    winners = sorted(w for w in payouts.get("winners") or () if isinstance(w, int)) if status == "completed" else []
    players = [{"seat": seat, "name": name, "bot": seat in bots, "yen": yen[seat] if yen else None,
                "score": score[seat] if score else None, "winner": seat in winners}
               for seat, name in enumerate(names)]
    return {**_head(game_id, game, config, created, finished), "status": status, "moves": len(folded.history),
            "winners": winners, "players": players, "set_aside": None,
            "tower": drops.tally(folded.game, folded.history)}


def set_aside(game_id: str, game: str, config: Mapping[str, Any], seq: int, reason: str,
              created: str | None = None, finished: str | None = None, unreadable: bool = False) -> dict:
    """The summary of a game whose log cannot be folded: its players, and which record failed why
    (``seq`` 0: its settings; the message is the one the lobby shows for a game set aside)."""
    bots = _bots(config)
    players = [{"seat": seat, "name": name, "bot": seat in bots, "yen": None, "score": None, "winner": False}
               for seat, name in enumerate(_names(config))]
    return {**_head(game_id, game, config, created, finished), "status": "set_aside", "moves": 0,
            "winners": [], "players": players, "set_aside": BrokenGame(game_id, game, seq, reason, unreadable).to_json(), "tower": drops.empty()}


def of_stored(store: EventStore, game_id: str) -> dict:
    """A stored game's summary, folded from its records (a game that cannot be folded: set aside)."""
    info = store.game(game_id)
    where = (game_id, info.game, info.config)
    when = {"created": info.created, "finished": store.last_at(game_id)}
    if info.problem:
        return set_aside(*where, 0, info.problem, **when)
    try:
        folded = fold(info.game, info.config, store.records(game_id))
    except CorruptRecord as exc:
        return set_aside(*where, exc.seq, exc.reason, **when, unreadable=True)
    except LogError as exc:
        return set_aside(*where, exc.line, exc.reason, **when)
    except Exception as exc:  # the setup refused the settings, an unknown game
        reason = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        return set_aside(*where, 0, str(reason), **when)
    return summarize(game_id, info.game, info.config, folded, **when)


def keep(store: EventStore, game_id: str, folded: Folded) -> None:
    """Keep the summary of a game that just finished (the session's fold of it). A failure is
    logged, never raised: the game's records are committed already, and the history makes the
    summary again when it finds none."""
    try:
        info = store.game(game_id)
        summary = summarize(game_id, info.game, info.config, folded, info.created, store.last_at(game_id))
        store.keep_summary(game_id, SUMMARY_VERSION, summary)
    except Exception:
        log.exception("the summary of game %s could not be kept; the history makes it when asked", game_id)
