"""The club on a real Mosquitto broker (loopback): two tables and a club process; the broker
stopped and started mid-game; a table killed between a game's end and its sending; repeats and
games out of order; hostile messages; a password and TLS; Home Assistant's discovery."""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from club_support import (Club, ClubProcess, Listener, Table, a_table_restarted_quickly,
                          retained, wait_for)
from mqtt_broker import Broker, needs_mosquitto

from firmware.club import topics
from firmware.club.publisher import ANNOUNCED_FILE, retire
from firmware.config import ClubConfig

pytestmark = needs_mosquitto
ROOT = Path(__file__).resolve().parents[2]
A, B = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"


def club_of(broker, **extra) -> ClubConfig:
    return ClubConfig(host="127.0.0.1", port=broker.port, **extra)


@pytest.fixture
def tables(tmp_path, broker):
    made = []

    def make(table_id, name, seeds_from=1, buttons=(), **extra):
        table = Table(tmp_path / f"{name}-{table_id[:4]}", club_of(broker, table=name, **extra),
                      table_id, seeds_from=seeds_from, buttons=buttons)
        made.append(table)
        wait_for(table.publisher.connected.is_set)
        return table
    yield make
    for table in made:
        table.close()


@pytest.fixture
def club(tmp_path, broker):
    running = Club(tmp_path / "club", club_of(broker))
    yield running
    running.close()


def standing(view, name, game="fox-and-geese"):
    return next(r for r in view["league"]["standings"] if r["name"] == name and r["game"] == game)


def test_club_two_tables_one_league_and_tables_now(tmp_path, tables, broker):
    """Two tables and `parlour club` as its own process."""
    club = ClubProcess(tmp_path / "club-process", broker.port)
    try:
        two_tables_one_league(tables, club)
    finally:
        club.close()


def test_club_process_tells_systemd_when_it_serves_and_when_it_stops(tmp_path, broker,
                                                                     abstract_listener):
    """systemd/parlour-club.service is Type=notify: READY=1 once the page serves."""
    address, recv = abstract_listener
    club = ClubProcess(tmp_path / "club-process", broker.port, env={"NOTIFY_SOCKET": address})
    ready = recv()
    assert club.view()["broker"]["connected"]
    club.close()
    stopping = recv()
    assert ready.startswith(f"READY=1\nSTATUS=the league on port {club.port}, broker 127.0.0.1")
    assert stopping.startswith("STOPPING=1")


def test_club_process_logs_its_broker_connection_to_stderr(tmp_path, broker):
    """What it logs at INFO reaches stderr (so the journal), one plain line each."""
    club = ClubProcess(tmp_path / "club-process", broker.port)
    club.close()
    assert ("INFO parlour.club: club: subscribed to the broker at "
            f"127.0.0.1:{broker.port}\n") in club.err
    assert "WARNING" not in club.err                           # a clean stop is not a fault


def two_tables_one_league(tables, club):
    front, back = tables(A, "Front room"), tables(B, "Back room")
    front.play(winner=0, names=("Ann", "Ben"))                  # Ann beats Ben
    back.play(winner=1, names=("ann", "Cy"))                    # Cy beats Ann (same name)
    back.session.new_game("fox-and-geese", ["Dee", "Eve"])      # in play at the back
    view = wait_for(lambda: (v := club.view())["league"]["games"] == 2
                    and any((t["state"] or {}).get("turn") == "Eve" for t in v["tables"])
                    and any((t["state"] or {}).get("phase") == "over" for t in v["tables"])
                    and v)          # (a game's record may come before its table's last state)
    assert standing(view, "Ann") == {"id": "name:ann", "name": "Ann", "game": "fox-and-geese",
                                     "played": 2, "won": 1, "points": None,
                                     "title": "Fox and Geese"}          # F3: no points
    rated = {p["name"]: p["rating"] for p in view["league"]["ratings"][0]["players"]}
    # Ann 1500 beats Ben 1500: +16 / -16; then Cy 1500 beats Ann 1516: Ann loses
    # 32 x 1/(1 + 10^(-16/400)) = 16.74
    assert rated == {"Ann": pytest.approx(1516 - 16.7, abs=0.1), "Ben": 1484.0,
                     "Cy": pytest.approx(1516.7, abs=0.1)}
    now = {t["name"]: t for t in view["tables"]}
    assert now["Back room"]["state"]["turn"] == "Eve" and now["Back room"]["status"] == "online"
    assert now["Front room"]["state"]["phase"] == "over"
    page = club.page()
    assert "Back room" in page and "<strong>Eve</strong> to play" in page and "Cy" in page
    # F3: Fox and Geese has no points, on the club as on the table (no Fox's geese as points)
    assert now["Back room"]["state"]["counted_in"] is None
    assert all(g["scored_by"] is None for g in view["recent"])
    assert '<th scope="col">Points</th>' not in page
    import urllib.request
    uid = view["recent"][-1]["uid"]
    assert f'href="/api/club/records/{uid}"' in page
    with urllib.request.urlopen(f"http://127.0.0.1:{club.port}/api/club/records/{uid}") as r:
        whole = json.loads(r.read())                    # the record as the table sent it
    assert whole["game"] == "fox-and-geese" and whole["log"] and whole["seed"]


def test_club_two_stores_of_one_table_id_number_their_games_alike_and_both_count(
        tables, club):
    """A copied SD card (two boxes, one table id) or a damaged store started afresh numbers
    its games from 1 again: the club took the second game 1 for a repeat and dropped it, and
    the broker kept only one of them; the two copies also knocked each other off the broker."""
    side, back = tables(A, "Side room", seeds_from=101), tables(A, "Back room")
    assert side.play(winner=0, names=("Ivy", "Jon")) == back.play(winner=0, names=("Kim", "Lou"))
    view = wait_for(lambda: (v := club.view())["league"]["games"] == 2 and v)
    assert {r["name"] for r in view["league"]["standings"] if r["won"]} == {"Ivy", "Kim"}
    assert len({r["uid"] for r in view["recent"]}) == 2 and view["broker"]["repeated"] == 0
    assert side.publisher.connected.is_set() and back.publisher.connected.is_set()
    # each table takes in the club's answer for its game on its own connection, after the
    # club counted it (a loaded machine checked the stores before the answers came)
    assert wait_for(lambda: not side.store.unsent_to_club() and not back.store.unsent_to_club())


