"""Cats and Dogs, ruling by ruling (C1-C5 of RULINGS.md), played as logs and replayed.

Default board: Finish is 40; arrows 7->15, 12->4, 19->27, 26->17, 30->36, 35->23. Short
scenarios use a board of their own (track_length 12) passed in the new_game event.
"""

import pytest

from companion.errors import LogError
from companion.replay import replay

GAME = "cats-and-dogs"
ANN, BEN, CY = 0, 1, 2
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
PICTURES = {7: 15, 12: 4, 19: 27, 26: 17, 30: 36, 35: 23}


def new(players=2, board=None):
    event = {"type": "new_game", "game": GAME, "players": NAMES[:players]}
    if board is not None:
        event["board"] = board
    return event


def spins(*values):
    return [{"type": "roll", "values": [v]} for v in values]


def play(events):
    return replay(events).to_json()


def positions(state):
    return [p["position"] for p in state["players"]]


ANN_FIRST = spins(6, 1)                  # Ann spins higher: order Ann, Ben


def short(arrows=None):
    return [new(board={"track_length": 12, "arrows": arrows or {}})] + ANN_FIRST


# -- C1 order -------------------------------------------------------------------------------

def test_cats_and_dogs_c1_descending_order_of_spin():
    state = play([new(3)] + spins(2, 6, 4))
    assert (state["phase"], state["order"], state["turn"]) == ("play", [1, 2, 0], BEN)
    # Play follows that order: Ben, Cy, Ann, Ben.
    events = [new(3)] + spins(2, 6, 4)
    turns = []
    for value in (1, 2, 3):
        events += spins(value)
        turns.append(play(events)["turn"])
    assert turns == [CY, ANN, BEN]


def test_cats_and_dogs_c1_pieces_start_on_start():
    assert positions(play([new(4)])) == [0, 0, 0, 0]


def test_cats_and_dogs_c1_tied_players_spin_again_among_themselves():
    events = [new(3)] + spins(5, 3, 5)               # Ann and Cy tie on top
    state = play(events)
    assert (state["phase"], state["turn"]) == ("lead", ANN)
    assert play(events + spins(2))["turn"] == CY      # Ben does not spin again
    state = play(events + spins(2, 6))
    assert (state["phase"], state["order"], state["turn"]) == ("play", [2, 0, 1], CY)


def test_cats_and_dogs_c1_tied_groups_settled_from_the_highest_down():
    # Ann 2, Ben 4, Cy 2, Dee 4, Eve 1: groups [Ben, Dee] [Ann, Cy] [Eve].
    events = [new(5)] + spins(2, 4, 2, 4, 1)
    expected_turns = [BEN, 3, ANN, CY, ANN, CY]
    # Ben 3, Dee 5 -> Dee, Ben; then Ann 6, Cy 6 tie again; Ann 1, Cy 4 -> Cy, Ann.
    settle = [3, 5, 6, 6, 1, 4]
    seen = [play(events)["turn"]]
    for value in settle[:-1]:
        events += spins(value)
        seen.append(play(events)["turn"])
    assert seen == expected_turns
    state = play(events + spins(settle[-1]))
    assert state["phase"] == "play"
    assert state["order"] == [3, 1, 2, 0, 4]
    assert state["turn"] == 3


def test_cats_and_dogs_c1_group_that_ties_again_splits_the_same_way():
    # All three tie on 4; then Ann 6, Ben 2, Cy 6: [Ann, Cy] [Ben]; then Ann 1, Cy 3.
    events = [new(3)] + spins(4, 4, 4)
    assert play(events)["turn"] == ANN
    events += spins(6, 2, 6)
    state = play(events)
    assert (state["phase"], state["turn"]) == ("lead", ANN)
    state = play(events + spins(1, 3))
    assert state["order"] == [2, 0, 1]


def test_cats_and_dogs_c1_lower_group_splits_in_three():
    # Ann 6; Ben, Cy, Dee tie on 2; they spin 5, 1, 3: order Ann, Ben, Dee, Cy.
    state = play([new(4)] + spins(6, 2, 2, 2) + spins(5, 1, 3))
    assert state["order"] == [0, 1, 3, 2]


