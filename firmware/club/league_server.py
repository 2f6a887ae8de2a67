"""`parlour club`: the club's process. It subscribes to every table's topics on the club's
broker (a persistent session: QoS 1 records sent while it was down wait for it), checks every
message, keeps records and tables in its own SQLite and serves the league page.

Anything from the broker is untrusted: a message that is too big, not JSON, not version 1, or
whose table or game id does not match its topic is refused, logged and counted; nothing a
message holds can stop the club.
"""

from __future__ import annotations

import errno
import json
import logging
import signal
import threading
from collections import deque
from collections.abc import Callable
from contextlib import ExitStack
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.checks import is_whole
from companion.errors import ParlourError
from companion.record.league import (MAX_RECORD_BYTES, RecordRefused, check_record,
                                     points_of)
from firmware.club import receipts, topics
from firmware.club.clubstore import ClubStore
from firmware.club.publisher import Unreachable, client_for, no_answer_watch
from firmware.config import ClubConfig
from firmware.datadir.datalock import CLUB_LOCK_NAME, DataDirLock

log = logging.getLogger("parlour.club")
MAX_STATE_BYTES = 64 * 1024
MAX_DICE, MAX_DIE = 6, 100                 # a state's last roll: this many dice, this high
NOT_YET = "not connected yet"
# CONNACK codes of a login the broker will not take: MQTT 3.1.1's 4 and 5, MQTT 5's 134, 135
REFUSED_LOGIN = {4, 5, 134, 135}
SUBSCRIPTIONS = (f"{topics.ROOT}/tables/+/state", f"{topics.ROOT}/tables/+/status",
                 f"{topics.ROOT}/tables/+/records/+")


