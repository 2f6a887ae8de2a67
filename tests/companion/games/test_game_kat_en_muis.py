"""Kat en Muis, ruling by ruling (K1-K8). Ann (seat 0) is Cat on red, Ben (seat 1) Mouse on black;
red square r is black square 67 - r."""

import pytest

from companion.errors import Refused
from companion.events import NewGame, Roll

ANN, BEN = 0, 1


def red_to_black(square: int) -> int:
    return 67 - square


def chips(state):
    return [p.chips for p in state.players]


# -- K1 setup ---------------------------------------------------------------------------------

def test_kat_en_muis_k1_stakes_go_from_purse_to_pots(start):
    state = start("kat-en-muis", options={"purse": 30, "stake": 7}).state
    assert chips(state) == [23, 23]
    assert state.pool == 14
    assert [p.position for p in state.players] == [None, None]


def test_kat_en_muis_k1_defaults_are_purse_20_stake_5(start):
    state = start("kat-en-muis").state
    assert state.options == {"purse": 20, "stake": 5}
    assert chips(state) == [15, 15] and state.pool == 10


def test_kat_en_muis_k1_stake_above_purse_refused(start):
    with pytest.raises(Refused, match="stake"):
        start("kat-en-muis", options={"purse": 3, "stake": 4})


@pytest.mark.parametrize("options, words", [
    ({"stake": -1}, "from 0"),
    ({"purse": "20"}, "whole number"),
    ({"purse": True}, "whole number"),
    ({"ante": 2}, "no option 'ante'"),
])
def test_kat_en_muis_k1_bad_option_refused(start, options, words):
    with pytest.raises(Refused, match=words):
        start("kat-en-muis", options=options)


def test_kat_en_muis_is_for_two_players_only(start):
    with pytest.raises(Refused, match="2 players, not 3"):
        start("kat-en-muis", players=("Ann", "Ben", "Cy"))


# -- K2 lead ----------------------------------------------------------------------------------

def test_kat_en_muis_k2_higher_lead_throw_is_cat_and_throws_first(start):
    state = start("kat-en-muis", lead=[(1, 2), (4, 1)]).state
    assert state.phase == "play"
    assert [p.role for p in state.players] == ["mouse", "cat"]
    assert state.turn == BEN and state.order == [BEN, ANN]
    assert "Ben is Cat" in state.log[-1]


def test_kat_en_muis_k2_tied_lead_throws_again_seat_0_first(start):
    table = start("kat-en-muis", lead=[(3, 3), (4, 2)])
    assert table.state.phase == "lead" and table.state.turn == ANN
    assert "tie on 6" in table.state.log[-1]
    table.apply(Roll(values=(1, 1)))
    assert table.state.turn == BEN
    table.apply(Roll(values=(2, 1)))
    assert table.state.players[BEN].role == "cat"


def test_kat_en_muis_k2_cat_and_mouse_alternate(kat):
    table = kat
    seats = []
    for values in [(1, 2), (1, 2), (2, 1), (2, 1)]:      # 3, then 6: no special squares
        seats.append(table.state.turn)
        table.apply(Roll(values=values))
    assert seats == [ANN, BEN, ANN, BEN]


def test_kat_en_muis_prompt_names_the_role(kat):
    assert kat.to_json()["prompt"] == "Ann (Cat) - throw the dice"


# -- K3 doubles to milestones -----------------------------------------------------------------

@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("offset", [0, 10])
def test_kat_en_muis_k3_double_jumps_to_milestone(kat, placed, throw, k, offset):
    square = 11 * (k - 1) + offset
    state = placed(kat.state, {ANN: square or None})
    assert throw(state, k, k).players[ANN].position == 11 * k


@pytest.mark.parametrize("k, square", [(1, 11), (1, 30), (2, 0), (2, 22), (3, 7), (5, 56)])
def test_kat_en_muis_k3_double_outside_its_stretch_counts_its_total(kat, placed, throw, k,
                                                                   square):
    state = placed(kat.state, {ANN: square or None})
    assert throw(state, k, k).players[ANN].position == square + 2 * k


