"""The hotspot fallback: the NetworkManager commands the box runs (checked as nmcli arguments),
when it opens its own Wi-Fi, how a phone's home network is joined (or not), the password kept
in the data directory, the OLED, the phone page and the join card with both networks."""

from __future__ import annotations

import os
import re

import pytest

from fakes import ChangingNetwork, FakeClock
from firmware.card import card_html, wifi_text
from firmware.config import WiFi, parse_config, ConfigError
from firmware.datadir import keys
from firmware.network import nmcli
from firmware.network.hotspot import RETRY_SECONDS, Hotspot, HotspotSettings
from firmware.oled.codes import qr_matrix

SETTINGS = HotspotSettings(ssid="Parlour-ab12", password="k7mp-2xqa-rj9c", after=60)


class FakeNetworkManager:
    """Answers nmcli as NetworkManager would, from a little state; records every command."""

    def __init__(self, active: str = "lo:loopback:activated\n", fail_join: bool = False):
        self.active, self.fail_join = active, fail_join
        self.fail_hotspot = False
        self.profiles: list[str] = []
        self.hotspot: tuple[str, str, str] = ("", "", "")     # its ssid, password, interface
        self.commands: list[list[str]] = []

    def __call__(self, args: list[str], timeout: float) -> tuple[int, str]:
        self.commands.append(args)
        if args == nmcli.ACTIVE:
            return 0, self.active
        if args == nmcli.CONNECTIONS:
            return 0, "\n".join(self.profiles)
        if args == nmcli.HOTSPOT_SETTINGS:           # a value a line, escaped as nmcli does
            if nmcli.HOTSPOT not in self.profiles:
                return 10, f"Error: {nmcli.HOTSPOT} - no such connection profile."
            return 0, "\n".join(re.sub(r"([\\:])", r"\\\1", value) for value in self.hotspot)
        if args[:3] in (["connection", "add", "type"], ["connection", "modify", nmcli.HOTSPOT]):
            if nmcli.HOTSPOT in args:
                props = dict(zip(args[args.index("connection.interface-name")::2],
                                 args[args.index("connection.interface-name") + 1::2]))
                self.hotspot = (props["802-11-wireless.ssid"], props["wifi-sec.psk"],
                                props["connection.interface-name"])
        if args[:2] == ["connection", "add"]:
            self.profiles.append(args[args.index("con-name") + 1])
        if args[:2] == ["connection", "delete"]:
            if args[-1] not in self.profiles:
                return 10, f"Error: unknown connection '{args[-1]}'."
            self.profiles.remove(args[-1])
        if args[:2] == ["connection", "down"] and nmcli.active_known(self.active) is None:
            self.active = "lo:loopback:activated\n"           # the hotspot taken down
        if args[2:4] == ["connection", "up"]:
            if args[-1] == nmcli.HOTSPOT and self.fail_hotspot:
                return 4, "Error: Connection activation failed: no device"
            if args[-1] != nmcli.HOTSPOT and self.fail_join:
                return 4, "Error: Connection activation failed: Secrets were required"
            kind = "802-11-wireless"
            self.active = f"{args[-1].replace(':', chr(92) + ':')}:{kind}:activated\n"
        return 0, ""


def hotspot(nm, clock) -> Hotspot:
    return Hotspot(SETTINGS, port=8080, lan_address=lambda: "192.168.1.20", run=nm, clock=clock)


def test_network_hotspot_is_a_wpa2_access_point_that_nm_never_starts_by_itself():
    args = nmcli.add_hotspot("Parlour-ab12", "k7mp-2xqa-rj9c", "wlan0")
    assert args[:8] == ["connection", "add", "type", "wifi", "con-name", "parlour-hotspot",
                        "ifname", "wlan0"]
    props = dict(zip(args[10::2], args[11::2]))
    assert args[8:10] == ["ssid", "Parlour-ab12"]
    assert props == {
        "connection.interface-name": "wlan0", "connection.autoconnect": "no",
        "802-11-wireless.ssid": "Parlour-ab12", "802-11-wireless.mode": "ap",
        "802-11-wireless.band": "bg", "ipv4.method": "shared", "ipv6.method": "ignore",
        "wifi-sec.key-mgmt": "wpa-psk", "wifi-sec.proto": "rsn",
        "wifi-sec.pairwise": "ccmp", "wifi-sec.group": "ccmp",
        "wifi-sec.pmf": "disable",               # brcmfmac has no 802.11w as an access point
        "wifi-sec.psk": "k7mp-2xqa-rj9c"}
    modify = nmcli.modify_hotspot("Parlour-ab12", "new-pass-word", "wlan1")
    assert modify[:3] == ["connection", "modify", "parlour-hotspot"]
    assert dict(zip(modify[3::2], modify[4::2]))["wifi-sec.psk"] == "new-pass-word"


