"""A paired phone pressing free-play points as fast as the server answers, against the box and
the other phones, on the table's own server and the box's controller, both on one fake
clock: the box's flick and another phone's throw are still taken."""

from __future__ import annotations

import contextlib

from controller_support import press, settle_lead, start
from firmware.webserver import WebServer
from phone_client import Phone
from web.access.phones import Pairings

PIN = "4821"
PAIRED_BURST, PAIRED_EVERY = 6, 2.0          # the README's figures (web/access/pace.py)


@contextlib.contextmanager
def serving(session, pairings, clock):
    """The table's own server (waitress, its limits) on a loopback port, paced by `clock`."""
    server = WebServer(session, pin=PIN, panel=None, host="127.0.0.1", port=0, threads=8,
                       pairings=pairings, test_config={"CLOCK": clock})
    server.start()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.close()


def test_phone_pace_attack_1_a_phone_pressing_free_play_points_locks_no_one_out(
        tmp_path, table, session, clock):
    """Free play: a paired phone pressed its own seat (a point, allowed at any time) as fast
    as the server answered. The box refuses a flick within 0.7 s of a change made elsewhere,
    and a phone's Throw names the state it was asked on: the flicks at the box and a
    signed-in phone's Throw were refused every time. The paired phone is held to a hand's
    pace (429, nothing done); the throws are taken."""
    pairings = Pairings(tmp_path / "phones.json", clock=clock)
    start(table, "free-play")
    settle_lead(table, clock)
    with serving(session, pairings, clock) as url:
        ben, host = Phone(url), Phone(url)     # seat 1's phone; the host's, with the PIN
        ben.pair(pairings.offer(2))                # seat 1's button (X12)
        host.sign_in(PIN)
        answers: dict[int, int] = {}

        def presses(seconds: float) -> None:           # ten a second, each answered first
            for _ in range(round(seconds * 10)):
                clock.advance(0.1)
                status, body, headers = ben.ask("POST", "/api/control/press", {"seat": 1})
                answers[status] = answers.get(status, 0) + 1
                if status == 429:
                    assert "Try again in" in body["error"] and int(headers["Retry-After"]) > 0
                table.update()
                table.render()

        taken = {"box": 0, "phone": 0}
        for attempt in range(16):
            presses(1.0)
            snap = session.snapshot()
            assert snap["awaiting"] == "roll", snap["prompt"]
            if attempt % 2 == 0:                       # at the box: a flick of the knob
                press(table, "flick", strength=0.5)
                thrown = session.snapshot()["rolls"] != snap["rolls"]
                taken["box"] += thrown
            else:                                      # the host's phone: Throw, 0.3 s after
                seen = f"{snap['boot']}:{snap['state_version']}"   # the state came
                presses(0.3)
                status = host.ask("POST", "/api/control/roll", {"seen": seen})[0]
                assert status in (200, 409)
                thrown = status == 200
                taken["phone"] += thrown
            if thrown:
                session.undo(by="test")                # put back for the next try
        assert taken["box"] >= 4 and taken["phone"] >= 4, taken      # of 8 each; before: 0, 0
        assert answers[200] <= PAIRED_BURST + 19 / PAIRED_EVERY, answers    # 18.4 s of presses
