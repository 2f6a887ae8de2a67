"""The `parlour` command: games, replay, verify, export; bad input is one line and exit 2."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import GAMES
from firmware.cli import main

EXAMPLES = Path(__file__).resolve().parents[3] / "companion" / "examples"
KAT = EXAMPLES / "kat-en-muis.jsonl"


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_games_lists_every_registered_game(capsys):
    code, out, _ = run_cli(capsys, "games", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["id"] for r in rows] == list(GAMES)
    assert all({"title", "players", "randomizer", "refereeing"} <= set(r) for r in rows)


def test_cli_games_table_names_each_game(capsys):
    code, out, _ = run_cli(capsys, "games")
    assert code == 0
    for game_id, rulebook in GAMES.items():
        assert game_id in out and rulebook.title in out


def test_cli_replay_prints_the_game_in_words(capsys):
    code, out, _ = run_cli(capsys, "replay", str(KAT))
    assert code == 0
    assert "is Cat and throws first" in out
    assert "over:" in out


def test_cli_replay_json_is_the_state(capsys):
    code, out, _ = run_cli(capsys, "replay", str(KAT), "--json")
    state = json.loads(out)
    assert code == 0
    assert state["game"] == "kat-en-muis" and state["phase"] == "over"
    assert sum(p["chips"] for p in state["players"]) + state["pool"] == 40
    assert state["winners"] and state["turn"] is None and state["awaiting"] is None


@pytest.mark.parametrize("bad_line, why", [
    ('{"type": "roll", "values": [3, 9]}', "9 is off"),
    ('{"type": "roll", "values": [3, 4]', "not valid JSON"),
    ('{"type": "jump"}', "unknown event type"),
    ('{"type": "press", "seat": 1}', "no seat-button action"),
])
def test_cli_replay_bad_line_names_its_number(capsys, tmp_path, bad_line, why):
    lines = KAT.read_text().splitlines()[:4] + [bad_line]
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n")
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "line 5" in err and why in err


def test_cli_missing_file_is_one_line(capsys, tmp_path):
    code, _, err = run_cli(capsys, "replay", str(tmp_path / "nope.jsonl"))
    assert code == 2 and err.strip().endswith("no such file") and err.count("\n") == 1


def test_cli_unknown_command_is_one_line(capsys):
    code, _, err = run_cli(capsys, "dance")
    assert code == 2 and err.count("\n") == 1 and "invalid choice" in err


def test_cli_a_commands_bad_option_points_at_that_commands_help(capsys):
    """`parlour export --game abc` said "see 'parlour --help'", which does not list export's
    options: the command's own help is named."""
    code, _, err = run_cli(capsys, "export", "--game", "abc")
    assert code == 2 and err.count("\n") == 1 and err.rstrip().endswith(
        "(see 'parlour export --help')")
    code, _, err = run_cli(capsys, "dance")
    assert err.rstrip().endswith("(see 'parlour --help')")


def test_cli_verify_accepts_an_honest_log(capsys):
    code, out, _ = run_cli(capsys, "verify", str(KAT))
    assert code == 0 and out.strip()


def test_cli_verify_catches_a_changed_roll(capsys, tmp_path):
    lines = KAT.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"roll"' in line and i > 3)
    event = json.loads(lines[index])
    event["values"] = [v % 6 + 1 for v in event["values"]]
    lines[index] = json.dumps(event)
    log = tmp_path / "tampered.jsonl"
    log.write_text("\n".join(lines) + "\n")
    code, out, _ = run_cli(capsys, "verify", str(log))
    assert code == 1 and f"line {index + 1}" in out


@pytest.mark.parametrize("change", ["copied", "cut"])
def test_cli_verify_names_the_roll_where_a_log_was_changed(capsys, tmp_path, change):
    """A roll line copied (or cut) made `verify` say "line 36: the game is over: no more
    throws", a rule broken later: the first roll off the committed seed is where it changed."""
    lines = KAT.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"roll"' in line and i > 20)
    changed = lines[:index + 1] + lines[index:] if change == "copied" else \
        lines[:index] + lines[index + 1:]
    log = tmp_path / "changed.jsonl"
    log.write_text("\n".join(changed) + "\n")
    code, out, _ = run_cli(capsys, "verify", str(log))
    where = index + 2 if change == "copied" else index + 1
    assert code == 1 and out.startswith(f"line {where}: roll "), out
    assert "the log was changed there" in out


