"""The vision commands of ``companion``: ``calibrate`` and ``identify``.

``companion.cli`` calls :func:`register` with its subparsers. With ``--json`` the JSON is the
only thing on stdout; messages go to stderr. Exit codes: 0 done, 1 a file or profile
problem, 2 a usage problem.
"""
from __future__ import annotations

import argparse
import math
import json
import logging
import sys
from pathlib import Path


def register(subparsers) -> None:
    cal = subparsers.add_parser("calibrate", help="calibrate the camera for the drinks or the board, or print "
                                "the mat or the board's markers")
    calsub = cal.add_subparsers(dest="calibrate_what", required=True)
    drinks = calsub.add_parser(
        "drinks", help="learn the drinks' colours and sizes; write a profile",
        description="Either DIR with background.png (the empty tray) and 36 photos <colour>-<shape>.png with one "
                    "drink each, or --mat PHOTO [PHOTO ...]: photos of all 36 drinks on the printed mat (two or "
                    "three, the drinks turned over between them, teach more than one).")
    drinks.add_argument("dir", nargs="?", type=Path, help="folder with background.png and the 36 drink photos")
    drinks.add_argument("--mat", type=Path, nargs="+", metavar="PHOTO",
                        help="photos of the 36 drinks on the printed calibration mat, 1 to 5 (each a pose: turn "
                             "the drinks over between them)")
    drinks.add_argument("--background", type=Path,
                        help="with --mat: photo of the empty tray with the tray marker in it (binds the profile "
                             "to the tray camera)")
    drinks.add_argument("--out", type=Path, required=True, help="profile to write (JSON)")
    drinks.set_defaults(func=_calibrate_drinks)
    pm = calsub.add_parser("print-mat", help="write the printable calibration mat (PNG and PDF)")
    pm.add_argument("--out", type=Path, required=True, help="file to write; both FILE.png and FILE.pdf are written")
    pm.set_defaults(func=_print_mat)
    pbm = calsub.add_parser("print-board-markers", help="write the TOKYO METRO board's four corner markers "
                            "(board-markers.png and .pdf, A4)")
    pbm.add_argument("--out", type=Path, required=True, help="folder to write board-markers.png and .pdf into")
    pbm.set_defaults(func=_print_board_markers)
    board = calsub.add_parser(
        "board", help="fit the board file's places to the printed TOKYO METRO board; write a calibration",
        description="PHOTO: the empty board from above with the four corner markers (print-board-markers) "
                    "laid at its corners. Tap at least 3 stations (5 or more also fit a smooth bend): "
                    "--tap STATION=X,Y with X,Y the middle of the station's circle(s) in the photo's pixels. "
                    "Without taps, the markers are checked and stations to tap are suggested. Writes P.json "
                    "and P-empty.png (the empty board seen from above) beside it.")
    board.add_argument("photo", type=Path, help="photo of the empty board with the corner markers")
    board.add_argument("--board", type=Path, default=None, metavar="DATA",
                       help="the board file (default: the package's TOKYO METRO board)")
    board.add_argument("--out", type=Path, required=True, metavar="P.json", help="calibration to write")
    board.add_argument("--tap", action="append", default=[], metavar="STATION=X,Y",
                       help="a station's middle in the photo (pixels); repeat for each station")
    board.add_argument("--no-snap", action="store_true",
                       help="fit to the taps alone (by default the station circles found near where the taps put "
                            "them refine the fit)")
    board.add_argument("--json", action="store_true", help="print JSON on stdout")
    board.set_defaults(func=_calibrate_board)

    crates = calsub.add_parser(
        "crates", help="calibrate the crate camera from one photo of the calibration crate; write a calibration",
        description="PHOTO: one yellow crate alone on the table in the crate camera's view, holding the six "
                    "stubby cans upright: slot 0 white, 1 mint, 2 blue, 3 red, 4 purple, 5 black (slots row by "
                    "row: 0 1 / 2 3 / 4 5), taken with the camera where it will stay.")
    crates.add_argument("photo", type=Path, help="photo of the calibration crate")
    crates.add_argument("--out", type=Path, required=True, metavar="FILE.json", help="calibration to write")
    crates.add_argument("--profile", type=Path, default=None, help="the drinks' profile (optional, not needed)")
    crates.add_argument("--json", action="store_true", help="print the calibration as JSON on stdout")
    crates.set_defaults(func=_calibrate_crates)

    landing = calsub.add_parser(
        "landing", help="calibrate the landing camera from one photo of the mat in front of the tower",
        description="PHOTO: the printed calibration mat (`companion calibrate print-mat`, A4 at 100 %%) flat on "
                    "the table in front of the tower, its edge with markers 0 and 1 against the tower's foot, "
                    "centred on the tower, taken with the landing camera where it will stay.")
    landing.add_argument("photo", type=Path, help="photo of the mat in front of the tower")
    landing.add_argument("--out", type=Path, required=True, metavar="FILE.json", help="calibration to write")
    landing.set_defaults(func=_calibrate_landing)

    ident = subparsers.add_parser("identify", help="name the drinks in tray photos")
    ident.add_argument("images", nargs="+", type=Path)
    ident.add_argument("--profile", type=Path, required=True, help="profile from `companion calibrate drinks`")
    ident.add_argument("--background", type=Path, help="a newer photo of the empty tray (same camera position)")
    ident.add_argument("--json", action="store_true", help="print JSON on stdout")
    # the default is identify's (drinks.DEFAULT_SCORER), looked up when used: the vision
    # modules are imported only by the commands that read photos
    # (the names are drinks.SCORERS', written out: importing drinks costs the vision modules)
    ident.add_argument("--scorer", choices=["rules", "learned", "pixels", "checked", "checked-pixels", "checked-set",
                                                     "checked-sure"],
                       default=None,
                       help="how a piece is named: the hand-set rules (classify.py), the learned scorer "
                            "(vision/learned.py), the network over the piece's pixels (vision/pixel_scorer.py), "
                            "or the rules made unsure where the learned scorer (checked) or the network over the "
                            "pixels alone (checked-pixels, vision/checked.py; checked-set: a network that also "
                            "knows the set's calibrated sizes, asks where it sees no drink, and names what it leaves unsure "
                            "where it is sure of the piece) names a piece otherwise, "
                            "or (checked-sure, vision/sure.py) a learned sureness over that network's and the "
                            "rules' signals doubts it; "
                            "default: identify's (drinks.DEFAULT_SCORER)")
    ident.set_defaults(func=_identify)


