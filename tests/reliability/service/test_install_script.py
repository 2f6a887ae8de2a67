"""systemd/install.sh on a fresh Raspberry Pi OS Lite, played in a scratch root: every file it
writes lands under PARLOUR_ROOT, and every system command it runs (apt-get, useradd, systemctl,
hostnamectl, the venv's pip ...) is a stand-in that records its arguments and keeps the little
state the next command asks about (users, groups, the hostname, the enabled unit)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from network_manager_bus import (NMCLI, changes, needs_network_manager, profiles,
                                 stand_in_network_manager)
from simulated_table import ROOT

INSTALL = ROOT / "systemd" / "install.sh"

BOOKWORM_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[all]
"""

# Each stand-in logs "name args..." to $RECORD; the state lives in files under $FAKE_STATE.
STUBS = {
    "apt-get": "",
    "dpkg": 'cat "$FAKE_STATE/arch"',
    "useradd": 'echo "${*##* }" > "$FAKE_STATE/user"',
    "groupadd": 'echo "${*##* }" >> "$FAKE_STATE/groups"',
    "usermod": 'echo "$3" | tr , "\\n" >> "$FAKE_STATE/member"',
    "userdel": 'rm -f "$FAKE_STATE/user"',
    "getent": 'grep -qx "$2" "$FAKE_STATE/groups"',
    "id": """case "$1" in
  -u) cat "$FAKE_STATE/uid" ;;
  -nG) tr "\\n" " " < "$FAKE_STATE/member" 2>/dev/null ;;
  *) [ -f "$FAKE_STATE/user" ] ;;
esac""",
    "hostname": 'cat "$FAKE_STATE/hostname"',
    "hostnamectl": 'echo "$2" > "$FAKE_STATE/hostname"',
    "systemctl": """case "$1" in
  is-enabled) [ -f "$FAKE_STATE/enabled" ] ;;
  enable) touch "$FAKE_STATE/enabled" ;;
  disable) rm -f "$FAKE_STATE/enabled" ;;
esac""",
    "chown": "",
    # Raspberry Pi OS's raspi-config: the Wi-Fi country, none until Imager or someone sets it
    "raspi-config": """case "$2" in
  get_wifi_country) cat "$FAKE_STATE/country" 2>/dev/null ;;
  do_wifi_country) echo "$3" > "$FAKE_STATE/country" ;;
esac""",
    # NetworkManager's connections: "UUID:ACTIVE:NAME" lines as `nmcli -t` prints them
    "nmcli": """case "$*" in
  "-t -f UUID,ACTIVE,NAME connection show") cat "$FAKE_STATE/connections" 2>/dev/null ;;
esac""",
    # `make install` run by the Pi's own user: sudo is the only way into /var/lib/parlour
    # (0700, parlour's) and /etc/polkit-1/rules.d (0700, polkitd's), so what is in them shows
    # only while a command runs under sudo.
    "sudo": """doors="var/lib/parlour:root-only etc/polkit-1/rules.d:root-only-polkit"
for pair in $doors; do
  door="$PARLOUR_ROOT/${pair%%:*}"; hidden="$FAKE_STATE/${pair##*:}"
  [ -d "$hidden" ] && mkdir -p "$(dirname "$door")" && ln -s "$hidden" "$door"
done
"$@"; code=$?
for pair in $doors; do
  door="$PARLOUR_ROOT/${pair%%:*}"; [ -L "$door" ] && rm "$door"
done
exit $code""",
    # python3 -m venv DIR makes DIR/bin/python, itself a recording stand-in for pip; any other
    # python3 is the real one
    "python3": """if [ -n "$FAKE_PYTHON" ] && [ "$1" = -c ]; then
  echo "$FAKE_PYTHON"                                  # the card's own python3 version
elif [ "$1" = -m ] && [ "$2" = venv ]; then
  for d; do dir=$d; done
  mkdir -p "$dir/bin"
  made=${FAKE_PYTHON:-$("$REAL_PYTHON3" -c 'import sys; print("%d.%d" % sys.version_info[:2])')}
  echo "version = $made.2" > "$dir/pyvenv.cfg"
  printf '#!/bin/sh\\necho "venv-python $*" >> "$RECORD"\\n'\\
'[ "$3" = show ] && echo "Version: 0.1.0"\\nexit 0\\n' > "$dir/bin/python"
  chmod +x "$dir/bin/python"
else
  exec "$REAL_PYTHON3" "$@"
fi""",
}


