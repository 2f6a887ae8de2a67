"""The hotspot's NetworkManager commands, run by the real `nmcli` under the service's own
system-call filter (`seccomp_filter`), against a stand-in NetworkManager on a private D-Bus bus
(`network_manager_standin.py`). The service runs `nmcli` from its own process, so the filter is
the one `nmcli` runs under on a box; the bus is private, so nothing here touches this machine's
network. What the stand-in receives is what a real NetworkManager would: the profiles `nmcli`
builds from the box's arguments (the hotspot's WPA2-CCMP access point, a phone's home network),
their changes, activations, deactivations and deletion. Without a radio every start fails as
NetworkManager's own does without a device; with one, the hotspot opens, the phone's network is
joined, and a box started again reads it back from `nmcli`'s lines as the network it is on."""

from __future__ import annotations

from network_manager_bus import NEEDS, calls, changes, profiles, stand_in_network_manager
from network_manager_bus import network_manager  # noqa: F401 - a fixture, by its name
from seccomp_filter import SKIPS, run_under_the_filter

pytestmark = [*SKIPS, *NEEDS]

# The box with no known network (the hotspot opens), then a phone's home network to join,
# then the box started again: the hotspot's own code and its `run_nmcli`, under the filter.
SCENARIO = """
import json
from firmware.network.hotspot import Hotspot, HotspotSettings
def box():
    return Hotspot(HotspotSettings("Parlour-1234", "Board-Game-Night", "wlan0", after=0.0),
                   port=8080, lan_address=lambda: "192.168.1.20", clock=lambda: 0.0)
spot = box()
spot.check()
opening = spot.status()
spot.add_home("Home Net", "secret123")
spot.check()
joining = spot.status()
again = box()
again.check()
print(json.dumps({"filter": denied and filtered, "opening": opening, "joining": joining,
                  "again": again.status()}))
"""


def under_the_filter(address: str) -> dict:
    """`SCENARIO` run under the unit's filter, its `nmcli` talking to the bus at `address`."""
    return run_under_the_filter(SCENARIO, env={"DBUS_SYSTEM_BUS_ADDRESS": address,
                                               "LC_ALL": "C"})[0]


def test_seccomp_the_hotspot_and_a_home_network_go_through_real_nmcli_under_the_units_filter(
        network_manager):
    """No Wi-Fi device: every start fails, and the box says NetworkManager's words."""
    address, log = network_manager
    result = under_the_filter(address)

    hotspot, home = profiles(1, 2)
    # The hotspot added and started; the home network added, started and, as it could not be
    # joined, deleted; the hotspot changed back to the box's settings and started again; the
    # box started again tried no more than the first (the hotspot: changed, started). An
    # `nmcli` that the filter stopped would have left the stand-in without these calls.
    assert changes(log) == [
        ("AddConnection", hotspot), ("ActivateConnection", hotspot),
        ("AddConnection", home), ("ActivateConnection", home), ("Delete", home),
        ("Update", hotspot), ("ActivateConnection", hotspot),
        ("Update", hotspot), ("ActivateConnection", hotspot)]
    added, _, home_added, _, _, updated, *_ = calls(log)
    for profile in (added["settings"], updated["settings"]):
        assert profile["connection"]["id"] == "parlour-hotspot"
        assert profile["connection"]["autoconnect"] is False
        assert profile["connection"]["interface-name"] == "wlan0"
        assert {k: profile["802-11-wireless"][k] for k in ("ssid", "mode", "band")} == {
            "ssid": "Parlour-1234", "mode": "ap", "band": "bg"}
        assert profile["802-11-wireless-security"] == {
            "key-mgmt": "wpa-psk", "proto": ["rsn"], "pairwise": ["ccmp"], "group": ["ccmp"],
            "pmf": 1, "psk": "Board-Game-Night"}                  # pmf 1: "disable"
        assert (profile["ipv4"]["method"], profile["ipv6"]["method"]) == ("shared", "ignore")
    wanted = home_added["settings"]
    assert wanted["connection"]["id"] == "Parlour: Home Net"
    assert wanted["connection"]["autoconnect-priority"] == 10
    assert wanted["802-11-wireless"]["ssid"] == "Home Net"
    assert wanted["802-11-wireless-security"] == {"key-mgmt": "wpa-psk", "psk": "secret123"}

    # What the box says comes from NetworkManager's answer, through `nmcli`.
    assert result["opening"]["mode"] == "looking"
    assert result["opening"]["message"] == (     # NM's "No suitable device found", in words
        "The hotspot cannot open: no Wi-Fi radio (is the Wi-Fi country set?)")
    assert (result["joining"]["mode"], result["joining"]["message"]) == (
        "looking", "Could not join Home Net: no Wi-Fi radio")
    assert result["again"]["mode"] == "looking"


