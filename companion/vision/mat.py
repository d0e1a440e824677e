"""The printable calibration mat: ArUco markers, 36 labelled grey spots, a tray marker.

Print it on A4 (landscape, 100 % scale, no "fit to page"). Lay each drink on its spot
(colour rows, shape columns, the drink along the spot) and take one photo of the whole mat
from above: ``companion calibrate drinks --mat PHOTO --out PROFILE.json``. Cut out the
small tray marker at the bottom and leave it in a corner of the tray: in the photo of the
empty tray it gives the tray's scale (mm per pixel) and its grey is the colour reference.

The PDF is written here directly (one page, the mat as a lossless greyscale image), so no
PDF library is needed; :func:`read_pdf_image` reads it back.
"""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..drinks import COLOURS, SHAPES, Drink

PAGE_MM = (297.0, 210.0)
DPI = 300
DICT = cv2.aruco.DICT_4X4_50
MARKER_MM = 20.0
# top-left corner of each page marker (mm)
MARKERS = {0: (6.0, 5.0), 1: (271.0, 5.0), 2: (271.0, 185.0), 3: (6.0, 185.0)}
TRAY_MARKER_ID = 4
TRAY_MARKER_MM = 16.0
TRAY_BOX = (136.5, 181.0, 24.0)          # x, y, side (mm): the cut-out square, grey frame around the marker
GREY = 140                               # spot and frame grey (0-255 on the page)
SPOT_MM = (40.0, 16.0)
COL_X0, COL_PITCH = 33.0, 42.5
ROW_Y0, ROW_PITCH = 30.0, 25.0


def spot_centre(drink: str) -> tuple[float, float]:
    d = Drink.parse(drink)
    i, j = list(COLOURS).index(d.colour), list(SHAPES).index(d.shape)
    return COL_X0 + COL_PITCH * (j + 0.5), ROW_Y0 + ROW_PITCH * i + 14.0


def marker_corners_mm(marker_id: int) -> np.ndarray:
    """The 4 corners (TL, TR, BR, BL) of a page marker in mat millimetres."""
    if marker_id == TRAY_MARKER_ID:
        x, y, side = TRAY_BOX
        o = (side - TRAY_MARKER_MM) / 2
        x, y, s = x + o, y + o, TRAY_MARKER_MM
    else:
        (x, y), s = MARKERS[marker_id], MARKER_MM
    return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32)