def test_club_a_player_nobody_named_is_someone_at_their_own_table(tables, club):
    """Each table sends its buttons' colours with a record: its "Teal" (a player nobody
    named, called by their button) is not the other table's "Teal", nor the Pi at another."""
    teal = ("Teal", "Plum", "Red")
    front = tables(A, "Front room", buttons=teal)
    back = tables(B, "Back room", buttons=teal)
    front.play(winner=0, names=("Teal", "Ann"))
    back.play(winner=0, names=("teal", "Ann"))
    back.play(winner=1, names=("Ann", "Teal"))       # button 2 is Plum: a person called Teal
    view = wait_for(lambda: club.view() if club.view()["league"]["games"] == 3 else None)
    assert {r["name"]: (r["played"], r["won"]) for r in view["league"]["standings"]} == {
        "Teal (Front room)": (1, 1), "teal (Back room)": (1, 1), "Teal": (1, 1), "Ann": (3, 0)}


def test_club_two_tables_of_one_name_are_told_apart_on_the_page(tables, club):
    """Two boxes left at their host name both read "parlour": each row says whose it is."""
    for table_id in (A, B):
        tables(table_id, "parlour").play(winner=0, names=("Red", "Ann"))
    wait_for(lambda: club.view()["league"]["games"] == 2)
    page = club.page()
    assert page.count("<strong>parlour</strong>") == 2
    assert f'({A[:4]})</span>' in page and f'({B[:4]})</span>' in page
    assert f"Red (parlour · {A[:4]})" in page and f"Red (parlour · {B[:4]})" in page
    assert page.count(f"at parlour ({A[:4]})") == 1 and page.count(f"at parlour ({B[:4]})") == 1


def test_club_a_table_left_at_a_long_host_name_sends_it_cut_to_the_clubs_length(
        tmp_path, monkeypatch):
    """No `table` in [club]: the host name, up to 64 characters, made the club refuse every
    game the table played; it is sent cut to the 40 a name in the club may have."""
    from firmware.club import publisher
    host = "parlour-table-in-the-long-gallery-upstairs-north-wing-2"
    monkeypatch.setattr(publisher.socket, "gethostname", lambda: host)
    table = Table(tmp_path / "t", None, A)
    try:
        sender = publisher.ClubPublisher(table.session, ClubConfig(host="127.0.0.1", port=1),
                                         table_id=A, data_dir=table.folder)
        assert sender.name == host[:40]
        named = publisher.ClubPublisher(table.session, ClubConfig(host="127.0.0.1", port=1,
                                                                  table="Gallery"),
                                        table_id=A, data_dir=table.folder)
        assert named.name == "Gallery"
    finally:
        table.close()


def test_club_a_table_stopped_and_started_says_online_without_blaming_a_will(tmp_path, broker,
                                                                          caplog):
    """After each clean stop the table read back its own retained "offline" and logged "the
    broker says this table is offline (an older connection's will, most likely)": only a live
    "offline" is a will; the retained one is answered by the "online" every connection says."""
    club = club_of(broker, table="Front room")
    status = topics.status_topic(A)
    first = Table(tmp_path / "t", club, A)
    wait_for(first.publisher.connected.is_set)     # it said "online", then its stop "offline"
    first.close()
    assert retained(broker.port, status, {}) == b"offline"
    caplog.set_level(logging.INFO, logger="parlour.club")
    table = Table(tmp_path / "t", club, A)
    try:
        wait_for(lambda: retained(broker.port, status, {}) == b"online")
        wait_for(table.publisher._status_seen.is_set)
        time.sleep(0.5)
        assert "older connection" not in caplog.text
    finally:
        table.close()


def test_club_broker_stopped_and_started_mid_game(tables, club, broker):
    table = tables(A, "Front room")
    table.session.new_game("fox-and-geese", ["Ann", "Ben"])
    wait_for(lambda: any((t["state"] or {}).get("turn") == "Ben" for t in club.view()["tables"]))
    broker.stop()
    wait_for(lambda: not table.publisher.connected.is_set())
    off = wait_for(lambda: (v := club.view())["broker"]["problem"] and v)
    assert not off["broker"]["connected"]
    page = club.page()
    banner = page[page.index('id="broker-off"'):]
    assert banner.startswith('id="broker-off">The club is not connected to its broker')
    assert f"127.0.0.1:{broker.port}" in banner.split("</p>")[0]     # where, once or said
    assert '"note table-status">status not known<' in page                 # not "online" as if known now
    assert [t["status"] for t in off["tables"]] == ["unknown"]          # the JSON says the same
    table.session.submit({"type": "declare", "winners": [0]})   # the game ends, no broker
    assert [r.id for r in table.store.unsent_to_club()] == [table.session.game_id]
    broker.start()                                               # same port, empty broker
    view = wait_for(lambda: (v := club.view())["league"]["games"] == 1 and v, timeout=90)
    assert standing(view, "Ann")["won"] == 1
    wait_for(lambda: not table.store.unsent_to_club())
    assert wait_for(lambda: [t for t in club.view()["tables"]
                             if (t["state"] or {}).get("phase") == "over"])
    assert "not connected to its broker" not in club.page()


