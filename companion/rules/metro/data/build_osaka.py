"""Build the OSAKA METRO EXPANSION's board (``osaka_board.json``), an approximation of the printed one.

Run from the repository root (it needs nothing outside this folder; the package loads the
committed JSON at run time)::

    .venv/bin/python companion/rules/metro/data/build_osaka.py [--out FILE]

The rule book prints no board, so this one is built the way ``build_board.py`` builds Tokyo's,
from the real network as written down below (station names in romaji and Japanese, their order
along each line, rough latitude/longitude, all from general knowledge of the city, not from a
survey):

1. Ten lines in the revenue track's order (M first): the eight Osaka Metro subway lines M T Y C S
   K N I, the Nanko Port Town "New Tram" (P, two trams) and a bus (B, the Imazato Liner BRT
   southward from Imazato, two buses; we end it at Nagai on line M, and its stops between are
   placed evenly, not surveyed).
2. Stops with the same name are one station, and so are the transfer complexes with different
   names (``COMPLEXES``: Umeda, Shinsaibashi/Yotsubashi, Sekime).
3. Smaller stations are thinned out with ``build_board.thin`` (terminals and interchanges stay,
   every other plain stop between). On the tram and the bus the stops between the terminals
   that survive become *small stops* (circles of no station); the terminals are stations.
4. Positions are projected around Hommachi and spread out (power ``POWER``), fitted to a
   ``COLS`` x ``ROWS`` grid and pushed apart, then snapped onto the half-field lattice with 1-3
   circles per station (``build_board.layout`` and ``build_board.circles_of``).
5. Shares and disc spaces per line are our choice (``SHARES``: 28 in all; ``DISC_SPACES``), see
   docs/rules-notes.md, OSAKA METRO rows.
6. ``build_layout.add_layout`` adds where everything lies in millimetres (the board camera).

It also writes the share cards (``osaka_stock_cards.json``) and the revenue track
(``osaka_revenue_track.json``) beside the board.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from build_board import circles_of, layout, project, slug, thin  # noqa: E402 - a script beside this one
from build_layout import add_layout  # noqa: E402

HERE = Path(__file__).resolve().parent

LINE_ORDER = ("M", "T", "Y", "C", "S", "K", "N", "I", "P", "B")
COLS, ROWS = 22, 17   # 17 rows: the revenue track (0-6,000 and the rider places) needs their height
START_AREA = {"col": 7, "row": 5, "cols": 8, "rows": 6}
CENTRE = (34.6820, 135.5000)   # Hommachi
POWER = 0.5

# letter: (name, colour, shares, disc spaces, vehicle, vehicles). 28 shares; every count 1-4 used.
LINES = {
    "M": ("Midosuji Line", "#E5171F", 4, 4, "train", 1),
    "T": ("Tanimachi Line", "#522886", 3, 3, "train", 1),
    "Y": ("Yotsubashi Line", "#0078BA", 3, 2, "train", 1),
    "C": ("Chuo Line", "#019A66", 3, 3, "train", 1),
    "S": ("Sennichimae Line", "#E44D93", 3, 2, "train", 1),
    "K": ("Sakaisuji Line", "#814721", 3, 3, "train", 1),
    "N": ("Nagahori Tsurumi-ryokuchi Line", "#A9CC51", 3, 2, "train", 1),
    "I": ("Imazatosuji Line", "#EE7B1A", 3, 2, "train", 1),
    "P": ("Nanko Port Town Line (New Tram)", "#00B2E5", 2, 1, "tram", 2),
    "B": ("Imazato Liner (BRT)", "#C8A000", 1, 1, "bus", 2),
}

# Every stop in order along its line: (romaji, Japanese, latitude, longitude).
STOPS = {
    "M": [("Esaka", "江坂", 34.758, 135.497), ("Higashi-Mikuni", "東三国", 34.743, 135.500),
          ("Shin-Osaka", "新大阪", 34.734, 135.500), ("Nishinakajima-Minamigata", "西中島南方", 34.726, 135.499),
          ("Nakatsu", "中津", 34.710, 135.497), ("Umeda", "梅田", 34.702, 135.498),
          ("Yodoyabashi", "淀屋橋", 34.692, 135.501), ("Hommachi", "本町", 34.682, 135.498),
          ("Shinsaibashi", "心斎橋", 34.675, 135.500), ("Namba", "なんば", 34.666, 135.501),
          ("Daikokucho", "大国町", 34.653, 135.497), ("Dobutsuen-mae", "動物園前", 34.650, 135.505),
          ("Tennoji", "天王寺", 34.646, 135.514), ("Showacho", "昭和町", 34.633, 135.517),
          ("Nishitanabe", "西田辺", 34.622, 135.516), ("Nagai", "長居", 34.610, 135.516),
          ("Abiko", "あびこ", 34.598, 135.515), ("Kitahanada", "北花田", 34.581, 135.512),
          ("Shinkanaoka", "新金岡", 34.567, 135.511), ("Nakamozu", "なかもず", 34.555, 135.503)],
    "T": [("Dainichi", "大日", 34.743, 135.565), ("Moriguchi", "守口", 34.738, 135.563),
          ("Taishibashi-Imaichi", "太子橋今市", 34.729, 135.555), ("Sembayashi-Omiya", "千林大宮", 34.724, 135.547),
          ("Sekime-Takadono", "関目高殿", 34.717, 135.541), ("Noe-Uchindai", "野江内代", 34.713, 135.532),
          ("Miyakojima", "都島", 34.709, 135.524), ("Tenjimbashisuji 6-chome", "天神橋筋六丁目", 34.710, 135.511),
          ("Nakazakicho", "中崎町", 34.706, 135.505), ("Higashi-Umeda", "東梅田", 34.700, 135.501),
          ("Minami-morimachi", "南森町", 34.698, 135.512), ("Temmabashi", "天満橋", 34.690, 135.515),
          ("Tanimachi 4-chome", "谷町四丁目", 34.684, 135.517), ("Tanimachi 6-chome", "谷町六丁目", 34.675, 135.517),
          ("Tanimachi 9-chome", "谷町九丁目", 34.665, 135.516),
          ("Shitennoji-mae Yuhigaoka", "四天王寺前夕陽ヶ丘", 34.656, 135.516),
          ("Tennoji", "天王寺", 34.646, 135.514), ("Abeno", "阿倍野", 34.640, 135.513),
          ("Fuminosato", "文の里", 34.630, 135.520), ("Tanabe", "田辺", 34.625, 135.528),
          ("Komagawa-Nakano", "駒川中野", 34.622, 135.537), ("Hirano", "平野", 34.617, 135.553),
          ("Kire-Uriwari", "喜連瓜破", 34.607, 135.560), ("Deto", "出戸", 34.604, 135.569),
          ("Nagahara", "長原", 34.603, 135.576), ("Yaominami", "八尾南", 34.602, 135.590)],
    "Y": [("Nishi-Umeda", "西梅田", 34.699, 135.495), ("Higobashi", "肥後橋", 34.691, 135.497),
          ("Hommachi", "本町", 34.682, 135.498), ("Yotsubashi", "四ツ橋", 34.674, 135.497),
          ("Namba", "なんば", 34.666, 135.501), ("Daikokucho", "大国町", 34.653, 135.497),
          ("Hanazonocho", "花園町", 34.641, 135.496), ("Kishinosato", "岸里", 34.635, 135.496),
          ("Tamade", "玉出", 34.623, 135.494), ("Kitakagaya", "北加賀屋", 34.614, 135.480),
          ("Suminoekoen", "住之江公園", 34.609, 135.481)],
    "C": [("Cosmosquare", "コスモスクエア", 34.638, 135.414), ("Osakako", "大阪港", 34.655, 135.433),
          ("Asashiobashi", "朝潮橋", 34.663, 135.447), ("Bentencho", "弁天町", 34.669, 135.462),
          ("Kujo", "九条", 34.676, 135.474), ("Awaza", "阿波座", 34.682, 135.487),
          ("Hommachi", "本町", 34.682, 135.498), ("Sakaisuji-Hommachi", "堺筋本町", 34.683, 135.506),
          ("Tanimachi 4-chome", "谷町四丁目", 34.684, 135.517), ("Morinomiya", "森ノ宮", 34.681, 135.533),
          ("Midoribashi", "緑橋", 34.679, 135.546), ("Fukaebashi", "深江橋", 34.677, 135.557),
          ("Takaida", "高井田", 34.673, 135.571), ("Nagata", "長田", 34.671, 135.585)],
    "S": [("Nodahanshin", "野田阪神", 34.695, 135.474), ("Tamagawa", "玉川", 34.690, 135.478),
          ("Awaza", "阿波座", 34.682, 135.487), ("Nishi-Nagahori", "西長堀", 34.674, 135.486),
          ("Sakuragawa", "桜川", 34.668, 135.489), ("Namba", "なんば", 34.666, 135.501),
          ("Nippombashi", "日本橋", 34.666, 135.506), ("Tanimachi 9-chome", "谷町九丁目", 34.665, 135.516),
          ("Tsuruhashi", "鶴橋", 34.665, 135.530), ("Imazato", "今里", 34.668, 135.545),
          ("Shin-Fukae", "新深江", 34.666, 135.556), ("Shoji", "小路", 34.659, 135.562),
          ("Kita-Tatsumi", "北巽", 34.652, 135.563), ("Minami-Tatsumi", "南巽", 34.641, 135.565)],
    "K": [("Tenjimbashisuji 6-chome", "天神橋筋六丁目", 34.710, 135.511), ("Ogimachi", "扇町", 34.705, 135.511),
          ("Minami-morimachi", "南森町", 34.698, 135.512), ("Kitahama", "北浜", 34.691, 135.507),
          ("Sakaisuji-Hommachi", "堺筋本町", 34.683, 135.506), ("Nagahoribashi", "長堀橋", 34.674, 135.507),
          ("Nippombashi", "日本橋", 34.666, 135.506), ("Ebisucho", "恵美須町", 34.654, 135.506),
          ("Dobutsuen-mae", "動物園前", 34.650, 135.505), ("Tengachaya", "天下茶屋", 34.637, 135.496)],
    "N": [("Taisho", "大正", 34.665, 135.478), ("Dome-mae Chiyozaki", "ドーム前千代崎", 34.669, 135.477),
          ("Nishi-Nagahori", "西長堀", 34.674, 135.486), ("Nishi-Ohashi", "西大橋", 34.674, 135.492),
          ("Shinsaibashi", "心斎橋", 34.675, 135.500), ("Nagahoribashi", "長堀橋", 34.674, 135.507),
          ("Matsuyamachi", "松屋町", 34.673, 135.513), ("Tanimachi 6-chome", "谷町六丁目", 34.675, 135.517),
          ("Tamatsukuri", "玉造", 34.674, 135.532), ("Morinomiya", "森ノ宮", 34.681, 135.533),
          ("Osaka Business Park", "大阪ビジネスパーク", 34.688, 135.532), ("Kyobashi", "京橋", 34.697, 135.532),
          ("Gamo 4-chome", "蒲生四丁目", 34.703, 135.544), ("Imafuku-Tsurumi", "今福鶴見", 34.704, 135.557),
          ("Yokozutsumi", "横堤", 34.706, 135.567), ("Tsurumi-ryokuchi", "鶴見緑地", 34.709, 135.576),
          ("Kadoma-minami", "門真南", 34.712, 135.587)],
    "I": [("Itakano", "井高野", 34.758, 135.555), ("Zuiko 4-chome", "瑞光四丁目", 34.751, 135.553),
          ("Daido-Toyosato", "だいどう豊里", 34.743, 135.551), ("Taishibashi-Imaichi", "太子橋今市", 34.729, 135.555),
          ("Shimizu", "清水", 34.722, 135.557), ("Shinmori-Furuichi", "新森古市", 34.715, 135.552),
          ("Sekime-Seiiku", "関目成育", 34.711, 135.545), ("Gamo 4-chome", "蒲生四丁目", 34.703, 135.544),
          ("Shigino", "鴫野", 34.690, 135.548), ("Midoribashi", "緑橋", 34.679, 135.546),
          ("Imazato", "今里", 34.668, 135.545)],
    "P": [("Cosmosquare", "コスモスクエア", 34.638, 135.414), ("Trade Center-mae", "トレードセンター前", 34.636, 135.420),
          ("Nakafuto", "中ふ頭", 34.632, 135.425), ("Port Town-higashi", "ポートタウン東", 34.628, 135.431),
          ("Port Town-nishi", "ポートタウン西", 34.626, 135.427), ("Ferry Terminal", "フェリーターミナル", 34.620, 135.436),
          ("Nanko-higashi", "南港東", 34.614, 135.440), ("Nanko-guchi", "南港口", 34.612, 135.450),
          ("Hirabayashi", "平林", 34.611, 135.461), ("Suminoekoen", "住之江公園", 34.609, 135.481)],
    # The bus: its stops between the terminals are placed evenly along the way (not surveyed).
    "B": [("Imazato", "今里", 34.668, 135.545), ("Imazato Liner 1", "", 34.655, 135.546),
          ("Imazato Liner 2", "", 34.642, 135.544), ("Imazato Liner 3", "", 34.630, 135.537),
          ("Imazato Liner 4", "", 34.619, 135.526), ("Nagai", "長居", 34.610, 135.516)],
}
SMALL_STOP_LINES = ("P", "B")   # their stops between the terminals are small stops

# Transfer complexes whose parts have different names: one station each (named by the first).
COMPLEXES = [("Umeda", "Higashi-Umeda", "Nishi-Umeda"), ("Shinsaibashi", "Yotsubashi"),
             ("Sekime-Takadono", "Sekime-Seiiku")]


def group_of(name: str) -> str:
    for complex_ in COMPLEXES:
        if name in complex_:
            return complex_[0]
    return name


def kept_stops() -> dict[str, list[tuple[int, str, str]]]:
    """Step 3: per line the (number, romaji, Japanese) stops it keeps; a small stop's name is
    marked so that it is never merged with a station of the same name."""
    lines = {letter: [(k + 1, name, ja) for k, (name, ja, _, _) in enumerate(STOPS[letter])] for letter in LINE_ORDER}
    kept = thin(lines, group_of)
    for letter in SMALL_STOP_LINES:
        stops = kept[letter]
        kept[letter] = [stops[0]] + [(n, f"small:{name}", ja) for n, name, ja in stops[1:-1]] + [stops[-1]]
    return kept


def build() -> dict:
    kept = kept_stops()
    where = {group_of(name): (lat, lon) for stops in STOPS.values() for name, _, lat, lon in stops}
    pos = {g: project(*where[g.removeprefix("small:")], CENTRE, POWER) for g in
           {group_of(name) for stops in kept.values() for _, name, _ in stops}}
    stations = layout(kept, pos, group_of, COLS, ROWS)
    written, ids, circle_of = circles_of(stations, LINE_ORDER, COLS, ROWS)
    small_ids = {slug(g) for g in stations if g.startswith("small:")}
    out_stations, small_stops = [], []
    for st in written:
        if st["id"] in small_ids:
            (circle,) = st["circles"]
            small_stops.append(dict(circle, id=st["id"].removeprefix("small-")))
        else:
            out_stations.append(st)
    out_lines = []
    for letter in LINE_ORDER:
        name, colour, shares, discs, vehicle, vehicles = LINES[letter]
        stops = [ids[group_of(stop)][circle_of[(letter, number)]].removeprefix("small-")
                 for number, stop, _ in kept[letter]]
        out_lines.append({"letter": letter, "name": name, "colour": colour, "shares": shares,
                          "disc_spaces": discs, "stops": stops, "vehicle": vehicle, "vehicles": vehicles})
    return {
        "format": "tokyo-table-companion/metro-board", "version": 1,
        "name": "Osaka Metro (approximate)", "approximate": True,
        "note": ("ASSUMPTION: the rule book prints no board. Generated by build_osaka.py from the real "
                 "Osaka Metro lines M T Y C S K N I, the Nanko Port Town New Tram (P) and the Imazato Liner "
                 "bus (B, ending at Nagai here): smaller stations thinned out, positions approximate, shares "
                 "and disc spaces our choice. The printed board differs; a table may record its own."),
        "grid": {"cols": COLS, "rows": ROWS},
        "start_area": START_AREA,
        "lines": out_lines,
        "stations": out_stations,
        "small_stops": small_stops,
    }


def stock_cards() -> dict:
    """Share #1 of each line at the invest action's cost; #2, #3 and #4 a flat 300 on top."""
    cards = [{"line": letter, "number": n, "surcharge": 0 if n == 1 else 300}
             for letter in LINE_ORDER for n in range(1, LINES[letter][2] + 1)]
    return {"format": "tokyo-table-companion/metro-stock-cards", "version": 1,
            "note": (f"{len(cards)} share cards: M 4; T Y C S K N I 3 each; P 2; B 1 (our choice: the rule book "
                     "says only that lines have 1, 2, 3 or 4). Shares #2, #3 and #4 cost a flat 300 on top "
                     "(rule book, OSAKA METRO, Investieren)."),
            "cards": cards}


