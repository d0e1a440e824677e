"""How far the crate reader's idea of its camera is from the truth (issue 31): the focal length
and the camera's height over the rim plane, from the calibration's six can tops alone
("calibration") against the frames' grids (vision/crate_focal.py, "frames"), on simulated looks
whose renderer knows the truth.

For each look it renders and calibrates as benchmarks/crates.py does (the same seeds give the same
photos and layouts), then reads ``--frames`` frames with one ``CrateReader`` (no network: only
the grid and the camera are asked for) and compares, frame by frame, the focal length the
reader used and the camera's height it worked out from that frame's grid with the renderer's.
A look whose calibration is refused is counted apart. Dev and varied only: the evaluation
family is scored by benchmarks/crates.py and nothing else.

Run:   .venv/bin/python benchmarks/crate_focal.py --family dev --looks 10 --frames 3
       .venv/bin/python benchmarks/crate_focal.py --family varied --looks 10 --frames 3 --seeds 700000
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.sim.crate_layouts import random_layout  # noqa: E402
from companion.sim.crate_looks import CrateLook  # noqa: E402
from companion.sim.crate_render import CrateRenderer  # noqa: E402
from companion.vision.crate_calibrate import CALIBRATION_LAYOUT, CrateCalibrationError, calibrate_crates  # noqa: E402
from companion.vision.crate_pinhole import camera_over  # noqa: E402
from companion.vision.crates import CrateReader  # noqa: E402

SEEDS = {"dev": 800000, "varied": 700000}


def true_height(r: CrateRenderer, truth: dict) -> float:
    """The camera's height over the rim plane in pitches, from the renderer's own camera."""
    p = float(truth["pitch_mm"])
    H = np.array(truth["rim_to_frame"], np.float64) @ np.diag([p, p, 1.0])
    return camera_over(H / H[2, 2], r.f, r.look.image_size)[1]


def calibrated(look: CrateLook):
    """The look's renderer, its random stream (as benchmarks/crates.py draws it: the same photo
    and layouts) and the calibration from its photo (None: refused)."""
    r = CrateRenderer(look)
    rng = np.random.default_rng([look.seed, 7031])
    photo, _ = r.render(CALIBRATION_LAYOUT, rng)
    try:
        return r, rng, calibrate_crates(photo)
    except CrateCalibrationError:
        return r, rng, None


def run(family: str, looks: int, frames: int, first: int, verbose: bool = False) -> dict:
    cv2.setNumThreads(1)
    rows = []
    refused = 0
    for seed in range(first, first + looks):
        r, rng, cal = calibrated(CrateLook.from_seed(seed, family))
        refused += cal is None
        reader = CrateReader(cal, model=None) if cal is not None else None
        for k in range(frames):
            frame, truth = r.render(random_layout(rng), rng)
            if reader is None:
                continue
            found = reader.locate(frame)
            if found is None:
                continue
            h_true = true_height(r, truth)
            h_cal = camera_over(found.grid.H, cal.focal_px, cal.image_size)[1]
            rows.append({"seed": seed, "frame": k, "f_true": r.f, "f_cal": cal.focal_px, "f_frames": reader.camera.focal(),
                         "h_true": h_true, "h_cal": h_cal, "h_frames": found.height})
            if verbose:
                print(f"  {family} {seed}/{k}: f true {r.f:.0f} calibration {cal.focal_px:.0f} frames "
                      f"{reader.camera.focal():.0f}; height true {h_true:.1f} calibration {h_cal:.1f} "
                      f"frames {found.height:.1f}", file=sys.stderr)
    out = {"family": family, "seeds": f"{first}-{first + looks - 1}", "looks": looks, "refused": refused,
           "frames_measured": len(rows)}
    for way in ("cal", "frames"):
        fe = np.array([abs(x[f"f_{way}"] / x["f_true"] - 1) for x in rows]) if rows else np.zeros(1)
        he = np.array([abs(x[f"h_{way}"] / x["h_true"] - 1) for x in rows]) if rows else np.zeros(1)
        out[way] = {"focal_err_median_pct": round(100 * float(np.median(fe)), 1),
                    "focal_err_max_pct": round(100 * float(fe.max()), 1),
                    "focal_within_15pct": round(100 * float((fe <= 0.15).mean()), 1),
                    "height_err_median_pct": round(100 * float(np.median(he)), 1),
                    "height_err_p90_pct": round(100 * float(np.percentile(he, 90)), 1),
                    "height_within_15pct": round(100 * float((he <= 0.15).mean()), 1)}
    return out


def guess_plastic_arg(ap) -> None:
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--guess-plastic", dest="guess_plastic", action="store_true", default=None,
                   help="calibrate with the photo's commonest warm colours tried as the plastic's "
                        "(calibration_crate.GUESS_PLASTIC, on by default)")
    g.add_argument("--no-guess-plastic", dest="guess_plastic", action="store_false", default=None,
                   help="calibrate with the first guess of the plastic's colour alone (as main before branch crates7)")


def guess_plastic(args) -> None:
    """The calibrations of this run as ``--guess-plastic`` / ``--no-guess-plastic`` say (else the
    module's default)."""
    if args.guess_plastic is not None:
        from companion.vision import calibration_crate
        calibration_crate.GUESS_PLASTIC = args.guess_plastic


def dev_varied_args(argv, doc: str, family: str, more=None):
    """The options of a crate benchmark run on dev or varied looks against the renderer's truth
    (this one, benchmarks/crate_grid.py): the parsed arguments and the first seed; ``more``
    adds options to the parser. Evaluation seeds are refused: they are only scored."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family", choices=["dev", "varied"], default=family)
    ap.add_argument("--looks", type=int, default=10)
    ap.add_argument("--frames", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=None)
    ap.add_argument("-v", "--verbose", action="store_true")
    guess_plastic_arg(ap)
    if more is not None:
        more(ap)
    args = ap.parse_args(argv)
    guess_plastic(args)
    first = args.seeds if args.seeds is not None else SEEDS[args.family]
    if first >= 910_000:
        raise SystemExit("evaluation seeds are only scored, by benchmarks/crates.py")
    return args, first


def main(argv=None) -> None:
    args, first = dev_varied_args(argv, __doc__, "dev")
    print(json.dumps(run(args.family, args.looks, args.frames, first, args.verbose), indent=1))


if __name__ == "__main__":
    main()
