"""The club's broker as systemd/mosquitto/ sets it up, on a real Mosquitto: Debian's main
config (persistence on) with the shipped drop-in and ACL, on loopback. Each table writes only
its own topics; the club reads them all; the records outlive a broker restart. A table the ACL
does not name yet keeps its games until it does."""

from __future__ import annotations

import getpass
import signal
import subprocess
from pathlib import Path

from club_support import Club, Table, a_table_restarted_quickly, wait_for
from mqtt_broker import Broker, needs_mosquitto

from firmware.config import ClubConfig

pytestmark = needs_mosquitto
SHIPPED = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto"
FRONT, FORGED = "0123456789abcdef", "fedcba9876543210"      # the ACL's example id, another


def shipped_broker(folder: Path) -> Broker:
    """Mosquitto with Debian's main config and the shipped drop-in, its paths in `folder`."""
    broker = Broker(folder)
    conf_d = folder / "conf.d"
    conf_d.mkdir()
    drop_in = (SHIPPED / "parlour.conf").read_text()
    assert "listener 1883\n" in drop_in
    drop_in = drop_in.replace("listener 1883\n", f"listener {broker.port} 127.0.0.1\n")
    drop_in = drop_in.replace("/etc/mosquitto/", f"{folder}/")
    (conf_d / "parlour.conf").write_text(drop_in)
    (folder / "parlour.acl").write_text((SHIPPED / "parlour.acl").read_text())
    passwords = folder / "parlour.passwd"
    passwords.touch(mode=0o600)
    for name, password in (("front", "fr0nt"), ("club", "k1ub")):
        subprocess.run(["mosquitto_passwd", "-b", str(passwords), name, password],
                       check=True, capture_output=True)
    (folder / "persist").mkdir()
    (folder / "mosquitto.conf").write_text(      # Debian's /etc/mosquitto/mosquitto.conf
        f"persistence true\npersistence_location {folder / 'persist'}/\n"
        f"log_dest file {folder / 'mosquitto.log'}\nuser {getpass.getuser()}\n"
        f"include_dir {conf_d}\n")
    return broker


def test_shipped_broker_config_keeps_tables_apart_and_records_across_a_restart(tmp_path,
                                                                               monkeypatch):
    import firmware.club.publisher as publisher
    monkeypatch.setattr(publisher, "REFUSED_SECONDS", 0.5)
    monkeypatch.setattr(publisher, "READ_BACK_SECONDS", 0.5)
    monkeypatch.setattr(publisher, "IDLE_SECONDS", 0.2)
    broker = shipped_broker(tmp_path / "broker").start()
    login = {"host": "127.0.0.1", "port": broker.port}
    try:
        club = Club(tmp_path / "club", ClubConfig(**login, username="club", password="k1ub"))
        front = Table(tmp_path / "front", ClubConfig(**login, username="front", password="fr0nt",
                                                     table="Front room"), FRONT)
        forger = Table(tmp_path / "forger", ClubConfig(**login, username="front",
                                                       password="fr0nt"), FORGED)
        for table in (front, forger):
            wait_for(table.publisher.connected.is_set)
        forger.play(winner=0, names=("Mallory", "Ben"))     # its login may not write there
        front.play(winner=0, names=("Ann", "Ben"))
        view = wait_for(lambda: (v := club.view())["league"]["games"] == 1 and v)
        wait_for(lambda: not front.store.unanswered_by_club())    # the club's answer got through
        said = wait_for(lambda: forger.publisher.last_error or None)
        assert said.startswith("the broker refused") and "(Not authorized)" in said
        assert FORGED in said                                # which id the ACL must name
        assert [r.id for r in forger.store.unsent_to_club()] == [1]      # kept, not lost
        assert [t["table"] for t in club.view()["tables"]] == [FRONT]
        wait_for(lambda: front.publisher._online_at is None)     # its read-back looked at
        assert not front.publisher.last_error               # it may read what it reads
        assert {r["name"] for r in view["league"]["standings"]} == {"Ann", "Ben"}
        acl = tmp_path / "broker" / "parlour.acl"           # the ACL put right, reloaded
        acl.write_text(acl.read_text().replace(
            f"topic write homeassistant/sensor/parlour_{FRONT}/#\n",
            f"topic write homeassistant/sensor/parlour_{FRONT}/#\n"
            f"topic write parlour/v1/tables/{FORGED}/#\n"))
        broker.process.send_signal(signal.SIGHUP)
        wait_for(lambda: not forger.store.unsent_to_club())
        view = wait_for(lambda: (v := club.view())["league"]["games"] == 2 and v)
        assert {t["table"]: t["status"] for t in view["tables"]} == {FRONT: "online",
                                                                    FORGED: "online"}
        for closing in (club, front, forger):
            closing.close()
        broker.stop()                                       # persistence: saved at the stop
        broker.start()
        fresh = Club(tmp_path / "club-rebuilt", ClubConfig(**login, username="club",
                                                           password="k1ub"))
        try:
            again = wait_for(lambda: (v := fresh.view())["league"]["games"] == 2 and v)
            assert {r["name"] for r in again["league"]["standings"]} == {"Ann", "Ben", "Mallory"}
        finally:
            fresh.close()
    finally:
        broker.stop()