def test_club_a_game_the_broker_lost_before_the_club_read_it_is_sent_again(tmp_path, tables,
                                                                           broker):
    """A game the broker acknowledged while the club was away, then lost (restarted without
    persistence, or killed between its writes to disk), never reached the league: the table
    had counted it sent at the broker's PUBACK. A game is delivered once the club answers for
    it, and a club that answers, when it comes, gets every game it has not answered."""
    table = tables(A, "Front room")
    club = Club(tmp_path / "club", club_of(broker))
    table.play(winner=0)
    wait_for(lambda: club.view()["league"]["games"] == 1)
    wait_for(lambda: not table.store.unanswered_by_club())      # the club answered
    club.close()
    second = table.play(winner=1)                                # while the club is away
    wait_for(lambda: not table.store.unsent_to_club())           # the broker took it ...
    assert [r.id for r in table.store.unanswered_by_club()] == [second]
    broker.stop()                                                # ... and lost it
    wait_for(lambda: not table.publisher.connected.is_set())
    broker.start()
    back = Club(tmp_path / "club", club_of(broker))              # its own club.db, kept
    try:
        view = wait_for(lambda: (v := back.view())["league"]["games"] == 2 and v, timeout=60)
        assert standing(view, "Ben")["won"] == 1
        # counted once the broker has taken it again: the club may read it before that
        wait_for(lambda: table.publisher.resent >= 1)
        wait_for(lambda: not table.store.unanswered_by_club())
        assert back.view()["broker"]["accepted"] == 1            # the lost game, once
        assert back.view()["broker"]["repeated"] == 0            # and no game sent twice
    finally:
        back.close()


def test_club_a_game_sent_on_this_connection_is_not_sent_again_for_a_club(tables, broker):
    """A table that saw the club's "I answer" while a game it had just sent waited for its
    answer sent that game again (every table's first game after connecting went twice): a game
    the broker took on this connection is with it still, and waits for its answer."""
    table = tables(A, "Front room")
    game = table.play(winner=0)                      # no club: the broker takes it, unanswered
    wait_for(lambda: not table.store.unsent_to_club())
    records = Listener(broker.port, topic=topics.record_topic(A, "+"))
    wait_for(lambda: len(records.messages) == 1)     # the retained copy
    send(broker, topics.CLUB_TOPIC, {"v": 1, "acknowledges": True}, retain=True)
    time.sleep(1.0)                                  # the table has read it by now
    assert table.publisher.resent == 0 and len(records.messages) == 1
    assert [r.id for r in table.store.unanswered_by_club()] == [game]
    broker.stop()                                    # a new connection: now it may be lost
    wait_for(lambda: not table.publisher.connected.is_set())
    broker.start()
    wait_for(table.publisher.connected.is_set, timeout=60)
    send(broker, topics.CLUB_TOPIC, {"v": 1, "acknowledges": True}, retain=True)   # the club back
    wait_for(lambda: table.publisher.resent == 1, timeout=30)
    records.close()


KILLED_TABLE = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {tests!r})
    from club_support import Table
    from firmware.config import ClubConfig
    table = Table({folder!r}, ClubConfig(host="127.0.0.1", port={port}), {table_id!r})
    table.play(winner=1, names=("Ann", "Ben"))
    print("over", flush=True)
    time.sleep(60)
