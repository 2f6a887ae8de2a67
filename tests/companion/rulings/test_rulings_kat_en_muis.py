"""Kat en Muis, ruling by ruling (K1-K8 of RULINGS.md), played as logs and replayed.

Expected values are worked out by hand from the rulings. Most scenarios walk the Cat (Ann,
seat 0) along squares that carry no K7 effect while the Mouse throws double six before 55
(K4: pays 2, does not move), so only the throw under test changes anything that is asserted;
those tests compare the state just before and just after that throw.
"""

import pytest

from companion.errors import LogError
from companion.replay import replay

GAME = "kat-en-muis"
CAT, MOUSE = 0, 1


def new(**options):
    return {"type": "new_game", "game": GAME, "players": ["Ann", "Ben"], "options": options}


def roll(*values):
    return {"type": "roll", "values": list(values)}


# Ann throws 7, Ben 3: Ann is Cat (seat 0) and throws first.
ANN_LEADS = [roll(4, 3), roll(1, 2)]
# A throw that is no double, by its total.
NON_DOUBLE = {3: (1, 2), 4: (1, 3), 5: (1, 4), 6: (1, 5), 7: (1, 6), 8: (2, 6), 9: (3, 6),
              10: (4, 6), 11: (5, 6)}
# Before 55, a double six costs 2 and moves nothing (K4): the Mouse "waits" with it.
WAIT = roll(6, 6)
# Squares that carry no K7 effect, reachable from 0 by non-doubles.
PATH = [7, 12, 18, 24, 31, 38, 43, 46, 54]


def step(total):
    return roll(*NON_DOUBLE[total])


def walk(squares, start=0):
    """Non-double throws taking a counter from start through each square in turn."""
    out = []
    for square in squares:
        out.append(step(square - start))
        start = square
    return out


def interleave(cat, mouse):
    out = []
    for i, event in enumerate(cat):
        out.append(event)
        if i < len(mouse):
            out.append(mouse[i])
    return out


def cat_at(square, *, mouse=None, purse=100):
    """A log with the Cat on `square` (of PATH, or 0) and the Cat to throw next."""
    squares = PATH[:PATH.index(square) + 1] if square else []
    cat = walk(squares)
    mouse = list(mouse or [])
    mouse += [WAIT] * (len(cat) - len(mouse))
    return [new(purse=purse)] + ANN_LEADS + interleave(cat, mouse)


def play(events):
    return replay(events).to_json()


def around(prefix, event):
    """The state JSON before and after one more event."""
    return play(prefix), play(prefix + [event])


def chips(state):
    return [p["chips"] for p in state["players"]]


def positions(state):
    return [p["position"] for p in state["players"]]


def delta(before, after):
    return [a - b for a, b in zip(chips(after), chips(before))]


# -- K1 setup -------------------------------------------------------------------------------

def test_kat_en_muis_k1_default_stake_from_purse_into_the_pots():
    state = play([new()])
    assert chips(state) == [15, 15]           # purse 20, stake 5 each
    assert state["pool"] == 10                # both pots
    assert positions(state) == [None, None]   # off the board at 0


def test_kat_en_muis_k1_purse_and_stake_options():
    state = play([new(purse=30, stake=7)])
    assert chips(state) == [23, 23]
    assert state["pool"] == 14
    assert state["options"] == {"purse": 30, "stake": 7}


def test_kat_en_muis_k1_stake_above_purse_refused():
    with pytest.raises(LogError, match="stake"):
        play([new(purse=3, stake=5)])


def test_kat_en_muis_k1_unknown_option_refused():
    with pytest.raises(LogError, match="no option 'pot'"):
        play([new(pot=3)])


def test_kat_en_muis_k1_two_players_only():
    with pytest.raises(LogError, match="2 players, not 3"):
        play([{"type": "new_game", "game": GAME, "players": ["Ann", "Ben", "Cy"]}])


# -- K2 lead --------------------------------------------------------------------------------

