"""The device's settings: pins (BCM), seats, display, web and PIN, read from TOML and checked.

Every key has a default (see firmware/parlour.example.toml), so a missing file is a working
config; a bad value is one ConfigError that names the file, the key and what is wrong.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.buttons import DEFAULT_COLOURS, MAX_BUTTONS, SHADES, ButtonColour
from companion.checks import is_whole
from companion.errors import ParlourError
from companion.record.league import TABLE_NAME_LONGEST
from companion.words import name_key

MAX_SEATS = 6
I2C_PINS = (2, 3)             # SDA1 / SCL1: the OLED's bus
BCM_PINS = range(0, 28)       # GPIO0..GPIO27 on the 40-pin header
DRIVERS = ("ssd1306", "sh1106")
HARDWARE = ("auto", "pi", "simulated")   # auto: a readable Raspberry Pi model file decides
SYSTEM_CONFIG = Path("/etc/parlour/parlour.toml")
CLUB_PORT = 8081              # `parlour club`'s page unless [web] port says: the table's is 8080
COLOUR = re.compile(r"^(?P<name>.+?)(?:\s+(?P<css>#[0-9A-Fa-f]{6}))?$")
MAX_COLOUR_NAME = 24          # a colour is a player's default name (X10)


class ConfigError(ParlourError, ValueError):
    """A config file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Pins:
    """BCM numbers of every input and output; seat_leds empty and buzzer None mean not fitted."""
    seats: tuple[int, ...] = (5, 6, 13, 19, 26, 25)
    undo: int = 23
    menu: int = 24
    encoder_a: int = 17
    encoder_b: int = 27
    encoder_button: int = 22
    seat_leds: tuple[int, ...] = (12, 16, 20, 21, 10, 9)
    buzzer: int | None = 18


@dataclass(frozen=True)
class DisplayConfig:
    """The OLED: driver chip, I2C bus and address, rotation in quarter turns (luma's rotate):
    0, or 2 upside down."""
    driver: str = "ssd1306"
    port: int = 1
    address: int = 0x3C
    rotation: int = 0
    width: int = 128
    height: int = 64


WIFI_SECURITY = ("WPA", "WEP", "nopass")     # WPA covers WPA2 and WPA3 personal


@dataclass(frozen=True)
class WiFi:
    """The table's network for the join card's QR code; no ssid means no Wi-Fi code."""
    ssid: str = ""
    password: str = ""
    security: str = "WPA"
    hidden: bool = False


HOTSPOT_MODES = ("auto", "off")


@dataclass(frozen=True)
class HotspotConfig:
    """The box's own Wi-Fi when no known network answers (firmware/network/hotspot.py)."""
    mode: str = "auto"           # "auto": on a Raspberry Pi with NetworkManager; "off": never
    after: float = 60.0          # seconds after start with no known network before it opens
    name: str = ""               # the hotspot's network name; "": "Parlour-" + the table id's first 4
    interface: str = "wlan0"


@dataclass(frozen=True)
class ClubConfig:
    """The club's MQTT broker this table reports to (firmware/club/); no host: no club."""
    host: str = ""
    port: int = 1883
    tls: bool = False
    ca_file: str = ""            # the broker's CA certificate (PEM); "": the system's CAs
    username: str = ""
    password: str = ""
    table: str = ""              # the table's name in the club; "": the host name
    keepalive: int = 30          # seconds between MQTT pings

    @property
    def on(self) -> bool:
        return bool(self.host)