@pytest.mark.parametrize("command, key, wrong", [
    ("replay", "type", lambda kind: [kind]), ("replay", "type", lambda kind: {"type": kind}),
    ("verify", "values", lambda values: []),
])
def test_cli_a_line_of_the_wrong_shape_is_refused_by_its_number_not_a_traceback(
        capsys, tmp_path, command, key, wrong):
    """A type that was a list gave "TypeError: unhashable type" and exit 1 (verify's "the rolls
    do not match"); a roll of no values, an IndexError in verify's words."""
    lines = KAT.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"roll"' in line and i > 10)
    event = json.loads(lines[index])
    event[key] = wrong(event[key])
    lines[index] = json.dumps(event)
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join(lines) + "\n")
    code, out, err = run_cli(capsys, command, str(log))
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"line {index + 1}: " in err and "Traceback" not in err


def test_cli_verify_a_finished_games_log_cut_short_at_its_end_does_not_pass(capsys, tmp_path):
    """Its last lines cut off, a finished game's log (it reveals the seed) still had every
    roll match and passed, so a log edited to hide how the game ended verified."""
    lines = KAT.read_text().splitlines()
    log = tmp_path / "cut.jsonl"
    log.write_text("\n".join(lines[:-3]) + "\n")
    code, out, _ = run_cli(capsys, "verify", str(log))
    assert code == 1 and f"stops at line {len(lines) - 3} before the game is over" in out
    assert "lines are missing from its end" in out
    for kept, said in ((2, "Its one roll matches"), (1, "No roll was made, but")):
        log.write_text("\n".join(lines[:kept]) + "\n")               # "The 1 roll match"
        code, out, _ = run_cli(capsys, "verify", str(log))
        assert code == 1 and out.startswith(said), out


def test_cli_verify_without_seed_says_not_revealed(capsys, tmp_path):
    first = json.loads(KAT.read_text().splitlines()[0])
    first.pop("seed")
    log = tmp_path / "open.jsonl"
    log.write_text(json.dumps(first) + "\n")
    code, out, _ = run_cli(capsys, "verify", str(log))
    assert code == 1 and "still secret" in out


def test_cli_export_writes_replayable_logs(capsys, tmp_path):
    from companion.session import Session
    from companion.record.store import Store
    data = tmp_path / "data"
    store = Store(data / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32))
    session.new_game("cats-and-dogs", ["Ann", "Ben"])
    for _ in range(5):
        session.roll()
    store.close()
    code, out, _ = run_cli(capsys, "export", "--data-dir", str(data), "--out", str(tmp_path))
    written = Path(out.strip())
    assert code == 0 and written.exists()
    code, out, _ = run_cli(capsys, "replay", str(written), "--json")
    assert code == 0 and json.loads(out)["rolls"] == 5


