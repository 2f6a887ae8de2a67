"""A table reports to the club's broker: its live state (retained), every finished game's record
(QoS 1, kept in the store until the broker acknowledges it), its status and Home Assistant's
discovery. Off unless the config has a `[club]` section.

Nothing here runs on the device loop or a phone's request: the session's listener only notes
the newest state and wakes the publisher's own thread; paho's network loop is a thread of its
own and reconnects after 1, 2, 4 ... 60 s. A finished game is already in the store (its end is
committed with its last event); it counts as unsent until the broker's PUBACK, so a table
that is off the network, loses power or is killed between a game's end and its sending sends
it at the next connection. The club counts a game once by its uid, so sending twice is safe.
"""

from __future__ import annotations

import json
import logging
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from companion.backoff import pause_after
from companion.record.league import TABLE_NAME_LONGEST
from firmware.club import receipts, topics
from firmware.config import ClubConfig, ConfigError
from firmware.stamps import CLUB
from web.access.keptfile import write_private
from web.records.record import game_record

log = logging.getLogger("parlour.club")
ANNOUNCED_FILE = "club-announced.json"     # where discovery went, to take it back later
LEFT_PREFIX = "club-left-"                  # brokers the table moved away from, to clear
ACK_SECONDS = 10                           # wait for a record's PUBACK before trying later
IDLE_SECONDS = 5                           # look for unsent games this often when quiet
REFUSED_SECONDS = 60                       # a broker that refused a message: try again after
ANSWER_SECONDS = 10.0                      # no answer to the login this long: say so
READ_BACK_SECONDS = 10.0                   # its own "online" not read back this long: say so
BATCH = 20                                 # unsent games sent in one go


def client_for(club: ClubConfig, client_id: str, *, clean_session: bool = True,
               v5: bool = False) -> mqtt.Client:
    """A paho client for the club's broker, with TLS and a login if set: MQTT 3.1.1, or MQTT 5
    with `v5` (whose PUBACK says whether the broker took a message or refused it; a 3.1.1
    broker acknowledges a message its ACL drops as if it took it)."""
    if v5:
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=mqtt.MQTTv5)
    else:
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=mqtt.MQTTv311, clean_session=clean_session)
    if club.username:
        client.username_pw_set(club.username, club.password or None)
    if club.tls:
        try:
            client.tls_set(ca_certs=club.ca_file or None)
        except (OSError, ValueError) as err:       # ssl.SSLError is an OSError
            raise ConfigError(f"[club] ca_file: {club.ca_file or 'the system CAs'} cannot be "
                              f"used as the broker's CA certificate ({err})") from None
    client.reconnect_delay_set(1, 60)
    return client


class Unreachable:
    """A broker that cannot be reached, logged as a warning with the reason: the first failed
    attempt of a run of them and whenever the reason changes, not every retry (1, 2, 4 ... 60
    s). paho calls `failed` while it handles the connection's OSError; `connected` ends the run."""

    def __init__(self, club: ClubConfig, on_error=None):
        self.club, self.on_error, self.said = club, on_error, None

    def failed(self, client, userdata) -> None:
        err = sys.exc_info()[1]
        why = (err.strerror or str(err) or type(err).__name__) if isinstance(err, OSError) \
            else "no reason given"
        text = f"cannot reach the broker {self.club.host}:{self.club.port} ({why})"
        if self.on_error is not None:
            self.on_error(text)
        if why != self.said:
            self.said = why
            log.warning("club: %s; trying again after 1, 2, 4 ... 60 s", text)

    def connected(self) -> None:
        self.said = None


class SaidOnce:
    """A warning logged when its words change, not at every retry that repeats them."""

    def __init__(self):
        self.said = ""

    def warn(self, text: str) -> None:
        if text != self.said:
            self.said = text
            log.warning("club: %s", text)

    def forget(self) -> None:
        self.said = ""