CLOCK_SECONDS = 60.0     # the club tells the tables its time this often (and at once when
#                          a table comes online)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ClubListener:
    """The club's subscriber: every table's state, status and records into the club store."""

    def __init__(self, club: ClubConfig, store: ClubStore, *, client_id: str):
        """`client_id`: the club's own (`club_client_id`): one persistent session per club."""
        self.club, self.store = club, store
        self.client = client_for(club, client_id, clean_session=False)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.unreachable = Unreachable(club, on_error=self._trouble)
        self.client.on_connect_fail = self.unreachable.failed
        self.client.on_message = lambda client, userdata, message: self.take(
            message.topic, message.payload, retained=message.retain)
        self.connected = threading.Event()
        self.accepted = self.repeated = 0
        self.refused: deque[tuple[str, str]] = deque(maxlen=20)   # (topic, why), newest last
        self.refusals = 0
        self.problem = NOT_YET                     # why the broker is not connected, for people
        self._watch: threading.Timer | None = None
        self._closing = False
        self._ticking = threading.Event()          # set: the clock's thread stops

    def _trouble(self, text: str) -> None:
        self.problem = text

    def start(self) -> None:
        self.client.connect_async(self.club.host, self.club.port, keepalive=self.club.keepalive)
        self.client.loop_start()
        self._watch = no_answer_watch(self.club, self.connected, self._unanswered)
        threading.Thread(target=self._keep_time, name="parlour-club-clock", daemon=True).start()

    def tell_time(self) -> None:
        """The club's clock to every table, live (not retained, so never a stale time): a box
        away from any time server stamps its games by it (firmware/stamps.py), so a table
        whose clock stayed days behind does not date tonight's games days ago."""
        if self.connected.is_set():
            self.client.publish(topics.CLUB_TOPIC, json.dumps(
                {"v": topics.VERSION, "now": receipts.stamp_now()}), qos=0, retain=False)

    def _keep_time(self) -> None:
        while not self._ticking.wait(CLOCK_SECONDS):
            self.tell_time()

    def _unanswered(self, why: str) -> None:
        if self.problem == NOT_YET:             # a reason already known is the better one
            self.problem = why
            log.warning("club: %s", why)

    def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        self._ticking.set()
        self._closing = True                   # leaving: not a connection lost
        self.connected.clear()
        self.client.disconnect()
        self.client.loop_stop()

    def summary(self) -> dict[str, Any]:
        connected = self.connected.is_set()
        return {"host": self.club.host, "port": self.club.port, "connected": connected,
                "problem": "" if connected else self.problem, "accepted": self.accepted,
                "repeated": self.repeated, "refused": self.refusals,
                "last_refused": [list(r) for r in self.refused]}

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            said, self.problem = self.problem, (
                f"the broker refused the club's login ({reason})"
                if reason.value in REFUSED_LOGIN else
                f"the broker refused the connection ({reason})")
            if self.problem != said:             # once, not at every retry
                log.warning("club: %s", self.problem)
            return
        self.unreachable.connected()
        self.problem = ""
        self.store.statuses_unknown()            # until the broker's retained ones come again
        client.subscribe([(topic, 1) for topic in SUBSCRIPTIONS])
        # this club answers every record it reads: the tables send again what it has not
        # answered (what a broker acknowledged and then lost), seeing this now or at connecting
        client.publish(topics.CLUB_TOPIC, json.dumps({"v": topics.VERSION,
                                                      "acknowledges": True}), qos=1, retain=True)
        self.connected.set()
        self.tell_time()
        log.info("club: subscribed to the broker at %s:%s", self.club.host, self.club.port)

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        if self._closing:
            return
        if self.connected.is_set():
            log.info("club: disconnected from %s:%s (%s); reconnecting", self.club.host,
                     self.club.port, reason)
            self.problem = "lost the connection to the broker; trying again"
        elif not self.problem.startswith("the broker refused"):   # before any answer
            said, self.problem = self.problem, (
                f"{self.club.host}:{self.club.port} closed the connection without answering "
                "the login: is that port an MQTT broker's?")
            if self.problem != said:
                log.warning("club: %s", self.problem)
        self.connected.clear()

    def take(self, topic: str, payload: bytes, retained: bool = False) -> None:
        """One message from the broker: kept, or refused with the reason logged; a table's
        record is answered (`receipts`), unless it is a retained copy of one already kept (a
        club connecting gets every record again); a refused copy of a kept game's uid is
        answered as kept (the answer is the game's). Never raises (paho's thread must go on)."""
        try:
            kept = self._take(topic, payload)
        except RecordRefused as why:
            self._refuse(topic, str(why))
            kept = self.store.raw_record(topic.rsplit("/", 1)[-1]) is not None
            self._answer_record(topic, receipts.answer(kept, str(why)))
        except Exception as err:  # noqa: BLE001 - hostile input must not stop the club
            self._refuse(topic, f"could not be read ({type(err).__name__})")
            self._answer_record(topic, receipts.answer(False, "could not be read"))
        else:
            if kept is not None and (kept or not retained):
                self._answer_record(topic, receipts.answer(True))
            if payload == b"online" and not retained and topic.endswith("/status"):
                self.tell_time()                  # a table come online: the time, at once

    def _answer_record(self, topic: str, body: bytes) -> None:
        """The answer to a record on `topic`, if that is a table's record topic."""
        parts = topic.split("/")
        if len(parts) == 6 and parts[:3] == topics.ROOT.split("/") + ["tables"] \
                and topics.TABLE_ID.fullmatch(parts[3]) and parts[4] == "records" \
                and topics.game_of_uid(parts[5], parts[3]) is not None:
            self.client.publish(topics.received_topic(parts[3], parts[5]), body, qos=1)

    def _refuse(self, topic: str, why: str) -> None:
        self.refusals += 1
        self.refused.append((topic[:200], why))
        log.warning("club: refused %s: %s", topic[:200], why)

    def _take(self, topic: str, payload: bytes) -> bool | None:
        """Keeps the message; for a record, True if it was new and False if already kept
        (None for anything else)."""
        parts = topic.split("/")
        if len(parts) < 5 or parts[:3] != topics.ROOT.split("/") + ["tables"] \
                or not topics.TABLE_ID.fullmatch(parts[3]):
            raise RecordRefused("not a table's topic")
        table_id, kind = parts[3], parts[4]
        if kind == "status" and len(parts) == 5:
            if payload in (b"online", b"offline"):
                self.store.set_table(table_id, status=payload.decode(), at=_now())
            else:                                  # cleared or unreadable: not the last kept
                self.store.status_unknown(table_id)
                if payload:
                    raise RecordRefused("a status is online or offline: not known until the "
                                        "table says one")
        elif kind == "state" and len(parts) == 5:
            if not payload:
                self.store.forget_table(table_id)          # the table left the club
                return None
            if len(payload) > MAX_STATE_BYTES:
                raise RecordRefused(f"a state over {MAX_STATE_BYTES} bytes")
            state = json.loads(payload)
            if not isinstance(state, dict) or not is_whole(state.get("v")) or state["v"] != 1 \
                    or state.get("table") != table_id:
                raise RecordRefused("not a version 1 state of this table")
            self.store.set_table(table_id, state=_checked_state(state), at=_now())
        elif kind == "records" and len(parts) == 6:
            if not payload:
                return None                                  # a retained record cleared
            if len(payload) > MAX_RECORD_BYTES:
                raise RecordRefused(f"a record over {MAX_RECORD_BYTES} bytes")
            decoded = json.loads(payload)
            now = _now()
            record = check_record(decoded, table_id, parts[5], received=now)
            if self.store.add_record(record, now, json.dumps(decoded["record"])):
                self.accepted += 1
                return True
            self.repeated += 1
            return False
        else:
            raise RecordRefused("not a table's state, status or record")


