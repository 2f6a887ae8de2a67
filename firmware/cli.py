"""The `parlour` command: run the table, list games, replay and verify logs, export the store.

Bad input is one clear line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path
from typing import Sequence

from companion.errors import ParlourError
from companion.words import counted, listing

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + message
        raise _Usage(f"{message} (see '{self.prog} --help')")   # the command's own options


class _Usage(Exception):
    pass


def port_number(text: str) -> int:
    """A TCP port given on the command line, checked as the config file's `port` is."""
    from firmware.config import port_problem
    try:
        port = int(text)
    except ValueError:
        port = 0
    if port_problem(port):
        raise argparse.ArgumentTypeError(f"expected a port number 1-65535, got {text!r}")
    return port


def table_url(text: str) -> str:
    """The address the join card prints (--url): one a phone's camera opens, http(s) and a
    host; "192.168.1.20:8080" or "not a url" made a code no phone opens as the table."""
    from urllib.parse import urlsplit
    try:
        parts = urlsplit(text)
        parts.port                                # a port that is not a number: ValueError
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname \
            or any(c.isspace() or not c.isprintable() for c in text):
        raise argparse.ArgumentTypeError(
            f"expected the table's address as a phone opens it, such as "
            f"http://192.168.1.20:8080/, got {text!r}")
    return text


# A game stops at 10,000 events of a few hundred bytes: no log of a game comes near this, and
# a file past it (a wrong file, /dev/zero) is refused before it fills a Zero 2 W's memory.
MAX_LOG_BYTES = 16 * 1024 * 1024


