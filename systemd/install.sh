#!/bin/sh
# Install (or remove) Parlour as a service on a Raspberry Pi: `make install` / `make uninstall`.
#
#   systemd/install.sh [--force] [--hostname NAME] [--wifi-country CC] [install|uninstall]
#                      [--purge]
#
# install:   refuses a 32-bit system; apt-get update and the packages it needs (Debian's
#            gpiozero and lgpio, Avahi, NetworkManager); I2C on at 400 kHz; the user `parlour`
#            (in gpio and i2c) and its right to manage Wi-Fi (a polkit rule, for the hotspot);
#            /etc/parlour/parlour.toml from the example (never overwritten; 0640 root:parlour,
#            as it can hold passwords); the code in /opt/parlour/src and a venv in
#            /opt/parlour/venv that sees Debian's gpiozero and lgpio; a copy of the store
#            before an upgrade; the unit enabled and (re)started;
#            the box announced as <hostname>.local (a Pi still called "raspberrypi" becomes
#            "parlour", or --hostname NAME: 1-63 letters, digits and inner hyphens); the
#            Wi-Fi country (--wifi-country GB, through raspi-config: until one is set,
#            Raspberry Pi OS keeps the Wi-Fi off, hotspot and all; without it a Pi with none
#            gets a warning). Safe to
#            run again: it changes only what differs, and says what it changed and what was
#            already so.
# uninstall: stops and removes the unit (and a club's, parlour-club.service, whose program
#            goes too), /opt/parlour, the polkit rule, the Avahi service, the hotspot's
#            NetworkManager connection and the user. --purge also removes the games
#            (/var/lib/parlour), /etc/parlour/parlour.toml and the Wi-Fi networks added from a
#            phone ("Parlour: <ssid>"); a connection up at the time, and a club's club.toml and
#            league (/var/lib/parlour-club), are always left.
# Runs its privileged steps with sudo; refuses anywhere but a Raspberry Pi unless --force.
# PARLOUR_ROOT=/some/dir puts every file it writes under that directory (the tests use it).
set -eu

ROOT=${PARLOUR_ROOT:-}
PREFIX=/opt/parlour
UNIT=/etc/systemd/system/parlour.service
CLUB_UNIT=/etc/systemd/system/parlour-club.service
CLUB_CONFIG=/etc/parlour/club.toml
CLUB_STATE=/var/lib/parlour-club
HOTSPOT=parlour-hotspot
STATE=/var/lib/parlour
CONFIG=/etc/parlour/parlour.toml
POLKIT=/etc/polkit-1/rules.d/50-parlour.rules
AVAHI=/etc/avahi/services/parlour.service
MODULES=/etc/modules-load.d/parlour-i2c.conf
USER_NAME=parlour
PACKAGES="python3-venv python3-pip python3-lgpio python3-gpiozero i2c-tools avahi-daemon network-manager dnsmasq-base"
HERE=$(cd "$(dirname "$0")/.." && pwd)

changed=0
say() { printf 'parlour: %s\n' "$*"; }
did() { changed=$((changed + 1)); say "changed: $*"; }
kept() { say "already so: $*"; }
fail() { echo "install.sh: $*" >&2; exit 2; }

# A host name as phones look it up (<name>.local): one RFC 1123 label.
check_hostname() {
    case "$1" in
        install|uninstall)
            fail "--hostname needs a name after it ('$1' is what to do, not a name):" \
                 "make install ARGS=\"--hostname NAME\"" ;;
        '') fail "--hostname needs a name after it, such as --hostname parlour" ;;
        -*|*-|*[!A-Za-z0-9-]*)
            fail "--hostname '$1' is not a host name: letters, digits and hyphens only," \
                 "not starting or ending with a hyphen (such as parlour or games-room)" ;;
    esac
    [ ${#1} -le 63 ] || fail "--hostname '$1' is longer than a host name may be (63 characters)"
}

# A Wi-Fi country as raspi-config takes it: two letters (ISO 3166), written in capitals.
check_country() {
    case "$1" in
        [A-Za-z][A-Za-z]) ;;
        ''|-*|install|uninstall)
            fail "--wifi-country needs your country's two letters after it, such as" \
                 "make install ARGS=\"--wifi-country GB\"" ;;
        *) fail "--wifi-country '$1' is not a country code: two letters, such as GB, DE or US" ;;
    esac
}

