"""The simulated board camera: the TOKYO METRO board seen from above, frame by frame.

``set(pieces)`` has a hand pass over the board for a few frames and then shows the new pieces;
``change(changes)`` does the same for a few pieces told one by one; ``knock()`` bumps the board
and sends one to three pieces astray (a meeple onto a neighbouring field, a pyramid off the
board, a train a stop on); ``rest_hand()`` leaves a hand over the board until ``lift_hand()``;
``hide_markers(ids)`` puts a cup or a card on markers. ``read()`` gives the next frame. While nothing changes the still
scene is not drawn again: a few noisy copies of it are made once and shown in turn, so a
camera read at 4-10 frames a second costs next to nothing. Seeded: the same calls give the same
frames.

>>> cam = SimBoardCamera(seed=1)
>>> cam.change([{"piece": "pyramid", "key": "otemachi", "to": "red"}])
>>> frames = [cam.read() for _ in range(6)]
>>> cam.pieces.pyramids, cam.status()["hand"]
({'otemachi': 'red'}, False)
"""
from __future__ import annotations

import numpy as np

from ..board_layout import BoardLayout
from ..board_pieces import PLAYER_COLOURS, Pieces
from ..vision.sources import FrameSource, open_source
from .board_looks import BoardHand, BoardLook, Bump
from .board_render import BoardRenderer, Placed
from .still_camera import StillSceneCamera, locked

SIM_BOARD_SEED = 2029          # the look of the simulated board
PIECES = ("pyramid", "meeple", "train", "value", "drink")


