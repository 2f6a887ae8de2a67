"""Life's Mishaps, ruling by ruling (L1-L7 of RULINGS.md), played as logs and replayed.

Default board: picture spaces 3, 8, 13, 18, 24, 31, 38, 43; take 3 on 21, 26, 29, 34; a third
of the pool on 47; the end is 48. Expected values are worked out by hand in the comments.
"""

import pytest

from companion.errors import LogError
from companion.replay import replay

GAME = "lifes-mishaps"
ANN, BEN, CY = 0, 1, 2
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def new(players=2, board=None):
    event = {"type": "new_game", "game": GAME, "players": NAMES[:players]}
    if board is not None:
        event["board"] = board
    return event


def roll(value):
    return {"type": "roll", "values": [value]}


def throws(*values):
    return [roll(v) for v in values]


ANN_LEADS = throws(5, 2)          # two players: Ann leads, then Ben
START2 = [new()] + ANN_LEADS      # 16 counters each, 4 in the pool


def play(events):
    return replay(events).to_json()


def chips(state):
    return [p["chips"] for p in state["players"]]


def positions(state):
    return [p["position"] for p in state["players"]]


def moves(ann, ben):
    """Alternate throws: Ann's squares and Ben's squares, each walked from off the board."""
    out, a, b = [], 0, 0
    for i in range(max(len(ann), len(ben))):
        if i < len(ann):
            out.append(roll(ann[i] - a))
            a = ann[i]
        if i < len(ben):
            out.append(roll(ben[i] - b))
            b = ben[i]
    return out


# -- L1 setup -------------------------------------------------------------------------------

@pytest.mark.parametrize("players, each, pool", [
    (2, 16, 4),      # 18 each, no remainder; each pays 2
    (3, 10, 6),      # 12 each
    (4, 7, 8),       # 9 each
    (5, 5, 11),      # 7 each, 1 left over to the pool; 1 + 5 x 2
    (6, 4, 12),      # 6 each
])
def test_lifes_mishaps_l1_counters_shared_remainder_to_pool(players, each, pool):
    state = play([new(players)])
    assert chips(state) == [each] * players
    assert state["pool"] == pool
    assert each * players + pool == 36
    assert positions(state) == [None] * players


def test_lifes_mishaps_l1_one_player_or_seven_refused():
    with pytest.raises(LogError, match="2 to 6 players"):
        play([new(1)])
    with pytest.raises(LogError, match="2 to 6 players"):
        play([{"type": "new_game", "game": GAME, "players": NAMES + ["Gus"]}])


def test_lifes_mishaps_l1_picture_spaces_default():
    # Entering on 3 costs 2 (a picture space of the default board); on 2 it costs nothing.
    assert chips(play(START2 + [roll(3)])) == [14, 16]
    assert chips(play(START2 + [roll(2)])) == [16, 16]


# -- L2 lead --------------------------------------------------------------------------------

def test_lifes_mishaps_l2_lead_by_one_die_ties_throw_again():
    events = [new(3)] + throws(6, 6, 2)
    state = play(events)
    assert (state["phase"], state["turn"]) == ("lead", ANN)        # Ann and Ben again
    assert play(events + throws(3))["turn"] == BEN
    state = play(events + throws(3, 5))
    assert (state["phase"], state["turn"], state["order"]) == ("play", BEN, [1, 2, 0])


def test_lifes_mishaps_l2_lead_throw_is_not_an_entry():
    state = play(START2)
    assert positions(state) == [None, None]
    assert chips(state) == [16, 16]


def test_lifes_mishaps_l2_two_dice_refused():
    with pytest.raises(LogError, match="a die shows one number, not 2"):
        play([new(), {"type": "roll", "values": [3, 4]}])


# -- L3 entering ----------------------------------------------------------------------------

@pytest.mark.parametrize("value", [1, 2, 4, 5, 6])
def test_lifes_mishaps_l3_first_throw_enters_on_its_number(value):
    state = play(START2 + [roll(value)])
    assert positions(state) == [value, None]
    assert state["turn"] == BEN


def test_lifes_mishaps_l3_entering_on_a_picture_space_counts_as_landing():
    state = play(START2 + [roll(3)])
    assert positions(state)[ANN] == 3
    assert chips(state) == [14, 16] and state["pool"] == 6


# -- L4 moving ------------------------------------------------------------------------------

ANN_TO_45 = [6, 12, 17, 23, 28, 33, 39, 45]
BEN_LOW = [1, 2, 4, 5, 7, 9, 10, 11]


def test_lifes_mishaps_l4_later_throws_add():
    state = play(START2 + throws(6, 1, 5))
    assert positions(state) == [11, 1]


def test_lifes_mishaps_l4_path_walked_without_effects():
    state = play(START2 + moves(ANN_TO_45, BEN_LOW))
    assert positions(state) == [45, 11]
    assert chips(state) == [16, 16] and state["pool"] == 4
    assert state["turn"] == ANN


