"""One drink of the simulated tray (``render.Renderer``) drawn lying on its side: its outline
(a can's rounded rims, a bottle's body, shoulder, neck and cap), the surface normals, and its
colour under the look's light -- the dev look's lamp, or the eval look's lamps with their
Fresnel sheen and a square bottle's face that can turn to the lamp and shine -- as a
supersampled, canvas-aligned patch with its alpha.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from ..drinks import Drink
from .looks import BOTTLE_PROFILE, Placement


def sprite(renderer, p: Placement):
    """Linear BGR colour, alpha, shadow-caster alpha of one drink on a canvas-aligned patch."""
    lk = renderer.look
    drink = Drink.parse(p.drink)
    shape, colour = drink.shape.value, drink.colour.value
    L, W = lk.sizes[shape]
    R = W / 2
    ss = renderer.SS
    ppm = renderer.cppm * ss
    half = math.hypot(L, W) / 2 + 1.0
    n = int(math.ceil(2 * half * ppm))
    cx, cy = renderer._to_canvas(p.x, p.y)
    # patch on the canvas (integer origin) at supersampled resolution
    x0, y0 = int(math.floor(cx - half * renderer.cppm)), int(math.floor(cy - half * renderer.cppm))
    n_c = int(math.ceil(2 * half * renderer.cppm)) + 2
    n = n_c * ss
    g = (np.arange(n, dtype=np.float32) + 0.5) / ss
    gx, gy = np.meshgrid(g + x0, g + y0)
    dx, dy = (gx - cx) / renderer.cppm, (gy - cy) / renderer.cppm   # mm from the drink centre
    th = math.radians(p.angle)
    ct, st = math.cos(th), math.sin(th)
    u = dx * ct + dy * st + L / 2     # 0 at the base, L at the top
    v = -dx * st + dy * ct            # across
    # outline: half-width along the length
    if shape.endswith("can"):
        r = np.full_like(u, R)
        cr = 0.9                                            # rounded rim edge (mm)
        end = np.minimum(u, L - u)
        rr = np.where(end < cr, R - cr + np.sqrt(np.clip(cr ** 2 - (cr - end) ** 2, 0, None)), R)
        r = np.where((u >= 0) & (u <= L), rr, -1)
        dr = np.zeros_like(u)
    else:
        body, shoulder, neck, rn, rc = BOTTLE_PROFILE[shape]
        b, s_, k = body * L, shoulder * L, neck * L
        t = np.clip((u - b) / (s_ - b), 0, 1)
        sm = t * t * (3 - 2 * t)
        r = np.where(u < b, R, R + (rn * R - R) * sm)
        dr = np.where((u >= b) & (u < s_), (rn * R - R) * 6 * t * (1 - t) / (s_ - b), 0)
        r = np.where(u >= s_, rn * R, r)
        r = np.where(u >= k, rc * R, r)
        dr = np.where(u >= s_, 0, dr)
        base_cr = 0.5 if shape == "square_bottle" else 1.4
        rr = np.where(u < base_cr, R - base_cr + np.sqrt(np.clip(base_cr ** 2 - (base_cr - u) ** 2, 0, None)), r)
        capr = 0.5
        tu = L - u
        rr = np.where(tu < capr, rc * R - capr + np.sqrt(np.clip(capr ** 2 - (capr - tu) ** 2, 0, None)), rr)
        r = np.where((u >= 0) & (u <= L), rr, -1)
    inside = (np.abs(v) <= r) & (r > 0)
    # The rest is shaded on the drink's own pixels only (a third to a half of the patch, which
    # is the square round the drink at any angle): every step is per pixel, so the result is the
    # same to the bit, in about half the time (benchmarks/tray_render.py).
    n_full = u.shape
    u, v, r, dr = u[inside], v[inside], r[inside], dr[inside]
    # surface normal in the drink's frame (nu along, nv across, nz up)
    rs = np.maximum(r, 1e-3)
    q = np.clip(v / rs, -1, 1)
    spin = math.radians(p.spin)
    facet = shape == "square_bottle"
    if facet:
        body_end = BOTTLE_PROFILE[shape][0] * L
        in_body = u < body_end + 0.3
        # a square section resting on a face; spin tilts it a little (it rocks on its face)
        if lk.shading is None:
            tilt = max(-lk.face_tilt, min(lk.face_tilt, spin / 10.0))
        else:   # eval: the face turns anywhere within face_tilt as the bottle rocks
            tilt = lk.face_tilt * max(-1.0, min(1.0, p.spin / 40.0))
        bevel = 0.45
        edge_d = rs - np.abs(v)
        nv_f = np.where(edge_d < bevel, np.sign(v) * 0.75, math.sin(tilt))
        nz_f = np.where(edge_d < bevel, 0.66, math.cos(tilt))
        nv = np.where(in_body, nv_f, q)
        nz = np.where(in_body, nz_f, np.sqrt(1 - q * q))
    else:
        nv, nz = q, np.sqrt(np.clip(1 - q * q, 0, 1))
    nu = -dr * nz
    # the rounded base, rim and cap edges face outwards along the length
    end_r = 0.9
    nu = nu - np.clip(1 - u / end_r, 0, 1) * 0.9 + np.clip(1 - (L - u) / end_r, 0, 1) * 0.9
    nrm = np.sqrt(nu * nu + nv * nv + nz * nz) + 1e-6
    nu, nv, nz = nu / nrm, nv / nrm, nz / nrm
    # to world (x, y, z): u axis is (ct, st), v axis is (-st, ct)
    wx = nu * ct - nv * st
    wy = nu * st + nv * ct
    if lk.shading is None:
        lx, ly, lz = lk.light_dir
        diff = np.clip(wx * lx + wy * ly + nz * lz, 0, None)
        hx, hy, hz = lx, ly, lz + 1.0
        hn = math.sqrt(hx * hx + hy * hy + hz * hz)
        nh = np.clip((wx * hx + wy * hy + nz * hz) / hn, 0, None)
        albedo = lk.colours[colour].astype(np.float32)
        amb = 0.25 * (0.55 + 0.45 * nz)
        shade = (amb + 0.85 * diff)[..., None] * albedo
        spec = lk.gloss[colour] * (nh ** 80 * 0.8 + nh ** 8 * 0.05)
        if facet:
            # a flat face mirrors the lamp as a patch (the lamp is not infinitely far), not as a
            # uniform sheen: a glare spot whose place depends on how the bottle lies
            face = in_body & (edge_d >= bevel)
            rs_ = np.random.default_rng(int(abs(p.spin) * 1000) + 17)
            u0 = BOTTLE_PROFILE[shape][0] * L * rs_.uniform(0.2, 0.8)
            v0 = rs_.uniform(-0.3, 0.3) * W
            glare = np.exp(-((u - u0) ** 2 + (v - v0) ** 2) / (2 * 2.2 ** 2)) * rs_.uniform(0.2, 0.7)
            spec = np.where(face, lk.gloss[colour] * (glare + nh ** 8 * 0.05), spec)
        col = shade + spec[..., None] * np.float32(0.9)
    else:
        face = (in_body & (edge_d >= bevel)) if facet else None
        col = _shade_eval(renderer, p, colour, wx, wy, nz, face)
    # rim grooves of cans, cap ridges and the neck ring of bottles: darker lines across
    groove = np.ones_like(u)
    if shape.endswith("can"):
        d = min(1.3, L * 0.09)
        for pos in (d, L - d):
            groove -= 0.45 * np.exp(-((u - pos) / 0.22) ** 2)
    else:
        k = BOTTLE_PROFILE[shape][2] * L
        groove -= 0.35 * np.exp(-((u - k) / 0.2) ** 2)
        ridges = (u > k) & (np.sin((v + 20) * 2 * math.pi / 0.7) > 0.6)
        groove -= 0.12 * ridges
    col = col * groove[..., None]
    shaded = np.zeros(n_full + (3,), col.dtype)
    shaded[inside] = col
    col = shaded
    alpha = inside.astype(np.float32)
    col = cv2.resize(col, (n_c, n_c), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (n_c, n_c), interpolation=cv2.INTER_AREA)
    return x0, y0, col, alpha, (L, W)

def _shade_eval(renderer, p: Placement, colour: str, wx, wy, nz, face) -> np.ndarray:
    """An eval drink's colour (linear BGR) at each normal (wx, wy, nz): the room's light, the
    main and the second lamp (Lambert), their highlights (Blinn-Phong, stronger towards
    grazing angles as Schlick's Fresnel term has it), and the room mirrored in the plastic
    where the surface turns away from the camera. A square bottle's flat face (``face``)
    has one normal, so when it turns to a lamp the whole face shines."""
    lk, sh = renderer.look, renderer.look.shading
    view = renderer.camera_at - np.array([p.x, p.y, 0.0])
    vx, vy, vz = view / np.linalg.norm(view)
    f0, e = sh.fresnel, sh.highlight
    albedo = lk.colours[colour].astype(np.float32)
    amb = sh.ambient * (0.55 + 0.45 * nz)
    col = amb[..., None] * np.array(sh.ambient_bgr, np.float32)
    spec = np.zeros_like(col)
    for (lx, ly, lz), strength, rgb in ((lk.light_dir, 0.85, sh.key_bgr), (sh.fill_dir, sh.fill, sh.fill_bgr)):
        rgb = np.array(rgb, np.float32)
        diff = np.clip(wx * lx + wy * ly + nz * lz, 0, None)
        col += (strength * diff)[..., None] * rgb
        hx, hy, hz = lx + vx, ly + vy, lz + vz
        hn = math.sqrt(hx * hx + hy * hy + hz * hz)
        nh = np.clip((wx * hx + wy * hy + nz * hz) / hn, 0, None)
        vh = (lx * vx + ly * vy + lz * vz + 1.0) / hn
        fres = (f0 + (1 - f0) * (1 - vh) ** 5) / f0
        lobe = (nh ** e * 0.8 + nh ** 8 * 0.05) * (strength / 0.85) * fres
        if face is not None:
            lobe = np.where(face, lobe * 1.5, lobe)
        spec += lobe[..., None] * rgb
    col *= albedo
    ndv = np.clip(wx * vx + wy * vy + nz * vz, 0, 1)
    room = sh.reflection * (f0 + (1 - f0) * (1 - ndv) ** 5)
    col += (lk.gloss[colour] * spec + room[..., None] * np.array(sh.ambient_bgr, np.float32)) * np.float32(0.9)
    return col.astype(np.float32)
