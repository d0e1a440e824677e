"""A seeded renderer of the TOKYO METRO board seen by the board camera.

The sheet is drawn once from the layout (``board_sheet.py``), laid on a table (wood, cloth,
laminate, stone) and photographed by a pinhole camera standing to one side and looking down at
the board's middle (tilted, rolled; the eval family adds barrel distortion). The lamp lights
table and sheet (fall-off for a lamp close by, the highlight of a glossy sheet); the pieces are
small solids (``board_solids.py``) projected through the same camera, so tall pieces lean away
from the camera's nadir, shaded face by face and casting shadows away from the lamp. A hand and
arm may reach over the board (with its shadow), a cup or a card may hide a marker, and a bump
turns and moves the board (sheet and markers) on the table. The frame gets vignetting, sensor
noise and (eval) JPEG.

``render`` returns the frame and its truth: the pieces, the homography from board mm to frame
pixels for the flat sheet (exact without distortion; for a distorted camera use
:meth:`BoardRenderer.board_to_frame`), each marker's corners in pixels and whether it can be
seen, whether a hand is over the board, and where each piece stands.

>>> from companion.board_layout import BoardLayout
>>> from companion.board_pieces import Pieces
>>> r = BoardRenderer(BoardLayout.default(), BoardLook.from_seed(1))
>>> frame, truth = r.render(Pieces(pyramids={"otemachi": "red"}), rng=np.random.default_rng(0))
>>> frame.shape, truth["hand"], sorted(truth["markers"])
((720, 1280, 3), False, ['20', '21', '22', '23'])
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..board_layout import BoardLayout
from ..board_pieces import Pieces
from . import board_solids as solids
from .board_hand import draw_stroke, hand_shapes
from .board_looks import BoardHand, BoardLook, Bump
from .board_sheet import draw_sheet, hex_bgr
from .lit_scene import _LIN, UP, LitScene, soften
from .looks import NOMINAL_SIZE_MM, NOMINAL_SRGB, linear_to_srgb_u8
HEIGHTS = {"meeple": 20.0, "pyramid": 15.0, "train": 8.0, "value": 3.0}   # mm: where a piece's top is
SHOWN_SHAPE = "tall_can"    # a drink known by its colour alone is drawn as this shape


@dataclass(frozen=True)
class Placed:
    """One piece where a hand put it: ``kind`` meeple, pyramid, train, value (or cup, card);
    ``key`` its colour or line letter (the station for a pyramid in ``spot``); (x, y) board mm
    with the placing's jitter; ``yaw`` degrees; ``spot`` the place it stands on (None: loose on
    the table); ``colour`` its sRGB."""

    kind: str
    key: str
    spot: str | None
    x: float
    y: float
    yaw: float
    colour: tuple[int, int, int]


class BoardRenderer(LitScene):
    """Frames of one board (``layout``) in one :class:`BoardLook`. The sheet, the table, the
    light on it and the camera are computed once; the sheet laid at a pose (a bump) is kept."""

    def __init__(self, layout: BoardLayout, look: BoardLook):
        self.layout, self.look = layout, look
        self.size = look.image_size
        self.sheet = draw_sheet(layout, look.paper_srgb, look.ink, look.seed)
        self.centre = (layout.sheet[0] / 2, layout.sheet[1] / 2)
        self._camera()
        self._table_and_light()
        self._posed: dict = {}
        self._colours = {c: tuple(v) for c, v in look.players.items()}
        self._colours.update({l.letter: hex_bgr(l.colour)[::-1] for l in layout.lines})
        # the drinks' colours share names with the players' (red, blue, purple): kept apart
        self._colours.update({f"drink:{c}": tuple(v) for c, v in (look.drinks or NOMINAL_SRGB).items()})

    # --- the camera ---------------------------------------------------------------------------

    def _camera(self) -> None:
        # the markers (and a bump's worth round them) fill the frame but its margin
        corners = np.concatenate(list(self.layout.marker_corners().values()))
        lo, hi = corners.min(0) - 50, corners.max(0) + 50     # a bump moves a corner up to ~46 mm
        extent = np.array([[lo[0], lo[1], 0], [hi[0], lo[1], 0], [hi[0], hi[1], 0], [lo[0], hi[1], 0]], np.float64)
        self._aim(extent, np.array([self.centre[0], self.centre[1], 0.0]))

    def board_matrix(self, bump: Bump | None) -> np.ndarray:
        """Board mm -> table mm (3x3): the board turned and moved by ``bump``."""
        if bump is None:
            return np.eye(3)
        a = math.radians(bump.angle)
        c, s = math.cos(a), math.sin(a)
        cx, cy = self.centre
        return np.array([[c, -s, cx - c * cx + s * cy + bump.dx], [s, c, cy - s * cx - c * cy + bump.dy], [0, 0, 1]])

    def board_to_table(self, pts: np.ndarray, bump: Bump | None) -> np.ndarray:
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        B = self.board_matrix(bump)
        return p @ B[:2, :2].T + B[:2, 2]

    def board_to_frame(self, pts: np.ndarray, bump: Bump | None = None, height: float = 0.0) -> np.ndarray:
        """Board mm (n, 2) (at ``height`` mm over the table) -> frame px, distortion included."""
        t = self.board_to_table(pts, bump)
        return self.pin_to_frame(self.project(np.column_stack([t, np.full(len(t), -height)])))

    def homography(self, bump: Bump | None = None) -> np.ndarray:
        """Board mm -> frame px for the flat sheet (the pinhole part: exact without distortion)."""
        shift = np.array([[1, 0, -self.pad[0]], [0, 1, -self.pad[1]], [0, 0, 1]], np.float64)
        H = shift @ self.H_table @ self.board_matrix(bump)
        return H / H[2, 2]

    # --- the table and the light on it --------------------------------------------------------

    def _table_and_light(self) -> None:
        """Per pinhole pixel (at a quarter of the resolution, then enlarged): the table's albedo,
        the lamp's direct light, the room's light and the sheet's highlight."""
        lk = self.look
        pw, ph = self.pin_size
        q = 4
        qw, qh = pw // q + 1, ph // q + 1
        ys, xs = np.mgrid[0:qh, 0:qw].astype(np.float64) * q
        Hinv = np.linalg.inv(self.H_table)
        den = Hinv[2, 0] * xs + Hinv[2, 1] * ys + Hinv[2, 2]
        tx = (Hinv[0, 0] * xs + Hinv[0, 1] * ys + Hinv[0, 2]) / den
        ty = (Hinv[1, 0] * xs + Hinv[1, 1] * ys + Hinv[1, 2]) / den
        direct, spec = self._light_at(tx, ty, UP, specular=lk.gloss > 0)
        big = lambda a: cv2.resize(a.astype(np.float32), (pw, ph), interpolation=cv2.INTER_LINEAR)  # noqa: E731
        self.direct = big(direct)
        self.spec = big(spec * lk.gloss) if lk.gloss > 0 else None
        # the camera's exposure: white paper at the board's middle a little under full scale
        d_mid, _ = self._light_at(np.array(self.centre[0]), np.array(self.centre[1]), UP)
        colour = lk.lamp_bgr()
        exposure = 0.82 / ((lk.lamp.ambient + float(d_mid)) * float(colour.max()))
        self.lamp = (colour * exposure).astype(np.float32)
        self.ambient = np.float32(lk.lamp.ambient)
        # the table's own look, from its texture at full resolution in table mm
        fx, fy = big(tx), big(ty)
        self.table = self._table_albedo(fx, fy)

    # --- the board at a pose ------------------------------------------------------------------

    def _posed_sheet(self, bump: Bump | None):
        """The sheet laid at ``bump`` in the pinhole picture: albedo (linear), paper mask, gloss mask."""
        key = None if bump is None else (round(bump.angle, 4), round(bump.dx, 3), round(bump.dy, 3))
        if key in self._posed:
            return self._posed[key]
        M = self.H_table @ self.board_matrix(bump) @ np.linalg.inv(self.sheet.board_to_px())
        img = cv2.warpPerspective(self.sheet.image, M, self.pin_size, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = img[..., 3:4].astype(np.float32) / 255.0
        albedo = _LIN[img[..., :3]] * alpha + self.table * (1 - alpha)
        gloss = None
        if self.spec is not None:
            gloss = cv2.warpPerspective(self.sheet.gloss, M, self.pin_size, flags=cv2.INTER_LINEAR)
            gloss = gloss.astype(np.float32) / 255.0
        if len(self._posed) > 1:           # the board as laid and the last bump: enough
            self._posed.pop(next(iter(self._posed)))
        self._posed[key] = (albedo, gloss)
        return albedo, gloss

    # --- pieces -------------------------------------------------------------------------------

    def place(self, pieces: Pieces, rng: np.random.Generator | None = None,
              keep: list[Placed] | tuple = ()) -> list[Placed]:
        """Where each piece of ``pieces`` stands, as a person put it there (1-2 mm and a few
        degrees off its spot). A piece in ``keep`` on the same spot stays exactly as it was."""
        rng = rng or np.random.default_rng(0)
        lay = self.layout
        kept = {(p.kind, p.key, p.spot): p for p in keep}
        out: list[Placed] = []

        def put(kind, key, spot, x, y, yaw, colour, turn=6.0):
            old = kept.get((kind, key, spot))
            if old is not None:
                out.append(old)
                return
            dx, dy = np.clip(rng.normal(0, 0.8, 2), -2.0, 2.0)
            yaw = float(yaw + rng.normal(0, turn))
            # no two pieces of a colour are quite alike (wood takes the dye unevenly)
            rgb = np.array(self._colours.get(colour, (128, 128, 128)), float) * rng.uniform(0.95, 1.05)
            rgb = tuple(int(v) for v in np.clip(rgb + rng.normal(0, 2.5, 3), 0, 255))
            out.append(Placed(kind, key, spot, float(x + dx), float(y + dy), yaw, rgb))

        for sid, colour in pieces.pyramids.items():
            if sid in lay.pyramids:
                put("pyramid", colour, f"station:{sid}", *lay.pyramids[sid], 0.0, colour)
        riders: dict[str, int] = {}
        for colour, place in pieces.meeples.items():
            kind, _, where = place.partition(":")
            if kind == "field" and int(where) < len(lay.meeples):
                put("meeple", colour, place, *lay.meeples[int(where)], 0.0, colour, turn=8.0)
            elif kind == "ride" and where in lay.lanes:
                k = riders.get(where, 0)
                riders[where] = k + 1
                places = lay.rider_places(where)
                put("meeple", colour, f"ride:{where}:{min(k, len(places) - 1)}", *places[min(k, len(places) - 1)],
                    0.0, colour, turn=8.0)
        for letter, k in pieces.trains.items():
            stops = lay.stops.get(letter, ())
            if 0 <= k < len(stops):
                a, b = stops[max(0, k - 1)], stops[min(len(stops) - 1, k + 1)]
                yaw = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) if a != b else 0.0
                put("train", letter, f"stop:{letter}:{k}", *stops[k], yaw, letter, turn=4.0)
        for sid, drink in pieces.drinks.items():
            if sid in lay.drinks:
                colour, _, shape = drink.partition("-")
                put("drink", f"{colour}-{shape or SHOWN_SHAPE}", f"drink:{sid}", *lay.drinks[sid],
                    float(rng.uniform(0, 360)), f"drink:{colour}", turn=0.0)
        for letter, v in pieces.values.items():
            if letter in lay.lanes:
                # the spot names the value: a marker moved along its lane is placed anew
                put("value", letter, f"value:{letter}:{v}", lay.lanes[letter], lay.lane_y(v), 0.0, letter)
        return out

    def loose(self, kind: str, colour: str, x: float, y: float, yaw: float = 0.0) -> Placed:
        """A piece lying loose at (x, y) board mm, on no spot (knocked off, or not yet placed)."""
        return Placed(kind, colour, None, float(x), float(y), float(yaw),
                      tuple(int(v) for v in self._colours.get(colour, (128, 128, 128))))

    def _solid(self, p: Placed, bump: Bump | None) -> solids.Solid:
        (x, y), = self.board_to_table([(p.x, p.y)], bump)
        yaw = p.yaw + (bump.angle if bump else 0.0)
        r = self.layout.radius
        k = self.look.sizes.get(p.kind, 1.0)           # this set's pieces against the nominal ones
        h = HEIGHTS.get(p.kind, 0.0) * k
        if p.kind == "meeple":
            return solids.meeple(x, y, yaw, r.get("meeple", 7.0) * k, h, 8.0 * k)
        if p.kind == "pyramid":
            return solids.pyramid(x, y, yaw, r.get("pyramid", 6.5) * k, h)
        if p.kind == "train":
            return solids.train(x, y, yaw, 12.0 * k, 8.0 * k, h)
        if p.kind == "value":
            return solids.disc(x, y, 4.5 * k, h)
        if p.kind == "drink":
            shape = p.key.partition("-")[2]
            length, width = NOMINAL_SIZE_MM[shape]
            return solids.drink(x, y, yaw, shape, length * self.look.drink_size, width * self.look.drink_size)
        if p.kind == "cup":
            return solids.cup(x, y)
        return solids.card(x, y, yaw)

    # --- a frame ------------------------------------------------------------------------------

    def render(self, pieces: Pieces, hand: BoardHand | bool | None = None, bump: Bump | bool | None = None,
               rng: np.random.Generator | None = None, hide_markers=(), placed: list[Placed] | None = None,
               extra: list[Placed] | tuple = (), noise: bool = True) -> tuple[np.ndarray, dict]:
        """One frame (BGR uint8) of ``pieces`` on the board, and its truth. ``hand``: True for a
        random one; ``bump``: True for a random one; ``hide_markers``: marker ids covered by a
        cup or a card; ``placed``: the pieces' places from :meth:`place` (drawn from ``rng``
        otherwise); ``extra``: loose pieces; ``noise``: False for the clean picture (and no
        exposure drift: otherwise each frame's exposure is a little off, as a camera's is)."""
        rng = rng if rng is not None else np.random.default_rng(0)
        if bump is True:
            bump = Bump.random(rng)
        if hand is True:
            hand = BoardHand.random(rng, self.layout.sheet)
        hidden = [int(m) for m in hide_markers if int(m) in self.layout.marker_ids]
        placed = self.place(pieces, rng) if placed is None else list(placed)
        covers = self.covers(hidden, rng)
        img, hand_mask = self._picture(placed + list(extra), covers, hand or None, bump or None)
        frame = self._camera_effects(img, rng if noise else None, self.exposure(rng) if noise else 1.0)
        return frame, self.truth(pieces, placed, hidden, hand_mask, hand or None, bump or None, extra)

    def clean(self, pieces: Pieces, placed: list[Placed], hand=None, bump=None, hide_markers=(), extra=(),
              covers: list[Placed] | None = None, gain: float = 1.0) -> tuple[np.ndarray, np.ndarray | None]:
        """The frame before the sensor's noise and compression (distortion, vignetting and the
        exposure ``gain`` in), and the hand's mask: what a still scene's every frame starts from."""
        covers = self.covers(hide_markers, np.random.default_rng(0)) if covers is None else covers
        img, hand_mask = self._picture(list(placed) + list(extra), covers, hand, bump)
        return self._optics(img) * (self._vignette() * np.float32(gain)), hand_mask

    def covers(self, hidden, rng) -> list[Placed]:
        """A cup or a card on each hidden marker."""
        out = []
        for mid in hidden:
            c = self.layout.marker_corners()[mid].mean(0)
            kind = "cup" if rng.random() < 0.5 else "card"
            col = tuple(int(v) for v in rng.uniform(30, 230, 3))
            # a card lies roughly square to the board (turned further it would leave a corner bare)
            yaw = float(rng.uniform(0, 360)) if kind == "cup" else float(rng.choice([0, 90]) + rng.uniform(-25, 25))
            out.append(Placed(kind, "", None, float(c[0] + rng.normal(0, 3)), float(c[1] + rng.normal(0, 3)), yaw, col))
        return out

    def _picture(self, things: list[Placed], covers: list[Placed], hand: BoardHand | None, bump: Bump | None):
        """The lit pinhole picture (sRGB u8) and the hand's mask (or None)."""
        albedo, gloss = self._posed_sheet(bump)
        pw, ph = self.pin_size
        made = [(p, self._solid(p, bump)) for p in things]
        cover_solids = [(p, self._solid(p, bump)) for p in covers]
        # shadows (on the lamp's direct light) and the dark under each piece's foot
        lp = self.look.lamp
        shadow = np.zeros((ph, pw), np.uint8)
        contact = np.zeros((ph, pw), np.uint8)
        for _, s in made + cover_solids:
            hull = cv2.convexHull(self._shadow_of(s.verts).astype(np.float32))
            pts = cv2.perspectiveTransform(hull.reshape(-1, 1, 2).astype(np.float64), self.H_table)
            cv2.fillPoly(shadow, [np.round(pts.reshape(-1, 2) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
            base = cv2.perspectiveTransform(s.base.reshape(-1, 1, 2).astype(np.float64), self.H_table)
            cv2.fillPoly(contact, [np.round(base.reshape(-1, 2) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        strokes = hand_shapes(hand, self.layout.sheet, bump and self.board_matrix(bump)) if hand else None
        if strokes:
            for pts3, width, _ in strokes:
                draw_stroke(shadow, self._shadow_of(pts3), width, 255, self.H_table)
        ppm = self.px_per_mm
        sd = soften(shadow, lp.shadow_blur * ppm) * lp.shadow_depth
        ao = soften(contact, 1.6 * ppm) * 0.35
        light = (self.ambient * (1 - ao) + self.direct * (1 - sd))[..., None] * self.lamp
        lin = albedo * light
        if gloss is not None:
            lin += (self.spec * (1 - sd) * gloss)[..., None] * self.lamp
        img = linear_to_srgb_u8(lin)
        # things standing on the board, far to near (the covers are on the table by the markers)
        for p, s in cover_solids:
            self._paint(img, s, p.colour, 0.3)
            if p.kind == "cup":        # the drink inside, seen over the rim
                rim = np.array([[p.x + 35 * math.cos(a), p.y + 35 * math.sin(a)] for a in np.linspace(0, 6.28, 24)])
                top = self.board_to_table(rim, bump)
                q = self.project(np.column_stack([top, np.full(len(top), -95.0)]))
                cv2.fillPoly(img, [np.round(q * 16).astype(np.int32)], (30, 45, 70), cv2.LINE_AA, 4)
        gloss_pc = self.look.piece_gloss
        depth = [float(np.linalg.norm(self.C - s.verts.mean(0))) for _, s in made]
        for i in np.argsort(depth)[::-1]:
            p, s = made[i]
            self._paint(img, s, p.colour, gloss_pc)
        hand_mask = self._paint_hand(img, strokes) if strokes else None
        return img, hand_mask

    # --- the truth ----------------------------------------------------------------------------

    def truth(self, pieces: Pieces, placed: list[Placed], hidden=(), hand_mask: np.ndarray | None = None,
              hand: BoardHand | None = None, bump: Bump | None = None, extra=()) -> dict:
        """What a frame of this scene shows, for tests and datasets (see the module's words);
        ``extra``: loose pieces (on no spot: a pyramid knocked off the board)."""
        w, h = self.size
        markers = {}
        for mid, c in self.layout.marker_corners().items():
            corners = self.board_to_frame(c, bump)
            inside = bool(np.all((corners >= 2) & (corners <= np.array([w - 3, h - 3]))))
            covered = False
            if hand_mask is not None:
                pin = self.project(np.column_stack([self.board_to_table(c, bump), np.zeros(4)]))
                m = np.zeros_like(hand_mask)
                cv2.fillPoly(m, [np.round(pin).astype(np.int32)], 255)
                covered = bool(np.count_nonzero(hand_mask[m > 0]) > 0.01 * max(1, np.count_nonzero(m)))
            markers[str(mid)] = {"corners": np.round(corners, 3).tolist(),
                                 "visible": inside and not covered and mid not in hidden}
        where = []
        if placed:
            at = self.board_to_table([(p.x, p.y) for p in placed], bump)
            feet = self.pin_to_frame(self.project(np.column_stack([at, np.zeros(len(at))])))
            up = [-_height(p, self.look) for p in placed]
            tops = self.pin_to_frame(self.project(np.column_stack([at, up])))
            for p, (u, v), (tu, tv) in zip(placed, feet, tops):
                where.append({"kind": p.kind, "key": p.key, "spot": p.spot, "mm": [round(p.x, 2), round(p.y, 2)],
                              "px": [round(float(u), 2), round(float(v), 2)],
                              "top_px": [round(float(tu), 2), round(float(tv), 2)]})
        hand_box = None
        if hand_mask is not None and hand_mask.any():
            ys, xs = np.nonzero(hand_mask[::2, ::2])
            box = self.pin_to_frame(np.array([[xs.min(), ys.min()], [xs.max(), ys.max()]], np.float64) * 2)
            hand_box = [int(np.clip(box[0, 0], 0, w)), int(np.clip(box[0, 1], 0, h)),
                        int(np.clip(box[1, 0], 0, w)), int(np.clip(box[1, 1], 0, h))]
        return {
            "pieces": pieces.model_dump(mode="json"),
            "homography": np.round(self.homography(bump), 10).tolist(),
            "distortion": self.look.distortion,
            "size": [w, h],
            "markers": markers,
            "hidden_markers": hidden,
            "hand": hand is not None,
            "hand_box": hand_box,
            "bump": None if bump is None else [bump.angle, bump.dx, bump.dy],
            "placed": where,
            "loose": [{"kind": p.kind, "key": p.key, "mm": [round(p.x, 2), round(p.y, 2)],
                       "px": [round(float(v), 2) for v in self.board_to_frame([(p.x, p.y)], bump)[0]]} for p in extra],
            "look": self.look.describe(),
        }


def _height(p: Placed, look: BoardLook) -> float:
    """How tall a placed piece stands (mm), its look's size in."""
    if p.kind == "drink":
        return NOMINAL_SIZE_MM[p.key.partition("-")[2]][0] * look.drink_size
    return HEIGHTS.get(p.kind, 0.0) * look.sizes.get(p.kind, 1.0)