def _checked_state(state: dict[str, Any]) -> dict[str, Any]:
    """The parts of a state payload the page shows, each of the kind it should be."""
    def text(value: Any, longest: int = 60) -> str | None:
        return value[:longest] if isinstance(value, str) and value.isprintable() else None

    def number(value: Any) -> float | None:
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and abs(value) < 1e9 else None

    def chance(value: Any) -> float | None:
        return value if number(value) is not None and 0 <= value <= 1 else None

    def dice(value: Any) -> list[int] | None:
        """A roll's values: at most MAX_DICE whole numbers of 0-MAX_DIE, or None."""
        return list(value) if isinstance(value, list) and len(value) <= MAX_DICE and all(
            is_whole(v) and 0 <= v <= MAX_DIE for v in value) else None

    players = state.get("players") if isinstance(state.get("players"), list) else []
    roll = state.get("last_roll") if isinstance(state.get("last_roll"), dict) else None
    rolled = text(roll.get("text"), 40) if roll is not None else None
    chances = state.get("chances") if isinstance(state.get("chances"), list) else None
    return {
        "v": 1, "table": state["table"], "name": text(state.get("name"), 40),
        "version": number(state.get("version")), "boot": text(state.get("boot"), 40),
        "game": text(state.get("game"), 40),
        "title": text(state.get("title")) or text(state.get("game"), 40),   # never "None"
        "phase": text(state.get("phase"), 20),
        "game_number": state.get("game_number") if is_whole(state.get("game_number"))
        and 0 < state["game_number"] < 10**10 else None,
        "turn": text(state.get("turn"), 24),
        "last_roll": None if rolled is None else {"name": text(roll.get("name"), 24),
                                                  "values": dice(roll.get("values")),
                                                  "text": rolled},
        "counted_in": points_of({"game": state.get("game"),      # none for F3's geese
                                 "scored_by": state.get("counted_in")}),
        "players": [{"name": text(p.get("name"), 24), "score": number(p.get("score")),
                     "chips": number(p.get("chips")), "winner": p.get("winner") is True}
                    for p in players[:8] if isinstance(p, dict)],
        "chances": None if chances is None else [chance(c) for c in chances[:8]],
    }


def club_client_id(data_dir: Path) -> str:
    """The club's MQTT client id, from the id kept in its data directory."""
    from firmware.datadir.keys import club_id
    return f"parlour-club-{club_id(data_dir)}"


def run_club(club: ClubConfig, data_dir: Path, *, host: str, port: int,
             on_ready: Callable[[int, ClubListener], None] | None = None,
             stop: threading.Event | None = None) -> int:
    """Serve the club until SIGTERM/SIGINT (or `stop`): the subscriber and the league page;
    `on_ready` is told the web port and the listener once both run."""
    from firmware.notify import Notifier
    from firmware.webserver import Limits, free_port_after, stop_serving, table_server
    from web.club import create_club_app

    data_dir = Path(data_dir)
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ParlourError(f"{data_dir}: cannot keep the club's store there ({err.strerror}); "
                           "choose another with --data-dir") from None
    with ExitStack() as held:                  # the lock and the store, released on any exit
        try:
            held.callback(DataDirLock(data_dir, CLUB_LOCK_NAME, command="club",
                                      one="club").release)
            client_id = club_client_id(data_dir)
            store = ClubStore(data_dir / "club.db")
            held.callback(store.close)
        except OSError as err:
            raise ParlourError(f"{data_dir}: cannot keep the club's lock and id there "
                               f"({err.strerror}); choose another with --data-dir") from None
        try:
            listener = ClubListener(club, store, client_id=client_id)
            server = table_server(create_club_app(store, listener=listener), host=host,
                                  port=port, threads=8, limits=Limits())   # the table's limits
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                free = free_port_after(host, port)
                raise ParlourError(
                    f"port {port} is already in use (a table, another club, or another "
                    f"program): choose another, " + (f"e.g. parlour club --port {free}" if free
                                                     else "with parlour club --port N") +
                    ", or set [web] port in the club's config") from None
            raise ParlourError(f"cannot serve the league on {host}:{port} "
                               f"({err.strerror or err})") from None
        serving = threading.Thread(target=server.run, name="parlour-club-web", daemon=True)
        held.callback(stop_serving, server, serving)     # closes its sockets, started or not
        listener.start()
        held.callback(listener.close)

        stop = stop or threading.Event()
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, lambda signum, frame: stop.set())
        serving.start()
        from firmware.runner import lan_address
        print(f"parlour club: the league on http://{lan_address(host)}:{server.effective_port}/ "
              f"(broker {club.host}:{club.port})", flush=True)
        notifier = Notifier()                  # systemd (Type=notify), when under it
        held.callback(notifier.close)
        notifier.ready(status=f"the league on port {server.effective_port}, "
                              f"broker {club.host}")
        if on_ready is not None:
            on_ready(server.effective_port, listener)
        stop.wait()
        notifier.stopping(status="stopping")
    print("parlour club: stopped", flush=True)          # as the table says it
    return 0