def test_kat_en_muis_k2_seat_0_throws_first_then_seat_1():
    state = play([new()])
    assert (state["phase"], state["turn"], state["awaiting"]) == ("lead", 0, "roll")
    state = play([new(), roll(2, 2)])
    assert (state["phase"], state["turn"]) == ("lead", 1)


def test_kat_en_muis_k2_higher_total_is_cat_and_throws_first():
    state = play([new(), roll(1, 2), roll(6, 1)])       # Ann 3, Ben 7
    assert [p["role"] for p in state["players"]] == ["mouse", "cat"]
    assert (state["phase"], state["turn"], state["order"]) == ("play", 1, [1, 0])


def test_kat_en_muis_k2_tie_throws_again():
    state = play([new(), roll(3, 4), roll(5, 2)])       # 7 and 7
    assert (state["phase"], state["turn"]) == ("lead", 0)
    assert all(p["role"] is None for p in state["players"])
    state = play([new(), roll(3, 4), roll(5, 2), roll(1, 1), roll(2, 1)])
    assert [p["role"] for p in state["players"]] == ["mouse", "cat"]
    assert state["turn"] == 1


def test_kat_en_muis_k2_cat_and_mouse_alternate():
    events = [new()] + ANN_LEADS
    seen = []
    for event in [step(7), step(8), step(6)]:
        events.append(event)
        seen.append(play(events)["turn"])
    # Cat 0 -> 7, Mouse 0 -> black 8, Cat 7 -> 13: the turn alternates after each.
    assert seen == [MOUSE, CAT, MOUSE]


# -- K3 doubles to milestones ---------------------------------------------------------------

@pytest.mark.parametrize("start, double, end", [
    (0, 1, 11),       # 0 <= s < 11
    (12, 2, 22),      # 11 <= 12 < 22: the ruling's example
    (18, 2, 22),
    (24, 3, 33),
    (38, 4, 44),
    (43, 4, 44),      # 33 <= 43 < 44
    (46, 5, 55),
    (54, 5, 55),
])
def test_kat_en_muis_k3_double_jumps_to_milestone(start, double, end):
    before, after = around(cat_at(start), roll(double, double))
    assert positions(after)[CAT] == end
    assert delta(before, after) == [2, -2]     # K7: every milestone: the other pays 2


@pytest.mark.parametrize("start, double, end", [
    (12, 1, 14),      # past 11: a double 1 counts 2
    (24, 2, 28),      # past 22: a double 2 counts 4
    (7, 3, 13),       # not yet 22: a double 3 counts 6
    (31, 4, 39),      # not yet 33
    (46, 4, 54),      # past 44
    (38, 5, 48),      # not yet 44
])
def test_kat_en_muis_k3_double_outside_range_counts_its_total(start, double, end):
    before, after = around(cat_at(start), roll(double, double))
    assert positions(after)[CAT] == end
    assert delta(before, after) == [0, 0]
    assert after["turn"] == MOUSE


def test_kat_en_muis_k3_double_two_from_twelve_jumps_to_22():
    state = play(cat_at(12) + [roll(2, 2)])
    assert positions(state)[CAT] == 22


def test_kat_en_muis_k3_double_two_from_ten_counts_four():
    # 10 throws again (K7), so the double 2 is thrown from 10: 11 <= 10 fails, 10 + 4 = 14.
    events = [new()] + ANN_LEADS + [step(10)]
    assert play(events)["turn"] == CAT
    state = play(events + [roll(2, 2)])
    assert positions(state)[CAT] == 14
    assert state["turn"] == MOUSE


def test_kat_en_muis_k3_double_two_from_eleven_jumps_to_22():
    events = [new()] + ANN_LEADS + [step(11), WAIT]
    state = play(events + [roll(2, 2)])
    assert positions(state)[CAT] == 22