def revenue_track() -> dict:
    """The same fit as Tokyo's track: the rule book gives no numbers for Osaka's either."""
    tokyo = json.loads((HERE / "revenue_track.json").read_text(encoding="utf-8"))
    return {"format": tokyo["format"], "version": 1,
            "note": ("ASSUMPTION: the two numbers beside each value are printed on the Osaka board and given "
                     "nowhere in the rule book. We use the fit of revenue_track.json (high = 70% of the value "
                     "rounded to the nearest 100, halves up; low = value - high): the rule book plays OSAKA "
                     "METRO by TOKYO METRO's rules, so nothing says the Osaka track splits differently. A table "
                     "with the printed track can replace this file."),
            "step": tokyo["step"], "top": tokyo["top"], "rows": tokyo["rows"]}


def write_compact(path: Path, data: dict, key: str) -> None:
    """JSON with one line per item of ``data[key]``, like the Tokyo card and track files."""
    head = json.dumps({k: v for k, v in data.items() if k != key}, ensure_ascii=False, indent=1)[:-2]
    items = ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in data[key])
    path.write_text(f'{head},\n "{key}": [\n{items}\n ]\n}}\n', encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "osaka_board.json")
    args = parser.parse_args()
    board = build()
    args.out.write_text(json.dumps(board, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    add_layout(args.out)   # where everything lies in millimetres, for the board camera
    write_compact(args.out.parent / "osaka_stock_cards.json", stock_cards(), "cards")
    write_compact(args.out.parent / "osaka_revenue_track.json", revenue_track(), "rows")
    stops = sum(len(line["stops"]) for line in board["lines"])
    circles = sum(len(s["circles"]) for s in board["stations"])
    print(f"wrote {args.out}: {len(board['stations'])} stations, {circles} circles, "
          f"{len(board['small_stops'])} small stops, {stops} stops")


if __name__ == "__main__":
    main()