@pytest.mark.parametrize("value", [4, 5, 6])
def test_lifes_mishaps_l4_throw_past_48_does_not_move(value):
    state = play(START2 + moves(ANN_TO_45, BEN_LOW) + [roll(value)])
    assert positions(state) == [45, 11]
    assert chips(state) == [16, 16]
    assert (state["phase"], state["turn"]) == ("play", BEN)


def test_lifes_mishaps_l4_exact_throw_reaches_48():
    state = play(START2 + moves(ANN_TO_45, BEN_LOW) + [roll(3)])
    assert positions(state)[ANN] == 48
    assert state["phase"] == "over"


# -- L5 landing -----------------------------------------------------------------------------

def _walk_to(square):
    """Squares from 0 to `square` in throws of 1..6 that avoid every special square."""
    special = {3, 8, 13, 18, 24, 31, 38, 43, 21, 26, 29, 34, 47}
    route, at = [], 0
    while square - at > 6:
        nxt = next(s for s in range(at + 6, at, -1) if s not in special)
        route.append(nxt)
        at = nxt
    route.append(square)
    return route


def _ben_beside(route_len, avoid):
    """Ben's squares: low, unspecial, never one of Ann's squares."""
    ben, at = [], 0
    for _ in range(route_len):
        at += 1
        while at in {3, 8, 13, 18} or at in avoid:
            at += 1
        ben.append(at)
    return ben


@pytest.mark.parametrize("square, change", [
    (3, -2), (8, -2), (13, -2), (18, -2), (24, -2), (31, -2), (38, -2), (43, -2),
    (21, 3), (26, 3), (29, 3), (34, 3),
])
def test_lifes_mishaps_l5_landing_squares(square, change):
    route = _walk_to(square)
    ben = _ben_beside(len(route) - 1, set(route))
    events = START2 + moves(route[:-1], ben)
    before, after = play(events), play(events + [roll(route[-1] - (route[-2] if len(route) > 1
                                                                   else 0))])
    assert positions(after)[ANN] == square
    assert chips(after)[ANN] - chips(before)[ANN] == change
    assert after["pool"] - before["pool"] == -change
    assert chips(before) == [16, 16] and before["pool"] == 4      # nothing else happened


def test_lifes_mishaps_l5_every_matching_clause_applies_on_a_custom_board():
    # A board file making 21 a picture space: landing there pays 2 (pool 6), then takes 3.
    events = [new(board={"picture_spaces": [21]})] + ANN_LEADS
    events += moves([6, 12, 17], [1, 2, 4])
    state = play(events + [roll(4)])
    assert positions(state) == [21, 4]
    assert chips(state) == [17, 16] and state["pool"] == 3


def test_lifes_mishaps_l5_take_three_from_a_short_pool_is_forgiven():
    # X3 for the pool: 21 takes 3 of 4 (pool 1), then 26 takes the 1 left, 2 forgiven.
    events = START2 + moves([6, 12, 17, 21, 26], [1, 2, 4, 5])
    state = play(events)
    assert positions(state) == [26, 5]
    assert chips(state) == [20, 16] and state["pool"] == 0
    assert any("could not pay 2" in line for line in state["log"])


def test_lifes_mishaps_l5_third_of_the_pool_rounded_down_on_47():
    # Ben lands on four picture spaces (pool 4 + 8 = 12); Ann on 47 takes 12 // 3 = 4.
    events = START2 + moves(ANN_TO_45 + [45, 47], [3, 8, 13, 18, 22, 27, 32, 37, 42])
    # Ann's "45 -> 45" step would be a throw of 0: she throws 4 instead, which passes 48.
    events = [roll(4) if e == roll(0) else e for e in events]
    state = play(events)
    assert positions(state) == [47, 42]
    assert chips(state) == [20, 8] and state["pool"] == 8
    assert state["turn"] == BEN


def test_lifes_mishaps_l5_third_rounds_down_to_nothing_on_a_tiny_pool():
    # Pool 4 -> Ann on 21 takes 3 -> pool 1; Ann on 47 takes 1 // 3 = 0.
    events = START2 + moves([6, 12, 17, 21, 27, 33, 37, 41, 47], [1, 2, 4, 5, 7, 9, 10, 11])
    state = play(events)
    assert positions(state)[ANN] == 47
    assert chips(state) == [19, 16] and state["pool"] == 1


def test_lifes_mishaps_l6_bump_settled_before_landing():
    # As above, Ann on 47 with the pool at 8; Ben throws 5 from 42 onto 47:
    # Ann is bumped to 3 and pays 1 (pool 9), then Ben takes 9 // 3 = 3 (pool 6).
    # (Landing first would give Ben 8 // 3 = 2.) L5 "every time": a second third is taken.
    events = START2 + moves(ANN_TO_45 + [45, 47], [3, 8, 13, 18, 22, 27, 32, 37, 42, 47])
    events = [roll(4) if e == roll(0) else e for e in events]
    state = play(events)
    assert positions(state) == [3, 47]
    assert chips(state) == [19, 11]       # Ann pays only the 1 (no picture-space 2)
    assert state["pool"] == 6


# -- L6 bumping -----------------------------------------------------------------------------

