"""The games this table holds open, and the whole observation path: resumed from the store at
start (a game whose log cannot be folded set aside, ``broken``, with a message in the log while
the others run), the game the tower's camera and sensors report to (``feed``), and what they
report routed to it (``route``): the devices (table/devices.py) hand every observation here, the
session judges and commits it once (a sensor event the store's index holds already is not
recorded again, in whichever game it was)."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from ..observation import Observation
from ..rules.games import GAMES
from .automation import Automation
from .devices import Devices
from .errors import BrokenGame, NoSuchGame
from .observing import board_event
from .session import TableSession
from .store import EventStore

log = logging.getLogger(__name__)


def game_types() -> list[dict]:
    """The games this table knows: ``{"id", "players", "tower", "choices"}`` (the numbers of players
    it seats; whether it throws drinks into the tower, for the lobby's simulated-tower box; the
    options the lobby offers as choices, ``{"option", "values", "default"}`` each)."""
    return [{"id": name, "players": list(game.players), "tower": game.uses_tower, "choices": game.lobby_choices}
            for name, game in GAMES.items()]


def game_guide(name: str) -> dict:
    """What a "how to play" page lists of a game (KeyError: no such game, with the known ones):
    its seats and every kind of move with the rule-book section it follows and who makes it (a
    seat, in secret on their own phone, or chance: the table enters what happened)."""
    game = GAMES.get(name)
    if game is None:
        raise KeyError(f"there is no game {name!r}; the games are {', '.join(GAMES)}")
    return {"id": name, "players": list(game.players),
            "kinds": [{"kind": k.name, "rule": k.rule, "chance": k.chance, "secret": k.secret}
                      for k in game.kinds]}


class Tables:
    """The sessions of this table (see the module)."""

    def __init__(self, store: EventStore, teacher=None, automation: Automation | None = None,
                 landing_camera_coming: bool = False):
        """``teacher``: the table's look book (table/looks.py), which every session tells what the
        host's corrections of the camera teach; ``automation``: the hands that play what no person
        does (table/automation.py; None: nothing plays on its own); ``landing_camera_coming``: a
        landing camera will run (it is made after the table, which it reads for), so that the
        games resumed now leave their landings to it as they will once it runs."""
        self.store, self.teacher, self.automation = store, teacher, automation
        self._landing_camera_coming = landing_camera_coming
        self.sessions: dict[str, TableSession] = {}
        self.broken: dict[str, BrokenGame] = {}
        # The board camera (table/board_device.py; None: none runs) and its settle time (None:
        # BoardWatch's own), set before the open games are loaded: adopting one reads them.
        self.board_camera = None
        self.board_settle_s: float | None = None
        self.crate_camera = None   # the crate camera (table/crate_device.py; None: none runs)
        self.landing_camera = None   # the landing camera (table/landing_device.py; None: none runs)
        for info in reversed(store.games(status="open")):
            try:
                self._load(info.id)
            except BrokenGame:
                pass
        self.active: str | None = next(reversed(self.sessions), None)  # the game the devices feed
        # The game the board camera feeds: the newest open game with a board it reads (TOKYO
        # METRO), created or moved in.
        self.board_active: str | None = next((gid for gid in reversed(self.sessions)
                                              if self.sessions[gid].board_watch is not None), None)
        # The game the crate camera feeds: the newest open crate game, created or moved in.
        self.crate_active: str | None = next((gid for gid in reversed(self.sessions)
                                              if self.sessions[gid].crate_watch is not None), None)
        # The game the landing camera feeds: the newest open game scored by landings, created or moved in.
        self.landing_active: str | None = next((gid for gid in reversed(self.sessions)
                                                if self.sessions[gid].landing_watch is not None), None)

    def _load(self, game_id: str) -> TableSession:
        try:
            session = TableSession(self.store, game_id, self.automation, self.landing_status)
        except BrokenGame as exc:
            self._set_aside(exc)
            raise
        return self.adopt(session)

    def create(self, game: str, names: list[str], bots: list[int] = (), simulated: bool = True,
               seed: int | None = None, options: dict | None = None) -> TableSession:
        """A new game, held open and fed by the tower (KeyError: no such game; IllegalMove: its
        settings are refused)."""
        session = TableSession.create(self.store, game, names, bots, simulated, seed, options, self.automation,
                                      self.landing_status)
        return self._landings_in(self.feed(self.adopt(session)))

    def adopt(self, session: TableSession) -> TableSession:
        """Hold ``session`` (resumed, or new) open."""
        session.teacher = self.teacher
        if session.board_watch is not None:
            session.board_watch.camera = self.board_status
            if self.board_settle_s is not None:
                session.board_watch.settle_s = self.board_settle_s
        if session.crate_watch is not None:
            session.crate_watch.camera = self.crate_status
        if session.landing_watch is not None:
            session.landing_watch.camera = self.landing_status
        self.sessions[session.id] = session
        return session

    def moves_in_effect(self, game_id: str) -> list | None:
        """The moves in effect of an open game (None: not open here), for the look book."""
        session = self.sessions.get(game_id)
        return session.moves_in_effect() if session is not None else None

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
        game, and a move made on the table view, choose it too). Every open view is told. A game
        that throws nothing into the tower (TOKYO METRO) never takes it from another game: the
        tower goes on reporting to the game it fed (the host's choice of such a game is refused
        before it comes here)."""
        if not session.game.uses_tower:
            return self.moved_in(session)
        before, self.active = self.active, session.id
        if before != session.id:
            for other in {before, session.id} - {None}:
                if other in self.sessions:
                    self.sessions[other].notify()
        return session

    def moved_in(self, session: TableSession) -> TableSession:
        """A game was created or moved in: a game whose board the board camera reads (or whose
        crates the crate camera reads) becomes the one it feeds (every open view of the two games
        is told)."""
        if session.board_watch is not None and self.board_active != session.id:
            before, self.board_active = self.board_active, session.id
            for other in (before, session.id):
                if other in self.sessions:
                    self.sessions[other].board_watch.touch()
        if session.crate_watch is not None and self.crate_active != session.id:
            before, self.crate_active = self.crate_active, session.id
            for other in (before, session.id):
                if other in self.sessions:
                    self.sessions[other].crate_watch.touch()
        return self._landings_in(session)

    def _landings_in(self, session: TableSession) -> TableSession:
        """A game scored by landings created or moved in: the landing camera reads for it."""
        if session.landing_watch is not None and self.landing_active != session.id:
            before, self.landing_active = self.landing_active, session.id
            for other in (before, session.id):
                if other in self.sessions:
                    self.sessions[other].landing_watch.touch()
        return session

    # --- the board camera -----------------------------------------------------------------------

    def use_board_camera(self, device, settle_s: float | None = None) -> None:
        """The board camera (table/board_device.py) and how long a board must show the same
        pieces to be settled (None: BoardWatch's SETTLE_S), for the games open now and later."""
        self.board_camera, self.board_settle_s = device, settle_s
        if settle_s is not None:
            for session in self.sessions.values():
                if session.board_watch is not None:
                    session.board_watch.settle_s = settle_s

    def board_in_play(self) -> TableSession | None:
        """The game the board camera reads for, while it is open (None: it rests)."""
        session = self.sessions.get(self.board_active) if self.board_active else None
        return None if session is None or session.over or session.board_watch is None else session

    def board_route(self, reading, at: float | None = None) -> str | None:
        """Hand a board camera's reading (board_pieces.BoardReading) to the game it reads for."""
        session = self.board_in_play()
        return session.board_watch.feed(reading, at) if session is not None else None

    def board_status(self, game_id: str) -> dict | None:
        """The board camera as one game's view shows it (see BoardWatch.to_json), or None."""
        device = self.board_camera
        if device is None:
            return None
        return {**device.status_for_view(), "feeding": self.board_active == game_id and self.board_in_play() is not None}

    # --- the crate camera -----------------------------------------------------------------------

    def use_crate_camera(self, device) -> None:
        """The crate camera (table/crate_device.py), for the crate games open now and later."""
        self.crate_camera = device

    def crates_in_play(self) -> TableSession | None:
        """The game the crate camera reads for, while it is open (None: it rests)."""
        session = self.sessions.get(self.crate_active) if self.crate_active else None
        return None if session is None or session.over or session.crate_watch is None else session

    def crate_route(self, reading, at: float | None = None) -> str | None:
        """Hand a crate camera's reading (crate_fields.CrateReading) to the game it reads for."""
        session = self.crates_in_play()
        return session.crate_watch.feed(reading, at) if session is not None else None

    def crate_status(self, game_id: str) -> dict | None:
        """The crate camera as one game's view shows it (see Watch.to_json), or None."""
        device = self.crate_camera
        if device is None:
            return None
        return {**device.status_for_view(), "feeding": self.crate_active == game_id and self.crates_in_play() is not None}

    # --- the landing camera ---------------------------------------------------------------------

    def use_landing_camera(self, device) -> None:
        """The landing camera (table/landing_device.py), for the games scored by landings."""
        self.landing_camera = device

    def landings_in_play(self) -> TableSession | None:
        """The game the landing camera reads for (None: it rests): the one created or moved in
        last, unless it waits for no landing and another open game does (the newest such): a
        landing is chance, which no player's move in that game would bring the camera back for."""
        def open_(s):
            return s is not None and not s.over and s.landing_watch is not None

        active = self.sessions.get(self.landing_active) if self.landing_active else None
        for session in [active, *reversed(list(self.sessions.values()))]:
            if open_(session) and session.landing_watch.expected(session.state) is not None:
                return session
        return active if open_(active) else None

    def landing_route(self, reading, at: float | None = None) -> str | None:
        """Hand a landing camera's reading (landing.LandingReading) to the game it reads for."""
        session = self.landings_in_play()
        return session.landing_watch.feed(reading, at) if session is not None else None

    def landing_status(self, game_id: str) -> dict | None:
        """The landing camera as one game's view shows it (see Watch.to_json), or None."""
        device = self.landing_camera
        if device is None:
            return ({"present": True, "simulated": False, "problem": None, "feeding": False}
                    if self._landing_camera_coming else None)
        reading = self.landings_in_play()   # (the camera rests while that game waits for no landing)
        feeding = (reading is not None and reading.id == game_id
                   and reading.landing_watch.expected(reading.state) is not None)
        return {**device.status_for_view(), "feeding": feeding}

    # --- the observation path -------------------------------------------------------------------

    def devices(self, camera: str | None = None, serial: str | None = None, profile: str | Path | None = None,
                looks=None, open_camera: Callable | None = None) -> Devices:
        """The camera and the sensor board, reporting to this table (not started)."""
        return Devices(self.route, camera=camera, serial=serial, profile=profile, store=self.store,
                       doubt=self.doubt, looks=looks, open_camera=open_camera, wanted=self.tower_in_play)

    def in_play(self) -> TableSession | None:
        """The game the devices report to, while it is open."""
        session = self.sessions.get(self.active) if self.active else None
        return None if session is None or session.over else session

    def tower_in_play(self) -> bool:
        """Whether the game in play throws drinks into the tower: otherwise (the lobby, a TOKYO
        METRO game, a finished game) the camera has nothing to read and rests."""
        session = self.in_play()
        return session is not None and session.game.uses_tower

    def doubt(self, obs: Observation) -> str | None:
        """Why the game in play would put this camera reading to a person (devices read the tray
        again first), or None."""
        session = self.in_play()
        return session.second_look(obs) if session is not None else None

    def route(self, obs: Observation) -> dict | None:
        """Hand a device's observation to the game in play, once: a sensor event the store holds
        already (a re-send after a lost acknowledgement) is not recorded again. Without a game in
        play it is only counted. Raising (a failed write) leaves the event unacknowledged."""
        board = board_event(obs)
        if board is not None and board.event_id is not None \
                and self.store.board_event(board.boot_id, board.event_id) is not None:
            log.info("sensor event %s/%s is stored already: not recorded again", board.boot_id, board.event_id)
            return {"result": "duplicate"}
        session = self.in_play()
        if session is None:
            log.info("no game in play: %s observation not recorded", obs.source)
            return None
        return session.observe(obs)

    # --- finding games ------------------------------------------------------------------------

    def get(self, game_id: str) -> TableSession:
        """The game's session: NoSuchGame, or BrokenGame (saying why) for one set aside."""
        if game_id in self.broken:
            raise self.broken[game_id]
        if game_id not in self.sessions:
            try:
                self._load(game_id)
            except KeyError:
                raise NoSuchGame(game_id) from None
        return self.sessions[game_id]

    def known(self, game_id: str) -> None:
        """NoSuchGame unless ``game_id`` names a stored game (broken or not): checked before a key
        is read, so that a stranger learns nothing more of a game than of no game."""
        if game_id not in self.sessions and game_id not in self.broken:
            try:
                self.store.game(game_id)
            except KeyError:
                raise NoSuchGame(game_id) from None

    def seats(self, game_id: str) -> int:
        """How many seats a stored game has (0 for one whose settings cannot be read)."""
        if game_id in self.sessions:
            return len(self.sessions[game_id].config["names"])
        try:
            names = self.store.game(game_id).config.get("names")
        except KeyError:
            return 0
        return len(names) if isinstance(names, list) else 0
