"""What an observation means for the game in play: beam counts, a drop or a spill taken as read
(or as the table's knowledge settles it), or a question for a person. Mixed into TableSession
(uses its game, state, folded log, lock, store and commit).

A reading that is taken is ONE record (the observation, carrying the move it became), written
once and applied once: the engine's answer to the move, tried while judging the reading, is the
one committed. A sensor event the store holds already (its board's boot id and event id, in the
store's index) is not recorded again.
"""
from __future__ import annotations

from typing import Any

from ..drinks import is_drink
from ..observation import Observation
from ..rules.engine import CHANCE, ChanceDrop, IllegalMove, Move
from .reconcile import reconcile, readings_of
from .store import BoardEvent, Duplicate

CONFIRM_BELOW = 0.8  # observations less sure than this wait for a person


def board_event(obs: Observation) -> BoardEvent | None:
    """What only the sensor board knows of this observation (None: not the board's)."""
    detail = obs.detail or {}
    boot = detail.get("boot_id")
    if obs.source != "sensors" or obs.kind != "beams" or not isinstance(boot, str):
        return None
    event = detail.get("event_id")
    dropped = detail.get("dropped") if detail.get("lost_details") else None
    dropped = (int(dropped.get("in", 0)), int(dropped.get("out", 0))) if isinstance(dropped, dict) else (0, 0)
    return BoardEvent(boot, event if isinstance(event, int) and not isinstance(event, bool) else None, dropped)


class Observing:
    def observe(self, obs: Observation) -> dict:
        """What an observation means now: a drop, a spill, beam counts, or a question for a person.
        A reading is reconciled with what the table knows (table/reconcile.py): the record keeps
        the reading as it came and, when it was taken, the move with the drinks the table takes."""
        with self.lock:
            if obs.kind == "beams":  # counted now, checked when the drop is read
                board = board_event(obs)
                if board is not None and board.event_id is not None \
                        and self.store.board_event(board.boot_id, board.event_id) is not None:
                    return {"result": "duplicate", "beams": list(self.folded.beams)}
                try:
                    self._commit({"type": "observation", "observation": obs.model_dump(), "question": None},
                                 board=board)
                except Duplicate:
                    return {"result": "duplicate", "beams": list(self.folded.beams)}
                return {"result": "counted", "beams": list(self.folded.beams)}
            verdict = self._judge(obs)
            if verdict["result"] == "ignored":
                return verdict
            record = {"type": "observation", "observation": obs.model_dump(), "question": verdict.get("question")}
            if verdict.get("reconciled") is not None:
                record["reconciled"] = verdict["reconciled"]
            if verdict["result"] == "question":
                self._commit(record)
                return {"result": "question", "question": verdict["question"]}
            move = verdict["move"]
            record.update(move=move.to_json(), by=obs.source)
            events = self._commit(record, applied=verdict["applied"])
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
        ignored (with ``why``), applied (with ``move``, and ``applied``: the engine's answer to it;
        ``reconciled`` when the table's knowledge settled it otherwise than read) or question
        (with ``question``)."""
        spec = self.game.chance(self.state)
        appeared = sorted(obs.appeared)
        if obs.removed and not appeared:
            return {"result": "ignored", "why": "a hand took drinks out of the tray"}
        if isinstance(spec, ChanceDrop) and obs.source == "camera" \
                and not all(is_drink(x) for x in spec.candidates):
            # An add-on's item (a detergent bottle) may come out: the camera knows drinks alone, and
            # its "nothing new" would say the bottle stuck. A tap or the simulated table says it.
            return {"result": "ignored", "why": "the camera reads drinks only: tap what came out of the tower"}
        if isinstance(spec, ChanceDrop):  # an empty report after a throw: nothing came out
            kind, candidates = spec.move_kind, list(spec.candidates)
            counted = self.folded.beams[1] if any(self.folded.beams) else None
        elif appeared:
            kind, candidates, counted = "spill", self._stuck(), None
        else:
            return {"result": "ignored", "why": "no drink arrived in the tray"}
        move = Move(kind, CHANCE, {"out": appeared})
        account = reconcile(readings_of(appeared, obs.confidence, obs.detail), candidates, counted)
        contradiction, applied = self._try(move)
        agrees = counted is None or counted == len(appeared)
        # A doubt of the reading as a whole, not of one drink (something larger than a drink
        # lay still in the tray; a reading again found nothing new): always a person's to settle.
        ask = obs.detail.get("ask") if isinstance(obs.detail.get("ask"), str) else None
        if contradiction is None and agrees and obs.confidence >= CONFIRM_BELOW and ask is None:
            return {"result": "applied", "move": move, "applied": applied}
        likely = Move(kind, CHANCE, {"out": list(account.out)})
        likely_refused, likely_applied = self._try(likely) if account.out or isinstance(spec, ChanceDrop) \
            else ("no drink", None)
        # Only a machine's reading is settled by the table's knowledge; what a person says is
        # asked about, with the likely answer offered.
        if obs.source == "camera" and account.settled and likely_refused is None and ask is None:
            return {"result": "applied", "move": likely, "applied": likely_applied, "reconciled": account.to_json()}
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

    def _try(self, move: Move) -> tuple[str | None, tuple[Move, Any, list] | None]:
        """The engine's reason to refuse ``move`` now (None when it would be applied), and its
        answer (move, state, events) when it takes it: what the commit applies, not asked twice."""
        try:
            state, events = self.game.apply(self.state, move)
        except IllegalMove as exc:
            return exc.reason, None
        return None, (move, state, events)

    def _refusal(self, move: Move) -> str | None:
        """The engine's reason to refuse ``move`` now, or None when it would be applied."""
        return self._try(move)[0]

    def _stuck(self) -> list[str] | None:
        """The drinks stuck inside the tower now, where the game has a tower (None: not known)."""
        inside = getattr(getattr(self.state, "tower", None), "inside", None)
        return sorted(inside) if inside is not None else None
