"""NetworkManager through its command line, as Raspberry Pi OS (Bookworm, Trixie) ships it.

Each command is built as an argument list (what the tests check) and run by an injected
runner, so nothing here touches a laptop's network. The hotspot is a WPA2 (RSN, CCMP only)
access point in NetworkManager's "shared" mode: it hands out addresses from 10.42.0.0/24 and the
box is 10.42.0.1.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Mapping

HOTSPOT = "parlour-hotspot"          # the connection's name in NetworkManager
HOTSPOT_ADDRESS = "10.42.0.1"        # the box, in NetworkManager's shared mode
HOME_PREFIX = "Parlour: "            # a network added from a phone: "Parlour: <ssid>"
JOIN_SECONDS = 40                    # how long `connection up` may take to join
KNOWN_TYPES = ("802-11-wireless", "802-3-ethernet")

Runner = Callable[[list[str], float], tuple[int, str]]    # (arguments, timeout) -> (code, words)


def untranslated(environ: Mapping[str, str]) -> dict[str, str]:
    """`environ` with nmcli's words in English, as `join_failure` and `active_known` read
    them (a box set to German had "aktiviert"), and names still read in the box's encoding."""
    env = {k: v for k, v in environ.items() if k not in ("LC_ALL", "LANGUAGE")}
    if environ.get("LC_ALL"):
        env["LC_CTYPE"] = environ["LC_ALL"]      # it was in force over LC_CTYPE
    env["LC_MESSAGES"] = "C"
    return env


def run_nmcli(args: list[str], timeout: float) -> tuple[int, str]:
    """Run `nmcli args`; (exit code, what it printed). A missing nmcli is code 127."""
    try:
        done = subprocess.run(["nmcli", *args], capture_output=True, text=True, timeout=timeout,
                              check=False, env=untranslated(os.environ))
    except FileNotFoundError:
        return 127, "nmcli is not installed (NetworkManager)"
    except subprocess.TimeoutExpired:
        return 124, f"nmcli gave no answer in {timeout:.0f} s"
    return done.returncode, (done.stdout + done.stderr).strip()


def _wpa2(password: str) -> list[str]:
    """WPA2-CCMP with management-frame protection (802.11w) off: NetworkManager turns it on
    for wpa-psk where wpa_supplicant can, and the Pi's brcmfmac radio does not support it as
    an access point (raspberrypi/linux#3619: phones cannot join; #7247: a Trixie hotspot's
    group keys fail to set)."""
    return ["wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn",
            "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp", "wifi-sec.pmf", "disable",
            "wifi-sec.psk", password]


def hotspot_properties(ssid: str, password: str, interface: str) -> list[str]:
    """The hotspot's settings: an access point on 2.4 GHz (every phone sees it), addresses
    shared from the box, WPA2 only, started by Parlour and never by NetworkManager itself."""
    return ["connection.interface-name", interface, "connection.autoconnect", "no",
            "802-11-wireless.ssid", ssid, "802-11-wireless.mode", "ap",
            "802-11-wireless.band", "bg", "ipv4.method", "shared", "ipv6.method", "ignore",
            *_wpa2(password)]


def add_hotspot(ssid: str, password: str, interface: str) -> list[str]:
    return ["connection", "add", "type", "wifi", "con-name", HOTSPOT, "ifname", interface,
            "ssid", ssid, *hotspot_properties(ssid, password, interface)]


def modify_hotspot(ssid: str, password: str, interface: str) -> list[str]:
    return ["connection", "modify", HOTSPOT, *hotspot_properties(ssid, password, interface)]


def add_home(ssid: str, password: str, interface: str) -> list[str]:
    """A home network: joined by NetworkManager at every boot from now on, before the hotspot
    is ever needed (an open network when `password` is empty)."""
    security = ["wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.psk", password] if password else []
    return ["connection", "add", "type", "wifi", "con-name", HOME_PREFIX + ssid,
            "ifname", interface, "ssid", ssid, "connection.autoconnect", "yes",
            "connection.autoconnect-priority", "10", *security]


def up(name: str) -> list[str]:
    return ["--wait", str(JOIN_SECONDS), "connection", "up", "id", name]


def down(name: str) -> list[str]:
    return ["connection", "down", "id", name]


def delete(name: str) -> list[str]:
    return ["connection", "delete", "id", name]


CONNECTIONS = ["-t", "-f", "NAME", "connection", "show"]
HOTSPOT_SETTINGS = ["-s", "-g", "802-11-wireless.ssid,802-11-wireless-security.psk,"
                    "connection.interface-name", "connection", "show", "id", HOTSPOT]
# Every connection NetworkManager has taken up, and its state: "activating" while it still
# tries (a wrong password, a router that gives no address), "activated" once joined.
ACTIVE = ["-t", "-f", "NAME,TYPE,STATE", "connection", "show", "--active"]


TERSE_FIELD = re.compile(r"((?:[^\\:]|\\.?)*):")     # a field, escapes kept whole, and its colon


def terse_fields(line: str) -> list[str]:
    """One line of `nmcli -t` output, split at the colons it does not escape ("Cafe\\\\:"
    is the name "Cafe\\" and then a field: the backslash is the escaped one, not the colon)."""
    return [re.sub(r"\\(.)", r"\1", part) for part in TERSE_FIELD.findall(line + ":")]


def hotspot_active(output: str) -> bool:
    """Whether the hotspot's connection is among the active ones (`ACTIVE`'s output)."""
    return any(terse_fields(line)[0] == HOTSPOT for line in output.splitlines())


def hotspot_settings(output: str) -> tuple[str, ...]:
    """The hotspot's name, password and interface as NetworkManager has them
    (`HOTSPOT_SETTINGS`'s output: a value a line, escaped as `-t` escapes them)."""
    return tuple(terse_fields(line)[0] for line in output.splitlines()[:3])


def active_known(output: str) -> str | None:
    """The name of a joined Wi-Fi or wired connection other than the hotspot, if any (one
    still being tried is no network yet: phones cannot reach the box on it)."""
    for line in output.splitlines():
        fields = terse_fields(line)
        if len(fields) == 3 and fields[1] in KNOWN_TYPES and fields[0] != HOTSPOT \
                and fields[2] == "activated":
            return fields[0]
    return None


# What NetworkManager's refusal of a join means, for the OLED: its own words are long and
# technical ("Error: Connection activation failed: Secrets were required, but not provided").
JOIN_FAILURES = (("secrets were required", "wrong password?"),
                 ("no network with ssid", "network not found"),
                 ("not found", "network not found"),
                 ("could not be found", "network not found"),      # NM's reason 53
                 ("timeout", "no answer"), ("timed out", "no answer"),
                 ("no suitable device", "no Wi-Fi radio"), ("no device", "no Wi-Fi radio"))


def join_failure(output: str) -> str:
    """Why a join failed, in a few words for the OLED ("wrong password?"); "" if unknown."""
    text = output.lower()
    return next((words for clue, words in JOIN_FAILURES if clue in text), "")