def test_network_home_network_joins_at_every_boot_before_the_hotspot():
    args = nmcli.add_home("Our House", "correct horse", "wlan0")
    assert args[:10] == ["connection", "add", "type", "wifi", "con-name", "Parlour: Our House",
                         "ifname", "wlan0", "ssid", "Our House"]
    props = dict(zip(args[10::2], args[11::2]))
    assert props == {"connection.autoconnect": "yes", "connection.autoconnect-priority": "10",
                     "wifi-sec.key-mgmt": "wpa-psk", "wifi-sec.psk": "correct horse"}
    assert "wifi-sec.psk" not in nmcli.add_home("Café", "", "wlan0")          # an open one


def test_network_reads_nmcli_terse_output_with_escaped_colons():
    assert nmcli.terse_fields(r"Tea\:Room:802-11-wireless") == ["Tea:Room", "802-11-wireless"]
    assert nmcli.active_known("lo:loopback:activated\nparlour-hotspot:802-11-wireless:activated\n") is None
    assert nmcli.active_known("lo:loopback:activated\nWired connection 1:802-3-ethernet:activated\n") == \
        "Wired connection 1"


def test_network_a_known_network_still_being_tried_is_not_home_and_the_hotspot_opens():
    """NetworkManager lists a connection it is still trying (a changed password, a router
    that gives no address) among the active ones: the box said "home" on it, with no address
    a phone could reach, and opened no hotspot while the tries went on. Only a joined network
    is home; after `after` seconds of tries the hotspot opens."""
    trying = "lo:loopback:activated\nOur House:802-11-wireless:activating\n"
    assert nmcli.active_known(trying) is None
    assert nmcli.active_known(trying.replace(":activating", ":activated")) == "Our House"
    nm, clock = FakeNetworkManager(active=trying), FakeClock()
    box = hotspot(nm, clock)
    box.check()
    assert box.status()["mode"] == "looking"
    clock.advance(SETTINGS.after)
    box.check()
    assert box.status()["mode"] == "hotspot"
    assert box.status()["message"] == "No known Wi-Fi in 60 s. Hotspot Parlour-ab12 is on."


def test_network_nmcli_answers_in_english_whatever_the_box_speaks():
    """`join_failure` and `active_known` read nmcli's English words ("activated", "Secrets
    were required"): a box set to German got "aktiviert" and never found its network."""
    env = nmcli.untranslated({"LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8",
                              "LANGUAGE": "de:en", "PATH": "/usr/bin"})
    assert env == {"LANG": "de_DE.UTF-8", "LC_CTYPE": "de_DE.UTF-8", "LC_MESSAGES": "C",
                   "PATH": "/usr/bin"}
    assert nmcli.untranslated({"LANG": "de_DE.UTF-8"}) == {"LANG": "de_DE.UTF-8",
                                                          "LC_MESSAGES": "C"}


def test_network_reads_a_network_name_that_ends_in_a_backslash():
    """nmcli writes "Cafe\\" as "Cafe\\\\": its colon was read as escaped, so the box found
    no network and opened its hotspot over the home network it was on."""
    line = "Parlour\\: Cafe\\\\:802-11-wireless:activated"
    assert nmcli.terse_fields(line) == ["Parlour: Cafe\\", "802-11-wireless", "activated"]
    assert nmcli.active_known(f"lo:loopback:activated\n{line}\n") == "Parlour: Cafe\\"
    assert nmcli.terse_fields("a\\\\\\:b:c\\") == ["a\\:b", "c\\"]   # a lone one at the end kept
    nm, clock = FakeNetworkManager(active=f"{line}\n"), FakeClock()
    box = hotspot(nm, clock)
    box.check()
    assert (box.status()["mode"], box.status()["network"]) == ("home", "Parlour: Cafe\\")


def test_network_a_box_started_again_keeps_its_hotspot_on_and_every_phone_on_it():
    """The service started again (a crash, an update) while phones were on its hotspot: it
    looked for known Wi-Fi for a minute with the OLED saying so, then opened the hotspot again,
    which drops every phone. The hotspot as the settings have it is kept at the first look."""
    nm, clock = FakeNetworkManager(), FakeClock()
    first = hotspot(nm, clock)
    clock.advance(60)
    first.check()
    assert first.status()["mode"] == "hotspot"
    ups = nm.commands.count(nmcli.up(nmcli.HOTSPOT))
    again = hotspot(nm, clock)                     # the service started again
    again.check()
    status = again.status()
    assert (status["mode"], status["url"]) == ("hotspot", "http://10.42.0.1:8080/")
    assert status["message"] == "Hotspot Parlour-ab12 is still on."
    assert nm.commands.count(nmcli.up(nmcli.HOTSPOT)) == ups          # never taken down
    assert not any(c[:2] == ["connection", "modify"] for c in nm.commands)
    clock.advance(RETRY_SECONDS)                    # and steps aside unused, as ever
    again.check()
    assert nm.commands[-1] == nmcli.down(nmcli.HOTSPOT)