@dataclass(frozen=True)
class Config:
    """Everything the device program needs to know about its table and box."""
    seats: int = MAX_SEATS
    pins: Pins = field(default_factory=Pins)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    host: str = "0.0.0.0"
    port: int = 8080
    threads: int = 48
    data_dir: Path = Path("~/.local/state/parlour").expanduser()
    pin: str | None = None
    hardware: str = "auto"
    allowed_hosts: tuple[str, ...] = ()   # names phones use besides loopback and the LAN address
    open_panel: bool = False     # the simulated /device panel for other machines (needs the PIN)
    wifi: WiFi = field(default_factory=WiFi)
    hotspot: HotspotConfig = field(default_factory=HotspotConfig)
    club: ClubConfig = field(default_factory=ClubConfig)
    source: Path | None = None   # the file it came from; None = built-in defaults
    colours: tuple[ButtonColour, ...] = DEFAULT_COLOURS    # seat button 1's first (X12)
    odds: bool = True            # work out chances to win, off the device loop
    # whether the file set [web] port (else `parlour club` takes CLUB_PORT); which port the
    # table itself uses is `port` alone, so configs that agree on it compare equal
    port_set: bool = field(default=False, compare=False)

    @property
    def club_port(self) -> int:
        """The port `parlour club` serves the league on: [web] port when its config sets one,
        else CLUB_PORT, so a table's Pi can serve the club beside the table's own page."""
        return self.port if self.port_set else CLUB_PORT

    def seat_pins(self) -> tuple[int, ...]:
        """The BCM pins of the seats in use (the first `seats` of pins.seats)."""
        return self.pins.seats[:self.seats]

    def seat_led_pins(self) -> tuple[int, ...]:
        """The BCM pins of the seat LEDs in use; empty without LEDs."""
        return self.pins.seat_leds[:self.seats]

    def seat_colours(self) -> tuple[ButtonColour, ...]:
        """The colours of the seat buttons in use, button 1's first."""
        return self.colours[:self.seats]


def load_config(path: str | Path | None = None, *,
                env: Mapping[str, str] = os.environ) -> Config:
    """Read and check a config: `path`, else the first file of `search_path(env)` that exists,
    else the defaults."""
    if path is None and env.get("PARLOUR_CONFIG"):
        path = env["PARLOUR_CONFIG"]
    if path is None:
        path = next((p for p in search_path(env) if _is_file(p)), None)
    if path is None:
        return parse_config({}, env=env)
    path = Path(path).expanduser()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except OSError as err:
        raise ConfigError(f"{path}: cannot read it ({err})") from None
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")   # a BOM, as some editors save it
    except UnicodeDecodeError as err:
        line = raw[:err.start].count(b"\n") + 1
        raise ConfigError(f"{path}: line {line}: not UTF-8 text (save it as UTF-8)") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML ({err})") from None
    return parse_config(data, source=path, env=env)


def _is_file(path: Path) -> bool:
    """Whether a config is there to read; a place this user may not even look into (another
    user's home, with `su` or cron keeping its HOME) holds none for it, not a traceback."""
    try:
        return path.is_file()
    except OSError:
        return False


def search_path(env: Mapping[str, str] = os.environ) -> list[Path]:
    """Where a config is looked for when none is named: the user's, then the system's."""
    config_home = Path(env.get("XDG_CONFIG_HOME") or _home(env) / ".config")
    return [config_home / "parlour" / "parlour.toml", SYSTEM_CONFIG]


def default_data_dir(env: Mapping[str, str] = os.environ) -> Path:
    """systemd's StateDirectory, else $XDG_STATE_HOME/parlour, else ~/.local/state/parlour."""
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    if env.get("XDG_STATE_HOME"):
        return Path(env["XDG_STATE_HOME"]) / "parlour"
    return _home(env) / ".local" / "state" / "parlour"


def parse_config(data: Mapping[str, Any], *, source: Path | None = None,
                 env: Mapping[str, str] = os.environ) -> Config:
    """Check a parsed TOML document and build the Config; raise one ConfigError if it is bad."""
    where = f"{source}: " if source else "config: "
    try:
        return _build(_Reader(data), source, env)
    except _Bad as bad:
        raise ConfigError(where + str(bad)) from None


