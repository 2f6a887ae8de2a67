"""The log as the source of truth: Table (attempt, apply, undo), replay, read_log, state JSON."""

import json
from importlib import resources
from pathlib import Path

import pytest

from companion.errors import BoardDataError, LogError, ParlourError, Refused, StoreError
from companion.events import Declare, NewGame, Press, Roll, Transfer, Undo
from companion.replay import Table, read_log, replay, replay_lines, state_json
from companion.randomness.rollstream import commitment

SEED = bytes(range(32))


def kat_log(*rolls):
    """A Kat en Muis log: Ann leads as Cat, then the given rolls."""
    return [{"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"]},
            {"type": "roll", "values": [6, 6]}, {"type": "roll", "values": [1, 1]}] + \
        [{"type": "roll", "values": list(r)} for r in rolls]


def as_lines(events):
    return [json.dumps(e) for e in events]


# -- starting a game --------------------------------------------------------------------------

def test_replay_log_must_start_with_new_game():
    with pytest.raises(LogError, match="line 1: the log must start with a new_game event"):
        replay([{"type": "roll", "values": [3, 4]}])


def test_replay_empty_log_refused():
    with pytest.raises(LogError, match="empty"):
        replay([])


@pytest.mark.parametrize("players, words", [
    (["Ann"], "for 2 to 6 players, not 1"),
    (["Ann", "  "], "name must be 1 to 24 characters"),
    (["Ann", "B" * 25], "name must be 1 to 24 characters"),
    (["Ann", "ann"], "same name"),
    (["Ann", " Ann "], "same name"),
])
def test_replay_new_game_players_checked(players, words):
    with pytest.raises(Refused, match=words):
        Table().attempt(NewGame(game="cats-and-dogs", players=tuple(players)))


def test_replay_new_game_names_are_trimmed(start):
    assert start("cats-and-dogs", players=(" Ann", "Ben ")).state.name(0) == "Ann"


def test_replay_new_game_unknown_game_refused():
    with pytest.raises(Refused, match="unknown game 'snakes'"):
        Table().attempt(NewGame(game="snakes", players=("Ann", "Ben")))


@pytest.mark.parametrize("extra, words", [
    ({"commitment": "AB" * 32}, "64 lowercase hex"),
    ({"commitment": "ab" * 31}, "64 lowercase hex"),
    ({"seed": "xyz"}, "seed must be hex"),
    ({"commitment": commitment(SEED), "seed": SEED[::-1].hex()}, "does not match"),
])
def test_replay_new_game_commitment_and_seed_checked(extra, words):
    event = NewGame(game="kat-en-muis", players=("Ann", "Ben"), **extra)
    with pytest.raises(Refused, match=words):
        Table().attempt(event)


def test_replay_revealed_seed_matching_its_commitment_is_kept():
    table = Table()
    table.apply(NewGame(game="kat-en-muis", players=("Ann", "Ben"),
                        commitment=commitment(SEED), seed=SEED.hex()))
    out = table.to_json()
    assert (out["commitment"], out["seed"]) == (commitment(SEED), SEED.hex())


# -- attempt and apply ------------------------------------------------------------------------

def test_replay_attempt_changes_nothing(kat):
    before = kat.to_json()
    effective = list(kat.effective)
    new = kat.attempt(Roll(values=(2, 3)))
    assert new.players[0].position == 5
    assert kat.to_json() == before and kat.effective == effective


def test_replay_refused_event_changes_nothing(kat):
    before = kat.to_json()
    with pytest.raises(Refused):
        kat.apply(Roll(values=(9, 9)))
    assert kat.to_json() == before
    assert len(kat.effective) == 3


def test_replay_apply_with_attempted_state_uses_it(kat):
    state = kat.attempt(Roll(values=(2, 3)))
    assert kat.apply(Roll(values=(2, 3)), state) is state
    assert kat.state is state


@pytest.mark.parametrize("event, words", [
    (Press(seat=0), "the lead is still being thrown: Ann - throw the dice for the lead"),
    (Declare(winners=(0,)), "the lead is still being thrown"),
])
def test_replay_moves_refused_during_the_lead(start, event, words):
    with pytest.raises(Refused, match=words):
        start("kat-en-muis").attempt(event)


def test_replay_a_move_refused_during_a_spun_lead_says_it_is_spun(start):
    """Cats and Mice's lead is spun: its refusal said "the lead is still being thrown"."""
    with pytest.raises(Refused, match="the lead is still being spun: Ann - flick to spin"):
        start("cats-and-mice").attempt(Press(seat=0))


