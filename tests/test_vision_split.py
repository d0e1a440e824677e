"""Splitting a blob of touching drinks into one piece per drink (vision/splitting.py `split`), on
rendered photos of the benchmark's tables. Real OpenCV throughout."""
from __future__ import annotations

import numpy as np

from companion.vision import drinks, faint, fit, piece_colour, splitting
from companion.vision.drinks import regions_of
from companion.vision.splitting import split
from companion.vision.segment import analyse

from vision_support import benchmark_photo, reading_at, rules_reading as identify  # the rules' own steps are tested here




def read_as(image, profile, target: dict) -> tuple[str, str, bool]:
    """How the reading nearest to ``target`` names it: colour, shape, unsure."""
    got = reading_at(identify(image, profile, debug=True), target)
    return got["color"], got["shape"], got["unsure"]


def test_a_pale_bottles_neck_beyond_a_faint_shoulder_is_joined_to_its_body(tmp_path):
    # seed 9002 (a light tray), 14th touching photo: a white bottle whose shoulder reads as
    # tray, with a purple bottle's cap against its body. The neck and cap, cut off from the
    # body, are a part of the blob of their own; joined to the body they make the bottle,
    # where the body alone would be read as a short can. (The faint shoulder leaves the joined
    # piece fitting no drink; of the outlines then placed on it, a short can's cuts the body
    # like a short can, but the bottle's outline wins the votes by far, so it is the one taken.)
    profile, image, truth = benchmark_photo(tmp_path, 9002, 13)
    bottle = next(t for t in truth if t["id"] == "white-not_tallest_bottle")
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert (got["color"], got["shape"], got["unsure"]) == ("white", "not_tallest_bottle", False)


def test_shadow_beside_dark_drinks_on_a_dark_tray_is_no_drink(tmp_path):
    # seed 9006 (a dark tray), 7th touching photo: the shade between touching drinks is darker
    # than the tray; it goes to the drinks beside it, and no extra drink is reported
    profile, image, truth = benchmark_photo(tmp_path, 9006, 6)
    found = identify(image, profile, debug=True)
    assert len(found) == len(truth)
    assert sorted(f"{f['color']}-{f['shape']}" for f in found if not f["unsure"]) == \
        sorted(t["id"] for t in truth)


def test_pieces_lie_within_their_blob_and_never_overlap(tmp_path):
    profile, image, _ = benchmark_photo(tmp_path, 9002, 13)
    an = analyse(image, profile)
    blobs = 0
    for region in regions_of(an, profile):
        pieces = split(region, an, profile)
        blobs += len(pieces) > 1
        owner = np.zeros(region.mask.shape, np.int32)
        for piece, _ in pieces:
            assert (piece.x0, piece.y0, piece.mask.shape) == (region.x0, region.y0, region.mask.shape)
            inside = piece.mask > 0
            assert not np.any(inside & (region.mask == 0))
            assert not np.any(owner[inside])
            owner[inside] = 1
    assert blobs >= 1          # the photo has touching drinks to split


def test_drinks_of_plainly_different_colours_end_to_end_are_kept_apart(tmp_path):
    # seed 12003 (a dark tray), 8th blurred photo (touching + drift + JPEG + motion blur): a
    # blue short can lies end to end with a red can. Blur and drift move the red piece's colour
    # off the calibration, yet it is far nearer red than anything else: the two pieces are not
    # joined, and the blue can is not read as one long tall can.
    profile, image, truth = benchmark_photo(tmp_path, 12003, 7, "hard")
    can = next(t for t in truth if t["id"] == "blue-short_can")
    got = reading_at(identify(image, profile, debug=True), can)
    assert (got["color"], got["shape"], got["unsure"]) == ("blue", "short_can", False)


def test_shade_cut_off_between_drinks_of_other_colours_is_no_drink(tmp_path, monkeypatch):
    # seed 12000 (a dark tray), 8th touching photo: kept apart from the drinks beside it by its
    # colour, the shade between them is a small piece of the darkest colour; it is no drink
    profile, image, truth = benchmark_photo(tmp_path, 12000, 7)
    assert len(identify(image, profile)) == len(truth)
    monkeypatch.setattr(splitting, "SHADE_AREA", 0.0)
    assert len(identify(image, profile)) == len(truth) + 1