def test_kat_en_muis_k3_mouse_doubles_count_in_its_own_numbering():
    # Mouse on black 12 (red 55): a double 2 takes it to black 22.
    events = [new(purse=100)] + ANN_LEADS + [step(7), step(7), WAIT, step(5), WAIT]
    before, after = around(events, roll(2, 2))
    assert positions(after) == [7, 22]
    assert delta(before, after) == [-2, 2]


# -- K4 double six --------------------------------------------------------------------------

def test_kat_en_muis_k4_double_six_at_54_pays_two_and_stays():
    before, after = around(cat_at(54), roll(6, 6))
    assert positions(after)[CAT] == 54
    assert delta(before, after) == [-2, 2]
    assert after["turn"] == MOUSE                     # no further penalty: the turn passes
    assert after["players"][CAT]["lost_turns"] == 0


def test_kat_en_muis_k4_double_six_off_the_board_pays_two():
    before, after = around([new()] + ANN_LEADS, roll(6, 6))
    assert positions(after) == [None, None]
    assert delta(before, after) == [-2, 2]
    assert after["turn"] == MOUSE


def test_kat_en_muis_k4_double_six_at_55_goes_to_66_and_wins():
    events = cat_at(46) + [step(9), WAIT]              # 46 -> 55 (milestone), Mouse waits
    before, after = around(events, roll(6, 6))
    assert positions(before)[CAT] == 55
    assert positions(after)[CAT] == 66
    assert after["phase"] == "over" and after["winners"] == [CAT]
    assert after["pool"] == 0
    assert delta(before, after) == [before["pool"], 0]   # both pots, nothing else


def test_kat_en_muis_k4_double_six_beyond_55_goes_to_66():
    events = cat_at(54) + [step(4), WAIT]             # 58
    after = play(events + [roll(6, 6)])
    assert positions(after)[CAT] == 66
    assert after["winners"] == [CAT]


def test_kat_en_muis_k4_double_six_jump_passes_over_the_mouse():
    # Mouse on black 6 (red 61); Cat on 55 jumps to 66 over it (K6), then takes the pots.
    events = cat_at(46, mouse=[step(6)]) + [step(9), WAIT]
    before, after = around(events, roll(6, 6))
    assert positions(before) == [55, 6]
    assert delta(before, after) == [before["pool"] - 1, 1]


# -- K5 moving, past 66 -> 48 ---------------------------------------------------------------

def test_kat_en_muis_k5_exact_66_wins():
    events = cat_at(54) + [step(5), WAIT]             # 59
    after = play(events + [step(7)])
    assert positions(after)[CAT] == 66
    assert after["winners"] == [CAT] and after["phase"] == "over"


def test_kat_en_muis_k5_passing_66_bounces_to_48_without_jump_fee():
    # Mouse on black 6 = red 61, strictly between the Cat's 58 and 67: still no chip.
    events = cat_at(54, mouse=[step(6)]) + [step(4), WAIT]
    before, after = around(events, step(9))
    assert positions(before) == [58, 6]
    assert positions(after) == [48, 6]
    assert delta(before, after) == [0, 0]
    assert after["turn"] == MOUSE and after["phase"] == "play"
    assert after["players"][CAT]["lost_turns"] == 0


def test_kat_en_muis_k5_non_double_moves_by_total():
    after = play([new()] + ANN_LEADS + [step(8)])
    assert positions(after)[CAT] == 8


# -- K6 jumping over ------------------------------------------------------------------------

def test_kat_en_muis_k6_passing_over_costs_one():
    # Mouse on black 8 = red 59; Cat 54 -> 61 passes over it.
    events = cat_at(54, mouse=[step(8)])
    before, after = around(events, step(7))
    assert positions(after) == [61, 8]
    assert delta(before, after) == [-1, 1]


def test_kat_en_muis_k6_sharing_a_square_costs_nothing():
    events = cat_at(54, mouse=[step(8)])
    before, after = around(events, step(5))           # 54 -> 59, the Mouse's square
    assert positions(after) == [59, 8]
    assert delta(before, after) == [0, 0]


