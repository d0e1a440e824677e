"""A seeded renderer of the yellow crates with drinks standing in them, seen by the crate camera
(docs/crate-sim.md).

The crates (``crate_solids.py``, ``crate_walls.py``) stand together on the table as one grid; a
pose (x mm, y mm, yaw degrees) puts the middle of the grid's outline at (x, y) on the table,
measured from the point the camera aims at, turned by yaw. The camera (``lit_scene.py``, shared
with the board camera) stands to one side looking down at that point, tilted from the vertical;
the look says how far. The drinks are the board camera's solids (``board_solids.py``) standing
upright on the slots' floors, a little off the middle and turned at random (``crate_scene.py``).
Everything standing (wall pieces, drinks, loose things beside the crates) is painted far to near
from the camera's foot point, so nearer things hide farther ones as in a real view; each lamp
casts their shadows onto the table, the slots' floors, the rims and the drinks' tops; a hand
and arm may reach over the crates (``board_hand.py``), carrying a drink.

``render`` returns the frame (BGR uint8) and its truth (``crate_truth.py``): ``fields``
(``CrateLayout.fields()``), ``rim_to_frame`` (3x3: grid mm on the rim plane -> frame px; field
(x, y)'s middle is at ((x + 0.5) * pitch, (y + 0.5) * pitch)), ``table_to_frame`` and
``floor_to_frame`` (the same for the table under the grid and the slots' floor), ``camera`` (its
centre in grid mm: x, y, height over the table), ``pitch_mm``, ``rim_height_mm``, ``floor_mm``,
``wall_mm``, ``hand``, ``centres`` (each field's middle on the rim plane, frame px), ``drinks``
(each drink: its field, id, foot and top in px) and ``loose``. The homographies are exact
without lens distortion; :meth:`CrateRenderer.grid_to_frame` maps with it.

>>> from companion.crate_fields import CrateLayout
>>> r = CrateRenderer(CrateLook.from_seed(1))
>>> layout = CrateLayout(crates=((0, 0, 0), (2, 0, 1)), drinks={(0, 0): "red-tall_can"})
>>> frame, truth = r.render(layout, np.random.default_rng(0))
>>> frame.shape, truth["fields"][(0, 0)], truth["fields"][(1, 0)], len(truth["centres"])
((720, 1280, 3), 'red-tall_can', 'empty', 12)
"""
from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from ..crate_fields import CrateLayout
from . import board_solids as solids
from .board_hand import draw_stroke, hand_shapes
from .board_looks import BoardHand
from .crate_looks import CrateLook
from .crate_scene import CrateScene, Loose, Pose, Standing, arrange, leaned, loose_solid, scatter
from .crate_shadows import by_neighbours, past_walls, shaded_lid, shadows_on_rims
from .crate_solids import slot_room
from .crate_truth import scene_truth
from .crate_walls import crate_walls, fill, hull, through
from .lit_scene import _LIN, UP, LitScene, soften
from .looks import NOMINAL_SIZE_MM, linear_to_srgb_u8

__all__ = ["CrateRenderer", "CrateScene", "Loose", "Standing"]
FLAT = ("coin", "card")    # loose things lying flat: painted before anything standing
TABLE_SCALE = 2.5      # the table texture's millimetres per millimetre (the board's wood rings are a board's size)
EDGES = {"bottom": np.array([0.0, 1.0]), "top": np.array([0.0, -1.0]), "left": np.array([-1.0, 0.0]),
         "right": np.array([1.0, 0.0])}      # the side of the grid an arm comes from: outwards


