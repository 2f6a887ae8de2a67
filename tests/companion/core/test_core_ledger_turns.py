"""Chips (X3, X4) and turn order (X1, X2, C1, X7) on bare states."""

import pytest

from companion import ledger, turns
from companion.state import Player, State


def table_of(*chips: int, pool: int = 0) -> State:
    names = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]
    players = [Player(names[i], i, chips=c) for i, c in enumerate(chips)]
    return State(game="test", players=players, options={}, board={}, pool=pool)


# -- ledger -----------------------------------------------------------------------------------

def test_ledger_pays_between_players_and_logs_it():
    state = table_of(5, 5)
    assert ledger.pay(state, 0, 1, 2, "square 4") == 2
    assert [p.chips for p in state.players] == [3, 7]
    assert state.log == ["Ann pays Ben 2 chips (square 4)"]


def test_ledger_pool_in_and_out_are_worded():
    state = table_of(5, 5, pool=4)
    ledger.pay(state, 0, "pool", 1)
    ledger.pay(state, "pool", 1, 3, "square 21")
    assert state.log == ["Ann pays 1 chip into the pool",
                         "Ben takes 3 chips from the pool (square 21)"]
    assert (state.pool, state.players[1].chips) == (2, 8)


def test_ledger_x3_payer_short_pays_what_it_holds():
    state = table_of(1, 5)
    assert ledger.pay(state, 0, 1, 3) == 1
    assert [p.chips for p in state.players] == [0, 6]
    assert state.log == ["Ann pays Ben 1 chip", "Ann could not pay 2; forgiven"]


def test_ledger_x3_empty_pool_pays_nothing_and_says_so():
    state = table_of(5, 5, pool=0)
    assert ledger.pay(state, "pool", 0, 2) == 0
    assert state.players[0].chips == 5
    assert state.log == ["The pool could not pay 2; forgiven"]


@pytest.mark.parametrize("source, target, amount", [(0, 1, 9), (1, "pool", 4), ("pool", 0, 7),
                                                    (1, 0, 0), (0, 1, 1)])
def test_ledger_x4_chips_are_conserved_and_never_negative(source, target, amount):
    state = table_of(2, 3, pool=5)
    ledger.pay(state, source, target, amount)
    assert state.total_chips == 10
    assert min([state.pool] + [p.chips for p in state.players]) >= 0


# -- lead spin-offs ---------------------------------------------------------------------------

def throw_lead(state: State, totals: list[int]) -> list[int] | None:
    order = None
    for total in totals:
        order = turns.lead_throw(state, total)
    return order


def test_turns_x2_highest_leads_and_play_goes_left():
    state = table_of(0, 0, 0, 0)
    state.lead = turns.start_lead("highest", 4)
    assert state.lead.pending == [0, 1, 2, 3]
    assert throw_lead(state, [3, 2, 9, 4]) == [2, 3, 0, 1]


def test_turns_x2_only_the_tied_highest_throw_again():
    state = table_of(0, 0, 0, 0)
    state.lead = turns.start_lead("highest", 4)
    assert throw_lead(state, [6, 6, 2, 6]) is None
    assert state.lead.pending == [0, 1, 3]
    assert state.log[-1] == "Ann, Ben and Di tie on 6 and throw again"
    assert throw_lead(state, [4, 5, 5]) is None
    assert state.lead.pending == [1, 3]
    assert throw_lead(state, [1, 2]) == [3, 0, 1, 2]


def test_turns_x2_a_lower_tie_is_not_rethrown():
    state = table_of(0, 0, 0)
    state.lead = turns.start_lead("highest", 3)
    assert throw_lead(state, [2, 2, 5]) == [2, 0, 1]
    assert not any("tie" in line for line in state.log)


def test_turns_c1_ranking_settles_every_place():
    state = table_of(0, 0, 0, 0, 0)
    state.lead = turns.start_lead("ranking", 5)
    assert throw_lead(state, [4, 1, 4, 6, 1]) is None
    assert state.lead.groups == [[3], [0, 2], [1, 4]]
    assert state.lead.pending == [0, 2]
    assert throw_lead(state, [2, 3]) is None
    assert state.lead.pending == [1, 4]
    assert throw_lead(state, [5, 6]) == [3, 2, 0, 4, 1]


# -- passing the turn -------------------------------------------------------------------------

def in_play(*lost: int, order: list[int] | None = None, turn: int = 0) -> State:
    state = table_of(*[0] * len(lost))
    for player, n in zip(state.players, lost):
        player.lost_turns = n
    state.order = order or list(range(len(lost)))
    state.turn = turn
    return state


def test_turns_x1_turn_passes_to_the_left():
    state = in_play(0, 0, 0, turn=2)
    assert turns.next_seat(state) == 0


def test_turns_follow_the_play_order_not_the_seats():
    state = in_play(0, 0, 0, order=[1, 2, 0], turn=2)
    assert turns.next_seat(state) == 0


def test_turns_x7_lost_turn_is_spent_without_input():
    state = in_play(0, 1, 0)
    assert turns.next_seat(state) == 2
    assert state.players[1].lost_turns == 0
    assert state.log == ["Ben loses this turn"]


def test_turns_x7_two_lost_turns_skip_two_rounds():
    state = in_play(0, 2)
    assert turns.next_seat(state) == 0
    state.turn = 0
    assert turns.next_seat(state) == 0
    state.turn = 0
    assert turns.next_seat(state) == 1


def test_turns_x7_everyone_else_losing_a_turn_comes_back_round():
    state = in_play(0, 1, 1)
    assert turns.next_seat(state) == 0
    assert [p.lost_turns for p in state.players] == [0, 0, 0]


def test_turns_skip_passes_over_seats_that_cannot_play():
    state = in_play(0, 0, 0)
    assert turns.next_seat(state, lambda s, seat: seat == 1) == 2
    assert turns.next_seat(state, lambda s, seat: True) is None


def test_turns_x2_a_tie_says_to_spin_again_where_the_lead_is_spun():
    """Cats and Mice's lead is spun with the Indicator: its tie said "... tie on 7 and throw
    again" under "Red spins 3 and 4", and on the result the box shows after the spin."""
    from companion.replay import replay
    table = replay([{"type": "new_game", "game": "cats-and-mice", "players": ["Red", "Green"]},
                    {"type": "roll", "values": [3, 4]}, {"type": "roll", "values": [2, 5]}])
    assert table.state.log[-1] == "Red and Green tie on 7 and spin again"
    dice = replay([{"type": "new_game", "game": "kat-en-muis", "players": ["Red", "Green"]},
                   {"type": "roll", "values": [3, 4]}, {"type": "roll", "values": [2, 5]}])
    assert dice.state.log[-1] == "Red and Green tie on 7 and throw again"
