"""The games this server holds open: resumed from the store at start, a game whose log cannot
be folded set aside (``broken``) with a message in the log while the others run, and the game
the tower's camera and sensors report to (``feed``, ``route``)."""
from __future__ import annotations

import logging

from fastapi import HTTPException

from ..observation import Observation
from ..table.session import BrokenGame, TableSession
from ..table.store import EventStore

log = logging.getLogger(__name__)


class Tables:
    """The sessions of this server (see the module)."""

    def __init__(self, store: EventStore, teacher=None):
        """``teacher``: the table's look book (table/looks.py), which every session tells what the
        host's corrections of the camera teach."""
        self.store, self.teacher = store, teacher
        self.sessions: dict[str, TableSession] = {}
        self.broken: dict[str, BrokenGame] = {}
        for info in reversed(store.games(status="open")):
            try:
                self._load(info.id)
            except BrokenGame:
                pass
        self.active: str | None = next(reversed(self.sessions), None)  # the game the devices feed

    def _load(self, game_id: str) -> TableSession:
        try:
            session = TableSession(self.store, game_id)
        except BrokenGame as exc:
            self._set_aside(exc)
            raise
        return self.adopt(session)

    def adopt(self, session: TableSession) -> TableSession:
        """Hold ``session`` (resumed, or new) open."""
        session.teacher = self.teacher
        self.sessions[session.id] = session
        return session

    def moves_in_effect(self, game_id: str) -> list | None:
        """The moves in effect of an open game (None: not open here), for the look book."""
        session = self.sessions.get(game_id)
        return [move for _state, move, _by in session.folded.history] if session is not None else None

    def _set_aside(self, exc: BrokenGame) -> None:
        if exc.game_id not in self.broken:
            log.error("%s", exc)
        self.broken[exc.game_id] = exc

    def problem(self, info) -> dict | None:
        """Why a listed game is set aside (its settings are read here; its records when it is
        resumed: at start for open games, when first opened for finished ones), or None."""
        if info.problem and info.id not in self.broken:
            self._set_aside(BrokenGame(info.id, info.game, 0, info.problem))
        broken = self.broken.get(info.id)
        return broken.to_json() if broken else None

    def feed(self, session: TableSession) -> TableSession:
        """Make ``session`` the game the camera and sensors report to (the host's choice; a new
        game, and a move made on the table view, choose it too). Every open view is told."""
        before, self.active = self.active, session.id
        if before != session.id:
            for other in {before, session.id} - {None}:
                if other in self.sessions:
                    self.sessions[other].notify()
        return session

    def doubt(self, obs: Observation) -> str | None:
        """Why the game in play would put this camera reading to a person (devices read the tray
        again first), or None."""
        session = self.sessions.get(self.active) if self.active else None
        if session is None or session.over:
            return None
        return session.second_look(obs)

    def route(self, obs: Observation) -> None:
        """Hand a device's observation to the game in play; without one it is only counted."""
        session = self.sessions.get(self.active) if self.active else None
        if session is None or session.over:
            log.info("no game in play: %s observation not recorded", obs.source)
            return
        session.observe(obs)

    def get(self, game_id: str) -> TableSession:
        """The game's session: 404 for no such game, 409 (saying why) for one set aside."""
        if game_id in self.broken:
            raise HTTPException(409, str(self.broken[game_id]))
        if game_id not in self.sessions:
            try:
                self._load(game_id)
            except KeyError:
                raise HTTPException(404, f"no game {game_id!r}; the host's lobby lists the games") from None
            except BrokenGame as exc:
                raise HTTPException(409, str(exc)) from None
        return self.sessions[game_id]

    def known(self, game_id: str) -> None:
        """404 unless ``game_id`` names a stored game (broken or not): checked before a key is read,
        so that a stranger learns nothing more of a game than of no game."""
        if game_id not in self.sessions and game_id not in self.broken:
            try:
                self.store.game(game_id)
            except KeyError:
                raise HTTPException(404, f"no game {game_id!r}; the host's lobby lists the games") from None

    def seats(self, game_id: str) -> int:
        """How many seats a stored game has (0 for one whose settings cannot be read)."""
        if game_id in self.sessions:
            return len(self.sessions[game_id].config["names"])
        try:
            names = self.store.game(game_id).config.get("names")
        except KeyError:
            return 0
        return len(names) if isinstance(names, list) else 0