def test_network_a_box_started_again_mid_game_keeps_the_hotspot_for_phones_asleep():
    """Started again mid-game with its hotspot up, phones asleep between turns: the hotspot
    it kept gave way five minutes later, as if no phone had ever been on it."""
    nm, clock = FakeNetworkManager(), FakeClock()
    first = hotspot(nm, clock)
    clock.advance(60)
    first.check()
    again = Hotspot(SETTINGS, port=8080, lan_address=lambda: "192.168.1.20", run=nm,
                    clock=clock, in_use=lambda: False, game_on=lambda: True)
    again.check()
    for _ in range(3):
        clock.advance(RETRY_SECONDS)
        again.check()
    assert again.status()["mode"] == "hotspot" and nmcli.down(nmcli.HOTSPOT) not in nm.commands


def test_network_a_hotspot_up_with_other_settings_is_opened_again_with_the_configs():
    """The config's hotspot password changed and the service started again: the hotspot up
    still had the old one, which the OLED no longer showed. It opens again as configured."""
    nm, clock = FakeNetworkManager(), FakeClock()
    first = hotspot(nm, clock)
    clock.advance(60)
    first.check()
    assert first.status()["mode"] == "hotspot"
    changed = Hotspot(HotspotSettings("Parlour-ab12", "new-pass-word"), port=8080,
                      lan_address=lambda: "192.168.1.20", run=nm, clock=clock)
    changed.check()
    assert changed.status()["mode"] == "hotspot"
    assert nm.commands[-2] == nmcli.modify_hotspot("Parlour-ab12", "new-pass-word", "wlan0")
    assert nm.commands[-1] == nmcli.up(nmcli.HOTSPOT)
    assert nm.hotspot == ("Parlour-ab12", "new-pass-word", "wlan0")
    assert changed.status()["message"] == \
        "The hotspot's settings changed. Hotspot Parlour-ab12 is on."


def test_network_opens_the_hotspot_only_when_no_known_network_came_in_time():
    nm, clock = FakeNetworkManager(), FakeClock()
    box = hotspot(nm, clock)
    box.check()
    clock.advance(59)
    box.check()
    assert box.status()["mode"] == "looking" and not any("add" in c for c in nm.commands)
    clock.advance(1)
    box.check()
    status = box.status()
    assert status["mode"] == "hotspot" and status["url"] == "http://10.42.0.1:8080/"
    assert status["hotspot"] == {"ssid": "Parlour-ab12", "password": "k7mp-2xqa-rj9c"}
    assert nmcli.add_hotspot("Parlour-ab12", "k7mp-2xqa-rj9c", "wlan0") in nm.commands
    assert nm.commands[-1] == nmcli.up(nmcli.HOTSPOT)
    assert "No known Wi-Fi in 60 s" in status["message"]
    version = status["version"]
    box.check()                                   # it stays up: only a look at it
    assert box.status()["version"] == version and nm.commands[-1] == nmcli.ACTIVE
    assert nm.commands.count(nmcli.up(nmcli.HOTSPOT)) == 1


def test_network_an_unused_hotspot_gives_way_to_home_wifi_that_came_up_later():
    # after a power cut the box boots before the router: its hotspot opens, then home returns
    nm, clock = FakeNetworkManager(), FakeClock()
    box = hotspot(nm, clock)
    clock.advance(60)
    box.check()
    assert box.status()["mode"] == "hotspot"
    clock.advance(RETRY_SECONDS - 1)
    box.check()
    assert box.status()["mode"] == "hotspot" and nm.commands.count(nmcli.up(nmcli.HOTSPOT)) == 1
    clock.advance(1)
    box.check()
    assert nm.commands[-1] == nmcli.down(nmcli.HOTSPOT)
    status = box.status()
    assert status["mode"] == "looking" and status["url"] == "http://192.168.1.20:8080/"
    assert status["message"] == ""              # quietly: no flash on the OLED each time
    nm.active = "lo:loopback:activated\nOur House:802-11-wireless:activated\n"     # NetworkManager joined it
    box.check()
    assert box.status()["mode"] == "home" and box.status()["network"] == "Our House"