def _shown(payload: bytes) -> str:
    """A payload from the broker in a log line: quoted, its first 40 bytes."""
    return repr(payload[:40].decode("utf-8", "replace"))


def no_answer_watch(club: ClubConfig, connected: threading.Event,
                    say: Callable[[str], None]) -> threading.Timer:
    """A timer (started) that calls `say` with why, once, if the broker has not answered the
    login within ANSWER_SECONDS: a port that takes the connection and never answers (a web
    server's, a TLS port without `tls`) otherwise leaves a club or a table waiting in silence."""
    def check() -> None:
        if not connected.is_set():
            say(f"no answer from {club.host}:{club.port} within {ANSWER_SECONDS:g} s of "
                f"connecting: is that port an MQTT broker's{'' if club.tls else ' (without TLS)'}?")
    timer = threading.Timer(ANSWER_SECONDS, check)
    timer.daemon = True
    timer.start()
    return timer


class ClubPublisher:
    """Publishes one table's state and finished games to the club's broker."""

    def __init__(self, session, club: ClubConfig, *, table_id: str, data_dir: Path,
                 buttons: Sequence[str] = (),
                 learn_time: Callable[[str, datetime], None] | None = None):
        """`buttons`: the names of the seat buttons' colours, button 1's first; `learn_time`
        hears the club's clock (firmware/stamps.py's `TableClock.learn`)."""
        self.session, self.store, self.club = session, session.store, club
        self.learn_time = learn_time
        self.buttons = tuple(buttons)
        self.table_id = table_id
        self.name = club.table or socket.gethostname()[:TABLE_NAME_LONGEST]
        self.data_dir = Path(data_dir)
        # a client id of this run's own: two boxes of one id (a copied SD card) would
        # otherwise knock each other off the broker, over and over
        self.client = client_for(club, f"parlour-{table_id}-{secrets.token_hex(4)}", v5=True)
        self.client.will_set(topics.status_topic(table_id), "offline", qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self._refusals: dict[int, str] = {}            # message id -> the broker's refusal
        self._refused_at: float | None = None          # when the broker last refused one
        self._undiscovered_at: float | None = None     # ... refused Home Assistant's
        self._refusal = SaidOnce()
        self._login = SaidOnce()
        self._unread = SaidOnce()
        self._odd_status_said = False                  # a status not its own, logged on
        #                                                this connection (answered every time)
        self._status_seen = threading.Event()          # its status, read back on this connection
        self._online_at: float | None = None           # when it said "online" on this one
        self.unreachable = Unreachable(club, on_error=self._failed)
        self.client.on_connect_fail = self.unreachable.failed
        self.connected = threading.Event()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._snap: dict[str, Any] | None = None      # newest state not yet published
        self._announce = False                         # status and discovery due
        self._still_online = False                     # a will or junk seen: "online" due
        self._resend = False                           # a club that answers: unanswered due
        self._sent_now: set[int] = set()               # games sent on this connection
        self._thread = threading.Thread(target=self._run, name="parlour-club", daemon=True)
        self._unsubscribe = None
        self._watch: threading.Timer | None = None
        self.sent = 0                                  # records the broker acknowledged
        self.resent = 0                                # ... sent again, the club not answering
        self.last_error = ""

    def start(self) -> None:
        self._unsubscribe = self.session.subscribe(self._noticed)
        self._noticed(self.session.snapshot())
        self.client.connect_async(self.club.host, self.club.port, keepalive=self.club.keepalive)
        self.client.loop_start()
        self._thread.start()
        self._watch = no_answer_watch(self.club, self.connected, self._unanswered)

    def _unanswered(self, why: str) -> None:
        if not self.last_error:                  # a reason already said is the better one
            self.last_error = why
            log.warning("club: %s", why)

    def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        if self.connected.is_set():
            info = self.client.publish(topics.status_topic(self.table_id), "offline", qos=1,
                                       retain=True)
            try:
                info.wait_for_publish(timeout=2)
            except (RuntimeError, ValueError):   # the connection went just now: nothing to say
                pass
        self.client.disconnect()
        self.client.loop_stop()

    # -- the session's side: never waits -----------------------------------------------------

    def _noticed(self, snap: dict[str, Any]) -> None:
        with self._lock:
            self._snap = snap
        self._wake.set()

    # -- paho's network thread --------------------------------------------------------------

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            self.last_error = f"the broker refused the connection: {reason}"
            self._login.warn(self.last_error)          # once, not at every retry
            return
        self._login.forget()
        self._refused_at = self._undiscovered_at = None   # a new connection: all goes at once
        self.unreachable.connected()
        log.info("club: connected to %s:%s", self.club.host, self.club.port)
        # its own status, to answer an "offline" it did not say: the will of an older
        # connection of this table that the broker had not yet seen go (a quick restart
        # after a power cut) fires 1.5 x keepalive after this one said "online" (and its own
        # "online" read back shows the broker lets it read: an older ACL did not), and any
        # other status that is not its own; the club's answers to its records, and whether a
        # club that answers is about
        client.subscribe([(topic, mqtt.SubscribeOptions(qos=1)) for topic in (
            topics.status_topic(self.table_id), topics.received_filter(self.table_id),
            topics.CLUB_TOPIC)])
        self._status_seen.clear()
        self._odd_status_said = False
        with self._lock:
            self._announce = True
            self._snap = self._snap or self.session.snapshot()
            self._sent_now = set()       # what the broker lost went with the last connection
        self.connected.set()
        self._wake.set()

    def _failed(self, text: str) -> None:
        self.last_error = text

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        if self.connected.is_set() and not self._stop.is_set():       # not a clean stop
            log.info("club: disconnected (%s); reconnecting", reason)
        self.connected.clear()

    def _on_message(self, client, userdata, message) -> None:
        """A live "offline" on the table's own status topic while it is connected and not
        closing (close() says "offline" itself): "online" again. A retained one is what the
        broker held before this connection (its own last stop's, most often), which the
        "online" every connection says answers already. Any other status (junk written with
        the table's login, or left over) is answered with "online" too, and logged once. The
        club's answer to a record: that game is delivered. A club that answers: every game it
        has not answered is sent again."""
        topic, payload = message.topic, message.payload
        try:
            answering = self.connected.is_set() and not self._stop.is_set()
            if topic == topics.status_topic(self.table_id):
                self._status_seen.set()
                if not answering or payload == b"online" or (payload == b"offline"
                                                             and message.retain):
                    return
                if payload == b"offline":
                    log.info("club: the broker says this table is offline (an older "
                             "connection's will, most likely); saying online again")
                elif not self._odd_status_said:      # once a connection, whatever it says
                    self._odd_status_said = True
                    log.warning("club: the broker held %s as this table's status on %s (a "
                                "status is online or offline); saying online again (said "
                                "once a connection)", _shown(payload), topic)
                with self._lock:
                    self._still_online = True
                self._wake.set()
            elif topic == topics.CLUB_TOPIC:
                told = None if message.retain else receipts.club_time(payload)
                if told is not None:             # the club's clock, live: never a stale one
                    if self.learn_time is not None:
                        self.learn_time(CLUB, told)
                elif receipts.club_answers(payload):
                    with self._lock:
                        self._resend = True
                    self._wake.set()
            elif topic.startswith(topics.received_filter(self.table_id)[:-1]):
                receipts.take_answer(self.store, self.table_id, topic.rsplit("/", 1)[1],
                                     payload)
        except Exception:  # noqa: BLE001 - nothing from the broker may stop paho's thread
            log.exception("club: a message on %s could not be taken", topic[:200])

    def _on_publish(self, client, userdata, mid, reason, properties) -> None:
        if reason is not None and reason.is_failure:
            with self._lock:
                self._refusals[mid] = str(reason)

    # -- the publisher's own thread ----------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(IDLE_SECONDS)
            self._wake.clear()
            if self._stop.is_set() or not self.connected.is_set():
                continue
            try:
                self._publish_due()
            except Exception as err:  # noqa: BLE001 - the club must not stop the table
                self.last_error = str(err)
                log.exception("club: publishing failed; trying again")

    def _publish_due(self) -> None:
        # after a refusal, unsent games wait a minute (the ACL may be put right meanwhile),
        # then everything goes again, status and discovery included; the live state goes on
        now = time.monotonic()
        waiting = self._refused_at is not None and now < self._refused_at + REFUSED_SECONDS
        if self._refused_at is not None and not waiting:
            self._refused_at = None
            with self._lock:
                self._announce = True
                self._snap = self._snap or self.session.snapshot()
        if self._undiscovered_at is not None and now >= self._undiscovered_at + REFUSED_SECONDS:
            self._undiscovered_at = None
            with self._lock:
                self._announce = True
        with self._lock:
            announce, snap, still = self._announce, self._snap, self._still_online
            self._announce, self._snap, self._still_online = False, None, False
            resend, self._resend = self._resend and not waiting, self._resend and waiting
            self._refusals.clear()          # refusals of messages nobody waits for go here
        if announce:
            self._remember_announcement()
            status = self.client.publish(topics.status_topic(self.table_id), "online", qos=1,
                                         retain=True)
            found = [self.client.publish(topic, json.dumps(config), qos=1, retain=True)
                     for topic, config in topics.discovery(self.table_id, self.name)]
            if self._refused(self._answer(status), "its status"):
                return
            self._online_at = time.monotonic()
            for info in found:                  # refused, it is tried again with the status;
                if self._refused(self._answer(info), "its Home Assistant discovery",
                                 topics.discovery_filter(self.table_id)):
                    self._refused_at = None     # the league's messages go on meanwhile
                    self._undiscovered_at = time.monotonic()
                    break
        elif still:                 # a will or a status not its own (said by _on_message)
            self.client.publish(topics.status_topic(self.table_id), "online", qos=1,
                                retain=True)
        if self._online_at is not None and now > self._online_at + READ_BACK_SECONDS:
            self._online_at = None
            if self._status_seen.is_set():
                self._unread.forget()
            else:                   # an ACL from before a table read anything: said, once
                self._unread.warn(
                    f"the broker did not let this table read {topics.status_topic(self.table_id)}"
                    f" back in {READ_BACK_SECONDS:g} s: its ACL must let it read its status, its "
                    f"{topics.received_filter(self.table_id)} and {topics.CLUB_TOPIC} (see "
                    "systemd/mosquitto/parlour.acl), or the club's answers are never seen (each "
                    "game is sent once) and a quick restart may show it offline")
                self.last_error = self._unread.said
        if snap is not None:
            payload = topics.state_payload(snap, self.table_id, self.name)
            self.client.publish(topics.state_topic(self.table_id), json.dumps(payload),
                                qos=1, retain=True)
        if not waiting:
            self._send_unsent()
        if resend:
            self._send_unanswered()

    def _refused(self, answer: str | None, what: str, where: str = "") -> bool:
        """True if the broker refused `what` (its ACL, most likely, which must let the table
        write `where`, its own topics unless said): said once, and all is sent again after
        REFUSED_SECONDS, discovery and unsent games included."""
        if answer is None or answer == "no answer":
            return False
        self._refused_at = time.monotonic()
        self.last_error = (f"the broker refused {what} ({answer}): its ACL must let this "
                           f"table write {where or topics.table_filter(self.table_id)}")
        self._refusal.warn(f"{self.last_error}; kept, and tried again every "
                           f"{REFUSED_SECONDS:g} s")
        return True

    def _send_unsent(self) -> None:
        """Every finished game the broker has not acknowledged, oldest first, one at a time
        (each waits for its PUBACK; a game that gets none stays unsent for the next try)."""
        while self.connected.is_set() and not self._stop.is_set():
            unsent = self.store.unsent_to_club(BATCH)
            if not unsent:
                return
            for record in unsent:
                answer = self._publish_record(record)
                if answer is not None:              # kept unsent: tried again later
                    self._refused(answer, f"game {record.id}'s record")
                    return
                self._refusal.forget()
                self.store.sent_to_club(record.id, receipts.stamp_now())
                with self._lock:
                    self._sent_now.add(record.id)
                self.sent += 1

    def _send_unanswered(self) -> None:
        """Every game the broker took on an earlier connection that the club has not answered,
        sent again, oldest first (the club counts a game once by its uid): a club that answers
        is about, and a broker that went away since may have lost them before it read them.
        A game sent on this connection is with the broker still: its answer is on its way."""
        after = 0
        while self.connected.is_set() and not self._stop.is_set():
            unanswered = self.store.unanswered_by_club(after, BATCH)
            if not unanswered:
                return
            for record in unanswered:
                after = record.id
                with self._lock:
                    if record.id in self._sent_now:
                        continue
                if self._publish_record(record) is not None:   # at the next club or connection
                    return
                with self._lock:
                    self._sent_now.add(record.id)
                self.resent += 1

    def _publish_record(self, record) -> str | None:
        """Publish one finished game's record and wait for the broker: None once it took it,
        else why not (`_answer`). A game whose record cannot be made is logged and marked
        sent (one bad game must not block the rest)."""
        uid = topics.game_uid(self.table_id, record.id, record.commitment)
        try:
            body = game_record(self.store, record)
        except Exception as err:  # noqa: BLE001 - one bad game must not block the rest
            log.error("club: game %s cannot be sent (%s); marked as sent", record.id, err)
            self.store.sent_to_club(record.id, None)
            self.store.received_by_club(record.id, receipts.stamp_now(),
                                        f"cannot be sent ({err})"[:200])
            return None
        payload = json.dumps(topics.record_payload(body, self.table_id, self.name, uid,
                                                   self.buttons))
        info = self.client.publish(topics.record_topic(self.table_id, uid), payload, qos=1,
                                   retain=True)
        return self._answer(info)

    def _answer(self, info: mqtt.MQTTMessageInfo) -> str | None:
        """None once the broker took the message; else "no answer" (none within ACK_SECONDS,
        or the connection went) or its refusal. Waits in short steps, so that closing the table
        never waits for it."""
        waited = 0.0
        while not info.is_published():
            if waited >= ACK_SECONDS or self._stop.is_set():
                return "no answer"
            try:
                info.wait_for_publish(timeout=0.2)
            except (RuntimeError, ValueError):
                return "no answer"                  # not queued: disconnected meanwhile
            waited += 0.2
        with self._lock:
            return self._refusals.pop(info.mid, None)

    def _remember_announcement(self) -> None:
        """Where discovery went, so removing the `[club]` section can take it back."""
        club = self.club
        write_private(self.data_dir / ANNOUNCED_FILE, json.dumps({
            "host": club.host, "port": club.port, "tls": club.tls, "ca_file": club.ca_file,
            "username": club.username, "password": club.password, "table_id": self.table_id,
        }).encode())


def retire(data_dir: Path, *, timeout: float = 10.0, name: str = ANNOUNCED_FILE) -> bool:
    """With no `[club]` section any more (or one naming another broker): take the table's
    discovery, state and status off the broker it was announced on (empty retained messages),
    then forget it. `name` is the file that says where (`club-announced.json`, or a
    `club-left-*.json` after a move). False, and kept for the next start, when that broker
    cannot be reached."""
    path = Path(data_dir) / name
    try:
        kept = json.loads(path.read_text())
        club = ClubConfig(host=kept["host"], port=int(kept["port"]), tls=bool(kept["tls"]),
                          ca_file=kept.get("ca_file", ""), username=kept.get("username", ""),
                          password=kept.get("password", ""))
        table_id = kept["table_id"]
    except FileNotFoundError:
        return True
    except (OSError, ValueError, KeyError, TypeError) as err:
        log.warning("club: %s is unreadable (%s); removed", path, err)
        path.unlink(missing_ok=True)
        return True
    client = client_for(club, f"parlour-{table_id}-retiring", v5=True)
    answers: dict[str, Any] = {}                 # "login": its reason; message id: a refusal
    logged_in = threading.Event()

    def on_connect(client, userdata, flags, reason, properties) -> None:
        answers["login"] = reason
        logged_in.set()

    def on_publish(client, userdata, mid, reason, properties) -> None:
        if reason is not None and reason.is_failure:
            answers[mid] = reason
    client.on_connect, client.on_publish = on_connect, on_publish
    try:
        client.connect(club.host, club.port, keepalive=club.keepalive)
    except (OSError, ValueError) as err:
        log.warning("club: could not reach %s to leave Home Assistant (%s)", club.host, err)
        return False
    client.loop_start()
    try:
        if not logged_in.wait(timeout) or answers["login"].is_failure:
            log.warning("club: %s did not take the login to leave Home Assistant (%s)",
                        club.host, answers.get("login", "no answer"))
            return False
        gone = [topic for topic, _ in topics.discovery(table_id, "")]
        gone += [topics.state_topic(table_id), topics.status_topic(table_id)]
        infos = [client.publish(topic, b"", qos=1, retain=True) for topic in gone]
        for info in infos:
            info.wait_for_publish(timeout=timeout)
        if not all(info.is_published() for info in infos):
            return False
        refused = [answers[info.mid] for info in infos if info.mid in answers]
        if refused:
            log.warning("club: %s refused clearing this table's topics (%s): kept, and tried "
                        "again; its ACL must let it write %s and %s", club.host, refused[0],
                        topics.table_filter(table_id), topics.discovery_filter(table_id))
            return False
    except (RuntimeError, ValueError) as err:     # the connection went meanwhile
        log.warning("club: lost %s while leaving Home Assistant (%s)", club.host, err)
        return False
    finally:
        client.disconnect()
        client.loop_stop()
    path.unlink(missing_ok=True)
    log.info("club: left %s (Home Assistant's entities removed)", club.host)
    return True


def start_club(session, club: ClubConfig, data_dir: Path, table_id: str,
               stop: threading.Event, buttons: Sequence[str] = (),
               learn_time: Callable[[str, datetime], None] | None = None):
    """The club's publisher when the config has a `[club]` section (started); otherwise None.
    A broker the table was announced on and is no longer told to use (the section removed,
    or naming another broker) is cleared by a thread, retrying after 1, 2, 4 ... 60 s until it
    can or the table stops."""
    data_dir = Path(data_dir)
    announced = data_dir / ANNOUNCED_FILE
    if club.on and moved_away(announced, club):
        announced.replace(data_dir / f"{LEFT_PREFIX}{time.time_ns()}.json")
    leaving = sorted(p.name for p in data_dir.glob(f"{LEFT_PREFIX}*.json"))
    if not club.on and announced.exists():
        leaving.append(ANNOUNCED_FILE)
    if leaving:
        def keep_trying() -> None:
            failures = 0
            for name in leaving:
                while not stop.is_set() and not retire(data_dir, name=name):
                    failures += 1
                    stop.wait(pause_after(failures))
        threading.Thread(target=keep_trying, name="parlour-club-leave", daemon=True).start()
    if not club.on:
        return None
    publisher = ClubPublisher(session, club, table_id=table_id, data_dir=data_dir,
                              buttons=buttons, learn_time=learn_time)
    publisher.start()
    return publisher


def moved_away(announced: Path, club: ClubConfig) -> bool:
    """True if the table was announced on a broker other than the one `club` names."""
    try:
        kept = json.loads(announced.read_text())
        return (kept["host"], int(kept["port"])) != (club.host, club.port)
    except (OSError, ValueError, KeyError, TypeError):
        return False              # none, or unreadable: the publisher writes it anew