force=no purge=no action=install hostname= country=
while [ $# -gt 0 ]; do
    case "$1" in
        --force) force=yes ;;
        --purge) purge=yes ;;
        --hostname) check_hostname "${2:-}"; hostname=$2; shift ;;
        --wifi-country) check_country "${2:-}"; country=$(echo "$2" | tr a-z A-Z); shift ;;
        install|uninstall) action=$1 ;;
        -h|--help) sed -n '2,/^[^#]/{/^#/p;}' "$0"; exit 0 ;;
        *) fail "unknown argument '$1' (see --help)" ;;
    esac
    shift
done

SUDO=
if [ "$(id -u)" -ne 0 ]; then
    SUDO=sudo
fi

# Write stdin to $ROOT$1 (mode $2) only if it differs; `did` or `kept` with the words $3.
# Compared under sudo: Debian's polkitd keeps /etc/polkit-1/rules.d to itself (0700).
put() {
    tmp=$(mktemp)
    cat > "$tmp"
    if $SUDO test -f "$ROOT$1" && $SUDO cmp -s "$tmp" "$ROOT$1"; then
        kept "$3"
    else
        $SUDO mkdir -p "$(dirname "$ROOT$1")"
        $SUDO install -m "$2" "$tmp" "$ROOT$1"
        did "$3"
    fi
    rm -f "$tmp"
}

check_system() {
    if ! grep -qs 'Raspberry Pi' "$ROOT/proc/device-tree/model" && [ "$force" != yes ]; then
        fail "this is not a Raspberry Pi; refusing to install a service here" \
             "(use --force to do it anyway)"
    fi
    command -v systemctl >/dev/null 2>&1 || fail "systemctl not found: this needs a systemd system"
    arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
    case "$arch" in
        arm64|aarch64) ;;
        amd64|x86_64) [ "$force" = yes ] || fail "a $arch system is not a Raspberry Pi" ;;
        *) fail "Parlour needs 64-bit Raspberry Pi OS (arm64); this system is $arch." \
                "Pillow and the test browser have no wheels for it. Flash" \
                "'Raspberry Pi OS Lite (64-bit)' with Raspberry Pi Imager and run this again." ;;
    esac
    codename=$(. "$ROOT/etc/os-release" 2>/dev/null && echo "${VERSION_CODENAME:-unknown}")
    # Before anything is changed: an older card (Bullseye, Python 3.9) would get
    # NetworkManager beside its own dhcpcd, a new config.txt and a user, and then fail at pip.
    python=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) \
        || python=none
    case "$codename:$python" in
        stretch:*|buster:*|bullseye:*|*:none|*:2.*|*:3.[0-9]|*:3.10)
            fail "Parlour needs Raspberry Pi OS Bookworm or newer (Python 3.11 or newer);" \
                 "this card is $codename with Python $python. Nothing was changed. Flash" \
                 "'Raspberry Pi OS Lite (64-bit)' with Raspberry Pi Imager and run this again." ;;
        bookworm:*|trixie:*) say "Raspberry Pi OS / Debian $codename, $arch" ;;
        *) say "warning: $codename is neither Bookworm nor Trixie; going on, untested" ;;
    esac
}