def test_what_the_watershed_leaves_unassigned_goes_to_the_nearest_piece():
    from companion.vision.faint import fill_from_nearest

    lab = np.zeros((3, 4), np.int32)
    lab[0, 0], lab[2, 3] = 2, 9
    fill_from_nearest(lab, np.ones((3, 4), bool))
    # (0, 2) lies 2 px from piece 2 and 2.2 px from piece 9: it is piece 2's, the smaller label
    assert lab.tolist() == [[2, 2, 2, 9], [2, 2, 9, 9], [2, 9, 9, 9]]
    # beyond the reach, and outside the blob, nothing is filled
    lab = np.zeros((1, 30), np.int32)
    lab[0, 0] = 4
    inside = np.ones((1, 30), bool)
    inside[0, 5] = False
    fill_from_nearest(lab, inside, reach=12)
    assert lab[0, 5] == 0 and lab[0, 12] == 4 and lab[0, 13] == 0


def test_a_white_drinks_shaded_half_is_read_as_white_darkened(tmp_path, monkeypatch):
    # seed 20002 (a light tray), 13th touching photo: a white tall can lies against a white
    # square bottle and a black bottle (found on seed 8007, beside a black can). Its half turned
    # from the light is grey, which the colours as calibrated call mint rather than white, so
    # the can fell apart in a white and a "mint" piece, both unsure. Compared with each colour
    # darkened, the grey half is plainly white.
    profile, image, truth = benchmark_photo(tmp_path, 20002, 12)
    can = next(t for t in truth if t["id"] == "white-tall_can")
    found = identify(image, profile, debug=True)
    got = reading_at(found, can)
    assert (got["color"], got["shape"], got["unsure"]) == ("white", "tall_can", False)
    assert sorted(f"{f['color']}-{f['shape']}" for f in found) == sorted(t["id"] for t in truth)
    # without the relit comparison the shaded half goes astray again
    monkeypatch.setattr(piece_colour, "_relit_distances", lambda x, p: {c: 1e6 for c in p.colour_model.means})
    again = identify(image, profile, debug=True)
    assert any(f["color"] == "mint" for f in again) and reading_at(again, can)["unsure"]


def test_shade_caught_between_drinks_is_no_drink(tmp_path, monkeypatch):
    # seed 20002 (a light tray), 2nd blurred photo: two red bottles lie side by side, and the
    # blob closes over the shade between them (found on seed 8002: two mint bottles with a
    # purple can against their necks). No drink explains that piece, and most of it differs
    # from the tray no more than a shadow: it is not reported
    profile, image, truth = benchmark_photo(tmp_path, 20002, 1, "hard")
    found = identify(image, profile, debug=True)
    assert sorted(f"{f['color']}-{f['shape']}" for f in found) == sorted(t["id"] for t in truth)
    assert not any(f["unsure"] for f in found)
    # were it kept, it would be one more (unsure) drink
    monkeypatch.setattr(faint, "FAINT_PIECE", 1.01)
    again = identify(image, profile, debug=True)
    assert len(again) == len(truth) + 1 and sum(f["unsure"] for f in again) == 1


def test_a_black_bottle_is_measured_without_the_shade_closed_in_beside_its_neck(tmp_path, monkeypatch):
    # seed 12000 (a dark tray), 16th blurred photo: the shade between a black bottle's neck and a
    # blue can is closed into the bottle's piece, which then has no neck and reads as a can.
    # Without its faint pixels (no different from the tray in shadow) it is the bottle.
    profile, image, truth = benchmark_photo(tmp_path, 12000, 16, "hard")
    bottle = next(t for t in truth if t["id"] == "black-not_tallest_bottle")
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert (got["color"], got["shape"], got["unsure"]) == ("black", "not_tallest_bottle", False)
    monkeypatch.setattr(faint, "TRIM_MAX", 0.0)         # never trim
    untrimmed = reading_at(identify(image, profile, debug=True), bottle)
    assert untrimmed["shape"] != "not_tallest_bottle"