def _logging() -> None:
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.WARNING, format="companion: %(message)s", stream=sys.stderr)


def _err(msg: str) -> None:
    print(f"companion: {msg}", file=sys.stderr)


def _calibrate_drinks(args: argparse.Namespace) -> int:
    _logging()
    from .calibrate import CalibrationError, calibrate_dir, calibrate_mat

    if (args.dir is None) == (args.mat is None):
        _err("give either a folder of photos (calibrate drinks DIR --out P) or photos of the mat "
             "(calibrate drinks --mat PHOTO [PHOTO ...] --out P)")
        return 2
    if args.background is not None and args.mat is None:
        _err("--background goes with --mat (a folder already holds background.png)")
        return 2
    try:
        if args.dir is not None:
            profile = calibrate_dir(args.dir)
        else:
            profile = calibrate_mat(args.mat, args.background)
        profile.save(args.out)
    except CalibrationError as exc:
        _err(str(exc))
        return 1
    except OSError as exc:
        _err(f"cannot write {args.out}: {exc.strerror or exc}")
        return 1
    bound = "" if profile.background is not None else (
        " (sizes in mm; bind it to the tray with --background EMPTY.png before identifying)")
    poses = 1 + max((len(r.get("poses", ())) for r in profile.drinks.values()), default=0)
    print(f"companion: wrote {args.out}: 36 drinks{f' in {poses} poses' if poses > 1 else ''}, "
          f"{profile.image_size[0]}x{profile.image_size[1]} frames"
          f"{bound}", file=sys.stderr)
    slant = _slant(profile.stats.get("size_field"))
    if slant:
        print(f"companion: {slant}", file=sys.stderr)
    return 0