def test_cli_export_leaves_the_store_it_reads_as_it_was(capsys, tmp_path, monkeypatch):
    """Exported, a copy kept before an upgrade (an older store: version 0, no WAL, 0644) was
    switched to WAL, stamped with this version and made 0600: after it, the older Parlour
    the copy was kept for no longer opens it ("Going back")."""
    import hashlib
    import sqlite3
    from companion.record.store import Store
    from companion.session import Session
    data = tmp_path / "data"
    store = Store(data / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32))
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    session.roll()
    store.close()
    db = data / "parlour.db"
    with sqlite3.connect(db) as older:                       # as an older Parlour left it
        older.execute("PRAGMA journal_mode=DELETE")
        older.execute("PRAGMA user_version=0")
    older.close()
    db.chmod(0o644)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    code, out, _ = run_cli(capsys, "export", "--data-dir", str(data), "--out",
                           str(tmp_path / "logs"))
    assert code == 0 and Path(out.strip()).read_text().count("\n") == 2     # its two events
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert db.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in data.iterdir()) == ["parlour.db"]      # no -wal, no -shm
    current = sqlite3.connect(db)                 # a store as this Parlour keeps it: WAL
    current.execute("PRAGMA journal_mode=WAL")
    current.close()
    real = Store._reading

    def no_index_can_be_made(self, uri):       # a folder this user may not write (not root)
        if "immutable=1" not in uri:
            raise sqlite3.OperationalError("unable to open database file")
        return real(self, uri)
    monkeypatch.setattr(Store, "_reading", no_index_can_be_made)
    code, out, _ = run_cli(capsys, "export", "--data-dir", str(data), "--game", "1", "--out", "-")
    monkeypatch.undo()
    assert code == 0 and out.count("\n") == 2
    newer = sqlite3.connect(db)
    newer.execute("PRAGMA user_version=99")
    newer.commit()
    newer.close()
    code, _, err = run_cli(capsys, "export", "--data-dir", str(data), "--out",
                           str(tmp_path / "logs"))
    assert code == 2 and "written by a newer Parlour (store version 99" in err


def test_cli_export_of_a_store_left_mid_write_is_refused_not_read_half_done(capsys, tmp_path):
    """An older store (no WAL) left in the middle of a write, its rollback journal beside it:
    read-only, the fallback for a WAL store exported the write that was never committed (10 of
    26 events, each changed) as the game."""
    import subprocess
    import sys
    from companion.record.store import Store
    from companion.session import Session
    data = tmp_path / "data"
    store = Store(data / "parlour.db")
    Session(store, new_seed=lambda: bytes(32)).new_game("kat-en-muis", ["Ann", "Ben"])
    store.close()
    db = data / "parlour.db"
    cut = f"""
import os, sqlite3
db = sqlite3.connect({str(db)!r}, isolation_level=None)
db.execute("PRAGMA journal_mode=DELETE")
db.execute("PRAGMA cache_size=2")
db.execute("BEGIN")
db.execute("UPDATE events SET body = '{{\\"type\\": \\"next\\", \\"note\\": \\"UNCOMMITTED\\"}}'")
db.execute("CREATE TABLE filler(x)")
for _ in range(3000):                      # spilled to the file: the journal holds the old
    db.execute("INSERT INTO filler VALUES (?)", ("x" * 500,))
os._exit(0)                                # the power cut
"""
    subprocess.run([sys.executable, "-c", cut], check=True)
    assert (data / "parlour.db-journal").exists()
    code, out, err = run_cli(capsys, "export", "--data-dir", str(data), "--game", "1",
                             "--out", "-")
    assert code == 2 and "UNCOMMITTED" not in out
    assert "was left in the middle of a write (parlour.db-journal beside it)" in err
    assert (data / "parlour.db-journal").exists()                  # read, not rolled back


def test_cli_export_to_standard_output_and_of_an_empty_store(capsys, tmp_path, monkeypatch):
    """`--out -` made a folder named "-" (for `card` and `replay`, - is standard output), and
    an empty store printed nothing at all: one game's log goes to standard output, and an
    empty store says it wrote nothing."""
    from companion.session import Session
    from companion.record.store import Store
    data = tmp_path / "data"
    store = Store(data / "parlour.db")
    store.close()
    code, out, err = run_cli(capsys, "export", "--data-dir", str(data), "--out",
                             str(tmp_path / "logs"))
    assert code == 0 and out == "" and "no games in" in err and "nothing written" in err
    store = Store(data / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32))
    session.new_game("cats-and-dogs", ["Ann", "Ben"])
    session.roll()
    store.close()
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "export", "--data-dir", str(data), "--out", "-")
    assert code == 2 and "--game N" in err and not (tmp_path / "-").exists()   # one game
    store = Store(data / "parlour.db")       # too: a script that worked with one broke at two
    Session(store, new_seed=lambda: bytes(32)).new_game("cats-and-dogs", ["Ann", "Ben"])
    store.close()
    code, out, err = run_cli(capsys, "export", "--data-dir", str(data), "--out", "-")
    assert code == 2 and "--game N" in err and not (tmp_path / "-").exists()
    code, out, _ = run_cli(capsys, "export", "--data-dir", str(data), "--out", "-", "--game", "1")
    assert code == 0 and [json.loads(line)["type"] for line in out.splitlines()] == [
        "new_game", "roll"]


