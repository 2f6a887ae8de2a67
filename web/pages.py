"""The pages people read: the table's status (/), past games (/history) and the fairness of
the rolls (/fairness). Server-rendered so they work without JavaScript; the status page then
stays live through /api/events."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from flask import Blueprint, Response, abort, render_template, request, url_for

from companion.boarddata import shipped_board_text
from companion.buttons import MAX_BUTTONS, ButtonColour, colour_of
from companion.errors import ParlourError
from companion.games import GAMES
from companion.randomness.stats import goodness_of_fit, randomizer_title
from companion.record.store import GameRecord
from companion.replay import MAX_NAME
from web.access import auth
from web.api import MAX_ID
from web.context import page_start, parlour, plain_number
from web.control import RANDOMIZER_CHOICES, RANDOMIZER_GAMES
from web.device import from_this_machine
from web.errors import ApiError
from web.domino import checkers, checkers_words, covered_words, hint_text, uncovered_text
from web.records.figures import PAGE
from web.history import STATUS_WORDS, history_row, utc_text
from companion.state import row_order
from companion.words import listing
from web.moves import (PHONE_WORDS, PI_MOVE, PI_TURN, PI_WAITS, PI_WAITS_ASK, WATCHING_WORDS,
                       game_moves, moves, phone_prompt)
from web.network import network_words
from web.records.record import bg_stats_link, bg_stats_play
from web.access.seat import pairing
from web.records.summaries import buttons, duration, summary, title, when

bp = Blueprint("pages", __name__)

NOSCRIPT_REFRESH = 10          # seconds between reloads of a page without JavaScript
LOG_SHOWN = 150                # the newest lines of the log the status page lists
LOG_PAGE = 500                 # lines of the log on one page of a game's page


def button_colour(button: int | None) -> ButtonColour:
    """Seat button n's colour on this box (X12)."""
    return colour_of(parlour().buttons, button)


def luminance(css: str) -> float:
    """WCAG's relative luminance of a "#rrggbb" colour."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    red, green, blue = (linear(int(css[i:i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def ink(css: str) -> str:
    """Black or white, whichever has the higher contrast on a "#rrggbb" background: at least
    4.5:1 on any (a seat's number on its button's dot is small text)."""
    light = luminance(css)
    return "#000000" if (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) else "#ffffff"


@bp.app_context_processor
def helpers() -> dict[str, Any]:
    return {"button_colour": button_colour, "csrf_token": auth.csrf_token,
            "logged_in": auth.logged_in, "when": when, "status_words": STATUS_WORDS,
            "panel_here": panel_here, "role_text": role_text,
            "checkers": checkers, "checkers_words": checkers_words, "covered_words": covered_words,
            "button_names": [c.name for c in parlour().buttons]}


def panel_here() -> bool:
    """True where this page may show the way to the simulated box's panel (/device): the box
    is simulated, and the panel answers this browser (this machine, or an open panel)."""
    table = parlour()
    return table.device is not None and (
        table.panel_open or from_this_machine(auth.client_address()))


@bp.get("/buttons.css")
def buttons_css() -> Response:
    """The seat buttons' colours as classes (`button-2`), so pages colour a badge by the
    button's number under the strict Content-Security-Policy (no inline styles)."""
    rules = []
    for number in range(1, MAX_BUTTONS + 1):
        css = button_colour(number).css
        rules.append(f".button-{number} {{ --button: {css}; --button-ink: {ink(css)}; }}")
    return Response("\n".join(rules) + "\n", mimetype="text/css",
                    headers={"Cache-Control": "no-cache"})


def game_choices() -> list[dict[str, Any]]:
    """The games the new-game form offers, with their options."""
    return [{"id": r.id, "title": r.title, "min": r.min_players, "max": r.max_players,
             "randomizer": r.randomizer.name if r.randomizer else "chosen at the start"
             if r.id in RANDOMIZER_GAMES else "no dice",
             "randomizers": [(k, words) for k, (words, _) in RANDOMIZER_CHOICES.items()]
             if r.id in RANDOMIZER_GAMES else [],
             "options": [{"name": n, "default": o.default, "low": o.low, "high": o.high,
                          "help": o.help, "labels": list(o.labels)}
                         for n, o in r.options.items()],
             "pi_seats": r.pi_seats, "board_file": shipped_board_text(r.id) is not None}
            for r in GAMES.values()]


