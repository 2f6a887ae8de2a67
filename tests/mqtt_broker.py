"""A real Mosquitto broker for the club's tests (Debian's package), on a loopback port of its
own: anonymous, with a password file, or with TLS (a CA and a server certificate made by
`openssl` for the test). It can be stopped and started again on the same port."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto"
                                          if Path("/usr/sbin/mosquitto").exists() else None)
needs_mosquitto = pytest.mark.skipif(
    MOSQUITTO is None, reason="Mosquitto is not installed (Debian: apt install mosquitto; "
                              ".ci/run installs it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """One mosquitto process; `users` {name: password} turns anonymous access off."""

    def __init__(self, folder: Path, *, users: dict[str, str] | None = None, tls: bool = False):
        self.folder, self.port, self.tls = Path(folder), free_port(), tls
        self.folder.mkdir(parents=True, exist_ok=True)
        lines = [f"listener {self.port} 127.0.0.1", "persistence false",
                 f"user {getpass.getuser()}",       # run as root, it would drop to "mosquitto"
                 f"log_dest file {self.folder / 'mosquitto.log'}", "log_type all",
                 "max_queued_messages 10000"]
        if users:
            passwords = self.folder / "passwords"
            passwords.touch(mode=0o600)
            for name, password in users.items():
                subprocess.run(["mosquitto_passwd", "-b", str(passwords), name, password],
                               check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        if tls:
            self.ca_file = make_certificates(self.folder)
            lines += [f"cafile {self.ca_file}", f"certfile {self.folder / 'server.crt'}",
                      f"keyfile {self.folder / 'server.key'}"]
        (self.folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen | None = None

    def start(self) -> "Broker":
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"mosquitto did not start: {self.process.stderr.read()}")
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.terminate()
                self.process.wait(timeout=10)
            self.process.stderr.close()
        self.process = None


def make_certificates(folder: Path) -> Path:
    """A test CA and a server certificate for 127.0.0.1 and localhost signed by it."""
    def ssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Test CA",
        "-keyout", "ca.key", "-out", "ca.crt")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout",
        "server.key", "-out", "server.csr")
    (folder / "san.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    ssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.crt")
    return folder / "ca.crt"