class CrateRenderer(LitScene):
    """Frames of crates in one :class:`CrateLook`. The camera, the table and the lamps' light on
    it are computed once; a scene's crates and drinks are drawn per frame."""

    def __init__(self, look: CrateLook):
        self.look, self.size, self.centre = look, look.image_size, (0.0, 0.0)
        ring = np.linspace(0, 2 * math.pi, 24, endpoint=False)
        extent = np.column_stack([look.reach_mm * np.cos(ring), look.reach_mm * np.sin(ring), np.zeros(24)])
        self._aim(extent, np.zeros(3), upright=True)
        self._table_and_lamps()
        self._crates_cache = None
        self._slot = None          # the slot of the drink being painted: its inside (grid mm) and grid -> table
        self._near: list = []      # its neighbours as columns (x, y, radius, top's height)
        self._feet: dict = {}

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
        exposure = 0.82 * 2.0 ** lk.exposure_ev / float(mid.max())
        self.colours = [(lk.lamp_bgr(lamp) * exposure).astype(np.float32) for lamp in self.lamps]
        self.lamp = self.colours[0]
        # the table seen from a hand span away: its grain finer in the picture than a board camera sees it
        self.table = self._table_albedo(big(tx) * np.float32(TABLE_SCALE), big(ty) * np.float32(TABLE_SCALE))
        self.floor_albedo = _LIN[np.array(lk.crate_srgb[::-1])] * np.float32(0.92)
        self.direct_half = [cv2.resize(d, (pw // 2, ph // 2), interpolation=cv2.INTER_AREA) for d in self.direct]
        # the empty table, lit: what the picture is outside the crates and their shadows
        light = self.ambient * self.lamp + sum(d[..., None] * c for d, c in zip(self.direct, self.colours))
        lin = self.table * light
        for sp, colour in zip(self.spec, self.colours):
            if sp is not None:
                lin += sp[..., None] * colour
        self.background = linear_to_srgb_u8(lin)

    def _shade(self, albedo_lin, normals, at, gloss):
        """Faces' linear colours under every lamp of the look (each its own colour); for a drink
        in a slot (``self._slot``) its faces below the rim see less of the room the deeper they
        are, none of a lamp the slot's walls hide, and less of one its taller neighbours hide
        (``self._near``: their axes, radii and tops)."""
        normals, at = np.atleast_2d(normals), np.atleast_2d(at)
        sky = self.ambient * (0.75 + 0.25 * np.clip(-normals[:, 2], 0, None))
        lk = self.look
        if self._slot is not None:
            depth = np.clip((lk.rim_mm + at[:, 2]) / (lk.rim_mm - lk.floor_mm), 0, 1)   # 0 at the rim, 1 on the floor
            sky = sky * (1 - 0.5 * depth)
        out = albedo_lin * sky[:, None] * self.lamp
        for lamp, colour in zip(self.lamps, self.colours):
            direct, spec = self._light_at(at[:, 0], at[:, 1], normals, at[:, 2], specular=gloss > 0,
                                          shininess=30.0, lamp=lamp)
            if self._slot is not None:
                lit = past_walls(self, at, lamp) * by_neighbours(self, at, normals, lamp)
                direct, spec = direct * lit, spec * lit
            out = out + albedo_lin * direct[:, None] * colour + gloss * spec[:, None] * colour * 0.2
        return out

    def grid_matrix(self, layout: CrateLayout, pose: Pose) -> np.ndarray:
        """Grid mm -> table mm (3x3) for ``layout`` at ``pose``."""
        w, h = self.grid_size(layout)
        a = math.radians(pose[2])
        c, s = math.cos(a), math.sin(a)
        R = np.array([[c, -s], [s, c]])
        t = np.array(pose[:2]) - R @ np.array([w / 2, h / 2])
        return np.array([[c, -s, t[0]], [s, c, t[1]], [0, 0, 1.0]])

    def footprints(self, layout: CrateLayout) -> list[tuple[int, int, int, int]]:
        """``layout.footprints()``, kept for the last few sets of crates (asked for often)."""
        key = tuple(layout.crates)
        if key not in self._feet:
            if len(self._feet) > 8:
                self._feet.pop(next(iter(self._feet)))
            self._feet[key] = layout.footprints()
        return self._feet[key]

    def grid_size(self, layout: CrateLayout) -> tuple[float, float]:
        feet = self.footprints(layout)
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
        """Where the grid (``pose``; None: a random one in view) and each drink stand, and the
        loose things on the table (``crate_scene.arrange`` and ``scatter``; ``keep``'s stay)."""
        pose = tuple(float(v) for v in pose) if pose is not None else self.random_pose(layout, rng)
        scene = arrange(self.look, layout, rng, pose, keep)
        if keep is None and self.look.clutter:
            loose = scatter(self.look, rng, int(rng.integers(0, self.look.clutter + 1)), self.free_of_crates(layout, pose))
            scene = replace(scene, loose=loose)
        elif keep is not None:
            free = self.free_of_crates(layout, pose)
            scene = replace(scene, loose=tuple(o for o in scene.loose if free(o.x, o.y, o.radius(self.look))))
        return scene

    def free_of_crates(self, layout: CrateLayout, pose: Pose):
        """A test of a table point (mm) and reach: clear of the crates and within the frame."""
        G = self.grid_matrix(layout, pose)
        Gi = np.linalg.inv(G)
        w, h = self.grid_size(layout)
        fw, fh = self.size

        def free(x: float, y: float, r: float) -> bool:
            gx, gy = Gi[:2, :2] @ (x, y) + Gi[:2, 2]
            if -r - 3 < gx < w + r + 3 and -r - 3 < gy < h + r + 3:
                return False
            u, v = self.pin_to_frame(self.project(np.array([[x, y, 0.0]])))[0]
            return 0 <= u < fw and 0 <= v < fh
        return free

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
        its fingertips a little over the drinks (a camera this low sees little of a hand held
        higher), its arm coming from a side away from the camera (an arm under the camera would
        hide all)."""
        w, h = self.grid_size(scene.layout)
        hand = BoardHand.random(rng, (max(w, 1.0), max(h, 1.0)))
        G = self.grid_matrix(scene.layout, scene.pose)
        towards = self.C[:2] - G[:2, 2] - G[:2, :2] @ (w / 2, h / 2)
        towards /= max(float(np.linalg.norm(towards)), 1e-9)
        sides = [e for e, v in EDGES.items() if float(G[:2, :2] @ v @ towards) < 0.4]
        hand = replace(hand, height=float(rng.uniform(28, 50)), edge=sides[int(rng.integers(0, len(sides)))])
        return replace(hand, x=float(at[0]), y=float(at[1])) if at is not None else hand

    def clean(self, scene: CrateScene, hand: BoardHand | None = None, gain: float = 1.0, held: str | None = None):
        """The frame before the sensor's noise (lens, vignetting and the exposure ``gain`` in) as
        float, and the hand's mask (pinhole picture) or None. ``held``: a drink id the hand
        carries between its fingertips (putting it in, or taking it away)."""
        img, hand_mask = self._picture(scene, hand, held)
        img = self._optics(img)
        img *= self._vignette() * np.float32(gain)
        return img, hand_mask

    def _noisy(self, clean: np.ndarray, noise: np.ndarray) -> np.ndarray:
        """The sensor's noise as ``LitScene._noisy`` has it (clean + noise * sd * (0.6 + 0.004 *
        clean)), worked out in place: a third of the time on a whole frame."""
        sd = self.look.noise
        out = noise * np.float32(0.004 * sd)
        out += np.float32(1)
        out *= clean
        out += noise * np.float32(0.6 * sd)
        np.maximum(out, 0, out=out)
        return cv2.convertScaleAbs(out)

    def _picture(self, scene: CrateScene, hand: BoardHand | None, held: str | None = None):
        """The lit pinhole picture (sRGB u8) and the hand's mask (or None). Only the part of the
        picture the crates, their shadows and the hand reach is lit anew; the rest is the
        look's empty table."""
        lk = self.look
        pw, ph = self.pin_size
        G = self.grid_matrix(scene.layout, scene.pose)
        crates = crate_walls(self, scene, G)
        yaw = math.degrees(math.atan2(G[1, 0], G[0, 0]))
        drinks, rooms = [], []
        feet = self.footprints(scene.layout)
        cut = lk.rim_mm - lk.floor_mm          # the drinks' bands: below the rim shaded apart
        for s in scene.standing:
            shape = s.drink.partition("-")[2]
            length, width = NOMINAL_SIZE_MM[shape]
            k = lk.drink_mm(shape)
            x, y = G[:2, :2] @ (s.x, s.y) + G[:2, 2]
            upright = solids.drink(x, y, s.yaw + yaw, shape, length * k, width * k, lift=lk.floor_mm, cuts=(cut / 2, cut))
            drinks.append((leaned(upright, np.array([x, y, -lk.floor_mm]), s.lean, yaw), s.colour, lk.drink_gloss))
            rooms.append(slot_room(s.field, feet[s.slot[0]], lk))
        loose = [loose_solid(o, lk) for o in scene.loose]
        carried = self._held(hand, held, G) if hand is not None and held else None
        strokes = self._in_front(hand_shapes(hand, self.grid_size(scene.layout), G, 300.0, 60.0)) \
            if hand is not None else None
        # every flat mark in pinhole px: floors, each lamp's shadows on the table and on the floors, contacts
        Hf = self._pin_plane(lk.floor_mm)
        shadows = [(list(t), list(f)) for t, f in crates.shadows]
        for solid, _, _ in drinks + loose + ([carried] if carried else []):
            for lamp, (on_table, on_floor) in zip(self.lamps, shadows):
                on_table.append(through(hull(self._shadow_of(solid.verts, lamp)), self.H_table))
                on_floor.append(through(hull(self._shadow_of(solid.verts, lamp, lk.floor_mm)), Hf))
        contacts = crates.contacts + [through(solid.base, Hf) for solid, _, _ in drinks]
        contacts += [through(solid.base, self.H_table) for solid, _, _ in loose]
        polys = crates.floors + contacts + [p for t, f in shadows for p in t + f]
        for pts3, width, _ in strokes or ():      # the hand's shadows: their strokes widened to a box
            for lamp in self.lamps:
                for plane, H in ((0.0, self.H_table), (lk.floor_mm, Hf)):
                    ends = through(self._shadow_of(pts3, lamp, plane), H)
                    reach = width * self.px_per_mm * 2            # the stroke's half width, with room
                    polys.append(np.concatenate([ends - reach, ends + reach]))
        if not polys:
            x0, y0, x1, y1 = 0, 0, pw, ph
        else:
            pts = np.concatenate(polys)
            pad = int(3 * max([lp.shadow_blur for lp in self.lamps] + [1.8]) * self.px_per_mm) + 4
            x0, y0 = (min(max(0, int(v) - pad), n) for v, n in zip(pts.min(0), (pw, ph)))
            x1, y1 = (max(min(n, int(v) + pad), 0) for v, n in zip(pts.max(0), (pw, ph)))
        x0, y0, x1, y1 = x0 - x0 % 2, y0 - y0 % 2, x1 - x1 % 2, y1 - y1 % 2     # the half-size light's grid
        img = self.background.copy()
        if x1 > x0 and y1 > y0:
            img[y0:y1, x0:x1] = self._lit(crates.floors, contacts, shadows, strokes, (x0, y0, x1, y1))
        # the flat things (coins, cards) first: whatever stands hides them; then far to near from
        # the camera's foot point
        for (solid, colour, gloss), o in zip(loose, scene.loose):
            if o.kind in FLAT:
                self._paint(img, solid, colour, gloss)
        foot = self.C[:2]
        order = [(d, i, None) for i, d in enumerate(crates.distance)]
        things = drinks + loose
        # each drink as a column for the shadows on its neighbours: axis x, y, radius, top's height
        axes = [np.array([*s.base.mean(0), float(np.ptp(s.base[:, 0])) / 2, -float(s.verts[:, 2].min())])
                for s, _, _ in drinks]
        order += [(float(np.hypot(*(s.base.mean(0) - foot))), i, s) for i, (s, _, _) in enumerate(things)
                  if i < len(drinks) or scene.loose[i - len(drinks)].kind not in FLAT]
        tops = np.zeros((ph, pw), np.uint8)     # where the walls' tops show
        for _, i, solid in sorted(order, key=lambda o: -o[0]):
            if solid is None:
                for pts, colour, top in crates.faces[i]:
                    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, 4)
                    cv2.fillPoly(tops, [pts], 255 if top else 0, cv2.LINE_AA, 4)
            else:
                self._slot = (rooms[i], G) if i < len(rooms) else None
                if i < len(drinks):
                    self._near = [axes[j] for j in range(len(drinks)) if j != i
                                  and np.hypot(*(axes[j][:2] - axes[i][:2])) < 4 * lk.pitch_mm]
                self._paint(img, solid, things[i][1], things[i][2])
                if i < len(drinks):
                    shaded_lid(self, img, i, drinks)
                self._slot = None
                outline = cv2.convexHull(np.round(self.project(solid.verts) * 16).astype(np.int32))
                cv2.fillConvexPoly(tops, outline, 0, cv2.LINE_AA, 4)
        if carried:                   # over the crates, under the hand
            self._paint(img, *carried)
            outline = cv2.convexHull(np.round(self.project(carried[0].verts) * 16).astype(np.int32))
            cv2.fillConvexPoly(tops, outline, 0, cv2.LINE_AA, 4)
        hand_mask = self._paint_hand(img, strokes) if strokes else None
        if hand_mask is not None:
            tops[hand_mask > 0] = 0
        shadows_on_rims(self, img, tops, [s for s, _, _ in drinks + ([carried] if carried else [])], strokes)
        return img, hand_mask

    def _held(self, hand: BoardHand, drink: str, G: np.ndarray):
        """The drink a hand carries: upright between its fingertips, its foot clear of the rims."""
        lk = self.look
        colour, _, shape = drink.partition("-")
        length, width = NOMINAL_SIZE_MM[shape]
        k = lk.drink_mm(shape)
        x, y = G[:2, :2] @ (hand.x, hand.y) + G[:2, 2]
        lift = max(lk.rim_mm + 1.0, hand.height - 0.75 * length * k)
        return (solids.drink(x, y, 0.0, shape, length * k, width * k, lift=lift),
                tuple(lk.drinks.get(colour, (128, 128, 128))), lk.drink_gloss)

    def _in_front(self, strokes, nearest: float = 50.0):
        """The hand's strokes cut where they come nearer the camera than ``nearest`` mm: the crate
        camera stands low, and the arm (drawn for a board camera a metre up) would pass behind it."""
        out = []
        for pts3, width, colour in strokes:
            depth = (pts3 - self.C) @ self.R[2]
            if depth.min() >= nearest:
                out.append((pts3, width, colour))
            elif depth.max() > nearest:
                near, far = (0, 1) if depth[0] < depth[1] else (1, 0)
                t = (nearest - depth[near]) / (depth[far] - depth[near])
                cut = pts3.copy()
                cut[near] = pts3[near] + (pts3[far] - pts3[near]) * t
                out.append((cut, width, colour))
        return out

    def _lit(self, floors, contacts, shadows, strokes, roi) -> np.ndarray:
        """The table and the slots' floors in ``roi`` (x0, y0, x1, y1 pinhole px, even), lit: each
        lamp's light less its shadows, the room's light less the dark where things stand (sRGB
        u8). The light is worked out at half the resolution (shadows and the dark at a foot are
        soft) and laid over the full-resolution table and floors."""
        lk = self.look
        x0, y0, x1, y1 = roi
        off = np.array([x0, y0], np.float64)
        shape = ((y1 - y0) // 2, (x1 - x0) // 2)
        hx, hy = slice(x0 // 2, x0 // 2 + shape[1]), slice(y0 // 2, y0 // 2 + shape[0])

        def drawn(polys) -> np.ndarray:
            mask = np.zeros(shape, np.uint8)
            for p in polys:
                fill(mask, (p - off) * 0.5)
            return mask

        floor = drawn(floors)
        inside = floor > 127
        light = None
        Hf = self._pin_plane(lk.floor_mm)
        half = np.array([[0.5, 0, -x0 / 2], [0, 0.5, -y0 / 2], [0, 0, 1]], np.float64)
        for lamp, direct, colour, (on_table, on_floor) in zip(self.lamps, self.direct_half, self.colours, shadows):
            cast_t, cast_f = drawn(on_table), drawn(on_floor)
            for pts3, width, _ in strokes or ():
                draw_stroke(cast_t, self._shadow_of(pts3, lamp), width, 255, half @ self.H_table)
                draw_stroke(cast_f, self._shadow_of(pts3, lamp, lk.floor_mm), width, 255, half @ Hf)
            cast = np.where(inside, cast_f, cast_t)
            dark = soften(cast, lamp.shadow_blur * self.px_per_mm / 2) * np.float32(lamp.shadow_depth)
            term = (direct[hy, hx] * (1 - dark))[..., None] * colour
            light = term if light is None else light + term
        ao = soften(drawn(contacts), 0.9 * self.px_per_mm) * np.float32(0.45)
        light += (self.ambient * (1 - ao))[..., None] * self.lamp
        size = (x1 - x0, y1 - y0)
        tint = np.ones(light.shape, np.float32)           # each crate's floor its own tint
        for i, p in enumerate(floors):
            cv2.fillPoly(tint, [np.round((p - off) * 0.5).astype(np.int32)], tuple(float(v) for v in lk.crate_tint(i)))
        light *= tint
        light = cv2.resize(light, size, interpolation=cv2.INTER_LINEAR)
        fm = cv2.resize(floor.astype(np.float32) * np.float32(1 / 255), size, interpolation=cv2.INTER_LINEAR)[..., None]
        table = self.table[y0:y1, x0:x1]
        lin = self.floor_albedo - table          # (in place from here: the frame's largest arrays)
        lin *= fm
        lin += table
        lin *= light
        for sp, colour in zip(self.spec, self.colours):
            if sp is not None:
                lin += (sp[y0:y1, x0:x1][..., None] * (1 - fm)) * colour
        return _srgb(lin)

    # --- the truth --------------------------------------------------------------------------

    def truth(self, scene: CrateScene, hand_mask: np.ndarray | None = None) -> dict:
        """What a frame of ``scene`` shows (see the module's words; ``crate_truth.py``)."""
        return scene_truth(self, scene, hand_mask)


def _srgb(lin: np.ndarray) -> np.ndarray:
    """Linear light -> sRGB u8 for a large picture: the power curve alone (its linear toe, under
    0.3 % of full scale, is a fraction of a level away) through OpenCV, several times faster
    than the lookup table on a whole frame."""
    np.maximum(lin, np.float32(0), out=lin)
    curve = cv2.pow(lin, 1 / 2.4)
    curve *= np.float32(1.055 * 255)
    curve -= np.float32(0.055 * 255 - 0.5)
    return np.clip(curve, 0, 255, out=curve).astype(np.uint8)