@pytest.mark.parametrize("example, lines, exact", [
    ("kat-en-muis.jsonl", 8, True), ("cats-and-dogs.jsonl", 12, False),
    ("fox-and-geese.jsonl", 6, None)])
def test_cli_replay_json_carries_the_chances_where_the_companion_knows_them(
        capsys, tmp_path, example, lines, exact):
    """`replay --json` carries the state as the table does, odds included where the
    companion knows the chances (exact, or from seeded playouts: the same every run)."""
    log = tmp_path / example
    log.write_text("".join((EXAMPLES / example).read_text().splitlines(True)[:lines]))
    code, out, _ = run_cli(capsys, "replay", str(log), "--json")
    state = json.loads(out)
    assert code == 0 and state["phase"] != "over"
    if exact is None:
        assert "odds" not in state
        return
    assert state["odds"]["exact"] is exact and abs(sum(state["odds"]["win"]) - 1) < 1e-9
    assert len(state["odds"]["win"]) == len(state["players"])
    assert (state["odds"]["margin"] == 0) is exact
    _, again, _ = run_cli(capsys, "replay", str(log), "--json")
    assert json.loads(again)["odds"] == state["odds"]


def test_cli_replay_names_players_by_their_button_and_the_pool_by_the_games_word(
        capsys, tmp_path):
    """Everything players read numbers them from 1, as the box does ("button 2"), and shows
    what the phone's table shows: Kat en Muis's stakes are "both pots" (K1, K8) and a square
    is in the colour of the player's own numbering (K1: the Mouse counts black); squares only
    where the game keeps them, chips and scores only where some are held; the Pi by its level
    (it presses no button)."""
    code, out, _ = run_cli(capsys, "replay", str(KAT))
    standings = out.split("\n\n")[-1]
    assert code == 0 and "seat 0" not in standings
    assert re.search(r"^  Ann \(button 1, mouse\): on black \d+, \d+ chips$", standings, re.M)
    assert re.search(r"^  both pots: \d+$", standings, re.M) and "pool" not in standings
    code, out, _ = run_cli(capsys, "replay", str(EXAMPLES / "fox-and-geese.jsonl"))
    standings = out.split("\n\n")[-1]
    assert re.search(r"^  Ann \(button 1, fox\)$", standings, re.M)
    assert re.search(r"^  Pi \(the Pi, level \w+, geese\)$", standings, re.M)
    assert "chips" not in standings and "pool" not in standings and "board" not in standings
    start = tmp_path / "cats-and-dogs.jsonl"                # the first throw: all on Start
    start.write_text("".join((EXAMPLES / "cats-and-dogs.jsonl").read_text().splitlines(True)[:2]))
    code, out, _ = run_cli(capsys, "replay", str(start))
    assert re.search(r"^  Ann \(button 1\): on Start$", out.split("\n\n")[-1], re.M)


def test_cli_replay_standings_say_what_history_says(capsys, tmp_path):
    """`replay` listed Gantlope's players with no figure (history: "4 in Goal"), said "loses 1
    turn(s)" of a game over, and "over: Ben, Cy, Dora win" (history: "Ben, Cy and Dora")."""
    code, out, _ = run_cli(capsys, "replay", str(EXAMPLES / "gantlope.jsonl"))
    standings = out.split("\n\n")[-1]
    assert code == 0 and re.search(r"^  Ann \(button 1\): \d+ in Goal$", standings, re.M)
    log = tmp_path / "three.jsonl"
    log.write_text("\n".join(json.dumps(e) for e in [
        {"type": "new_game", "game": "free-play", "players": ["Ben", "Cy", "Dora"],
         "options": {"randomizer": {"kind": "none"}, "chips": 1}},
        {"type": "declare", "winners": [0, 1, 2]}]) + "\n")
    code, out, _ = run_cli(capsys, "replay", str(log))
    standings = out.split("\n\n")[-1]
    assert code == 0 and standings.rstrip().endswith("over: Ben, Cy and Dora win"), standings
    assert "1 chip" in standings and "1 chips" not in standings and "turn(s)" not in standings