class Box:
    """A scratch root that looks like a fresh Pi, and a way to run the script on it."""

    def __init__(self, tmp: Path, *, arch: str = "arm64", codename: str = "bookworm",
                 python: str = ""):
        self.root, self.state, self.bin = tmp / "root", tmp / "state", tmp / "bin"
        self.python = python                                   # "": this machine's python3
        self.record = tmp / "commands.log"
        for folder in (self.root / "proc/device-tree", self.root / "etc",
                       self.root / "boot/firmware", self.state, self.bin):
            folder.mkdir(parents=True)
        (self.root / "proc/device-tree/model").write_text("Raspberry Pi Zero 2 W Rev 1.0\0")
        (self.root / "etc/os-release").write_text(
            f'PRETTY_NAME="Debian GNU/Linux"\nID=debian\nVERSION_CODENAME={codename}\n')
        (self.root / "boot/firmware/config.txt").write_text(BOOKWORM_CONFIG_TXT)
        (self.root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n")
        (self.state / "arch").write_text(arch + "\n")
        (self.state / "uid").write_text("0\n")                 # run as root unless as_user()
        (self.state / "hostname").write_text("raspberrypi\n")
        (self.state / "groups").write_text("gpio\n")            # Pi OS has gpio, not i2c
        (self.state / "country").write_text("GB\n")            # Imager's, with its Wi-Fi
        for name, body in STUBS.items():
            path = self.bin / name
            path.write_text(f'#!/bin/sh\necho "{name} $*" >> "$RECORD"\n{body}\nexit $?\n'
                            if body else f'#!/bin/sh\necho "{name} $*" >> "$RECORD"\n')
            path.chmod(path.stat().st_mode | stat.S_IXUSR)

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return self._run(["sh", str(INSTALL), *args])

    def make(self, *args: str) -> subprocess.CompletedProcess:
        """`make install ARGS=...` in the checkout, as the README has it."""
        return self._run(["make", "-s", "-C", str(ROOT), *args])

    def _run(self, argv: list[str]) -> subprocess.CompletedProcess:
        if self.record.exists():
            self.record.unlink()
        env = {**os.environ, "PARLOUR_ROOT": str(self.root), "RECORD": str(self.record),
               "FAKE_STATE": str(self.state), "PATH": f"{self.bin}:{os.environ['PATH']}",
               "REAL_PYTHON3": sys.executable, "FAKE_PYTHON": self.python}
        env.pop("MAKEFLAGS", None)
        return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)

    def as_user(self) -> Path:
        """From now on the script runs as the Pi's user (uid 1000) with sudo, and
        /var/lib/parlour is readable through sudo alone: the folder to put the store in."""
        (self.state / "uid").write_text("1000\n")
        (self.root / "var/lib").mkdir(parents=True, exist_ok=True)
        hidden = self.state / "root-only"
        hidden.mkdir()
        (self.state / "root-only-polkit").mkdir()
        return hidden

    def commands(self) -> list[str]:
        return self.record.read_text().splitlines() if self.record.exists() else []

    def file(self, path: str) -> Path:
        return self.root / path.lstrip("/")


@pytest.fixture
def box(tmp_path) -> Box:
    return Box(tmp_path)


def _named(commands: list[str], *prefixes: str) -> list[str]:
    return [c for c in commands if c.startswith(prefixes)]


POLKIT_HARNESS = """
const rules = [];
const polkit = {Result: {YES: "yes", NO: "no", NOT_HANDLED: null},
                addRule: function (rule) { rules.push(rule); }};
eval(require("fs").readFileSync(process.argv[2], "utf8"));
const answers = {};
for (const line of require("fs").readFileSync(0, "utf8").trim().split("\\n")) {
    const [user, id] = line.split(" ");
    let result = null;
    for (const rule of rules) {
        result = rule({id: id}, {user: user});
        if (result !== null && result !== undefined) break;
    }
    answers[line] = result === undefined ? null : result;
}
console.log(JSON.stringify(answers));
"""
NM = "org.freedesktop.NetworkManager."
WIFI_ACTIONS = ("settings.modify.system", "network-control", "wifi.share.protected")
NOT_WIFI_ACTIONS = ("enable-disable-network", "enable-disable-wifi", "sleep-wake", "reload",
                    "settings.modify.hostname", "settings.modify.global-dns",
                    "checkpoint-rollback", "wifi.share.open", "settings.modify.own")


def polkit_answers(rule: Path, asked: list[tuple[str, str]]) -> dict[str, str | None]:
    """What polkit's rules engine would answer: the installed rule run in JavaScript (the
    node that Playwright ships) with polkit's `addRule` and results, one (user, action) a line."""
    import json
    import playwright
    node = Path(playwright.__file__).parent / "driver" / "node"
    harness = rule.parent / "harness.js"
    harness.write_text(POLKIT_HARNESS)
    done = subprocess.run([str(node), str(harness), str(rule)], text=True, capture_output=True,
                          input="\n".join(f"{u} {a}" for u, a in asked), check=True)
    return json.loads(done.stdout)


def test_polkit_rule_grants_the_service_wifi_and_nothing_else(box, tmp_path):
    """The hotspot and a joined network need NetworkManager's connection settings, control
    and a protected share; switching networking off, the host name or DNS stay the admin's."""
    assert box.run("install").returncode == 0
    rule = tmp_path / "50-parlour.rules"
    rule.write_text(box.file("/etc/polkit-1/rules.d/50-parlour.rules").read_text())
    asked = [("parlour", NM + a) for a in WIFI_ACTIONS + NOT_WIFI_ACTIONS]
    asked += [("pi", NM + a) for a in WIFI_ACTIONS]
    asked += [("parlour", "org.freedesktop.login1.reboot")]
    answers = polkit_answers(rule, asked)
    assert [a for a in WIFI_ACTIONS if answers[f"parlour {NM}{a}"] == "yes"] == list(WIFI_ACTIONS)
    assert [a for a in NOT_WIFI_ACTIONS if answers[f"parlour {NM}{a}"] is not None] == []
    assert [a for a in WIFI_ACTIONS if answers[f"pi {NM}{a}"] is not None] == []
    assert answers["parlour org.freedesktop.login1.reboot"] is None