# -- K4 double six ----------------------------------------------------------------------------

@pytest.mark.parametrize("square", [None, 20, 54])
def test_kat_en_muis_k4_double_six_before_55_pays_two_and_stays(kat, placed, throw, square):
    state = throw(placed(kat.state, {ANN: square, BEN: 3}), 6, 6)
    assert state.players[ANN].position == square
    assert chips(state) == [13, 17]
    assert state.turn == BEN
    assert state.players[ANN].lost_turns == 0


@pytest.mark.parametrize("square", [55, 60, 65])
def test_kat_en_muis_k4_double_six_from_55_goes_to_66_and_wins(kat, placed, throw, square):
    state = throw(placed(kat.state, {ANN: square}), 6, 6)
    assert state.players[ANN].position == 66
    assert state.winners == [ANN] and state.over


# -- K5 moving --------------------------------------------------------------------------------

def test_kat_en_muis_k5_moves_forward_by_total(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 12}), 2, 5)
    assert state.players[ANN].position == 19
    assert state.turn == BEN


def test_kat_en_muis_k5_passing_66_goes_to_48_without_fees(kat, placed, throw):
    # Ben stands on red 64 (black 3): passed on the way out, but K5 charges nothing.
    state = throw(placed(kat.state, {ANN: 62, BEN: red_to_black(64)}), 3, 4)
    assert state.players[ANN].position == 48
    assert chips(state) == [15, 15]
    assert state.turn == BEN


def test_kat_en_muis_k5_exact_66_wins_and_takes_both_pots(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 60}), 2, 4)
    assert state.players[ANN].position == 66
    assert state.phase == "over" and state.turn is None and state.awaiting is None
    assert state.winners == [ANN]
    assert chips(state) == [25, 15] and state.pool == 0


def test_kat_en_muis_mouse_moves_on_the_black_numbers(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 3}, turn=BEN), 1, 2)
    assert state.players[BEN].position == 3
    assert state.players[ANN].position == 3          # the same number, other end of the path
    assert chips(state) == [15, 15]


# -- K6 jumping over --------------------------------------------------------------------------

def test_kat_en_muis_k6_jump_over_costs_one(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 10, BEN: red_to_black(17)}), 3, 5)
    assert state.players[ANN].position == 18
    assert chips(state) == [14, 16]


def test_kat_en_muis_k6_mouse_jumping_over_cat_pays_cat(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: red_to_black(27), BEN: 20}, turn=BEN), 4, 5)
    assert state.players[BEN].position == 29
    assert chips(state) == [16, 14]


def test_kat_en_muis_k6_sharing_a_square_has_no_effect(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 10, BEN: red_to_black(17)}), 3, 4)
    assert state.players[ANN].position == 17
    assert chips(state) == [15, 15]


def test_kat_en_muis_k6_leaving_the_shared_square_is_not_passing(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 17, BEN: red_to_black(17)}), 1, 2)
    assert state.players[ANN].position == 20
    assert chips(state) == [15, 15]


def test_kat_en_muis_k6_counter_at_0_cannot_be_passed(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 60, BEN: None}), 1, 2)
    assert state.players[ANN].position == 63
    assert chips(state) == [15, 15]


def test_kat_en_muis_k6_k3_jump_over_costs_one(kat, placed, throw):
    # 12 -> 22 by double 2 passes Ben on red 17: pay 1; then K7 on 22: Ben pays 2.
    state = throw(placed(kat.state, {ANN: 12, BEN: red_to_black(17)}), 2, 2)
    assert state.players[ANN].position == 22
    assert chips(state) == [16, 14]


def test_kat_en_muis_k6_k4_jump_over_costs_one(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 56, BEN: red_to_black(62)}), 6, 6)
    assert state.winners == [ANN]
    assert chips(state) == [15 - 1 + 10, 16]


# -- K7 landing squares -----------------------------------------------------------------------