class SimBoardCamera(StillSceneCamera):
    def __init__(self, seed: int = 0, look_seed: int = SIM_BOARD_SEED, family: str = "dev",
                 layout: BoardLayout | None = None, pieces: Pieces | None = None):
        super().__init__(f"sim-board:{seed}")
        self.layout = layout or BoardLayout.default()
        self.look = BoardLook.from_seed(look_seed, family)
        self.renderer = BoardRenderer(self.layout, self.look)
        self.rng = np.random.default_rng([seed, 9101])
        # each frame's exposure from a stream of its own: where pieces stand and where hands reach
        # depend on the seed and the changes alone, not on how many frames were read meanwhile
        self.frame_rng = np.random.default_rng([seed, 9101, 1])
        self.pieces = pieces or Pieces()
        self.placed: list[Placed] = self.renderer.place(self.pieces, self.rng)
        self.loose: list[Placed] = []          # pieces knocked off the board, lying on the table
        self.bump: Bump | None = None
        self.hidden: tuple[int, ...] = ()
        self._covers: list[Placed] = []
        w, h = self.look.image_size
        self._granted = {"width": w, "height": h, "simulated": True}
        self._set("ok")

    # --- what stands on the board -------------------------------------------------------------

    @locked
    def set(self, pieces: Pieces, hand_frames: int = 4) -> None:
        """The board now holds ``pieces``: a hand passes over it for ``hand_frames`` frames
        (reaching to the first piece that changed), then the new pieces show."""
        before = list(self.placed)
        after = self.renderer.place(pieces, self.rng, keep=self.placed)
        moved = [p for p in after if p not in before] + [p for p in before if p not in after]
        self.pieces, self.placed = pieces, after
        self._changed()
        n = max(0, min(int(hand_frames), 60))
        if not n or not moved:
            return
        target = moved[0]
        hand = BoardHand.random(self.rng, self.layout.sheet)
        for i in range(n):
            phase = i / max(1, n - 1)
            away = abs(2 * phase - 1) * 140.0          # reaching in, then drawing back
            ex, ey = {"bottom": (0, 1), "top": (0, -1), "left": (-1, 0), "right": (1, 0)}[hand.edge]
            frame_hand = BoardHand(hand.edge, target.x + ex * (away + 25), target.y + ey * (away + 25),
                                   hand.height, hand.skin, hand.sleeve, hand.sleeve_share, hand.spread)
            self.script.append((before if i < n / 2 else after, frame_hand))

    @locked
    def change(self, changes: list[dict], hand_frames: int = 4) -> None:
        """Change pieces one by one: each ``{"piece": "pyramid"|"meeple"|"train"|"value", "key":
        station id | colour | line letter, "to": colour | place | stop index | yen | None}``."""
        self.set(apply_changes(self.pieces, changes, self.layout), hand_frames)

    @locked
    def knock(self, seed: int | None = None) -> list[dict]:
        """Someone knocks the board: it turns and moves a little on the table and one to three
        pieces end up elsewhere. Returns what changed: ``{"piece", "key", "from", "to"}`` (a
        pyramid off the board has ``to`` None)."""
        rng = np.random.default_rng(seed) if seed is not None else self.rng
        b = Bump.random(rng, angle=2.0, shift=12.0)
        old = self.bump or Bump()
        self.bump = Bump(float(np.clip(old.angle + b.angle, -3, 3)), float(np.clip(old.dx + b.dx, -20, 20)),
                         float(np.clip(old.dy + b.dy, -20, 20)))
        options = _astray(self.pieces, self.layout, rng)
        rng.shuffle(options)
        picked, keys, count = [], set(), int(rng.integers(1, 4))
        for c in options:
            if (c["piece"], c["key"]) not in keys and len(picked) < count:
                picked.append(c)
                keys.add((c["piece"], c["key"]))
        pieces = apply_changes(self.pieces, picked, self.layout)
        after = self.renderer.place(pieces, rng, keep=self.placed)
        for c in picked:
            if c["piece"] == "pyramid":              # it lies on the table beside the sheet
                x = float(rng.uniform(0.1, 0.7) * self.layout.sheet[0])
                y = self.layout.sheet[1] + float(rng.uniform(12, 22))
                self.loose.append(self.renderer.loose("pyramid", c["from"], x, y, float(rng.uniform(0, 90))))
        self.pieces, self.placed = pieces, after
        self._changed()
        return picked

    @locked
    def hide_markers(self, marker_ids=()) -> None:
        """Cover these markers (a cup or a card on each); () uncovers them all."""
        self.hidden = tuple(int(m) for m in marker_ids if int(m) in self.layout.marker_ids)
        self._covers = self.renderer.covers(self.hidden, np.random.default_rng([len(self.hidden), 9102]))
        self._changed()

    @locked
    def rest_hand(self, at: tuple[float, float] | None = None) -> None:
        """A hand stays over the board at ``at`` (board mm; None: somewhere on it) until
        :meth:`lift_hand`: a player thinking with a hand on the board, or one that never leaves."""
        hand = BoardHand.random(self.rng, self.layout.sheet)
        if at is not None:
            hand = BoardHand(hand.edge, float(at[0]), float(at[1]), hand.height, hand.skin, hand.sleeve,
                             hand.sleeve_share, hand.spread)
        self.resting_hand = hand
        self._changed()

    # --- frames -------------------------------------------------------------------------------

    def _script_frame(self, entry) -> np.ndarray:
        placed, hand = entry
        img, _ = self.renderer.clean(self.pieces, placed, hand, self.bump, extra=self.loose, covers=self._covers,
                                     gain=self.renderer.exposure(self.frame_rng) * 0.97)   # the hand darkens the view
        return img

    def _still_frame(self) -> np.ndarray:
        img, _ = self.renderer.clean(self.pieces, self.placed, self.resting_hand, self.bump, extra=self.loose,
                                     covers=self._covers, gain=self.renderer.exposure(self.frame_rng))
        return img

    @locked
    def empty_frame(self) -> np.ndarray:
        """The board with nothing on it, no hand, nothing covered, in the same look and pose:
        the reader's reference."""
        img, _ = self.renderer.clean(Pieces(), [], None, self.bump, covers=[])
        return self.renderer.sensor(img, np.random.default_rng([self.look.seed, 9103]))

    @locked
    def truth(self) -> dict:
        """The still scene's truth (as :meth:`BoardRenderer.render` gives it)."""
        hand_mask = None
        if self.resting_hand is not None:
            _, hand_mask = self.renderer.clean(self.pieces, self.placed, self.resting_hand, self.bump, covers=[])
        return self.renderer.truth(self.pieces, self.placed, self.hidden, hand_mask, self.resting_hand, self.bump,
                                   self.loose)

    @locked
    def status(self) -> dict:
        s = super().status()
        s["pieces"] = self.pieces.model_dump(mode="json")
        s["hand"] = bool(self.script) or self.resting_hand is not None
        s["bump"] = None if self.bump is None else [round(self.bump.angle, 2), round(self.bump.dx, 1),
                                                     round(self.bump.dy, 1)]
        s["hidden_markers"] = list(self.hidden)
        s["loose"] = len(self.loose)
        s["look"] = self.look.describe()
        return s