def port_problem(port: int) -> str | None:
    """What is wrong with a TCP port from any source (config, --port), or None: 1-65535 (a
    number out of range would be wrapped by the socket layer into another port)."""
    return None if 1 <= port <= 65535 else f"expected 1-65535, got {port}"


def pin_problem(pin: str) -> str | None:
    """What is wrong with a table PIN from any source (config, --pin), or None: it is 4-8
    ASCII digits (not "a", not "１２３４" in full-width digits)."""
    if pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8:
        return None
    return f"expected 4-8 digits (e.g. \"2468\"), got {pin[:20]!r}" + (
        "..." if len(pin) > 20 else "")


def _home(env: Mapping[str, str]) -> Path:
    return Path(env["HOME"]) if env.get("HOME") else Path.home()


class _Bad(Exception):
    pass


class _Reader:
    """Takes keys out of one TOML table with type checks; what is left over is a typo."""

    def __init__(self, data: Mapping[str, Any], name: str = ""):
        if not isinstance(data, Mapping):
            raise _Bad(f"[{name}] must be a table")
        self.data, self.name, self.used = data, name, set()

    def key(self, key: str) -> str:
        return f"[{self.name}] {key}" if self.name else key

    def get(self, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        self.used.add(key)
        if key not in self.data:
            return default
        value = self.data[key]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise _Bad(f"{self.key(key)}: expected {_kind_name(kind)}, got {value!r}")
        if not isinstance(value, kind):
            raise _Bad(f"{self.key(key)}: expected {_kind_name(kind)}, got {value!r}")
        return value

    def table(self, key: str) -> _Reader:
        self.used.add(key)
        return _Reader(self.data.get(key, {}), key)

    def done(self) -> None:
        extra = sorted(set(self.data) - self.used)
        if extra:
            known = ", ".join(sorted(self.used))
            close = difflib.get_close_matches(extra[0], sorted(self.used), n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""     # as board files say
            raise _Bad(f"{self.key(extra[0])}: unknown key ({hint}known here: {known})")


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "a whole number", str: "a string", list: "a list", bool: "true or false",
             float: "a number"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _bcm(reader: _Reader, key: str, value: Any) -> int:
    if not is_whole(value) or value not in BCM_PINS:
        raise _Bad(f"{reader.key(key)}: expected a BCM pin number 0-27, got {value!r}")
    return value


def _pin_list(reader: _Reader, key: str, default: tuple[int, ...]) -> tuple[int, ...]:
    values = reader.get(key, list, list(default))
    return tuple(_bcm(reader, key, v) for v in values)


def _read_pins(reader: _Reader) -> Pins:
    d = Pins()
    buzzer = reader.get("buzzer", (int, bool), d.buzzer)
    if buzzer is True:
        raise _Bad(f"{reader.key('buzzer')}: give the buzzer's BCM pin, or false for none")
    pins = Pins(
        seats=_pin_list(reader, "seats", d.seats),
        undo=_bcm(reader, "undo", reader.get("undo", int, d.undo)),
        menu=_bcm(reader, "menu", reader.get("menu", int, d.menu)),
        encoder_a=_bcm(reader, "encoder_a", reader.get("encoder_a", int, d.encoder_a)),
        encoder_b=_bcm(reader, "encoder_b", reader.get("encoder_b", int, d.encoder_b)),
        encoder_button=_bcm(reader, "encoder_button",
                            reader.get("encoder_button", int, d.encoder_button)),
        seat_leds=_pin_list(reader, "seat_leds", d.seat_leds),
        buzzer=None if buzzer is False or buzzer is None else _bcm(reader, "buzzer", buzzer),
    )
    reader.done()
    return pins


def _check_pins(pins: Pins, seats: int) -> None:
    """Each pin has one job, the I2C pins belong to the OLED, every seat has a button."""
    if len(pins.seats) < seats:
        raise _Bad(f"[pins] seats: {seats} seats need {seats} button pins, "
                   f"got {len(pins.seats)}")
    if pins.seat_leds and len(pins.seat_leds) < seats:
        raise _Bad(f"[pins] seat_leds: {seats} seats need {seats} LED pins (or [] for none), "
                   f"got {len(pins.seat_leds)}")
    roles = [(f"seats[{i}]", p) for i, p in enumerate(pins.seats[:seats])]
    roles += [(name, getattr(pins, name)) for name in
              ("undo", "menu", "encoder_a", "encoder_b", "encoder_button")]
    roles += [(f"seat_leds[{i}]", p) for i, p in enumerate(pins.seat_leds[:seats])]
    if pins.buzzer is not None:
        roles.append(("buzzer", pins.buzzer))
    owner: dict[int, str] = {}
    for role, pin in roles:
        if pin in I2C_PINS:
            raise _Bad(f"[pins] {role}: BCM {pin} is the OLED's I2C bus (SDA/SCL are BCM 2 and 3)")
        if pin in owner:
            raise _Bad(f"[pins] {role}: BCM {pin} is already used by {owner[pin]}")
        owner[pin] = role


def _read_display(reader: _Reader) -> DisplayConfig:
    d = DisplayConfig()
    driver = reader.get("driver", str, d.driver)
    if driver not in DRIVERS:
        raise _Bad(f"{reader.key('driver')}: expected one of {', '.join(DRIVERS)}, got {driver!r}")
    port = reader.get("port", int, d.port)
    if port < 0:
        raise _Bad(f"{reader.key('port')}: expected an I2C bus number (1 on a Pi), got {port}")
    address = reader.get("address", int, d.address)
    if not 0x03 <= address <= 0x77:
        raise _Bad(f"{reader.key('address')}: expected a 7-bit I2C address such as 0x3C, "
                   f"got {address:#x}")
    rotation = reader.get("rotation", int, d.rotation)
    if rotation not in (0, 2):              # 1 and 3 would need screens drawn 64 wide
        raise _Bad(f"{reader.key('rotation')}: expected 0, or 2 for a screen mounted upside "
                   f"down (the screens are drawn 128 wide, so not on its side), got {rotation}")
    reader.done()
    return DisplayConfig(driver=driver, port=port, address=address, rotation=rotation)


def _read_colours(reader: _Reader, seats: int) -> tuple[ButtonColour, ...]:
    """[buttons] colours: a name per seat button, known ("Red") or with a shade ("Teal #008080")."""
    key = reader.key("colours")
    values = reader.get("colours", list, [c.name for c in DEFAULT_COLOURS])
    reader.done()
    if not seats <= len(values) <= MAX_BUTTONS:
        need = str(seats) if seats == MAX_BUTTONS else f"{seats} to {MAX_BUTTONS}"
        raise _Bad(f"{key}: {seats} seats need {need} colours, got {len(values)}")
    colours = []
    for value in values:
        match = COLOUR.match(value.strip()) if isinstance(value, str) else None
        name = match["name"].strip() if match else ""
        if not name or len(name) > MAX_COLOUR_NAME or not name.isprintable():
            raise _Bad(f"{key}: expected a colour name of 1-{MAX_COLOUR_NAME} printable "
                       f"characters, such as \"Red\" or \"Teal #008080\", got {value!r}")
        css = match["css"] or SHADES.get(name.casefold())
        if css is None and "#" in name:                  # "Teal #00808": a shade mistyped
            raise _Bad(f"{key}: the shade in {value!r} must be # and six hex digits "
                       f"(#RRGGBB), as in \"{name.split('#')[0].strip() or 'Teal'} #008080\"")
        if css is None:
            raise _Bad(f"{key}: {name!r} is not a colour Parlour knows ({', '.join(SHADES)}); "
                       f"add its shade, as in \"{name} #008080\"")
        colours.append(ButtonColour(name, css.lower()))
    folded = [name_key(c.name) for c in colours]                          # as X10 compares
    if len(set(folded)) != len(folded):
        raise _Bad(f"{key}: two buttons are called {next(n for n in folded if folded.count(n) > 1)!r}"
                   f" (the colours are the players' names: they must differ)")
    return tuple(colours)


HEX = set("0123456789abcdefABCDEF")


def ssid_problem(ssid: str) -> str:
    """Why `ssid` cannot be a Wi-Fi network's name (802.11: at most 32 bytes; shown on one
    line here); "" if it can."""
    if len(ssid.encode()) > 32:
        return "a network name is at most 32 bytes"
    if not ssid.isprintable():
        return "a network name has no line breaks or control characters"
    return ""


def password_problem(password: str, security: str) -> str:
    """Why a Wi-Fi password cannot be one (802.11: a WPA passphrase is 8 to 63 printable
    ASCII characters, or 64 hex digits; a WEP key 5 or 13 characters, or 10 or 26 hex
    digits); "" if it can."""
    ascii_printable = password.isascii() and password.isprintable()
    if security == "WPA":
        if (len(password) == 64 and set(password) <= HEX) or \
                (8 <= len(password) <= 63 and ascii_printable):
            return ""
        return (f"a WPA password is 8 to 63 printable ASCII characters (or 64 hex digits), "
                f"not {len(password)} characters" if ascii_printable or len(password) > 63
                else "a WPA password is printable ASCII characters only")
    if security == "WEP":
        if (len(password) in (5, 13) and ascii_printable) or \
                (len(password) in (10, 26) and set(password) <= HEX):
            return ""
        return "a WEP key is 5 or 13 characters, or 10 or 26 hex digits"
    return ""


def _read_wifi(reader: _Reader) -> WiFi:
    ssid = reader.get("ssid", str, "")
    password = reader.get("password", str, "")
    security = reader.get("security", str, "WPA")
    hidden = reader.get("hidden", bool, False)
    reader.done()
    if ssid_problem(ssid):
        raise _Bad(f"{reader.key('ssid')}: {ssid_problem(ssid)}, got {ssid!r}")
    if security not in WIFI_SECURITY:
        raise _Bad(f"{reader.key('security')}: expected one of {', '.join(WIFI_SECURITY)}, "
                   f"got {security!r}")
    if ssid and security != "nopass" and not password:
        raise _Bad(f"{reader.key('password')}: {security} needs the network's password "
                   "(or security = \"nopass\" for an open network)")
    problem = password_problem(password, security) if ssid and password else ""
    if problem:
        raise _Bad(f"{reader.key('password')}: {problem}")
    return WiFi(ssid=ssid, password=password, security=security, hidden=hidden)


def _read_hotspot(reader: _Reader) -> HotspotConfig:
    mode = reader.get("mode", str, "auto")
    after = reader.get("after", (int, float), 60)
    name = reader.get("name", str, "")
    interface = reader.get("interface", str, "wlan0")
    reader.done()
    if mode not in HOTSPOT_MODES:
        raise _Bad(f"{reader.key('mode')}: expected one of {', '.join(HOTSPOT_MODES)}, "
                   f"got {mode!r}")
    if not 10 <= after <= 3600:
        raise _Bad(f"{reader.key('after')}: expected 10-3600 seconds, got {after}")
    if len(name.encode()) > 32 or not name.isprintable():
        raise _Bad(f"{reader.key('name')}: a network name is at most 32 bytes on one line, "
                   f"got {name!r}")
    if not interface or not interface.isascii() or not interface.replace("-", "").isalnum() \
            or not interface[0].isalnum() or len(interface) > 15:     # Linux's IFNAMSIZ - 1
        raise _Bad(f"{reader.key('interface')}: expected an interface name like wlan0, "
                   f"got {interface!r}")
    return HotspotConfig(mode=mode, after=float(after), name=name, interface=interface)


def _read_club(reader: _Reader) -> ClubConfig:
    if not reader.data:
        return ClubConfig()
    host = reader.get("host", str, "")
    tls = reader.get("tls", bool, False)
    port = reader.get("port", int, 8883 if tls else 1883)
    ca_file = reader.get("ca_file", str, "")
    username = reader.get("username", str, "")
    password = reader.get("password", str, "")
    table = reader.get("table", str, "")
    keepalive = reader.get("keepalive", int, 30)
    reader.done()
    if not host or len(host) > 253 or not host.isprintable() or " " in host:
        raise _Bad(f"{reader.key('host')}: expected the broker's host name or address, "
                   f"got {host!r}")
    if port_problem(port):
        raise _Bad(f"{reader.key('port')}: {port_problem(port)}")
    if ca_file and not tls:
        raise _Bad(f"{reader.key('ca_file')}: a CA file needs tls = true")
    if ca_file and not (os.path.isfile(ca_file) and os.access(ca_file, os.R_OK)):
        raise _Bad(f"{reader.key('ca_file')}: {ca_file!r} is not a file this program can read "
                   "(the broker's CA certificate, PEM)")
    if password and not username:
        raise _Bad(f"{reader.key('password')}: a password needs a username")
    if len(table) > TABLE_NAME_LONGEST or not table.isprintable():
        raise _Bad(f"{reader.key('table')}: expected a name of at most {TABLE_NAME_LONGEST} "
                   f"characters on one line, got {table!r}")
    if not 5 <= keepalive <= 600:
        raise _Bad(f"{reader.key('keepalive')}: expected 5-600 seconds, got {keepalive}")
    return ClubConfig(host=host, port=port, tls=tls, ca_file=ca_file, username=username,
                      password=password, table=table.strip(), keepalive=keepalive)


def _build(top: _Reader, source: Path | None, env: Mapping[str, str]) -> Config:
    seats = top.get("seats", int, MAX_SEATS)
    if not 1 <= seats <= MAX_SEATS:
        raise _Bad(f"seats: expected 1-{MAX_SEATS}, got {seats}")
    data_dir = top.get("data_dir", str, None)
    pin = top.get("pin", str, None)
    if pin is not None and pin_problem(pin):
        raise _Bad(f"pin: {pin_problem(pin)}")
    hardware = top.get("hardware", str, "auto")
    if hardware not in HARDWARE:
        raise _Bad(f"hardware: expected one of {', '.join(HARDWARE)}, got {hardware!r}")
    pins = _read_pins(top.table("pins"))
    _check_pins(pins, seats)
    display = _read_display(top.table("display"))
    colours = _read_colours(top.table("buttons"), seats)
    web = top.table("web")
    host = web.get("host", str, "0.0.0.0")
    port_set = "port" in web.data
    port = web.get("port", int, 8080)
    if port_problem(port):
        raise _Bad(f"[web] port: {port_problem(port)}")
    threads = web.get("threads", int, 48)
    if not 1 <= threads <= 1000:
        raise _Bad(f"[web] threads: expected 1-1000, got {threads}")
    allowed_hosts = web.get("allowed_hosts", list, [])
    if not all(isinstance(h, str) and h and len(h) <= 253 for h in allowed_hosts):
        raise _Bad(f"[web] allowed_hosts: expected a list of host names, got {allowed_hosts!r}")
    open_panel = web.get("open_panel", bool, False)
    web.done()
    odds = top.get("odds", bool, True)
    wifi = _read_wifi(top.table("wifi"))
    hotspot = _read_hotspot(top.table("hotspot"))
    club = _read_club(top.table("club"))
    top.done()
    return Config(seats=seats, pins=pins, display=display, host=host, port=port,
                  threads=threads, pin=pin, hardware=hardware, source=source, colours=colours,
                  allowed_hosts=tuple(h.lower() for h in allowed_hosts), open_panel=open_panel,
                  odds=odds, wifi=wifi, hotspot=hotspot, club=club, port_set=port_set,
                  data_dir=Path(data_dir).expanduser() if data_dir else default_data_dir(env))