# I2C on, at 400 kHz (a whole OLED frame in ~23 ms instead of ~92), and its device at boot.
enable_i2c() {
    boot=/boot/firmware/config.txt
    [ -f "$ROOT$boot" ] || boot=/boot/config.txt
    i2c_lines='^[[:space:]]*dtparam=i2c_arm(_baudrate)?='
    wanted='dtparam=i2c_arm=on
dtparam=i2c_arm_baudrate=400000'
    # the rate in effect: a dtparam line's, never a comment's (a rate commented out is 100 kHz)
    rate=$(sed -n 's/^[[:space:]]*dtparam=.*i2c_arm_baudrate=\([0-9]*\).*/\1/p' \
        "$ROOT$boot" 2>/dev/null | tail -n 1)
    if [ ! -f "$ROOT$boot" ]; then
        say "no /boot/firmware/config.txt here: add $wanted to it yourself"
    elif grep -qE '^[[:space:]]*dtparam=i2c_arm=on' "$ROOT$boot" \
            && [ "$rate" -ge 400000 ] 2>/dev/null; then      # 400 kHz, or faster by choice
        kept "I2C on at $((rate / 1000)) kHz in $boot"
    else
        tmp=$(mktemp)
        grep -v -E "$i2c_lines" "$ROOT$boot" > "$tmp" || true
        printf '\n# Parlour: the OLED on I2C at 400 kHz\n[all]\n%s\n' "$wanted" >> "$tmp"
        $SUDO cp -p "$ROOT$boot" "$ROOT$boot.before-parlour"
        $SUDO cp "$tmp" "$ROOT$boot"
        rm -f "$tmp"
        did "I2C on at 400 kHz in $boot (as it was: $boot.before-parlour; reboot to apply)"
        reboot_needed=yes
    fi
    echo i2c-dev | put "$MODULES" 0644 "i2c-dev loaded at boot ($MODULES)"
}

add_user() {
    if id "$USER_NAME" >/dev/null 2>&1; then
        kept "the user $USER_NAME"
    else
        $SUDO useradd --system --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin "$USER_NAME"
        did "the user $USER_NAME"
    fi
    for group in gpio i2c; do
        if ! getent group "$group" >/dev/null; then
            $SUDO groupadd --system "$group"
            did "the group $group"
        fi
        if id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
            kept "$USER_NAME in $group"
        else
            $SUDO usermod -a -G "$group" "$USER_NAME"
            did "$USER_NAME in $group"
        fi
    done
    # NetworkManager asks polkit: the service user may add Wi-Fi networks and run the hotspot,
    # and nothing else NetworkManager guards (networking off, the host name, DNS, sleep).
    put "$POLKIT" 0644 "$USER_NAME may manage Wi-Fi through NetworkManager ($POLKIT)" <<EOF
// Parlour's service user may manage Wi-Fi (the hotspot, a home network added from a phone):
// add, change and delete system connections, bring them up and down, share the Wi-Fi with a
// password (the hotspot). Nothing else NetworkManager guards.
polkit.addRule(function (action, subject) {
    var wifi = ["org.freedesktop.NetworkManager.settings.modify.system",
                "org.freedesktop.NetworkManager.network-control",
                "org.freedesktop.NetworkManager.wifi.share.protected"];
    if (subject.user == "$USER_NAME" && wifi.indexOf(action.id) >= 0) {
        return polkit.Result.YES;
    }
});
EOF
}

# The config can hold passwords ([club], [wifi]): root writes it, the service (group parlour)
# reads it, nobody else does.
install_config() {
    if [ -f "$ROOT$CONFIG" ]; then
        kept "$CONFIG (yours; the example is $PREFIX/src/firmware/parlour.example.toml)"
        $SUDO chown root:"$USER_NAME" "$ROOT$CONFIG"
        if [ "$(stat -c %a "$ROOT$CONFIG")" != 640 ]; then
            $SUDO chmod 0640 "$ROOT$CONFIG"
            did "$CONFIG readable by root and the service alone (0640 root:$USER_NAME)"
        fi
    else
        put "$CONFIG" 0640 "$CONFIG from the example (every key optional; 0640 root:$USER_NAME)" \
            < "$HERE/firmware/parlour.example.toml"
        $SUDO chown root:"$USER_NAME" "$ROOT$CONFIG"
    fi
}