def test_install_on_a_fresh_card_does_each_step_and_says_so(box):
    result = box.run("install")
    assert result.returncode == 0, result.stderr
    commands = box.commands()
    apt = _named(commands, "apt-get")
    assert apt[0] == "apt-get update -q" and apt[1].startswith("apt-get install -y")
    for package in ("python3-lgpio", "python3-gpiozero", "avahi-daemon", "network-manager",
                    "dnsmasq-base"):                 # the hotspot's DHCP (ipv4.method shared)
        assert package in apt[1]
    config_txt = box.file("/boot/firmware/config.txt").read_text()
    assert "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n" in config_txt
    assert config_txt.startswith(BOOKWORM_CONFIG_TXT)                  # nothing else touched
    assert box.file("/boot/firmware/config.txt.before-parlour").read_text() == \
        BOOKWORM_CONFIG_TXT
    assert box.file("/etc/modules-load.d/parlour-i2c.conf").read_text() == "i2c-dev\n"
    assert "useradd --system --home-dir /var/lib/parlour --no-create-home " \
           "--shell /usr/sbin/nologin parlour" in commands
    assert "groupadd --system i2c" in commands and "groupadd --system gpio" not in commands
    assert {"usermod -a -G gpio parlour", "usermod -a -G i2c parlour"} <= set(commands)
    rule = box.file("/etc/polkit-1/rules.d/50-parlour.rules").read_text()
    assert 'subject.user == "parlour"' in rule and "org.freedesktop.NetworkManager." in rule
    assert box.file("/etc/parlour/parlour.toml").read_text() == \
        (ROOT / "firmware/parlour.example.toml").read_text()
    assert stat.S_IMODE(box.file("/etc/parlour/parlour.toml").stat().st_mode) == 0o640
    assert commands.index(f"chown root:parlour {box.file('/etc/parlour/parlour.toml')}") > \
        commands.index("useradd --system --home-dir /var/lib/parlour --no-create-home "
                       "--shell /usr/sbin/nologin parlour")
    venv = str(box.file("/opt/parlour/venv"))
    assert f"python3 -m venv --system-site-packages {venv}" in commands
    assert any(c.startswith("venv-python -m pip install") and c.endswith(
        f"--upgrade {box.file('/opt/parlour/src.new')}") for c in commands)
    assert (box.file("/opt/parlour/src/firmware/cli.py")).is_file()
    assert not box.file("/opt/parlour/src/.git").exists()
    assert "hostnamectl set-hostname parlour" in commands
    assert box.file("/etc/hosts").read_text() == "127.0.0.1\tlocalhost\n127.0.1.1\tparlour\n"
    avahi = box.file("/etc/avahi/services/parlour.service").read_text()
    assert "<type>_http._tcp</type>" in avahi and "<port>8080</port>" in avahi
    assert box.file("/etc/systemd/system/parlour.service").read_text() == \
        (ROOT / "systemd/parlour.service").read_text()
    systemctl = _named(commands, "systemctl")
    assert systemctl.index("systemctl enable parlour.service") < \
        systemctl.index("systemctl restart parlour.service")
    out = result.stdout
    assert "changed: I2C on at 400 kHz" in out and "reboot once for I2C" in out
    assert "http://parlour.local:8080/" in out and "Parlour 0.1.0" in out


def test_install_run_again_changes_nothing_and_keeps_your_config(box):
    assert box.run("install").returncode == 0
    config = box.file("/etc/parlour/parlour.toml")
    config.write_text('pin = "24680"\n[web]\nport = 8090\n')
    config_txt = box.file("/boot/firmware/config.txt").read_text()
    again = box.run("install")
    assert again.returncode == 0, again.stderr
    commands = box.commands()
    assert not _named(commands, "useradd", "usermod", "groupadd", "hostnamectl",
                      "python3 -m venv", "systemctl enable")
    assert _named(commands, "apt-get update") and "systemctl restart parlour.service" in commands
    assert config.read_text() == 'pin = "24680"\n[web]\nport = 8090\n'
    assert box.file("/boot/firmware/config.txt").read_text() == config_txt
    assert "already so: I2C on at 400 kHz" in again.stdout
    assert "already so: /etc/parlour/parlour.toml (yours" in again.stdout
    # the one change: Avahi now announces the port the config names
    assert "<port>8090</port>" in box.file("/etc/avahi/services/parlour.service").read_text()
    assert "done: 1 change(s)" in again.stdout and "reboot" not in again.stdout
    assert box.run("install").returncode == 0
    assert "done: 0 change(s)" in box.run("install").stdout


def test_install_keeps_the_config_from_everyone_but_root_and_the_service(box):
    """It can hold the [club] and [wifi] passwords: an older install's 0644 is tightened."""
    assert box.run("install").returncode == 0
    config = box.file("/etc/parlour/parlour.toml")
    config.write_text('[wifi]\nssid = "Home"\npassword = "secret99"\n')
    config.chmod(0o644)
    again = box.run("install")
    assert again.returncode == 0, again.stderr
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert f"chown root:parlour {config}" in box.commands()
    assert config.read_text() == '[wifi]\nssid = "Home"\npassword = "secret99"\n'
    assert "changed: /etc/parlour/parlour.toml readable by root and the service alone " \
           "(0640 root:parlour)" in again.stdout
    assert "done: 0 change(s)" in box.run("install").stdout


