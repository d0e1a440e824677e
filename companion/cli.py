"""The ``companion`` command (contracts in DESIGN.md). With ``--json`` the JSON goes
to stdout and nothing else does; messages and progress go to stderr."""
from __future__ import annotations

import argparse
import faulthandler
import json
import signal
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description="Tokyo Table Companion")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the service and the dashboard")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all, for the LAN)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data", type=Path, default=None, help="data directory (default: per-user)")
    serve.add_argument("--camera", default="sim",
                       help="the tray camera: a USB index (0), a video file, an http(s)/rtsp URL (phone camera), "
                            "'sim' (the simulated table's camera, the default) or 'none'")
    serve.add_argument("--serial", default="sim",
                       help="the sensor board: a port, 'auto', usb:VID:PID[:SERIAL], 'sim' (a simulated board, "
                            "the default) or 'none'")
    serve.add_argument("--board-camera", default=None, metavar="SPEC",
                       help="the camera over the TOKYO METRO board: the same sources as --camera ('sim': the "
                            "simulated board camera, the default on a simulated table; 'none': off)")
    serve.add_argument("--crate-camera", default=None, metavar="SPEC",
                       help="the camera over the crates of GRAPE SODA, YUZU and the exploding cans: the same sources "
                            "as --camera ('sim': the simulated crate camera, the default on a simulated table; "
                            "'none': off)")
    serve.add_argument("--landing-camera", default=None, metavar="SPEC",
                       help="the camera over the table in front of the tower, which sees where thrown drinks land "
                            "(the upside-down tower, LEMON SQUASH): the same sources as --camera ('sim': the "
                            "simulated landing camera, the default on a simulated table; 'none': off)")
    serve.add_argument("--board-fps", type=float, default=None, metavar="FPS",
                       help="board camera readings a second at most (default 4, 1 to 15: more settles a board "
                            "sooner and costs more of a core)")
    serve.add_argument("--board-settle-s", type=float, default=None, metavar="SECONDS",
                       help="a board is settled when three readings in a row over at least this long show the "
                            "same pieces (default 0.6, 0.2 to 5)")
    serve.add_argument("--profile", default=None,
                       help="drink profile from `companion calibrate drinks` (needed for a real camera)")
    serve.add_argument("--public-url", default=None, metavar="URL",
                       help="the address phones use to reach this service, for the join links and QR codes "
                            "(e.g. http://192.168.1.20:8000 or http://tabletop.local:8000; default: the LAN "
                            "address found)")
    serve.add_argument("--new-host-key", action="store_true",
                       help="replace the host key: devices that opened the old host link are strangers again")

    replay = sub.add_parser("replay", help="replay a game log and print the final view and payouts")
    replay.add_argument("log", type=Path)
    replay.add_argument("--json", action="store_true", help="print JSON on stdout")

    from .vision.cli import register as register_vision

    register_vision(sub)  # calibrate, identify

    args = parser.parse_args(argv)
    handlers = {"serve": _serve, "replay": _replay}
    return handlers[args.command](args) if args.command in handlers else args.func(args)


def _table_camera(spec: str | None, tray_camera: str | None) -> str | None:
    """A camera over the table's pieces (board, crates, landings): as given, else simulated on a
    simulated table (the tray camera ``sim`` or ``sim:SEED``) and off otherwise; None when off."""
    if spec is None:
        simulated = tray_camera is not None and (tray_camera == "sim" or tray_camera.startswith("sim:"))
        spec = "sim" if simulated else "none"
    return None if spec in ("none", "") else spec


