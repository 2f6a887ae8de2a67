"""A table of people, scripted: the box (the simulated panel's pins), two phones in chromium
paired to seats, the API with the PIN, and the Pi, all on one `parlour run --sim`. After every
event each surface is read and must agree with `/api/state` on the state it shows (its run of
the table and version, whose turn, what is awaited), and no surface may ever go back to an
older state. Used by the table test (a short run) and `make soak` (a long random one)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.events import CORRECTIONS
from firmware.controller.parts.notices import AGAIN_SECONDS, LATE_PRESS_SECONDS
from web.moves import SCORED_ROLES
from firmware.controller.spin import UNCOVER_PIS, asks_to_uncover
from simulated_table import box_pairing_code, call  # noqa: F401 - tests import call here

WAIT_SECONDS = 12.0          # generous: a loaded machine; the lag itself is measured, not asserted

# Records, on the phone, every state it showed (body's data-version), before any page script.
VERSIONS_SCRIPT = """
window.__shown = [];
(function watch() {
  if (!document.documentElement) { setTimeout(watch, 0); return; }
  new MutationObserver(function () {
    var v = document.body && document.body.getAttribute("data-version");
    if (v && window.__shown[window.__shown.length - 1] !== v) window.__shown.push(v);
  }).observe(document.documentElement, {attributes: true, subtree: true,
                                         attributeFilter: ["data-version"]});
})();
"""

# What a phone shows, read from its DOM as a player reads it.
PHONE_VIEW = """() => {
  var v = (document.body.getAttribute("data-version") || ":").split(":");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#players tbody tr"));
  var cell = function (row, cls) {
    var c = row.querySelector("." + cls);
    return c && !c.hidden ? c.textContent.trim() : null;
  };
  var board = document.getElementById("board-card");
  var on = board && !board.hidden;
  var point = function (cls) {
    return Array.prototype.slice.call(document.querySelectorAll("#board g.point." + cls))
      .map(function (g) { return g.getAttribute("data-point"); }).sort();
  };
  var dial = document.getElementById("dial");
  return {
    boot: v[0], version: Number(v[1] || -1),
    turn: rows.findIndex(function (r) { return r.classList.contains("turn"); }),
    names: rows.map(function (r) { var n = r.querySelector(".name"); return n && n.firstChild ? n.firstChild.textContent : ""; }),
    chips: rows.map(function (r) { return cell(r, "col-chips"); }),
    scores: rows.map(function (r) { return cell(r, "col-score"); }),
    fox: on ? point("fox") : null, geese: on ? point("goose") : null,
    spinning: !!(dial && dial.classList.contains("spinning")),
    chances: Array.prototype.slice.call(document.querySelectorAll("#chance-list li strong"))
      .map(function (s) { return s.textContent; }),
    shown: window.__shown || []
  };
}"""


def percent(p: float) -> str:
    """A chance as chances.js writes it."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{int(p * 100 + 0.5)}%"      # JavaScript's Math.round: halves go up


def turn_name(state: dict) -> str | None:
    """The name of the player to play, as the club's state words it (None when nobody)."""
    turn, players = state.get("turn"), state.get("players") or []
    if state.get("phase") in ("idle", "over") or not isinstance(turn, int) \
            or not 0 <= turn < len(players):
        return None
    return players[turn]["name"]


def key(state: dict) -> tuple:
    return (state.get("boot"), state.get("version"))


@dataclass
class Tally:
    """What a run did: events made and checks passed, and the slowest surface's catch-up."""
    events: int = 0
    checks: int = 0
    chance_checks: int = 0       # checks whose state carried chances (compared on the phones)
    by_source: dict[str, int] = field(default_factory=dict)
    result_checks: int = 0       # OLED results whose heading was checked against the change
    turn_checks: int = 0         # OLED turn screens whose name was checked
    worst_lag: float = 0.0
    lags: list[float] = field(default_factory=list)

    def made(self, source: str) -> None:
        self.events += 1
        self.by_source[source] = self.by_source.get(source, 0) + 1


