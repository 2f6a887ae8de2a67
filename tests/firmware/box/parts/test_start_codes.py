"""The start screen's codes alone: the address and Wi-Fi code following the box's network or
the LAN address, what the network says said once, and the pages of codes turning."""

from __future__ import annotations

from fakes import HOTSPOT, ChangingNetwork, FakeClock
from firmware import card
from firmware.config import WiFi
from firmware.controller.parts.start_codes import StartCodes
from firmware.oled import screens

HOME = WiFi("Our House", "correct horse")


class Address:
    """A stand-in for the LAN address looked up again (firmware/network/address.py)."""

    def __init__(self, url: str):
        self.version, self.url = 0, url


def test_start_codes_show_the_hotspots_wifi_while_it_is_on_then_home_again():
    codes = StartCodes("http://192.168.1.20:8080/", FakeClock())
    codes.wifi = HOME
    network = ChangingNetwork(mode="looking", message="", url="http://192.168.1.20:8080/")
    assert codes.follow(network, None) == (True, "")
    assert codes.wifi == HOME
    network.change(mode="hotspot", url="http://10.42.0.1:8080/", message="Hotspot is on.")
    changed, said = codes.follow(network, None)
    assert changed and said == "Hotspot is on."
    assert codes.wifi == WiFi(**HOTSPOT) and codes.url == "http://10.42.0.1:8080/"
    network.change(mode="home", url="", message="Joined Our House")     # no address yet
    assert codes.follow(network, None) == (True, "Joined Our House")
    assert codes.wifi == HOME and codes.url == ""


def test_start_codes_say_a_network_message_once_and_none_from_the_first_status():
    codes = StartCodes("", FakeClock())
    network = ChangingNetwork(mode="home", message="Joined Our House", url="")
    assert codes.follow(network, None) == (True, "")            # the box's start: not news
    network.change(url="http://192.168.1.31:8080/")              # the lease, same message
    assert codes.follow(network, None) == (True, "")
    assert codes.url == "http://192.168.1.31:8080/"
    assert codes.follow(network, None) == (False, "")            # nothing new


def test_start_codes_a_status_without_an_address_keeps_the_one_before_the_network():
    codes = StartCodes("http://192.168.1.20:8080/", FakeClock())
    network = ChangingNetwork(mode="home", message="")
    codes.follow(network, None)
    assert codes.url == "http://192.168.1.20:8080/"


def test_start_codes_without_a_network_follow_the_lan_address_by_its_version():
    codes = StartCodes("http://127.0.0.1:8080/", FakeClock())
    address = Address("http://127.0.0.1:8080/")
    assert codes.follow(None, address) == (True, "")
    address.url = "http://192.168.1.20:8080/"
    assert codes.follow(None, address) == (False, "")             # not looked up again yet
    address.version += 1
    assert codes.follow(None, address) == (True, "")
    assert codes.url == "http://192.168.1.20:8080/"
    assert StartCodes("", FakeClock()).follow(None, None) == (False, "")


def test_start_codes_with_no_address_draw_what_the_network_does_not_a_code():
    codes = StartCodes("", FakeClock())
    assert codes.frame("4821", None).tobytes() == screens.message(
        "Parlour", "Looking for Wi-Fi", "its own hotspot opens if none answers").tobytes()
    joining = ChangingNetwork(mode="joining", network="Parlour: Our House")
    assert codes.frame("4821", joining).tobytes() == screens.message(
        "Parlour", "Wi-Fi Our House", "waiting for an address").tobytes()


def test_start_codes_pages_turn_only_with_a_wifi_code():
    clock = FakeClock(start=card.PAGE_SECONDS * 10)
    codes = StartCodes("http://192.168.1.20:8080/", clock)
    codes.frame("4821", None)
    assert codes.next_page_at() is None and not codes.page_due(clock.now + 60)
    codes.wifi = HOME
    first = codes.frame("4821", None)
    assert codes.next_page_at() == clock.now + card.PAGE_SECONDS
    assert not codes.page_due(clock.now) and codes.page_due(clock.now + card.PAGE_SECONDS)
    clock.advance(card.PAGE_SECONDS)
    assert codes.frame("4821", None).tobytes() != first.tobytes()
    pages = card.start_pages(codes.url, HOME,
                             lambda: screens.startup(codes.url, "4821"))
    clock.advance(card.PAGE_SECONDS * (len(pages) - 1))       # round to the first again
    assert codes.frame("4821", None).tobytes() == first.tobytes()


def test_start_codes_a_hotspot_that_cannot_open_is_said_on_the_start_screen():
    """With no Wi-Fi radio the start screen kept "Looking for Wi-Fi / its own hotspot opens if
    none answers" for good, a promise that never came: it says there is no hotspot, and why."""
    from drawn_words import shows
    from firmware.network.hotspot import hotspot_trouble
    trouble = hotspot_trouble("Error: Connection activation failed: No suitable device found "
                              "for this connection (device lo not available).")
    network = ChangingNetwork(mode="looking", message="", url="", trouble=trouble)
    frame = StartCodes("", FakeClock()).frame("4821", network)
    assert shows(frame, "No hotspot", screens.MEDIUM, bold=True)
    assert shows(frame, "No Wi-Fi radio (is")
    network.change(trouble="")
    frame = StartCodes("", FakeClock()).frame("4821", network)
    assert shows(frame, "Looking for Wi-Fi", screens.MEDIUM, bold=True)
