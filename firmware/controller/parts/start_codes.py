"""The start screen's codes: the table's address and the Wi-Fi code that opens it, following
the box's network (the hotspot's own while it is on, the address a network gave) or, where the
box does not manage its Wi-Fi, the LAN address looked up again; and the screen's pages of QR
codes, made once for each address, Wi-Fi code and PIN."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from firmware import card
from firmware.config import WiFi
from firmware.oled import screens


class StartCodes:
    """The address and Wi-Fi code the start screen shows, what the network last said (said
    once), and the page of codes up."""

    def __init__(self, url: str, clock: Callable[[], float]):
        self.url = url                     # "": no address yet
        self.wifi = WiFi()                 # the Wi-Fi code shown beside it
        self.clock = clock
        self._home = (url, WiFi())         # the address and Wi-Fi code away from the hotspot
        self._network_seen = -1            # the network status version last taken in
        self._network_said = ""            # its message last taken in: said once
        self._address_seen = -1            # the LAN address's version last taken in
        self._page = 0                     # the page of codes drawn last
        self._pages: tuple[Any, list] = (None, [])     # (url, PIN, Wi-Fi), its pages

    def follow(self, network: Any, address: Any) -> tuple[bool, str]:
        """Take in what changed of the box's network (firmware/network), or without one of the
        LAN address (firmware/network/address.py): whether the codes may have changed, and
        what the network says now that it had not said ("" for nothing)."""
        if network is not None and network.version != self._network_seen:
            # drawn again, said or not ("Joined" came again with the address it got)
            return True, self._network_changed(network.status())
        if network is None and address is not None and address.version != self._address_seen:
            self._address_seen, self.url = address.version, address.url
            return True, ""
        return False, ""

    def _network_changed(self, status: dict[str, Any]) -> str:
        """The box joined a network or opened its hotspot: the codes follow (the hotspot's
        Wi-Fi and address while it is on); its message, if new and not the first status."""
        first = self._network_seen < 0
        self._network_seen = status.get("version", 0)
        if first:
            self._home = (self.url, self.wifi)
        hotspot = status.get("hotspot") or {}
        if status.get("mode") == "hotspot":
            self.wifi = WiFi(ssid=hotspot.get("ssid", ""), password=hotspot.get("password", ""))
        else:
            self.wifi = self._home[1]
        self.url = status["url"] if "url" in status else self._home[0]    # "": no address yet
        said, self._network_said = self._network_said, status.get("message") or ""
        if self._network_said and self._network_said != said and not first:
            return self._network_said
        return ""

    def page_due(self, now: float) -> bool:
        """The next page of codes is due (there are pages only with a Wi-Fi code)."""
        return bool(self.wifi.ssid) and int(now // card.PAGE_SECONDS) != self._page

    def next_page_at(self) -> float | None:
        return (self._page + 1) * card.PAGE_SECONDS if self.wifi.ssid else None

    def frame(self, pin: str, network: Any, note: str = "") -> Image.Image:
        """The start screen: the page of codes up, or with no address yet what the box's
        network is doing (no code that would open the scanning phone itself); `note` under
        the PIN says what the knob's press does ("press knob" by default)."""
        if not self.url:                               # no network yet: no code to scan
            status = network.status() if network is not None else {}
            if status.get("mode") in ("home", "joining") and status.get("network"):
                name = status["network"].removeprefix("Parlour: ")
                said = (f"Wi-Fi {name}", "waiting for an address")
                if screens.message_whole(*said):
                    return screens.message("Parlour", *said)
                return screens.message("Parlour: Wi-Fi", name, said[1])   # a long name
            if status.get("trouble"):                  # it will not open: say why
                return screens.message("Parlour", "No hotspot",
                                       f"{status['trouble'][:1].upper()}{status['trouble'][1:]}")
            return screens.message("Parlour", "Looking for Wi-Fi",
                                   "its own hotspot opens if none answers")
        key = (self.url, pin, self.wifi, note)         # four QR codes: made once, not a frame
        if self._pages[0] != key:
            self._pages = (key, card.start_pages(
                self.url, self.wifi, lambda: screens.startup(self.url, pin, note)))
        pages = self._pages[1]
        self._page = int(self.clock() // card.PAGE_SECONDS)
        return pages[self._page % len(pages)]