# A copy of the store before the code changes under it (the new code migrates it forward).
# /var/lib/parlour is parlour's alone (0700): it is looked into with sudo, as it is written.
back_up_store() {
    $SUDO test -f "$ROOT$STATE/parlour.db" && [ -f "$ROOT$PREFIX/src/pyproject.toml" ] \
        || return 0
    old=$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT$PREFIX/src/pyproject.toml")
    new=$(sed -n 's/^version = "\(.*\)"/\1/p' "$HERE/pyproject.toml")
    if cmp -s "$HERE/pyproject.toml" "$ROOT$PREFIX/src/pyproject.toml" && [ "$old" = "$new" ] \
            && diff -rq "$HERE/companion" "$ROOT$PREFIX/src/companion" >/dev/null 2>&1; then
        return 0
    fi
    $SUDO systemctl stop parlour.service 2>/dev/null || true
    stopped=yes                         # from here a failure starts the table again (below)
    # Labelled by the store's own version too: going back, the copy to restore is the newest
    # one the older program can read (every release may say 0.1.0; the store's version moves).
    store=$($SUDO python3 - "$ROOT$STATE/parlour.db" 2>/dev/null <<'PY' || echo unknown
import sqlite3, sys
from pathlib import Path
try:
    db = sqlite3.connect(Path(sys.argv[1]).resolve().as_uri() + "?mode=ro", uri=True)
    print(db.execute("PRAGMA user_version").fetchone()[0])
except sqlite3.Error:
    print("unknown")
PY
)
    backup="$STATE/backup-$old-store$store-$(date +%Y%m%d-%H%M%S)"
    $SUDO mkdir -p "$ROOT$backup"
    for f in parlour.db parlour.db-wal parlour.db-shm; do
        if $SUDO test -f "$ROOT$STATE/$f"; then
            $SUDO cp -p "$ROOT$STATE/$f" "$ROOT$backup/"
        fi
    done
    did "a copy of the store as it was under $old (store version $store): $backup"
}

install_code() {
    # the release as it is: files a release left out go, and so does pip's build/ (it kept
    # modules an update had deleted). It is staged in src.new and becomes src only once pip
    # has installed it: a try that fails (pip away from the internet) leaves src saying what
    # the venv runs, so the next try is an upgrade again (the table stopped, the store copied)
    staged=$PREFIX/src.new
    $SUDO rm -rf "$ROOT$staged"
    $SUDO mkdir -p "$ROOT$staged"
    (cd "$HERE" && tar --exclude=.venv --exclude=.git --exclude='*.pyc' --exclude='*.egg-info' \
        --exclude=.pytest_cache --exclude=.hypothesis -cf - .) | $SUDO tar -C "$ROOT$staged" -xf -
    # a venv is made for one Python: after an upgrade of the card (Bookworm's 3.11 to Trixie's
    # 3.13) its packages sit where the new one does not look, and the service cannot start
    made_for=$(sed -n 's/^version *= *\([0-9]*\.[0-9]*\).*/\1/p' \
        "$ROOT$PREFIX/venv/pyvenv.cfg" 2>/dev/null) || made_for=
    if [ -x "$ROOT$PREFIX/venv/bin/python" ] && [ "$made_for" = "$python" ]; then
        kept "the venv $PREFIX/venv"
    else
        $SUDO rm -rf "$ROOT$PREFIX/venv"
        $SUDO python3 -m venv --system-site-packages "$ROOT$PREFIX/venv"
        did "the venv $PREFIX/venv for Python $python${made_for:+ (it was made for $made_for)}" \
            "(with Debian's gpiozero and lgpio)"
    fi
    $SUDO "$ROOT$PREFIX/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --upgrade "$ROOT$staged"
    $SUDO rm -rf "$ROOT$PREFIX/src"
    $SUDO mv "$ROOT$staged" "$ROOT$PREFIX/src"
    say "installed: $("$ROOT$PREFIX/venv/bin/python" -m pip show parlour 2>/dev/null \
        | sed -n 's/^Version: /Parlour /p')"
    $SUDO chown -R root:root "$ROOT$PREFIX"
    $SUDO chmod -R go-w "$ROOT$PREFIX"
}

