"""One table's session: the live game, who may act, observations, the simulated table.

Every change goes the same way: check it against the engine on a copy, commit the
record to the store, then adopt the new state and tell the listeners. So an
illegal move or a failed write changes nothing, and a restart folds the same log
back to the same point.
"""
from __future__ import annotations

import json
import random
import secrets
import threading
from dataclasses import replace
from typing import Any, Callable, Mapping

from ..observation import Observation
from ..rules.engine import CHANCE, ChanceDrop, IllegalMove, Move
from ..rules.options import RULES_VERSION
from ..sim.players import bot_move, choose
from ..sim.tower import SimTower
from .corrections import taught_by
from .log import Folded, LogError, fold, to_jsonl
from .reconcile import reconcile, readings_of
from .store import CorruptRecord, EventStore

Viewer = int | None  # a seat, or None for the shared table view
CONFIRM_BELOW = 0.8  # observations less sure than this wait for a person


# Hints of the expected final yen (games that offer ``estimate``): playouts per request by
# default, and the most work one request may take, in playout "seat-rounds" (the game's
# ``estimate_cost``: seats x rounds left). 5,000 of them take about 1.1-1.6 s on the table's
# 2-core machine, busy or not (benchmarks/metro.py, docs/performance.md), so a request stays
# under ~2 s; the default 200 playouts fit the budget from round 1 on with up to 5 players.
ESTIMATE_PLAYOUTS = 200
ESTIMATE_BUDGET = 5000


class Forbidden(Exception):
    """The caller may not do this (a seat acting for another, the table making a secret move)."""


class NotOffered(Exception):
    """This game does not offer what was asked for (estimates for a game without them)."""


class BeamsDisagree(IllegalMove):
    """A drop entered with another number of drinks than the exit beam counted: taken only with
    the override (a person who looked says the beam is wrong)."""


class BrokenGame(Exception):
    """A stored game that cannot be resumed: record ``seq`` (1-based; 0: the game's own
    settings) cannot be read or applied, for ``reason``. The game is set aside, as it is: its
    log stays in the store, never rewritten, and can still be read (:func:`stored_log`)."""

    def __init__(self, game_id: str, game: str, seq: int, reason: str, unreadable: bool = False):
        what = (f"its settings cannot be used ({reason})" if not seq else
                f"its record {seq} {reason}" if unreadable else f"its record {seq} cannot be applied ({reason})")
        super().__init__(f"game {game_id} ({game}) is set aside: {what}. It is kept in the store as it is, "
                         f"never rewritten; read its log at /api/games/{game_id}/log.jsonl (`companion replay` "
                         f"names it as line {seq + 1}). The other games go on; start a new game to play on.")
        self.game_id, self.game, self.seq, self.reason = game_id, game, seq, reason

    def to_json(self) -> dict:
        return {"seq": self.seq, "reason": self.reason, "message": str(self)}


def public_config(config: Mapping[str, Any]) -> dict:
    """A game's settings without the players' link tokens: what may leave the server."""
    return {k: v for k, v in config.items() if k != "tokens"}


def stored_log(store: EventStore, game_id: str) -> str:
    """A game's log file (``.jsonl``) made of its records exactly as stored, readable or not,
    one per line: the header's line 1, record N's line N + 1."""
    info = store.game(game_id)
    header = json.dumps({"type": "game", "game": info.game, "config": public_config(info.config)}, sort_keys=True)
    lines = [body.decode("utf-8", "backslashreplace").replace("\r", "\\r").replace("\n", "\\n")
             for _seq, body in store.raw_records(game_id)]
    return "".join(line + "\n" for line in [header, *lines])


