"""The config: defaults, where it is looked for, and one clear error for each kind of mistake."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from pathlib import Path

import pytest

from companion.errors import ParlourError
from firmware.config import (Config, ConfigError, DisplayConfig, Pins, load_config,
                             parse_config)

EXAMPLE = Path(__file__).resolve().parents[3] / "firmware" / "parlour.example.toml"


@pytest.fixture
def env(tmp_path):
    """An environment with a private home and no Parlour variables."""
    return {"HOME": str(tmp_path / "home")}


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "parlour.toml"
    path.write_text(text)
    return path


def test_config_without_a_file_is_the_defaults(env, tmp_path):
    config = load_config(env=env)
    assert config == Config(data_dir=tmp_path / "home" / ".local" / "state" / "parlour")
    assert config.seat_pins() == (5, 6, 13, 19, 26, 25) and config.source is None


def test_config_example_file_states_every_default(env):
    example = load_config(EXAMPLE, env=env)
    assert replace(example, source=None) == load_config(env=env)
    text = EXAMPLE.read_text()
    for cls in (Pins, DisplayConfig):
        for f in fields(cls):
            if (cls, f.name) not in ((DisplayConfig, "width"), (DisplayConfig, "height")):
                assert re.search(rf"^\s*#?\s*{f.name} = ", text, re.M), f.name
    for key in ("seats", "data_dir", "pin", "host", "port", "threads"):
        assert re.search(rf"^\s*#?\s*{key} = ", text, re.M), key


def test_config_example_copied_for_a_club_leaves_the_club_on_its_own_port(env, tmp_path):
    # the example, its [club] section filled in, as a club's club.toml: not the table's 8080
    text = EXAMPLE.read_text().replace("# [club]", "[club]").replace(
        '# host = "club.local"', 'host = "club.local"')
    club = load_config(write(tmp_path, text), env=env)
    assert club.club.on and club.club_port == 8081 and club.port == 8080


def test_config_file_values_override_defaults(env, tmp_path):
    path = write(tmp_path, """