@pytest.mark.parametrize("event, words", [
    (Press(seat=2), "there is no seat 3 at this table \\(seats 1 to 2\\)"),
    (Press(seat=-1), "there is no seat 0 at"),
    (Declare(winners=()), "one or more different winning seats"),
    (Declare(winners=(0, 0)), "one or more different winning seats"),
    (Declare(winners=(5,)), "there is no seat 6"),
])
def test_replay_bad_seats_refused(kat, event, words):
    with pytest.raises(Refused, match=words):
        kat.attempt(event)


def test_replay_moves_and_undo_refused_once_over():
    table = replay(kat_log(*[(6, 5), (1, 2)] * 5, (6, 5)))     # Ann: 11, 22, ... 66
    assert table.state.over and table.state.winners == [0]
    for event, words in [(Roll(values=(1, 2)), "over"), (Press(seat=0), "over"),
                         (Declare(winners=(1,)), "over"),
                         (Undo(), "it is final, so there is no undo")]:
        with pytest.raises(Refused, match=words):
            table.attempt(event)


# -- transfers (corrections) ------------------------------------------------------------------

def test_replay_transfer_moves_chips_as_a_logged_correction(kat):
    kat.apply(Transfer(source=1, target="pool", amount=3, reason="miscounted"))
    state = kat.state
    assert (state.players[1].chips, state.pool) == (12, 13)
    assert state.log[-1] == "Ben pays 3 chips into the pool (correction: miscounted)"


def test_x9_correction_of_more_than_the_source_holds_is_refused(kat):
    before = kat.to_json()
    with pytest.raises(Refused, match="Ann holds only 15 chips: a correction cannot move 99"):
        kat.attempt(Transfer(source=0, target=1, amount=99))
    with pytest.raises(Refused, match="the pool holds only 10 chips: a correction cannot "
                                      "move 11"):
        kat.attempt(Transfer(source="pool", target=1, amount=11))
    assert kat.to_json() == before
    kat.apply(Transfer(source=0, target=1, amount=15))      # all of it is fine
    assert [p.chips for p in kat.state.players] == [0, 30]
    assert kat.state.log[-1] == "Ann pays Ben 15 chips (correction)"
    with pytest.raises(Refused, match="Ann holds no chips"):
        kat.attempt(Transfer(source=0, target="pool", amount=1))


@pytest.mark.parametrize("source, target, words", [(0, 0, "two different accounts"),
                                                   ("pool", "pool", "two different"),
                                                   (0, 3, "no seat 4")])
def test_replay_transfer_accounts_checked(kat, source, target, words):
    with pytest.raises(Refused, match=words):
        kat.attempt(Transfer(source=source, target=target, amount=1))


# -- undo -------------------------------------------------------------------------------------

def test_replay_undo_restores_the_state_before(kat):
    before = kat.to_json()
    state_only = {k: v for k, v in before.items() if k not in ("last_by", "last_type")}  # the log
    kat.apply(Roll(values=(2, 3)))
    assert state_json(kat.rulebook, kat.attempt(Undo())) == state_only
    assert state_json(kat.rulebook, kat.apply(Undo())) == state_only
    assert kat.to_json() == before
    assert len(kat.effective) == 3


def test_replay_undo_takes_back_one_event_at_a_time(kat):
    states = [kat.to_json()]
    for values in [(1, 2), (2, 2), (1, 3)]:
        kat.apply(Roll(values=values))
        states.append(kat.to_json())
    for expected in reversed(states[:-1]):
        kat.apply(Undo())
        assert kat.to_json() == expected


def test_replay_undo_keeps_the_roll_count_of_the_events_in_effect(kat):
    rolls = kat.state.rolls
    kat.apply(Roll(values=(1, 2)))
    assert kat.state.rolls == rolls + 1
    kat.apply(Undo())
    assert kat.state.rolls == rolls


def test_replay_undo_into_the_lead(start):
    table = start("kat-en-muis", lead=[(6, 6), (1, 1)])
    table.apply(Undo())
    assert table.state.phase == "lead" and table.state.turn == 1
    table.apply(Roll(values=(6, 5)))
    assert table.state.phase == "play"
    assert table.state.players[1].role == "mouse"


def test_replay_nothing_to_undo_after_new_game(start):
    table = start("kat-en-muis")
    with pytest.raises(Refused, match="nothing to undo"):
        table.attempt(Undo())


def test_replay_undo_in_a_log_is_folded():
    log = kat_log((1, 2)) + [{"type": "undo"}, {"type": "roll", "values": [2, 2]}]
    state = replay(log).state
    assert state.players[0].position == 4
    assert state.rolls == 3


# -- the log file -----------------------------------------------------------------------------

