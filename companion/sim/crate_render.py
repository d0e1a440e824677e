"""A seeded renderer of the yellow crates with drinks standing in them, seen by the crate camera.

The crates (``crate_solids.py``) stand together on the table as one grid; a pose (x mm, y mm,
yaw degrees) puts the middle of the grid's outline at (x, y) on the table, measured from the
point the camera aims at, turned by yaw. The camera (``lit_scene.py``, shared with the board
camera) stands to one side looking down at that point, tilted from the vertical; the look says
how far. The drinks are the board camera's solids (``board_solids.py``) standing upright on the
slots' floors, a little off the middle and turned at random. Everything standing (wall pieces,
drinks) is painted far to near from the camera's foot point, so nearer things hide farther ones
as in a real view; each lamp casts their shadows onto the table and the slots' floors; a hand
and arm may reach over the crates (``board_hand.py``).

``render`` returns the frame (BGR uint8) and its truth: ``fields`` (``CrateLayout.fields()``),
``rim_to_frame`` (3x3: grid mm on the rim plane -> frame px; field (x, y)'s middle is at
((x + 0.5) * pitch, (y + 0.5) * pitch)), ``table_to_frame`` (the same for the table under the
grid), ``floor_to_frame`` (the slots' floor), ``camera`` (its centre in grid mm: x, y, height
over the table), ``pitch_mm``, ``rim_height_mm``, ``floor_mm``, ``hand``, ``centres`` (each field's
middle on the rim plane, frame px) and ``drinks`` (each drink: its field, id, foot and top in px).
The homographies are exact without lens distortion; :meth:`CrateRenderer.grid_to_frame` maps
with it.

>>> from companion.crate_fields import CrateLayout
>>> r = CrateRenderer(CrateLook.from_seed(1))
>>> layout = CrateLayout(crates=((0, 0, 0), (2, 0, 1)), drinks={(0, 0): "red-tall_can"})
>>> frame, truth = r.render(layout, np.random.default_rng(0))
>>> frame.shape, truth["fields"][(0, 0)], truth["fields"][(1, 0)], len(truth["centres"])
((720, 1280, 3), 'red-tall_can', 'empty', 12)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..crate_fields import EMPTY, CrateLayout, crate_fields
from . import board_solids as solids
from .board_hand import draw_stroke, hand_shapes
from .board_looks import BoardHand
from .crate_looks import CrateLook
from .crate_solids import crate_parts, slot_room
from .lit_scene import _LIN, UP, LitScene, soften
from .looks import NOMINAL_SIZE_MM, linear_to_srgb_u8

Pose = tuple[float, float, float]


@dataclass(frozen=True)
class Standing:
    """One drink in a slot: its field, drink id, where it stands (grid mm, its middle), its yaw
    and its colour (sRGB, this drink's own)."""

    field: tuple[int, int]
    drink: str
    x: float
    y: float
    yaw: float
    colour: tuple[int, int, int]


@dataclass(frozen=True)
class CrateScene:
    """What one still view shows: the layout, the grid's pose and each drink as it stands."""

    layout: CrateLayout
    pose: Pose
    standing: tuple[Standing, ...]


class CrateRenderer(LitScene):
    """Frames of crates in one :class:`CrateLook`. The camera, the table and the lamps' light on
    it are computed once; a scene's crates and drinks are drawn per frame."""

    def __init__(self, look: CrateLook):
        self.look, self.size, self.centre = look, look.image_size, (0.0, 0.0)
        ring = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        extent = np.column_stack([look.reach_mm * np.cos(ring), look.reach_mm * np.sin(ring), np.zeros(24)])
        self._aim(extent, np.zeros(3))
        self._table_and_lamps()

    # --- the table and the lamps ------------------------------------------------------------

    def _table_and_lamps(self) -> None:
        lk = self.look
        pw, ph = self.pin_size
        q = 4
        ys, xs = np.mgrid[0:ph // q + 1, 0:pw // q + 1].astype(np.float64) * q
        Hinv = np.linalg.inv(self.H_table)
        den = Hinv[2, 0] * xs + Hinv[2, 1] * ys + Hinv[2, 2]
        tx = (Hinv[0, 0] * xs + Hinv[0, 1] * ys + Hinv[0, 2]) / den
        ty = (Hinv[1, 0] * xs + Hinv[1, 1] * ys + Hinv[1, 2]) / den
        big = lambda a: cv2.resize(a.astype(np.float32), (pw, ph), interpolation=cv2.INTER_LINEAR)  # noqa: E731
        self.lamps = lk.lamps()
        self.direct, self.spec = [], []
        mid = np.zeros(3)
        for lamp in self.lamps:
            d, s = self._light_at(tx, ty, UP, specular=lk.gloss > 0, lamp=lamp)
            self.direct.append(big(d))
            self.spec.append(big(s * lk.gloss) if lk.gloss > 0 else None)
            mid += float(self._light_at(np.array(0.0), np.array(0.0), UP, lamp=lamp)[0]) * lk.lamp_bgr(lamp)
        # the camera's exposure: white at the aim point a little under full scale
        self.ambient = np.float32(lk.lamp.ambient)
        mid += float(self.ambient) * lk.lamp_bgr(lk.lamp)
        exposure = 0.82 / float(mid.max())
        self.colours = [(lk.lamp_bgr(lamp) * exposure).astype(np.float32) for lamp in self.lamps]
        self.lamp = self.colours[0]
        self.table = self._table_albedo(big(tx), big(ty))

    def _shade(self, albedo_lin, normals, at, gloss):
        """Faces' linear colours under every lamp of the look (each its own colour)."""
        normals, at = np.atleast_2d(normals), np.atleast_2d(at)
        sky = self.ambient * (0.75 + 0.25 * np.clip(-normals[:, 2], 0, None))
        out = albedo_lin * sky[:, None] * self.lamp
        for lamp, colour in zip(self.lamps, self.colours):
            direct, spec = self._light_at(at[:, 0], at[:, 1], normals, at[:, 2], specular=gloss > 0,
                                          shininess=30.0, lamp=lamp)
            out = out + albedo_lin * direct[:, None] * colour + gloss * spec[:, None] * colour * 0.2
        return out

    # --- where things are -------------------------------------------------------------------

    def grid_matrix(self, layout: CrateLayout, pose: Pose) -> np.ndarray:
        """Grid mm -> table mm (3x3) for ``layout`` at ``pose``."""
        w, h = self.grid_size(layout)
        a = math.radians(pose[2])
        c, s = math.cos(a), math.sin(a)
        R = np.array([[c, -s], [s, c]])
        t = np.array(pose[:2]) - R @ np.array([w / 2, h / 2])
        return np.array([[c, -s, t[0]], [s, c, t[1]], [0, 0, 1.0]])

    def grid_size(self, layout: CrateLayout) -> tuple[float, float]:
        feet = layout.footprints()
        if not feet:
            return 0.0, 0.0
        p = self.look.pitch_mm
        return max(f[2] for f in feet) * p, max(f[3] for f in feet) * p

    def plane(self, height: float) -> np.ndarray:
        """Table mm at ``height`` over the table -> frame px (pinhole: exact without distortion)."""
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], -height * self.R[:, 2] + self.t])
        shift = np.array([[1, 0, -self.pad[0]], [0, 1, -self.pad[1]], [0, 0, 1]], np.float64)
        H = shift @ H
        return H / H[2, 2]

    def _pin_plane(self, height: float) -> np.ndarray:
        """Table mm at ``height`` -> pinhole picture px."""
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], -height * self.R[:, 2] + self.t])
        return H / H[2, 2]

    def grid_to_frame(self, pts, layout: CrateLayout, pose: Pose, height: float = 0.0) -> np.ndarray:
        """Grid mm (n, 2) at ``height`` mm over the table -> frame px, lens distortion included."""
        G = self.grid_matrix(layout, pose)
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        t = p @ G[:2, :2].T + G[:2, 2]
        return self.pin_to_frame(self.project(np.column_stack([t, np.full(len(t), -height)])))

    def random_pose(self, layout: CrateLayout, rng: np.random.Generator) -> Pose:
        """A pose, any yaw, with the whole grid's rim inside the frame (if it fits at all)."""
        w, h = self.grid_size(layout)
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        yaw = float(rng.uniform(0, 360))
        fw, fh = self.size
        for _ in range(40):
            r = self.look.reach_mm * 0.5 * math.sqrt(rng.random())
            a = rng.uniform(0, 2 * math.pi)
            pose = (float(r * math.cos(a)), float(r * math.sin(a)), yaw)
            px = self.grid_to_frame(corners, layout, pose, self.look.rim_mm)
            if np.all((px >= 0.02 * fw) & (px <= np.array([0.98 * fw, 0.98 * fh]))):
                return pose
        return (0.0, 0.0, yaw)

    def place(self, layout: CrateLayout, rng: np.random.Generator, pose: Pose | None = None,
              keep: CrateScene | None = None) -> CrateScene:
        """Where the grid and each drink stand: drinks a little off their slot's middle and turned
        at random (a drink of ``keep`` in the same field stays exactly as it stood)."""
        pose = tuple(float(v) for v in pose) if pose is not None else self.random_pose(layout, rng)
        kept = {(s.field, s.drink): s for s in (keep.standing if keep else ())}
        feet = layout.footprints()
        fields = layout.fields()
        owner = {}
        for place, foot in zip(layout.crates, feet):
            for f in crate_fields(place):
                owner[f] = foot
        ox, oy = _origin(layout)
        out = []
        for (x, y), drink in sorted(fields.items()):
            if drink == EMPTY:
                continue
            old = kept.get(((x, y), drink))
            if old is not None:
                out.append(old)
                continue
            colour, _, shape = drink.partition("-")
            x0, y0, x1, y1 = slot_room((x, y), owner[(x + ox, y + oy)], self.look)
            room = max(0.0, (min(x1 - x0, y1 - y0) - NOMINAL_SIZE_MM[shape][1] * self.look.drink_mm(shape)) / 2 - 0.2)
            dx, dy = np.clip(rng.normal(0, room / 2, 2), -room, room)
            rgb = np.array(self.look.drinks.get(colour, (128, 128, 128)), float) * rng.uniform(0.97, 1.03)
            rgb = tuple(int(v) for v in np.clip(rgb + rng.normal(0, 2.0, 3), 0, 255))
            out.append(Standing((x, y), drink, float((x0 + x1) / 2 + dx), float((y0 + y1) / 2 + dy),
                                float(rng.uniform(0, 360)), rgb))
        return CrateScene(layout, pose, tuple(out))

    # --- a frame ----------------------------------------------------------------------------

    def render(self, layout: CrateLayout, rng: np.random.Generator | None = None, hand: bool | BoardHand = False,
               pose: Pose | None = None) -> tuple[np.ndarray, dict]:
        """One frame (BGR uint8) of ``layout`` and its truth (see the module's words). ``hand``:
        True for a random hand over the crates; ``pose``: (x mm, y mm, yaw degrees), None for a
        seeded random one within the view."""
        rng = rng if rng is not None else np.random.default_rng(0)
        scene = self.place(layout, rng, pose)
        if hand is True:
            hand = self.random_hand(scene, rng)
        img, hand_mask = self.clean(scene, hand or None, gain=self.exposure(rng))
        frame = self.sensor(img, rng)
        return frame, self.truth(scene, hand_mask)

    def random_hand(self, scene: CrateScene, rng: np.random.Generator, at: tuple[float, float] | None = None) -> BoardHand:
        """A hand reaching over the crates (to ``at``, grid mm; else somewhere over the grid),
        held well above the tallest drink."""
        w, h = self.grid_size(scene.layout)
        hand = BoardHand.random(rng, (max(w, 1.0), max(h, 1.0)))
        hand = replace(hand, height=float(rng.uniform(45, 90)))
        return replace(hand, x=float(at[0]), y=float(at[1])) if at is not None else hand

    def clean(self, scene: CrateScene, hand: BoardHand | None = None, gain: float = 1.0):
        """The frame before the sensor's noise (lens, vignetting and the exposure ``gain`` in) as
        float, and the hand's mask (pinhole picture) or None."""
        img, hand_mask = self._picture(scene, hand)
        return self._optics(img) * (self._vignette() * np.float32(gain)), hand_mask

    def _picture(self, scene: CrateScene, hand: BoardHand | None):
        lk = self.look
        pw, ph = self.pin_size
        G = self.grid_matrix(scene.layout, scene.pose)
        parts = crate_parts(scene.layout.footprints(), lk)
        to_table = lambda pts: np.asarray(pts, np.float64) @ G[:2, :2].T + G[:2, 2]  # noqa: E731
        yaw = math.degrees(math.atan2(G[1, 0], G[0, 0]))
        standing = []
        for wall in parts.walls:
            c = to_table([((wall.x0 + wall.x1) / 2, (wall.y0 + wall.y1) / 2)])[0]
            hx, hy = (wall.x1 - wall.x0) / 2, (wall.y1 - wall.y0) / 2
            box = solids.prism(np.array([[-hx, -hy], [hx, -hy], [hx, hy], [-hx, hy]]), lk.rim_mm - wall.z0,
                               c[0], c[1], yaw, wall.z0)
            standing.append((box, lk.crate_srgb, lk.crate_gloss, False))
        for s in scene.standing:
            shape = s.drink.partition("-")[2]
            length, width = NOMINAL_SIZE_MM[shape]
            k = lk.drink_mm(shape)
            (x, y), = to_table([(s.x, s.y)])
            standing.append((solids.drink(x, y, s.yaw + yaw, shape, length * k, width * k, lift=lk.floor_mm),
                             s.colour, lk.drink_gloss, True))
        # the flat things: table and the slots' floors
        H_floor = self._pin_plane(lk.floor_mm) @ G
        H_ground = self.H_table @ G
        floor = np.zeros((ph, pw), np.uint8)
        for poly in parts.floors:
            _fill(floor, _through(poly, H_floor))
        strokes = hand_shapes(hand, self.grid_size(scene.layout), G) if hand is not None else None
        # shadows, one mask per lamp: on the floors inside the crates, on the table outside
        fm = floor.astype(np.float32) * (1 / 255)
        Hf_table = self._pin_plane(lk.floor_mm)
        lights = []                      # each lamp's direct light, its shadows taken out
        for lamp, direct in zip(self.lamps, self.direct):
            on_table = np.zeros((ph, pw), np.uint8)
            on_floor = np.zeros((ph, pw), np.uint8)
            for solid, _, _, _ in standing:
                _fill(on_table, _through(_hull(self._shadow_of(solid.verts, lamp)), self.H_table))
                _fill(on_floor, _through(_hull(self._shadow_of(solid.verts, lamp, lk.floor_mm)), Hf_table))
            for pts3, width, _ in strokes or ():
                draw_stroke(on_table, self._shadow_of(pts3, lamp), width, 255, self.H_table)
                draw_stroke(on_floor, self._shadow_of(pts3, lamp, lk.floor_mm), width, 255, Hf_table)
            cast = np.where(floor > 127, on_floor, on_table)
            lights.append(direct * (1 - soften(cast, lamp.shadow_blur * self.px_per_mm) * lamp.shadow_depth))
        # the dark where walls and drinks meet the floor, and round the crates on the table
        contact = np.zeros((ph, pw), np.uint8)
        for wall in parts.walls:
            _fill(contact, _through(np.array([[wall.x0, wall.y0], [wall.x1, wall.y0], [wall.x1, wall.y1],
                                              [wall.x0, wall.y1]]), H_floor if wall.z0 else H_ground))
        for solid, _, _, is_drink in standing:
            if is_drink:
                _fill(contact, _through(solid.base, Hf_table))
        ao = soften(contact, 1.8 * self.px_per_mm) * 0.45
        albedo_floor = _LIN[np.array(lk.crate_srgb[::-1])] * 0.92
        albedo = self.table * (1 - fm[..., None]) + albedo_floor[None, None, :] * fm[..., None]
        light = (self.ambient * (1 - ao))[..., None] * self.lamp
        for li, colour in zip(lights, self.colours):
            light = light + li[..., None] * colour
        lin = albedo * light
        for sp, li, colour in zip(self.spec, lights, self.colours):
            if sp is not None:
                lin += (sp * (1 - fm))[..., None] * colour
        img = linear_to_srgb_u8(lin)
        # far to near from the camera's foot point
        foot = self.C[:2]
        dist = [float(np.hypot(*(s.verts[:, :2].mean(0) - foot))) for s, _, _, _ in standing]
        for i in np.argsort(dist)[::-1]:
            solid, colour, gloss, _ = standing[i]
            self._paint(img, solid, colour, gloss)
        hand_mask = self._paint_hand(img, strokes) if strokes else None
        return img, hand_mask

    # --- the truth --------------------------------------------------------------------------

    def truth(self, scene: CrateScene, hand_mask: np.ndarray | None = None) -> dict:
        lk = self.look
        layout, pose = scene.layout, scene.pose
        G = self.grid_matrix(layout, pose)
        fields = layout.fields()
        p = lk.pitch_mm
        keys = sorted(fields)
        mids = np.array([((x + 0.5) * p, (y + 0.5) * p) for x, y in keys], np.float64).reshape(-1, 2)
        centres = self.grid_to_frame(mids, layout, pose, lk.rim_mm) if keys else np.zeros((0, 2))
        drinks = []
        for s in scene.standing:
            shape = s.drink.partition("-")[2]
            tall = NOMINAL_SIZE_MM[shape][0] * lk.drink_mm(shape)
            foot = self.grid_to_frame([(s.x, s.y)], layout, pose, lk.floor_mm)[0]
            top = self.grid_to_frame([(s.x, s.y)], layout, pose, lk.floor_mm + tall)[0]
            drinks.append({"field": s.field, "drink": s.drink, "mm": [round(s.x, 2), round(s.y, 2)],
                           "height_mm": round(tall, 2), "foot_px": [round(float(v), 2) for v in foot],
                           "top_px": [round(float(v), 2) for v in top]})
        Gi = np.linalg.inv(G)
        cam = Gi @ np.array([self.C[0], self.C[1], 1.0])
        hand_box = None
        if hand_mask is not None and hand_mask.any():
            w, h = self.size
            ys, xs = np.nonzero(hand_mask[::2, ::2])
            box = self.pin_to_frame(np.array([[xs.min(), ys.min()], [xs.max(), ys.max()]], np.float64) * 2)
            hand_box = [int(np.clip(box[0, 0], 0, w)), int(np.clip(box[0, 1], 0, h)),
                        int(np.clip(box[1, 0], 0, w)), int(np.clip(box[1, 1], 0, h))]
        norm = lambda H: (H / H[2, 2]).round(10).tolist()  # noqa: E731
        return {
            "fields": fields,
            "crates": [list(f) for f in layout.footprints()],
            "rim_to_frame": norm(self.plane(lk.rim_mm) @ G),
            "table_to_frame": norm(self.plane(0.0) @ G),
            "floor_to_frame": norm(self.plane(lk.floor_mm) @ G),
            "camera": [round(float(cam[0] / cam[2]), 3), round(float(cam[1] / cam[2]), 3), round(float(-self.C[2]), 3)],
            "pitch_mm": lk.pitch_mm, "rim_height_mm": lk.rim_mm, "floor_mm": lk.floor_mm, "wall_mm": lk.wall_mm,
            "centres": {f: [round(float(u), 2), round(float(v), 2)] for f, (u, v) in zip(keys, centres)},
            "drinks": drinks,
            "pose": list(pose),
            "hand": hand_mask is not None,
            "hand_box": hand_box,
            "size": list(self.size),
            "distortion": lk.distortion,
            "look": lk.describe(),
        }


def _origin(layout: CrateLayout) -> tuple[int, int]:
    cells = [f for place in layout.crates for f in crate_fields(place)]
    return (min(x for x, _ in cells), min(y for _, y in cells)) if cells else (0, 0)


def _hull(pts: np.ndarray) -> np.ndarray:
    return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)


def _through(poly: np.ndarray, H: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(poly, np.float64).reshape(-1, 1, 2), H).reshape(-1, 2)


def _fill(mask: np.ndarray, px: np.ndarray) -> None:
    cv2.fillPoly(mask, [np.round(px * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