def test_network_an_unused_hotspot_opens_again_when_no_known_wifi_answers():
    nm, clock = FakeNetworkManager(), FakeClock()
    box = hotspot(nm, clock)
    clock.advance(60)
    box.check()
    clock.advance(RETRY_SECONDS)
    box.check()
    assert box.status()["mode"] == "looking"
    clock.advance(59)
    box.check()
    assert box.status()["mode"] == "looking"
    clock.advance(1)
    box.check()
    assert box.status()["mode"] == "hotspot" and nm.commands[-1] == nmcli.up(nmcli.HOTSPOT)
    assert box.status()["message"] == ""
    clock.advance(RETRY_SECONDS - 1)                 # the next look is a whole wait later
    box.check()
    assert box.status()["mode"] == "hotspot"


def test_network_a_hotspot_a_phone_has_open_stays_up():
    nm, clock = FakeNetworkManager(), FakeClock()
    phones = [1]
    box = Hotspot(SETTINGS, port=8080, lan_address=lambda: "192.168.1.20", run=nm,
                  clock=clock, in_use=lambda: bool(phones))
    clock.advance(60)
    box.check()
    for _ in range(4):
        clock.advance(RETRY_SECONDS)
        box.check()
    assert box.status()["mode"] == "hotspot" and nmcli.down(nmcli.HOTSPOT) not in nm.commands
    phones.clear()                                  # the last phone closed the table's page
    box.check()
    assert box.status()["mode"] == "looking" and nm.commands[-1] == nmcli.down(nmcli.HOTSPOT)


def test_network_a_hotspot_that_went_down_in_a_game_is_opened_again():
    """The radio or NetworkManager dropped the access point while a game was in play: the box
    looked at nothing while its hotspot was on, so the phones lost the table until the game
    ended (the OLED said "hotspot on" all along). Each look now sees it gone and opens it."""
    nm, clock = FakeNetworkManager(), FakeClock()
    box = Hotspot(SETTINGS, port=8080, lan_address=lambda: "192.168.1.20", run=nm,
                  clock=clock, in_use=lambda: True)
    clock.advance(60)
    box.check()
    assert box.status()["mode"] == "hotspot" and nmcli.hotspot_active(nm.active)
    nm.active = "lo:loopback:activated\n"                                  # the access point is gone
    clock.advance(5)
    box.check()
    assert nm.commands.count(nmcli.up(nmcli.HOTSPOT)) == 2 and nmcli.hotspot_active(nm.active)
    assert box.status()["mode"] == "hotspot"
    assert box.status()["message"] == "The hotspot went down. Hotspot Parlour-ab12 is on."
    failing = FakeNetworkManager()
    box = Hotspot(SETTINGS, port=8080, lan_address=lambda: "192.168.1.20", run=failing,
                  clock=clock, in_use=lambda: True)
    clock.advance(60)
    box.check()
    failing.active, failing.fail_hotspot = "lo:loopback:activated\n", True
    box.check()                                  # it could not: said, and tried again soon
    assert box.status()["mode"] == "looking" and box.status()["url"] == "http://192.168.1.20:8080/"
    assert box.status()["message"] == ("The hotspot cannot open: no Wi-Fi radio (is the Wi-Fi "
                                       "country set?)")


def test_network_a_hotspot_that_cannot_open_is_tried_less_often_and_says_why():
    """A Pi with no Wi-Fi country set (its radio blocked): "No suitable device found for this
    connection" every 5 s for ever (17,000 nmcli failures and log lines a day), the message cut
    mid-word. It is tried after 15 s, then twice as long each time up to ten minutes; the
    reason is said in words, and known as the status's `trouble` until the hotspot opens."""
    nm, clock = FakeNetworkManager(), FakeClock()
    nm.fail_hotspot = True
    box = hotspot(nm, clock)
    tries = []
    for second in range(0, 3600, 5):                    # an hour of looks, 5 s apart
        before = nm.commands.count(nmcli.up(nmcli.HOTSPOT))
        box.check()
        if nm.commands.count(nmcli.up(nmcli.HOTSPOT)) > before:
            tries.append(second)
        clock.advance(5)
    gaps = [b - a for a, b in zip(tries, tries[1:])]
    assert tries[0] == 60 and gaps[:6] == [15, 30, 60, 120, 240, 480]
    assert set(gaps[6:]) == {600} and len(tries) < 15                # not 708
    status = box.status()
    assert status["mode"] == "looking"
    assert status["trouble"] == "no Wi-Fi radio (is the Wi-Fi country set?)"
    nm.fail_hotspot = False
    clock.advance(600)
    box.check()
    assert box.status()["mode"] == "hotspot" and box.status()["trouble"] == ""