@pytest.mark.parametrize("where", ["a file", "inside a file", "a folder in the way"])
def test_cli_export_to_a_place_it_cannot_write_says_so_in_one_line(capsys, tmp_path, where):
    from companion.session import Session
    from companion.record.store import Store
    data = tmp_path / "data"
    store = Store(data / "parlour.db")
    Session(store, new_seed=lambda: bytes(32)).new_game("cats-and-dogs", ["Ann", "Ben"])
    store.close()
    taken = tmp_path / "taken.jsonl"
    taken.write_text("kept\n")
    out = {"a file": taken, "inside a file": taken / "logs", "a folder in the way": tmp_path}
    if where == "a folder in the way":
        (tmp_path / "game-0001-cats-and-dogs.jsonl").mkdir()
    code, _, err = run_cli(capsys, "export", "--data-dir", str(data), "--out", str(out[where]))
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "cannot write" in err
    assert taken.read_text() == "kept\n"


def test_cli_replay_a_log_saved_with_a_byte_order_mark_reads_as_without(capsys, tmp_path):
    log = tmp_path / "bom.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + KAT.read_bytes())
    code, out, _ = run_cli(capsys, "replay", str(log), "--json")
    assert code == 0 and json.loads(out)["phase"] == "over"
    log.write_bytes(KAT.read_bytes().replace(b"\n", b"\n\xef\xbb\xbf", 1))   # inside: refused
    code, _, err = run_cli(capsys, "replay", str(log))
    assert code == 2 and "line 2" in err


def test_cli_replay_a_reason_from_a_log_stays_one_line_of_the_game_in_words(capsys, tmp_path):
    """A live table refuses a correction's reason that cannot be shown (X10); a log that holds
    one still replays (an older store may), its line breaks and overrides written as escapes,
    so no forged line appears in the game in words."""
    log = tmp_path / "forged.jsonl"
    log.write_text("\n".join(json.dumps(e) for e in [
        {"type": "new_game", "game": "free-play", "players": ["Ann", "Ben"],
         "options": {"chips": 5, "randomizer": {"kind": "none"}}},
        {"type": "transfer", "from": 0, "to": 1, "amount": 1,
         "reason": "fine\nFAKE: Ben wins\u202e"}]) + "\n")
    code, out, _ = run_cli(capsys, "replay", str(log))
    assert code == 0
    assert not any(line.startswith("FAKE") for line in out.splitlines())
    assert "(correction: fine\\u000aFAKE: Ben wins\\u202e)" in out
    assert all(c.isprintable() for line in out.splitlines() for c in line)


def test_cli_console_script_runs_without_traceback(tmp_path):
    log = tmp_path / "empty.jsonl"
    log.write_text("\n")
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "replay", str(log)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "empty" in proc.stderr


def test_cli_club_without_a_club_section_says_what_it_needs(capsys, tmp_path):
    config = tmp_path / "parlour.toml"
    config.write_text("seats = 2\n")
    code, _, err = run_cli(capsys, "club", "--config", str(config))
    assert code == 2 and "needs a [club] section naming the broker" in err
    assert len(err.strip().splitlines()) == 1


def _unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _club_config(tmp_path) -> Path:
    """A club config naming a broker on a loopback port nothing listens on."""
    broker_port = _unused_port()
    config = tmp_path / "club.toml"
    config.write_text(f'[club]\nhost = "127.0.0.1"\nport = {broker_port}\n')
    return config


