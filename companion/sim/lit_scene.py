"""What the simulated cameras over the table share (the board camera, ``board_render.py``, and
the crate camera, ``crate_render.py``): a tilted, rolled pinhole camera with an optional barrel
lens, the lamps' light on a surface and the shadows they cast, solids shaded face by face and
painted far to near, and the sensor (softness, vignetting, noise, JPEG).

A renderer subclasses :class:`LitScene`, sets ``look`` (with the camera, lamp and sensor fields
of ``board_looks.BoardLook``), ``size`` and ``centre`` (the table point where the lamp's strength
is 1) and calls :meth:`LitScene._aim`. Table millimetres: x right, y down, z into the table (a
height h is z = -h).

>>> from companion.sim.board_looks import BoardLook
>>> class Scene(LitScene):
...     def __init__(self, look):
...         self.look, self.size, self.centre = look, look.image_size, (0.0, 0.0)
...         self._aim(np.array([[-50.0, -50, 0], [50, 50, 0]]), np.zeros(3))
>>> s = Scene(BoardLook.from_seed(1))
>>> np.round(s.project(np.array([[0.0, 0.0, 0.0]])), 3).tolist() == [[640.0, 360.0]]
True
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from . import board_solids as solids
from .board_hand import draw_stroke
from .board_looks import Lamp
from .looks import linear_to_srgb_u8, srgb_to_linear

_LIN = srgb_to_linear(np.arange(256, dtype=np.float32)).astype(np.float32)   # sRGB level -> linear
UP = np.array([0.0, 0.0, -1.0])


class LitScene:
    """The camera, light and sensor of a rendered table scene (see the module's words)."""

    look: object
    size: tuple[int, int]
    centre: tuple[float, float]

    def _aim(self, extent: np.ndarray, target: np.ndarray, upright: bool = False) -> None:
        """Set up the camera of the look looking at ``target`` (table mm, (3,)) from as far
        away as it takes for the ``extent`` points (table mm, (n, 3)) to fill the frame but its
        margin. ``upright``: the picture's top is the table's far side wherever the camera
        stands (else the table's x axis runs along the picture's rows, as the board camera has it)."""
        lk = self.look
        w, h = self.size
        self.f = (w / 2) / math.tan(math.radians(lk.fov) / 2)
        t, a = math.radians(lk.tilt), math.radians(lk.tilt_towards)
        d = np.array([-math.sin(t) * math.cos(a), -math.sin(t) * math.sin(a), math.cos(t)])
        ex = np.array([math.sin(a), -math.cos(a), 0.0]) if upright else np.array([1.0, 0.0, 0.0])
        xc = ex - ex.dot(d) * d
        xc /= np.linalg.norm(xc)
        yc = np.cross(d, xc)
        r = math.radians(lk.roll)
        xr, yr = math.cos(r) * xc + math.sin(r) * yc, -math.sin(r) * xc + math.cos(r) * yc
        self.R = np.array([xr, yr, d])
        k = lk.distortion
        # the undistorted (pinhole) picture must reach as far as the distorted frame's corners
        self.pad = (int(math.ceil(k * w / 2)) + 2, int(math.ceil(k * h / 2)) + 2) if k > 0 else (0, 0)
        self.pin_size = (w + 2 * self.pad[0], h + 2 * self.pad[1])
        self.K = np.array([[self.f, 0, self.pin_size[0] / 2], [0, self.f, self.pin_size[1] / 2], [0, 0, 1]])
        dist = 1500.0
        for _ in range(6):
            self.C = target - dist * d
            p = self.project(extent) - np.array(self.pin_size) / 2
            need = max(np.abs(p[:, 0]).max() / (w / 2 * (1 - lk.margin)),
                       np.abs(p[:, 1]).max() / (h / 2 * (1 - lk.margin)))
            dist *= need
        self.C = target - dist * d
        self.t = -self.R @ self.C
        self.H_table = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])   # table mm -> pinhole px
        self.H_table /= self.H_table[2, 2]
        self.px_per_mm = self.f / dist
        if k > 0:
            ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
            half = math.hypot(w / 2, h / 2)
            dx, dy = xs - w / 2, ys - h / 2
            s = 1 + k * (dx * dx + dy * dy) / half ** 2
            self._remap = (dx * s + self.pin_size[0] / 2, dy * s + self.pin_size[1] / 2)

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Table mm (n, 3) (z down: a height h is z = -h) -> pinhole picture px (n, 2)."""
        pc = (np.asarray(pts, np.float64) - self.C) @ self.R.T
        return np.column_stack([self.f * pc[:, 0] / pc[:, 2] + self.K[0, 2],
                                self.f * pc[:, 1] / pc[:, 2] + self.K[1, 2]])

    def pin_to_frame(self, px: np.ndarray) -> np.ndarray:
        """Pinhole picture px -> frame px (through the camera's barrel distortion)."""
        px = np.asarray(px, np.float64).reshape(-1, 2)
        w, h = self.size
        u = px - np.array(self.pin_size) / 2
        k = self.look.distortion
        if k > 0:
            half2 = (w / 2) ** 2 + (h / 2) ** 2
            ru = np.hypot(u[:, 0], u[:, 1])
            rd = ru.copy()
            for _ in range(30):                    # r_u = r_d (1 + k r_d^2 / half^2), solved for r_d
                rd = ru / (1 + k * rd * rd / half2)
            u = u * (rd / np.maximum(ru, 1e-9))[:, None]
        return u + np.array([w / 2, h / 2])

    def _lamp_points(self, lamp: Lamp | None = None) -> list[tuple[np.ndarray | None, np.ndarray | None, float]]:
        """The lamp (the look's own by default) as (position or None, direction towards it or None, weight)."""
        lp = lamp or self.look.lamp
        if lp.kind == "overhead":
            d = np.array([lp.at[0], lp.at[1], -1.0])
            return [(None, d / np.linalg.norm(d), 1.0)]
        if lp.kind == "point":
            return [(np.array([lp.at[0], lp.at[1], -lp.at[2]]), None, 1.0)]
        xs = np.linspace(-lp.span / 2, lp.span / 2, 7)
        return [(np.array([lp.at[0] + x, lp.at[1], -lp.at[2]]), None, 1 / 7) for x in xs]

    def _light_at(self, tx, ty, normal, tz=0.0, specular=False, shininess=None, lamp: Lamp | None = None):
        """Direct light (and the specular highlight) at table points (tx, ty, tz) on a surface
        of ``normal`` from ``lamp`` (the look's own by default), the lamp's strength 1 at the
        scene's middle (``self.centre``)."""
        lp = lamp or self.look.lamp
        tx, ty = np.asarray(tx, np.float64), np.asarray(ty, np.float64)
        direct = np.zeros(np.broadcast(tx, ty).shape)
        spec = np.zeros_like(direct)
        mid = np.array([self.centre[0], self.centre[1], 0.0])
        shin = shininess or self.look.shininess
        for pos, dirn, wgt in self._lamp_points(lp):
            if pos is None:
                lx, ly, lz = (np.full_like(direct, v) for v in dirn)
                fall = 1.0
            else:
                vx, vy, vz = pos[0] - tx, pos[1] - ty, pos[2] - tz
                dist = np.sqrt(vx * vx + vy * vy + vz * vz)
                lx, ly, lz = vx / dist, vy / dist, vz / dist
                d0 = np.linalg.norm(pos - mid)
                fall = (d0 / dist) ** 2 * (-(pos[2]) / d0) ** -1   # irradiance against the middle's
            cos = np.clip(lx * normal[..., 0] + ly * normal[..., 1] + lz * normal[..., 2], 0, None)
            direct += wgt * lp.strength * cos * fall
            if specular:
                cx, cy, cz = self.C[0] - tx, self.C[1] - ty, self.C[2] - tz
                cn = np.sqrt(cx * cx + cy * cy + cz * cz)
                hx, hy, hz = lx + cx / cn, ly + cy / cn, lz + cz / cn
                hn = np.sqrt(hx * hx + hy * hy + hz * hz)
                ndh = np.clip((hx * normal[..., 0] + hy * normal[..., 1] + hz * normal[..., 2]) / hn, 0, None)
                spec += wgt * lp.strength * ndh ** shin * np.minimum(fall, 3.0) * 2.5
        return direct, spec

    def _table_albedo(self, tx: np.ndarray, ty: np.ndarray) -> np.ndarray:
        lk = self.look
        rng = np.random.default_rng([lk.seed, 8401])
        base = _LIN[np.array(lk.table_srgb[::-1])]
        h, w = tx.shape
        low = lambda n: cv2.resize(rng.normal(0, 1, (n, n)).astype(np.float32), (w, h),  # noqa: E731
                                   interpolation=cv2.INTER_CUBIC)
        fine = rng.normal(0, 1, (h, w)).astype(np.float32)
        if lk.table == "wood":
            a = rng.uniform(-0.1, 0.1)
            across = (-tx * math.sin(a) + ty * math.cos(a)).astype(np.float32)
            ring = np.sin((across + 25 * low(6)) * 2 * math.pi / rng.uniform(7, 14)) ** 2
            mod = 1 - 0.18 * ring + 0.05 * low(12) + 0.03 * cv2.GaussianBlur(fine, (0, 0), 1.0)
        elif lk.table == "cloth":
            mod = 1 + 0.08 * cv2.GaussianBlur(fine, (0, 0), 0.7) + 0.05 * low(10)
        elif lk.table == "stone":
            speck = (cv2.GaussianBlur(fine, (0, 0), 1.2) > 0.55).astype(np.float32)
            mod = 1 + 0.08 * low(16) - 0.25 * speck + 0.04 * fine
        else:
            mod = 1 + 0.02 * fine + 0.03 * low(8)
        return (mod[..., None] * base[None, None, :]).astype(np.float32)

    def _paint_hand(self, img: np.ndarray, strokes) -> np.ndarray:
        """Paint a hand and arm (``board_hand.hand_shapes``'s strokes) into ``img`` (sRGB u8,
        pinhole picture), over everything; returns its mask."""
        hand_mask = np.zeros(img.shape[:2], np.uint8)
        for pts3, width, colour in strokes:
            lin_c = self._shade(_LIN[np.array(colour[::-1])], UP, pts3.mean(0), 0.15)
            # rounded: the sides turned from the lamp darker than the middle
            for share, factor in ((1.0, 0.62), (0.8, 0.82), (0.55, 1.0)):
                tone = np.clip(lin_c * factor, 0, 1).reshape(1, 1, 3).astype(np.float32)
                bgr = tuple(int(v) for v in linear_to_srgb_u8(tone).reshape(3))
                draw_stroke(img, pts3, width * share, bgr, None, self.project)
            draw_stroke(hand_mask, pts3, width, 255, None, self.project)
        return hand_mask

    def _shade(self, albedo_lin: np.ndarray, normals: np.ndarray, at: np.ndarray, gloss: float) -> np.ndarray:
        """The linear colours (n, 3) faces of ``albedo_lin`` with ``normals`` (n, 3) at table
        points ``at`` (n, 3) show."""
        normals, at = np.atleast_2d(normals), np.atleast_2d(at)
        direct, spec = self._light_at(at[:, 0], at[:, 1], normals, at[:, 2], specular=gloss > 0, shininess=30.0)
        sky = self.ambient * (0.75 + 0.25 * np.clip(-normals[:, 2], 0, None))   # the room's light, mostly from above
        light = (sky + direct)[:, None] * self.lamp
        return albedo_lin * light + gloss * spec[:, None] * self.lamp * 0.2

    def _paint(self, img: np.ndarray, solid: solids.Solid, colour: tuple[int, int, int], gloss: float) -> None:
        """Paint one solid into ``img`` (sRGB u8, pinhole picture): its faces turned to the
        camera, far to near, the caps last."""
        albedo = _LIN[np.array(colour[::-1])]
        normals = solid.normals if solid.normals is not None else solids.face_normals(solid.verts, solid.faces)
        centres = _face_centres(solid)
        view = self.C - centres
        seen = np.flatnonzero(np.einsum("ij,ij->i", normals, view) > 0)
        if not len(seen):
            return
        far = np.linalg.norm(view[seen], axis=1)
        order = sorted(range(len(seen)), key=lambda j: (seen[j] in solid.caps, -far[j]))
        lin = self._shade(albedo, normals[seen], centres[seen], gloss)
        bgr = linear_to_srgb_u8(lin.reshape(-1, 1, 3).astype(np.float32)).reshape(-1, 3)
        px = self.project(solid.verts)
        px16 = np.round(px * 16).astype(np.int32)
        glints = None
        if gloss > 0:
            c = centres[seen]
            _, glints = self._light_at(c[:, 0], c[:, 1], normals[seen], c[:, 2], specular=True, shininess=400.0)
        for j in order:
            i = int(seen[j])
            cv2.fillPoly(img, [px16[solid.faces[i]]], tuple(int(v) for v in bgr[j]), cv2.LINE_AA, 4)
            for face, poly, factor in solid.decals:
                if face == i:
                    dpx = np.round(self.project(poly) * 16).astype(np.int32)
                    # the arrow is printed light on a dark piece, dark on a light one
                    k = factor if float(albedo.mean()) < 0.2 else 1 / factor
                    dec = linear_to_srgb_u8(np.clip(lin[j] * k + 0.02, 0, 1).reshape(1, 1, 3).astype(np.float32))
                    cv2.fillPoly(img, [dpx], tuple(int(v) for v in dec.reshape(3)), cv2.LINE_AA, 4)
            if glints is not None and glints[j] > 0.08:
                # plastic: the lamp's small sharp reflection on a face turned just so
                c = self.project(centres[seen[j]][None])[0]
                tone = np.clip(lin[j] + glints[j] * self.lamp * gloss, 0, 1).reshape(1, 1, 3).astype(np.float32)
                radius = max(1.0, 0.9 * self.px_per_mm * min(1.0, float(glints[j])))
                cv2.circle(img, (int(round(c[0] * 16)), int(round(c[1] * 16))), int(radius * 16),
                           tuple(int(v) for v in linear_to_srgb_u8(tone).reshape(3)), -1, cv2.LINE_AA, 4)

    def _shadow_of(self, verts: np.ndarray, lamp: Lamp | None = None, floor: float = 0.0) -> np.ndarray:
        """Where points (table mm) throw their shadow (from the middle of ``lamp``, the look's own
        by default) on the plane ``floor`` mm over the table."""
        lp = lamp or self.look.lamp
        if floor:       # points under that plane count as on it
            lifted = verts.astype(np.float64).copy()
            lifted[:, 2] = np.minimum(lifted[:, 2] + floor, 0.0)
            return self._shadow_of(lifted, lp)
        z = verts[:, 2:3]
        if lp.kind == "overhead":
            d = np.array([lp.at[0], lp.at[1], -1.0])
            return verts[:, :2] - z / d[2] * d[:2]
        pos = np.array([lp.at[0], lp.at[1], -lp.at[2]])
        t = pos[2] / np.minimum(pos[2] - z, -1e-3)
        return pos[:2] + (verts[:, :2] - pos[:2]) * t

    def exposure(self, rng: np.random.Generator) -> float:
        """One frame's exposure against the look's (auto exposure and mains flicker)."""
        return float(math.exp(rng.normal(0, self.look.exposure_drift)))

    def _optics(self, img: np.ndarray) -> np.ndarray:
        """The lens: its barrel distortion and its softness (no camera is as sharp as a drawing)."""
        if self.look.distortion > 0:
            img = cv2.remap(img, self._remap[0], self._remap[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        img = img.astype(np.float32)
        if self.look.blur > 0.05:
            img = cv2.GaussianBlur(img, (0, 0), self.look.blur)
        return img

    def _vignette(self) -> np.ndarray:
        if not hasattr(self, "_vig"):
            w, h = self.size
            ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
            r2 = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
            self._vig = (1 - self.look.vignette * r2)[..., None].astype(np.float32)
        return self._vig

    def _camera_effects(self, img: np.ndarray, rng: np.random.Generator | None, gain: float = 1.0) -> np.ndarray:
        clean = self._optics(img) * (self._vignette() * np.float32(gain))
        return self.sensor(clean, rng)

    def sensor(self, clean: np.ndarray, rng: np.random.Generator | None,
               noise: np.ndarray | None = None) -> np.ndarray:
        """The camera's noise and compression on a clean picture (float); ``noise``: a
        ready field of unit noise (the live camera reuses a few)."""
        lk = self.look
        if rng is None and noise is None:
            return np.clip(clean + 0.5, 0, 255).astype(np.uint8)
        if noise is None:
            noise = self.noise_field(rng)
        out = self._noisy(clean, noise)
        if lk.jpeg:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(lk.jpeg)])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out

    def _noisy(self, clean: np.ndarray, noise: np.ndarray) -> np.ndarray:
        """The sensor's noise on a clean picture: its sd grows with the light."""
        sigma = self.look.noise * (0.6 + 0.004 * clean)
        return np.clip(clean + noise * sigma + 0.5, 0, 255).astype(np.uint8)

    def noise_field(self, rng: np.random.Generator) -> np.ndarray:
        """Unit sensor noise for one frame: a window at a random offset into one of two fields
        drawn once per look (drawing fresh noise for every pixel would cost more than the frame)."""
        m = 64
        if not hasattr(self, "_noise_bank"):
            w, h = self.size
            bank = np.random.default_rng([self.look.seed, 8501])
            c = self.look.chroma_noise
            self._noise_bank = [(bank.standard_normal((h + m, w + m, 1), dtype=np.float32) * (1 - c)
                                 + bank.standard_normal((h + m, w + m, 3), dtype=np.float32) * c) for _ in range(2)]
        field = self._noise_bank[int(rng.integers(0, len(self._noise_bank)))]
        dy, dx = (int(v) for v in rng.integers(0, m + 1, 2))
        h, w = field.shape[0] - m, field.shape[1] - m
        return field[dy:dy + h, dx:dx + w]

def _face_centres(solid: solids.Solid) -> np.ndarray:
    """Each face's middle (the mean of its corners), all faces at once."""
    sizes = np.array([len(f) for f in solid.faces])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return np.add.reduceat(solid.verts[np.concatenate(solid.faces)], starts, axis=0) / sizes[:, None]


def soften(mask: np.ndarray, sigma: float) -> np.ndarray:
    """A drawn mask (u8) blurred by ``sigma`` px, as 0..1; a wide blur is done at half size
    (the same to the eye, a quarter of the work)."""
    m = mask.astype(np.float32) * (1 / 255)
    if sigma < 2.0:
        return cv2.GaussianBlur(m, (0, 0), max(0.5, sigma))
    h, w = mask.shape
    small = cv2.resize(m, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 2), (w, h), interpolation=cv2.INTER_LINEAR)