def test_a_neighbours_thin_silhouette_line_does_not_stop_the_trim(tmp_path, monkeypatch):
    # seed 24003 (a dark tray), 24th touching photo: a black short can lies in the angle of a
    # mint can, and the shade in that angle is closed into its piece, which then reads as a
    # tall can, for sure. Beyond the shade the mint can's dark silhouette line is distinct
    # too: a second part of the piece, but a line one or two pixels wide, no neck, so the
    # piece is still trimmed of its faint pixels, and read as the short can it is.
    profile, image, truth = benchmark_photo(tmp_path, 24003, 23)
    can = next(t for t in truth if t["id"] == "black-short_can")
    # (the splitting now keeps the shade out of the can's piece, as joining it would spoil
    # the can; joined as before, the trim has to take it off)
    assert reading_at(identify(image, profile), can)["shape"] == "short_can"
    monkeypatch.setattr(splitting, "FITS_CLEARLY", 0.0)
    got = reading_at(identify(image, profile, debug=True), can)
    assert (got["color"], got["shape"], got["unsure"]) == ("black", "short_can", False)
    monkeypatch.setattr(faint, "NECK_HALF_WIDTH", 0.0)  # every distinct part might be a neck
    untrimmed = reading_at(identify(image, profile, debug=True), can)
    assert untrimmed["shape"] == "tall_can"


def test_two_drinks_of_one_colour_with_only_shade_between_them_are_two_drinks(tmp_path, monkeypatch):
    # seed 10007 (a light tray), 26th touching photo: a tall and a short white can lie end to end
    # and make one blob, read as one long unsure drink (and one missed). Their own pixels fall
    # apart in two drink-sized parts with only faint pixels (tray in their shade) between them.
    profile, image, truth = benchmark_photo(tmp_path, 10007, 25)
    cans = [t for t in truth if t["id"] in ("white-tall_can", "white-short_can")]
    # (as the splitting cut the blob before a plain drink refused what would spoil it: now the
    # short can keeps out of the shade between the cans and a bottle, the tall can's piece
    # takes it, reads mint, and the tall can is fitted as a mint one, a misreading that
    # docs/vision-history.md counts among the rule's costs)
    monkeypatch.setattr(splitting, "FITS_CLEARLY", 0.0)
    found = identify(image, profile, debug=True)
    for can in cans:
        got = reading_at(found, can)
        assert (f"{got['color']}-{got['shape']}", got["unsure"]) == (can["id"], False)
    monkeypatch.setattr(faint, "SPLIT_PART", 99.0)     # never split
    again = identify(image, profile, debug=True)
    assert any(reading_at(again, can)["unsure"] or
               f"{reading_at(again, can)['color']}-{reading_at(again, can)['shape']}" != can["id"] for can in cans)


def test_a_pale_bottles_neck_cut_off_onto_another_blob_is_joined_back(tmp_path, monkeypatch):
    # seed 21004 (a light tray), 18th blurred photo: a white tallest bottle's shoulder reads
    # as tray, and its neck lies on the blob of the drinks beside it. The body alone reads as
    # a short can, with confidence, and the neck as an unsure extra part; the neck, of the
    # same colour and brighter than the tray, is joined back, and the two read as the bottle
    profile, image, truth = benchmark_photo(tmp_path, 21004, 18, "hard")
    bottle = next(t for t in truth if t["id"] == "white-tallest_bottle")
    assert read_as(image, profile, bottle) == ("white", "tallest_bottle", False)
    monkeypatch.setattr(drinks, "JOIN_GAP", 0)
    assert read_as(image, profile, bottle)[1] == "short_can"


