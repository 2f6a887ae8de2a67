"""Cats and Dogs, ruling by ruling (C1-C5). Default board: Finish 40, arrows 7->15, 12->4,
19->27, 26->17, 30->36, 35->23."""

import pytest

from companion.errors import Refused
from companion.events import Roll, Transfer

ANN, BEN, CY, DI = 0, 1, 2, 3
GAME = "cats-and-dogs"


@pytest.fixture
def race(start):
    """Two players in play, Ann first, both on Start."""
    return start(GAME, lead=[(6,), (1,)])


def positions(state):
    return [p.position for p in state.players]


# -- C1 order ---------------------------------------------------------------------------------

def test_cats_and_dogs_c1_play_goes_in_descending_order_of_spin(start):
    state = start(GAME, players=("Ann", "Ben", "Cy"), lead=[(2,), (6,), (4,)]).state
    assert state.phase == "play"
    assert state.order == [BEN, CY, ANN]
    assert state.turn == BEN


def test_cats_and_dogs_c1_tied_groups_settled_highest_first_and_split_again(start):
    table = start(GAME, players=("Ann", "Ben", "Cy", "Di"), lead=[(3,), (3,), (5,), (5,)])
    lead = table.state.lead
    assert lead.groups == [[CY, DI], [ANN, BEN]]
    assert lead.pending == [CY, DI]                          # the higher tie first, seat order
    table.apply(Roll(values=(1,)))
    table.apply(Roll(values=(1,)))                           # they tie again
    assert table.state.lead.pending == [CY, DI]
    table.apply(Roll(values=(2,)))
    table.apply(Roll(values=(6,)))
    assert table.state.lead.pending == [ANN, BEN]
    assert table.state.turn == ANN
    table.apply(Roll(values=(1,)))
    table.apply(Roll(values=(4,)))
    assert table.state.order == [DI, CY, BEN, ANN]
    assert table.state.turn == DI


def test_cats_and_dogs_c1_a_tie_spins_again_in_the_log(start):
    """Every lead line of a spinner game says "spins", yet its tie said "and throw again";
    the box's turn screen under it says "spin again". The log says what the table does."""
    table = start(GAME, players=("Ann", "Ben", "Cy"), lead=[(4,), (4,), (2,)])
    assert table.state.log[-1] == "Ann and Ben tie on 4 and spin again"
    kat = start("kat-en-muis", lead=[(3, 4), (5, 2)])           # dice are thrown again
    assert kat.state.log[-1] == "Ann and Ben tie on 7 and throw again"


def test_cats_and_dogs_c1_a_three_way_tie_splits_the_same_way(start):
    table = start(GAME, players=("Ann", "Ben", "Cy"), lead=[(4,), (4,), (4,)])
    assert table.state.lead.pending == [ANN, BEN, CY]
    for values in [(2,), (5,), (2,), (3,), (1,)]:
        table.apply(Roll(values=values))
    assert table.state.order == [BEN, ANN, CY]


def test_cats_and_dogs_turns_follow_the_ranking(start, throw):
    state = start(GAME, players=("Ann", "Ben", "Cy"), lead=[(2,), (6,), (4,)]).state
    seen = []
    for _ in range(4):
        seen.append(state.turn)
        state = throw(state, 1)
    assert seen == [BEN, CY, ANN, BEN]


# -- C2 moving --------------------------------------------------------------------------------

def test_cats_and_dogs_c2_moves_forward_from_start(race, throw):
    state = throw(race.state, 4)
    assert positions(state) == [4, 0]
    assert state.turn == BEN
    assert positions(throw(state, 3)) == [4, 3]


def test_cats_and_dogs_c2_both_on_start_do_not_block(race, throw):
    assert positions(race.state) == [0, 0]
    assert positions(throw(race.state, 3)) == [3, 0]


def test_cats_and_dogs_c2_forward_onto_occupied_square_loses_the_turn(race, placed, throw):
    state = throw(placed(race.state, {ANN: 3, BEN: 5}), 2)
    assert positions(state) == [3, 5]
    assert state.turn == BEN
    assert "loses the turn" in state.log[-1]


# -- C3 finish --------------------------------------------------------------------------------

def test_cats_and_dogs_c3_past_finish_moves_back_by_the_spin(race, placed, throw):
    state = throw(placed(race.state, {ANN: 37}), 5)
    assert positions(state) == [32, 0]
    assert state.turn == BEN and not state.over


