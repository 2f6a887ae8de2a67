"""Undo (any depth, exact, never after the end), values off the dice, and the committed roll
stream: deterministic, checkable against its published derivation, and uniform."""

import hashlib
import hmac
from collections import Counter

import pytest

from companion.errors import LogError, Refused
from companion.events import NewGame, Roll, Undo, parse_event
from companion.randomness.randomizers import dice, indicator, spinner
from companion.replay import Table, replay
from companion.randomness.rollstream import commitment, draw, parse_seed
from companion.session import Session
from companion.record.store import Store

KAT = {"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"]}


def roll(*values):
    return {"type": "roll", "values": list(values)}


SCRIPT = [roll(4, 3), roll(1, 2), roll(1, 3), roll(5, 6), roll(2, 2), roll(6, 6), roll(1, 1),
          roll(4, 6), roll(2, 5), {"type": "transfer", "from": 0, "to": 1, "amount": 2},
          roll(3, 3), roll(1, 4)]


# -- undo -----------------------------------------------------------------------------------

def test_undo_any_number_of_times_restores_each_previous_state():
    table = Table()
    table.apply(parse_event(KAT))
    history = [table.to_json()]
    for obj in SCRIPT:
        table.apply(parse_event(obj))
        history.append(table.to_json())
    assert len({str(h) for h in history}) == len(history)      # every step changed something
    for expected in reversed(history[:-1]):
        table.apply(Undo())
        assert table.to_json() == expected
    with pytest.raises(Refused, match="nothing to undo"):
        table.apply(Undo())


def test_undo_in_a_log_takes_back_the_latest_event_in_effect():
    undo = {"type": "undo"}
    with_undos = [KAT] + SCRIPT[:5] + [undo, undo] + SCRIPT[3:8]
    assert replay(with_undos).to_json() == replay([KAT] + SCRIPT[:8]).to_json()


def test_undo_then_redo_gives_the_same_state():
    undo = {"type": "undo"}
    a = replay([KAT] + SCRIPT + [undo] + SCRIPT[-1:]).to_json()
    assert a == replay([KAT] + SCRIPT).to_json()


def test_undo_with_nothing_to_undo_refused():
    with pytest.raises(LogError, match="line 2: nothing to undo"):
        replay([KAT, {"type": "undo"}])
    with pytest.raises(LogError, match="line 4: nothing to undo"):
        replay([KAT, roll(4, 3), {"type": "undo"}, {"type": "undo"}])
    with pytest.raises(Refused, match="new_game"):
        Table().apply(Undo())


def test_undo_after_the_game_is_over_refused():
    events = [{"type": "new_game", "game": "cats-and-dogs", "players": ["Ann", "Ben"],
               "board": {"track_length": 12, "arrows": {}}}]
    events += [{"type": "roll", "values": [v]} for v in (6, 1, 6, 1, 6)]
    assert replay(events).to_json()["phase"] == "over"
    with pytest.raises(LogError, match="over"):
        replay(events + [{"type": "undo"}])


def test_undo_refused_event_changes_nothing():
    table = replay([KAT, roll(4, 3)])
    before = table.to_json()
    with pytest.raises(Refused):
        table.apply(Roll(values=(7, 1)))
    with pytest.raises(Refused):
        table.apply(NewGame(game="kat-en-muis", players=("A", "B")))
    assert table.to_json() == before
    assert len(table.effective) == 2


# -- values off the dice --------------------------------------------------------------------

@pytest.mark.parametrize("values, words", [
    ([7, 1], "7 is off two dice"),
    ([0, 3], "0 is off two dice"),
    ([3], r"two dice show two numbers \(such as 3 and 4\), not 1"),
    ([3, 3, 3], "not 3"),
    ([], "not 0"),
])
def test_undo_roll_off_the_dice_refused(values, words):
    with pytest.raises(LogError, match=words):
        replay([KAT, roll(*values)])
    with pytest.raises(LogError, match=words):
        replay([KAT, roll(4, 3), roll(1, 2), roll(*values)])


# -- the roll stream ------------------------------------------------------------------------

def reference_draw(seed, index, count, faces):
    """The derivation as published: HMAC-SHA256(seed, n as 8 bytes big-endian), continued
    with HMAC-SHA256(seed, n || block as 4 bytes big-endian); rejection sampling per byte."""
    limit = 256 - 256 % faces
    out, block = [], 0
    while True:
        message = index.to_bytes(8, "big") + (block.to_bytes(4, "big") if block else b"")
        for byte in hmac.new(seed, message, hashlib.sha256).digest():
            if byte < limit:
                out.append(byte % faces + 1)
                if len(out) == count:
                    return tuple(out)
        block += 1


SEEDS = [hashlib.sha256(f"parlour test seed {i}".encode()).digest() for i in range(6)]


def test_rollstream_commitment_is_sha256_of_the_seed():
    seed = SEEDS[0]
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert len(commitment(seed)) == 64


def test_rollstream_draw_is_deterministic():
    for seed in SEEDS:
        first = [draw(seed, n, dice(2)) for n in range(50)]
        assert first == [draw(seed, n, dice(2)) for n in range(50)]
    assert [draw(SEEDS[0], n, dice(2)) for n in range(50)] != \
        [draw(SEEDS[1], n, dice(2)) for n in range(50)]


@pytest.mark.parametrize("randomizer", [dice(1), dice(2), dice(3), indicator(), spinner(6),
                                        spinner(12), spinner(5), spinner(7)])