# -- C2 moving ------------------------------------------------------------------------------

def test_cats_and_dogs_c2_moves_forward_from_start():
    state = play([new()] + ANN_FIRST + spins(4))
    assert positions(state) == [4, 0]
    assert state["turn"] == BEN


def test_cats_and_dogs_c2_onto_occupied_square_loses_the_turn():
    events = [new()] + ANN_FIRST + spins(3, 3)       # Ben's 3 lands on Ann
    state = play(events)
    assert positions(state) == [3, 0]
    assert state["turn"] == ANN
    assert state["players"][BEN]["lost_turns"] == 0  # only this turn is lost
    state = play(events + spins(1, 2))               # Ann 4, Ben 2: Ben moves again
    assert positions(state) == [4, 2]


def test_cats_and_dogs_c2_blocked_on_the_board_not_only_from_start():
    events = [new()] + ANN_FIRST + spins(5, 2, 1)    # Ann 5, Ben 2, Ann 6
    state = play(events + spins(4))                  # Ben 2 -> 6: Ann's square
    assert positions(state) == [6, 2]
    assert state["turn"] == ANN


# -- C3 finish ------------------------------------------------------------------------------

def test_cats_and_dogs_c3_exact_finish_wins():
    state = play(short() + spins(6, 1, 6))
    assert positions(state) == [12, 1]
    assert (state["phase"], state["winners"], state["turn"]) == ("over", [ANN], None)


def test_cats_and_dogs_c3_passing_finish_moves_back_by_the_spin():
    state = play(short() + spins(6, 1, 5, 1, 4))     # Ann 11, spins 4: back to 7
    assert positions(state) == [7, 2]
    assert (state["phase"], state["turn"]) == ("play", BEN)


def test_cats_and_dogs_c3_backward_swap():
    # Ann 6, Ben 2, Ann 11, Ben 5; Ann spins 6 from 11: back to 5, Ben's square: they swap.
    state = play(short() + spins(6, 2, 5, 3, 6))
    assert positions(state) == [5, 11]
    assert state["turn"] == BEN


def test_cats_and_dogs_c3_swapped_piece_does_not_follow_arrows():
    # Arrow 9 -> 3. Ann 5, Ben 3; Ann 9: the arrow's 3 is Ben's, so Ann stays on 9.
    # Ben 3 -> 5. Ann spins 4 from 9: back to 5, swap: Ben goes to 9 and stays (3 is free).
    events = short({"9": 3}) + spins(5, 3, 4)
    assert positions(play(events)) == [9, 3]
    state = play(events + spins(2, 4))
    assert positions(state) == [5, 9]


def test_cats_and_dogs_c3_mover_of_a_swap_still_follows_its_arrow():
    # Arrow 5 -> 2. Ann 2; Ben 5 (2 is Ann's: Ben stays on 5); Ann 8; Ben 3 onto 8: loses the
    # turn; Ann 10; Ben 5 onto 10: loses the turn; Ann spins 5 from 10: back to 5, Ben's:
    # they swap (Ben to 10), and Ann, who ended her move on 5, follows the arrow to 2.
    events = short({"5": 2}) + spins(2, 5)
    assert positions(play(events)) == [2, 5]
    state = play(events + spins(6, 3, 2, 5, 5))
    assert positions(state) == [2, 10]


def test_cats_and_dogs_c3_backward_onto_picture_square_follows_arrow():
    # Arrow 5 -> 1. Ann 6, Ben 2, Ann 11, Ben 4; Ann spins 6 from 11: back to 5, then 1.
    state = play(short({"5": 1}) + spins(6, 2, 5, 2, 6))
    assert positions(state) == [1, 4]


def test_cats_and_dogs_c3_backward_from_finish_minus_one():
    # Ann 11 spins 2 (13 > 12): back 2 to 9.
    state = play(short() + spins(6, 1, 5, 1, 2))
    assert positions(state)[ANN] == 9


# -- C4 arrows ------------------------------------------------------------------------------