@pytest.mark.parametrize("square", [11, 22, 33, 44, 55])
def test_kat_en_muis_k7_milestone_other_pays_two(kat, placed, throw, square):
    state = throw(placed(kat.state, {ANN: square - 7}), 3, 4)
    assert state.players[ANN].position == square
    assert chips(state) == [17, 13]
    assert state.turn == BEN


@pytest.mark.parametrize("square", [4, 9, 16, 36, 49, 64])
def test_kat_en_muis_k7_square_mover_pays_one(kat, placed, throw, square):
    state = throw(placed(kat.state, {ANN: square - 3}), 1, 2)
    assert state.players[ANN].position == square
    assert chips(state) == [14, 16]
    assert state.turn == BEN


@pytest.mark.parametrize("square", [5, 15, 35, 45, 65])
def test_kat_en_muis_k7_lose_next_turn(kat, placed, throw, square):
    state = throw(placed(kat.state, {ANN: square - 3}), 1, 2)
    assert state.players[ANN].lost_turns == 1
    assert state.turn == BEN
    state = throw(state, 1, 2)                       # Ben plays; Ann's turn is spent
    assert state.turn == BEN
    assert state.players[ANN].lost_turns == 0
    assert "Ann loses this turn" in state.log
    state = throw(state, 1, 2)
    assert state.turn == ANN


@pytest.mark.parametrize("square", [10, 20, 30, 40, 50, 60])
def test_kat_en_muis_k7_throw_again(kat, placed, throw, square):
    state = throw(placed(kat.state, {ANN: square - 3}), 1, 2)
    assert state.players[ANN].position == square
    assert state.turn == ANN and state.awaiting == "roll"
    state = throw(state, 1, 2)
    assert state.players[ANN].position == square + 3
    assert state.turn == BEN


def test_kat_en_muis_k7_square_25_pays_then_loses_turn(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 22}), 1, 2)
    assert chips(state) == [14, 16]
    assert state.players[ANN].lost_turns == 1
    paid = next(i for i, line in enumerate(state.log) if "pays Ben 1 chip" in line)
    lost = next(i for i, line in enumerate(state.log) if "lose the next turn" in line)
    assert paid < lost


def test_kat_en_muis_k7_x3_other_short_of_chips_pays_what_it_holds(kat, placed, throw):
    state = placed(kat.state, {ANN: 15})
    state.players[BEN].chips, state.pool = 1, 24          # same total on the table
    state = throw(state, 3, 4)
    assert chips(state) == [16, 0]
    assert "Ben could not pay 1; forgiven" in state.log


# -- K8 end -----------------------------------------------------------------------------------

def test_kat_en_muis_k8_no_throw_after_the_win(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 63}), 1, 2)
    assert state.over
    with pytest.raises(Refused, match="over"):
        throw(state, 1, 2)


def test_kat_en_muis_k8_every_chip_movement_is_logged(kat, placed, throw):
    state = throw(placed(kat.state, {ANN: 12, BEN: red_to_black(17)}), 2, 2)
    new_lines = state.log[len(kat.state.log):]
    assert any("Ann pays Ben 1 chip (jumping over Ben)" == line for line in new_lines)
    assert any("Ben pays Ann 2 chips (square 22)" == line for line in new_lines)


# -- X5 one roll per request ------------------------------------------------------------------

@pytest.mark.parametrize("values, words", [((3,), r"two numbers \(such as 3 and 4\), not 1"),
                                           ((3, 7), "7 is off"),
                                           ((0, 1), "0 is off"), ((1, 2, 3), "not 3")])
def test_kat_en_muis_x5_roll_off_the_dice_refused(kat, values, words):
    with pytest.raises(Refused, match=words):
        kat.attempt(Roll(values=values))


def test_kat_en_muis_second_new_game_in_one_log_refused(kat):
    with pytest.raises(Refused, match="already under way"):
        kat.attempt(NewGame(game="kat-en-muis", players=("Ann", "Ben")))