def test_shipped_broker_config_a_table_refused_sends_at_once_on_its_next_connection(tmp_path):
    """A refusal waits a minute before trying again, but a new connection (the broker
    restarted with its ACL put right) sends everything at once."""
    broker = shipped_broker(tmp_path / "broker").start()
    login = {"host": "127.0.0.1", "port": broker.port}
    try:
        forger = Table(tmp_path / "forger", ClubConfig(**login, username="front",
                                                       password="fr0nt"), FORGED)
        wait_for(forger.publisher.connected.is_set)
        forger.play(winner=0, names=("Mallory", "Ben"))
        wait_for(lambda: "refused" in forger.publisher.last_error)
        acl = tmp_path / "broker" / "parlour.acl"
        acl.write_text(acl.read_text()
                       + f"\nuser front\ntopic write parlour/v1/tables/{FORGED}/#\n")
        broker.stop()
        broker.start()
        wait_for(lambda: not forger.store.unsent_to_club())      # well inside the minute
        forger.close()
    finally:
        broker.stop()


def test_shipped_broker_config_refusals_of_discovery_and_of_leaving_are_said(tmp_path,
                                                                           caplog):
    """The ACL lets a table write its own topics but not Home Assistant's: the table says
    which line is missing (it said nothing). Leaving a broker that refuses the clearing (or
    the login) is not taken as done (it was, and the device stayed in Home Assistant)."""
    import json
    from firmware.club import topics
    from firmware.club.publisher import ANNOUNCED_FILE, retire
    broker = shipped_broker(tmp_path / "broker")
    acl = tmp_path / "broker" / "parlour.acl"
    acl.write_text(acl.read_text().replace(
        f"topic write homeassistant/sensor/parlour_{FRONT}/#\n", ""))
    broker.start()
    login = {"host": "127.0.0.1", "port": broker.port}
    try:
        front = Table(tmp_path / "front", ClubConfig(**login, username="front",
                                                     password="fr0nt"), FRONT)
        said = wait_for(lambda: front.publisher.last_error or None)
        assert said == ("the broker refused its Home Assistant discovery (Not authorized): its "
                        f"ACL must let this table write {topics.discovery_filter(FRONT)}")
        club = Club(tmp_path / "club", ClubConfig(**login, username="club", password="k1ub"))
        front.play(winner=0, names=("Ann", "Ben"))       # the league's messages go on meanwhile
        front.session.new_game("kat-en-muis", ["Cy", "Dee"])
        wait_for(lambda: club.view()["league"]["games"] == 1 and any(
            (t["state"] or {}).get("game") == "kat-en-muis" for t in club.view()["tables"]))
        club.close()
        front.close()
        assert (tmp_path / "front" / ANNOUNCED_FILE).exists()
        assert not retire(tmp_path / "front", timeout=5)        # discovery may not be cleared
        assert (tmp_path / "front" / ANNOUNCED_FILE).exists()   # kept, to try again
        assert any("refused clearing" in r.getMessage() for r in caplog.records)
        kept = json.loads((tmp_path / "front" / ANNOUNCED_FILE).read_text())
        kept["password"] = "wrong"
        (tmp_path / "front" / ANNOUNCED_FILE).write_text(json.dumps(kept))
        assert not retire(tmp_path / "front", timeout=5)        # no exception either
        assert any("did not take the login" in r.getMessage() for r in caplog.records)
    finally:
        broker.stop()


def test_shipped_broker_config_lets_a_table_restarted_quickly_stay_online(tmp_path):
    """The ACL lets a table read its own status, so it sees the will of its old connection
    (a power cut, a fast reboot) say "offline" and says "online" again."""
    broker = shipped_broker(tmp_path / "broker").start()
    try:
        a_table_restarted_quickly(tmp_path / "front", ClubConfig(
            host="127.0.0.1", port=broker.port, username="front", password="fr0nt"), FRONT,
            username="club", password="k1ub")
    finally:
        broker.stop()


def test_shipped_broker_config_an_acl_without_the_read_lines_is_said(tmp_path, caplog,
                                                                     monkeypatch):
    """An ACL written for an older Parlour (no read lines for a table: Mosquitto grants the
    subscriptions and delivers nothing) left the club's answers and a quick restart's
    "online" silently unseen: the table says so, once, and its games still reach the club."""
    import firmware.club.publisher as publisher
    from firmware.club import topics
    monkeypatch.setattr(publisher, "READ_BACK_SECONDS", 0.5)
    monkeypatch.setattr(publisher, "IDLE_SECONDS", 0.2)
    broker = shipped_broker(tmp_path / "broker")
    acl = tmp_path / "broker" / "parlour.acl"
    old = "".join(line for line in acl.read_text().splitlines(keepends=True)
                  if not line.startswith(("topic read parlour/v1/tables/", "topic read parlour/v1/club")))
    assert old.count("topic read") == 3                 # the club's and Home Assistant's
    acl.write_text(old)
    broker.start()
    login = {"host": "127.0.0.1", "port": broker.port}
    try:
        club = Club(tmp_path / "club", ClubConfig(**login, username="club", password="k1ub"))
        front = Table(tmp_path / "front", ClubConfig(**login, username="front",
                                                     password="fr0nt"), FRONT)
        said = wait_for(lambda: front.publisher.last_error or None)
        assert said.startswith("the broker did not let this table read "
                               f"{topics.status_topic(FRONT)} back in 0.5 s: its ACL must"), said
        front.play(winner=0, names=("Ann", "Ben"))
        wait_for(lambda: club.view()["league"]["games"] == 1)
        assert sum("did not let this table read" in r.getMessage()
                   for r in caplog.records) == 1       # said once, not at every look
        club.close()
        front.close()
    finally:
        broker.stop()