@bp.get("/")
def status() -> str:
    state = parlour().session.snapshot()
    players = state.get("players", [])
    info = game_moves().get(state.get("game") or "") or {}
    show = {"chips": bool(state.get("pool")) or any(p.get("chips") for p in players),
            "score": bool(info.get("score")) or any(p.get("score") for p in players),
            "squares": bool(info.get("squares")),
            "score_label": info.get("score_label") or "Score",
            "score_roles": info.get("score_roles") or [],
            "square_colours": info.get("square_colours") or {},
            "role": role_heading(players)}
    now = server_now()
    thinking = clocks(state, now)
    show["clock"] = thinking is not None
    pool_labels = {r.id: r.pool_label for r in GAMES.values()}
    return render_template("status.html", state=state, show=show, games=game_choices(),
                           pool_labels=pool_labels, max_name=MAX_NAME,
                           clocks=thinking, table_now=now.isoformat(timespec="milliseconds"),
                           refresh=NOSCRIPT_REFRESH, last_game=last_game(state),
                           winners_text=winners_text(state), roll_text=roll_text(state),
                           log_view=log_view(state), **phone_view(state))


def log_page_of(line: int) -> int:
    """The page of a game's page that holds line `line` (from 1)."""
    return max(0, line - 1) // LOG_PAGE + 1


def log_view(state: dict[str, Any]) -> dict[str, Any]:
    """The log as the status page lists it: the newest LOG_SHOWN lines, newest first, each
    with its number, and a link to the line before them on the game's page (status.js too)."""
    log = state.get("log") or []
    first = max(0, len(log) - LOG_SHOWN)          # lines left out, the oldest
    game_id = state.get("game_id")
    href = url_for("pages.history_game", game_id=game_id, page=log_page_of(first),
                   _anchor=f"line-{first}") if first and game_id is not None else None
    return {"lines": [(n, log[n - 1]) for n in range(len(log), first, -1)],
            "total": len(log), "earlier": first, "href": href, "shown": LOG_SHOWN,
            "page_lines": LOG_PAGE}


def role_text(player: dict[str, Any]) -> str:
    """A player's side ("Cat", "Fox") or how they stand: Gantlope's men home ("1 in Goal"),
    The Lost Diamond's carrier ("has the diamond", LD2). status.js says the same."""
    role = player.get("role") or ""
    words = [role[:1].upper() + role[1:]]       # "Fox", as the prompt names the side
    if player.get("in_goal"):
        words.append(f"{player['in_goal']} in Goal")
    if player.get("diamond"):
        words.append("has the diamond")
    return " · ".join(w for w in words if w)


def role_heading(players: list[dict[str, Any]]) -> str | None:
    """The heading over role_text: "Role" where players have sides, "Now" where the column
    says how they stand; None (no column) where no player has anything there."""
    if any(p.get("role") for p in players):
        return "Role"
    return "Now" if any(role_text(p) for p in players) else None


def server_now() -> datetime:
    """The table's time, as its events are stamped, against which the running clock is read
    (the page carries it too): a jump of the box's wall clock mid-game is not charged."""
    return parlour().table_time()