@pytest.mark.parametrize("output, said", [
    ("Error: Connection activation failed: No suitable device found for this connection "
     "(device lo not available because profile is not compatible with device (mismatching "
     "interface name)).", "no Wi-Fi radio (is the Wi-Fi country set?)"),
    ("Error: Connection activation failed: the radio is switched off by a hardware switch and "
     "will stay off until someone turns it on again", "the radio is switched off by a "
     "hardware switch and will…"),
    ("", "no reason given")])
def test_network_a_hotspot_failures_reason_is_said_in_words_never_cut_mid_word(output, said):
    from firmware.network.hotspot import hotspot_trouble
    assert hotspot_trouble(output) == said


def test_network_no_address_yet_shows_no_code_that_opens_the_phone_itself(session, clock):
    """With no route (booting at a venue, or looking for home Wi-Fi between hotspot spells)
    the start screen's code opened http://127.0.0.1:8080/, the scanning phone itself: while
    there is no address the screen says what the box is doing instead."""
    from firmware.controller import Controller
    from firmware.oled import screens
    box_net = Hotspot(SETTINGS, port=8080, lan_address=lambda: "127.0.0.1",
                      run=FakeNetworkManager(), clock=clock)
    assert box_net.status()["url"] == ""
    box = Controller(session, seats=4, clock=clock, url="http://127.0.0.1:8080/")
    network = ChangingNetwork(mode="looking", network="", message="", url="")
    box.network = network
    box.attach()
    try:
        box.update()
        assert box.codes.url == ""
        assert box.render().tobytes() == screens.message(
            "Parlour", "Looking for Wi-Fi", "its own hotspot opens if none answers").tobytes()
        network.change(mode="home", network="Parlour: Our House")     # no lease yet
        box.update()
        assert box.render().tobytes() == screens.message(
            "Parlour", "Wi-Fi Our House", "waiting for an address").tobytes()
        network.change(url="http://192.168.1.31:8080/")
        box.update()
        leased = Controller(session, seats=4, clock=clock, url="http://192.168.1.31:8080/")
        assert box.render().tobytes() == leased.render().tobytes()
    finally:
        box.close()


def test_network_the_box_counts_a_live_page_and_a_game_in_play_for_the_hotspot(
        tmp_path, mock_factory, monkeypatch):
    from firmware import runner
    from firmware.config import Config
    network = hotspot(FakeNetworkManager(), FakeClock())
    monkeypatch.setattr(runner, "hotspot_fallback", lambda *a, **k: network)
    monkeypatch.setattr(network, "start", lambda: None)
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path), pin="2468")
    try:
        parlour = table.web.app.extensions["parlour"]
        assert network.in_use() is False and network.game_on() is False
        stream = parlour.hub.open(address="10.42.0.17")
        assert network.in_use() is True
        stream.close()
        assert network.in_use() is False
        table.session.new_game("kat-en-muis", ["Ann", "Ben"])
        assert network.game_on() is True and network.in_use() is False
        parlour.known_addresses.saw("10.42.0.18")      # a paired phone polling, no stream
        assert network.in_use() is True
        table.session.abandon()                     # set aside: no game in play
        assert network.game_on() is False
    finally:
        table.close()


def test_network_a_game_resumed_after_a_power_cut_does_not_hold_the_hotspot_up():
    """The box came back before the router with a game in play and opened its hotspot: the
    players' phones are on the home network, so none ever opens the table on the hotspot, and
    a game in play used to keep it up for good (the phones sat on "Reconnecting..."). The game
    keeps it up only once a phone has had the table open on it: then a phone asleep between
    turns comes back to it, and when the game ends the hotspot gives way again."""
    nm, clock = FakeNetworkManager(), FakeClock()
    phones, game = [], [True]
    box = Hotspot(SETTINGS, port=8080, lan_address=lambda: "192.168.1.20", run=nm,
                  clock=clock, in_use=lambda: bool(phones), game_on=lambda: game[0])
    clock.advance(60)
    box.check()
    assert box.status()["mode"] == "hotspot"
    clock.advance(RETRY_SECONDS)
    box.check()                                 # no phone came: it looks for home Wi-Fi
    assert box.status()["mode"] == "looking" and nm.commands[-1] == nmcli.down(nmcli.HOTSPOT)
    clock.advance(60)
    box.check()                                 # none answered: a table away from home
    assert box.status()["mode"] == "hotspot"
    phones.append("Ann")
    box.check()
    phones.clear()                              # Ann's phone sleeps between turns
    for _ in range(3):
        clock.advance(RETRY_SECONDS)
        box.check()
    assert box.status()["mode"] == "hotspot" and nm.commands.count(
        nmcli.down(nmcli.HOTSPOT)) == 1
    game[0] = False                             # the game ended: nothing holds it up now
    box.check()
    assert box.status()["mode"] == "looking"
    nm.active = "lo:loopback:activated\nOur House:802-11-wireless:activated\n"      # home again
    box.check()
    assert box.status()["mode"] == "home"
    game[0] = True                              # another cut mid-game: no phone came yet
    nm.active = "lo:loopback:activated\n"
    box.check()
    clock.advance(60)
    box.check()
    assert box.status()["mode"] == "hotspot"
    clock.advance(RETRY_SECONDS)
    box.check()
    assert box.status()["mode"] == "looking"


