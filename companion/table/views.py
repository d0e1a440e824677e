"""What each viewer sees of a game and may do in it: a seat's view (with its secrets), the
table's (the host's tablet), a spectator's (the table's, with nothing to do). Mixed into
TableSession (uses its game, state, folded log and config)."""
from __future__ import annotations

from typing import Any

from ..rules.engine import CHANCE, ChanceDrop, Move

Viewer = int | None  # a seat, or None for the shared table view
FEED_IN_VIEW = 20    # the latest entries of the feed a view carries; the feed route pages through the rest


class Views:
    def compute_view(self, viewer: Viewer, acting: bool = True) -> dict:
        """What ``viewer`` (a seat, or None for the table) sees; without ``acting`` (a spectator)
        the same table view with nothing to do: no moves, no outcomes to enter, no undo. Computed
        anew: :meth:`view` shares one per (viewer, step)."""
        with self.lock:
            game, state = self.game, self.state
            moves, rules = [], {}
            for move in self.allowed_moves(viewer) if acting else ():
                # As this viewer may know it: a seat's own secrets count on its own phone alone.
                moves.append({"move": move.to_json(), **game.move_info(state, move, viewer).to_json()})
                rules.setdefault(move.kind, game.rule_of(move.kind))
            chance = self._chance_for(viewer) if acting else None
            if chance is not None:  # the outcome this viewer enters follows a rule too
                outcomes = chance.get("outcomes") or [{"move": {}}]
                kind = chance["move_kind"] if chance["kind"] == "drop" else outcomes[0]["move"].get("kind")
                if kind:
                    rules.setdefault(kind, game.rule_of(kind))
            return {
                "game_id": self.id, "game": self.name, "simulated": self.simulated, "viewer": viewer,
                "tower": game.uses_tower,
                "bots": self.bots, "state": game.view(state, viewer), "moves": moves,
                "rules": rules,  # the rule-book section each kind of move (or outcome) offered follows: teach mode
                "offers_estimates": acting and game.offers_estimates,
                "composites": self.allowed_composites(viewer) if acting else [],
                "chance": chance, "payouts": game.payouts(state),
                "question": self.folded.question if viewer is None else None,
                "events": self.events_for(viewer),
                "feed": self.feed_for(viewer),
                "seq": len(self.records), "can_undo": acting and viewer is None and not self.over
                and self.folded.last_personal_move() is not None,
                "beams": {"since_drop": list(self.folded.beams),
                          "last_drop": list(self.folded.last_drop_beams) if self.folded.last_drop_beams else None},
                "over": self.over, "ended": self.folded.ended,
                "rev": self.rev,   # news without a record (the board camera's): a live view shows it too
                **({"board_camera": self.board_watch.to_json()} if self.board_watch is not None else {}),
                **({"crate_camera": self.crate_watch.to_json()} if self.crate_watch is not None else {}),
                **({"landing_camera": self.landing_watch.to_json()} if self.landing_watch is not None else {}),
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

    def feed_for(self, viewer: Viewer, before: int | None = None, limit: int = FEED_IN_VIEW) -> list[dict]:
        """The feed of the night (table/feed.py) as this viewer may know it, newest first: the latest
        ``limit`` entries of the records before ``before`` (a record seq; None: up to now)."""
        with self.lock:
            return self.folded.feed.for_viewer(viewer, before, limit)

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
                "outcomes": [{"move": m.to_json()} for m in offered],
                "typed": [entry.to_json() for entry in spec.typed]}

    def _secret_for(self) -> int | None:
        return next((p.secret_for for p in self.game.pending(self.state) if p.actor == CHANCE), None)

    def _chance_enterer(self) -> Viewer:
        """Who enters the awaited chance outcome: the player who drew a secret card, or
        the table (for everything else, and for a computer player's card: it has no phone)."""
        secret_for = self._secret_for()
        return None if secret_for is None or secret_for in self.bots else secret_for