""")


def test_club_table_killed_between_the_end_and_the_sending(tmp_path, broker, club):
    """The broker is down when the game ends: the table is killed (kill -9) holding it unsent;
    started again with the broker back, it sends it, and the league counts it once."""
    broker.stop()
    folder = tmp_path / "killed"
    script = KILLED_TABLE.format(tests=str(Path(__file__).parents[1]), folder=str(folder),
                                 port=broker.port, table_id=A)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout.readline().strip() == b"over"
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    child.stdout.close()
    broker.start()
    again = Table(folder, club_of(broker), A)
    try:
        view = wait_for(lambda: (v := club.view())["league"]["games"] == 1 and v, timeout=60)
        assert standing(view, "Ben")["won"] == 1
        wait_for(lambda: not again.store.unsent_to_club())
    finally:
        again.close()


def record(table_id, number, winner, ended, names=("Ann", "Ben")):
    return {"v": 1, "table": table_id, "name": "Raw", "uid": f"{table_id}-{number}",
            "record": {"id": number, "game": "fox-and-geese", "title": "Fox and Geese",
                       "status": "over", "ended": ended, "scored_by": "score",
                       "players": [{"name": n, "winner": i == winner, "score": 0}
                                   for i, n in enumerate(names)]}}


def send(broker, topic, payload, retain=False):
    sender = Listener(broker.port, topic="nothing/at/all")
    wait_for(sender.client.is_connected)
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    sender.client.publish(topic, body, qos=1, retain=retain).wait_for_publish(10)
    sender.close()


def test_club_counts_a_game_once_and_in_the_order_games_ended(broker, club):
    second = record(A, 2, 1, "2026-11-25T10:00:00Z")             # Ben wins, later
    first = record(A, 1, 0, "2026-11-25T09:00:00Z")              # Ann wins, earlier
    for payload in (second, second, first, second, first):       # repeats, out of order
        send(broker, topics.record_topic(A, payload["uid"]), payload)
    view = wait_for(lambda: (v := club.view())["broker"]["repeated"] == 3 and v)
    assert view["league"]["games"] == 2 and view["broker"]["accepted"] == 2
    rated = {p["name"]: p["rating"] for p in view["league"]["ratings"][0]["players"]}
    # in the order they ended: Ann +16 first, then Ben (1484) beats Ann (1516): +17.5
    assert rated["Ben"] == pytest.approx(1484 + 32 * (1 - 1 / (1 + 10 ** (32 / 400))), abs=0.1)


def committed(table_id, number, winner, ended, uid=None, seed=b"s"):
    """A record as tables send it now: its number and seed commitment inside, both in its uid."""
    sealed = hashlib.sha256(seed).hexdigest()
    payload = record(table_id, number, winner, ended)
    payload["uid"] = uid or f"{table_id}-{number}-{sealed[:8]}"
    payload["record"].update(id=number, commitment=sealed)
    return payload


def test_club_one_game_sent_under_another_uid_is_counted_once(broker, club):
    """Front room's game 1 was published again as game 1 with no commitment in its uid, and as
    game 83 with 83 inside: each was kept, so "Recent games" listed it three times and Ann's
    played went 8 to 10. A game is its table's commitment: another uid of it is a repeat, and
    a uid that does not match its record is refused."""
    game = committed(A, 1, 0, "2026-11-25T09:00:00Z")
    send(broker, topics.record_topic(A, game["uid"]), game)
    wait_for(lambda: club.view()["league"]["games"] == 1)
    again = committed(A, 83, 0, "2026-11-25T09:00:00Z")                # same seed: same game
    send(broker, topics.record_topic(A, again["uid"]), again)
    wait_for(lambda: club.view()["broker"]["repeated"] == 1)
    older = committed(A, 1, 0, "2026-11-25T09:00:00Z", uid=f"{A}-1")   # as older tables sent
    send(broker, topics.record_topic(A, older["uid"]), older)
    wait_for(lambda: club.view()["broker"]["repeated"] == 2)
    for uid, number, why in ((f"{A}-83-eeeeeeee", 83, "8 hex digits of the record's commitment"),
                             (game["uid"].replace("-1-", "-2-"), 1, "names game 2")):
        forged = committed(A, number, 0, "2026-11-25T09:00:00Z", uid=uid)
        refused = club.view()["broker"]["refused"]
        send(broker, topics.record_topic(A, uid), forged)
        view = wait_for(lambda: (v := club.view())["broker"]["refused"] == refused + 1 and v)
        assert why in view["broker"]["last_refused"][-1][1], view["broker"]["last_refused"]
    view = club.view()
    assert view["league"]["games"] == 1 and view["broker"]["accepted"] == 1


def test_club_a_copy_without_its_commitment_is_the_same_game(broker, club):
    """Game 1 sent again as "<table>-1" with its commitment taken out: the club, finding no
    commitment to look it up by, kept it as a second game (Cleo played 2, won 2; the Elo
    moved). Its revealed seed names its commitment. A seed that does not match the record's
    commitment is refused."""
    game = committed(A, 1, 0, "2026-11-25T09:00:00Z")
    game["record"]["seed"] = b"s".hex()
    send(broker, topics.record_topic(A, game["uid"]), game)
    wait_for(lambda: club.view()["league"]["games"] == 1)
    stripped = json.loads(json.dumps(game))
    stripped["uid"] = f"{A}-1"
    stripped["record"]["commitment"] = None
    send(broker, topics.record_topic(A, stripped["uid"]), stripped)
    wait_for(lambda: club.view()["broker"]["repeated"] == 1)
    other = committed(A, 2, 0, "2026-11-25T10:00:00Z", seed=b"t")
    other["record"]["seed"] = b"s".hex()                         # not the seed it committed to
    send(broker, topics.record_topic(A, other["uid"]), other)
    view = wait_for(lambda: (v := club.view())["broker"]["refused"] == 1 and v)
    assert "does not match" in view["broker"]["last_refused"][-1][1]
    assert view["league"]["games"] == 1 and view["broker"]["accepted"] == 1


def test_club_a_changed_copy_of_a_kept_game_is_refused_not_kept(broker, club):
    """Game 2 sent again under its uid with Cy as its winner and 30 points was answered
    "kept" (counted as a repeat): a game that ended never changes, so the copy is refused,
    with what differs, and the league stays as it was."""
    game = committed(A, 2, 1, "2026-11-25T09:00:00Z")
    answers = Listener(broker.port, topic=topics.received_topic(A, game["uid"]))
    for _ in range(30):            # subscribed once a probe comes back (one sent before is lost)
        send(broker, topics.received_topic(A, game["uid"]), {"probe": True})
        time.sleep(0.5)
        if answers.on(game["uid"]):
            break
    wait_for(lambda: answers.on(game["uid"]))
    send(broker, topics.record_topic(A, game["uid"]), game)
    wait_for(lambda: club.view()["league"]["games"] == 1)
    forged = json.loads(json.dumps(game))
    forged["record"]["players"][0].update(name="Cy", winner=True, score=30)
    send(broker, topics.record_topic(A, game["uid"]), forged)
    view = wait_for(lambda: (v := club.view())["broker"]["refused"] == 1 and v)
    assert "differs from the record kept" in view["broker"]["last_refused"][-1][1]
    # the game's answer stays "kept": a "refused" there had the table log its kept game lost
    said = wait_for(lambda: len(a := [m for m in answers.on(game["uid"]) if "kept" in m]) == 2
                    and a)
    assert [a["kept"] for a in said] == [True, True]
    answers.close()
    assert view["broker"]["repeated"] == 0 and view["league"]["games"] == 1
    names = {p["name"] for p in view["league"]["ratings"][0]["players"]}
    assert names == {"Ann", "Ben"}


@pytest.mark.parametrize("topic, payload, why", [
    (topics.record_topic(A, f"{A}-1"), b"{not json", "could not be read"),
    (topics.record_topic(A, f"{A}-1"), b"[" * 3_000_000, "over"),
    (topics.record_topic(A, f"{B}-1"), record(B, 1, 0, None), "names table"),     # forged
    (topics.record_topic(A, f"{A}-1"), {**record(A, 1, 0, None), "v": 9}, "version 1"),
    (topics.record_topic(A, f"{A}-1"),
     {**record(A, 1, 0, None), "record": {"id": 1, "game": "x", "status": "over",
                                          "players": "all"}}, "'players'"),
    (topics.record_topic(A, f"{A}-1-0000abcd"), {**record(A, 1, 0, None),
                                                 "uid": f"{A}-1-0000abcd"}, "commitment"),
    (topics.record_topic(A, f"{A}-1"), record(A, 1, 0, None, names=("Ann", "ANN")),
     "share a name"),
    (topics.state_topic(B), {"v": 1, "table": A}, "this table"),
    (topics.state_topic(A), {"v": True, "table": A}, "version 1 state"),
    ("parlour/v1/tables/NOT-A-TABLE/state", {"v": 1}, "not a table's topic"),
    (topics.status_topic(A), b"maybe", "online or offline"),
])
def test_club_refuses_hostile_messages_and_goes_on(broker, club, topic, payload, why):
    send(broker, topic, payload)
    view = wait_for(lambda: (v := club.view())["broker"]["refused"] == 1 and v)
    assert why in view["broker"]["last_refused"][-1][1]
    good = record(A, 7, 0, "2026-11-25T09:00:00Z")
    send(broker, topics.record_topic(A, good["uid"]), good)
    assert wait_for(lambda: club.view()["league"]["games"] == 1)


def test_club_shows_a_states_odd_parts_as_unknown_not_as_figures(broker, club):
    """A state is only for show, so odd parts are left out: a chance outside 0-1 (200 %), a
    player without a name (shown "(no name)", not "None")."""
    send(broker, topics.state_topic(A), {
        "v": 1, "table": A, "name": "Odd", "game": "kat-en-muis", "title": "Kat en Muis",
        "phase": "playing", "turn": "Ann", "chances": [2.0, -0.5, 0.25],
        "players": [{"name": "Ann"}, {"name": None}, {"name": "Cy"}]}, retain=True)
    table = wait_for(lambda: next((t for t in club.view()["tables"] if t["table"] == A), None))
    assert table["state"]["chances"] == [None, None, 0.25]
    page = club.page()
    assert '"who">(no name)<' in page and '"who">None<' not in page and "200 %" not in page
    assert "25 % to win" in page


def test_club_broker_with_a_password(tmp_path, caplog):
    broker = Broker(tmp_path / "locked", users={"front": "s3cret", "club": "k1ub"}).start()
    try:
        wrong = Table(tmp_path / "wrong", ClubConfig(host="127.0.0.1", port=broker.port,
                                                     username="front", password="nope"), B)
        right = Table(tmp_path / "right", ClubConfig(host="127.0.0.1", port=broker.port,
                                                     username="front", password="s3cret"), A)
        club = Club(tmp_path / "club", ClubConfig(host="127.0.0.1", port=broker.port,
                                                  username="club", password="k1ub"))
        right.play()
        wait_for(lambda: club.view()["league"]["games"] == 1)
        assert not wrong.publisher.connected.is_set() and "refused" in wrong.publisher.last_error
        locked_out = Club(tmp_path / "club-2", ClubConfig(
            host="127.0.0.1", port=broker.port, username="club", password="nope"),
            connected=False)
        said = wait_for(lambda: (p := locked_out.view()["broker"]["problem"]) != "not connected "
                        "yet" and p)                        # the broker's answer, once it came
        assert said.startswith("the broker refused the club's login (")   # not "cannot reach"
        assert said in html.unescape(locked_out.page())
        assert "not connected to its broker" in locked_out.page()
        time.sleep(3.5)                                      # paho tries again after 1 and 2 s
        refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert len(refusals) == 2, refusals                  # said once each, not every retry
        assert not [r for r in caplog.records if "disconnected" in r.getMessage()]
        for closing in (club, wrong, right, locked_out):
            closing.close()
    finally:
        broker.stop()


def test_club_a_port_that_is_no_brokers_is_said_not_waited_on_in_silence(tmp_path,
                                                                        monkeypatch):
    """`[club] port` set to a port that takes the connection and never answers (a table's web
    port, TLS without `tls`): the club's page and the table's log said nothing, ever."""
    import socket
    import firmware.club.publisher as publisher
    monkeypatch.setattr(publisher, "ANSWER_SECONDS", 1.0)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        mute = ClubConfig(host="127.0.0.1", port=port)
        club = Club(tmp_path / "club", mute, connected=False)
        table = Table(tmp_path / "t", mute, A)
        try:
            said = wait_for(lambda: (p := club.view()["broker"]["problem"]) != "not connected "
                            "yet" and p)
            assert said == (f"no answer from 127.0.0.1:{port} within 1 s of connecting: is "
                            "that port an MQTT broker's (without TLS)?")
            assert said in html.unescape(club.page())
            assert wait_for(lambda: table.publisher.last_error) == said
        finally:
            table.close()
            club.close()


def test_club_broker_with_tls(tmp_path):
    broker = Broker(tmp_path / "tls", tls=True).start()
    try:
        secure = ClubConfig(host="127.0.0.1", port=broker.port, tls=True,
                            ca_file=str(broker.ca_file))
        table = Table(tmp_path / "table", secure, A)
        club = Club(tmp_path / "club", secure)
        table.play(winner=1)
        assert wait_for(lambda: club.view()["league"]["games"] == 1)
        club.close()
        table.close()
    finally:
        broker.stop()


def test_club_home_assistant_discovery_then_removed_with_the_club_section(tmp_path, broker):
    table = Table(tmp_path / "t", club_of(broker, table="Front room"), A)
    seen = Listener(broker.port, topic="homeassistant/#")
    configs = wait_for(lambda: len(seen.on("/config")) == len(topics.DISCOVERY)
                       and seen.on("/config"))
    assert {c["device"]["name"] for c in configs} == {"Front room"}
    assert {c["state_topic"] for c in configs} == {topics.state_topic(A)}
    assert {c["unique_id"] for c in configs} == {f"parlour_{A}_{e[0]}"
                                                 for e in topics.DISCOVERY}
    table.close()
    seen.close()
    assert (tmp_path / "t" / ANNOUNCED_FILE).exists()
    assert retire(tmp_path / "t")                       # started again without [club]
    assert not (tmp_path / "t" / ANNOUNCED_FILE).exists()
    after = Listener(broker.port, topic="#")            # retained messages come at once
    wait_for(after.client.is_connected)
    import time
    time.sleep(1)
    assert [t for t in after.topics() if A in t] == []  # nothing of the table is left
    after.close()


def test_club_league_is_rebuilt_from_the_brokers_records_alone(tmp_path, broker, tables):
    table = tables(A, "Front room")
    table.play(winner=0)
    table.play(winner=1)
    first = Club(tmp_path / "first", club_of(broker))
    want = wait_for(lambda: (v := first.view())["league"]["games"] == 2 and v)["league"]
    first.close()
    again = Club(tmp_path / "empty", club_of(broker))      # a new club.db: nothing kept
    try:
        assert wait_for(lambda: (v := again.view())["league"]["games"] == 2 and v)["league"] \
            == want
    finally:
        again.close()


def test_club_two_clubs_on_one_broker_keep_their_own_sessions(tmp_path, broker, tables):
    """Two `parlour club`s (two data directories) on one broker: neither takes the other's
    session (a broker drops the older connection of a client id that connects again), and a
    club restarted on its data directory is the same client, so its persistent session is
    its own again."""
    first, second = Club(tmp_path / "first", club_of(broker)), Club(tmp_path / "second",
                                                                    club_of(broker))
    dropped = []
    try:
        for club in (first, second):
            club.listener.client.on_disconnect = lambda *a, club=club: (
                dropped.append(club), club.listener.connected.clear())
        table = tables(A, "Front room")
        table.play(winner=0)
        for club in (first, second):
            wait_for(lambda: club.view()["league"]["games"] == 1)
        time.sleep(2.5)                          # paho would have reconnected (1 s) by now
        assert dropped == [] and first.listener.connected.is_set() \
            and second.listener.connected.is_set()
        ids = first.listener.client._client_id, second.listener.client._client_id
        assert ids[0] != ids[1]
    finally:
        first.close()
        second.close()
    again = Club(tmp_path / "first", club_of(broker))
    try:
        assert again.listener.client._client_id == ids[0]
    finally:
        again.close()


def test_club_a_stuck_broker_never_holds_up_the_table(tables):
    """The session's listener only notes the newest state: with every publish stuck, games
    are still played and stored, and sent once the publisher is free again."""
    import threading
    table = tables(A, "Front room")
    stuck, release = threading.Event(), threading.Event()
    publish = table.publisher.client.publish

    def stuck_publish(*args, **kwargs):
        stuck.set()
        release.wait()
        return publish(*args, **kwargs)

    table.publisher.client.publish = stuck_publish
    table.play(winner=0)                                  # sets the publisher going: it sticks
    assert stuck.wait(10)
    for _ in range(5):
        table.play(winner=1)                              # returns although publishing hangs
    assert len(table.store.unsent_to_club()) >= 5
    release.set()
    wait_for(lambda: not table.store.unsent_to_club())


def test_club_page_answers_bad_requests_in_json(club):
    import urllib.error
    import urllib.request
    for method, path, status in (("GET", "/api/club/records/nothing-1", 404),
                                 ("GET", "/nowhere", 404), ("POST", "/api/club", 405)):
        request = urllib.request.Request(f"http://127.0.0.1:{club.port}{path}", method=method,
                                         data=b"{}" if method == "POST" else None)
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(request, timeout=5)
        assert answer.value.code == status and "error" in json.loads(answer.value.read())


def test_club_section_removed_the_table_leaves_at_its_next_start(tmp_path, broker):
    """start_club without a [club] section but with an announcement kept: the table clears
    its discovery from that broker by itself (the runner's path), and forgets it."""
    import threading

    from firmware.club.publisher import start_club
    table = Table(tmp_path / "t", club_of(broker, table="Front room"), A)
    seen = Listener(broker.port, topic="homeassistant/#")
    wait_for(lambda: len(seen.on("/config")) == len(topics.DISCOVERY))
    table.close()
    again = Table(tmp_path / "t", None, A)                 # restarted without [club]
    stop = threading.Event()
    try:
        assert start_club(again.session, ClubConfig(), tmp_path / "t", A, stop) is None
        wait_for(lambda: not (tmp_path / "t" / ANNOUNCED_FILE).exists())
        wait_for(lambda: sum(1 for t, p, _ in seen.messages if t.endswith("/config")
                             and not p) == len(topics.DISCOVERY))   # each cleared
    finally:
        stop.set()
        again.close()
        seen.close()


def test_club_a_table_moved_to_another_broker_leaves_the_first(tmp_path, broker):
    """[club] now names another broker: the table clears its Home Assistant device, state and
    status from the first broker by itself and announces itself on the second."""
    import threading

    from firmware.club.publisher import LEFT_PREFIX, start_club
    second = Broker(tmp_path / "second-broker").start()
    table = Table(tmp_path / "t", club_of(broker, table="Front room"), A)
    first_seen = Listener(broker.port, topic="homeassistant/#")
    second_seen = Listener(second.port, topic="homeassistant/#")
    wait_for(lambda: len(first_seen.on("/config")) == len(topics.DISCOVERY))
    table.close()
    again = Table(tmp_path / "t", None, A)                 # restarted, [club] moved
    stop = threading.Event()
    publisher = None
    try:
        publisher = start_club(again.session, club_of(second, table="Front room"),
                               tmp_path / "t", A, stop)
        wait_for(lambda: sum(1 for t, p, _ in first_seen.messages if t.endswith("/config")
                             and not p) == len(topics.DISCOVERY))   # each cleared there
        wait_for(lambda: len(second_seen.on("/config")) == len(topics.DISCOVERY))
        wait_for(lambda: not list((tmp_path / "t").glob(f"{LEFT_PREFIX}*")))
        kept = json.loads((tmp_path / "t" / ANNOUNCED_FILE).read_text())
        assert kept["port"] == second.port
    finally:
        stop.set()
        if publisher is not None:
            publisher.close()
        again.close()
        first_seen.close()
        second_seen.close()
        second.stop()


def test_club_one_club_per_data_directory_beside_a_table(tmp_path, broker, club):
    """Two `parlour club` on one data directory both ran, and knocked each other off the
    broker while writing one club.db; a table and a club may share one (different stores)."""
    from companion.errors import ParlourError
    from firmware.club.league_server import run_club
    from firmware.datadir.datalock import DataDirLock
    with pytest.raises(ParlourError, match=r"already in use by process \d+ \(another parlour "
                                           r"club\); one club per data directory"):
        run_club(club_of(broker), tmp_path / "club", host="127.0.0.1", port=0)
    assert club.view()["broker"]["connected"]                      # the first one goes on
    shared = tmp_path / "shared"
    table_lock = DataDirLock(shared)                                # a table's `parlour run`
    try:
        beside = Club(shared, club_of(broker))
        beside.close()
    finally:
        table_lock.release()


def test_club_page_matches_elo_by_player_and_writes_points_as_players_do():
    """The page looked Elo up by the name shown, so two entrants shown alike (the Pi and a
    person who typed "Pi (best)") showed one's rating for both; large points read
    "1.23457e+06". Elo is matched by the entrant's id, points written out."""
    from web.club import league_by_game
    figures = {"standings": [
        {"id": "pi:best", "name": "Pi (best)", "game": "g", "title": "G", "played": 2,
         "won": 2, "points": 1234567.0},
        {"id": "name:pi(best)", "name": "Pi (best)", "game": "g", "title": "G", "played": 2,
         "won": 1, "points": 999999.5}],
        "ratings": [{"game": "g", "title": "G", "players": [
            {"id": "name:pi(best)", "name": "Pi (best)", "rating": 1499.3, "games": 2},
            {"id": "pi:best", "name": "Pi (best)", "rating": 1530.6, "games": 2}]}]}
    rows = league_by_game(figures)[0]["rows"]
    assert [(r["elo"], r["points_text"]) for r in rows] == [(1530.6, "1,234,567"),
                                                            (1499.3, "999,999.5")]


def test_club_a_tables_state_with_odd_parts_never_reads_none():
    """A state whose title could not be shown and whose last roll had no words read "None ·
    Ann to play · last roll None (Ann)" on the club's page."""
    from firmware.club.league_server import _checked_state
    shown = _checked_state({"table": A, "game": "kat-en-muis", "title": "Kat\nen Muis",
                            "turn": "Ann", "last_roll": {"name": "Ann", "text": None}})
    assert shown["title"] == "kat-en-muis" and shown["last_roll"] is None


def test_club_a_table_gone_while_its_broker_was_down_is_not_kept_online(tables, club, broker):
    """The broker crashed, a table stopped meanwhile (it could not say "offline"), and the
    broker came back without it: the club showed the table "online" for good. Once the club
    is back on its broker, a status is what the broker says again, or not known."""
    table = tables(A, "Window")
    wait_for(lambda: [t["status"] for t in club.view()["tables"]] == ["online"])
    broker.process.kill()                              # a crash: no will is sent
    broker.process.wait(timeout=10)
    broker.stop()
    table.close()
    broker.start()
    wait_for(lambda: club.view()["broker"]["connected"], timeout=60)
    wait_for(lambda: [t["status"] for t in club.view()["tables"]] == ["unknown"])


def test_club_a_table_restarted_quickly_stays_online(tmp_path, broker):
    """A table back from a power cut before the broker saw its old connection go: the old
    connection's will ("offline", retained) came after the new one's "online", and the club's
    page and Home Assistant showed the table offline for the rest of the evening."""
    a_table_restarted_quickly(tmp_path / "t", club_of(broker, table="Front room"), A)


def test_club_a_junk_status_never_hides_a_connected_table(tmp_path, tables, club, broker,
                                                          caplog):
    """A retained status that is neither "online" nor "offline" (written by hand with the
    table's login, or left over) stayed on the broker: the club refused it, and after its
    next connection showed the connected, playing table's status not known for good. The
    table says "online" over it, and logs it once with why."""
    table = tables(A, "Window")
    status = topics.status_topic(A)
    wait_for(lambda: [t["status"] for t in club.view()["tables"]] == ["online"])
    send(broker, status, b"junk", retain=True)
    wait_for(lambda: retained(broker.port, status, {}) == b"online")
    club.close()
    send(broker, status, b"rubbish", retain=True)    # other junk, the club away: said once
    wait_for(lambda: retained(broker.port, status, {}) == b"online")
    again = Club(tmp_path / "club", club_of(broker))
    try:
        shown = wait_for(lambda: [t["status"] for t in again.view()["tables"]
                                  if t["status"] != "unknown"])     # the broker's, once read
        assert shown == ["online"]
    finally:
        again.close()
    assert table.publisher.connected.is_set()
    said = [r.getMessage() for r in caplog.records if "this table's status" in r.getMessage()]
    assert said == [f"club: the broker held 'junk' as this table's status on {status} (a "
                    "status is online or offline); saying online again (said once a "
                    "connection)"]


def test_club_an_unreadable_status_is_not_known_not_the_last_one_kept(broker, club):
    """A table that cannot answer a junk status (an ACL without its read lines): the club
    refused the junk and went on showing the "online" it kept before. A status the club
    cannot read, or one cleared, is not known; the refusal says why."""
    status = topics.status_topic(A)
    send(broker, status, b"online", retain=True)
    wait_for(lambda: [t["status"] for t in club.view()["tables"]] == ["online"])
    send(broker, status, b"onl1ne", retain=True)
    view = wait_for(lambda: (v := club.view())["broker"]["refused"] == 1 and v)
    assert [t["status"] for t in view["tables"]] == ["unknown"]
    assert "a status is online or offline" in view["broker"]["last_refused"][-1][1]
    send(broker, status, b"online", retain=True)
    wait_for(lambda: [t["status"] for t in club.view()["tables"]] == ["online"])
    send(broker, status, b"", retain=True)                     # cleared: nothing to read
    wait_for(lambda: [t["status"] for t in club.view()["tables"]] == ["unknown"])
    assert club.view()["broker"]["refused"] == 1
    send(broker, topics.status_topic(B), b"junk", retain=True)
    wait_for(lambda: club.view()["broker"]["refused"] == 2)
    assert [t["table"] for t in club.view()["tables"]] == [A]   # no table made of junk


def test_club_keeps_a_tables_game_number_and_last_roll_values():
    """The table publishes its game's number and the last roll's values; the club's copy of
    its state dropped both. Kept, checked: a whole number, and at most 6 small whole numbers."""
    from firmware.club.league_server import _checked_state
    snap = {"game": "kat-en-muis", "title": "Kat en Muis", "phase": "playing", "game_id": 12,
            "turn": 0, "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Ben"}],
            "last_roll": {"seat": 0, "values": [3, 5], "text": "3 and 5"}}
    shown = _checked_state(topics.state_payload(snap, A, "Front room"))
    assert shown["game_number"] == 12
    assert shown["last_roll"] == {"name": "Ann", "values": [3, 5], "text": "3 and 5"}
    for odd in (True, "12", 1.5, -1, 10**12, None):
        assert _checked_state({"table": A, "game_number": odd})["game_number"] is None
    for odd in ([1] * 7, [True], ["3"], [2.5], [-1], [10**6], "3 and 5", {"a": 1}, None):
        roll = {"name": "Ann", "values": odd, "text": "3 and 5"}
        assert _checked_state({"table": A, "last_roll": roll})["last_roll"] == {
            "name": "Ann", "values": None, "text": "3 and 5"}