def test_joining_a_cut_off_part_at_the_edge_of_the_frame_stays_inside_it():
    # a sure piece and an unsure pale part of its colour, both against the right edge of the
    # frame: the window around them must not reach past the frame (no crash, a reading back)
    from pathlib import Path

    from companion.sim.camera import SIM_SEED
    from companion.sim.looks import Look
    from companion.sim.render import Renderer
    from companion.vision.features import Region
    from companion.vision.profile import Profile

    profile = Profile.load(Path(__file__).resolve().parents[1] / "calibration" / "sim-profile.json")
    empty, _ = Renderer(Look.from_seed(SIM_SEED)).render([], rng=np.random.default_rng(1))
    an = analyse(empty, profile)
    H, W = an.mask.shape
    body = np.zeros((30, 40), np.uint8)
    body[5:25, :] = 255
    part = np.zeros((20, 12), np.uint8)
    part[5:15, :] = 255
    an.small[H - 60:H - 40, W - 12:] *= 1.5          # the part is brighter than the tray
    an.faint[:] = True
    from companion.vision.features import measure

    pieces = [Region(body, W - 56, H - 70), Region(part, W - 12, H - 65)]
    found = [{"color": "white", "shape": "short_can", "unsure": False, "_f": measure(pieces[0], an), "_r": pieces[0]},
             {"color": "white", "shape": "stubby_can", "unsure": True, "_f": measure(pieces[1], an), "_r": pieces[1]}]
    got = drinks._join_cut_off_parts(found, an, profile, profile.stats["min_area"])
    assert 1 <= len(got) <= 2 and all(d["color"] == "white" for d in got)


def test_a_pale_neck_darker_than_a_light_tray_but_of_another_hue_is_no_shade(tmp_path, monkeypatch):
    # seed 26002 (a light grey tray), 53rd blurred photo: a mint square bottle's neck, against a
    # white tall can and turned from the light, is darker than the tray, and the watershed's
    # outside flood takes it. Shade would only dim the grey; the neck is mint, so it stays a
    # part for the joining, and the bottle is read whole. Taken for shade, it is lost and the
    # body reads as an unsure short can. (Found on seed 20004's lilac tray; this table is
    # shared with test_vision_fit.)
    profile, image, truth = benchmark_photo(tmp_path, 26002, 52, "hard")
    bottle = next(t for t in truth if t["id"] == "mint-square_bottle")
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert (got["color"], got["shape"], got["unsure"]) == ("mint", "square_bottle", False)
    monkeypatch.setattr(splitting, "SHADE_TINT", 1e9)
    # (the second look would now place the bottle's outline all the same, the lost neck
    # voting for it and its loose cut being the bottle's plainly: as before, without them)
    monkeypatch.setattr(fit, "UNOWNED", fit.AMBIGUOUS)
    monkeypatch.setattr(fit, "LOOSE_ALONE", -1.0)
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert (got["shape"], got["unsure"]) == ("short_can", True)


def test_a_cut_off_cap_is_joined_even_when_the_whole_outline_fits_no_drink(tmp_path):
    # seed 20002 (a light tray), 17th touching photo: a white tallest bottle's cap is cut off
    # at its neck; body and cap together are the bottle, a little long with the shade at its
    # end, so that their outline fits no drink. They are joined all the same, the outlines'
    # second look reads the bottle, and the cap is no extra drink.
    import cv2

    profile, image, truth = benchmark_photo(tmp_path, 20002, 17)
    bottle = next(t for t in truth if t["id"] == "white-tallest_bottle")

    def on_bottle(found):
        box = np.array(bottle["box"], np.float32)
        return [d for d in found if cv2.pointPolygonTest(box, (float(d["x"]), float(d["y"])), False) >= 0]

    got = on_bottle(identify(image, profile, debug=True))
    assert [(d["color"], d["shape"], d["unsure"]) for d in got] == [("white", "tallest_bottle", False)]


def test_a_drink_of_no_plain_colour_is_not_joined_to_one_it_cannot_be(tmp_path):
    # seed 20002 (a light tray whose white and mint drinks look alike), 16th touching photo:
    # a white stubby can against a black one. The white can's colour is not plain (white or
    # mint?), but it is plainly neither black nor anything the black can could be, and it
    # fits a drink on its own: the two stay two drinks.
    profile, image, truth = benchmark_photo(tmp_path, 20002, 16)
    found = identify(image, profile, debug=True)
    for drink in ("white-stubby_can", "black-stubby_can"):
        got = reading_at(found, next(t for t in truth if t["id"] == drink))
        assert f"{got['color']}-{got['shape']}" == drink and not got["unsure"]


