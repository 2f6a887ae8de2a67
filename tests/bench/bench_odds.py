"""Chances to win: exact Kat en Muis (cold and cached), playouts per second per game, the
95% margin reached in 0.5 s and 2 s, the Domino Rex hint, and input to screen with the
chances worker on vs off (bench_input's rig: the same pins, controller and display).

Goals (checked in run.py's table): Kat en Muis exact < 50 ms cold; every other game within
+/-2 percentage points in under 1 s; input to screen with odds on within 10% of odds off.

The chances' own figures are CPU time of this process (time.process_time): the work is one
thread, so that is what it takes on an idle core however busy the machine is; input to screen
is wall time, as a player sees it.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

import common
from common import summary
from companion.chances import odds
from companion.chances import kat_en_muis as odds_kat
from companion.chances.domino_rex import _plan, hint
from companion.replay import replay_lines

EXAMPLES = common.ROOT / "companion" / "examples"
GAMES = ("kat-en-muis", "lifes-mishaps", "cats-and-dogs", "domino-rex")
GOAL_COLD_MS = 50.0
GOAL_MARGIN = 0.02
CPU = time.process_time


def first_play_state(game: str):
    """The example game's first position in play (after the lead): the most open one."""
    table = replay_lines((EXAMPLES / f"{game}.jsonl").read_text().splitlines())
    return table.rulebook, next(s for s in table.states if s.phase == "play")


def kat_exact(runs: int) -> dict:
    rulebook, state = first_play_state("kat-en-muis")
    cold, cached = [], []
    for _ in range(runs):
        for cache in (odds_kat.turn_table, odds_kat.finish_by, odds_kat.mover_wins):
            cache.cache_clear()
        t0 = CPU()
        odds_kat.kat_odds(rulebook, state)
        cold.append(CPU() - t0)
        t0 = CPU()
        odds_kat.kat_odds(rulebook, state)
        cached.append(CPU() - t0)
    return {"cold_ms": summary(cold, 1000), "cached_us": summary(cached, 1e6),
            "slots": len(odds_kat.finish_by(rulebook))}


def playout_rates(seconds: float) -> dict:
    out = {}
    for game in GAMES:
        rulebook, state = first_play_state(game)
        rng = random.Random(1)
        tally, t0 = None, CPU()
        marks = {}
        while True:
            tally = odds.playouts(rulebook, state, rng, 50, tally)
            elapsed = CPU() - t0
            result = tally.result()
            for at in (0.5, 1.0, 2.0):
                if elapsed >= at and at not in marks:
                    marks[at] = result["margin"]
            if "to_goal_s" not in out.get(game, {}) and result["margin"] <= GOAL_MARGIN:
                out.setdefault(game, {})["to_goal_s"] = round(elapsed, 3)
            if elapsed >= seconds:
                break
        out.setdefault(game, {}).update({
            "players": len(state.players), "playouts_per_s": round(tally.runs / elapsed),
            "margin_pp_at_0_5s": round(marks[0.5] * 100, 2),
            "margin_pp_at_1s": round(marks[1.0] * 100, 2),
            "margin_pp_at_2s": round(marks[2.0] * 100, 2)})
        out[game].setdefault("to_goal_s", None)
    return out


def domino_hint(runs: int) -> dict:
    rulebook, state = first_play_state("domino-rex")
    cold = []
    for _ in range(runs):
        _plan.cache_clear()
        t0 = CPU()
        hint(rulebook, state)
        cold.append(CPU() - t0)
    return {"opening_cold_ms": summary(cold, 1000)}


