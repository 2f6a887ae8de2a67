"""Life's Mishaps, ruling by ruling (L1-L7). Default picture spaces 3, 8, 13, 18, 24, 31, 38,
43."""

import pytest

from companion.errors import Refused
from companion.events import Roll, Transfer

ANN, BEN, CY = 0, 1, 2
GAME = "lifes-mishaps"


@pytest.fixture
def mishaps(start):
    """Two players in play, Ann first: 16 counters each, 4 in the pool."""
    return start(GAME, lead=[(6,), (1,)])


@pytest.fixture
def three(start):
    """Three players in play, order Ann, Ben, Cy: 10 counters each, 6 in the pool."""
    return start(GAME, players=("Ann", "Ben", "Cy"), lead=[(6,), (1,), (1,)])


def chips(state):
    return [p.chips for p in state.players]


# -- L1 setup ---------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_lifes_mishaps_l1_counters_shared_remainder_and_twos_to_pool(start, n):
    names = ("Ann", "Ben", "Cy", "Di", "Ed", "Flo")[:n]
    state = start(GAME, players=names).state
    share = 36 // n
    assert chips(state) == [share - 2] * n
    assert state.pool == 36 - share * n + 2 * n
    assert state.total_chips == 36


def test_lifes_mishaps_l1_board_data_is_checked(start):
    with pytest.raises(Refused, match="board data: 'picture_spaces': square 48 is off"):
        start(GAME, board={"picture_spaces": [3, 48]})
    with pytest.raises(Refused, match="twice"):
        start(GAME, board={"picture_spaces": [3, 3]})
    with pytest.raises(Refused, match="list of square numbers"):
        start(GAME, board={"picture_spaces": "3, 8"})


def test_lifes_mishaps_l1_default_picture_spaces(start):
    assert start(GAME).state.board == {"picture_spaces": [3, 8, 13, 18, 24, 31, 38, 43]}


# -- L2 lead ----------------------------------------------------------------------------------

def test_lifes_mishaps_l2_highest_of_one_die_leads_then_left(start):
    table = start(GAME, players=("Ann", "Ben", "Cy"), lead=[(5,), (2,), (5,)])
    assert table.state.phase == "lead"
    assert table.state.lead.pending == [ANN, CY]         # only the tied throw again
    table.apply(Roll(values=(1,)))
    table.apply(Roll(values=(4,)))
    assert table.state.phase == "play"
    assert table.state.order == [CY, ANN, BEN]
    assert table.state.turn == CY


def test_lifes_mishaps_l2_two_dice_refused(mishaps):
    with pytest.raises(Refused, match="a die shows one number, not 2"):
        mishaps.attempt(Roll(values=(1, 2)))


# -- L3, L4 entering and moving ---------------------------------------------------------------

def test_lifes_mishaps_l3_first_throw_enters_on_its_number(mishaps, throw):
    state = throw(mishaps.state, 5)
    assert state.players[ANN].position == 5
    assert state.turn == BEN


def test_lifes_mishaps_l4_later_throws_add(mishaps, placed, throw):
    state = throw(placed(mishaps.state, {ANN: 10}), 5)
    assert state.players[ANN].position == 15


def test_lifes_mishaps_l4_throw_past_48_does_not_move(mishaps, placed, throw):
    state = throw(placed(mishaps.state, {ANN: 45}), 4)
    assert state.players[ANN].position == 45
    assert state.turn == BEN and not state.over
    assert "needs exactly 3" in state.log[-1]


# -- L5 landing -------------------------------------------------------------------------------

@pytest.mark.parametrize("square", [3, 8, 13, 18, 24, 31, 38, 43])
def test_lifes_mishaps_l5_picture_space_pays_two_to_pool(mishaps, placed, throw, square):
    state = throw(placed(mishaps.state, {ANN: square - 2 or None}), 2)
    assert state.players[ANN].position == square
    assert chips(state) == [14, 16] and state.pool == 6


def test_lifes_mishaps_l5_entering_on_a_picture_space_pays(mishaps, throw):
    state = throw(mishaps.state, 3)
    assert chips(state) == [14, 16]


@pytest.mark.parametrize("square", [21, 26, 29, 34])
def test_lifes_mishaps_l5_reward_square_takes_three(mishaps, placed, throw, square):
    state = throw(placed(mishaps.state, {ANN: square - 1}), 1)
    assert chips(state) == [19, 16] and state.pool == 1


def test_lifes_mishaps_l5_reward_from_a_short_pool_is_what_it_holds(mishaps, placed, throw):
    mishaps.apply(Transfer(source="pool", target=BEN, amount=3))
    state = throw(placed(mishaps.state, {ANN: 20}), 1)
    assert chips(state) == [17, 19] and state.pool == 0
    assert "The pool could not pay 2; forgiven" in state.log