def test_kat_en_muis_k6_landing_just_short_costs_nothing():
    events = cat_at(54, mouse=[step(8)])
    before, after = around(events, step(4))           # 54 -> 58, below red 59
    assert delta(before, after) == [0, 0]


def test_kat_en_muis_k6_mouse_passing_over_cat_pays_cat():
    # Cat on red 54 = black 13; Mouse black 8 -> 18 passes over it.
    events = cat_at(54, mouse=[step(8)])
    before, after = around(events + [WAIT], step(10))
    assert positions(before) == [54, 8]
    assert positions(after) == [54, 18]
    assert delta(before, after) == [1, -1]


def test_kat_en_muis_k6_double_jump_passes_over():
    # Mouse walks to black 46 (red 21) while the Cat waits on 12; Cat's double 2 -> 22.
    cat = walk([7, 12]) + [WAIT] * 6
    mouse = walk(PATH[:8])
    events = [new(purse=100)] + ANN_LEADS + interleave(cat, mouse)
    before, after = around(events, roll(2, 2))
    assert positions(before) == [12, 46]
    assert positions(after) == [22, 46]
    # Cat pays 1 for the jump, then the Mouse pays 2 for square 22.
    assert delta(before, after) == [1, -1]
    new_lines = after["log"][len(before["log"]):]
    assert any("Ann pays Ben 1 chip" in line for line in new_lines)
    assert any("Ben pays Ann 2 chips" in line for line in new_lines)


def test_kat_en_muis_k6_counter_at_0_cannot_be_passed():
    # The Cat is still at 0 (its double six moved nothing); the Mouse moves 0 -> 8.
    events = [new()] + ANN_LEADS + [WAIT]
    before, after = around(events, step(8))
    assert positions(after) == [None, 8]
    assert delta(before, after) == [0, 0]


def test_kat_en_muis_k6_mouse_at_0_cannot_be_passed_on_the_way_to_66():
    events = cat_at(54) + [step(5), WAIT]
    before, after = around(events, step(7))           # 59 -> 66, Mouse still at 0
    assert positions(after) == [66, None]
    assert delta(before, after) == [before["pool"], 0]


# -- K7 landing squares ---------------------------------------------------------------------

@pytest.mark.parametrize("start, square", [(0, 11), (12, 22), (24, 33), (38, 44), (46, 55)])
def test_kat_en_muis_k7_milestone_other_pays_two(start, square):
    before, after = around(cat_at(start), step(square - start))
    assert positions(after)[CAT] == square
    assert delta(before, after) == [2, -2]
    assert after["turn"] == MOUSE


@pytest.mark.parametrize("start, square", [(0, 4), (0, 9), (12, 16), (31, 36), (43, 49),
                                           (54, 64)])
def test_kat_en_muis_k7_mover_pays_one(start, square):
    before, after = around(cat_at(start), step(square - start))
    assert positions(after)[CAT] == square
    assert delta(before, after) == [-1, 1]
    assert after["turn"] == MOUSE
    assert after["players"][CAT]["lost_turns"] == 0


@pytest.mark.parametrize("start, square", [(0, 5), (12, 15), (24, 35), (38, 45), (54, 65)])
def test_kat_en_muis_k7_lose_next_turn(start, square):
    events = cat_at(start) + [step(square - start)]
    before, after = play(events[:-1]), play(events)
    assert positions(after)[CAT] == square
    assert delta(before, after) == [0, 0]
    assert after["players"][CAT]["lost_turns"] == 1
    assert after["turn"] == MOUSE
    # X7: the Mouse throws; the Cat's turn is skipped without any event.
    later = play(events + [step(3)])
    assert later["turn"] == MOUSE
    assert later["players"][CAT]["lost_turns"] == 0
    assert any("Ann" in line and "loses" in line for line in later["log"][-3:])
    assert play(events + [step(3), step(3)])["turn"] == CAT


def test_kat_en_muis_k7_square_25_pays_and_loses_next_turn():
    before, after = around(cat_at(18), step(7))
    assert positions(after)[CAT] == 25
    assert delta(before, after) == [-1, 1]
    assert after["players"][CAT]["lost_turns"] == 1


