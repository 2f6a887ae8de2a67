"""Hostile logs for `parlour replay` and `parlour verify`: one clear line naming the line, exit
status 2, never a traceback; text an older Parlour stored (a lone surrogate) prints and
exports without crashing."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys

import pytest

from companion.randomness.rollstream import commitment
from companion.record.store import Store
from firmware.cli import main

START = '{"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"]}'
SEED = bytes(32)
COMMITTED = json.dumps({"type": "new_game", "game": "kat-en-muis", "players": ["A\ud800", "Ben"],
                        "commitment": commitment(SEED), "seed": SEED.hex()})

HOSTILE = {
    "5000-digit number": ([START, '{"type": "roll", "values": [' + "9" * 5000 + "]}"],
                          "line 2: a number too long"),
    "5000-digit seat": ([START, '{"type": "press", "seat": ' + "1" * 5000 + "}"],
                        "line 2: a number too long"),
    "nested 100,000 deep": ([START, "[" * 100_000 + "]" * 100_000], "line 2: JSON nested too"),
    "options nested deep": (['{"type": "new_game", "game": "kat-en-muis", "players": ["A", "B"],'
                             ' "options": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001],
                            "line 1: JSON nested too"),
    "surrogate in a name": (['{"type": "new_game", "game": "kat-en-muis", '
                             '"players": ["A\\ud800", "Ben"]}'], "line 1: .*unpaired surrogate"),
    "surrogate in a committed game": ([COMMITTED], "line 1: .*unpaired surrogate"),
    "surrogate in a rename": ([START, '{"type": "rename", "seat": 0, "name": "\\udfff"}'],
                              "line 2: .*unpaired surrogate"),
    "part of a board": (['{"type": "new_game", "game": "fox-and-geese", "players": ["A", "B"], '
                         '"board": {"vacant": ["a4", "g4"], "geese_to_pen": 6}}'],
                        "line 1: board data: 'sideways' is missing"),
    "a time that is no time": ([START, '{"type": "roll", "values": [3, 4], "at": "garbage '
                                       '2024-01-01"}'], "line 2: 'at' must be an ISO 8601 time"),
    "a key given twice": ([START, '{"type": "roll", "values": [4, 5], "values": [6, 6]}'],
                          "line 2: the key \"values\" is given twice"),
    "an empty board": (['{"type": "new_game", "game": "cats-and-dogs", "players": ["A", "B"], '
                        '"board": {}}'], "line 1: board data: 'track_length' is missing"),
}


@pytest.mark.parametrize("command", ["replay", "verify"])
@pytest.mark.parametrize("case", HOSTILE, ids=str)
def test_cli_hostile_log_is_one_line_and_status_2(capsys, tmp_path, command, case):
    lines, why = HOSTILE[case]
    log = tmp_path / "hostile.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main([command, str(log)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and len(err) < 300
    assert err.startswith(f"parlour: {log}: ")
    assert re.search(why, err), err


def test_cli_hostile_logs_never_print_a_traceback_from_the_console_script(tmp_path):
    for case, (lines, _) in HOSTILE.items():
        log = tmp_path / "hostile.jsonl"
        log.write_text("\n".join(lines) + "\n", encoding="utf-8")
        proc = subprocess.run([sys.executable, "-m", "firmware.cli", "verify", str(log)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, (case, proc.stderr)


def test_cli_replay_prints_a_lone_surrogate_in_other_text_escaped(capsys, tmp_path):
    log = tmp_path / "reason.jsonl"
    log.write_text('{"type": "new_game", "game": "free-play", "players": ["Ann", "Ben"], '
                   '"options": {"chips": 5}}\n'
                   '{"type": "transfer", "from": 0, "to": "pool", "amount": 1, '
                   '"reason": "x\\ud800"}\n')
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "replay", str(log)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "(correction: x\\ud800)" in proc.stdout


def test_cli_export_of_a_stored_surrogate_writes_a_file_that_reads_back(capsys, tmp_path):
    data = tmp_path / "data"
    Store(data / "parlour.db").close()
    first = {"type": "new_game", "game": "kat-en-muis", "players": ["A\ud800", "Ben"]}
    db = sqlite3.connect(data / "parlour.db")
    with db:
        db.execute("INSERT INTO games (id, game, players) VALUES (1, 'kat-en-muis', ?)",
                   (json.dumps(first["players"]),))
        db.execute("INSERT INTO events (game_id, seq, body) VALUES (1, 1, ?)",
                   (json.dumps(first),))
    db.close()
    code = main(["export", "--data-dir", str(data), "--out", str(tmp_path / "out")])
    out, _ = capsys.readouterr()
    assert code == 0
    written = (tmp_path / "out" / "game-0001-kat-en-muis.jsonl").read_text(encoding="utf-8")
    assert json.loads(written) == first


def test_cli_run_on_a_busy_port_names_the_way_out(tmp_path):
    """A port another program holds: one line that names it and how to choose another, exit 2
    (not a bare "[Errno 98] Address already in use"), with the user's other arguments kept
    (the way out dropped --data-dir and --host, and led into the next refusal)."""
    import socket
    import subprocess
    from ports import free_now, held_next
    from simulated_table import parlour_command, quiet_env
    with socket.socket() as taken, held_next(taken) as port:
        done = subprocess.run(parlour_command("run", "--sim", "--host", "127.0.0.1", "--port",
                                              str(port), "--data-dir", str(tmp_path / "d")),
                              env=quiet_env(tmp_path), capture_output=True, text=True,
                              timeout=60)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    kept = re.escape(f"--sim --host 127.0.0.1 --data-dir {tmp_path / 'd'}")   # theirs, kept
    said = re.fullmatch(r"parlour: port (\d+) is already in use \(another Parlour, or another "
                        r"program\): choose another, e\.g\. make run ARGS=\"" + kept +
                        r" --port (\d+)\" or parlour run " + kept + r" --port (\d+)",
                        lines[0]) if len(lines) == 1 else None
    assert said and int(said[1]) == port and said[2] == said[3], done.stderr
    assert int(said[2]) > port + 1                   # the port after it was taken too
    free_now(int(said[2]))


def test_cli_log_that_is_not_utf8_is_refused_by_its_line_number(capsys, tmp_path):
    """A bad line in a file is named by its number, a byte that is not UTF-8 too."""
    from firmware.cli import main
    log = tmp_path / "bad.jsonl"
    log.write_bytes(b'{"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"]}\n'
                    b'{"type": "roll", "values": [3, 4]}\n'
                    b'{"type": "next", "by": "\xff"}\n')
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("line 3: not UTF-8 text (byte 25 of the line)"), err
    assert "\n" not in err


@pytest.mark.parametrize("port", ["99999", "0", "-1", "eighty"])
def test_cli_a_port_out_of_range_is_one_line_and_status_2(port, capsys, tmp_path):
    """99999 would be wrapped by the socket layer into port 34463, -1 raised a traceback.
    (A missing config file keeps a port that got through from starting a table.)"""
    assert main(["run", "--sim", "--port", port, "--data-dir", str(tmp_path),
                 "--config", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "port number 1-65535" in err, err


@pytest.mark.parametrize("command", ["replay", "verify"])
def test_cli_a_file_longer_than_any_log_is_refused_in_a_line_not_read_whole(capsys, tmp_path,
                                                                           command):
    """A 600 MB file (or /dev/zero) was read whole and ended in a MemoryError traceback under
    a Zero's memory: past MAX_LOG_BYTES it is refused in one line, exit 2, unread."""
    from firmware.cli import MAX_LOG_BYTES
    log = tmp_path / "huge.jsonl"
    with open(log, "wb") as file:
        file.write((START + "\n").encode())
        file.truncate(MAX_LOG_BYTES + 1)                       # sparse: no disk used
    assert main([command, str(log)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"parlour: {log}: over 16 MiB: longer than any game's log (a game " \
                          f"stops at 10,000 events)"


@pytest.mark.parametrize("folder", ["our table", 'our "$HOME" table', "back\\slash `x`",
                                    "hi!there"])
def test_cli_the_way_out_it_names_types_back_the_users_own_arguments(monkeypatch, tmp_path,
                                                                       folder):
    """The command a refusal suggests, pasted into a shell, gives `parlour run` the user's own
    arguments (a data directory holding `$` or a quote went into make run's double quotes
    as it was: the shell and make changed it)."""
    from firmware.runner import make_run, run_again
    data = str(tmp_path / folder)
    monkeypatch.setattr(sys, "argv", ["parlour", "run", "--sim", "--data-dir", data])
    said = make_run(run_again(port=8622))
    (tmp_path / "Makefile").write_text("run:\n\t@printf '%s\\n' $(ARGS)\n")
    shown = said.replace(".venv/bin/parlour run", "printf '%s\\n'", 1) if \
        said.startswith(".venv/") else said.replace("make run", "make -s run", 1)
    typed = subprocess.run(["bash", "--norc", "-i"], input=shown + "\n", cwd=tmp_path,
                           capture_output=True, text=True, timeout=30)   # typed at a prompt
    assert typed.stdout.splitlines() == ["--sim", "--data-dir", data, "--port", "8622"], said
