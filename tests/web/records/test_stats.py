"""companion.randomness.stats: the chi-square test in pure Python and the verification of every
roll of a log against its committed seed (what `parlour verify` and /fairness rely on)."""

import json
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import Refused
from companion.events import parse_event
from companion.games import GAMES
from companion.randomness.stats import (chi_square, chi_square_p, effective_rolls, face_counts,
                                         gamma_q, goodness_of_fit, table_rolls, verify_rolls)
from companion.replay import Table, read_log, replay
from web_support import play_to_the_end


def finished_log(session, *, undo_a_roll=False):
    snap = session.new_game("kat-en-muis", ["Ann", "Ben"])
    if undo_a_roll:
        session.roll()
        session.undo()
    play_to_the_end(session)
    return session.export_log(snap["game_id"])


# -- the math ---------------------------------------------------------------------------------

@pytest.mark.parametrize("a,x,expected", [
    (1, 2.0, math.exp(-2)),
    (1, 0.1, math.exp(-0.1)),
    (0.5, 0.3, math.erfc(math.sqrt(0.3))),
    (0.5, 9.0, math.erfc(3.0)),
    (3, 5.0, math.exp(-5) * (1 + 5 + 12.5)),
    (10, 1.0, 1 - 1.1142547833872111e-07),
])
def test_stats_gamma_q_matches_closed_forms(a, x, expected):
    assert gamma_q(a, x) == pytest.approx(expected, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("statistic,dof,p", [
    (3.841458820694124, 1, 0.05), (11.070497693516351, 5, 0.05), (15.08627246938899, 5, 0.01),
    (9.341817765591966, 10, 0.5), (0.0, 5, 1.0)])
def test_stats_chi_square_p_matches_tables(statistic, dof, p):
    assert chi_square_p(statistic, dof) == pytest.approx(p, rel=1e-8)


@given(a=st.floats(0.5, 60), x=st.floats(0, 200), dx=st.floats(0.01, 20))
def test_stats_gamma_q_is_a_falling_probability(a, x, dx):
    q, later = gamma_q(a, x), gamma_q(a, x + dx)
    assert 0.0 <= later <= q <= 1.0


def test_stats_gamma_q_refuses_bad_arguments():
    with pytest.raises(ValueError):
        gamma_q(0, 1)
    with pytest.raises(ValueError):
        gamma_q(1, -1)


def test_stats_chi_square_statistic():
    assert chi_square([10, 10, 10]) == (0.0, 2)
    assert chi_square([5, 15]) == (5.0, 1)
    assert chi_square([3, 1], [2, 2]) == (1.0, 1)
    with pytest.raises(ValueError):
        chi_square([4])


def test_stats_goodness_of_fit_says_too_few():
    fit = goodness_of_fit([1, 2, 0, 1, 0, 3])
    assert fit.verdict == "too-few" and fit.p_value is None and "30" in fit.words


def test_stats_goodness_of_fit_fair_and_unusual():
    fair = goodness_of_fit([98, 103, 101, 97, 100, 101])
    assert fair.verdict == "fair" and fair.p_value > 0.9 and "Nothing unusual" in fair.words
    loaded = goodness_of_fit([40, 10, 10, 10, 10, 40])
    assert loaded.verdict == "very-unusual" and loaded.p_value < 1e-6


# -- walking logs -------------------------------------------------------------------------------

def test_stats_effective_rolls_leave_out_undone_ones(session):
    snap = session.new_game("kat-en-muis", ["Ann", "Ben"])
    session.roll()
    session.undo()
    session.roll()
    session.roll()
    rolls = effective_rolls(session.export_log(snap["game_id"]))
    assert len(rolls) == 2 and all(r.kind == "dice" for r, _ in rolls)
    counts = face_counts([session.export_log(snap["game_id"])])
    assert sum(counts["dice-d6"]) == 4


@pytest.mark.parametrize("game", sorted(set(GAMES) - {"fox-and-geese"}))   # it throws nothing
def test_stats_a_replayed_tables_rolls_are_the_logs_effective_rolls(game):
    """The pages count a game's faces from the one replay they make of its log: the same rolls
    as walking the log again, undone ones and each roll's randomizer included."""
    rng = random.Random(game)
    table, events = Table(), [{"type": "new_game", "game": game,
                               "players": ["Ann", "Ben", "Cy"][:max(2, GAMES[game].min_players)]}]
    table.apply(parse_event(events[0]))
    for _ in range(300):
        if table.state.over:
            break
        dice = table.rulebook.randomizer_now(table.state)
        if len(table.effective) > 1 and rng.random() < 0.1:
            event = {"type": "undo"}
        elif table.state.awaiting == "roll" and dice is not None:
            event = {"type": "roll", "values": [rng.randint(1, dice.faces)
                                                for _ in range(dice.count)]}
        elif table.state.awaiting == "choose":
            event = {"type": "choose", "value": rng.randint(1, 6)}
        else:
            event = {"type": rng.choice(["press", "next"]), "seat": table.state.turn}
        try:
            table.apply(parse_event(event))
        except Refused:
            continue
        events.append(event)
    assert effective_rolls(events) and {"type": "undo"} in events   # rolls, and undos
    assert table_rolls(replay(events)) == effective_rolls(events)


# -- verifying rolls ----------------------------------------------------------------------------

def test_stats_verify_a_finished_game(session):
    log = finished_log(session)
    result = verify_rolls(log)
    assert result.ok and result.status == "verified" and result.problems == []
    assert result.checked == sum(1 for e in log if e["type"] == "roll")
    assert f"All {result.checked} rolls match" in result.message


def test_stats_verify_checks_undone_rolls_at_their_repeated_index(session):
    log = finished_log(session, undo_a_roll=True)
    assert [e["type"] for e in log[:4]] == ["new_game", "roll", "undo", "roll"]
    assert log[1]["values"] == log[3]["values"]
    result = verify_rolls(log)
    assert result.ok and result.checked == sum(1 for e in log if e["type"] == "roll")
    # /fairness said "51 throws" beside "All 52 rolls match": the undone one is said
    assert result.message == (f"All {result.checked} rolls match the committed seed (1 taken "
                              f"back, {result.checked - 1} in play).")
    assert verify_rolls(finished_log(session)).message.endswith("rolls match the committed seed.")


def test_stats_verify_catches_a_tampered_roll_by_its_line(session):
    log = finished_log(session)
    line = next(i for i, e in enumerate(log, start=1) if e["type"] == "roll" and i > 5)
    a, b = log[line - 1]["values"]
    log[line - 1] = {**log[line - 1], "values": [b % 6 + 1, a] if a == b else [b, a]}
    result = verify_rolls(log)
    assert not result.ok and result.status in ("mismatch", "invalid")
    assert result.problems[0].line == line
    assert f"line {line}" in str(result.problems[0]) and "committed seed gives" in \
        result.problems[0].message
    assert str(line) in result.message


def test_stats_verify_a_cut_roll_in_a_log_that_still_replays_names_the_rolls_off(session):
    """Free play breaks no rule when a roll is cut: each later roll shows the next one's
    values, and every one that differs from the seed's is counted and listed by line, the
    first ten and then "..." (it read "19..." as if a line number)."""
    snap = session.new_game("free-play", ["Ann", "Ben"])
    while session.snapshot()["phase"] == "lead":
        session.roll()
    for _ in range(40):
        session.roll()
        session.submit({"type": "next"})
    session.submit({"type": "declare", "winners": [0]})
    log = session.export_log(snap["game_id"])
    lead = sum(1 for e in log if e["type"] == "roll") - 40
    rolls = [i for i, e in enumerate(log, start=1) if e["type"] == "roll"][lead:]
    cut = log[:rolls[0] - 1] + log[rolls[0]:]           # the first roll of play cut
    values = [log[line - 1]["values"] for line in rolls]
    off = [line - 1 for line, was, shows in zip(rolls[1:], values, values[1:]) if was != shows]
    result = verify_rolls(cut)
    assert not result.ok and result.status == "mismatch" and len(off) > 10
    assert [p.line for p in result.problems] == off
    assert result.message == (f"{len(off)} of {lead + 39} rolls do not match the committed seed"
                              f" (lines {', '.join(map(str, off[:10]))}, ...).")


def test_stats_verify_uses_file_line_numbers(session):
    log = finished_log(session)
    text = "\n\n".join(json.dumps(e) for e in log)          # blank lines between events
    result = verify_rolls(read_log(text.splitlines()))
    assert result.ok
    log[1] = {**log[1], "values": [7, 1]}                    # off the dice: cannot replay
    result = verify_rolls(read_log("\n\n".join(json.dumps(e) for e in log).splitlines()))
    assert not result.ok and result.status == "invalid"
    assert result.problems[-1].line == 3


def test_stats_verify_a_seed_that_does_not_match(session):
    log = finished_log(session)
    log[0] = {**log[0], "seed": "00" * 32}
    result = verify_rolls(log)
    assert not result.ok and result.problems[0].line == 1
    assert "does not match the commitment" in result.message


def test_stats_verify_an_unfinished_game_waits_for_the_seed(session):
    snap = session.new_game("kat-en-muis", ["Ann", "Ben"])
    session.roll()
    result = verify_rolls(session.export_log(snap["game_id"]))
    assert not result.ok and result.status == "unrevealed" and "still secret" in result.message


def test_stats_verify_with_the_seed_given_apart(session, store):
    snap = session.new_game("kat-en-muis", ["Ann", "Ben"])
    for _ in range(3):
        session.roll()
    seed = store.game(snap["game_id"]).seed
    result = verify_rolls(session.export_log(snap["game_id"]), seed=seed)
    assert result.ok and result.checked == 3


def test_stats_verify_a_hand_entered_log_has_nothing_to_check():
    log = [{"type": "new_game", "game": "kat-en-muis", "players": ["A", "B"]},
           {"type": "roll", "values": [3, 4]}]
    result = verify_rolls(log)
    assert not result.ok and result.status == "uncommitted"


def test_stats_verify_an_empty_or_broken_log():
    assert verify_rolls([]).status == "invalid"
    result = verify_rolls([{"type": "roll", "values": [1, 2]}])
    assert result.status == "invalid" and result.problems[0].line == 1
    result = verify_rolls([{"type": "new_game", "game": "x"}])
    assert result.status == "invalid"