def apply_changes(pieces: Pieces, changes: list[dict], layout: BoardLayout) -> Pieces:
    """``pieces`` with ``changes`` made (see :meth:`SimBoardCamera.change`); a change that names
    no piece or place of this board raises ValueError saying which."""
    data = pieces.model_dump()
    table = {"pyramid": "pyramids", "meeple": "meeples", "train": "trains", "value": "values", "drink": "drinks"}
    for c in changes:
        kind, key, to = c.get("piece"), c.get("key"), c.get("to")
        if kind not in table:
            raise ValueError(f"a change's piece is one of {', '.join(PIECES)}, not {kind!r}")
        if kind in ("pyramid", "drink") and key not in layout.pyramids:
            raise ValueError(f"no station {key!r} on this board")
        if kind == "meeple" and key not in PLAYER_COLOURS:
            raise ValueError(f"a meeple's key is a player colour ({', '.join(PLAYER_COLOURS)}), not {key!r}")
        if kind in ("train", "value") and key not in layout.lanes:
            raise ValueError(f"no line {key!r} on this board")
        if kind == "train" and to is not None and not 0 <= int(to) < len(layout.stops[key]):
            raise ValueError(f"line {key} has stops 0..{len(layout.stops[key]) - 1}, not {to!r}")
        if to is None:
            data[table[kind]].pop(key, None)
        else:
            data[table[kind]][key] = to
    return Pieces.model_validate(data)


def _astray(pieces: Pieces, layout: BoardLayout, rng) -> list[dict]:
    """What a knock can do to each piece: a meeple onto a free neighbouring field, a pyramid
    off the board, a train one stop on."""
    out = []
    taken = set(pieces.meeples.values())
    for colour, place in pieces.meeples.items():
        if place.startswith("field:"):
            f = int(place.split(":")[1])
            col, row = f % layout.cols, f // layout.cols
            near = [(col + dc, row + dr) for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            near = [f"field:{r * layout.cols + c}" for c, r in near if 0 <= c < layout.cols and 0 <= r < layout.rows]
            near = [p for p in near if p not in taken]
            if near:
                to = near[int(rng.integers(0, len(near)))]
                out.append({"piece": "meeple", "key": colour, "from": place, "to": to})
    for sid, colour in pieces.pyramids.items():
        out.append({"piece": "pyramid", "key": sid, "from": colour, "to": None})
    for letter, k in pieces.trains.items():
        n = len(layout.stops.get(letter, ()))
        if n > 1:
            out.append({"piece": "train", "key": letter, "from": k, "to": k + 1 if k + 1 < n else k - 1})
    return out


def open_board_camera(spec: str, **options) -> FrameSource:
    """A board camera as ``companion serve --board-camera SPEC`` names it: ``sim`` or ``sim:SEED``
    (this simulated board), else what ``vision.sources.open_source`` opens."""
    spec = str(spec).strip()
    if spec == "sim" or spec.startswith("sim:"):
        seed = int(spec.split(":", 1)[1]) if ":" in spec else options.pop("seed", 0)
        return SimBoardCamera(seed=seed, **options)
    return open_source(spec, **options)