seats = 3
data_dir = "/srv/parlour"
pin = "0246"
[web]
port = 9000
[pins]
seats = [4, 5, 6]
seat_leds = []
buzzer = false
[display]
driver = "sh1106"
address = 0x3D
rotation = 2
""")
    config = load_config(path, env=env)
    assert (config.seats, config.port, config.pin) == (3, 9000, "0246")
    assert config.data_dir == Path("/srv/parlour") and config.source == path
    assert config.pins.seat_leds == () and config.pins.buzzer is None
    assert config.seat_led_pins() == ()
    assert config.display == DisplayConfig(driver="sh1106", address=0x3D, rotation=2)


def test_config_search_path_prefers_env_then_user_then_defaults(env, tmp_path):
    user = tmp_path / "home" / ".config" / "parlour" / "parlour.toml"
    user.parent.mkdir(parents=True)
    user.write_text("seats = 2\n")
    assert load_config(env=env).seats == 2
    named = write(tmp_path, "seats = 4\n")
    assert load_config(env={**env, "PARLOUR_CONFIG": str(named)}).seats == 4
    xdg = tmp_path / "xdg"
    assert load_config(env={**env, "XDG_CONFIG_HOME": str(xdg)}).seats == 6


@pytest.mark.parametrize("extra, expected", [
    ({"STATE_DIRECTORY": "/var/lib/parlour:/other"}, Path("/var/lib/parlour")),
    ({"XDG_STATE_HOME": "/state"}, Path("/state/parlour")),
])
def test_config_data_dir_default_follows_environment(env, extra, expected):
    assert load_config(env={**env, **extra}).data_dir == expected


@pytest.mark.parametrize("text, message", [
    ("[pins]\nundo = 17\n", "[pins] encoder_a: BCM 17 is already used by undo"),
    ("[pins]\nmenu = 3\n", "[pins] menu: BCM 3 is the OLED's I2C bus"),
    ("seats = 1\n[pins]\nseat_leds = [2]\nseats = [5]\n", "[pins] seat_leds[0]: BCM 2 is the OLED's I2C bus"),
    ('[display]\ndriver = "ssd1309"\n', "[display] driver: expected one of ssd1306, sh1106"),
    ("seats = 7\n", "seats: expected 1-6, got 7"),
    ("seats = 0\n", "seats: expected 1-6, got 0"),
    ("seats = 4\n[pins]\nseats = [5, 6]\n", "4 seats need 4 button pins, got 2"),
    ("[pins]\nundo = 40\n", "[pins] undo: expected a BCM pin number 0-27, got 40"),
    ("[pins]\nundo = true\n", "[pins] undo: expected a whole number, got True"),
    ("[pins]\nbuzzer = true\n", "[pins] buzzer: give the buzzer's BCM pin, or false"),
    ('[pins]\nseats = "5"\n', "[pins] seats: expected a list"),
    ("[pins]\nencoder_c = 9\n", "[pins] encoder_c: unknown key"),
    ("[web]\nprot = 8080\n", "[web] prot: unknown key (did you mean 'port'? known here:"),
    ("sets = 4\n", "sets: unknown key"),
    ("pin = 2468\n", "pin: expected a string"),
    ('pin = "12"\n', "pin: expected 4-8 digits"),
    ("[display]\naddress = 0x80\n", "[display] address: expected a 7-bit I2C address"),
    ("[display]\nrotation = 90\n", "[display] rotation: expected 0, or 2 for a screen mounted"),
    ("[display]\nrotation = 1\n", "(the screens are drawn 128 wide, so not on its side), got 1"),
    ("[web]\nport = 0\n", "[web] port: expected 1-65535"),
    ("web = 3\n", "[web] must be a table"),
    ("seats = \n", "not valid TOML"),
    ('[buttons]\ncolours = ["Red", "red"]\nseats = 2\n', "[buttons] seats: unknown key"),
    ('seats = 2\n[buttons]\ncolours = ["Red", "red"]\n', "two buttons are called 'red'"),
    ('seats = 2\n[buttons]\ncolours = ["Sky Blue #87ceeb", "SkyBlue #87cefa"]\n',
     "two buttons are called 'skyblue'"),
    ('seats = 3\n[buttons]\ncolours = ["Red", "Blue"]\n', "3 seats need 3 to 6 colours, got 2"),
    ('seats = 1\n[buttons]\ncolours = ["Mauve"]\n', "'Mauve' is not a colour Parlour knows"),
    ('seats = 1\n[buttons]\ncolours = ["Teal #00808"]\n',
     "the shade in 'Teal #00808' must be # and six hex digits (#RRGGBB), as in \"Teal #008080\""),
    ('seats = 6\n[buttons]\ncolours = ["Red"]\n', "6 seats need 6 colours, got 1"),
    ('seats = 1\n[buttons]\ncolours = [" "]\n', "expected a colour name of 1-24 printable"),
    ('seats = 1\n[buttons]\ncolours = ["Red\\tRed"]\n', "expected a colour name"),
    ('seats = 1\n[buttons]\ncolours = [3]\n', "expected a colour name"),
    ('[buttons]\ncolours = "Red"\n', "[buttons] colours: expected a list"),
])
def test_config_mistake_is_one_clear_error(env, tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path, env=env)
    text = str(caught.value)
    assert text.startswith(f"{path}: ") and message in text and "\n" not in text


def test_config_x12_button_colours_named_or_with_a_shade(env, tmp_path):
    from companion.buttons import DEFAULT_COLOURS, ButtonColour
    assert load_config(env=env).colours == DEFAULT_COLOURS
    assert [c.name for c in DEFAULT_COLOURS] == ["Red", "Blue", "Green", "Yellow", "White",
                                                  "Black"]
    path = write(tmp_path, 'seats = 2\n[buttons]\ncolours = ["green", "Teal #00807F"]\n')
    config = load_config(path, env=env)
    assert config.colours == (ButtonColour("green", "#2e8b3a"), ButtonColour("Teal", "#00807f"))
    assert config.seat_colours() == config.colours


def test_config_missing_named_file_is_an_error(env, tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml", env=env)


def test_config_saved_with_a_bom_or_not_utf8_reads_or_names_the_line(env, tmp_path):
    """A BOM (as some Windows editors save UTF-8) was "not valid TOML (Invalid statement (at
    line 1, column 1))"; a Latin-1 name was refused by its byte, not its line."""
    path = tmp_path / "parlour.toml"
    path.write_bytes("\ufeffseats = 2\n".encode())
    assert load_config(path, env=env).seats == 2
    path.write_bytes(b'seats = 2\n[wifi]\nssid = "Caf\xe9"\n')
    with pytest.raises(ConfigError, match=r"parlour.toml: line 3: not UTF-8 text \(save it as "
                                          r"UTF-8\)$"):
        load_config(path, env=env)