def test_rollstream_matches_the_published_derivation(randomizer):
    for seed in SEEDS[:3]:
        for n in range(300):
            assert draw(seed, n, randomizer) == reference_draw(seed, n, randomizer.count,
                                                               randomizer.faces)


def test_rollstream_continues_past_one_block():
    # Forty values need more than the 32 bytes of the first block.
    for seed in SEEDS[:3]:
        for n in range(20):
            values = draw(seed, n, dice(40))
            assert len(values) == 40
            assert values == reference_draw(seed, n, 40, 6)


# Chi-square critical values at p = 0.001 (tabulated; e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4):
CHI2_999 = {5: 20.515, 11: 31.264, 35: 66.619}


def chi_square(counts, cells, total):
    expected = total / cells
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in range(cells))


def test_rollstream_d6_faces_uniform_chi_square():
    counts, total = Counter(), 0
    for seed in SEEDS:
        for n in range(10_000):
            (value,) = draw(seed, n, dice(1))
            counts[value - 1] += 1
            total += 1
    assert total == 60_000 and set(counts) == set(range(6))
    assert chi_square(counts, 6, total) < CHI2_999[5]


def test_rollstream_spinner_of_12_uniform_chi_square():
    counts, total = Counter(), 0
    for seed in SEEDS:
        for n in range(10_000):
            (value,) = draw(seed, n, spinner(12))
            counts[value - 1] += 1
            total += 1
    assert set(counts) == set(range(12))
    assert chi_square(counts, 12, total) < CHI2_999[11]


def test_rollstream_two_dice_pairs_uniform_chi_square():
    # The two dice of one roll are independent: all 36 pairs equally likely.
    counts, total = Counter(), 0
    for seed in SEEDS[:3]:
        for n in range(12_000):
            a, b = draw(seed, n, dice(2))
            counts[(a - 1) * 6 + (b - 1)] += 1
            total += 1
    assert chi_square(counts, 36, total) < CHI2_999[35]


def test_rollstream_chi_square_detects_a_biased_die():
    # The test above can fail: a die that never shows 6 is far past the critical value.
    counts = Counter({face: 12_000 for face in range(5)})
    assert chi_square(counts, 6, 60_000) > CHI2_999[5]


def test_rollstream_parse_seed():
    assert parse_seed("00ff") == b"\x00\xff"
    with pytest.raises(ValueError, match="not hex"):
        parse_seed("xyz")
    with pytest.raises(ValueError, match="empty"):
        parse_seed("")


# -- through a session ----------------------------------------------------------------------

def test_rollstream_session_undo_of_a_roll_then_roll_again_gives_the_same_values(tmp_path):
    store = Store(tmp_path / "games.db")
    seed = SEEDS[2]
    session = Session(store, new_seed=lambda: seed)
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    seen = []
    for _ in range(6):
        seen.append(session.roll()["last_roll"]["values"])
    # Roll n is draw(seed, n): lead throws included, counted from 0.
    assert seen == [list(draw(seed, n, dice(2))) for n in range(6)]
    session.undo()
    session.undo()
    again = [session.roll()["last_roll"]["values"] for _ in range(2)]
    assert again == seen[4:]
    store.close()


def test_rollstream_session_refuses_a_roll_typed_in(tmp_path):
    store = Store(tmp_path / "games.db")
    session = Session(store, new_seed=lambda: SEEDS[0])
    session.new_game("cats-and-dogs", ["Ann", "Ben"])
    with pytest.raises(Refused, match="committed roll stream"):
        session.submit({"type": "roll", "values": [6]})
    store.close()


def test_undo_is_remembered_until_the_game_moves_again():
    """The Pi waits to be asked after its move is taken back, in a resumed game too: the
    table says whether the newest event that moved the game was an undo (a rename or a chip
    correction since moves nothing)."""
    table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["Ann", "Pi"],
                     "pi": [1]},
                    {"type": "move", "path": ["c4", "c5"], "by": "pi"}])
    assert not table.taken_back
    table.apply(Undo())
    assert table.taken_back
    table.apply(parse_event({"type": "rename", "seat": 0, "name": "Anna"}))
    assert table.taken_back
    table.apply(parse_event({"type": "move", "path": ["c4", "c5"], "by": "pi"}))
    assert not table.taken_back


def test_undo_says_what_it_took_back_also_when_replayed():
    """Every surface says what an undo took back: the log's lines it removed, or "Ann's turn
    ends" for an ended turn (no line in the log); a replay (a restart) says the same, so a
    phone that loads the page after an undo is told too."""
    events = [{"type": "new_game", "game": "gantlope", "players": ["Ann", "Ben"]},
              {"type": "roll", "values": [3, 4]}, {"type": "roll", "values": [5, 1]},
              {"type": "roll", "values": [2, 2]}]
    table = replay(events)
    spun = table.state.log
    table.apply(Undo())
    assert table.undone == spun[len(table.state.log):] and table.undone
    turn = table.state.turn
    table.apply(parse_event({"type": "roll", "values": [2, 2]}))
    table.apply(parse_event({"type": "next"}))
    assert table.state.turn != turn
    table.apply(Undo())
    assert table.undone == [f"{table.state.players[turn].name}'s turn ends"]
    again = replay(events + [{"type": "undo"}, {"type": "roll", "values": [2, 2]},
                             {"type": "next"}, {"type": "undo"}])
    assert again.undone == table.undone and again.taken_back
