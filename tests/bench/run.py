"""Parlour's benchmarks: `make bench` (or `python tests/bench/run.py [--quick]`).

Runs each bench_*.py module's run(quick), writes every figure as JSON (default
test-artifacts/bench.json) and prints the headline figures as a Markdown table. Figures are
medians of several runs with their spread; the goals are checked here, never in tests.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402

BENCHES = ["cpu", "input", "spin", "rules", "web", "footprint", "pages", "odds", "pi",
           "domino", "long_game", "club"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples (a few minutes)")
    parser.add_argument("--only", nargs="+", choices=BENCHES, help="run only these")
    parser.add_argument("--out", default=str(common.ROOT / "test-artifacts" / "bench.json"),
                        help="where the JSON goes (default: %(default)s)")
    parser.add_argument("--compare", help="an earlier JSON: print this run's ratio to it")
    args = parser.parse_args(argv)

    results: dict = {"machine": common.machine(), "quick": args.quick, "benches": {}}
    started = time.perf_counter()
    for name in args.only or BENCHES:
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        module = importlib.import_module(f"bench_{name}")
        gc.collect()
        t0 = time.perf_counter()
        results["benches"][name] = module.run(quick=args.quick)
        print(f"bench: {name} done in {time.perf_counter() - t0:.1f} s", file=sys.stderr,
              flush=True)
    results["seconds"] = round(time.perf_counter() - started, 1)

    out = Path(args.out)
    if args.only and out.exists():           # keep the other benches' latest figures
        try:
            earlier = json.loads(out.read_text())
            results["benches"] = {**earlier.get("benches", {}), **results["benches"]}
        except (OSError, ValueError):
            pass
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")
    before = json.loads(Path(args.compare).read_text()) if args.compare else None
    print(markdown(results, before))
    print(f"\n(figures in {out}; {results['seconds']} s)")
    return 0


def _get(data: dict | None, *path):
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def rows(results: dict) -> list[tuple]:
    """(figure, p50, spread, goal, met, Pi Zero 2 W estimate, path to the p50) per line."""
    b = results["benches"]
    factor = _get(b, "cpu", "pi_zero_2w_slower_by")
    out = []

    def est(value, slower=True):
        if factor is None or value is None:
            return ""
        low, high = (value * f if slower else value / f for f in factor)
        return f"{min(low, high):.3g}-{max(low, high):.3g}"

    goal_ms = _get(b, "input", "budget", "goal_ms")
    for case, label in (("seat_flash", "seat press → frame (flash)"),
                        ("seat_capture", "seat press → frame (capture stored)"),
                        ("flick", "flick's last edge → first spin frame (+120 ms settle)"),
                        ("seat_threaded", "seat press → frame, loop thread")):
        s = _get(b, "input", case, "total_ms")
        if s:
            out.append((f"Input: {label}, ms", s["p50"], f"p99 {s['p99']}", f"< {goal_ms}",
                        s["p99"] < goal_ms, est(s["p50"]), ("input", case, "total_ms", "p50")))
    busy_ms = _get(b, "input", "knob_resting", "designed_wait_ms", "poll_busy")
    for rest in ("idle", "dormant"):
        k = _get(b, "input", "knob_resting", rest)
        if k:
            kinds = ("hold_late_ms", "turn_late_ms", "quick_tap_late_ms")
            out.append((f"Input: knob at rest ({rest}), ms past due: hold · turn · quick tap",
                        " · ".join(str(k[kind]["p50"]) for kind in kinds),
                        "p99 " + " · ".join(str(k[kind]["p99"]) for kind in kinds),
                        f"<= {busy_ms}", all(k[kind]["p99"] <= busy_ms for kind in kinds), "",
                        ("input", "knob_resting", rest)))
    for kind, s in (_get(b, "spin") or {}).items():
        if kind == "goal":
            continue
        out.append((f"Spin {kind}: frames rendered/s", s["render_fps"]["p50"],
                    f"min {s['render_fps']['min']}", ">= 30", s["render_fps"]["min"] >= 30,
                    est(s["render_fps"]["p50"], slower=False),
                    ("spin", kind, "render_fps", "p50")))
        out.append((f"Spin {kind}: I2C bytes/frame, mean (luma 1030)",
                    s["bytes_per_frame"]["mean"],
                    f"max {s['bytes_per_frame']['max']}", "", None, "",
                    ("spin", kind, "bytes_per_frame", "mean")))
        luma = s["luma_bus_ms_per_frame"]
        out.append((f"Spin {kind}: bus ms/frame at 400 kHz, mean (luma {luma})",
                    s["bus_ms_per_frame"]["mean"], f"max {s['bus_ms_per_frame']['max']}",
                    "<= 33.3", s["bus_ms_per_frame"]["max"] <= 1000 / 30, "",
                    ("spin", kind, "bus_ms_per_frame", "mean")))
    for game, s in (_get(b, "rules") or {}).items():
        out.append((f"Rules {game}: events/s (replay)", s["events_per_s"]["p50"],
                    f"{s['events_per_s']['min']}-{s['events_per_s']['max']}", "", None,
                    est(s["events_per_s"]["p50"], slower=False),
                    ("rules", game, "events_per_s", "p50")))
        out.append((f"Rules {game}: games/s ({s['events_per_game']} events each)",
                    s["games_per_s"]["p50"], f"{s['games_per_s']['min']}-{s['games_per_s']['max']}",
                    "", None, est(s["games_per_s"]["p50"], slower=False),
                    ("rules", game, "games_per_s", "p50")))
        out.append((f"Rules {game}: events/s with state JSON", s["events_per_s_with_state_json"]["p50"],
                    f"{s['events_per_s_with_state_json']['min']}-"
                    f"{s['events_per_s_with_state_json']['max']}", "", None,
                    est(s["events_per_s_with_state_json"]["p50"], slower=False),
                    ("rules", game, "events_per_s_with_state_json", "p50")))
    w = _get(b, "web")
    if w:
        who = f"{w['streams']} streams + {w['pollers']} pollers"
        for key, label in (("event_to_all_streams_ms", "event → all streams, ms"),
                           ("event_to_each_stream_ms", "event → each stream, ms"),
                           ("control_post_ms", "control POST, ms"),
                           ("state_get_ms", "GET /api/state, ms")):
            s = w[key]
            out.append((f"Web ({who}): {label}", s["p50"], f"p99 {s['p99']}", "", None,
                        est(s["p50"]), ("web", key, "p50")))
        out.append(("Web: server CPU share of a core under that load",
                    w["server_cpu_share_under_load"], "", "", None,
                    est(w["server_cpu_share_under_load"]),
                    ("web", "server_cpu_share_under_load")))
    club = _get(b, "club")
    if club and "intake" in club:
        out.append(("Club: records a second taken in (checked, kept once)",
                    club["intake"]["records_per_s"], f"{club['intake']['records']:,} records",
                    "", None, "", ("club", "intake", "records_per_s")))
        lat = club["latency"]["end_to_league_ms"]
        out.append((f"Club: a game's end on a table to the league page, ms "
                    f"({club['latency']['tables']} tables at once)", lat["p50"],
                    f"p99 {lat['p99']}", "", None, "", ("club", "latency", "end_to_league_ms",
                                                        "p50")))
    pi = _get(b, "pi")
    if pi:
        m, goals = pi["matches"], pi["goals"]
        for label, key, who, goal, met in (
                ("Pi best as the Fox: games won against easy", "best_fox_vs_easy", "fox_won",
                 "all", goals["best_fox_beats_easy_100"]),
                ("Pi best as the Geese: games won against easy", "best_geese_vs_easy",
                 "geese_won", ">= 92 %", goals["best_geese_beat_easy_92"]),
                ("Pi best as the Geese: games lost to easy", "best_geese_vs_easy", "fox_won",
                 "0", goals["best_geese_lose_none_to_easy"]),
                ("Pi best as the Geese: games lost to a random Fox", "best_geese_vs_random",
                 "fox_won", "0", goals["best_geese_lose_none_to_random"]),
                ("Pi best as the Fox against the earlier best: games won", "best_fox_vs_before",
                 "fox_won", ">= half", goals["best_fox_scores_half_against_before"]),
                ("Pi best as the Geese against the earlier best: games won",
                 "before_fox_vs_best", "geese_won", ">= half",
                 goals["best_geese_score_half_against_before"])):
            out.append((f"{label} (of {m[key]['games']})", m[key][who], "", goal, met, "",
                        ("pi", "matches", key, who)))
        at = "best_geese_vs_easy_at_"
        budgets = sorted((k for k in m if k.startswith(at)), key=lambda k: int(k[len(at):]))
        if budgets:
            out.append(("Pi best as the Geese: games lost to easy with "
                        + " · ".join(k[len(at):] for k in budgets)
                        + f" positions a move (the level has {pi['levels']['best']['nodes']})",
                        " · ".join(str(m[k]["fox_won"]) for k in budgets),
                        f"of {m[budgets[0]]['games']} each", "", None, "",
                        ("pi", "matches", budgets[0], "fox_won")))
        for side in ("fox", "geese"):
            s = pi[side]
            out.append((f"Pi best as the {side}: ms a move ({s['nodes_per_s']['p50']:.0f} "
                        f"nodes/s; earlier search {s['before_move_ms'].get('p50')})",
                        s["best_move_ms"]["p50"], f"max {s['best_move_ms']['max']}",
                        "Zero < 0.5 s", goals[f"zero_2w_{side}_under_0_5_s"],
                        est(s["best_move_ms"]["p50"]), ("pi", side, "best_move_ms", "p50")))
    d = _get(b, "domino")
    if d:
        for level in ("good", "best"):
            out.append((f"Domino Rex {level}: share of wins against random players (2 · 3 · 4)",
                        " · ".join(str(d[level][n]) for n in ("2", "3", "4")),
                        f"{d['games']} games each", ">= 0.94" if level == "best" else "",
                        all(v >= 0.94 for v in d[level].values()) if level == "best" else None,
                        "", ("domino", level)))
        out.append(("Domino Rex best against good, share of wins (2 players)",
                    d["best_against_good"], f"{d['games']} games", "> 0.5",
                    d["best_against_good"] > 0.5, "", ("domino", "best_against_good")))
        out.append(("Domino Rex best: the plans' memo after 5 games, MiB",
                    d.get("plan_memo_mib"), "", "", None, "", ("domino", "plan_memo_mib")))
        out.append(("Domino Rex best: ms a choice", d["best_move_ms"]["p50"],
                    f"max {d['best_move_ms']['max']}", "", None, est(d["best_move_ms"]["p50"]),
                    ("domino", "best_move_ms", "p50")))
        cold = d.get("first_choice_cold_ms")
        if cold:
            out.append(("Domino Rex best: ms the first choice of a game, cold", cold["p50"],
                        f"{cold['min']}-{cold['max']}", "", None, est(cold["p50"]),
                        ("domino", "first_choice_cold_ms", "p50")))
    g = _get(b, "long_game")
    if g:
        out.append((f"A {g['events']:,}-event game: resume s · state JSON KiB",
                    f"{g['resume_s']} · {g['state_json_kib']}", "", "", None,
                    est(g["resume_s"]), ("long_game", "resume_s")))
        out.append((f"A {g['events']:,}-event game: whole box PSS after resume · after 3 charts, MiB",
                    f"{g['box_after_resume']['pss_mib']} · {g['box_after_three_charts']['pss_mib']}",
                    f"3 charts in {g['three_charts_s']} s", "", None, "",
                    ("long_game", "box_after_three_charts", "pss_mib")))
        live = g.get("live") or {}
        for page, ms in (live.get("pages") or {}).items():
            out.append((f"A {g['events']:,}-event game in play: {page} after an event, ms",
                        ms["cold_ms"], f"again {ms['warm_ms']}", "", None, est(ms["cold_ms"]),
                        ("long_game", "live", "pages", page, "cold_ms")))
        load = live.get("under_guests")
        if load:
            out.append((f"Same, {load['guests']} guests asking /history, an event a second: "
                        "server CPU, share of a core", load["server_cpu_share"],
                        f"/api/state p50 {load['state_ms']['p50']} ms, / p50 "
                        f"{load['page_ms']['p50']} ms", "", None, "",
                        ("long_game", "live", "under_guests", "server_cpu_share")))
        phone = live.get("phone")
        if phone:
            out.append((f"Same, the phone page in chromium: load s · longest frame gap over "
                        "3 events, ms", f"{phone['load_s']} · {phone['longest_frame_gap_ms']}",
                        f"{phone['log_items']} lines listed", "", None, "",
                        ("long_game", "live", "phone", "load_s")))
    f = _get(b, "footprint")
    if f:
        out.append(("Start-up to first /api/state, s", f["startup_s"]["p50"],
                    f"{f['startup_s']['min']}-{f['startup_s']['max']}", "", None,
                    est(f["startup_s"]["p50"]), ("footprint", "startup_s", "p50")))
        out.append(("Resident memory after start, MiB", f["rss_mib_after_start"]["p50"], "",
                    "", None, "", ("footprint", "rss_mib_after_start", "p50")))
        out.append((f"Resident memory after {f['events']} events, MiB",
                    f["rss_mib_after_events"], "", "", None, "",
                    ("footprint", "rss_mib_after_events")))
        for key, words in (("box_idle", "idle"),
                           ("box_after_six_phone_game", "after a 6-phone game")):
            m = f.get(key)
            if m:
                out.append((f"Whole box ({m['processes']} processes), {words}: PSS, MiB",
                            m["pss_mib"], f"RSS {m['rss_mib']}", "", None, "",
                            ("footprint", key, "pss_mib")))
        if f.get("zero_2w_free_mib_after_game"):
            low, high = f["zero_2w_free_mib_after_game"]
            out.append(("Zero 2 W (512 MB): left after the OS and that game, MiB", f"{low}-{high}",
                        "on paper", "> 150", low > 150, "", ("footprint",
                                                           "zero_2w_free_mib_after_game")))
        out.append((f"Idle CPU over {f['idle_window_s']:g} s, % of a core",
                    f["idle_cpu_percent_of_core"], "", "< 1", f["idle_cpu_percent_of_core"] < 1,
                    est(f["idle_cpu_percent_of_core"]), ("footprint", "idle_cpu_percent_of_core")))
    p = _get(b, "pages")
    if p:
        n = f"{p['games']:,} games"
        out.append((f"Pages ({n}): one-off figures migration, s", p["migration_s"],
                    f"{p['migration_games_per_s']} games/s", "", None, est(p["migration_s"]),
                    ("pages", "migration_s")))
        for page in ("/fairness", "/history", "/api/games"):
            out.append((f"Pages ({n}): {page} cold · warm, ms", p[page]["cold_ms"],
                        f"warm p50 {p[page]['warm_ms']['p50']}", "", None,
                        est(p[page]["cold_ms"]), ("pages", page, "cold_ms")))
        c20 = p["concurrent_fairness"]
        out.append((f"Pages ({n}): {c20['requests']} concurrent cold /fairness, all answered, ms",
                    c20["all_answered_ms"], f"/api/state meanwhile p50 "
                    f"{c20['state_meanwhile_ms']['p50']} ms", "", None,
                    est(c20["all_answered_ms"]), ("pages", "concurrent_fairness",
                                                  "all_answered_ms")))
        out.append((f"Pages ({n}): resident memory after start · pages · concurrent, MiB",
                    p["rss_mib_after_start"], f"{p['rss_mib_after_pages']} · "
                    f"{p['rss_mib_after_concurrent']}", "", None, "",
                    ("pages", "rss_mib_after_start")))
    if _get(b, "odds"):
        from bench_odds import rows as odds_rows
        out.extend(odds_rows(b["odds"], est))
    c = _get(b, "cpu")
    if c:
        out.append(("n-body step (CPU speed), µs", c["nbody_us_per_step"]["p50"],
                    f"{c['nbody_us_per_step']['min']}-{c['nbody_us_per_step']['max']}", "",
                    None, est(c["nbody_us_per_step"]["p50"]),
                    ("cpu", "nbody_us_per_step", "p50")))
    return out


def markdown(results: dict, before: dict | None = None) -> str:
    m = results["machine"]
    factor = _get(results, "benches", "cpu", "pi_zero_2w_slower_by")
    head = (f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']} ({m['system']})"
            f"{', quick run' if results.get('quick') else ''}.")
    if factor:
        head += f" Pi Zero 2 W estimate: {factor[0]}-{factor[1]}x slower (see bench_cpu.py)."
    cols = ["Figure", "p50", "spread", "goal", "met", "Pi Zero 2 W (est.)"]
    if before:
        cols.append("before → now")
    lines = [head, "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for figure, p50, spread, goal, met, est, path in rows(results):
        cells = [figure, f"{p50:g}" if isinstance(p50, (int, float)) else str(p50), spread,
                 goal, "" if met is None else ("yes" if met else "NO"), est]
        if before:
            old = _get(before.get("benches"), *path)
            cells.append(f"{old:g} → {p50:g} ({p50 / old:.2f}x)"
                         if isinstance(old, (int, float)) and old else "")
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