@pytest.mark.parametrize("config, port", [
    ('[display]\nport = 1\n', 8080),                         # the I2C bus, not the web's
    ('[club]\nhost = "club.lan"\nport = 1883\n', 8080),       # the broker's
    ('[display]\nport = 1\n[web]\nhost = "0.0.0.0"\nport = 8090\n', 8090),
    ('web = { port = 8091 }\n', 8091),
    ('[web]\nport = 8092  # the table\n[club]\nport = 1883\n', 8092),
    ('\ufeff[web]\nport = 8094\n', 8094),        # saved with a BOM: the service reads it too
])
def test_avahi_announces_the_port_in_the_web_section_alone(box, config, port):
    box.file("/etc/parlour").mkdir(parents=True)
    box.file("/etc/parlour/parlour.toml").write_text(config)
    box.file("/etc/parlour/parlour.toml").chmod(0o640)
    result = box.run("install")
    assert result.returncode == 0, result.stderr
    assert f"<port>{port}</port>" in box.file("/etc/avahi/services/parlour.service").read_text()
    assert f"http://parlour.local:{port}/" in result.stdout and "warning" not in result.stderr


@pytest.mark.parametrize("config, words", [
    ('[web\nport = 8090\n', "is not valid TOML"),
    ('[web]\nport = 70000\n', "[web] port = 70000 in /etc/parlour/parlour.toml is no port"),
    ('[web]\nport = "8090"\n', "[web] port = '8090' in /etc/parlour/parlour.toml is no port"),
])
def test_avahi_announces_8080_for_a_config_the_service_will_refuse_and_says_so(
        box, config, words):
    box.file("/etc/parlour").mkdir(parents=True)
    box.file("/etc/parlour/parlour.toml").write_text(config)
    result = box.run("install")
    assert result.returncode == 0, result.stderr
    assert "<port>8080</port>" in box.file("/etc/avahi/services/parlour.service").read_text()
    assert words in result.stderr and "the service will refuse it" in result.stderr


def test_install_run_by_the_pis_user_announces_the_port_of_a_config_only_root_reads(box):
    box.as_user()
    box.file("/etc/parlour").mkdir(parents=True)
    box.file("/etc/parlour/parlour.toml").write_text("[web]\nport = 8093\n")
    result = box.run("install")
    assert result.returncode == 0, result.stderr
    assert f"sudo cat {box.file('/etc/parlour/parlour.toml')}" in box.commands()
    assert "<port>8093</port>" in box.file("/etc/avahi/services/parlour.service").read_text()


def test_install_run_by_the_pis_user_again_changes_nothing(box):
    """Debian's polkitd keeps /etc/polkit-1/rules.d to itself (0700): the rule, compared
    without sudo, was written again and counted a change on every `make install`."""
    box.as_user()
    assert box.run("install").returncode == 0
    assert (box.state / "root-only-polkit" / "50-parlour.rules").exists()
    again = box.run("install")
    assert again.returncode == 0, again.stderr
    assert "done: 0 change(s)" in again.stdout, again.stdout


def test_install_replaces_an_old_i2c_line_and_a_slow_baud_rate(box):
    box.file("/boot/firmware/config.txt").write_text(
        BOOKWORM_CONFIG_TXT + "dtparam=i2c_arm=on,i2c_arm_baudrate=100000\n")
    assert box.run("install").returncode == 0
    text = box.file("/boot/firmware/config.txt").read_text()
    assert "100000" not in text and text.count("dtparam=i2c_arm") == 3   # 1 commented + 2


def test_install_keeps_a_faster_bus_the_owner_chose(box):
    faster = BOOKWORM_CONFIG_TXT + "dtparam=i2c_arm=on,i2c_arm_baudrate=1000000\n"
    box.file("/boot/firmware/config.txt").write_text(faster)
    result = box.run("install")
    assert box.file("/boot/firmware/config.txt").read_text() == faster
    assert "already so: I2C on at 1000 kHz" in result.stdout