@pytest.mark.parametrize("pool, share", [(4, 1), (11, 3), (12, 4), (2, 0)])
def test_lifes_mishaps_l5_square_47_takes_a_third_rounded_down(mishaps, placed, throw, pool,
                                                               share):
    if pool > 4:
        mishaps.apply(Transfer(source=BEN, target="pool", amount=pool - 4))
    elif pool < 4:
        mishaps.apply(Transfer(source="pool", target=BEN, amount=4 - pool))
    before = mishaps.state.players[ANN].chips
    state = throw(placed(mishaps.state, {ANN: 44}), 3)
    assert state.players[ANN].chips == before + share
    assert state.pool == pool - share


def test_lifes_mishaps_l5_square_47_pays_every_time(mishaps, placed, throw):
    mishaps.apply(Transfer(source=BEN, target="pool", amount=14))      # pool 18
    state = throw(placed(mishaps.state, {ANN: 44, BEN: 44}), 3)         # Ann takes 6
    state = throw(state, 3)                                             # Ben bumps Ann, takes 4
    assert state.players[BEN].position == 47
    assert chips(state) == [16 + 6 - 1, 2 + 4]
    assert state.pool == 18 - 6 + 1 - 4


# -- L6 bumping -------------------------------------------------------------------------------

def test_lifes_mishaps_l6_bumped_to_lowest_free_picture_space_pays_one(mishaps, placed, throw):
    state = throw(placed(mishaps.state, {ANN: 7, BEN: 10}), 3)
    assert state.players[ANN].position == 10
    assert state.players[BEN].position == 3
    assert chips(state) == [16, 15] and state.pool == 5      # the picture's 2 is not charged


def test_lifes_mishaps_l6_skips_occupied_picture_spaces(three, placed, throw):
    state = throw(placed(three.state, {ANN: 7, BEN: 10, CY: 3}), 3)
    assert [p.position for p in state.players] == [10, 8, 3]


def test_lifes_mishaps_l6_mover_on_picture_space_sends_occupant_to_the_next(mishaps, placed,
                                                                            throw):
    state = throw(placed(mishaps.state, {ANN: 1, BEN: 3}), 2)
    assert [p.position for p in state.players] == [3, 8]
    assert chips(state) == [14, 15]                           # Ann's picture 2, Ben's bump 1


def test_lifes_mishaps_l6_bump_settled_before_the_movers_landing(mishaps, placed, throw):
    mishaps.apply(Transfer(source="pool", target=BEN, amount=4))        # pool empty
    state = throw(placed(mishaps.state, {ANN: 20, BEN: 21}), 1)
    # Ben's bump puts 1 in the pool first, so Ann's 3 from square 21 finds 1 there.
    assert chips(state) == [17, 19] and state.pool == 0
    bumped = next(i for i, line in enumerate(state.log) if "is bumped" in line)
    reward = next(i for i, line in enumerate(state.log) if "square 21" in line)
    assert bumped < reward


def test_lifes_mishaps_l6_no_free_picture_space_goes_off_and_reenters(start, placed, throw):
    table = start(GAME, lead=[(6,), (1,)], board={"picture_spaces": [3]})
    state = throw(placed(table.state, {ANN: 1, BEN: 3}), 2)
    assert state.players[BEN].position is None
    assert "off the board" in " ".join(state.log)
    state = throw(state, 4)                                   # L3 again
    assert state.players[BEN].position == 4


# -- L7 end -----------------------------------------------------------------------------------

def test_lifes_mishaps_l7_first_on_48_takes_the_pool_and_most_counters_wins(mishaps, placed,
                                                                            throw):
    mishaps.apply(Transfer(source=ANN, target=BEN, amount=10))          # Ann 6, Ben 26, pool 4
    state = throw(placed(mishaps.state, {ANN: 45}), 3)
    assert state.players[ANN].position == 48
    assert chips(state) == [10, 26] and state.pool == 0
    assert state.over and state.winners == [BEN]


def test_lifes_mishaps_l7_x6_tie_on_counters_shares_the_win(mishaps, placed, throw):
    mishaps.apply(Transfer(source=ANN, target=BEN, amount=2))           # Ann 14 + pool 4 = 18
    state = throw(placed(mishaps.state, {ANN: 42}), 6)
    assert chips(state) == [18, 18]
    assert state.winners == [ANN, BEN]
    assert state.log[-1] == "Ann and Ben share the win"


def test_lifes_mishaps_l7_mover_with_most_wins(mishaps, placed, throw):
    state = throw(placed(mishaps.state, {ANN: 45}), 3)
    assert state.winners == [ANN]
    assert state.log[-1] == "Ann wins"
