"""The hotspot fallback: a table away from home Wi-Fi still has a network.

After boot the box waits `after` seconds for NetworkManager to join a network it knows (Wi-Fi
or a cable). If none answers, it opens its own WPA2 access point ("Parlour-xxxx", its password
kept in the data directory and shown in the OLED's Wi-Fi menu and on the join card), and the
phones join that. A signed-in phone can then add a home network: the box leaves its hotspot to
join it, and comes back to the hotspot within a minute if it cannot (the OLED says why).
A hotspot that no phone has open gives way every `RETRY_SECONDS` for `after` seconds, so a box
that started before the router (after a power cut) finds its home network when it comes up. A
game in play keeps it up once a phone has had the table open on it (phones asleep between turns
come back to it), but not a game merely resumed after a power cut with no phone on the hotspot:
those phones are on the home network, waiting for the box to come back to it. A hotspot that
went down by itself (the radio, NetworkManager) is opened again at the next look, game or no
game. One that cannot open is tried again after 15 s, then less often (`HOTSPOT_RETRY`), and
the OLED says why.

Everything runs on the `network` thread; the device loop and the web requests only read
`status()` (and `version`, which grows with every change) and never wait for NetworkManager.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.backoff import pause_after
from firmware.config import password_problem, ssid_problem
from firmware.network import nmcli
from firmware.network.address import is_loopback

log = logging.getLogger("parlour.network")
CHECK_SECONDS = 5.0                  # how often the thread looks at NetworkManager
TIMEOUT = 15.0                       # for any nmcli command but joining
RETRY_SECONDS = 300.0                # an unused hotspot steps aside to look for known Wi-Fi
# A hotspot that would not open (no Wi-Fi radio, none allowed: no Wi-Fi country set) is tried
# again after 15 s, then twice as long each time up to ten minutes: every 5 s made 17,000
# nmcli failures and log lines a day.
HOTSPOT_RETRY = (15.0, 30.0, 60.0, 120.0, 240.0, 480.0, 600.0)
TROUBLE_LETTERS = 60                 # why, in three small lines of the OLED's start screen


@dataclass(frozen=True)
class HotspotSettings:
    ssid: str
    password: str
    interface: str = "wlan0"
    after: float = 60.0              # seconds after start with no known network


def table_hotspot(config, data_dir) -> HotspotSettings:
    """The table's hotspot: the configured name, or "Parlour-" and the table id's first four
    digits; the password made once in the data directory (OSError if it cannot be read)."""
    from firmware.datadir import keys
    return HotspotSettings(ssid=config.name or f"Parlour-{keys.table_id(data_dir)[:4]}",
                           password=keys.hotspot_password(data_dir),
                           interface=config.interface, after=config.after)


def hotspot_trouble(output: str) -> str:
    """Why the hotspot did not open, for the OLED: NetworkManager's reason in a few words
    where it is known ("no Wi-Fi radio (is the Wi-Fi country set?)"), else its own first line
    cut at a word, never mid-word ("...found for this connectio")."""
    words = nmcli.join_failure(output)
    if words == "no Wi-Fi radio":
        return "no Wi-Fi radio (is the Wi-Fi country set?)"
    if words:
        return words
    line = next((ln.strip() for ln in output.splitlines() if ln.strip()), "no reason given")
    line = line.removeprefix("Error: ").removeprefix("Connection activation failed: ")
    if len(line) <= TROUBLE_LETTERS:
        return line
    return line[:TROUBLE_LETTERS].rsplit(" ", 1)[0].rstrip(" ,;:(") + "…"


def network_name_problem(ssid: str) -> str:
    """Why `ssid` cannot be a Wi-Fi network's name, in a phone's words; "" if it can."""
    if not ssid.strip():
        return "Type the network's name."
    problem = ssid_problem(ssid)
    return problem[:1].upper() + problem[1:] + "." if problem else ""


class Hotspot:
    """Watches for a known network and opens the hotspot when none comes (see the module)."""

    def __init__(self, settings: HotspotSettings, *, port: int,
                 lan_address: Callable[[], str], run: nmcli.Runner = nmcli.run_nmcli,
                 clock: Callable[[], float] = time.monotonic,
                 in_use: Callable[[], bool] = lambda: False,
                 game_on: Callable[[], bool] = lambda: False):
        self.settings, self.port, self.lan_address = settings, port, lan_address
        self.run, self.clock = run, clock
        self.in_use = in_use                     # a phone has the table open (the web sets it)
        self.game_on = game_on                   # a game is in play (the runner sets it)
        self._phones_came = False                # a phone had the table open on the hotspot
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()           # a phone added a network: look now
        self._thread: threading.Thread | None = None
        self._joining: tuple[str, str] | None = None
        self._looking_again = False              # the hotspot stepped aside (`_look_again`)
        self.version = 0
        self._status: dict[str, Any] = {"mode": "looking", "network": "", "message": "",
                                        "url": self.lan_url(), "trouble": ""}
        self._since = clock()
        self._hotspot_failures = 0               # opens failed in a row (HOTSPOT_RETRY)

    # -- what the OLED and the phones read ------------------------------------------------

    def status(self) -> dict[str, Any]:
        """{"mode": "looking" | "home" | "hotspot" | "joining", "network": the network the box
        is on, "hotspot": {"ssid", "password"}, "url": the address phones open now ("": none
        yet), "message": the last thing worth saying, "trouble": why the hotspot cannot open
        ("" while none is known), "version"}."""
        with self._lock:
            return {**self._status, "version": self.version,
                    "hotspot": {"ssid": self.settings.ssid,
                                "password": self.settings.password}}

    def _set(self, **changes: Any) -> None:
        with self._lock:
            if all(self._status.get(k) == v for k, v in changes.items()):
                return
            self._status.update(changes)
            self.version += 1
        log.info("network: %s", {k: v for k, v in changes.items() if k != "url"})

    def lan_url(self) -> str:
        """The table's address on the network the box is on; "" while it has none (only
        loopback: a code for it would open the phone itself)."""
        address = self.lan_address()
        if is_loopback(address):
            return ""
        return f"http://{address}:{self.port}/"

    @property
    def hotspot_url(self) -> str:
        return f"http://{nmcli.HOTSPOT_ADDRESS}:{self.port}/"

    # -- the thread ---------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._watch, name="network", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=nmcli.JOIN_SECONDS + 5)

    def _watch(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                self.check()
                failures = 0
            except Exception as err:  # noqa: BLE001 - logged; the table plays on regardless
                failures += 1
                log.exception("network: %s: %s (looking again)", type(err).__name__, err)
            self._wake.wait(CHECK_SECONDS * min(2 ** failures, 12))
            self._wake.clear()

    def check(self) -> None:
        """One look: note a known network, or open the hotspot when none came in time, or
        join the network a phone added."""
        if self._joining is not None:
            self._join(*self._joining)
            return
        mode = self._status["mode"]
        code, out = self.run(nmcli.ACTIVE, TIMEOUT)
        if mode == "hotspot":
            if code == 0 and not nmcli.hotspot_active(out):     # the radio or NM dropped it
                log.warning("network: the hotspot %s went down: opening it again",
                            self.settings.ssid)
                if not self._open_hotspot("The hotspot went down"):   # again: HOTSPOT_RETRY
                    self._set(mode="looking", network="", url=self.lan_url())
            elif not self._kept_up() and self.clock() - self._since >= RETRY_SECONDS:
                self._look_again()
            return
        known = nmcli.active_known(out) if code == 0 else None
        if known is None and mode == "looking" and code == 0 and nmcli.hotspot_active(out):
            if not self._keep_ours():                      # the service started again
                self._open_hotspot("The hotspot's settings changed")
            return
        if known is not None:
            self._since = self.clock()
            self._looking_again = self._phones_came = False
            self._set(mode="home", network=known, url=self.lan_url())
        elif mode == "home":                                     # lost it: wait once more
            self._since = self.clock()
            self._set(mode="looking", network="")
        elif self.clock() - self._since >= self.settings.after:
            self._open_hotspot(f"No known Wi-Fi in {self.settings.after:.0f} s")

    def _keep_ours(self) -> bool:
        """The hotspot found up while looking (the service started again while phones were
        on it): kept if it is as the settings say, where opening it again would drop every
        phone; False where it differs (the config changed it) or cannot be read."""
        s = self.settings
        code, out = self.run(nmcli.HOTSPOT_SETTINGS, TIMEOUT)
        if code != 0 or nmcli.hotspot_settings(out) != (s.ssid, s.password, s.interface):
            return False
        log.info("network: the hotspot %s is already on: kept", s.ssid)
        self._phones_came = True        # it served them before: a game in play keeps it up
        self._hotspot_on(f"Hotspot {s.ssid} is still on.")
        return True

    def _kept_up(self) -> bool:
        """Whether the hotspot is in use: a phone has the table open on it now, or a game is
        in play that a phone has had open on it (one asleep between turns comes back)."""
        if self.in_use():
            self._phones_came = True
            return True
        return self._phones_came and self.game_on()

    def _look_again(self) -> None:
        """Take the unused hotspot down: NetworkManager joins a known network that has come
        up since; if none answers in `after` seconds, the hotspot opens again."""
        self.run(nmcli.down(nmcli.HOTSPOT), TIMEOUT)
        self._since = self.clock()
        self._looking_again = True           # quietly: the OLED does not flash every time
        self._set(mode="looking", network="", url=self.lan_url(), message="")
        log.info("network: no phone on the hotspot: looking for known Wi-Fi")

    def _open_hotspot(self, why: str) -> bool:
        s = self.settings
        code, out = self.run(nmcli.CONNECTIONS, TIMEOUT)
        exists = code == 0 and nmcli.HOTSPOT in out.splitlines()
        args = nmcli.modify_hotspot(s.ssid, s.password, s.interface) if exists \
            else nmcli.add_hotspot(s.ssid, s.password, s.interface)
        code, out = self.run(args, TIMEOUT)
        if code == 0:
            code, out = self.run(nmcli.up(nmcli.HOTSPOT), nmcli.JOIN_SECONDS + 5)
        if code != 0:
            self._hotspot_failures += 1
            wait = pause_after(self._hotspot_failures, HOTSPOT_RETRY)
            log.error("network: the hotspot did not open (nmcli %d: %s): tried again in %.0f s",
                      code, out, wait)
            self._since = self.clock() - self.settings.after + wait
            trouble = hotspot_trouble(out)
            self._set(trouble=trouble, message=f"The hotspot cannot open: {trouble}")
            return False
        self._hotspot_failures = 0
        self._set(trouble="")
        log.info("network: %s: the hotspot %s is open", why, s.ssid)
        self._hotspot_on(f"{why}{'' if why.endswith(('.', '?')) else '.'} Hotspot {s.ssid} "
                         "is on.")
        return True

    def _hotspot_on(self, words: str) -> None:
        """The hotspot is the box's network from now, said in `words` (quietly after it
        stepped aside: the OLED does not flash every time)."""
        self._since = self.clock()
        self._set(mode="hotspot", network=self.settings.ssid, url=self.hotspot_url,
                  message="" if self._looking_again else words)
        self._looking_again = False

    # -- a phone adds a network -----------------------------------------------------------

    def add_home(self, ssid: str, password: str) -> str:
        """Join `ssid` (from a signed-in phone); the words to show there. ValueError with the
        reason for a name or password that cannot be one. The joining is done on the
        network thread."""
        problem = network_name_problem(ssid) or (
            password_problem(password, "WPA") if password else "")
        if problem:
            raise ValueError(problem if problem.endswith(".") else problem[0].upper()
                             + problem[1:] + ".")
        self._joining = (ssid, password)
        self._set(mode="joining", message=f"Joining {ssid}")
        self._wake.set()
        if self._thread is None:
            return f"Joining {ssid}."
        return (f"Joining {ssid}: this phone loses the table for a moment. Join {ssid} too, "
                f"then open http://{self._hostname()}.local:{self.port}/. If the box cannot "
                f"join, its hotspot {self.settings.ssid} comes back within a minute.")

    def _hostname(self) -> str:
        return socket.gethostname() or "parlour"

    def _join(self, ssid: str, password: str) -> None:
        self._joining = None
        name = nmcli.HOME_PREFIX + ssid
        s = self.settings
        self.run(nmcli.delete(name), TIMEOUT)                 # an older try by the same name
        code, out = self.run(nmcli.add_home(ssid, password, s.interface), TIMEOUT)
        if code == 0:
            self.run(nmcli.down(nmcli.HOTSPOT), TIMEOUT)
            code, out = self.run(nmcli.up(name), nmcli.JOIN_SECONDS + 5)
        if code == 0:
            self._since = self.clock()
            self._phones_came = False
            self._set(mode="home", network=name, url=self.lan_url(),
                      message=f"Joined {ssid}")
            return
        log.error("network: could not join %s (nmcli %d: %s)", ssid, code, out)
        self.run(nmcli.delete(name), TIMEOUT)      # a wrong password is not tried at every boot
        why = nmcli.join_failure(out)            # its own sentence: the OLED's pages part there
        failed = f"Could not join {ssid}" + (f": {why}" if why else "")
        if not self._open_hotspot(failed):
            self._set(mode="looking", message=failed)