def test_club_recent_games_that_ended_in_one_second_are_listed_by_number_however_they_arrived(
        tmp_path):
    """Games 9 and 10 of a table that ended in one second were listed by when they arrived, so
    a club rebuilt from the broker (which sends them in its own order) listed them otherwise."""
    from companion.record.league import check_record
    from firmware.club.clubstore import ClubStore
    same = "2026-11-25T09:00:00Z"
    for n, order in enumerate(((9, 10), (10, 9))):
        store = ClubStore(tmp_path / f"club-{n}.db")
        for number in order:
            store.add_record(check_record(record(A, number, 0, same), A, f"{A}-{number}"),
                             received_at=same)
        assert [r["uid"] for r in store.recent()] == [f"{A}-10", f"{A}-9"]
        store.close()


def test_club_a_store_made_before_commitments_were_kept_opens_and_counts_once(tmp_path):
    """A club store from before the records' commitment column: it gains the column, keeps
    its games, and a game sent again under another uid is still one game."""
    import sqlite3
    from companion.record.league import check_record
    from firmware.club.clubstore import ClubStore
    path = tmp_path / "club.db"
    old = sqlite3.connect(path)
    old.executescript("CREATE TABLE records (uid TEXT PRIMARY KEY, table_id TEXT NOT NULL, "
                      "ended TEXT, body TEXT NOT NULL, raw TEXT, received_at TEXT NOT NULL);")
    old.execute("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?)",
                (f"{A}-1", A, "2026-11-25T09:00:00Z", json.dumps(
                    check_record(record(A, 1, 0, "2026-11-25T09:00:00Z"), A, f"{A}-1")),
                 None, "2026-11-25T09:00:01Z"))
    old.commit()
    old.close()
    store = ClubStore(path)
    try:
        game = committed(A, 2, 1, "2026-11-25T10:00:00Z")
        kept = check_record(game, A, game["uid"])
        assert store.add_record(kept, "2026-11-25T10:00:01Z") is True
        again = committed(A, 3, 1, "2026-11-25T10:00:00Z")                 # the same seed
        assert store.add_record(check_record(again, A, again["uid"]), "x") is False
        assert [r["uid"] for r in store.records()] == [f"{A}-1", game["uid"]]
    finally:
        store.close()