def test_seccomp_the_hotspot_opens_and_a_home_network_is_joined_and_known_after_a_restart():
    """With a radio, and the phone's network in range: the hotspot is on (the phones' address
    the box's own), the phone's network joined after the hotspot is taken down, and a box
    started again finds it active, its name read back from `nmcli`'s escaped lines."""
    with stand_in_network_manager(in_range=["Home Net"]) as (address, log):
        result = under_the_filter(address)
        made = changes(log)
    hotspot, home = profiles(1, 2)
    assert made == [("AddConnection", hotspot), ("ActivateConnection", hotspot),
                    ("AddConnection", home), ("DeactivateConnection", hotspot),
                    ("ActivateConnection", home)]
    assert {k: result["opening"][k] for k in ("mode", "network", "url", "message")} == {
        "mode": "hotspot", "network": "Parlour-1234", "url": "http://10.42.0.1:8080/",
        "message": "No known Wi-Fi in 0 s. Hotspot Parlour-1234 is on."}
    for status in (result["joining"], result["again"]):
        assert (status["mode"], status["network"], status["url"]) == (
            "home", "Parlour: Home Net", "http://192.168.1.20:8080/")
    assert result["joining"]["message"] == "Joined Home Net"


# The service started again while its hotspot is up (phones on it), then with another
# password in its config: the first keeps it, reading its settings back (`nmcli -s -g`).
RESTARTS = """
import json
from firmware.network.hotspot import Hotspot, HotspotSettings
def box(password):
    return Hotspot(HotspotSettings("Parlour: 12\\\\", password, "wlan0", after=0.0),
                   port=8080, lan_address=lambda: "192.168.1.20", clock=lambda: 0.0)
first = box("Board-Game-Night")
first.check()
again = box("Board-Game-Night")
again.check()
changed = box("Other-Pass-Word")
changed.check()
print(json.dumps({"filter": denied and filtered, "first": first.status(),
                  "again": again.status(), "changed": changed.status()}))
"""


def test_seccomp_a_box_started_again_keeps_its_hotspot_up_as_nmcli_reads_it_back():
    """Opening the hotspot again dropped every phone on it a minute after each restart of the
    service: the hotspot as the config has it is kept (its escaped name, its password read back
    by the real `nmcli`), and opened again only once the config changed it."""
    with stand_in_network_manager(in_range=[]) as (address, log):
        result = run_under_the_filter(RESTARTS, env={"DBUS_SYSTEM_BUS_ADDRESS": address,
                                                     "LC_ALL": "C"})[0]
        made = changes(log)
    hotspot, = profiles(1)
    assert made == [("AddConnection", hotspot), ("ActivateConnection", hotspot),
                    ("Update", hotspot), ("ActivateConnection", hotspot)]   # the third box's
    assert (result["first"]["mode"], result["again"]["mode"]) == ("hotspot", "hotspot")
    assert result["again"]["message"] == "Hotspot Parlour: 12\\ is still on."
    assert result["changed"]["message"] == \
        "The hotspot's settings changed. Hotspot Parlour: 12\\ is on."


# A box at home whose known network NetworkManager is still trying to join (its password
# changed, its router gives no address): what `nmcli` lists as active, and what the box makes
# of it, once when it has had no time yet and once when its time is up.
TRYING = """
import json
from firmware.network import nmcli
from firmware.network.hotspot import Hotspot, HotspotSettings
lines = nmcli.run_nmcli(nmcli.ACTIVE, 15)
def box(after):
    return Hotspot(HotspotSettings("Parlour-1234", "Board-Game-Night", "wlan0", after=after),
                   port=8080, lan_address=lambda: "127.0.0.1", clock=lambda: 0.0)
early, late = box(60.0), box(0.0)
early.check()
late.check()
print(json.dumps({"filter": denied and filtered, "lines": lines, "early": early.status(),
                  "late": late.status()}))
"""


def test_seccomp_a_known_network_still_being_joined_is_no_home_and_the_hotspot_opens():
    """NetworkManager lists a connection it is still trying among the active ones: the box
    said "home" on it (with no address a phone could reach) and opened no hotspot while the
    tries went on. Read through the real `nmcli`, it is not home: the box looks on, and opens
    its hotspot once its time is up."""
    with stand_in_network_manager(in_range=[], trying="Our House") as (address, log):
        result = run_under_the_filter(TRYING, env={"DBUS_SYSTEM_BUS_ADDRESS": address,
                                                   "LANG": "de_DE.UTF-8"})[0]
    assert result["lines"] == [0, "Our House:802-11-wireless:activating"]
    assert (result["early"]["mode"], result["early"]["network"]) == ("looking", "")
    assert (result["late"]["mode"], result["late"]["network"]) == ("hotspot", "Parlour-1234")
    assert result["late"]["message"] == "No known Wi-Fi in 0 s. Hotspot Parlour-1234 is on."