def _read_lines(path: str) -> list[str]:
    """The log's lines; a line that is not UTF-8 is refused by its number (a file's errors
    name the line). A byte-order mark before the first line (as some Windows editors
    save UTF-8) is not part of it, as in a request's body."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_LOG_BYTES + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(MAX_LOG_BYTES + 1)
    except FileNotFoundError:
        raise ParlourError("no such file") from None
    except OSError as err:
        raise ParlourError(f"cannot read it ({err.strerror})") from None
    if len(data) > MAX_LOG_BYTES:
        raise ParlourError(f"over {MAX_LOG_BYTES // 2**20} MiB: longer than any game's log "
                           f"(a game stops at 10,000 events)")
    data = data.removeprefix(b"\xef\xbb\xbf")
    lines = []
    for number, raw in enumerate(data.splitlines(), start=1):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as err:
            raise ParlourError(f"line {number}: not UTF-8 text (byte {err.start + 1} of the "
                               f"line)") from None
    return lines


def cmd_games(args: argparse.Namespace) -> int:
    from companion.games import GAMES
    rows = [rulebook.describe() for rulebook in GAMES.values()]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'id':<16} {'title':<20} {'players':<8} {'randomizer':<20} refereeing")
    for row in rows:
        low, high = row["players"]
        players = str(low) if low == high else f"{low}-{high}"
        print(f"{row['id']:<16} {row['title']:<20} {players:<8} {row['randomizer']:<20} "
              f"{row['refereeing']}")
    return 0


def _standings(snap: dict, rulebook) -> list[str]:
    """The players as the phone's table shows them: by their seat button (from 1; the Pi
    presses none), with a square where the game keeps squares (0 is Cats and Dogs' Start),
    chips where any are held, a score where any is counted, then the pool under the game's
    own word for it."""
    players = snap["players"]
    chips = bool(snap["pool"]) or any(p["chips"] for p in players)
    scores = any(p["score"] for p in players)
    lines = []
    for p in players:
        who = [f"the Pi, level {p['pi']}" if p.get("pi") else f"button {p['button']}"] + \
            ([p["role"]] if p.get("role") else [])
        parts = []
        if rulebook.on_squares:
            colour = rulebook.square_colours.get(p.get("role") or "")
            parts.append("off the board" if p["position"] is None else
                         "on Start" if p["position"] == 0 else
                         f"on {colour} {p['position']}" if colour else f"on {p['position']}")
        if chips:
            parts.append(counted(p["chips"], "chip"))
        if scores:
            parts.append(f"score {p['score']}")
        if p.get("in_goal") is not None:
            parts.append(f"{p['in_goal']} in Goal")              # Gantlope's places
        if p["lost_turns"] and snap["phase"] != "over":
            parts.append(f"loses {counted(p['lost_turns'], 'turn')}")
        lines.append(f"  {p['name']} ({', '.join(who)})" + (": " + ", ".join(parts)
                                                              if parts else ""))
    if chips:
        lines.append(f"  {rulebook.pool_label.lower()}: {snap['pool']}")
    if snap["phase"] == "over":
        names = listing([snap["players"][s]["name"] for s in snap["winners"]])
        lines.append(f"  over: {names} {'wins' if len(snap['winners']) == 1 else 'win'}")
    else:
        lines.append(f"  next: {snap['prompt']}")
    return lines


REPLAY_ODDS_SEED = 0        # the playouts of `replay --json`: the same figures every time


def cmd_replay(args: argparse.Namespace) -> int:
    import random
    from companion.chances.odds import has_odds, odds
    from companion.replay import replay_lines
    path = args.log
    try:
        table = replay_lines(_read_lines(path))
    except ParlourError as err:
        raise ParlourError(f"{path}: {err}") from None
    snap = table.to_json()
    if args.json:
        if has_odds(table.rulebook):      # as the table's state carries them
            snap["odds"] = odds(table.rulebook, table.state, random.Random(REPLAY_ODDS_SEED))
        print(json.dumps(snap, indent=2, ensure_ascii=False))
    else:
        print("\n".join(snap["log"]))
        print()
        print("\n".join(_standings(snap, table.rulebook)))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from companion.replay import read_log, replay
    from companion.randomness.stats import verify_rolls
    path = args.log
    try:
        events = read_log(_read_lines(path))
        result = verify_rolls(events)   # first: a roll off the seed is where a log was changed
        if result.status != "mismatch":
            replay(events)              # a log that is not a game is bad input (exit 2)
    except ParlourError as err:
        raise ParlourError(f"{path}: {err}") from None
    print(result.message)
    return 0 if result.ok else 1


def cmd_export(args: argparse.Namespace) -> int:
    from companion.session import export_events, log_line
    from companion.record.store import Store
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else \
        _default_data_dir(args.config)
    db = data_dir / "parlour.db"
    if not db.exists():
        raise ParlourError(f"no store at {db} (use --data-dir)")
    store = Store.read_only(db)          # a backup kept before an upgrade stays as it was
    try:
        records = store.games()
        if args.game is not None:
            records = [r for r in records if r.id == args.game]
            if not records:
                raise ParlourError(f"no game {args.game} in {db}")
        if args.out == "-":                        # one game's log to standard output
            if args.game is None:                  # one game or many: the same answer
                raise ParlourError("--out - writes one game's log to standard output: name it "
                                   "with --game N (--out takes a folder for all of them)")
            print("\n".join(log_line(e) for e in export_events(store, records[0].id)))
            return 0
        if not records:
            print(f"parlour: no games in {db}: nothing written", file=sys.stderr)
            return 0
        out = Path(args.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ParlourError(f"{out}: cannot write the logs there ({err.strerror}): "
                               "--out takes a folder") from None
        for record in records:
            target = out / f"game-{record.id:04d}-{record.game}.jsonl"
            lines = [log_line(e) for e in export_events(store, record.id)]
            try:
                target.write_text("\n".join(lines) + "\n", encoding="utf-8")
            except OSError as err:
                raise ParlourError(f"{target}: cannot write it ({err.strerror})") from None
            print(target)
    finally:
        store.close()
    return 0


def _default_data_dir(config_path: str | None) -> Path:
    from firmware.config import load_config
    return Path(load_config(config_path).data_dir)


def cmd_card(args: argparse.Namespace) -> int:
    from firmware.card import card_html
    from firmware.config import load_config
    from firmware.network.address import is_loopback
    from firmware.runner import lan_address, table_address
    from web.access.keptfile import write_private
    config = load_config(args.config)
    port = config.port if args.port is None else args.port
    hotspot = _card_hotspot(args, config, port) if args.hotspot else None
    address = lan_address(config.host)
    if not args.url and is_loopback(address):
        raise ParlourError(       # its code would open the phone that scans it
            f"this machine has no network address now (only {address}), so the card's "
            f"address would open the phone itself: give the table's home address with --url "
            f"(http://<its address on the home Wi-Fi>:{port}/), or run it while the box is on "
            "the home Wi-Fi")
    url = args.url or table_address(address, port)
    page = card_html(url, config.wifi, hotspot=hotspot)
    if args.out == "-":
        sys.stdout.write(page)
    else:
        target = Path(args.out)             # it may hold Wi-Fi passwords: the writer's alone
        if target.exists() and not target.is_file():     # /dev/null: its mode stays its own
            raise ParlourError(f"{args.out}: not a file (--out - writes to standard output)")
        try:
            write_private(target, page.encode())     # beside it, then moved over it whole
        except OSError as err:
            raise ParlourError(f"{args.out}: cannot write it ({err.strerror})") from None
    said = (f"{'standard output' if args.out == '-' else args.out}: the join card for {url}"
            + (f" and the Wi-Fi {config.wifi.ssid}" if config.wifi.ssid else
               " (no Wi-Fi code: set [wifi] ssid in the config)")
            + (f", and the hotspot {hotspot[0].ssid}" if hotspot else "")
            + ("; save it as an .html file, open it and print it" if args.out == "-"
               else "; open it and print it"))
    print(said, file=sys.stderr if args.out == "-" else sys.stdout)   # stdout is the page
    return 0


def _card_hotspot(args: argparse.Namespace, config, port: int):
    """(its Wi-Fi, its address) for the box's hotspot, from the table's data directory."""
    from firmware.config import WiFi
    from firmware.datadir.keys import HOTSPOT_FILE, TABLE_ID_FILE
    from firmware.network.hotspot import table_hotspot
    from firmware.network.nmcli import HOTSPOT_ADDRESS
    if config.hotspot.mode == "off":
        raise ParlourError('--hotspot: the config turns the hotspot off ([hotspot] mode = "off")')
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else Path(config.data_dir)
    as_service = ("on the box run it as the service: sudo -u parlour /opt/parlour/venv/bin/"
                  "parlour card --hotspot --data-dir /var/lib/parlour --out - > parlour-card.html "
                  "(under umask 077: it holds the Wi-Fi passwords)")
    try:
        if not all((data_dir / kept).is_file() for kept in (TABLE_ID_FILE, HOTSPOT_FILE)):
            raise ParlourError(        # a made-up password would print a card that joins nothing
                f"{data_dir}: no table's hotspot is kept there (the box makes it when it "
                f"first starts on a Pi); {as_service}")
        for kept in (TABLE_ID_FILE, HOTSPOT_FILE):     # readable by this user, or said so:
            (data_dir / kept).read_bytes()            # never "move it aside" (a new table)
        settings = table_hotspot(config.hotspot, data_dir)
    except OSError as err:
        raise ParlourError(f"{data_dir}: cannot read the hotspot's password there "
                           f"({err.strerror}); {as_service}") from None
    return WiFi(settings.ssid, settings.password), f"http://{HOTSPOT_ADDRESS}:{port}/"


def log_to_stderr() -> None:
    """`parlour run` and `parlour club` log at INFO to stderr, one plain line each (journald
    adds the time). Nothing changes where logging is already set up (a test's capture)."""
    if logging.getLogger().handlers:
        return
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    # waitress says at INFO each page that closes its live stream ("Client disconnected while
    # serving /api/events"): read as trouble by a new user watching `make run`, it is none
    logging.getLogger("waitress").setLevel(logging.WARNING)


def cmd_run(args: argparse.Namespace) -> int:
    from firmware.runner import run
    log_to_stderr()
    return run(sim=True if args.sim else None, host=args.host, port=args.port,
               data_dir=args.data_dir, config_path=args.config, pin=args.pin,
               open_panel=args.open_panel)


def cmd_club(args: argparse.Namespace) -> int:
    from firmware.club.league_server import run_club
    from firmware.config import load_config
    config = load_config(args.config)
    if not config.club.on:
        raise ParlourError("parlour club needs a [club] section naming the broker (host, port, "
                           "tls, username, password) in its config file: see "
                           "firmware/parlour.example.toml")
    log_to_stderr()
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else config.data_dir
    return run_club(config.club, data_dir, host=args.host or config.host,
                    port=args.port if args.port is not None else config.club_port)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="parlour", description="A table companion for vintage board games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="run the companion (simulated hardware where no Pi is found)")
    run.add_argument("--sim", action="store_true", help="simulated pins and display")
    run.add_argument("--host", help="web address to listen on (default from config: 0.0.0.0, "
                     "every address, IPv6 too)")
    run.add_argument("--port", type=port_number, help="web port (default from config: 8080)")
    run.add_argument("--data-dir", help="where the game store lives")
    run.add_argument("--config", help="a TOML config file")
    run.add_argument("--pin", help="the table PIN for control from a phone")
    run.add_argument("--open-panel", action="store_true",
                     help="serve the simulated /device panel to other machines (with the PIN)")
    run.set_defaults(func=cmd_run)

    games = sub.add_parser("games", help="list the games the companion knows")
    games.add_argument("--json", action="store_true", help="as JSON")
    games.set_defaults(func=cmd_games)

    replay = sub.add_parser("replay", help="replay a game log (JSON Lines; - for stdin)")
    replay.add_argument("log", help="the game's log (JSON Lines), or - for standard input")
    replay.add_argument("--json", action="store_true", help="print the final state JSON")
    replay.set_defaults(func=cmd_replay)

    verify = sub.add_parser("verify", help="check every roll of a log against its revealed seed "
                                           "(- for stdin)")
    verify.add_argument("log", help="the game's log (JSON Lines), or - for standard input")
    verify.set_defaults(func=cmd_verify)

    export = sub.add_parser("export", help="write stored games as JSON Lines logs")
    export.add_argument("--data-dir", help="where the game store lives")
    export.add_argument("--config", help="a TOML config file (for its data directory)")
    export.add_argument("--game", type=int, help="only this game id")
    export.add_argument("--out", default=".",
                        help="folder to write into (default: here); - with --game: stdout")
    export.set_defaults(func=cmd_export)

    card = sub.add_parser("card", help="write the printable join card (Wi-Fi and address codes)")
    card.add_argument("--config", help="a TOML config file (for [wifi] and the port)")
    card.add_argument("--url", type=table_url,
                      help="the address to print (default: this machine's, as on the OLED)")
    card.add_argument("--port", type=port_number,
                      help="the port the table runs on (default from config: 8080), as "
                           "`parlour run --port` was given")
    card.add_argument("--out", default="parlour-card.html", help="the HTML file (- for stdout)")
    card.add_argument("--hotspot", action="store_true",
                      help="add the box's own Wi-Fi and its address (a box away from home)")
    card.add_argument("--data-dir", help="the table's data directory (the hotspot's password)")
    card.set_defaults(func=cmd_card)

    club = sub.add_parser("club", help="run the club: one league over every table on the "
                                       "club's MQTT broker, and its page")
    club.add_argument("--config", help="a TOML config file with a [club] section (the broker)")
    club.add_argument("--data-dir", help="where the club's store (club.db) lives")
    club.add_argument("--host", help="web address to listen on (default from config: "
                      "0.0.0.0, every address, IPv6 too)")
    club.add_argument("--port", type=port_number,
                      help="web port (default: the config's [web] port, else 8081)")
    club.set_defaults(func=cmd_club)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):      # a lone surrogate in a log prints as \ud800
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except _Usage as err:
        print(f"parlour: {err}", file=sys.stderr)
    except ParlourError as err:
        print(f"parlour: {err}", file=sys.stderr)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:          # `parlour replay LOG --json | head`: the reader has gone
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())    # so the flush at exit cannot fail again
        return 141                               # as a shell reports SIGPIPE (128 + 13)
    return EXIT_BAD_INPUT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
