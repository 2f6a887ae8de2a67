"""The club's page (`parlour club`): the tables now, the league and recent games, in the phone
page's style; `/api/club` gives the same as JSON and the page polls it every few seconds;
`/api/club/records/<uid>` is a game's whole record as its table sent it."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template

from companion.record.league import league, points_of
from web import SECURITY_HEADERS

POLL_SECONDS = 3


class LeagueCache:
    """The league worked out once per change of the club's store, not once per request."""

    def __init__(self, store):
        self.store = store
        self._at: int | None = None
        self._view: dict[str, Any] = {}

    def view(self) -> dict[str, Any]:
        version = self.store.version
        if version != self._at:
            figures = league(self.store.records())      # first: recent games are as new
            tables, recent = self.store.tables(), self.store.recent()
            self._view = {"version": version, "tables": tables, "league": figures,
                          "recent": with_table_labels(recent, tables)}
            self._at = version
        return self._view


def with_table_labels(recent: list[dict[str, Any]],
                      tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each recent game with `table_label`, the name of the table it was played at, and the
    table id's first 4 digits when two tables (now or in these games) share that name."""
    ids: dict[str, set[str]] = {}
    for table_id, name in ([(t["table"], t["name"]) for t in tables]
                           + [(r["table"], r["table_name"]) for r in recent]):
        ids.setdefault(name, set()).add(table_id)
    return [{**r, "scored_by": points_of(r),        # none for F3's geese, kept before too
             "table_label": r["table_name"] if len(ids[r["table_name"]]) == 1
             else f"{r['table_name']} ({r['table'][:4]})"} for r in recent]


def points_text(points: float | None) -> str:
    """Points as players write them: "1,234,567", "999,999.5" (not "1.23457e+06")."""
    return "" if points is None else f"{points:,.2f}".rstrip("0").rstrip(".")


def league_by_game(figures: dict[str, Any]) -> list[dict[str, Any]]:
    """The league as the page shows it: a table per game, its players in standings order,
    with points where the game counts them and Elo where it is rated."""
    elo = {(g["game"], p["id"]): p["rating"] for g in figures["ratings"] for p in g["players"]}
    rated = {g["game"] for g in figures["ratings"]}
    games: dict[str, dict[str, Any]] = {}
    for row in figures["standings"]:
        game = games.setdefault(row["game"], {"title": row["title"], "rows": [],
                                              "scored": row["points"] is not None,
                                              "rated": row["game"] in rated})
        game["rows"].append({**row, "elo": elo.get((row["game"], row["id"])),
                             "points_text": points_text(row["points"])})
    return list(games.values())


def off_broker(club: dict[str, Any]) -> bool:
    """The club has a broker and is not connected to it now."""
    return club["broker"] is not None and not club["broker"]["connected"]


def create_club_app(store, *, listener: Any = None) -> Flask:
    """The club's web app over its store (firmware/club/clubstore.py). `listener` (the
    broker's subscriber) adds whether the broker is connected and what was refused."""
    app = Flask(__name__)
    cache = LeagueCache(store)

    def view() -> dict[str, Any]:
        """The league and tables; off its broker, no table's status is known (its will, or
        its coming back, cannot reach the club), on the page and in the JSON alike."""
        out = dict(cache.view())
        out["broker"] = None if listener is None else listener.summary()
        if off_broker(out):
            out["tables"] = [{**t, "status": "unknown"} for t in out["tables"]]
        return out

    @app.get("/")
    def club_page():
        club = view()
        return render_template("club.html", club=club, poll=POLL_SECONDS, off=off_broker(club),
                               games=league_by_game(club["league"]))

    @app.get("/api/club")
    def club_json():
        return jsonify(view())

    @app.get("/api/club/records/<uid>")
    def club_record(uid: str):
        raw = store.raw_record(uid) if len(uid) <= 40 else None
        if raw is None:
            return jsonify({"error": f"no game {uid[:40]!r} in the club"}), 404
        return app.response_class(raw, mimetype="application/json")

    @app.errorhandler(404)
    def not_found(err):
        return jsonify({"error": "no such page"}), 404

    @app.errorhandler(405)
    def not_allowed(err):
        return jsonify({"error": "only GET is answered here"}), 405

    @app.after_request
    def secure(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    return app