class Table:
    """The running table and its surfaces: `oled`, `phones` (name -> page), the API."""

    def __init__(self, url: str, phones: dict[str, Any], rng: random.Random,
                 club: Callable[[], dict] | None = None):
        self.url, self.phones, self.rng = url, phones, rng
        self.club = club                          # the club's /api/club, when there is one
        self.paired: dict[str, int] = {}          # phone -> seat button
        self.tally = Tally()
        self.oled_seen: list[tuple] = []
        self._last_move: tuple = (None, None)

    # -- reading every surface ---------------------------------------------------------------

    def api(self) -> dict:
        return call(self.url, "/api/state")

    def oled(self) -> dict:
        return call(self.url, "/device/screen", pin=False).get("view") or {}

    def phone(self, name: str) -> dict:
        return self.phones[name].evaluate(PHONE_VIEW)

    def agree(self) -> dict:
        """Wait until the OLED, every phone and the Pi show the state the API holds now (the
        newest); then check what each shows against it. Returns that state."""
        started = time.monotonic()
        problems: list[str] = []
        while True:
            state = self.api()
            oled = self.oled()
            phones = {name: self.phone(name) for name in self.phones}
            problems = self._disagreements(state, oled, phones)
            if not problems and key(self.api()) == key(state):
                break
            if time.monotonic() - started > WAIT_SECONDS:
                raise AssertionError(f"after {WAIT_SECONDS} s the surfaces still disagree on "
                                     f"version {key(state)}: {problems}")
            time.sleep(0.05)
        lag = time.monotonic() - started
        self.tally.lags.append(lag)
        self.tally.worst_lag = max(self.tally.worst_lag, lag)
        self._check_details(state, oled, phones)
        self.tally.checks += 1
        moved = (state.get("game_id"), state.get("state_version"))
        if state.get("last_by") == "pi" and moved != self._last_move:
            self.tally.made("pi")                 # the Pi moved by itself since the last check
        self._last_move = moved
        return state

    def _disagreements(self, state: dict, oled: dict, phones: dict[str, dict]) -> list[str]:
        out = []
        drawn = oled.get("state") or {}
        if key(drawn) != key(state):
            out.append(f"OLED shows {key(drawn)}")
        elif oled.get("waiting") is not None:     # the result up is read first
            out.append(f"OLED shows version {oled['waiting']} once its result is read")
        for name, view in phones.items():
            if (view["boot"], view["version"]) != key(state):
                out.append(f"{name} shows {(view['boot'], view['version'])}")
        pi = (oled.get("pi") or {}).get("seen")
        if state.get("boot") == drawn.get("boot") and pi != state.get("version"):
            out.append(f"the Pi was told of version {pi}")
        if self.club is not None:                 # the club, through the MQTT broker
            tables = self.club()["tables"]
            shown = [key(t["state"] or {}) for t in tables]
            if shown != [key(state)]:
                out.append(f"the club shows {shown}")
            elif tables[0]["state"]["turn"] != turn_name(state):
                out.append(f"the club says {tables[0]['state']['turn']} is to play")
        return out

    def _check_details(self, state: dict, oled: dict, phones: dict[str, dict]) -> None:
        drawn = oled["state"]
        assert (drawn["turn"], drawn["awaiting"], drawn["phase"]) == \
            (state["turn"], state["awaiting"], state["phase"]), (drawn, state)
        self.oled_seen.append(key(drawn))
        self._check_oled_words(state, oled)
        players = state["players"]
        for name, view in phones.items():
            where = f"{name} at {key(state)}"
            assert view["names"] == [p["name"] for p in players], where
            turn = state["turn"] if state["phase"] != "over" and state["turn"] is not None \
                else -1
            assert view["turn"] == turn, (where, view["turn"], turn)
            scored = SCORED_ROLES.get(state["game"] or "")       # the Geese take none: "—"
            for column, field_name in (("chips", "chips"), ("scores", "score")):
                shown = [c.removesuffix("not counted") for c in view[column] if c is not None]
                if shown:                                 # (said so to a screen reader)
                    assert shown == [str(p[field_name]) if column == "chips" or not scored or
                                     p.get("role") in scored else "—" for p in players], \
                        (where, column, shown)
            board = state.get("board")
            if board:
                assert view["fox"] == [board["fox"]], (where, view["fox"])
                assert view["geese"] == sorted(board["geese"]), where
            assert not view["spinning"], where
            odds = state.get("odds")
            if odds:                                  # each chance as the phone words it
                assert view["chances"] == [percent(p) for p in odds["win"]], (where, odds)
                self.tally.chance_checks += 1
            ordered = [tuple(v.split(":")) for v in view["shown"]]
            for before, after in zip(ordered, ordered[1:]):   # never an older state after
                assert before[0] != after[0] or int(after[1]) > int(before[1]), \
                    (where, view["shown"])

    def _check_oled_words(self, state: dict, oled: dict) -> None:
        """What the OLED says agrees with who made the newest change and who is to play: a
        result headed by a player's bare name is that player's change (never the Pi's, never
        a phone's correction), one headed "Pi" is the Pi's, a correction made away from the
        box is "From a phone", or "From a script" made through the API with the PIN in a
        header; the turn screen names the player the state awaits."""
        people = [p["name"] for p in state["players"] if not p.get("pi")]
        where = (key(state), state.get("last_by"), state.get("last_type"), oled.get("screen"))
        if oled.get("screen") == "result":
            heading = oled["result"][0]
            self.tally.result_checks += 1
            if heading in people:
                assert state.get("last_by") != "pi" and \
                    state.get("last_type") not in CORRECTIONS, (where, oled["result"])
            if heading == "Pi":
                assert state.get("last_by") == "pi", (where, oled["result"])
            if state.get("last_type") in CORRECTIONS and state.get("last_by") != "knob":
                assert heading == ("From a script" if state.get("last_by") == "api" else
                                   "From a phone"), (where, oled["result"])
            words = [w for w in oled["result"][2]     # a request no press answered, asked
                     if not (w.startswith("If ") and asks_to_uncover(w))]     # again: not new
            if state.get("last_by") == "pi" and words and asks_to_uncover(words[-1]):
                pis = [UNCOVER_PIS.format(who=p["name"], value=state.get("last_uncovered"))
                       for p in state["players"] if p.get("pi")]     # the Pi's, copied first
                assert words[-1] in pis and words[-2] == state["log"][-1] and \
                    all(line in state["log"] for line in words[:-1]), (where, words)
        if oled.get("screen") == "play" and state["phase"] == "play" and oled.get("turn"):
            name = turn_name(state)
            assert oled["turn"]["name"].startswith(name), (where, oled["turn"], name)
            self.tally.turn_checks += 1

    def correct(self) -> bool:
        """A signed-in phone's chip correction (a `transfer` through the API), where the game
        has chips and a player holds one: no one's move, and the box must say so."""
        state = self.api()
        holders = [seat for seat, p in enumerate(state["players"]) if p.get("chips")]
        if state["phase"] not in ("lead", "play") or not holders:
            return False
        source = holders[0]
        answer = call(self.url, "/api/control/transfer", {
            "from": source, "to": (source + 1) % len(state["players"]), "amount": 1,
            "reason": "table test"})
        assert "error" not in answer, answer
        self.tally.made("correction")
        return True

    # -- making events -----------------------------------------------------------------------

    def pair(self, phone: str, button: int) -> None:
        """Pair a phone with a seat button, as a player does: Menu, "Pair a phone" and the
        seat button on the box, then the code the OLED shows typed on the phone."""
        from playwright.sync_api import expect
        page = self.phones[phone]
        code = box_pairing_code(self.url, button)
        page.locator("#pair-code").fill(code)
        page.get_by_role("button", name="Pair this phone").click()
        expect(page.locator("#paired-line")).to_contain_text(f"seat button {button}")
        self.paired[phone] = button

    def new_game(self, game: str, players: list[str], **extra: Any) -> dict:
        answer = call(self.url, "/api/control/new-game",
                      {"game": game, "players": players, **extra})
        assert "error" not in answer, answer
        self.tally.made("api")
        return self.agree()

    def step(self, source: str) -> str:
        """One event for the player or Pi the state awaits, made from `source` where it can
        be (box, a phone, api, undo); returns the source that made it."""
        state = self.api()
        if state["phase"] == "over":
            raise AssertionError("the game is over")
        seat = state["turn"]
        if state["players"][seat].get("pi"):
            self._wait_for_pi(state)
            return self._made("pi")
        if source == "undo" and len(state["log"]) > 1:
            call(self.url, "/device/input", {"input": "undo"}, pin=False)
            return self._made("box-undo")
        if source == "box" and self._box(state):
            return self._made("box")
        for phone, button in self.paired.items():
            if source == phone and state["players"][seat].get("button") == button and \
                    self._phone(phone, state):
                return self._made(phone)
        self._api(state)
        return self._made("api")

    def _made(self, source: str) -> str:
        self.tally.made(source)
        return source

    def _wait_for_pi(self, state: dict) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            now = self.api()
            if now.get("last_by") == "pi" and now["state_version"] != state["state_version"]:
                return
            time.sleep(0.02)
        raise AssertionError(f"the Pi never moved from {key(state)}: {state['prompt']}")

    def _box(self, state: dict) -> bool:
        """The box's own controls, on its turn screen: flick, press, seat button."""
        oled = self.oled()
        before = key(state)
        if oled.get("screen") in ("result", "pi_moved", "over"):
            # What a player does with the screen's answer, once read: press on (an assisted
            # game's result says the press ends the turn: then that is the box's event). A
            # press within LATE_PRESS_SECONDS of the dial stopping by itself only stops it.
            time.sleep(LATE_PRESS_SECONDS + 0.05)
            call(self.url, "/device/input", {"input": "knob", "action": "press"}, pin=False)
            if self._changed(before, seconds=0.3):
                return True
            time.sleep(AGAIN_SECONDS)           # the turn screen read: a press at once after
            oled = self.oled()                  # the one that closed the result is a double
        if oled.get("screen") != "play" or oled.get("flash"):
            return False
        awaiting = state["awaiting"]
        if awaiting == "roll":
            payload = {"input": "knob", "action": "flick", "detents": 12}
        elif awaiting in ("next", "choose", "move"):
            payload = {"input": "knob", "action": "press"}
        elif awaiting == "press":
            payload = {"input": "seat", "seat": state["players"][state["turn"]]["button"] - 1}
        else:
            return False
        call(self.url, "/device/input", payload, pin=False)
        if payload["input"] != "knob" or self._changed(before, seconds=LATE_PRESS_SECONDS + 0.5):
            return self._changed(before)
        # Nothing yet: a press a moment after a result or a notice went by itself only reads
        # (the controller's `_only_reads`); the player sees the turn screen stay and presses again.
        oled = self.oled()
        if oled.get("screen") == "play" and not oled.get("flash"):
            call(self.url, "/device/input", payload, pin=False)
        return self._changed(before)

    def _phone(self, phone: str, state: dict) -> bool:
        page = self.phones[phone]
        before = key(state)
        if state["awaiting"] == "move":
            path = state["board"]["moves"][0]
            for point in path:
                page.locator(f'#board [data-point="{point}"] rect.hit').click(force=True)
            return self._changed(before)
        buttons = page.locator("#moves form button")
        if buttons.count() == 0:
            return False
        buttons.first.click()
        return self._changed(before)

    def _api(self, state: dict) -> None:
        awaiting, player = state["awaiting"], state["players"][state["turn"]]
        if awaiting == "roll":
            body, action = {}, "roll"
        elif awaiting == "choose":
            body, action = {"value": sorted(player["covered"])[0]}, "choose"
        elif awaiting == "move":
            body, action = {"path": self.rng.choice(state["board"]["moves"])}, "move"
        elif awaiting == "press":
            body, action = {"seat": state["turn"]}, "press"
        else:
            body, action = {}, "next"
        answer = call(self.url, f"/api/control/{action}", body)
        assert "error" not in answer, (action, answer, state["prompt"])

    def _changed(self, before: tuple, seconds: float = WAIT_SECONDS) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            now = self.api()
            if key(now) != before:
                return True
            time.sleep(0.02)
        return False


