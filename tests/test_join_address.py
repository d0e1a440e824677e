"""Join that works over Wi-Fi (issue 28): the LAN address chosen for the join links (without a
network: the choice is a pure function of what the OS reported), `--public-url` and its
validation, and the warning the join panel reads when phones cannot open the links."""
from __future__ import annotations

import subprocess
import sys

import pytest

from api_support import NOBODY, table_client
from companion.cli import _join_address
from companion.server import reach
from companion.server.reach import choose_address, parse_public_url, reachable
from companion.table.store import EventStore
from waiting import PROCESS_PATIENCE


# --- the LAN address -----------------------------------------------------------------------------

def test_a_normal_lan_takes_the_routed_address():
    assert choose_address("192.168.1.20", ["127.0.1.1"]) == "192.168.1.20"
    assert choose_address("192.168.1.20", ["10.0.0.5"]) == "192.168.1.20"  # the route's address first


def test_a_stock_debian_laptop_without_a_route_finds_nothing():
    # its host name resolves to 127.0.1.1 alone (/etc/hosts), and with no Wi-Fi there is no route
    assert choose_address(None, ["127.0.1.1"]) is None
    assert choose_address("127.0.0.1", ["127.0.1.1", "::1"]) is None


def test_the_host_names_addresses_when_the_route_says_nothing():
    assert choose_address(None, ["127.0.1.1", "192.168.1.20"]) == "192.168.1.20"
    assert choose_address(None, ["fd00::5", "10.0.0.7"]) == "10.0.0.7"  # IPv4 before IPv6
    assert choose_address(None, ["fd00::5"]) == "fd00::5"


def test_link_local_addresses_are_skipped():
    assert choose_address("169.254.3.7", ["127.0.1.1"]) is None   # no DHCP answer: no LAN
    assert choose_address("169.254.3.7", ["169.254.3.7", "fe80::1%wlan0", "192.168.0.9"]) == "192.168.0.9"


def test_no_network_at_all():
    assert choose_address(None, []) is None
    assert choose_address("", ["not an address"]) is None


def test_the_os_wrapper_asks_without_sending(monkeypatch):
    routed = {"address": None}

    class Probe:  # a UDP socket: connect() picks a route and sends nothing; no route: OSError
        def __init__(self, family, kind):
            assert kind == reach.socket.SOCK_DGRAM

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def connect(self, address):
            assert address[0] == reach.PROBE
            if routed["address"] is None:
                raise OSError("Network is unreachable")

        def getsockname(self):
            return routed["address"], 40000

    monkeypatch.setattr(reach.socket, "socket", Probe)
    monkeypatch.setattr(reach.socket, "gethostname", lambda: "laptop")
    monkeypatch.setattr(reach.socket, "getaddrinfo", lambda *a: [(2, 2, 17, "", ("127.0.1.1", 0))])
    assert reach.lan_address() is None
    monkeypatch.setattr(reach.socket, "getaddrinfo", lambda *a: [(2, 2, 17, "", ("192.168.4.2", 0))])
    assert reach.lan_address() == "192.168.4.2"
    routed["address"] = "10.1.2.3"
    assert reach.lan_address() == "10.1.2.3"


# --- --public-url and the warning ------------------------------------------------------------------

@pytest.mark.parametrize("given, url", [
    ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
    ("http://192.168.1.20:8000/", "http://192.168.1.20:8000"),
    ("https://Tabletop.local", "https://tabletop.local"),
    ("http://[fd00::5]:8000", "http://[fd00::5]:8000"),
])
def test_public_url_accepted(given, url):
    assert parse_public_url(given) == url


@pytest.mark.parametrize("given, says", [
    ("192.168.1.20:8000", "http"), ("ftp://host", "http"), ("http://", "no host"),
    ("http://host:8000/table", "path"), ("http://host/?x=1", "path"), ("http://host:99999", "URL"),
    ("http://user:pw@host", "password"),
])
def test_public_url_refused(given, says):
    with pytest.raises(ValueError, match=says):
        parse_public_url(given)