def test_cli_club_on_a_port_in_use_says_so_in_one_line(capsys, tmp_path):
    from ports import free_now, held_next
    with socket.socket() as holder, held_next(holder) as port:
        code, _, err = run_cli(capsys, "club", "--config", str(_club_config(tmp_path)),
                               "--data-dir", str(tmp_path / "club"), "--host", "127.0.0.1",
                               "--port", str(port))
    assert code == 2 and f"port {port} is already in use" in err
    suggested = re.search(r"parlour club --port (\d+), or set \[web\] port", err)
    assert suggested and int(suggested[1]) > port + 1, err    # the port after it was taken too
    free_now(int(suggested[1]))
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_club_with_a_data_dir_it_cannot_make_says_so_in_one_line(capsys, tmp_path):
    code, _, err = run_cli(capsys, "club", "--config", str(_club_config(tmp_path)),
                           "--data-dir", "/proc/nope", "--host", "127.0.0.1",
                           "--port", str(_unused_port()))
    assert code == 2 and "/proc/nope: cannot keep the club's store there" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_club_with_a_damaged_store_names_it_and_keeps_it(capsys, tmp_path):
    data = tmp_path / "club"
    data.mkdir()
    damaged = b"not a database, whatever it once was" * 200
    (data / "club.db").write_bytes(damaged)
    code, _, err = run_cli(capsys, "club", "--config", str(_club_config(tmp_path)),
                           "--data-dir", str(data), "--host", "127.0.0.1",
                           "--port", str(_unused_port()))
    assert code == 2 and f"{data / 'club.db'} is damaged" in err and "move it aside" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert (data / "club.db").read_bytes() == damaged          # nothing deleted or changed


@pytest.mark.parametrize("web, argv, port", [
    ("", [], 8081),                                   # beside a table's 8080 on one Pi
    ("[web]\nport = 9000\n", [], 9000),
    ("[web]\nport = 9000\n", ["--port", "9100"], 9100),
    ("", ["--port", "8080"], 8080),
])
def test_cli_club_serves_beside_the_tables_port_unless_told(capsys, tmp_path, monkeypatch,
                                                            web, argv, port):
    import firmware.club.league_server as league_server
    served = {}
    monkeypatch.setattr(league_server, "run_club",
                        lambda club, data_dir, *, host, port: served.update(port=port) or 0)
    config = _club_config(tmp_path)
    config.write_text(config.read_text() + web)
    code, _, _ = run_cli(capsys, "club", "--config", str(config), *argv)
    assert code == 0 and served == {"port": port}


def _stderr_of(tmp_path, *argv: str, until: str, timeout: float = 20.0) -> str:
    """`parlour ARGV` as its own process until its stderr says `until` (or `timeout`), then
    stopped as systemd stops it; its stderr."""
    import signal
    import time

    from simulated_table import parlour_command, quiet_env
    err_file = tmp_path / "stderr.txt"
    with err_file.open("w") as err:
        proc = subprocess.Popen(parlour_command(*argv), env=quiet_env(tmp_path),
                                stdout=subprocess.DEVNULL, stderr=err)
        try:
            deadline = time.monotonic() + timeout
            while until not in err_file.read_text() and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
    return err_file.read_text()


def test_cli_club_says_why_it_cannot_reach_the_broker(tmp_path):
    config = _club_config(tmp_path)
    broker = config.read_text().split("port = ")[1].strip()
    want = f"WARNING parlour.club: club: cannot reach the broker 127.0.0.1:{broker} " \
           "(Connection refused)"
    err = _stderr_of(tmp_path, "club", "--config", str(config), "--data-dir",
                     str(tmp_path / "club"), "--host", "127.0.0.1", "--port",
                     str(_unused_port()), until=want)
    assert want in err, err
    assert err.count("cannot reach the broker") == 1, err       # not once every retry
    assert "Traceback" not in err


def test_cli_run_logs_to_stderr_and_says_why_the_club_cannot_be_reached(tmp_path):
    config = _club_config(tmp_path)
    broker = config.read_text().split("port = ")[1].strip()
    want = f"WARNING parlour.club: club: cannot reach the broker 127.0.0.1:{broker} " \
           "(Connection refused)"
    err = _stderr_of(tmp_path, "run", "--sim", "--config", str(config), "--data-dir",
                     str(tmp_path / "table"), "--host", "127.0.0.1", "--port",
                     str(_unused_port()), until=want)
    assert want in err, err
    assert "Traceback" not in err