def test_install_reads_no_bus_speed_from_a_line_commented_out(box):
    """A rate commented out (going back from 1 MHz, as hardware/README.md suggests when the
    picture glitches) was read as the bus speed: "already so: I2C on at 1000 kHz" while the
    bus ran at the default 100 kHz, a frame four times as slow."""
    commented = (BOOKWORM_CONFIG_TXT + "dtparam=i2c_arm=on\n"
                 "#dtparam=i2c_arm_baudrate=1000000\n")
    box.file("/boot/firmware/config.txt").write_text(commented)
    result = box.run("install")
    assert result.returncode == 0, result.stderr
    assert "already so: I2C" not in result.stdout
    text = box.file("/boot/firmware/config.txt").read_text()
    assert text.endswith("[all]\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    assert "#dtparam=i2c_arm_baudrate=1000000" in text          # a comment stays a comment


def test_install_a_new_hostname_is_announced_at_once(box):
    """avahi-daemon reads the host name as it starts: after the rename it went on answering
    to the old <name>.local, while the script said phones would find the new one (no reboot
    was asked for where I2C was on already). A rename restarts it; no rename, no restart."""
    box.file("/boot/firmware/config.txt").write_text(
        BOOKWORM_CONFIG_TXT + "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n")
    result = box.run("--hostname", "games", "install")
    assert result.returncode == 0, result.stderr
    commands = box.commands()
    assert commands.index("hostnamectl set-hostname games") < commands.index(
        "systemctl try-restart avahi-daemon.service")
    assert "http://games.local:8080/" in result.stdout and "reboot" not in result.stdout
    again = box.run("--hostname", "games", "install")
    assert again.returncode == 0
    assert not _named(box.commands(), "systemctl try-restart avahi")


def test_install_refuses_32_bit_raspberry_pi_os_before_changing_anything(tmp_path):
    box = Box(tmp_path, arch="armhf")
    result = box.run("install")
    assert result.returncode == 2
    assert "needs 64-bit Raspberry Pi OS (arm64); this system is armhf" in result.stderr
    assert "Raspberry Pi OS Lite (64-bit)" in result.stderr
    assert not _named(box.commands(), "apt-get", "useradd", "systemctl enable")
    assert box.file("/boot/firmware/config.txt").read_text() == BOOKWORM_CONFIG_TXT


@pytest.mark.parametrize("codename", ["bookworm", "trixie"])
def test_install_knows_bookworm_and_trixie(tmp_path, codename):
    result = Box(tmp_path, codename=codename).run("install")
    assert result.returncode == 0 and f"Debian {codename}, arm64" in result.stdout
    assert "warning" not in result.stdout


def test_install_on_a_newer_release_warns_and_goes_on(tmp_path):
    result = Box(tmp_path, codename="forky", python="3.13").run("install")
    assert result.returncode == 0
    assert "warning: forky is neither Bookworm nor Trixie" in result.stdout


@pytest.mark.parametrize("codename, python", [("bullseye", "3.9"), ("bullseye", "3.11"),
                                              ("forky", "3.10")])
def test_install_on_an_older_card_changes_nothing_and_says_what_to_flash(tmp_path, codename,
                                                                        python):
    """A "Legacy" Bullseye card (Python 3.9) was warned about, then given NetworkManager beside
    its own dhcpcd, a new config.txt and a user, and failed only at pip: a headless Zero 2 W
    could lose its Wi-Fi at the next boot."""
    box = Box(tmp_path, codename=codename, python=python)
    result = box.run("install")
    assert result.returncode == 2
    assert f"this card is {codename} with Python {python}. Nothing was changed." in \
        " ".join(result.stderr.split())
    assert not _named(box.commands(), "apt-get", "useradd", "systemctl", "sudo")
    assert box.file("/boot/firmware/config.txt").read_text() == BOOKWORM_CONFIG_TXT


def test_install_makes_the_venv_again_for_a_new_python(tmp_path):
    """A card upgraded from Bookworm (3.11) to Trixie (3.13) kept the venv made for 3.11: its
    packages sat in lib/python3.11, where 3.13 does not look, and the service could not start."""
    box = Box(tmp_path, python="3.11")
    assert box.run("install").returncode == 0
    again = box.run("install")
    assert "already so: the venv /opt/parlour/venv" in again.stdout
    assert not _named(box.commands(), "python3 -m venv")
    box.python = "3.13"
    (box.root / "etc/os-release").write_text("ID=debian\nVERSION_CODENAME=trixie\n")
    upgraded = box.run("install")
    assert upgraded.returncode == 0, upgraded.stderr
    assert _named(box.commands(), "python3 -m venv")
    assert "the venv /opt/parlour/venv for Python 3.13 (it was made for 3.11)" in \
        " ".join(upgraded.stdout.split())
    assert box.file("/opt/parlour/venv/pyvenv.cfg").read_text() == "version = 3.13.2\n"


def installed_as_if_under_0_0_9(box) -> None:
    """The installed code says it is 0.0.9: the next install is an upgrade."""
    installed = box.file("/opt/parlour/src/pyproject.toml")
    installed.write_text(installed.read_text().replace('version = "0.1.0"',
                                                       'version = "0.0.9"'))


def backed_up_before_the_code_changed(box, store, sidecar: str, content: bytes, stop: str):
    """One copy of the store under 0.0.9 (the database and `sidecar`), made with the service
    stopped by `stop` before pip changed the code; the copies."""
    copies = list(store.glob("backup-0.0.9-*"))
    assert len(copies) == 1 and (copies[0] / "parlour.db").read_bytes().endswith(b"games")
    assert (copies[0] / sidecar).read_bytes() == content
    commands = box.commands()
    assert commands.index(stop) < next(
        i for i, c in enumerate(commands) if c.startswith("venv-python -m pip install"))
    return copies


def test_install_keeps_a_copy_of_the_store_before_an_upgrade(box):
    assert box.run("install").returncode == 0
    store = box.file("/var/lib/parlour")
    store.mkdir(parents=True)
    (store / "parlour.db").write_bytes(b"SQLite format 3\0games")
    (store / "parlour.db-wal").write_bytes(b"wal")
    installed_as_if_under_0_0_9(box)
    result = box.run("install")
    assert result.returncode == 0
    copies = backed_up_before_the_code_changed(box, store, "parlour.db-wal", b"wal",
                                               "systemctl stop parlour.service")
    assert "a copy of the store as it was under 0.0.9 (store version unknown): " \
        f"/var/lib/parlour/{copies[0].name}" in result.stdout     # not a store SQLite reads
    assert box.run("install").returncode == 0                  # same code: no second copy
    assert len(list(store.glob("backup-*"))) == 1


def test_install_labels_a_copy_with_the_stores_own_version(box):
    """Going back to the code before an upgrade made a second copy, labelled with the same
    release (every release may say 0.1.0) and a later time: the newer store, which the older
    program cannot read, looked like the one to restore. Each copy says its store's version."""
    import sqlite3
    assert box.run("install").returncode == 0
    store = box.file("/var/lib/parlour")
    store.mkdir(parents=True)
    db = sqlite3.connect(store / "parlour.db")
    db.execute("PRAGMA user_version = 7")
    db.execute("CREATE TABLE games (id INTEGER)")
    db.commit()
    db.close()
    installed_as_if_under_0_0_9(box)
    result = box.run("install")
    copies = list(store.glob("backup-0.0.9-store7-*"))
    assert result.returncode == 0 and len(copies) == 1, result.stdout
    assert "(store version 7)" in result.stdout


def test_install_run_by_the_pis_user_copies_the_store_it_can_only_see_through_sudo(box):
    assert box.run("install").returncode == 0
    store = box.as_user()
    (store / "parlour.db").write_bytes(b"SQLite format 3\0games")
    (store / "parlour.db-shm").write_bytes(b"shm")
    installed_as_if_under_0_0_9(box)
    result = box.run("install")
    assert result.returncode == 0, result.stderr
    backed_up_before_the_code_changed(box, store, "parlour.db-shm", b"shm",
                                      "sudo systemctl stop parlour.service")
    assert "a copy of the store as it was under 0.0.9" in result.stdout


def test_install_keeps_a_hostname_someone_chose(box):
    (box.state / "hostname").write_text("kitchen\n")
    result = box.run("install")
    assert not _named(box.commands(), "hostnamectl")
    assert "already so: the hostname kitchen" in result.stdout
    assert "http://kitchen.local:8080/" in result.stdout
    assert box.run("--hostname", "games", "install").returncode == 0
    assert "hostnamectl set-hostname games" in box.commands()


@pytest.mark.parametrize("name, words", [
    (None, "--hostname needs a name after it"),
    ("install", "--hostname needs a name after it ('install' is what to do"),
    ("", "--hostname needs a name after it"),
    ("games room", "'games room' is not a host name"),
    ("games/room", "'games/room' is not a host name"),
    ("-games", "'-games' is not a host name"),
    ("games-", "'games-' is not a host name"),
    ("caf\u00e9", "is not a host name"),
    ("g" * 64, "is longer than a host name may be (63 characters)"),
])
def test_install_refuses_a_missing_or_bad_hostname_before_changing_anything(box, name, words):
    result = box.run("install", "--hostname") if name is None else \
        box.run("--hostname", name, "install")
    assert result.returncode == 2 and words in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "shift" not in result.stderr
    assert box.commands() == []                          # not even apt-get
    assert (box.state / "hostname").read_text() == "raspberrypi\n"
    assert box.file("/etc/hosts").read_text() == "127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n"


def test_make_install_with_hostname_and_no_name_refuses_instead_of_naming_the_pi_install(box):
    result = box.make("install", "ARGS=--hostname")
    assert result.returncode != 0
    assert "--hostname needs a name after it" in result.stderr
    assert box.commands() == [] and (box.state / "hostname").read_text() == "raspberrypi\n"


def test_install_takes_a_hostname_of_letters_digits_and_inner_hyphens(box):
    assert box.run("install", "--hostname", "Games-Room-2").returncode == 0
    assert "hostnamectl set-hostname Games-Room-2" in box.commands()
    assert box.file("/etc/hosts").read_text().endswith("127.0.1.1\tGames-Room-2\n")
    assert box.run("--hostname", "g" * 63, "install").returncode == 0


def test_install_sets_the_wifi_country_without_which_the_hotspot_cannot_open(box):
    """Raspberry Pi OS keeps the Wi-Fi blocked until a country is set (Imager sets one only
    with a network): the installer said nothing, and the hotspot never opened."""
    (box.state / "country").unlink()                          # no Wi-Fi given in Imager
    first = box.run("install")
    assert first.returncode == 0, first.stderr
    assert "warning: no Wi-Fi country is set" in first.stdout
    assert first.stdout.strip().splitlines()[-1] == \
        'parlour: warning: no Wi-Fi country: make install ARGS="--wifi-country GB" (your country)'
    assert box.make("install", "ARGS=--force --wifi-country gb").returncode == 0
    assert "raspi-config nonint do_wifi_country GB" in box.commands()
    again = box.run("install")
    assert "already so: the Wi-Fi country GB" in again.stdout and "warning" not in again.stdout
    assert not _named(box.commands(), "raspi-config nonint do_wifi_country")
    moved = box.run("--wifi-country", "DE", "install")
    assert "changed: the Wi-Fi country: DE (was GB), and the Wi-Fi unblocked" in moved.stdout


@pytest.mark.parametrize("country, words", [
    (None, "--wifi-country needs your country's two letters"),
    ("install", "--wifi-country needs your country's two letters"),
    ("GBR", "'GBR' is not a country code"),
    ("G1", "'G1' is not a country code"),
    ("Ü K", "is not a country code"),
])
def test_install_refuses_a_bad_wifi_country_before_changing_anything(box, country, words):
    result = box.run("install", "--wifi-country") if country is None else \
        box.run("--wifi-country", country, "install")
    assert result.returncode == 2 and words in result.stderr, result.stderr
    assert box.commands() == [] and (box.state / "country").read_text() == "GB\n"


def test_install_with_a_wifi_country_and_no_raspi_config_stops_before_changing_anything(box):
    (box.bin / "raspi-config").unlink()                       # not Raspberry Pi OS
    result = box.run("--wifi-country", "GB", "install")
    assert result.returncode == 2 and "--wifi-country needs raspi-config" in result.stderr
    looked = {"id -u", "dpkg --print-architecture",
              'python3 -c import sys; print("%d.%d" % sys.version_info[:2])'}
    assert set(box.commands()) <= looked                                      # looked only
    plain = box.run("install")                                # without it: nothing to say
    assert plain.returncode == 0 and "Wi-Fi country" not in plain.stdout


def test_uninstall_keeps_the_games_unless_purged(box):
    assert box.run("install").returncode == 0
    (box.file("/var/lib/parlour")).mkdir(parents=True)
    (box.file("/var/lib/parlour/parlour.db")).write_bytes(b"games")
    result = box.run("uninstall")
    assert result.returncode == 0
    assert not box.file("/opt/parlour").exists()
    assert not box.file("/etc/systemd/system/parlour.service").exists()
    assert not box.file("/etc/polkit-1/rules.d/50-parlour.rules").exists()
    assert box.file("/var/lib/parlour/parlour.db").exists()
    assert box.file("/etc/parlour/parlour.toml").exists()
    assert "systemctl disable --now parlour.service" in box.commands()
    assert box.run("uninstall", "--purge").returncode == 0
    assert not box.file("/var/lib/parlour").exists() and not box.file("/etc/parlour").exists()


CONNECTIONS = """\
0a-hotspot:no:parlour-hotspot
0b-home:no:Parlour\\: Home
0c-cafe:yes:Parlour\\: Cafe \\\\ Bar
0d-imager:no:preconfigured
0e-other:no:parlour-hotspot-2
0f-wired:no:Wired connection 1
"""


def test_uninstall_removes_a_club_kept_here_but_not_its_config_or_league(box):
    assert box.run("install").returncode == 0
    club_unit = box.file("/etc/systemd/system/parlour-club.service")
    club_unit.write_text((ROOT / "systemd/parlour-club.service").read_text())
    box.file("/etc/parlour/club.toml").write_text('[club]\nhost = "club.lan"\n')
    box.file("/var/lib/parlour-club").mkdir(parents=True)
    result = box.run("uninstall", "--purge")
    assert result.returncode == 0, result.stderr
    commands = box.commands()
    assert "systemctl disable --now parlour-club.service" in commands
    assert "systemctl reset-failed parlour-club.service" in commands
    assert not club_unit.exists()
    assert box.file("/etc/parlour/club.toml").read_text() == '[club]\nhost = "club.lan"\n'
    assert not box.file("/etc/parlour/parlour.toml").exists()
    assert box.file("/var/lib/parlour-club").is_dir()
    assert "already so: the club's /etc/parlour/club.toml and league (/var/lib/parlour-club)" \
        in result.stdout


def test_uninstall_forgets_the_hotspot_and_with_purge_the_phones_networks_but_none_up_now(box):
    assert box.run("install").returncode == 0
    (box.state / "connections").write_text(CONNECTIONS)
    result = box.run("uninstall")
    assert result.returncode == 0, result.stderr
    assert _named(box.commands(), "nmcli connection delete") == \
        ["nmcli connection delete uuid 0a-hotspot"]
    assert "changed: removed the Wi-Fi connection 'parlour-hotspot'" in result.stdout
    assert "already so: the Wi-Fi networks added from a phone: 'Parlour: Home' " \
           "'Parlour: Cafe \\ Bar' (remove with --purge)" in result.stdout
    (box.state / "connections").write_text(
        CONNECTIONS.replace("0a-hotspot:no:", "0a-hotspot:yes:"))
    result = box.run("uninstall", "--purge")
    assert result.returncode == 0, result.stderr
    assert _named(box.commands(), "nmcli connection delete") == \
        ["nmcli connection delete uuid 0b-home"]              # the rest: up now, or not ours
    assert "changed: removed the Wi-Fi connection 'Parlour: Home'" in result.stdout
    for name, uuid in (("parlour-hotspot", "0a-hotspot"), ("Parlour: Cafe \\ Bar", "0c-cafe")):
        assert f"left the Wi-Fi connection '{name}': it is up now (delete it later with " \
               f"sudo nmcli connection delete uuid {uuid})" in result.stdout


@needs_network_manager
def test_uninstall_reads_the_real_nmcli_lines_escaped_names_and_all(box, monkeypatch):
    """The same forgetting with the real `nmcli` (against a stand-in NetworkManager with a
    radio, on a private bus): its `-t` lines escape a name's ':' and '\\', as the stand-in
    lines above assume, a connection up now is listed as such and left, and `connection delete
    uuid` deletes the very connection."""
    with stand_in_network_manager(in_range=["cafe"]) as (address, log):
        monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", address)
        for name, ssid in (("parlour-hotspot", "x"), ("Parlour: Home", "home"),
                           ("Parlour: Cafe \\ Bar", "cafe"), ("preconfigured", "x")):
            subprocess.run([NMCLI, "connection", "add", "type", "wifi", "con-name", name,
                            "ifname", "wlan0", "ssid", ssid], check=True, capture_output=True)
        subprocess.run([NMCLI, "connection", "up", "id", "Parlour: Cafe \\ Bar"], check=True,
                       capture_output=True)                  # how this Pi is reached, say
        (box.bin / "nmcli").write_text(f'#!/bin/sh\necho "nmcli $*" >> "$RECORD"\n'
                                       f'exec {NMCLI} "$@"\n')
        assert box.run("install").returncode == 0
        hotspot, home = profiles(1, 2)

        before = len(changes(log))
        result = box.run("uninstall")
        assert result.returncode == 0, result.stderr
        assert changes(log, before) == [("Delete", hotspot)]
        assert "changed: removed the Wi-Fi connection 'parlour-hotspot'" in result.stdout
        kept = next(line for line in result.stdout.splitlines() if "added from a phone" in line)
        assert "'Parlour: Home'" in kept and "'Parlour: Cafe \\ Bar'" in kept  # nmcli's order

        before = len(changes(log))
        result = box.run("uninstall", "--purge")
        assert result.returncode == 0, result.stderr
        assert changes(log, before) == [("Delete", home)]
        assert "changed: removed the Wi-Fi connection 'Parlour: Home'" in result.stdout
        assert "left the Wi-Fi connection 'Parlour: Cafe \\ Bar': it is up now" in result.stdout


def test_install_again_leaves_no_file_of_the_release_before(box):
    """An update unpacked over the old code: a module a release had deleted stayed there (and
    in pip's build/, so in the venv)."""
    assert box.run("install").returncode == 0
    stale = [box.file("/opt/parlour/src/companion/games/retired_game.py"),
             box.file("/opt/parlour/src/build/lib/companion/games/retired_game.py")]
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("RETIRED = True\n")
    assert box.run("install").returncode == 0
    assert not any(path.exists() for path in stale)
    assert box.file("/opt/parlour/src/companion/games/fox_and_geese.py").exists()


def an_update_whose_pip_fails(box):
    """A box installed, holding a store, its release made 0.0.9, and its venv's pip failing
    (no internet): (the store's folder, the venv's python, that python as it was)."""
    assert box.run("install").returncode == 0
    store = box.file("/var/lib/parlour")
    store.mkdir(parents=True)
    (store / "parlour.db").write_bytes(b"SQLite format 3\0games")
    installed_as_if_under_0_0_9(box)
    pip = box.file("/opt/parlour/venv/bin/python")
    working = pip.read_text()
    pip.write_text('#!/bin/sh\necho "venv-python $*" >> "$RECORD"\n'
                   '[ "$2" = pip ] && [ "$3" = install ] && exit 1\nexit 0\n')
    return store, pip, working


def test_install_that_fails_after_stopping_the_table_starts_it_again(box):
    """An update away from the internet: the store was copied with the service stopped, then
    pip could not reach PyPI and the script ended there, the table stopped until a reboot
    (the venv still held the release it ran). A failure after the stop starts it again."""
    an_update_whose_pip_fails(box)
    result = box.run("install")
    assert result.returncode != 0
    commands = box.commands()
    stop = commands.index("systemctl stop parlour.service")
    assert "systemctl start parlour.service" in commands[stop:], commands[stop:]
    assert "starting the table again with the release it had" in result.stdout


def test_install_tried_again_after_a_failed_update_still_stops_the_table_first(box):
    """The update that failed at pip had already put the new code in /opt/parlour/src, and
    the table went back to the release its venv held. The next try found src the same as the
    new code and took it for no upgrade: pip changed the code under a running table, with no
    copy of the store holding the games played in between. src now changes only once pip has
    installed it, so the next try is an upgrade again."""
    store, pip, working = an_update_whose_pip_fails(box)
    assert box.run("install").returncode != 0
    assert 'version = "0.0.9"' in box.file("/opt/parlour/src/pyproject.toml").read_text()
    (store / "parlour.db").write_bytes(b"SQLite format 3\0games and one more")
    pip.write_text(working)
    result = box.run("install")
    assert result.returncode == 0, result.stderr
    commands = box.commands()
    assert commands.index("systemctl stop parlour.service") < next(
        i for i, c in enumerate(commands) if c.startswith("venv-python -m pip install"))
    newest = max(store.glob("backup-0.0.9-*"), key=lambda p: p.name)
    assert (newest / "parlour.db").read_bytes().endswith(b"and one more")
    assert 'version = "0.1.0"' in box.file("/opt/parlour/src/pyproject.toml").read_text()
    assert not box.file("/opt/parlour/src.new").exists()