def test_the_cli_refuses_a_bad_public_url_with_exit_2(tmp_path):
    result = subprocess.run([sys.executable, "-m", "companion.cli", "serve", "--data", str(tmp_path),
                             "--public-url", "192.168.1.20:8000/x"], capture_output=True, text=True,
                            timeout=PROCESS_PATIENCE)
    assert result.returncode == 2
    assert "--public-url" in result.stderr and "http" in result.stderr and not result.stdout
    assert not (tmp_path / "companion.sqlite3").exists()   # refused before anything is made


def test_which_address_the_links_use_and_when_serve_warns(monkeypatch):
    monkeypatch.setattr(reach, "lan_address", lambda: "192.168.1.20")
    assert _join_address("0.0.0.0", 8000, None) == ("http://192.168.1.20:8000", None)
    assert _join_address("0.0.0.0", 8000, "http://tabletop.local:8000") == ("http://tabletop.local:8000", None)
    assert _join_address("192.168.1.30", 8001, None) == ("http://192.168.1.30:8001", None)
    url, warning = _join_address("127.0.0.1", 8000, None)    # listening on loopback alone
    assert url is None and "127.0.0.1" in warning and "--host 0.0.0.0" in warning
    monkeypatch.setattr(reach, "lan_address", lambda: None)  # no LAN address found
    url, warning = _join_address("0.0.0.0", 8000, None)
    assert url is None and "--public-url" in warning and "Wi-Fi" in warning
    assert _join_address("0.0.0.0", 8000, "http://192.168.1.20:8000") == ("http://192.168.1.20:8000", None)


def test_reachable():
    assert not reachable("http://127.0.0.1:8000") and not reachable("http://localhost:8000")
    assert not reachable("http://[::1]:8000") and not reachable("http://127.0.1.1:8000")
    assert reachable("http://192.168.1.20:8000") and reachable("http://tabletop.local:8000")


# --- the join links through the API ----------------------------------------------------------------

def _links(client, gid):
    players = client.get(f"/api/games/{gid}/players").json()
    watch = client.get(f"/api/games/{gid}/spectators").json()
    return players, watch


def test_join_links_use_the_public_url_and_its_name_is_answered(tmp_path):
    with table_client(EventStore(tmp_path), public_url="http://tabletop.local:8000") as client:
        gid = client.post("/api/games", json={"names": ["Aki", "Ben", "Chie"], "seed": 1}).json()["id"]
        players, watch = _links(client, gid)
        assert all(p["url"].startswith("http://tabletop.local:8000/player?game=") and p["reachable"] for p in players)
        assert watch["url"].startswith("http://tabletop.local:8000/?game=") and watch["reachable"]
        qr = client.get(f"/api/games/{gid}/players/0/qr.svg")
        assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg")
        # a phone asks by that name: the Host guard answers it (another name: 400)
        assert client.get("/api/game-types", headers={"Host": "tabletop.local:8000", **NOBODY}).status_code == 200
        assert client.get("/api/game-types", headers={"Host": "evil.example", **NOBODY}).status_code == 400


def test_the_lan_url_is_used_and_only_loopback_is_flagged(tmp_path):
    with table_client(EventStore(tmp_path), public_url="http://192.168.1.20:8000") as client:
        gid = client.post("/api/games", json={"names": ["Aki", "Ben", "Chie"], "seed": 1}).json()["id"]
        players, watch = _links(client, gid)
        assert {p["url"].split("/player")[0] for p in players} == {"http://192.168.1.20:8000"}
        assert all(p["reachable"] for p in players) and watch["reachable"]
    with table_client(EventStore(tmp_path / "b")) as client:   # nothing known but 127.0.0.1
        created = client.post("/api/games", json={"names": ["Aki", "Ben", "Chie"], "seed": 1}).json()
        players, watch = _links(client, created["id"])
        assert all(p["url"].startswith("http://127.0.0.1:8000/") and p["reachable"] is False for p in players)
        assert watch["reachable"] is False
        assert all(p["reachable"] is False for p in created["players"])
        revoked = client.post(f"/api/games/{created['id']}/players/1/revoke").json()
        assert revoked["reachable"] is False
        described = client.get("/openapi.json").json()["paths"]["/api/games/{game_id}/players"]["get"]
        assert "reachable" in described["description"]