def _serve(args: argparse.Namespace) -> int:
    from .table.store import EventStore, StoreError, default_data_dir

    camera = None if args.camera in ("none", "") else args.camera
    serial = None if args.serial in ("none", "") else args.serial
    board_camera = _table_camera(args.board_camera, camera)
    crate_camera = _table_camera(args.crate_camera, camera)
    landing_camera = _table_camera(args.landing_camera, camera)
    pace = _board_pace(args)
    if isinstance(pace, str):
        print(f"companion: {pace}", file=sys.stderr)
        return 2
    if camera not in (None, "sim") and not camera.startswith("sim:") and args.profile is None:
        print("companion: a real camera needs a drink profile: run `companion calibrate drinks` and add "
              "--profile PROFILE.json (or start with --camera sim)", file=sys.stderr)
        return 2
    if serial:
        from .sensors.ports import PortSpecError, parse_spec

        try:
            parse_spec(serial)
        except PortSpecError as exc:
            print(f"companion: --serial {serial}: {exc}", file=sys.stderr)
            return 2
    from .server.reach import parse_public_url

    public_url = None
    if args.public_url is not None:
        try:
            public_url = parse_public_url(args.public_url)
        except ValueError as exc:
            print(f"companion: --public-url {args.public_url}: {exc}", file=sys.stderr)
            return 2
    data = args.data or default_data_dir()
    try:
        store = EventStore(data)
    except StoreError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 1
    import uvicorn

    from .server.app import create_app
    from .server.live_protocol import LightDeflate
    from .server.slow_clients import PatientH11
    from .sim.board_source import open_board_camera
    from .sim.camera import open_camera
    from .sim.crate_camera import open_crate_camera
    from .sim.landing_camera import open_landing_camera
    from .sim.table import SimTable
    from .table.access import Access

    access = Access(store)
    host_key = access.new_host_key() if args.new_host_key else access.host_key()
    join_url, warning = _join_address(args.host, args.port, public_url)
    base = join_url or f"http://127.0.0.1:{args.port}"

    def describe(spec: str | None, what: str) -> str:
        return "none" if spec is None else (f"simulated {what}" if spec.startswith("sim") else spec)

    # The host link is the table's master key: printed here, where only the host sees it, and
    # never sent by the service itself. Whoever opens it can do everything a host does.
    print(f"Tokyo Table Companion\n"
          f"  camera: {describe(camera, 'camera')}; sensors: {describe(serial, 'sensor board')}; "
          f"board camera: {describe(board_camera, 'board camera')}; "
          f"crate camera: {describe(crate_camera, 'crate camera')}; "
          f"landing camera: {describe(landing_camera, 'landing camera')}\n"
          f"  data:   {store.path}\n"
          f"  host:   {base}/?host={host_key}\n"
          f"          (open it on the table's tablet; keep it to yourself: it holds the table's keys)",
          file=sys.stderr, flush=True)
    if warning:
        print(f"  WARNING: {warning}", file=sys.stderr, flush=True)
    # The composition root: the simulated table (computer players, its chance, its tower and its
    # camera) is wired in here; the table and the camera code never import it.
    app = create_app(store, public_url=join_url, camera=camera, serial=serial, profile=args.profile,
                     automation=SimTable(), open_camera=open_camera, board_camera=board_camera,
                     open_board_camera=open_board_camera, crate_camera=crate_camera,
                     open_crate_camera=open_crate_camera, landing_camera=landing_camera,
                     open_landing_camera=open_landing_camera, **pace)
    # A service that stops answering says where it waits: `kill -USR1 PID` writes every thread's
    # stack to stderr (the server's log) and the service goes on (docs/testing.md, a hung test).
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    # A live view never sends more than a few bytes: a larger WebSocket message is refused.
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", http=PatientH11, ws=LightDeflate,
                ws_max_size=4096)
    return 0


def _board_pace(args: argparse.Namespace) -> dict | str:
    """The board camera's pace (``board_fps``, ``board_settle_s`` for create_app), or what is
    wrong with the options."""
    from .table.board_device import FPS_RANGE, READ_FPS
    from .table.board_watch import SETTLE_S_RANGE

    pace: dict = {"board_fps": READ_FPS, "board_settle_s": None}
    for option, key, given, (low, high) in (("--board-fps", "board_fps", args.board_fps, FPS_RANGE),
                                            ("--board-settle-s", "board_settle_s", args.board_settle_s,
                                             SETTLE_S_RANGE)):
        if given is None:
            continue
        if not low <= given <= high:   # (a NaN is refused here too)
            return f"{option} {given:g}: give a number from {low:g} to {high:g}"
        pace[key] = float(given)
    return pace


def _join_address(host: str, port: int, public_url: str | None) -> tuple[str | None, str | None]:
    """The URL the join links use (None: the address each request came to) and a warning when
    phones cannot open them: no LAN address found and no --public-url, or listening on
    127.0.0.1 alone."""
    from .server.reach import lan_address, reachable, url_host, usable

    everywhere = host in ("0.0.0.0", "::", "")
    if everywhere:
        lan = lan_address()
    else:  # --host names the LAN address (or a name of this machine) itself; 127.0.0.1 is none
        is_name = ":" not in host and not host[-1:].isdigit()
        lan = host if usable(host) or (is_name and reachable(f"http://{host}")) else None
    if public_url:
        if not reachable(public_url):
            return public_url, (f"--public-url {public_url} points at this machine itself, which phones cannot "
                                f"open; give the address phones reach it by")
        if not lan and not everywhere:
            return public_url, (f"listening on {host} only: phones reach {public_url} only through a proxy "
                                f"there; for the Wi-Fi, start with --host 0.0.0.0")
        return public_url, None
    if lan:
        return f"http://{url_host(lan)}:{port}", None
    if everywhere:
        where, fix = ("no LAN address found", "join this machine to the table's Wi-Fi and restart, or name the "
                                              "address phones use with --public-url http://ADDRESS:PORT")
    else:
        where, fix = f"listening on {host} only", "start with --host 0.0.0.0 (or add --public-url URL)"
    return None, (f"{where}: join links and QR codes point at 127.0.0.1, which phones cannot open; {fix} "
                  f"(the table's tablet on this machine works as is)")


def _replay(args: argparse.Namespace) -> int:
    from .table.log import LogError, replayed

    try:
        lines = args.log.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        print(f"companion: cannot read {args.log}: {exc.strerror}", file=sys.stderr)
        return 1
    try:
        result = replayed(lines)
    except LogError as exc:
        if args.json:
            print(json.dumps({"error": {"line": exc.line, "reason": exc.reason}}))
        print(f"companion: {args.log}: line {exc.line}: {exc.reason}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        p = result["payouts"]
        names = [pl["name"] for pl in result["view"]["players"]]
        print(f"{'final' if p['final'] else 'in progress'}: " +
              ", ".join(f"{n} {y} yen" for n, y in zip(names, p["yen"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