def test_cli_run_with_a_ca_file_tls_cannot_use_says_so_in_one_line(tmp_path):
    """A CA file TLS could not use stopped the start with "parlour: No such file or
    directory", then "the chances worker stopped (exit code -15)": a crash that was not one.
    Now one line names the key, and the chances worker is stopped before the exit. The Pi,
    whose turn it was in the stored game, made no move no screen would show (it moved before
    the start failed)."""
    from companion.record.store import Store
    from companion.session import Session
    from simulated_table import parlour_command, quiet_env
    store = Store(tmp_path / "table" / "parlour.db")
    game = Session(store, new_seed=lambda: bytes(32)).new_game(
        "fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy")["game_id"]    # Geese first
    store.close()
    ca = tmp_path / "ca.pem"
    ca.write_text("not a certificate\n")
    config = _club_config(tmp_path)
    config.write_text(config.read_text() + f'tls = true\nca_file = "{ca}"\n')
    done = subprocess.run(parlour_command("run", "--sim", "--config", str(config), "--data-dir",
                                          str(tmp_path / "table"), "--host", "127.0.0.1",
                                          "--port", str(_unused_port())),
                          env=quiet_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert f"[club] ca_file: {ca} cannot be used as the broker's CA certificate" in done.stderr
    assert "chances worker stopped" not in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    store = Store(tmp_path / "table" / "parlour.db")
    assert [e["type"] for e in store.events(game)] == ["new_game"]       # the Pi moved not
    store.close()


def test_cli_club_prints_the_address_a_phone_opens(capsys, tmp_path, monkeypatch):
    """Listening on every interface (0.0.0.0), it prints this machine's LAN address, as
    `parlour run` does (the test still binds loopback only)."""
    import threading

    import firmware.webserver as webserver
    from firmware.runner import lan_address
    bind = webserver.table_server
    monkeypatch.setattr(webserver, "table_server",
                        lambda app, *, host, **kw: bind(app, host="127.0.0.1", **kw))
    from firmware.club.league_server import ClubListener, run_club
    from firmware.config import load_config
    monkeypatch.setattr(ClubListener, "start", lambda self: None)    # no broker needed here
    stop, ended = threading.Event(), []
    port = _unused_port()
    club = threading.Thread(target=lambda: ended.append(run_club(    # a thread: no signals
        load_config(_club_config(tmp_path)).club, tmp_path / "club", host="0.0.0.0",
        port=port, stop=stop, on_ready=lambda port, listener: stop.set())))
    club.start()
    club.join(timeout=20)
    out = capsys.readouterr().out
    assert ended == [0]
    assert f"the league on http://{lan_address('0.0.0.0')}:{port}/ " in out, out
    assert "0.0.0.0" not in out
    assert out.rstrip().endswith("parlour club: stopped")     # said, as the table says it


def test_cli_replay_into_a_closed_pipe_ends_without_a_traceback():
    """`parlour replay LOG --json | head -1`: the reader leaves early; one quiet exit, as a
    shell tool's, never a BrokenPipeError traceback (a CLI error is one line at most)."""
    proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "replay", str(KAT), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()                # the reader is gone before the game is written
    _, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
    assert proc.returncode in (0, 141)


def test_cli_run_logs_no_line_for_each_page_that_closes_its_stream():
    """Watching `make run`, a new user saw "INFO waitress: Client disconnected while serving
    /api/events" whenever a page closed or moved on, and took it for trouble; the table's own
    lines, and waitress's warnings, still show."""
    said = subprocess.run([sys.executable, "-c", (
        "import logging; from firmware.cli import log_to_stderr; log_to_stderr(); "
        "logging.getLogger('waitress').info('Client disconnected while serving /api/events'); "
        "logging.getLogger('waitress.queue').warning('Task queue depth is 5'); "
        "logging.getLogger('parlour.chances').info('the chances worker started')")],
        capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[3])
    assert said.returncode == 0, said.stderr
    assert "Client disconnected" not in said.stderr
    assert "WARNING waitress.queue: Task queue depth is 5" in said.stderr
    assert "INFO parlour.chances: the chances worker started" in said.stderr