# The port the table serves on: [web] port in the config (read as root: it is 0640), else 8080.
web_port() {
    $SUDO cat "$ROOT$CONFIG" 2>/dev/null | python3 -c '
import sys, tomllib
try:
    text = sys.stdin.buffer.read().decode("utf-8").removeprefix("\ufeff")   # as the service
    web = tomllib.loads(text).get("web", {})
    port = web.get("port", 8080) if isinstance(web, dict) else 8080
except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
    print(f"parlour: warning: {sys.argv[1]} is not valid TOML ({error}):"
          " the service will refuse it", file=sys.stderr)
    port = 8080
if type(port) is not int or not 1 <= port <= 65535:
    print(f"parlour: warning: [web] port = {port!r} in {sys.argv[1]} is no port:"
          " the service will refuse it", file=sys.stderr)
    port = 8080
print(port)' "$CONFIG"
}

name_the_box() {
    current=$(hostname 2>/dev/null || echo unknown)
    if [ -z "$hostname" ] && [ "$current" = raspberrypi ]; then
        hostname=parlour
    fi
    if [ -n "$hostname" ] && [ "$hostname" != "$current" ]; then
        $SUDO hostnamectl set-hostname "$hostname"
        if [ -f "$ROOT/etc/hosts" ]; then       # as raspi-config does, so sudo still resolves
            $SUDO sed -i "s/^127\.0\.1\.1[[:space:]].*$/127.0.1.1\t$hostname/" "$ROOT/etc/hosts"
        fi
        # Avahi reads the name as it starts: until then it answers to the old <name>.local
        $SUDO systemctl try-restart avahi-daemon.service 2>/dev/null || true
        did "the hostname: $hostname (was $current)"
    else
        hostname=$current
        kept "the hostname $hostname (--hostname NAME to change it)"
    fi
    port=$(web_port)
    put "$AVAHI" 0644 "Avahi announces the table at http://$hostname.local:$port/" <<EOF
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<service-group>
  <name replace-wildcards="yes">Parlour on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>$port</port>
  </service>
</service-group>
EOF
}

# Raspberry Pi OS keeps the Wi-Fi radio blocked (rfkill) until a Wi-Fi country is set, as
# Imager does when it is given a network: without one the box can neither join home Wi-Fi
# nor open its hotspot.
wifi_country() {
    command -v raspi-config >/dev/null 2>&1 || return 0       # checked at the start
    current=$($SUDO raspi-config nonint get_wifi_country 2>/dev/null) || current=
    if [ -n "$country" ] && [ "$country" != "$current" ]; then
        $SUDO raspi-config nonint do_wifi_country "$country" ||
            fail "raspi-config could not set the Wi-Fi country to $country"
        did "the Wi-Fi country: $country${current:+ (was $current)}, and the Wi-Fi unblocked"
    elif [ -n "$current" ]; then
        kept "the Wi-Fi country $current (--wifi-country CC to change it)"
    else
        no_country=yes
        say "warning: no Wi-Fi country is set, so Raspberry Pi OS keeps the Wi-Fi off: the box" \
            "can neither join a network nor open its hotspot. Run make install" \
            "ARGS=\"--wifi-country GB\" with your country's two letters"
    fi
}

# An install that fails once the table was stopped for it (pip cannot reach PyPI: an update
# away from the internet) starts it again: the venv still holds the release it ran.
stopped=no
start_again_if_stopped() {
    if [ "$1" -ne 0 ] && [ "$stopped" = yes ]; then
        say "the install stopped part way: starting the table again with the release it had"
        $SUDO systemctl start parlour.service 2>/dev/null || true
    fi
}

install_parlour() {
    trap 'start_again_if_stopped $?' EXIT
    check_system
    if [ -n "$country" ] && ! command -v raspi-config >/dev/null 2>&1; then
        fail "--wifi-country needs raspi-config (Raspberry Pi OS): set the country with your" \
             "system's own tools instead"
    fi
    no_country=no
    reboot_needed=no
    say "updating the package lists, then: $PACKAGES"
    $SUDO apt-get update -q
    # shellcheck disable=SC2086
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $PACKAGES
    enable_i2c
    add_user
    install_config
    back_up_store
    install_code
    name_the_box
    wifi_country
    put "$UNIT" 0644 "the unit $UNIT" < "$HERE/systemd/parlour.service"
    $SUDO systemctl daemon-reload
    if systemctl is-enabled --quiet parlour.service 2>/dev/null; then
        kept "parlour.service enabled at boot"
    else
        $SUDO systemctl enable parlour.service
        did "parlour.service enabled at boot"
    fi
    $SUDO systemctl restart parlour.service
    stopped=no
    say "started: 'systemctl status parlour', 'journalctl -u parlour -f'"
    say "done: $changed change(s)"
    if [ "$reboot_needed" = yes ]; then
        say "reboot once for I2C (sudo reboot); the table starts by itself after it"
    fi
    if [ "$no_country" = yes ]; then
        say "warning: no Wi-Fi country: make install ARGS=\"--wifi-country GB\" (your country)"
    fi
}