def input_with_odds(n: int) -> dict:
    """Input to screen through bench_input's rig with the worker off and on, while it works:
    seat presses (a flash) during a 4-player Life's Mishaps, whose one state the worker plays
    out for seconds, publishing as it goes; and flicks in Cats and Dogs (each a new state, so
    the worker is cancelled and starts again), spaced so its first answers arrive between."""
    import bench_input
    from firmware.workers.odds_worker import OddsWorker
    out: dict = {"published": 0}
    with tempfile.TemporaryDirectory(prefix="parlour-bench-odds-") as tmp:
        for round_, on in enumerate((False, True, False, True)):   # interleaved: load drifts
            for name in ("seat_flash", "flick"):
                rig = bench_input.Rig(Path(tmp) / f"{name}-{round_}")
                worker = OddsWorker(rig.session) if on else None
                if worker:
                    worker.start()
                try:
                    totals = (_flashes if name == "seat_flash" else _flicks)(rig, n)
                finally:
                    if worker:
                        out["published"] += worker.published
                        worker.close()
                    rig.close()
                out.setdefault(f"{name}_{'on' if on else 'off'}_ms", []).append(
                    summary(totals, 1000)["p50"])
    for name in ("seat_flash", "flick"):
        off, on = min(out[f"{name}_off_ms"]), min(out[f"{name}_on_ms"])
        out[f"{name}_ratio"] = round(on / off, 3)
    return out


def _flashes(rig, n: int) -> list[float]:
    rig.new_game("lifes-mishaps", 4)
    totals = []
    for _ in range(n):
        start, marks = rig.tap(rig.armed_button())
        if marks:
            totals.append(marks["shown"] - start)
        rig.settle(1.5)
        time.sleep(0.02)                               # real time for the worker to publish
    return totals


def _flicks(rig, n: int) -> list[float]:
    rig.new_game("cats-and-dogs", 3)
    totals = []
    for _ in range(max(10, n // 3)):
        if rig.controller.snap.get("phase") == "over":
            rig.new_game("cats-and-dogs", 3)
        start, marks = rig.flick()
        if marks:
            totals.append(marks["shown"] - start)
        rig.settle(4.0)
        rig.settle(7.0)
        time.sleep(0.15)
    return totals


def run(quick: bool = False) -> dict:
    return {"kat_exact": kat_exact(3 if quick else 10),
            "playouts": playout_rates(2.0),
            "domino_hint": domino_hint(2 if quick else 5),
            "input": input_with_odds(40 if quick else 120),
            "goals": {"kat_cold_ms": GOAL_COLD_MS, "margin_pp_in_1s": GOAL_MARGIN * 100,
                      "input_ratio": 1.10}}


def rows(o: dict, est) -> list[tuple]:
    """The lines of run.py's table."""
    k = o["kat_exact"]
    out = [("Chances: Kat en Muis exact, cold, ms", k["cold_ms"]["p50"],
            f"max {k['cold_ms']['max']}", f"< {GOAL_COLD_MS:g}",
            k["cold_ms"]["max"] < GOAL_COLD_MS, est(k["cold_ms"]["p50"]),
            ("odds", "kat_exact", "cold_ms", "p50")),
           ("Chances: Kat en Muis exact, cached, µs", k["cached_us"]["p50"],
            f"max {k['cached_us']['max']}", "", None, est(k["cached_us"]["p50"]),
            ("odds", "kat_exact", "cached_us", "p50"))]
    for game, s in o["playouts"].items():
        out.append((f"Chances {game} ({s['players']} players): playouts/s",
                    s["playouts_per_s"], "", "", None, est(s["playouts_per_s"], slower=False),
                    ("odds", "playouts", game, "playouts_per_s")))
        out.append((f"Chances {game}: ± pp (95%) at 0.5 s / 2 s", s["margin_pp_at_0_5s"],
                    f"2 s: {s['margin_pp_at_2s']}", "<= 2 at 1 s",
                    s["margin_pp_at_1s"] <= GOAL_MARGIN * 100, "",
                    ("odds", "playouts", game, "margin_pp_at_0_5s")))
    h = o["domino_hint"]["opening_cold_ms"]
    out.append(("Domino Rex hint at the opening, cold, ms", h["p50"], f"max {h['max']}", "",
                None, est(h["p50"]), ("odds", "domino_hint", "opening_cold_ms", "p50")))
    for name in ("flick", "seat_flash"):
        ratio = o["input"][f"{name}_ratio"]
        out.append((f"Input {name} → frame, odds on / off", ratio, "", "<= 1.10",
                    ratio <= 1.10, "", ("odds", "input", f"{name}_ratio")))
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