def test_lifes_mishaps_l6_bump_to_lowest_free_picture_space_pays_one():
    # Ann enters on 3 (pays 2); Ben enters on 3: Ann goes to 8 (3 is Ben's now) and pays 1;
    # then Ben pays 2 for the picture space.
    state = play(START2 + throws(3, 3))
    assert positions(state) == [8, 3]
    assert chips(state) == [13, 14] and state["pool"] == 9


def test_lifes_mishaps_l6_bump_with_three_players():
    # Ann 5, Ben 1, Cy 3 (pays 2); then Ann 11, Ben 7, Cy 4; then Ann 12 and Ben 12: Ann is
    # bumped to 3, the lowest picture space, free again since Cy left it, and pays 1.
    events = [new(3)] + throws(6, 2, 1) + throws(5, 1, 3) + throws(6, 6, 1) + throws(1, 5)
    state = play(events)
    assert positions(state) == [3, 12, 4]
    assert chips(state) == [9, 10, 8] and state["pool"] == 9


def test_lifes_mishaps_l6_bump_past_an_occupied_lowest_picture_space():
    # Ann enters on 5, Ben on 1, Cy on 3 (pays 2). Ann throws 1 -> 6. Ben throws 5 -> 6:
    # 3 is Cy's, so Ann goes to 8 and pays 1; square 6 costs Ben nothing.
    events = [new(3)] + throws(6, 2, 1) + throws(5, 1, 3) + throws(1, 5)
    state = play(events)
    assert positions(state) == [8, 6, 3]
    assert chips(state) == [9, 10, 8] and state["pool"] == 9
    assert state["turn"] == CY


def test_lifes_mishaps_l6_no_free_picture_space_goes_off_the_board():
    board = {"picture_spaces": [3]}
    events = [new(board=board)] + ANN_LEADS + throws(3, 3)
    state = play(events)
    # Ann on 3 pays 2; Ben lands there: no free picture space, Ann goes off and pays 1;
    # Ben pays 2 for the picture space.
    assert positions(state) == [None, 3]
    assert chips(state) == [13, 14] and state["pool"] == 9
    # L3 again: Ann's next throw enters on its number (4), not 3 + 4.
    state = play(events + [roll(4)])
    assert positions(state) == [4, 3]


def test_lifes_mishaps_l6_bump_on_entering():
    state = play(START2 + throws(2, 2))
    assert positions(state) == [3, 2]       # Ann bumped to 3: pays 1 only
    assert chips(state) == [15, 16] and state["pool"] == 5


def test_lifes_mishaps_l6_bumped_player_without_counters_is_forgiven():
    drain = {"type": "transfer", "from": ANN, "to": "pool", "amount": 16, "reason": "test"}
    state = play(START2 + [drain] + throws(2, 2))
    assert positions(state) == [3, 2]
    assert chips(state) == [0, 16] and state["pool"] == 20
    assert any("could not pay 1" in line for line in state["log"])


# -- L7 end ---------------------------------------------------------------------------------

def test_lifes_mishaps_l7_first_on_48_takes_the_rest_of_the_pool_and_wins():
    state = play(START2 + moves(ANN_TO_45 + [48], BEN_LOW))
    assert (state["phase"], state["turn"], state["awaiting"]) == ("over", None, None)
    assert chips(state) == [20, 16] and state["pool"] == 0
    assert state["winners"] == [ANN]


def test_lifes_mishaps_l7_most_counters_wins_not_the_first_home():
    # Ben takes 3 on 21 (pool 1) and the last 1 on 26 (pool 0); Ann reaches 48 with 16.
    state = play(START2 + moves(ANN_TO_45 + [48], [5, 11, 16, 21, 26, 32, 37, 42]))
    assert positions(state) == [48, 42]
    assert chips(state) == [16, 20] and state["pool"] == 0
    assert state["phase"] == "over" and state["winners"] == [BEN]


def test_lifes_mishaps_l7_tie_shares_the_win():
    # Ben 21: takes 3 (Ben 19, pool 1). Ann 19 -> 21: Ben bumped to 3 and pays 1 (Ben 18,
    # pool 2), then Ann takes 3 of 2 (Ann 18, pool 0). Ann runs home; nothing is left.
    ann = [6, 12, 17, 19, 21, 27, 33, 39, 45, 48]
    ben = [5, 11, 16, 21]
    events = START2 + moves(ann[:5], ben)
    mid = play(events)
    assert positions(mid) == [21, 3]
    assert chips(mid) == [18, 18] and mid["pool"] == 0
    ben_after = [7, 9, 10, 11, 12]
    out, a = [], 21
    b = 3
    for i, square in enumerate(ann[5:]):
        out.append(roll(ben_after[i] - b))
        b = ben_after[i]
        out.append(roll(square - a))
        a = square
    state = play(events + out)
    assert positions(state) == [48, 12]
    assert chips(state) == [18, 18]
    assert state["winners"] == [ANN, BEN]
    assert "share the win" in state["log"][-1]


def test_lifes_mishaps_l7_no_throw_after_the_end():
    events = START2 + moves(ANN_TO_45 + [48], BEN_LOW)
    with pytest.raises(LogError, match="over"):
        play(events + [roll(1)])