def test_cats_and_dogs_c3_backward_onto_occupied_square_swaps(race, placed, throw):
    state = throw(placed(race.state, {ANN: 38, BEN: 34}), 4)
    assert positions(state) == [34, 38]


# -- C4 arrows --------------------------------------------------------------------------------

@pytest.mark.parametrize("picture, to", [(7, 15), (12, 4), (19, 27), (26, 17), (30, 36),
                                         (35, 23)])
def test_cats_and_dogs_c4_picture_square_follows_its_arrow(race, placed, throw, picture, to):
    state = throw(placed(race.state, {ANN: picture - 2}), 2)
    assert state.players[ANN].position == to


def test_cats_and_dogs_c4_arrow_to_an_occupied_square_stays(race, placed, throw):
    state = throw(placed(race.state, {ANN: 5, BEN: 15}), 2)
    assert positions(state) == [7, 15]
    assert "taken" in state.log[-1]


def test_cats_and_dogs_c4_backward_onto_a_picture_follows_the_arrow(race, placed, throw):
    state = throw(placed(race.state, {ANN: 38}), 3)
    assert state.players[ANN].position == 23


def test_cats_and_dogs_c4_passing_a_picture_square_does_nothing(race, placed, throw):
    state = throw(placed(race.state, {ANN: 5}), 4)
    assert state.players[ANN].position == 9


def test_cats_and_dogs_c4_swapped_piece_does_not_follow_arrows(race, placed, throw):
    # Ann on picture 35 (its arrow's end taken when she came) spins 6: back to 29, Ben's.
    state = throw(placed(race.state, {ANN: 35, BEN: 29}), 6)
    assert positions(state) == [29, 35]


def test_cats_and_dogs_c4_mover_swapping_onto_a_picture_follows(race, placed, throw):
    state = throw(placed(race.state, {ANN: 39, BEN: 35}), 4)
    assert positions(state) == [23, 39]


def test_cats_and_dogs_c4_arrows_come_from_board_data(start, throw):
    table = start(GAME, lead=[(6,), (1,)], board={"track_length": 20, "arrows": {"3": 11}})
    assert throw(table.state, 3).players[ANN].position == 11
    assert throw(table.state, 5).players[ANN].position == 5


# -- C5 end -----------------------------------------------------------------------------------

def test_cats_and_dogs_c5_exact_count_to_finish_wins(race, placed, throw):
    state = throw(placed(race.state, {ANN: 36}), 4)
    assert state.players[ANN].position == 40
    assert state.over and state.winners == [ANN] and state.turn is None
    with pytest.raises(Refused, match="over"):
        throw(state, 1)


def test_cats_and_dogs_c5_finish_follows_track_length(start, placed, throw):
    table = start(GAME, lead=[(6,), (1,)], board={"track_length": 12, "arrows": {}})
    state = throw(placed(table.state, {ANN: 8}), 4)
    assert state.winners == [ANN]


# -- board data and chips ---------------------------------------------------------------------

@pytest.mark.parametrize("board, words", [
    ({"track_length": 11, "arrows": {}}, "'track_length' must be a whole number from 12 to 200"),
    ({"track_length": True, "arrows": {}}, "'track_length'"),
    ({"track_length": 40, "arrows": {"7": 40}}, "square 40 is off the track"),
    ({"track_length": 40, "arrows": {"0": 5}}, "square 0 is off the track"),
    ({"track_length": 40, "arrows": {"7": 7}}, "points into itself"),
    ({"track_length": 40, "arrows": {"seven": 15}}, "not a square number"),
    ({"track_length": 40, "arrows": {"7": "15"}}, "not a square number"),
    ({"track_length": 40, "arrows": [7, 15]}, "'arrows' must map"),
])
def test_cats_and_dogs_bad_board_data_refused(start, board, words):
    with pytest.raises(Refused, match=words):
        start(GAME, board=board)


def test_cats_and_dogs_default_board_is_the_shipped_one(start):
    board = start(GAME).state.board
    assert board["track_length"] == 40
    assert board["arrows"] == {"7": 15, "12": 4, "19": 27, "26": 17, "30": 36, "35": 23}


def test_cats_and_dogs_has_no_chips_to_transfer(race):
    with pytest.raises(Refused, match="without chips"):
        race.attempt(Transfer(source=ANN, target=BEN, amount=1))