def test_network_a_known_network_means_no_hotspot_ever():
    nm, clock = FakeNetworkManager("lo:loopback:activated\nOur House:802-11-wireless:activated\n"), FakeClock()
    box = hotspot(nm, clock)
    for _ in range(5):
        box.check()
        clock.advance(30)
    assert box.status()["mode"] == "home" and box.status()["network"] == "Our House"
    assert box.status()["url"] == "http://192.168.1.20:8080/"
    assert all(c == nmcli.ACTIVE for c in nm.commands)


def test_network_second_start_modifies_the_kept_hotspot_rather_than_adding_another():
    nm, clock = FakeNetworkManager(), FakeClock()
    nm.profiles.append(nmcli.HOTSPOT)
    box = hotspot(nm, clock)
    clock.advance(61)
    box.check()
    assert nmcli.modify_hotspot("Parlour-ab12", "k7mp-2xqa-rj9c", "wlan0") in nm.commands
    assert nm.profiles == [nmcli.HOTSPOT]


def test_network_a_phone_adds_home_and_the_box_leaves_its_hotspot_for_it():
    nm, clock = FakeNetworkManager(), FakeClock()
    box = hotspot(nm, clock)
    clock.advance(61)
    box.check()
    words = box.add_home("Our House", "correct horse")
    assert "Joining Our House" in words and box.status()["mode"] == "joining"
    nm.commands.clear()
    box.check()
    assert nm.commands == [nmcli.delete("Parlour: Our House"),
                           nmcli.add_home("Our House", "correct horse", "wlan0"),
                           nmcli.down(nmcli.HOTSPOT), nmcli.up("Parlour: Our House")]
    status = box.status()
    assert status["mode"] == "home" and status["message"] == "Joined Our House"
    assert status["url"] == "http://192.168.1.20:8080/"


def test_network_a_wrong_password_brings_the_hotspot_back_and_forgets_the_network():
    nm, clock = FakeNetworkManager(fail_join=True), FakeClock()
    box = hotspot(nm, clock)
    clock.advance(61)
    box.check()
    box.add_home("Our House", "wrong password")
    box.check()
    assert nm.commands[-5:] == [
        nmcli.up("Parlour: Our House"), nmcli.delete("Parlour: Our House"), nmcli.CONNECTIONS,
        nmcli.modify_hotspot("Parlour-ab12", "k7mp-2xqa-rj9c", "wlan0"), nmcli.up(nmcli.HOTSPOT)]
    assert "Parlour: Our House" not in nm.profiles
    status = box.status()
    assert status["mode"] == "hotspot" and status["message"] == (     # the OLED says why
        "Could not join Our House: wrong password? Hotspot Parlour-ab12 is on.")
    assert nmcli.join_failure("Error: Connection activation failed: No network with SSID "
                              "'Our House' found.") == "network not found"
    assert nmcli.join_failure("Error: Connection activation failed: The Wi-Fi network could "
                              "not be found") == "network not found"     # NM's reason 53
    assert nmcli.join_failure("Error: Timeout expired (90 seconds)") == "no answer"
    assert nmcli.join_failure("Error: something new") == ""


@pytest.mark.parametrize("ssid, password, reason", [
    ("", "correct horse", "Type the network's name."),
    ("a" * 33, "correct horse", "at most 32 bytes"),
    ("Our\nHouse", "correct horse", "no line breaks"),
    ("Our House", "short", "8 to 63 printable ASCII characters"),
    ("Our House", "x" * 64, "8 to 63 printable ASCII characters"),
])
def test_network_a_name_or_password_that_cannot_be_is_refused_and_nothing_runs(ssid, password,
                                                                               reason):
    nm = FakeNetworkManager()
    box = hotspot(nm, FakeClock())
    with pytest.raises(ValueError, match=re.escape(reason)):
        box.add_home(ssid, password)
    assert box.status()["mode"] == "looking" and nm.commands == []