# The connections Parlour made in NetworkManager: its hotspot always; with --purge also the
# home networks added from a phone ("Parlour: <ssid>"), which may be how this Pi is reached.
# A connection that is up now is left, as deleting it could cut off this very session.
forget_networks() {
    command -v nmcli >/dev/null 2>&1 || return 0
    list=$($SUDO nmcli -t -f UUID,ACTIVE,NAME connection show 2>/dev/null) || return 0
    homes=
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        uuid=${line%%:*} rest=${line#*:}
        active=${rest%%:*}
        name=$(printf '%s\n' "${rest#*:}" | sed 's/\\\(.\)/\1/g')   # nmcli -t escapes : and \
        case "$name" in
            "$HOTSPOT") ;;
            "Parlour: "*) if [ "$purge" != yes ]; then homes="$homes '$name'"; continue; fi ;;
            *) continue ;;
        esac
        if [ "$active" = yes ]; then
            say "left the Wi-Fi connection '$name': it is up now (delete it later with" \
                "sudo nmcli connection delete uuid $uuid)"
        elif $SUDO nmcli connection delete uuid "$uuid" >/dev/null </dev/null; then
            did "removed the Wi-Fi connection '$name' from NetworkManager"
        fi
    done <<EOF
$list
EOF
    if [ -n "$homes" ]; then
        kept "the Wi-Fi networks added from a phone:$homes (remove with --purge)"
    fi
}

uninstall_parlour() {
    if [ -f "$ROOT$UNIT" ]; then
        $SUDO systemctl disable --now parlour.service || true
        $SUDO rm -f "$ROOT$UNIT"
        $SUDO systemctl daemon-reload
        $SUDO systemctl reset-failed parlour.service 2>/dev/null || true
        did "stopped and removed the unit"
    fi
    # A club kept on this box runs the program about to be removed: it goes too (not its data).
    if [ -f "$ROOT$CLUB_UNIT" ]; then
        $SUDO systemctl disable --now parlour-club.service || true
        $SUDO rm -f "$ROOT$CLUB_UNIT"
        $SUDO systemctl daemon-reload
        $SUDO systemctl reset-failed parlour-club.service 2>/dev/null || true
        did "stopped and removed the club's unit $CLUB_UNIT"
    fi
    forget_networks
    $SUDO rm -rf "$ROOT$PREFIX" "$ROOT$POLKIT" "$ROOT$AVAHI"
    did "removed $PREFIX, the polkit rule and the Avahi service"
    if id "$USER_NAME" >/dev/null 2>&1; then
        $SUDO userdel "$USER_NAME" || true
        did "removed the user $USER_NAME"
    fi
    if [ "$purge" = yes ]; then
        $SUDO rm -rf "$ROOT$STATE"
        $SUDO rm -f "$ROOT$CONFIG"
        $SUDO rmdir "$ROOT/etc/parlour" 2>/dev/null || true       # unless a club.toml is there
        did "removed the games in $STATE (the PIN, keys and backups with them) and $CONFIG"
    else
        kept "the games in $STATE and $CONFIG (remove with --purge)"
    fi
    if $SUDO test -e "$ROOT$CLUB_CONFIG" || $SUDO test -e "$ROOT$CLUB_STATE"; then
        kept "the club's $CLUB_CONFIG and league ($CLUB_STATE), even with --purge: remove them" \
             "yourself if the club is done with them"
    fi
    say "left I2C switched on and the hostname as it is"
}

case "$action" in
    install) install_parlour ;;
    uninstall) uninstall_parlour ;;
esac