def _calibrate_crates(args: argparse.Namespace) -> int:
    _logging()
    from .crate_calibrate import CrateCalibrationError, calibrate_crates

    try:
        cal = calibrate_crates(args.photo)
        cal.save(args.out)
    except CrateCalibrationError as exc:
        _err(str(exc))
        return 1
    except OSError as exc:
        _err(f"cannot write {args.out}: {exc.strerror or exc}")
        return 1
    if args.json:
        print(cal.model_dump_json())
    how = f" ({cal.notes})" if cal.notes else ""       # found by its outline, or by the network's marks
    print(f"companion: wrote {args.out}: crate pitch {cal.pitch_px:.0f} px in {cal.image_size[0]}x"
          f"{cal.image_size[1]} frames{how}", file=sys.stderr)
    return 0


def _calibrate_landing(args: argparse.Namespace) -> int:
    _logging()
    from .landing_calibrate import LandingCalibrationError, calibrate_landing

    try:
        cal = calibrate_landing(args.photo)
        cal.save(args.out)
    except LandingCalibrationError as exc:
        _err(str(exc))
        return 1
    except OSError as exc:
        _err(f"cannot write {args.out}: {exc.strerror or exc}")
        return 1
    x, y, h = cal.camera_position
    print(f"companion: wrote {args.out}: the camera {h:.0f} mm over the table, {-y:.0f} mm behind the tower's "
          f"foot; markers fit within {cal.residual_px:.1f} px", file=sys.stderr)
    return 0


def _slant(field) -> str | None:
    """The size gradient that calibration found, in words (None: none found).

    >>> _slant([0.1, -0.04])
    'the camera sees the tray at a slant: drinks look 5 % larger at the right edge and 2 % larger at the top edge than in the middle (measurements are corrected for it)'
    """
    if not field or not any(field):
        return None
    parts = [f"{100 * (math.exp(abs(g) / 2) - 1):.0f} % larger at the {(low, high)[g > 0]} edge"
             for g, low, high in zip(field, ("left", "top"), ("right", "bottom")) if g]
    return ("the camera sees the tray at a slant: drinks look " + " and ".join(parts) +
            " than in the middle (measurements are corrected for it)")


def _print_mat(args: argparse.Namespace) -> int:
    from .mat import write_mat

    try:
        paths = write_mat(args.out)
    except OSError as exc:
        _err(f"cannot write {args.out}: {exc.strerror or exc}")
        return 1
    print("companion: wrote " + " and ".join(str(p) for p in paths) +
          " (print the PDF on A4 at 100 %)", file=sys.stderr)
    return 0


def _print_board_markers(args: argparse.Namespace) -> int:
    from .board_markers import write_board_markers

    try:
        paths = write_board_markers(args.out)
    except OSError as exc:
        _err(f"cannot write into {args.out}: {exc.strerror or exc}")
        return 1
    print("companion: wrote " + " and ".join(str(p) for p in paths) +
          " (print the PDF on A4 at 100 %; the scale bar must measure 50 mm)", file=sys.stderr)
    return 0


def parse_tap(text: str) -> tuple[str, tuple[float, float]]:
    """``STATION=X,Y`` -> (station, (x, y)).

    >>> parse_tap("otemachi=812.5,400")
    ('otemachi', (812.5, 400.0))
    """
    sid, eq, xy = text.partition("=")
    parts = xy.split(",")
    try:
        if not eq or not sid.strip() or len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError
    except ValueError:
        raise ValueError(f"--tap {text}: write STATION=X,Y (a station id, and its middle in the photo in pixels, "
                         "e.g. --tap otemachi=812,400)") from None
    return sid.strip(), (x, y)