# The games as the table test plays them: (game, players, extra new_game fields).
TABLES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("kat-en-muis", ["Ann", "Ben"], {}),
    ("lifes-mishaps", ["Ann", "Ben", "Cy"], {}),
    ("cats-and-dogs", ["Ann", "Ben"], {}),
    ("domino-rex", ["Ann", "Ben"], {}),
    ("cats-and-mice", ["Ann", "Ben"], {}),
    ("gantlope", ["Ann", "Ben"], {}),
    ("lost-diamond", ["Ann", "Ben"], {}),
    ("india", ["Ann", "Ben"], {}),
    ("fox-and-geese", ["Ann", "Ben"], {}),
    ("free-play", ["Ann", "Ben"], {"options": {"randomizer": {"kind": "dice", "count": 2}}}),
    ("fox-and-geese", ["Pi", "Ben"], {"pi": [0], "pi_level": "easy"}),      # the Pi as the Fox
    ("fox-and-geese", ["Ann", "Pi"], {"pi": [1], "pi_level": "easy"}),      # as the Geese, first
    ("domino-rex", ["Pi", "Ben"], {"pi": [0], "pi_level": "good"}),         # the Pi first
    ("domino-rex", ["Ann", "Pi"], {"pi": [1], "pi_level": "good"}),         # the Pi later
]
SOURCES = ("box", "phone-a", "api", "phone-b")