def test_club_a_table_whose_clock_stayed_days_behind_dates_its_games_by_the_clubs(
        tmp_path, broker, club):
    """A box with no time server and no phone signed in kept its last shutdown's clock, three
    days behind: tonight's games reached the league dated three days ago, dropped out of the
    recent games and came first in the Elo order. The club tells every table its time, live
    (as a table comes online, then every minute), and a box away from any time server dates
    its next game by it."""
    from datetime import datetime, timedelta, timezone
    from firmware.stamps import TableClock
    behind = TableClock(wall=lambda: datetime.now(timezone.utc) - timedelta(days=3),
                        synced=lambda: False)
    wait_for(club.listener.connected.is_set)
    table = Table(tmp_path / "back", club_of(broker, table="Back room"), A, clock=behind)
    try:
        wait_for(lambda: abs(behind.offset - 3 * 86400) < 60)       # told on coming online
        game = table.play(winner=0, names=("Wes", "Xia"))
        ended = wait_for(lambda: next((g["ended"] for g in club.view()["recent"]
                                       if g["table_name"] == "Back room"), None))
        late = datetime.now(timezone.utc) - datetime.fromisoformat(ended.replace("Z", "+00:00"))
        assert abs(late.total_seconds()) < 120, (ended, game)
    finally:
        table.close()



def test_club_lists_its_tables_by_name_as_people_read_them(tmp_path):
    """A club of "Table 1" to "Table 12" listed "Table 10", "Table 11" and "Table 12" before
    "Table 2", and a name in small letters after every capitalised one."""
    from firmware.club.clubstore import ClubStore
    store = ClubStore(tmp_path / "club.db")
    try:
        names = ["Table 10", "Table 2", "back room", "Window", "Table 1", "Table ²"]
        for n, name in enumerate(names):
            store.set_table(f"{n:x}" * 16, state={"name": name}, at="2026-11-25T09:00:00Z")
        assert [t["name"] for t in store.tables()] == [
            "back room", "Table 1", "Table 2", "Table 10", "Table ²", "Window"]
    finally:
        store.close()
