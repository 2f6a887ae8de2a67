#!/bin/sh
# Install (or remove) Parlour as a service on a Raspberry Pi: `make install` / `make uninstall`.
#
#   systemd/install.sh [--force] [install|uninstall] [--purge]
#
# install:   the user `parlour` (in gpio and i2c), the code in /opt/parlour/src, a venv in
#            /opt/parlour/venv that sees Debian's python3-lgpio, I2C switched on, the unit in
#            /etc/systemd/system, enabled and started. Running it again upgrades in place.
# uninstall: stops and removes the unit, /opt/parlour and the user. The games in
#            /var/lib/parlour and any /etc/parlour config are kept unless --purge is given.
# It runs its privileged steps with sudo and refuses to run anywhere but a Raspberry Pi
# unless --force is given.
set -eu

PREFIX=/opt/parlour
UNIT=/etc/systemd/system/parlour.service
STATE=/var/lib/parlour
USER_NAME=parlour
HERE=$(cd "$(dirname "$0")/.." && pwd)

force=no purge=no action=install
for arg in "$@"; do
    case "$arg" in
        --force) force=yes ;;
        --purge) purge=yes ;;
        install|uninstall) action=$arg ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

say() { printf 'parlour: %s\n' "$*"; }

if ! grep -qs 'Raspberry Pi' /proc/device-tree/model && [ "$force" != yes ]; then
    echo "install.sh: this is not a Raspberry Pi; refusing to install a service here" \
         "(use --force to do it anyway)" >&2
    exit 2
fi
if ! command -v systemctl >/dev/null 2>&1; then
    echo "install.sh: systemctl not found: this needs a systemd system" >&2
    exit 2
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
    SUDO=sudo
fi

install_parlour() {
    say "installing system packages (python3-venv, python3-lgpio, i2c-tools)"
    $SUDO apt-get install -y --no-install-recommends python3-venv python3-lgpio i2c-tools

    if ! id "$USER_NAME" >/dev/null 2>&1; then
        say "creating the user $USER_NAME"
        $SUDO useradd --system --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin "$USER_NAME"
    fi
    for group in gpio i2c; do
        getent group "$group" >/dev/null || $SUDO groupadd --system "$group"
    done
    $SUDO usermod -a -G gpio,i2c "$USER_NAME"

    if command -v raspi-config >/dev/null 2>&1; then
        say "enabling I2C"
        $SUDO raspi-config nonint do_i2c 0
    else
        say "raspi-config not found: enable I2C yourself (dtparam=i2c_arm=on)"
    fi

    say "copying the code to $PREFIX/src"
    $SUDO mkdir -p "$PREFIX/src"
    (cd "$HERE" && tar --exclude=.venv --exclude=.git --exclude='*.pyc' \
        --exclude=.pytest_cache --exclude=.hypothesis -cf - .) | $SUDO tar -C "$PREFIX/src" -xf -
    say "building the venv in $PREFIX/venv"
    [ -x "$PREFIX/venv/bin/python" ] || \
        $SUDO python3 -m venv --system-site-packages "$PREFIX/venv"
    $SUDO "$PREFIX/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --upgrade "$PREFIX/src"
    $SUDO chown -R root:root "$PREFIX"
    $SUDO chmod -R go-w "$PREFIX"

    say "installing the unit $UNIT"
    $SUDO install -m 0644 "$HERE/systemd/parlour.service" "$UNIT"
    $SUDO systemctl daemon-reload
    $SUDO systemctl enable parlour.service
    $SUDO systemctl restart parlour.service
    say "installed: 'systemctl status parlour', 'journalctl -u parlour -f'"
}

uninstall_parlour() {
    if [ -f "$UNIT" ]; then
        say "stopping and removing the unit"
        $SUDO systemctl disable --now parlour.service || true
        $SUDO rm -f "$UNIT"
        $SUDO systemctl daemon-reload
        $SUDO systemctl reset-failed parlour.service 2>/dev/null || true
    fi
    say "removing $PREFIX"
    $SUDO rm -rf "$PREFIX"
    if id "$USER_NAME" >/dev/null 2>&1; then
        say "removing the user $USER_NAME"
        $SUDO userdel "$USER_NAME" || true
    fi
    if [ "$purge" = yes ]; then
        say "removing the games in $STATE and /etc/parlour"
        $SUDO rm -rf "$STATE" /etc/parlour
    else
        say "kept the games in $STATE (remove with --purge)"
    fi
    say "left I2C switched on (raspi-config nonint do_i2c 1 turns it off)"
}

case "$action" in
    install) install_parlour ;;
    uninstall) uninstall_parlour ;;
esac