def render_mat(dpi: int = DPI) -> np.ndarray:
    """The mat as a greyscale page image (white paper = 255)."""
    ppm = dpi / 25.4
    w, h = int(round(PAGE_MM[0] * ppm)), int(round(PAGE_MM[1] * ppm))
    page = np.full((h, w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICT)

    def px(v):
        return int(round(v * ppm))

    def put_marker(mid):
        c = marker_corners_mm(mid)
        x0, y0 = px(c[0, 0]), px(c[0, 1])
        side = px(c[1, 0]) - x0
        page[y0:y0 + side, x0:x0 + side] = cv2.aruco.generateImageMarker(dictionary, mid, side)

    for mid in MARKERS:
        put_marker(mid)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = ppm / 12.0

    def text(s, x_mm, y_mm, size=1.0, centre=True, thick=1):
        fs = scale * size
        t = max(1, int(round(ppm * 0.25 * thick)))
        (tw, th), _ = cv2.getTextSize(s, font, fs, t)
        x = px(x_mm) - (tw // 2 if centre else 0)
        cv2.putText(page, s, (x, px(y_mm) + th // 2), font, fs, 0, t, cv2.LINE_AA)

    for j, shape in enumerate(SHAPES):
        text(shape.value.replace("_", " "), COL_X0 + COL_PITCH * (j + 0.5), 27.5, 0.9, thick=1.2)
    for i, colour in enumerate(COLOURS):
        text(colour.value, 18.0, ROW_Y0 + ROW_PITCH * i + 14.0, 0.95, thick=1.2)
        for j, shape in enumerate(SHAPES):
            cx, cy = COL_X0 + COL_PITCH * (j + 0.5), ROW_Y0 + ROW_PITCH * i + 14.0
            cv2.rectangle(page, (px(cx - SPOT_MM[0] / 2), px(cy - SPOT_MM[1] / 2)),
                          (px(cx + SPOT_MM[0] / 2), px(cy + SPOT_MM[1] / 2)), GREY, -1)
            text(f"{colour.value} {shape.value.replace('_', ' ')}", cx, cy - SPOT_MM[1] / 2 - 2.2, 0.55)
    # the cut-out tray marker: grey frame, marker, dashed cut line
    x, y, side = TRAY_BOX
    cv2.rectangle(page, (px(x), px(y)), (px(x + side), px(y + side)), GREY, -1)
    c = marker_corners_mm(TRAY_MARKER_ID)
    q = 1.5  # white quiet zone around the tray marker
    cv2.rectangle(page, (px(c[0, 0] - q), px(c[0, 1] - q)), (px(c[2, 0] + q), px(c[2, 1] + q)), 255, -1)
    put_marker(TRAY_MARKER_ID)
    for k in range(0, int(side * 2), 2):   # dashes along the cut line
        for (ax, ay, bx, by) in ((x + k / 2, y, x + k / 2 + 0.6, y), (x + k / 2, y + side, x + k / 2 + 0.6, y + side),
                                 (x, y + k / 2, x, y + k / 2 + 0.6), (x + side, y + k / 2, x + side, y + k / 2 + 0.6)):
            if k / 2 < side:
                cv2.line(page, (px(ax), px(ay)), (px(bx), px(by)), 0, max(1, int(ppm * 0.2)))
    text("tray marker: cut out, leave in the tray", x + side + 2, y + side / 2, 0.5, centre=False)
    text("Tokyo Table Companion calibration mat - print on A4 at 100 %, lay each drink along its spot, "
         "photograph from above", 148.5, 3.0, 0.5)
    return page


def write_pdf(page: np.ndarray, path: str | Path, page_mm=PAGE_MM) -> None:
    """A one-page PDF showing a greyscale image over the whole page."""
    h, w = page.shape[:2]
    wpt, hpt = page_mm[0] / 25.4 * 72, page_mm[1] / 25.4 * 72
    data = zlib.compress(np.ascontiguousarray(page, np.uint8).tobytes(), 9)
    content = f"q {wpt:.2f} 0 0 {hpt:.2f} 0 0 cm /Mat Do Q".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {wpt:.2f} {hpt:.2f}] "
         f"/Resources << /XObject << /Mat 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    Path(path).write_bytes(bytes(out))


def read_pdf_image(path: str | Path) -> np.ndarray:
    """The page image of a PDF written by :func:`write_pdf` (greyscale)."""
    raw = Path(path).read_bytes()
    m = re.search(rb"/Subtype /Image /Width (\d+) /Height (\d+) .*?/Length (\d+) >>\nstream\n", raw, re.S)
    if not m:
        raise ValueError(f"{path}: no image found in this PDF")
    w, h, n = (int(v) for v in m.groups())
    data = zlib.decompress(raw[m.end():m.end() + n])
    return np.frombuffer(data, np.uint8).reshape(h, w)


def write_mat(out: str | Path) -> list[Path]:
    """Write the mat as PNG and PDF (``out`` with either suffix, or none: both are written)."""
    out = Path(out)
    base = out.with_suffix("") if out.suffix.lower() in (".png", ".pdf") else out
    page = render_mat()
    png, pdf = base.with_suffix(".png"), base.with_suffix(".pdf")
    png.parent.mkdir(parents=True, exist_ok=True)
    # the PNG at 150 dpi keeps the folder small; the PDF carries the 300 dpi page
    small = cv2.resize(page, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(png), small, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    write_pdf(page, pdf)
    return [png, pdf]


# --- finding the mat in a photo -----------------------------------------------------------------

@dataclass
class MatView:
    H: np.ndarray            # photo px -> mat mm
    found: list[int]


def detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICT), params)


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = detector().detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners)}


def find_mat(image: np.ndarray) -> MatView:
    found = detect_markers(image)
    page = [i for i in MARKERS if i in found]
    if len(page) < 3:
        raise ValueError(f"found {len(page)} of the mat's 4 corner markers; photograph the whole mat from above, "
                         "well lit, with no drink covering a marker")
    src = np.concatenate([found[i] for i in page]).astype(np.float32)
    dst = np.concatenate([marker_corners_mm(i) for i in page]).astype(np.float32)
    H, _ = cv2.findHomography(src, dst, 0)
    return MatView(H, page)


def find_tray_marker(image: np.ndarray) -> tuple[float, np.ndarray, np.ndarray] | None:
    """In a photo of the empty tray: (px per mm, the marker's corners, the grey frame's pixels mask)."""
    found = detect_markers(image)
    if TRAY_MARKER_ID not in found:
        return None
    c = found[TRAY_MARKER_ID].astype(np.float32)
    sides = [np.linalg.norm(c[k] - c[(k + 1) % 4]) for k in range(4)]
    ppm = float(np.mean(sides)) / TRAY_MARKER_MM
    # the grey frame: between the quiet zone and the cut line
    H = cv2.getPerspectiveTransform(marker_corners_mm(TRAY_MARKER_ID), c)
    x, y, side = TRAY_BOX
    outer = np.array([[x + 0.8, y + 0.8], [x + side - 0.8, y + 0.8], [x + side - 0.8, y + side - 0.8],
                      [x + 0.8, y + side - 0.8]], np.float32)
    cm = marker_corners_mm(TRAY_MARKER_ID)
    inner = np.array([cm[0] - 2.3, [cm[1, 0] + 2.3, cm[1, 1] - 2.3], cm[2] + 2.3, [cm[3, 0] - 2.3, cm[3, 1] + 2.3]],
                     np.float32)
    m = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(m, [cv2.perspectiveTransform(outer[None], H)[0].round().astype(np.int32)], 255)
    cv2.fillPoly(m, [cv2.perspectiveTransform(inner[None], H)[0].round().astype(np.int32)], 0)
    return ppm, c, m