def test_a_white_cans_shaded_half_that_calibrates_mint_stays_with_the_can(tmp_path):
    # seed 20002 (a light tray whose white and mint differ mostly in brightness), 12th
    # touching photo: a white tall can's shaded half is, as calibrated, plainly mint, and
    # exactly white a little darker. It is taken as of no plain colour, so it joins its lit
    # half, and the lit half no longer goes to the white square bottle beside it.
    profile, image, truth = benchmark_photo(tmp_path, 20002, 12)
    found = identify(image, profile, debug=True)
    for drink in ("white-tall_can", "white-square_bottle"):
        got = reading_at(found, next(t for t in truth if t["id"] == drink))
        assert f"{got['color']}-{got['shape']}" == drink and not got["unsure"]


def test_two_drinks_split_at_faint_pixels_are_kept_apart_though_neither_fits_yet(tmp_path):
    # seed 25000 (a dark tray), 10th touching photo: a purple tallest bottle's cap and a
    # purple short can, with a wide patch of shade and tray between them, make one blob whose
    # colour fits no drink (the patch is tray-coloured). Its distinct pixels fall apart in
    # two drink-sized parts, but each, with the faint pixels nearest to it, fitted no outline,
    # so the split was refused and one drink was missed. Each part is plainly purple: the
    # split stands, and trimmed of their faint pixels both parts read right.
    profile, image, truth = benchmark_photo(tmp_path, 25000, 9)
    found = identify(image, profile, debug=True)
    for drink in ("purple-tallest_bottle", "purple-short_can"):
        got = reading_at(found, next(t for t in truth if t["id"] == drink))
        assert (f"{got['color']}-{got['shape']}", got["unsure"]) == (drink, False)


def test_a_dark_piece_not_faint_enough_to_be_shade_gets_the_second_look(tmp_path, monkeypatch):
    # seed 27001 (a dark tray), 9th touching photo: a black square bottle lies against a
    # purple can and a black stubby can; its face is the tray's colour, and the splitting
    # leaves of it only its neck and cap (a third of the smallest drink, black: what shade
    # looks like) and the ring of light on its face. The neck is not faint, so it is kept
    # for the second look, which fits the bottle's outline to it
    profile, image, truth = benchmark_photo(tmp_path, 27001, 9)
    bottle = next(t for t in truth if t["id"] == "black-square_bottle")
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert (got["color"], got["shape"], got["unsure"], got["_why"]) == ("black", "square_bottle", False, "outline fitted")
    monkeypatch.setattr(splitting, "REFIT_MIN", splitting.SHADE_AREA)   # as before: dropped, the bottle missed
    got = reading_at(identify(image, profile, debug=True), bottle)
    assert np.hypot(got["x"] - bottle["x"], got["y"] - bottle["y"]) > 30


def test_a_dark_piece_kept_for_the_second_look_and_not_fitted_is_dropped(tmp_path):
    # seed 12000 (a dark tray), 7th touching photo: the shade between a purple can and the
    # drinks beside it is a black piece not faint enough to be dropped at once; no outline
    # fits it, and it is no reading
    profile, image, truth = benchmark_photo(tmp_path, 12000, 7)
    assert sorted(f"{f['color']}-{f['shape']}" for f in identify(image, profile)) == sorted(t["id"] for t in truth)


def test_a_black_can_that_fits_alone_takes_on_no_shade_that_spoils_it(tmp_path, monkeypatch):
    # seed 30011 (a dark tray), 13th blurred photo: a black stubby can lies against a red can
    # and a white bottle, and the wedge of shade between the three is as dark as the can. The
    # watershed cuts the wedge off; the can alone plainly fits, and joined with the wedge it
    # would fit a bottle only loosely: the join is refused, and the can is read
    profile, image, truth = benchmark_photo(tmp_path, 30011, 12, "hard")
    can = next(t for t in truth if t["id"] == "black-stubby_can")
    assert read_as(image, profile, can) == ("black", "stubby_can", False)
    # joined, the can and the shade were read as a bottle, with confidence
    monkeypatch.setattr(splitting, "FITS_CLEARLY", 0.0)
    assert read_as(image, profile, can) == ("black", "not_tallest_bottle", False)