def test_network_hotspot_password_is_made_once_and_kept_private(tmp_path):
    made = keys.hotspot_password(tmp_path)
    assert re.fullmatch(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", made)
    assert not set(made) & set("01ilo")                         # nothing to misread
    assert keys.hotspot_password(tmp_path) == made
    assert os.stat(tmp_path / "hotspot-password").st_mode & 0o777 == 0o600
    (tmp_path / "hotspot-password").write_text("short")         # not a WPA2 passphrase
    assert keys.hotspot_password(tmp_path) != "short"
    assert len({keys.make_hotspot_password() for _ in range(50)}) == 50


def test_network_config_hotspot_section_is_checked():
    assert parse_config({}).hotspot.mode == "auto"
    config = parse_config({"hotspot": {"mode": "off", "after": 30, "name": "Games night"}})
    assert (config.hotspot.mode, config.hotspot.after, config.hotspot.name) == \
        ("off", 30.0, "Games night")
    for bad, words in [({"mode": "always"}, "expected one of auto, off"),
                       ({"after": 5}, "10-3600 seconds"),
                       ({"name": "a\nb"}, "at most 32 bytes on one line"),
                       ({"interface": "wlan0; rm"}, "an interface name"),
                       ({"interface": "-wlan0"}, "an interface name"),    # an nmcli option
                       ({"interface": "w" * 16}, "an interface name")]:   # past IFNAMSIZ
        with pytest.raises(ConfigError, match=re.escape(words)):
            parse_config({"hotspot": bad})


def _modules(svg: str, border: int = 2) -> set[tuple[int, int]]:
    return {(int(y) - border, int(x) - border)
            for x, y in re.findall(r"M(\d+),(\d+)H\d+V\d+H\d+z", svg)}


def _dark(data: str) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(qr_matrix(data)) for c, on in enumerate(row) if on}


def test_network_join_card_has_codes_for_both_networks():
    home = WiFi("Our House", "correct horse")
    hotspot_wifi = WiFi("Parlour-ab12", "k7mp-2xqa-rj9c")
    page = card_html("http://192.168.1.20:8080/", home,
                     hotspot=(hotspot_wifi, "http://10.42.0.1:8080/"))
    codes = [_modules(svg) for svg in re.findall(r"<svg .*?</svg>", page, re.S)]
    assert codes == [_dark(wifi_text(home)), _dark("http://192.168.1.20:8080/"),
                     _dark("WIFI:T:WPA;S:Parlour-ab12;P:k7mp-2xqa-rj9c;;"),
                     _dark("http://10.42.0.1:8080/")]
    assert "Password: <b>k7mp-2xqa-rj9c</b>" in page and "At home" in page
    assert "Anywhere else: the box&#x27;s own Wi-Fi" in page
    alone = card_html("http://192.168.1.20:8080/", home)
    assert alone.count("<svg ") == 2 and "At home" not in alone and "own Wi-Fi" not in alone


def test_network_card_command_adds_the_hotspot_from_the_data_dir(tmp_path, capsys, monkeypatch):
    from firmware.cli import main
    monkeypatch.setattr("firmware.runner.lan_address", lambda host: "192.168.1.20")
    out = tmp_path / "card.html"
    data = tmp_path / "data"
    data.mkdir()
    keys.table_id(data), keys.hotspot_password(data)              # as the box made them
    assert main(["card", "--hotspot", "--data-dir", str(data), "--port", "9000",
                 "--out", str(out)]) == 0
    password = (data / "hotspot-password").read_text()
    page = out.read_text()
    assert f"Password: <b>{password}</b>" in page and "http://10.42.0.1:9000/" in page
    ssid = "Parlour-" + (data / "table-id").read_text()[:4]
    assert ssid in page and f"and the hotspot {ssid}" in capsys.readouterr().out