def test_replay_read_log_numbers_lines_and_skips_blanks():
    lines = as_lines(kat_log())
    lines.insert(1, "   ")
    numbered = read_log(lines)
    assert [n for n, _ in numbered] == [1, 3, 4]


def test_replay_read_log_bad_json_names_its_line():
    lines = as_lines(kat_log()) + ['{"type": "roll", "values": [1, 2]']
    with pytest.raises(LogError, match="line 4: not valid JSON") as err:
        read_log(lines)
    assert err.value.line == 4


def test_replay_read_log_bad_event_names_its_line():
    lines = as_lines(kat_log()) + ["", '{"type": "press", "seat": "Ann"}']
    with pytest.raises(LogError, match="line 5: a press's 'seat'"):
        read_log(lines)


def test_replay_refused_event_in_a_file_names_its_line():
    lines = as_lines(kat_log((1, 2))) + ["", json.dumps({"type": "roll", "values": [7, 1]})]
    with pytest.raises(LogError) as err:
        replay_lines(lines)
    assert err.value.line == 6
    assert "7 is off two dice" in str(err.value)


def test_replay_of_a_file_equals_the_live_table(kat):
    for values in [(1, 2), (5, 5), (3, 4), (6, 6), (2, 1)]:
        kat.apply(Roll(values=values))
    lines = as_lines(e.to_dict() for e in kat.effective)
    assert replay_lines(lines).to_json() == kat.to_json()


# -- state JSON -------------------------------------------------------------------------------

INTERFACE_KEYS = {"game", "phase", "turn", "awaiting", "players", "pool", "winners", "log",
               "commitment", "seed"}
PLAYER_KEYS = {"name", "role", "position", "chips", "score", "lost_turns"}


@pytest.mark.parametrize("game, lead", [("kat-en-muis", []), ("kat-en-muis", [(6, 6), (1, 1)]),
                                        ("lifes-mishaps", [(1,), (2,)]),
                                        ("cats-and-dogs", [(5,), (1,)])])
def test_replay_state_json_has_the_design_fields(start, game, lead):
    out = start(game, lead=lead).to_json()
    assert INTERFACE_KEYS <= set(out)
    assert all(PLAYER_KEYS <= set(p) for p in out["players"])
    assert out["phase"] in ("lead", "play", "over")
    assert out["awaiting"] in ("roll", "press", "choose", "next", "declare", None)
    assert json.loads(json.dumps(out)) == out


def test_replay_state_json_after_a_throw(kat):
    kat.apply(Roll(values=(2, 4)))
    out = kat.to_json()
    assert out["last_roll"] == {"seat": 0, "values": [2, 4], "text": "2 and 4", "total": 6}
    assert out["players"][0]["position"] == 6
    assert out["turn"] == 1 and out["phase"] == "play"
    assert out["order"] == [0, 1]
    assert out["log"][-2:] == ["Ann throws 2 and 4", "Ann moves to 6"]


def test_replay_state_json_lead_in_progress(start):
    out = start("lifes-mishaps", players=("Ann", "Ben", "Cy"), lead=[(4,)]).to_json()
    assert out["lead"] == {"mode": "highest", "throwing": [1, 2], "throws": {"0": 4}}
    assert out["randomizer"] == {"kind": "dice", "count": 1, "faces": 6}


# -- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("error, builtin", [(Refused, ValueError), (LogError, ValueError),
                                            (BoardDataError, ValueError),
                                            (StoreError, RuntimeError)])
def test_errors_share_one_root_and_a_builtin(error, builtin):
    assert issubclass(error, ParlourError) and issubclass(error, builtin)


def test_errors_log_error_keeps_line_and_reason():
    err = LogError(7, "bad thing")
    assert (str(err), err.line, err.reason) == ("line 7: bad thing", 7, "bad thing")


# -- the state JSON is a copy -------------------------------------------------------------------

def _scribble(value):
    """Change every dict and list inside a JSON value, at every depth."""
    if isinstance(value, dict):
        for key in list(value):
            _scribble(value[key])
            if isinstance(value[key], (int, str)) and not isinstance(value[key], bool):
                value[key] = "scribbled"
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")


@pytest.mark.parametrize("path", sorted(Path(str(resources.files("companion") / "examples"))
                                        .glob("*.jsonl")), ids=lambda p: p.stem)
def test_state_json_is_a_copy_mutating_it_changes_nothing(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    table = replay_lines(lines[:len(lines) // 2])     # mid-game: an undo history behind it
    events = list(table.effective)
    for count in range(len(events), 0, -1):
        _scribble(table.to_json())
        assert table.to_json() == replay(events[:count]).to_json()
        if count > 1:
            table.apply(Undo())                      # each state in the history, untouched
