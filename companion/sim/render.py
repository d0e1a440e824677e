"""A seeded renderer of the output tray seen from above: the camera of the simulated table.

It draws the 36 miniature drinks lying on their sides at any angle on a textured tray
(light or dark plastic), with cylindrical shading for cans and round bottles, flat facets
for the square bottle, rim grooves, a shoulder, neck and cap for bottles, specular
highlights, soft shadows, a slightly tilted camera (perspective), vignetting, sensor noise,
lighting drift, and optionally JPEG compression and motion blur. A look of the evaluation
family (``looks.FAMILIES``) adds coloured lamps and a second lamp, a view-dependent (Fresnel)
sheen, flat faces that can turn to the lamp and shine, wood and felt trays, harder or softer
shadows, a shadow band across the tray and a bent camera shake; a dev look is drawn exactly as
before those were added.

Real miniatures differ from the nominal catalogue in ../shared/drinks.md, so every
:class:`Look` (one physical set on one table under one camera) draws its own colours and
sizes around the nominal ones. Identification must learn them from calibration photos.

>>> look = Look.from_seed(3)
>>> r = Renderer(look)
>>> img, truth = r.render([Placement("red-tall_can", 0.0, 0.0, 30.0)], rng=np.random.default_rng(1))
>>> img.shape, truth[0]["id"]
((720, 1280, 3), 'red-tall_can')
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from . import tray_surface
from .blur import camera_arc, camera_shake, sprite_motion
from .drink_sprite import sprite
from .looks import FAMILIES, Hand, Lighting, Look, Placement, linear_to_srgb_u8, srgb_to_linear
from .tray_hand import draw_hand

# --- the renderer ----------------------------------------------------------------------------

FOCAL_PX = 1400.0        # the simulated camera's focal length, px: with a look's scale, its height


class Renderer:
    """Renders frames of one :class:`Look`. Geometry and the empty tray are computed once."""

    SS = 2  # supersampling of drink sprites

    def __init__(self, look: Look, paper: np.ndarray | None = None, paper_mm: tuple[float, float] = (297.0, 210.0),
                 stickers: tuple = ()):
        """``paper``: a printed page (greyscale, e.g. the calibration mat) lying on a table instead
        of the tray, centred in view; ``stickers``: (greyscale image, x mm, y mm, side mm) printed
        squares lying in the tray (the tray marker)."""
        self.look = look
        self.paper, self.paper_mm, self.stickers = paper, paper_mm, tuple(stickers)
        w, h = look.image_size
        self.H = self._camera_homography()            # tray mm -> image px
        self.camera_at = self._camera_position()       # tray mm, z up (the eval family's view-dependent gloss)
        self.Hinv = np.linalg.inv(self.H)
        corners = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), self.Hinv)[0]
        lo, hi = corners.min(0) - 2, corners.max(0) + 2
        self.cppm = look.px_per_mm * 1.15                # canvas px per mm
        self.origin = lo                                  # mm at canvas (0, 0)
        self.canvas_size = (int(math.ceil((hi[0] - lo[0]) * self.cppm)), int(math.ceil((hi[1] - lo[1]) * self.cppm)))
        S = np.array([[self.cppm, 0, -lo[0] * self.cppm], [0, self.cppm, -lo[1] * self.cppm], [0, 0, 1]])
        self.canvas_to_image = self.H @ np.linalg.inv(S)
        # The visible half-extent (mm), rounded to a nanometre: the inverse above comes from LAPACK,
        # whose kernels differ from one kind of CPU to another in the last bits, and every scene is
        # drawn within these bounds (a drink's place scales with them), so unrounded, the same seed
        # placed its drinks a few ulps apart on an Intel and an AMD machine.
        self.mm_half = tuple(round(float(abs(corners[:, i]).min()), 6) for i in (0, 1))
        self.tray = self._tray()                          # linear BGR albedo on the canvas
        self.vignette = self._vignette()
        self._sprite_cache: dict = {}

    # geometry
    def _rotation(self) -> np.ndarray:
        """The camera's rotation: the look's roll after its two tilts."""
        ax, ay, az = (math.radians(v) for v in (*self.look.tilt, self.look.roll))
        Rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
        Ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
        Rz = np.array([[math.cos(az), -math.sin(az), 0], [math.sin(az), math.cos(az), 0], [0, 0, 1]])
        return Rz @ Ry @ Rx

    def _camera_homography(self) -> np.ndarray:
        lk = self.look
        w, h = lk.image_size
        f = FOCAL_PX
        dist = f / lk.px_per_mm                           # camera height, mm, for that scale
        R = self._rotation()
        t = np.array([0, 0, dist])
        K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
        # a point (X, Y, 0) on the tray, seen by a camera rotated by R around the tray centre
        H = K @ np.column_stack([R[:, 0], R[:, 1], t])
        return H / H[2, 2]

    def _camera_position(self) -> np.ndarray:
        """Where the camera is, in tray mm with z up: its centre -R^T t, with the world's z
        (away from the camera) turned round."""
        lk = self.look
        dist = FOCAL_PX / lk.px_per_mm
        c = -self._rotation().T @ np.array([0, 0, dist])
        return np.array([c[0], c[1], -c[2]])

    def to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        p = np.asarray(pts_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, self.H).reshape(-1, 2)

    def _to_canvas(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm - self.origin[0]) * self.cppm, (y_mm - self.origin[1]) * self.cppm

    # the empty tray
    def _tray(self) -> np.ndarray:
        lk, (cw, ch) = self.look, self.canvas_size
        rng = np.random.default_rng([lk.seed, 7002])
        tex = lk.texture
        albedo = np.empty((ch, cw, 3), np.float32)
        albedo[:] = np.array(lk.tray_rgb[::-1], np.float32)
        grain = rng.normal(0, 1, (ch, cw)).astype(np.float32)
        grain = cv2.GaussianBlur(grain, (0, 0), 0.8) * 1.6
        coarse = cv2.resize(rng.normal(0, 1, (ch // 24 + 2, cw // 24 + 2)).astype(np.float32), (cw, ch),
                            interpolation=cv2.INTER_CUBIC)
        yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32) / self.cppm
        a = math.radians(tex["rib_angle"])
        ribs = np.sin((xx * math.cos(a) + yy * math.sin(a)) * 2 * math.pi / tex["rib_period"])
        mod = 1 + tex["grain"] * grain + 0.03 * coarse + tex["rib_amp"] * ribs
        surface = tex.get("surface", "plastic")
        if surface == "wood":
            mod = tray_surface.wood(rng, xx, yy, grain, coarse, tex, self.cppm)
        elif surface == "felt":
            mod = tray_surface.felt(rng, xx, yy, coarse, tex)
        for _ in range(tex["scratches"]):
            p0 = (int(rng.integers(0, cw)), int(rng.integers(0, ch)))
            ang, ln = rng.uniform(0, 2 * math.pi), rng.uniform(10, 60) * self.cppm
            p1 = (int(p0[0] + ln * math.cos(ang)), int(p0[1] + ln * math.sin(ang)))
            cv2.line(mod, p0, p1, float(1 + rng.choice([-1, 1]) * rng.uniform(0.06, 0.15)), 1, cv2.LINE_AA)
        albedo *= mod[..., None]
        paper_lin = 0.80  # white paper, linear albedo; the ink and greys follow the page values
        if self.paper is not None:
            page = self.paper.astype(np.float32) / 255.0
            ph, pw = page.shape[:2]
            # page mm (0..W, 0..H) centred on the view -> canvas px
            sx = self.paper_mm[0] / pw * self.cppm
            x0, y0 = self._to_canvas(-self.paper_mm[0] / 2, -self.paper_mm[1] / 2)
            M = np.float32([[sx, 0, x0], [0, sx, y0]])
            lin = srgb_to_linear(page * 255.0).astype(np.float32) * (paper_lin / 0.9)
            warped = cv2.warpAffine(lin, M, (cw, ch), flags=cv2.INTER_AREA, borderValue=-1)
            inside = cv2.warpAffine(np.ones_like(lin), M, (cw, ch), flags=cv2.INTER_LINEAR)
            wood = np.array([0.05, 0.09, 0.16], np.float32) * (1 + 0.15 * coarse[..., None] + 0.05 * ribs[..., None])
            paper3 = np.repeat(np.clip(warped, 0, None)[..., None], 3, axis=2) * (1 + 0.01 * grain[..., None])
            a = np.clip(inside, 0, 1)[..., None]
            albedo = paper3 * a + wood * (1 - a)
        for img, sx_mm, sy_mm, side in self.stickers:
            g = srgb_to_linear(img.astype(np.float32)).astype(np.float32) * (paper_lin / 0.9)
            n = int(round(side * self.cppm))
            cx, cy = self._to_canvas(sx_mm, sy_mm)
            g = cv2.resize(g, (n, n), interpolation=cv2.INTER_AREA)
            x0, y0 = int(round(cx)), int(round(cy))
            sub = albedo[y0:y0 + n, x0:x0 + n]
            sub[:] = g[:sub.shape[0], :sub.shape[1], None]
        return albedo

    def _vignette(self) -> np.ndarray:
        w, h = self.look.image_size
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w / 2) ** 2
        v = 1.0 - 0.18 * r2 if self.look.shading is None else 1.0 - self.look.shading.vignette * r2
        # the tray's walls darken the frame's border
        edge = np.minimum.reduce([xx, yy, w - 1 - xx, h - 1 - yy])
        v *= 1.0 - 0.25 * np.exp(-edge / 18.0)
        # kept per channel: a frame times a (h, w, 3) array is a plain product, where times
        # (h, w, 1) numpy loops over the channels one by one (twice the time; the same numbers)
        return np.repeat(v[..., None].astype(np.float32), 3, axis=2)

    # drinks
    def _sprite(self, p: Placement):
        """Linear BGR colour, alpha, shadow-caster alpha of one drink on a canvas-aligned patch
        (``drink_sprite.py``)."""
        return sprite(self, p)

    def _paste(self, canvas, x0, y0, img, alpha=None, mode="over"):
        ch, cw = canvas.shape[:2]
        h, w = img.shape[:2]
        ax0, ay0 = max(x0, 0), max(y0, 0)
        ax1, ay1 = min(x0 + w, cw), min(y0 + h, ch)
        if ax1 <= ax0 or ay1 <= ay0:
            return
        sub = img[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0]
        dst = canvas[ay0:ay1, ax0:ax1]
        if mode == "over":
            a = alpha[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0]
            if dst.ndim == 3:
                a = a[..., None]
            dst *= (1 - a)
            dst += sub  # premultiplied
        elif mode == "mul":
            dst *= sub if sub.ndim == dst.ndim else sub[..., None]

    def draws(self, rng: np.random.Generator, *, noise: float = 1.0, motion_blur: float = 0.0):
        """Everything a frame takes from ``rng``, in order: the camera shake's direction (with
        motion blur) and the sensor noise (with noise). Drawn before the frame is built, so that
        a caller can move ``rng`` past a frame without building it (``scenes.skip_sample``)."""
        shake = float(rng.uniform(0, math.pi)) if motion_blur > 0 else None
        if shake is not None and FAMILIES[self.look.family].shake == "arc":   # its bend and where it stops
            shake = (shake, float(rng.uniform(-1, 1)), float(rng.uniform(0.2, 0.8)))
        w, h = self.look.image_size
        grain = rng.normal(0, 1, (h, w, 3)).astype(np.float32) if noise > 0 else None
        return shake, grain

    def render(self, placements: list[Placement], lighting: Lighting | None = None, *,
               rng: np.random.Generator, hand: Hand | None = None, noise: float = 1.0,
               jpeg_quality: int | None = None, motion_blur: float = 0.0,
               with_masks: bool = False):
        """One frame: BGR uint8 image and the ground truth of each drink (image px)."""
        lk = self.look
        lighting = lighting or Lighting()
        shake, grain = self.draws(rng, noise=noise, motion_blur=motion_blur)
        canvas = self.tray.copy()
        shadow = np.ones(canvas.shape[:2], np.float32)
        sprites = []
        for p in placements:
            key = ("sprite", p.drink, p.x, p.y, p.angle, p.z, p.spin, p.blur)
            hit = self._sprite_cache.get(key)
            if hit is None:
                x0, y0, col, alpha, dims = self._sprite(p)
                if p.blur != (0.0, 0.0):
                    col, alpha = sprite_motion(col, alpha, p.blur[0] * self.cppm, p.blur[1] * self.cppm)
                hit = (x0, y0, col, alpha, dims)
                if len(self._sprite_cache) > 96:
                    self._sprite_cache.clear()
                self._sprite_cache[key] = hit
            x0, y0, col, alpha, dims = hit
            sprites.append((p, x0, y0, col, alpha, dims))
        # shadows first: a soft contact shade and a softer cast shadow away from the light
        if lk.shading is None:
            lx, ly, lz = lk.light_dir
            reach = _Reach(canvas.shape[:2])
            for p, x0, y0, col, alpha, (L, W) in sprites:
                hgt = W / 2 + p.z
                off = (-lx / lz * hgt * 0.9 * self.cppm, -ly / lz * hgt * 0.9 * self.cppm)
                pad = int(4 * self.cppm) + int(abs(off[0]) + abs(off[1]))
                a = cv2.copyMakeBorder(alpha, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
                M = np.float32([[1, 0, off[0]], [0, 1, off[1]]])
                cast = cv2.warpAffine(a, M, (a.shape[1], a.shape[0]))
                cast = cv2.GaussianBlur(cast, (0, 0), (1.2 + 0.4 * p.z) * self.cppm)
                contact = cv2.GaussianBlur(a, (0, 0), 0.6 * self.cppm) if p.z < 1 else 0 * a
                dark = 1 - (0.38 / (1 + 0.1 * p.z)) * cast - 0.22 * contact
                self._paste(shadow, x0 - pad, y0 - pad, np.clip(dark, 0.2, 1), mode="mul")
                reach.add(x0 - pad, y0 - pad, dark.shape)
            part = reach.part()
            if part is not None:         # elsewhere the shadow is 1: the canvas as it is
                canvas[part] *= shadow[part][..., None]
        else:
            self._light_eval(canvas, sprites)
        for p, x0, y0, col, alpha, dims in sprites:
            self._paste(canvas, x0, y0, col, alpha)
        if hand is not None:
            draw_hand(canvas, hand, self._to_canvas, self.cppm)
        w, h = lk.image_size
        img = cv2.warpPerspective(canvas, self.canvas_to_image, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        # light: intensity, tint, gradient, a soft shade, vignetting
        field_ = self._light_field(lighting)
        img *= field_
        img *= self.vignette
        exposure = 0.86  # set so that a white drink in full light does not clip
        img *= exposure
        if isinstance(shake, tuple):
            img = camera_arc(img, motion_blur, *shake)
        elif shake is not None:
            img = camera_shake(img, motion_blur, shake)
        out = linear_to_srgb_u8(img)
        if grain is not None:        # in place: the same float32 steps as noise * (1.6 + 0.012 * out), a third of the time
            noisy = out.astype(np.float32)
            noisy *= np.float32(0.012)
            noisy += np.float32(1.6)
            noisy *= np.float32(noise)
            if lk.shading is not None:
                noisy *= np.float32(lk.shading.noise)
            noisy *= grain
            noisy += out
            np.clip(noisy, 0, 255, out=noisy)
            out = noisy.astype(np.uint8)
        if jpeg_quality:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        truth = []
        for p, x0, y0, col, alpha, (L, W) in sprites:
            th = math.radians(p.angle)
            ax, ay = math.cos(th), math.sin(th)
            box = np.array([[p.x + sx * L / 2 * ax - sy * W / 2 * ay, p.y + sx * L / 2 * ay + sy * W / 2 * ax]
                            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
            # centroid of the silhouette (the bottle's neck moves it towards the body)
            ys, xs = np.nonzero(alpha > 0.5)
            if len(xs):
                cxm = self.origin[0] + (x0 + xs.mean() + 0.5) / self.cppm
                cym = self.origin[1] + (y0 + ys.mean() + 0.5) / self.cppm
            else:
                cxm, cym = p.x, p.y
            c_img = self.to_image(np.array([[cxm, cym]]))[0]
            item = {"id": p.drink, "x": float(c_img[0]), "y": float(c_img[1]), "angle": p.angle,
                    "box": self.to_image(box).round(1).tolist()}
            if with_masks:
                m = np.zeros(canvas.shape[:2], np.float32)
                self._paste(m, x0, y0, alpha, alpha)
                item["mask"] = cv2.warpPerspective(m, self.canvas_to_image, (w, h)) > 0.5
            truth.append(item)
        return out, truth

    def _shadows_eval(self, sprites, shape) -> tuple[np.ndarray, tuple | None]:
        """The light on an eval tray (BGR): the room's, the main lamp's and the second lamp's,
        each lamp blocked by every drink's cast shadow (as hard or soft as the table's), all of
        it by the contact shade under the drinks. A shadow keeps the colour of the light that
        still reaches it, which is not the main lamp's."""
        lk, sh, c = self.look, self.look.shading, self.cppm
        maps = [np.ones(shape, np.float32) for _ in range(3)]   # main lamp, second lamp, contact
        reach = _Reach(shape)
        for p, x0, y0, col, alpha, (L, W) in sprites:
            hgt = W / 2 + p.z
            for (lx, ly, lz), soft, m in ((lk.light_dir, 1.0, maps[0]), (sh.fill_dir, 1.6, maps[1])):
                off = (-lx / lz * hgt * 0.9 * c, -ly / lz * hgt * 0.9 * c)
                sigma = (1.2 + 0.4 * p.z) * sh.shadow_blur * soft
                pad = int((3 + 3 * sigma) * c) + int(abs(off[0]) + abs(off[1]))
                a = cv2.copyMakeBorder(alpha, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
                M = np.float32([[1, 0, off[0]], [0, 1, off[1]]])
                cast = cv2.GaussianBlur(cv2.warpAffine(a, M, (a.shape[1], a.shape[0])), (0, 0), sigma * c)
                self._paste(m, x0 - pad, y0 - pad, np.clip(1 - sh.shadow_depth / (1 + 0.1 * p.z) * cast, 0, 1),
                            mode="mul")
                reach.add(x0 - pad, y0 - pad, cast.shape)
            if p.z < 1:
                pad = int(3 * c)
                a = cv2.copyMakeBorder(alpha, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
                contact = cv2.GaussianBlur(a, (0, 0), 0.6 * c)
                self._paste(maps[2], x0 - pad, y0 - pad, np.clip(1 - 0.3 * contact, 0, 1), mode="mul")
                reach.add(x0 - pad, y0 - pad, contact.shape)
        return maps, reach.part()

    def _light_eval(self, canvas: np.ndarray, sprites) -> None:
        """The canvas of an eval tray times its light (``_shadows_eval``). Where no shadow
        reaches, every map is 1 and the light is the same in each pixel: the canvas is multiplied
        by that colour, and the light is worked out pixel by pixel only in the part the shadows
        reach, channel by channel (the same float32 products, a third of the time)."""
        lk, sh = self.look, self.look.shading
        maps, part = self._shadows_eval(sprites, canvas.shape[:2])
        room = np.float32(sh.ambient) * np.array(sh.ambient_bgr, np.float32)
        key = np.float32(0.85 * lk.light_dir[2]) * np.array(sh.key_bgr, np.float32)
        fill = np.float32(sh.fill * sh.fill_dir[2]) * np.array(sh.fill_bgr, np.float32)
        one = np.float32(1)
        unshaded = (room + one * key + one * fill) * one
        shaded = canvas[part].copy() if part is not None else None
        canvas *= unshaded
        if part is None:
            return
        main, second, contact = (m[part] for m in maps)
        for c in range(3):
            shaded[..., c] *= (room[c] + main * key[c] + second * fill[c]) * contact
        canvas[part] = shaded

    def _band(self, band) -> np.ndarray:
        """A person's shadow across the tray (eval drift), as a gain per pixel and channel: it
        blocks a share of the main lamp, so the band takes the colour of the rest of the light."""
        w, h = self.look.image_size
        ang, offset, half, soft, depth = band
        gx, gy = np.meshgrid(np.linspace(0, w, 161), np.linspace(0, h, 91))
        mm = cv2.perspectiveTransform(np.stack([gx, gy], -1).reshape(-1, 1, 2), self.Hinv).reshape(91, 161, 2)
        a = math.radians(ang)
        across = -mm[..., 0] * math.sin(a) + mm[..., 1] * math.cos(a) - offset
        t = np.clip((half - np.abs(across)) / soft + 0.5, 0, 1)
        inside = t * t * (3 - 2 * t)
        lk, sh = self.look, self.look.shading
        if sh is None:
            share = np.full(3, 0.85 * lk.light_dir[2] / (0.25 + 0.85 * lk.light_dir[2]))
        else:
            share = 0.85 * lk.light_dir[2] * np.array(sh.key_bgr) / sh.tray_light(lk.light_dir)
        gain = 1 - depth * inside[..., None] * share
        return cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)

    def _light_field(self, lt: Lighting) -> np.ndarray:
        w, h = self.look.image_size
        key = ("field", lt.gain, lt.tint, lt.gradient, lt.shade, lt.band)
        cached = self._sprite_cache.get(key)
        if cached is not None:
            return cached
        xs = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :]
        ys = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None]
        f = lt.gain * (1 + lt.gradient[0] * xs + lt.gradient[1] * ys)
        if lt.shade is not None:
            sx, sy, sr, depth = lt.shade
            c = self.to_image(np.array([[sx, sy]]))[0]
            rr = sr * self.look.px_per_mm
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            f = f * (1 - depth * np.exp(-(((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * rr * rr))))
        tint = np.array(lt.tint, np.float32)
        if f.dtype == np.float32:    # channel by channel: the same products as f[..., None] * tint, faster
            field_ = np.empty((h, w, 3), np.float32)
            for c in range(3):
                np.multiply(f, tint[c], out=field_[..., c])
        else:                        # a shade makes f float64: the products kept in float64 until the end
            field_ = f[..., None] * tint
        if lt.band is not None:
            field_ = field_ * self._band(lt.band)
        if len(self._sprite_cache) > 64:
            self._sprite_cache.clear()
        self._sprite_cache[key] = field_.astype(np.float32, copy=False)
        return self._sprite_cache[key]


class _Reach:
    """The rectangle of a canvas that pasted patches cover (clipped to it): where a shadow map
    can differ from 1. Multiplying by 1 changes nothing, so the canvas outside it is left alone."""

    def __init__(self, shape: tuple[int, int]):
        self.shape = shape
        self.box: list[int] | None = None     # x0, y0, x1, y1

    def add(self, x0: int, y0: int, size: tuple) -> None:
        h, w = size[:2]
        box = [max(x0, 0), max(y0, 0), min(x0 + w, self.shape[1]), min(y0 + h, self.shape[0])]
        if box[2] <= box[0] or box[3] <= box[1]:
            return
        if self.box is None:
            self.box = box
        else:
            self.box = [min(self.box[0], box[0]), min(self.box[1], box[1]),
                        max(self.box[2], box[2]), max(self.box[3], box[3])]

    def part(self) -> tuple[slice, slice] | None:
        """The rows and columns covered (None: nothing)."""
        if self.box is None:
            return None
        x0, y0, x1, y1 = self.box
        return slice(y0, y1), slice(x0, x1)


if __name__ == "__main__":  # python -m companion.sim.render calibration
    import sys
    from pathlib import Path

    from .scenes import make_calibration_folder

    make_calibration_folder(Path(sys.argv[1] if len(sys.argv) > 1 else "calibration"))