@pytest.mark.parametrize("start, square", [(0, 10), (12, 20), (24, 30), (31, 40), (43, 50),
                                           (54, 60)])
def test_kat_en_muis_k7_throw_again(start, square):
    before, after = around(cat_at(start), step(square - start))
    assert positions(after)[CAT] == square
    assert delta(before, after) == [0, 0]
    assert (after["turn"], after["awaiting"]) == (CAT, "roll")   # X7: no input needed
    again = play(cat_at(start) + [step(square - start), step(3)])
    assert positions(again)[CAT] == square + 3
    assert again["turn"] == MOUSE


def test_kat_en_muis_k7_plain_square_has_no_effect():
    before, after = around(cat_at(0), step(7))
    assert delta(before, after) == [0, 0]
    assert after["players"][CAT]["lost_turns"] == 0
    assert after["turn"] == MOUSE


def test_kat_en_muis_k7_mouse_squares_are_in_its_own_numbering():
    events = [new()] + ANN_LEADS + [step(7)]
    before, after = around(events, step(4))           # Mouse to black 4 (red 63)
    assert positions(after) == [7, 4]
    assert delta(before, after) == [1, -1]
    before, after = around(events, step(11))          # Mouse to black 11
    assert delta(before, after) == [-2, 2]


# -- K8 end ---------------------------------------------------------------------------------

def test_kat_en_muis_k8_first_to_66_takes_both_pots():
    events = [new()] + ANN_LEADS + [step(7), step(8)]
    # Cat on 7, Mouse on black 8 (red 59); the Cat walks on, the Mouse waits.
    cat = walk([12, 18, 24, 31, 38, 43, 46, 54, 59], start=7) + [step(7)]
    mouse = [WAIT] * (len(cat) - 1)
    events += interleave(cat, mouse)
    state = play(events)
    assert positions(state)[CAT] == 66
    assert (state["phase"], state["turn"], state["awaiting"]) == ("over", None, None)
    assert state["winners"] == [CAT]
    assert state["pool"] == 0
    # The Cat passed over the Mouse on red 59 (black 8) once: 54 -> 59 shares; 59 -> 66 does
    # not pass (59 is not strictly between). The Mouse waited 9 times: 9 x 2 = 18, paid
    # from 15: 15 then forgiven 3. Cat: 15 + 15 + pots 10 = 40; total 40.
    assert chips(state) == [40, 0]
    assert any("could not pay 1" in line for line in state["log"])   # X3


def test_kat_en_muis_k8_mouse_can_win():
    cat = [WAIT] * 9
    mouse = walk(PATH) + [step(5), step(7)]
    # Mouse: 7,12,...,54, 59, 66; the Cat waits each time (pays 2; 15 chips last 7 waits).
    events = [new()] + ANN_LEADS + interleave(cat + [WAIT, WAIT], mouse)
    state = play(events)
    assert positions(state) == [None, 66]
    assert state["winners"] == [MOUSE]
    assert state["pool"] == 0
    assert sum(chips(state)) == 40


def test_kat_en_muis_k8_every_chip_movement_is_logged():
    events = cat_at(0, purse=20)
    for event in [step(4), step(11), roll(2, 2), step(3), roll(6, 6), step(10), step(4)]:
        before, after = around(events, event)
        moved = [abs(d) for d in delta(before, after)] + [abs(after["pool"] - before["pool"])]
        lines = after["log"][len(before["log"]):]
        payments = [line for line in lines if " pays " in line or " takes " in line]
        if any(moved):
            assert payments, lines
        else:
            assert not payments, lines
        events.append(event)


def test_kat_en_muis_k8_no_throw_after_the_end():
    events = cat_at(54) + [step(5), WAIT, step(7)]
    assert play(events)["phase"] == "over"
    with pytest.raises(LogError, match="over"):
        play(events + [step(3)])