def _calibrate_board(args: argparse.Namespace) -> int:
    _logging()
    from ..board_layout import BOARD_FILE, BoardLayout, LayoutError
    from .board_calibrate import (BoardCalibrationError, MIN_TAPS, calibrate_board, locate_board, read_photo,
                                  save_calibration, station_point, suggest_stations, summary)

    def fail(msg: str, code: int = 2, **extra) -> int:
        if args.json:
            print(json.dumps({"error": msg, **extra}, indent=1))
        _err(msg)
        return code

    board_file = args.board or BOARD_FILE
    try:
        layout = BoardLayout.from_file(board_file)
    except LayoutError as exc:
        return fail(str(exc))
    taps: dict[str, tuple[float, float]] = {}
    for text in args.tap:
        try:
            sid, xy = parse_tap(text)
        except ValueError as exc:
            return fail(str(exc))
        if sid in taps:
            return fail(f"--tap {sid} is given twice: tap each station once")
        taps[sid] = xy
    try:
        if len(taps) < MIN_TAPS:
            # check the photo and its markers first, then say which stations to tap and about where
            image = read_photo(args.photo)
            where = locate_board(image, layout)
            names = suggest_stations(layout, 6)
            guess = where.to_px([station_point(layout, s) for s in names])
            suggested = [{"station": s, "x": round(float(x)), "y": round(float(y))} for s, (x, y) in zip(names, guess)]
            return fail(f"{len(taps)} station(s) tapped: tap at least {MIN_TAPS} (5 or more fit the board "
                        f"better) with --tap STATION=X,Y, X,Y the middle of the station in the photo; "
                        f"suggested, with where our data expects them: " +
                        ", ".join(f"{s['station']}~{s['x']},{s['y']}" for s in suggested), suggested=suggested)
        fit = calibrate_board(args.photo, layout, taps, board_file=str(board_file), snap=not args.no_snap)
    except BoardCalibrationError as exc:
        return fail(str(exc))
    try:
        path = save_calibration(fit, args.out)
    except (OSError, BoardCalibrationError) as exc:
        return fail(f"cannot write {args.out}: {getattr(exc, 'strerror', None) or exc}", 1)
    if args.json:
        print(json.dumps(summary(fit, path), indent=1))
    snapped = f", {fit.snapped} station circles found and fitted to" if fit.snapped else ""
    print(f"companion: wrote {path} and {path.stem}-empty.png: {len(fit.taps)} stations tapped{snapped}, "
          f"{fit.kind} fit, {fit.residual_mm:.1f} mm residual"
          + (" (3 taps alone: nothing left to check the fit by; tap 5 or more for a better one)"
             if fit.residual_mm == 0 else ""), file=sys.stderr)
    return 0


def _identify(args: argparse.Namespace) -> int:
    _logging()
    import cv2  # noqa: F401  (fail early and clearly if OpenCV is missing)

    from .calibrate import CalibrationError, read_image
    from .drinks import DEFAULT_SCORER, identify
    from .profile import Profile, ProfileError
    from .segment import FrameError

    def fail(msg: str, code: int) -> int:
        if args.json:
            print(json.dumps({"error": msg}))
        _err(msg)
        return code

    try:
        profile = Profile.load(args.profile)
        if args.background is not None:
            profile = profile.with_background(read_image(args.background))
        elif profile.background is None:
            raise ProfileError(f"{args.profile}: this profile has no photo of the empty tray; pass "
                               "--background EMPTY.png (with the tray marker in it)")
    except (ProfileError, CalibrationError) as exc:
        return fail(str(exc), 1)
    results, failed = {}, 0
    for path in args.images:
        key = str(path)
        try:
            drinks = identify(read_image(path), profile, scorer=args.scorer or DEFAULT_SCORER)
            results[key] = {"drinks": drinks}
        except (CalibrationError, FrameError, ProfileError) as exc:
            failed += 1
            msg = str(exc) if str(exc).startswith(str(path)) else f"{path}: {exc}"
            results[key] = {"error": msg}
            _err(msg)
        except Exception as exc:  # a fault in reading one photo must not cost the others theirs
            failed += 1
            logging.getLogger("companion.vision").exception("identify %s", path)
            msg = f"{path}: could not be read ({type(exc).__name__}: {exc})"
            results[key] = {"error": msg}
            _err(msg)
    if len(args.images) == 1:
        only = next(iter(results.values()))
        if "error" in only:
            if args.json:
                print(json.dumps(only))
            return 1
        out = only
    else:
        out = results
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for key, res in results.items():
            if "error" in res:
                continue
            print(f"{key}: {len(res['drinks'])} drink(s)")
            for d in res["drinks"]:
                flag = "  UNSURE" if d["unsure"] else ""
                print(f"  {d['color']}-{d['shape']} at ({d['x']:.0f}, {d['y']:.0f}) "
                      f"confidence {d['confidence']:.2f}{flag}")
    return 1 if failed else 0