def _route(square, avoid=()):
    """Squares from Start to `square` in spins of 1..6 that land on no picture square."""
    route, at = [], 0
    while square - at > 6:
        at = next(s for s in range(at + 6, at, -1) if s not in PICTURES and s not in avoid)
        route.append(at)
    route.append(square)
    return route


def _beside(count, avoid):
    """Ben's squares, one or two apart, on no picture square, arrow target or Ann's square."""
    out, at = [], 0
    for _ in range(count):
        at += 1
        while at in PICTURES or at in PICTURES.values() or at in avoid:
            at += 1
        out.append(at)
    return out


def _walk(ann, ben):
    out, a, b = [], 0, 0
    for i, square in enumerate(ann):
        out += spins(square - a)
        a = square
        if i < len(ben):
            out += spins(ben[i] - b)
            b = ben[i]
    return out


@pytest.mark.parametrize("picture, target", sorted(PICTURES.items()))
def test_cats_and_dogs_c4_arrow_followed_forward_and_backward(picture, target):
    ann = _route(picture)
    ben = _beside(len(ann) - 1, set(ann))
    state = play([new()] + ANN_FIRST + _walk(ann, ben))
    assert positions(state)[ANN] == target
    assert state["turn"] == BEN


def test_cats_and_dogs_c4_arrow_to_an_occupied_square_stays():
    # Ann 6, Ben 4, Ann 12: the arrow leads to 4, Ben's square: Ann stays on 12.
    state = play([new()] + ANN_FIRST + spins(6, 4, 6))
    assert positions(state) == [12, 4]


def test_cats_and_dogs_c4_backward_move_onto_default_picture_follows_arrow():
    # Ann reaches 38, then spins 3 (41 > 40): back 3 to 35, which leads to 23.
    ann = _route(38) + [35]
    ben = _beside(len(ann) - 1, set(ann) | {23})
    events = [new()] + ANN_FIRST
    a, b = 0, 0
    for i, square in enumerate(ann):
        events += spins(3 if square == 35 else square - a)
        a = square
        if i < len(ben):
            events += spins(ben[i] - b)
            b = ben[i]
    state = play(events)
    assert positions(state)[ANN] == 23


def test_cats_and_dogs_c4_arrow_followed_once_only():
    # 3 -> 9 and 9 -> 1: a piece arriving on 9 by an arrow does not go on to 1.
    state = play(short({"3": 9, "9": 1}) + spins(3))
    assert positions(state) == [9, 0]


# -- C5 end ---------------------------------------------------------------------------------

def test_cats_and_dogs_c5_first_on_finish_wins():
    ann = _route(40)
    ben = _beside(len(ann) - 1, set(ann))
    state = play([new()] + ANN_FIRST + _walk(ann, ben))
    assert positions(state)[ANN] == 40
    assert (state["phase"], state["turn"], state["awaiting"]) == ("over", None, None)
    assert state["winners"] == [ANN]


def test_cats_and_dogs_c5_no_spin_after_the_end():
    with pytest.raises(LogError, match="over"):
        play(short() + spins(6, 1, 6, 1))


def test_cats_and_dogs_spin_off_the_spinner_refused():
    with pytest.raises(LogError, match="7 is off"):
        play([new()] + ANN_FIRST + spins(7))
    with pytest.raises(LogError, match="0 is off"):
        play([new()] + spins(0))


def test_cats_and_dogs_plays_without_chips():
    transfer = {"type": "transfer", "from": 0, "to": "pool", "amount": 1}
    with pytest.raises(LogError, match="without chips"):
        play([new()] + ANN_FIRST + [transfer])



def test_c1_play_order_is_how_the_screens_list_players():
    """With 3 or more players the ranked order is not seat order: the screens list players
    in it (`row_order`); where it is seat order turning from the leader, by seat."""
    from companion.state import row_order
    state = play([new(4)] + spins(6, 3, 6, 3, 1, 2, 5, 4))
    assert state["order"] == [2, 0, 1, 3] and row_order(state) == [2, 0, 1, 3]
    two = play([new(2)] + spins(1, 6))                       # Ben leads: seat order stays
    assert two["order"] == [1, 0] and row_order(two) == [0, 1]