def stamp_time(at: Any) -> datetime | None:
    """An event's `at` as a time (one without a zone is UTC); None when it is not one."""
    try:
        when = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def clock_text(seconds: float) -> str:
    """Thinking time as "m:ss", or "h:mm:ss" past an hour (status.js says the same)."""
    minutes, secs = divmod(max(0, int(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clocks(state: dict[str, Any], now: datetime) -> list[str] | None:
    """Each player's thinking time (F1) at `now`, by index: the clock of `clock.seat` runs from
    `clock.since` until the game is over. None in games without clocks."""
    clock = state.get("clock")
    if not isinstance(clock, dict):
        return None
    since = stamp_time(clock.get("since"))
    out = []
    for index, p in enumerate(state.get("players") or []):
        seconds = p.get("clock_seconds") or 0
        seat = p.get("seat") if p.get("seat") is not None else index
        if seat == clock.get("seat") and since is not None and state.get("phase") != "over":
            seconds += max(0.0, (now - since).total_seconds())
        out.append(clock_text(seconds))
    return out


def last_game(state: dict[str, Any]) -> dict[str, Any] | None:
    """With no game in play (after a restart, or one set aside), the newest stored game, so
    its page (its record, BG Stats) is one tap away; None while a game is in play."""
    if state.get("game"):
        return None
    newest = parlour().session.store.games_page(limit=1)
    if not newest:
        return None
    record = newest[0]
    return {"id": record.id, "title": title(record.game), "status": STATUS_WORDS.get(
        record.status, record.status), "winners": summary(record)["winner_names"],
        "when": utc_text(record.ended_at or record.created_at),
        "iso": record.ended_at or record.created_at or ""}


def _network_card() -> dict[str, Any] | None:
    """The Wi-Fi card for a signed-in phone where the box manages its Wi-Fi, else None."""
    if parlour().network is None or not auth.logged_in():
        return None
    status = parlour().network.status()
    return {"words": network_words(status), **status}


def phone_view(state: dict[str, Any]) -> dict[str, Any]:
    """The status page's moves for this phone (all with the PIN, its seat's when paired, none
    when watching), its pairing, the roster and, once over, the links to keep the game."""
    paired = pairing(state)
    signed_in = auth.logged_in()
    if signed_in:
        offered = moves(state)
    elif paired["seat"] is not None:
        offered = moves(state, paired["seat"])
    else:
        offered = []
    info = game_moves()
    game_id = state.get("game_id")
    over_links = None
    if state.get("phase") == "over" and game_id is not None:
        record = parlour().session.store.game(game_id)
        over_links = {"record": url_for("api.game_record_json", game_id=game_id),
                      "bg_stats": _bg_stats(parlour().session.store, record) or "#",
                      "started": record.created_at if record is not None else None}
    kind = (state.get("randomizer") or {}).get("kind")
    return {"moves": offered, "game_moves": info, "pairing": paired,
            "hint": hint_text(state, offered),
            "prompt": phone_prompt(state, any(m["action"] == PI_MOVE["action"]
                                              for m in offered), signed_in),
            "phone_words": PHONE_WORDS if signed_in else WATCHING_WORDS,   # a sign-in reloads
            "pi_turn": {"moves": PI_TURN, "waits": PI_WAITS,      # status.js picks by the state
                        "waits_ask": PI_WAITS_ASK},
            "row_order": row_order(state),
            "your_turn": paired["seat"] is not None and paired["seat"] == state.get("turn")
            and state.get("phase") != "over",
            "roster": parlour().session.store.roster() if auth.logged_in() else [],  # forms
            "network": _network_card(),
            "declares": bool((info.get(state.get("game") or "") or {}).get("declare")),
            "declares_one": bool((info.get(state.get("game") or "") or {}).get("declare_one")),
            "chips_game": bool((info.get(state.get("game") or "") or {}).get("chips")),
            "over_links": over_links,
            "commitment_words": "Dice commitment" if kind == "dice" else "Spin commitment"
            if kind else "Commitment"}


def _name(state: dict[str, Any], seat: Any) -> str:
    players = state.get("players") or []
    return players[seat]["name"] if isinstance(seat, int) and 0 <= seat < len(players) else ""


def winners_text(state: dict[str, Any]) -> str:
    """'Ann wins', 'Ann and Ben win', 'Ann, Ben and Cy win': the finished game's headline
    (status.js says the same)."""
    names = [_name(state, s) for s in state.get("winners") or []]
    if not names:
        return ""
    return f"{listing(names)} win{'s' * (len(names) == 1)}"


def roll_text(state: dict[str, Any]) -> str:
    """'Last throw: Ann 3 and 4', or in Domino Rex's play 'Last uncovered: 4' (status.js says
    the same)."""
    roll, uncovered = state.get("last_roll"), uncovered_text(state)
    if uncovered:
        return uncovered
    if not roll:
        return ""
    kind = (state.get("randomizer") or {}).get("kind") or \
        (game_moves().get(state.get("game") or "") or {}).get("lead_kind")   # Domino Rex's lead
    what = "throw" if kind == "dice" else "spin" if kind else "roll"
    return f"Last {what}: {_name(state, roll.get('seat'))} {roll.get('text', '')}".replace("  ", " ")


def games_page(endpoint: str) -> tuple[list[GameRecord], dict[str, str | None]]:
    """One page of games, newest first, with the links to the older and newest pages."""
    before, offset = page_start(PAGE)
    records = parlour().session.store.games_page(before=before, offset=offset,
                                                 limit=PAGE + 1)
    more, records = len(records) > PAGE, records[:PAGE]
    links = {"older": url_for(endpoint, before=records[-1].id) if more else None,
             "newest": url_for(endpoint) if before is not None or offset else None}
    return records, links


@bp.get("/boards/<game>.toml")
def shipped_board(game: str) -> Response:
    """A game's shipped board data, to start a table's own file from (the new-game form
    links it)."""
    if game not in GAMES:
        raise ApiError(404, f"no game called {game[:40]!r} (games: {', '.join(GAMES)})")
    text = shipped_board_text(game)
    if text is None:
        raise ApiError(404, f"{GAMES[game].title} has no board data: nothing on its board "
                            "can be changed by a file")
    return Response(text, mimetype="text/plain", headers={
        "Content-Disposition": f'inline; filename="{game}.toml"'})


@bp.get("/last-game")
def last_game_line() -> Response:
    """The status page's "The last game: ..." line as it is now (status.js asks for it at each
    new state without a game in play): a page left open must not keep an older one."""
    html = render_template("parts/last_game.html",
                           last_game=last_game(parlour().session.snapshot()))
    return Response(html, mimetype="text/html", headers={"Cache-Control": "no-store"})


@bp.get("/history")
def history() -> str:
    records, links = games_page("pages.history")
    kept = parlour().figures.of(records)
    rows = [history_row(record, kept.get(record.id)) for record in records]
    return render_template("history.html", games=rows, links=links,
                           totals=parlour().figures.player_totals())


@bp.get("/history/<int:game_id>")
def history_game(game_id: int) -> str:
    store = parlour().session.store
    record = store.game(game_id) if game_id <= MAX_ID else None
    if record is None:
        abort(404)
    told = parlour().figures.replayed(record)
    return render_template("game.html", game=summary(record), record=record, told=told,
                           lines=log_lines(game_id, told.words),
                           buttons=buttons(store, record), bg_stats=_bg_stats(store, record),
                           pi=(store.first_event(record.id) or {}).get("pi") or [],
                           when=utc_text(record.created_at), created=record.created_at,
                           length=duration(record.created_at, record.ended_at))


def log_lines(game_id: int, words: list[str]) -> dict[str, Any]:
    """One page of a game's log (?page=<n>, from 1; a page past the end shows the last, as
    an undo may have shortened the log since it was linked): its first number, its lines and
    the links to the pages before and after it."""
    pages = max(1, -(-len(words) // LOG_PAGE))
    page = 1
    if "page" in request.args:
        page = plain_number(request.args["page"], "page", digits=9)
        if page < 1:
            raise ApiError(400, "page: pages are numbered from 1")
    page = min(page, pages)
    start = (page - 1) * LOG_PAGE

    def link(n: int) -> str:
        return url_for("pages.history_game", game_id=game_id, page=n)
    shown = words[start:start + LOG_PAGE]
    return {"start": start + 1, "end": start + len(shown), "words": shown, "page": page,
            "pages": pages, "total": len(words),
            "earlier": link(page - 1) if page > 1 else None,
            "later": link(page + 1) if page < pages else None,
            "first": link(1) if page > 2 else None,
            "last": link(pages) if page < pages - 1 else None}


def _bg_stats(store, record) -> str | None:
    """The BG Stats push link of a finished game that still replays."""
    if record is None or not record.over:
        return None
    try:
        return bg_stats_link(bg_stats_play(parlour().figures.record(record),
                                           table=parlour().table_id))
    except ParlourError:
        return None


@bp.get("/fairness")
def fairness() -> str:
    figures = parlour().figures
    records, links = games_page("pages.fairness")
    kept = figures.of(records)
    games = []
    for record in records:
        mine = kept.get(record.id, {})
        games.append({"id": record.id, "title": title(record.game), "status": record.status,
                      "when": utc_text(record.created_at), "created": record.created_at,
                      "commitment": record.commitment,
                      "seed": record.seed if record.over else None,
                      "verification": mine.get("checked"), "rolls": mine.get("rolls", 0)})
    counts, uncounted = figures.face_totals()
    kinds = [{"key": key, "title": randomizer_title(key), "fit": goodness_of_fit(row),
              "bars": _bars(row)}
             for key, row in sorted(counts.items())]
    return render_template("fairness.html", kinds=kinds, games=games, links=links,
                           uncounted=uncounted)


def _bars(counts: list[int]) -> list[dict[str, Any]]:
    """Bar heights (0..100) for a histogram, with the fair expectation as a line."""
    top = max(max(counts), 1)
    expected = sum(counts) / len(counts)
    scale = max(top, expected)
    return [{"face": face, "count": n, "height": round(100 * n / scale, 1),
             "expected": round(100 * expected / scale, 1)}
            for face, n in enumerate(counts, start=1)]