def test_network_card_refuses_a_data_dir_where_no_box_keeps_a_hotspot(tmp_path, capsys):
    # a wrong --data-dir would print a made-up password that joins nothing
    from firmware.cli import main
    out, data = tmp_path / "card.html", tmp_path / "not-the-box"
    data.mkdir()
    assert main(["card", "--hotspot", "--data-dir", str(data), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no table's hotspot is kept there" in err and "--data-dir /var/lib/parlour" in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists() and list(data.iterdir()) == []        # nothing made up, nothing kept


def test_network_card_says_run_it_as_the_service_where_the_kept_files_are_not_its_to_read(
        tmp_path, capsys, monkeypatch):
    """Run as another user, the card was told "move it aside to make a new one" of the table's
    id: a new table and a new hotspot. It says how to run it as the service."""
    from pathlib import Path
    from firmware.cli import main
    data = tmp_path / "data"
    data.mkdir()
    keys.table_id(data), keys.hotspot_password(data)
    real = Path.read_bytes

    def not_ours(path):
        if path.parent == data:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)
    monkeypatch.setattr(Path, "read_bytes", not_ours)
    assert main(["card", "--hotspot", "--data-dir", str(data), "--url",
                 "http://192.168.1.20:8080/", "--out", "-"]) == 2
    err = capsys.readouterr().err
    assert "cannot read the hotspot's password there (Permission denied); on the box run it " \
           "as the service: sudo -u parlour" in err and "move it aside" not in err


def test_network_oled_follows_the_hotspot_and_its_menu_shows_the_password(session, clock):
    from firmware.controller import Controller
    from firmware.oled import screens
    from controller_support import press
    box = Controller(session, seats=4, clock=clock, url="http://192.168.1.20:8080/")
    box.codes.wifi = WiFi("Our House", "correct horse")
    network = ChangingNetwork(mode="looking", network="", message="",
                              url="http://192.168.1.20:8080/")
    box.network = network
    box.attach()
    try:
        box.update()
        assert box.codes.wifi.ssid == "Our House" and box.notice.text == ""
        network.change(mode="hotspot", network="Parlour-ab12", url="http://10.42.0.1:8080/",
                       message="No known Wi-Fi in 60 s. Hotspot Parlour-ab12 is on.")
        box.update()
        assert box.codes.wifi == WiFi("Parlour-ab12", "k7mp-2xqa-rj9c")
        assert box.codes.url == "http://10.42.0.1:8080/" and "Hotspot Parlour-ab12 is on." in \
            box.notice.text
        press(box, "menu")
        assert "Wi-Fi" in box.menu_items
        press(box, "turn", detents=box.menu_items.index("Wi-Fi"))
        press(box, "press")
        assert box.screen == "wifi"
        box.notice.text = ""
        assert box.render().tobytes() == screens.message(
            "Wi-Fi Parlour-ab12", "k7mp-2xqa-rj9c",
            "password, then open 10.42.0.1:8080").tobytes()
        network.change(mode="joining", message="Joining Our House")   # a phone added it: not
        box.update()                                   # "Wi-Fi / Parlour-ab12" as if on it
        box.notice.text = ""
        assert box.render().tobytes() == screens.message(
            "Wi-Fi", "Joining Our House", "if it fails: back to Parlour-ab12").tobytes()
        network.change(mode="home", network="Parlour: Our House", message="Joined Our House",
                       url="")                                 # joined: no address yet
        box.update()
        assert box.codes.wifi == WiFi("Our House", "correct horse")
        assert box.codes.url == "" and box.notice.text == "Joined Our House"
        box.notice.text = ""
        network.change(url="http://192.168.1.31:8080/")          # the lease: said once only
        box.update()
        assert box.codes.url == "http://192.168.1.31:8080/" and box.notice.text == ""
    finally:
        box.close()


def test_network_menu_has_no_wifi_where_the_box_does_not_manage_it(session, clock):
    from firmware.controller import Controller
    from controller_support import press
    box = Controller(session, seats=4, clock=clock)
    box.attach()
    press(box, "menu")
    assert "Wi-Fi" not in box.menu_items
    box.close()


def test_network_without_a_hotspot_the_oled_address_follows_the_lan(session, clock):
    """[hotspot] mode = "off": the service starts before the network (no wait at boot), so the
    address was 127.0.0.1 until a restart, and a new DHCP lease was never shown."""
    from firmware.controller import Controller
    from firmware.network.address import CHECK_SECONDS, LanAddress
    found = ["127.0.0.1"]
    box = Controller(session, seats=4, clock=clock, url="http://127.0.0.1:8080/")
    box.address = LanAddress(lambda: found[0], 8080, clock=clock)
    box.update()
    assert box.codes.url == "http://127.0.0.1:8080/"
    found[0] = "192.168.1.20"                                 # the lease came
    box.update()
    assert box.codes.url == "http://127.0.0.1:8080/"         # looked at every few seconds
    clock.advance(CHECK_SECONDS)
    box.update()
    assert box.codes.url == "http://192.168.1.20:8080/"
    leased = Controller(session, seats=4, clock=clock, url="http://192.168.1.20:8080/")
    assert box.render().tobytes() == leased.render().tobytes()         # its code and address