def test_config_a_search_place_this_user_may_not_look_into_holds_none(env, tmp_path,
                                                                      monkeypatch):
    """`su` without `-`, or cron, keeps another user's HOME: looking for its config raised a
    PermissionError traceback in `card`, `export` and `club`. The search goes on past it."""
    real = Path.is_file

    def not_allowed(path):
        if ".config" in path.parts:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)
    user = tmp_path / "home" / ".config" / "parlour" / "parlour.toml"
    user.parent.mkdir(parents=True)
    user.write_text("seats = 2\n")                     # there, but not to be looked at
    monkeypatch.setattr(Path, "is_file", not_allowed)
    assert load_config(env=env) == parse_config({}, env=env)          # the defaults


def test_config_error_is_a_parlour_value_error():
    with pytest.raises(ParlourError):
        parse_config({"seats": "six"})
    with pytest.raises(ValueError, match=r"^config: seats: expected a whole number"):
        parse_config({"seats": "six"})


def test_config_web_names_and_open_panel(env, tmp_path):
    config = load_config(write(tmp_path, """
[web]
allowed_hosts = ["Parlour.LAN", "10.0.0.7"]
open_panel = true
"""), env=env)
    assert config.allowed_hosts == ("parlour.lan", "10.0.0.7") and config.open_panel
    for bad in ('allowed_hosts = "parlour.lan"', "allowed_hosts = [1]", 'allowed_hosts = [""]',
                'open_panel = "yes"'):
        with pytest.raises(ConfigError, match=r"\[web\]"):
            load_config(write(tmp_path, f"[web]\n{bad}\n"), env=env)


def test_config_club_is_off_without_its_section_and_reads_every_key(tmp_path):
    assert not parse_config({}).club.on
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    club = parse_config({"club": {"host": "club.local", "tls": True, "ca_file": str(ca),
                                  "username": "front", "password": "pw", "table": " Front ",
                                  "keepalive": 60}}).club
    assert (club.on, club.port, club.tls, club.ca_file, club.table, club.keepalive) == \
        (True, 8883, True, str(ca), "Front", 60)
    assert parse_config({"club": {"host": "10.0.0.2"}}).club.port == 1883


@pytest.mark.parametrize("club, why", [
    ({"port": 1883}, "host: expected the broker"),
    ({"host": "a b"}, "host: expected the broker"),
    ({"host": "h", "port": 0}, "port: expected 1-65535"),
    ({"host": "h", "ca_file": "ca.pem"}, "needs tls = true"),
    ({"host": "h", "password": "pw"}, "needs a username"),
    ({"host": "h", "table": "x" * 41}, "at most 40"),
    ({"host": "h", "keepalive": 1}, "5-600"),
    ({"host": "h", "broker": "x"}, "unknown key"),
])
def test_config_club_refuses_bad_settings_by_name(club, why):
    with pytest.raises(ConfigError, match=re.escape("[club]") + ".*" + re.escape(why)):
        parse_config({"club": club})


def test_config_club_a_ca_file_that_is_not_there_is_named_at_start(tmp_path):
    """A CA file that is not there stopped the start with "parlour: No such file or
    directory" (the TLS library's words, no file, no key): refused by name instead."""
    for missing in (tmp_path / "nowhere.pem", tmp_path):             # none, or a folder
        with pytest.raises(ConfigError, match=re.escape("[club] ca_file") + ".*"
                           + re.escape(f"'{missing}' is not a file this program can read")):
            parse_config({"club": {"host": "h", "tls": True, "ca_file": str(missing)}})