class TableSession:
    # The table's look book (table/looks.py), set by whoever holds the sessions: what the host's
    # corrections of the camera teach it; None: they teach nothing.
    teacher = None

    def __init__(self, store: EventStore, game_id: str):
        """Resume a stored game (unknown id: KeyError); BrokenGame when its log cannot be folded.
        Whatever is due without a person (computer seats, the simulated table's chance) is
        played at once, as after any move (:meth:`advance`)."""
        info = store.game(game_id)
        self.store, self.id, self.name, self.config = store, game_id, info.game, info.config
        if info.problem:
            raise BrokenGame(game_id, info.game, 0, info.problem)
        try:
            self.records = store.records(game_id)
            self.folded: Folded = fold(info.game, info.config, self.records)
        except CorruptRecord as exc:
            raise BrokenGame(game_id, info.game, exc.seq, exc.reason, unreadable=True) from None
        except LogError as exc:
            raise BrokenGame(game_id, info.game, exc.line, exc.reason) from None
        except Exception as exc:  # fold's setup: an unknown game, settings it cannot take
            reason = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            raise BrokenGame(game_id, info.game, 0, str(reason)) from None
        self.lock = threading.RLock()
        self.listeners: list[Callable[[], None]] = []
        # A person's move is committed before the computer players and the simulated table's
        # chance follow it, so a crash in between leaves a log that waits on nobody at the
        # table. Resuming does what was due: the same step as after a move, with the same seeds.
        with self.lock:
            self.advance()
        # Answers of estimates, kept for the current log length (the lock guards the dict only:
        # estimates are computed outside every lock, and the server bounds how many run).
        self.estimate_lock = threading.Lock()
        self.estimate_cache: dict[tuple, dict] = {}

    # --- creating -----------------------------------------------------------------------

    @classmethod
    def create(cls, store: EventStore, game: str, names: list[str], bots: list[int] = (),
               simulated: bool = True, seed: int | None = None,
               options: Mapping[str, Any] | None = None) -> "TableSession":
        # "rules": the rules version the game is played under (rules/options.py RULES_VERSION).
        config = {"names": list(names), "bots": sorted(set(bots)), "simulated": simulated, "rules": RULES_VERSION,
                  "seed": secrets.randbits(32) if seed is None else seed,
                  "options": dict(options or {})}
        fold(game, config, [])  # raises (KeyError / IllegalMove) before anything is stored
        return cls(store, store.create_game(game, config))  # resuming it plays what is due

    # --- reading ------------------------------------------------------------------------

    @property
    def game(self):
        return self.folded.game

    @property
    def state(self):
        return self.folded.state

    @property
    def bots(self) -> list[int]:
        return list(self.config.get("bots", []))

    @property
    def simulated(self) -> bool:
        return bool(self.config.get("simulated", True))

    @property
    def over(self) -> bool:
        """Whether nothing more happens in this game: it reached its end, or the host ended it."""
        return self.folded.ended or self.game.is_over(self.state)

    def view(self, viewer: Viewer, acting: bool = True) -> dict:
        """What ``viewer`` (a seat, or None for the table) sees; without ``acting`` (a spectator)
        the same table view with nothing to do: no moves, no outcomes to enter, no undo."""
        with self.lock:
            game, state = self.game, self.state
            moves = []
            for move in self.allowed_moves(viewer) if acting else ():
                info = game.move_info(state, move)
                moves.append({"move": move.to_json(), "cost": info.cost, "pays_up_to": info.pays_up_to})
            return {
                "game_id": self.id, "game": self.name, "simulated": self.simulated, "viewer": viewer,
                "bots": self.bots, "state": game.view(state, viewer), "moves": moves,
                "offers_estimates": acting and game.offers_estimates,
                "composites": self.allowed_composites(viewer) if acting else [],
                "chance": self._chance_for(viewer) if acting else None, "payouts": game.payouts(state),
                "question": self.folded.question if viewer is None else None,
                "events": self.events_for(viewer),
                "seq": len(self.records), "can_undo": acting and viewer is None and not self.over
                and self.folded.last_personal_move() is not None,
                "beams": {"since_drop": list(self.folded.beams),
                          "last_drop": list(self.folded.last_drop_beams) if self.folded.last_drop_beams else None},
                "over": self.over, "ended": self.folded.ended,
            }

    @property
    def has_people(self) -> bool:
        """Whether a person plays a seat (else the computer plays the whole game on its own)."""
        return len(self.bots) < len(self.config["names"])

    def held(self, move: Move) -> bool:
        """A computer player's move held for a person's tap on the table view (the game's
        held kinds, such as running the trains after everyone has seen the preview)."""
        return move.player in self.bots and self.has_people and move.kind in self.game.held_kinds

    @property
    def secret_moves(self) -> frozenset[str]:
        """Move kinds a player makes in secret (a bid): only on their own phone."""
        return self.game.secret_kinds

    def allowed_moves(self, viewer: Viewer) -> list[Move]:
        """Player moves this viewer may make now (the table may act for human seats, except for
        their secret moves, and make a computer player's held moves; a phone also what its seat
        may do at any time, such as getting off a train)."""
        moves = []
        waiting = self.game.pending(self.state)
        if viewer is not None and viewer not in self.bots and all(p.actor != viewer for p in waiting):
            moves.extend(self.game.legal_moves(self.state, viewer))
        for pending in waiting:
            seat = pending.actor
            if seat in self.bots and viewer is None:
                moves.extend(m for m in self.game.legal_moves(self.state, seat) if self.held(m))
                continue
            if seat == CHANCE or seat in self.bots or (viewer is not None and viewer != seat):
                continue
            moves.extend(m for m in self.game.legal_moves(self.state, seat)
                         if viewer is not None or m.kind not in self.secret_moves)
        return moves

    def allowed_composites(self, viewer: Viewer) -> list[dict]:
        """The list-taking moves this viewer may compose now (the game's ``composite_moves``
        for the seats ``allowed_moves`` covers), each with its ``player``."""
        found: list[dict] = []
        for pending in self.game.pending(self.state):
            seat = pending.actor
            if seat == CHANCE or seat in self.bots or (viewer is not None and viewer != seat):
                continue
            found.extend({**c, "player": seat} for c in self.game.composite_moves(self.state, seat)
                         if viewer is not None or c["kind"] not in self.secret_moves)
        return found

    def secret_owner(self, before: Any, move: Move) -> int | None:
        """The seat a move is a secret of (the game says: a sealed bid, a card drawn), or None."""
        return self.game.secret_owner(before, move)

    def events_for(self, viewer: Viewer) -> list[dict]:
        """The events of the latest record as this viewer may know them. Those of a secret move,
        made or taken back, reach its owner alone; the others learn only that a secret move
        was taken back (and whose), or nothing of one that was made (its seat's view shows
        that it was made)."""
        about = self.folded.about
        owner = self.secret_owner(*about) if about is not None else None
        if owner is None or owner == viewer:
            return [e.to_json() for e in self.folded.events]
        return [{"kind": "undone", "secret": True, "seat": owner}] if self.folded.undone else []

    def _chance_for(self, viewer: Viewer) -> dict | None:
        """The chance outcome this viewer is asked to supply, if any."""
        spec = self.game.chance(self.state)
        if spec is None:
            return None
        if self._chance_enterer() != viewer:
            return None
        secret_for = self._secret_for()
        if isinstance(spec, ChanceDrop):
            # `seen`: the drinks were thrown already (the tray was reported, or the entry beam
            # counted them): the table reads the tray again or enters it by hand, never throws again.
            return {"kind": "drop", "move_kind": spec.move_kind, "thrown": list(spec.thrown),
                    "inside": list(spec.inside), "secret": False,
                    "seen": self.folded.tray_seen or self.folded.beams[0] > 0}
        offered = spec.offer if spec.offer is not None else [m for m, _ in spec.outcomes]
        return {"kind": "choice", "secret": secret_for is not None,
                "outcomes": [{"move": m.to_json()} for m in offered]}

    def _secret_for(self) -> int | None:
        return next((p.secret_for for p in self.game.pending(self.state) if p.actor == CHANCE), None)

    def _chance_enterer(self) -> Viewer:
        """Who enters the awaited chance outcome: the player who drew a secret card, or
        the table (for everything else, and for a computer player's card: it has no phone)."""
        secret_for = self._secret_for()
        return None if secret_for is None or secret_for in self.bots else secret_for

    def estimates(self, viewer: Viewer, playouts: int = ESTIMATE_PLAYOUTS) -> dict:
        """The expected final yen of each move this viewer is offered now, from random playouts
        in which whatever this viewer cannot see is drawn again (the game's ``estimate``). The
        seed comes from the game id and the log length, so asking again gives the same answer
        (kept until the next move); the playouts are capped by ``ESTIMATE_BUDGET``."""
        return self.estimate_job(viewer, playouts)[1]()

    def estimate_job(self, viewer: Viewer, playouts: int = ESTIMATE_PLAYOUTS) -> tuple[tuple, Callable[[], dict]]:
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

    def log_jsonl(self) -> str:
        return to_jsonl(self.name, self.public_config(), self.records)

    def public_config(self) -> dict:
        return public_config(self.config)

    def notify(self) -> None:
        """Tell the listeners (the live views) that what they show may have changed."""
        for listener in list(self.listeners):
            listener()

    # --- changing -----------------------------------------------------------------------

    def submit(self, move: Move, viewer: Viewer, by: str | None = None, override_beams: bool = False) -> list[dict]:
        """A move from the table view or a player's phone; raises IllegalMove or Forbidden.
        A drop whose number of drinks the exit beam contradicts raises BeamsDisagree unless
        ``override_beams`` (the host looked and says the beam is wrong; logged with the move)."""
        with self.lock:
            self._authorize(move, viewer)
            record = {"type": "move", "move": move.to_json(),
                      "by": by or ("table" if viewer is None else f"seat {viewer}")}
            contradicted = self._beams_contradict(move)
            if contradicted is not None:
                if not override_beams:
                    raise BeamsDisagree(contradicted + ". Look into the tray and the chute; if the beam is wrong, "
                                        "confirm this drop with the override (`override_beams: true` with the move)")
                record["override"] = {"beams": list(self.folded.beams)}
            # The host's answer to the camera's question about a drop: what it read wrong, and
            # what the drink really was, teaches the camera (table/corrections.py), logged with it.
            taught = taught_by(self.folded.question, move.args.get("out")) \
                if viewer is None and move.player == CHANCE else []
            if taught:
                record["taught"] = taught
            events = self._commit(record)
            if taught and self.teacher is not None:
                self.teacher.teach(self.id, len(self.folded.history) - 1, len(self.records),
                                   list(move.args["out"]), taught)
            self.advance()
            return events

    def _beams_contradict(self, move: Move) -> str | None:
        """Why the exit beam contradicts this move (a drop with another number of drinks out than
        it counted for this drop), or None (not a drop, no beam counted, the numbers agree)."""
        if move.player != CHANCE or not isinstance(self.game.chance(self.state), ChanceDrop) \
                or not any(self.folded.beams):
            return None
        out = move.args.get("out", ())
        counted = self.folded.beams[1]
        n = len(out) if isinstance(out, (list, tuple)) else 0
        if n == counted:
            return None
        return f"the exit beam counted {counted} drink(s) coming out of this drop; this drop says {n}"

    def _authorize(self, move: Move, viewer: Viewer) -> None:
        if move.player == CHANCE:
            if self._chance_enterer() == viewer:
                return
            if self._secret_for() is not None and viewer is None:
                raise Forbidden("only the player who drew the card enters it, on their own phone")
            raise Forbidden("table outcomes (cards turned up, the tower) are entered on the table view")
        if move.player in self.bots:
            if viewer is None and self.held(move):
                return
            raise Forbidden(f"seat {move.player} is played by the computer")
        if viewer is None and move.kind in self.secret_moves:
            raise Forbidden(f"a {move.kind} is secret: make it on your own phone")
        if viewer is not None and viewer != move.player:
            raise Forbidden("a player's phone can only act for that player")

    def dismiss_question(self) -> None:
        with self.lock:
            self._commit({"type": "dismiss", "by": "table"})

    def end(self) -> None:
        """The host ends the game here (an "end" record): no move, undo or observation follows."""
        with self.lock:
            if self.over:
                raise IllegalMove("this game is over already")
            self._commit({"type": "end", "by": "table"})

    def undo(self) -> list[dict]:
        """Take back the latest move a person made; the events as the table may know them."""
        with self.lock:
            self._commit({"type": "undo", "by": "table"})
            if self.teacher is not None:  # a correction taken back teaches nothing
                self.teacher.take_back(self.id, len(self.folded.history))
            return self.events_for(None)

    def observe(self, obs: Observation) -> dict:
        """What an observation means now: a drop, a spill, beam counts, or a question for a person.
        A reading is reconciled with what the table knows (table/reconcile.py): the record of the
        observation keeps the reading as it came, the move holds the drinks the table takes."""
        with self.lock:
            if obs.kind == "beams":  # counted now, checked when the drop is read
                self._commit({"type": "observation", "observation": obs.model_dump(), "question": None})
                return {"result": "counted", "beams": list(self.folded.beams)}
            verdict = self._judge(obs)
            if verdict["result"] == "ignored":
                return verdict
            record = {"type": "observation", "observation": obs.model_dump(), "question": verdict.get("question")}
            if verdict.get("reconciled") is not None:
                record["reconciled"] = verdict["reconciled"]
            self._commit(record)
            if verdict["result"] == "question":
                return {"result": "question", "question": verdict["question"]}
            move = verdict["move"]
            events = self._commit({"type": "move", "move": move.to_json(), "by": obs.source})
            self.advance()
            return {"result": "applied", "move": move.to_json(), "events": events}

    def second_look(self, obs: Observation) -> str | None:
        """Why this camera reading would be put to a person (it disagrees with the beams, names a
        drink it cannot be, is unsure beyond what the table can settle), or None when it would be
        taken or ignored: the camera reads the tray again before anyone is asked."""
        with self.lock:
            if obs.kind != "tray" or self.over:
                return None
            verdict = self._judge(obs)
            return verdict["question"]["reason"] if verdict["result"] == "question" else None

    def _judge(self, obs: Observation) -> dict:
        """What ``observe`` would do with a tray observation now, changing nothing: ``result``
        ignored (with ``why``), applied (with ``move``; ``reconciled`` when the table's knowledge
        settled it otherwise than read) or question (with ``question``)."""
        spec = self.game.chance(self.state)
        appeared = sorted(obs.appeared)
        if obs.removed and not appeared:
            return {"result": "ignored", "why": "a hand took drinks out of the tray"}
        if isinstance(spec, ChanceDrop):  # an empty report after a throw: nothing came out
            kind, candidates = spec.move_kind, list(spec.candidates)
            counted = self.folded.beams[1] if any(self.folded.beams) else None
        elif appeared:
            kind, candidates, counted = "spill", self._stuck(), None
        else:
            return {"result": "ignored", "why": "no drink arrived in the tray"}
        move = Move(kind, CHANCE, {"out": appeared})
        account = reconcile(readings_of(appeared, obs.confidence, obs.detail), candidates, counted)
        contradiction = self._refusal(move)
        agrees = counted is None or counted == len(appeared)
        # A doubt of the reading as a whole, not of one drink (something larger than a drink
        # lay still in the tray; a reading again found nothing new): always a person's to settle.
        ask = obs.detail.get("ask") if isinstance(obs.detail.get("ask"), str) else None
        if contradiction is None and agrees and obs.confidence >= CONFIRM_BELOW and ask is None:
            return {"result": "applied", "move": move}
        likely = Move(kind, CHANCE, {"out": list(account.out)})
        likely_refused = self._refusal(likely) if account.out or isinstance(spec, ChanceDrop) else "no drink"
        # Only a machine's reading is settled by the table's knowledge; what a person says is
        # asked about, with the likely answer offered.
        if obs.source == "camera" and account.settled and likely_refused is None and ask is None:
            return {"result": "applied", "move": likely, "reconciled": account.to_json()}
        if contradiction is not None:
            reason = contradiction
        elif not agrees:
            reason = (f"the exit beam counted {counted} drink(s) coming out, the {obs.source} saw "
                      f"{len(appeared)}: check the tray")
        elif ask is not None:
            reason = ask[:300]
        else:
            reason = f"the {obs.source} is not sure of what it saw"
        question = {"kind": "contradiction" if contradiction is not None else "confirm",
                    "observation": obs.model_dump(), "reason": reason,
                    "likely": list(account.out), "reconciled": account.to_json()}
        if likely_refused is None:
            question["move"] = likely.to_json()
        elif contradiction is None:
            question["move"] = move.to_json()
        return {"result": "question", "question": question}

    def _refusal(self, move: Move) -> str | None:
        """The engine's reason to refuse ``move`` now, or None when it would be applied."""
        try:
            self.game.apply(self.state, move)
        except IllegalMove as exc:
            return exc.reason
        return None

    def _stuck(self) -> list[str] | None:
        """The drinks stuck inside the tower now, where the game has a tower (None: not known)."""
        inside = getattr(getattr(self.state, "tower", None), "inside", None)
        return sorted(inside) if inside is not None else None

    def throw(self) -> dict:
        """Simulated table only: throw what is due into the simulated tower and report it."""
        with self.lock:
            return self.observe(self.sim_drop()[1])

    def sim_drop(self) -> tuple[list[str], Observation]:
        """Simulated table only: what is thrown now, and what the simulated tower lets out."""
        with self.lock:
            if not self.simulated:
                raise Forbidden("this table has a real tower: throw the drinks, the camera or a tap reports them")
            spec = self.game.chance(self.state)
            if not isinstance(spec, ChanceDrop):
                raise IllegalMove("nothing is waiting to be thrown into the tower now")
            return list(spec.thrown), self._sim_tower().drop(list(spec.thrown), list(spec.inside))

    def _sim_tower(self) -> SimTower:
        opts = self.config.get("sim_tower", {})
        return SimTower(seed=f"{self.config['seed']}:{len(self.records)}", **opts)

    def advance(self) -> None:
        """Let the simulated table and the computer players take their turns."""
        for _ in range(10_000):  # a bound: a game never needs this many automatic moves
            move = self._automatic_move()
            if move is None:
                return
            if isinstance(move, Observation):
                self.observe(move)
                continue
            self._commit({"type": "move", "move": move.to_json(), "by": "sim" if move.player == CHANCE else "bot"})

    def _automatic_move(self) -> Move | Observation | None:
        if self.over:
            return None
        seed = f"{self.config['seed']}:{len(self.records)}"
        for pending in self.game.pending(self.state):
            if pending.actor in self.bots:
                moves = self.game.legal_moves(self.state, pending.actor)
                if any(self.held(m) for m in moves):  # its move waits for a tap on the table view
                    continue
                return bot_move(self.game, self.state, moves, seed)
            if pending.actor == CHANCE and self.simulated:
                spec = self.game.chance(self.state)
                if isinstance(spec, ChanceDrop):
                    # People throw the drinks themselves; a table of computers throws at once.
                    humans = set(range(len(self.config["names"]))) - set(self.bots)
                    return self._sim_tower().drop(list(spec.thrown), list(spec.inside)) if not humans else None
                return choose([m for m, _ in spec.outcomes], seed)
        return None

    def _commit(self, record: dict) -> list[dict]:
        """Check on the fold, write to the store, then adopt. Raises before writing."""
        trial = replace(self.folded, history=list(self.folded.history))
        trial.step(record)
        self.store.append(self.id, record)
        self.records.append(record)
        self.folded = trial
        if trial.ended or self.game.is_over(trial.state):
            self.store.set_status(self.id, "finished")
        self.notify()
        return [e.to_json() for e in trial.events]
