"""The rulings common to every game (X1-X11 of RULINGS.md), on the three refereed games and,
for X11, on every game's example log."""

from importlib import resources
from pathlib import Path

import pytest

from companion.errors import LogError, Refused
from companion.events import parse_event
from companion.replay import replay, replay_lines

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def new(game, players=2, **extra):
    return {"type": "new_game", "game": game, "players": NAMES[:players], **extra}


def roll(*values):
    return {"type": "roll", "values": list(values)}


def throws(*values):
    return [roll(v) for v in values]


def play(events):
    return replay(events).to_json()


def chips(state):
    return [p["chips"] for p in state["players"]]


def turns_after(events, more):
    """The awaited seat after each of `more`, applied one by one after `events`."""
    seen, events = [], list(events)
    for event in more:
        events.append(event)
        seen.append(play(events)["turn"])
    return seen


# -- X1 seats -------------------------------------------------------------------------------

def test_x1_play_goes_to_the_left_from_the_leader():
    # Four players, Cy (seat 2) leads: then Dee, Ann, Ben, Cy again (seat + 1).
    events = [new("lifes-mishaps", 4)] + throws(1, 2, 6, 3)
    state = play(events)
    assert (state["phase"], state["turn"], state["order"]) == ("play", 2, [2, 3, 0, 1])
    assert turns_after(events, throws(1, 2, 4, 5)) == [3, 0, 1, 2]


def test_x1_seats_numbered_from_zero_in_player_order():
    state = play([new("cats-and-dogs", 3)])
    assert [(p["seat"], p["name"]) for p in state["players"]] == [(0, "Ann"), (1, "Ben"),
                                                                  (2, "Cy")]


# -- X2 lead --------------------------------------------------------------------------------

def test_x2_every_player_throws_once_in_seat_order():
    events = [new("lifes-mishaps", 4)]
    assert play(events)["turn"] == 0
    assert turns_after(events, throws(2, 3, 1)) == [1, 2, 3]


def test_x2_lead_ties_throw_again_in_seat_order():
    # Ann 6, Ben 2, Cy 6, Dee 6: Ann, Cy and Dee throw again, in seat order.
    events = [new("lifes-mishaps", 4)] + throws(6, 2, 6, 6)
    state = play(events)
    assert (state["phase"], state["turn"]) == ("lead", 0)
    assert turns_after(events, throws(4, 5)) == [2, 3]
    # Ann 4, Cy 5, Dee 5: Cy and Dee again; Cy 1, Dee 2: Dee leads.
    events += throws(4, 5, 5)
    assert play(events)["turn"] == 2
    state = play(events + throws(1, 2))
    assert (state["phase"], state["turn"], state["order"]) == ("play", 3, [3, 0, 1, 2])


def test_x2_ties_below_the_highest_do_not_throw_again():
    state = play([new("lifes-mishaps", 3)] + throws(6, 3, 3))
    assert (state["phase"], state["turn"], state["order"]) == ("play", 0, [0, 1, 2])


def test_x2_lead_is_on_the_total_of_two_dice():
    # Ann 1 + 6 = 7 beats Ben's double 3 = 6.
    state = play([new("kat-en-muis")] + [roll(1, 6), roll(3, 3)])
    assert state["turn"] == 0 and state["players"][0]["role"] == "cat"


# -- X3 payments never below zero -----------------------------------------------------------

def test_x3_payment_never_below_zero():
    # Purse 6, stake 5: the Mouse holds 1 and throws double six (owes 2).
    events = [new("kat-en-muis", options={"purse": 6, "stake": 5})] + [roll(4, 3), roll(1, 2),
                                                                        roll(1, 6)]
    state = play(events + [roll(6, 6)])
    assert chips(state) == [2, 0]
    assert state["pool"] == 10
    assert any("could not pay 1" in line for line in state["log"])
    # Owing again with nothing: the Cat's double 1 from 7 goes to 11 (the Mouse owes 2).
    state = play(events + [roll(6, 6), roll(1, 1)])
    assert chips(state) == [2, 0]
    assert any("could not pay 2" in line for line in state["log"])


def test_x3_pool_paying_out_more_than_it_holds():
    # Life's Mishaps: pool 4; Ann on 21 takes 3 (pool 1); Ann on 26 is owed 3, gets 1.
    events = [new("lifes-mishaps")] + throws(5, 2) + throws(6, 1, 6, 1, 5, 2, 4, 1, 5)
    state = play(events)
    assert [p["position"] for p in state["players"]] == [26, 5]
    assert chips(state) == [20, 16] and state["pool"] == 0
    assert any("pool could not pay 2" in line.lower() for line in state["log"])


def test_x9_transfer_of_more_than_held_is_refused_saying_what_is_held():
    events = [new("kat-en-muis")] + [roll(4, 3), roll(1, 2)]
    transfer = {"type": "transfer", "from": 1, "to": 0, "amount": 20, "reason": "miscount"}
    with pytest.raises(LogError, match="line 4: Ben holds only 15 chips: a correction cannot "
                                       "move 20"):
        play(events + [transfer])
    state = play(events + [{**transfer, "amount": 15}])     # what Ben holds moves in full
    assert chips(state) == [30, 0] and state["pool"] == 10
    assert not any("forgiven" in line for line in state["log"])


# -- X4 chips conserved ---------------------------------------------------------------------

def test_x4_chips_conserved_through_a_kat_en_muis_game():
    script = [roll(4, 3), roll(1, 2), roll(1, 3), roll(5, 6), roll(2, 2), roll(6, 6),
              roll(1, 1), roll(4, 6), roll(2, 5), roll(3, 3), roll(6, 6), roll(5, 5),
              roll(4, 4), roll(1, 5), roll(2, 3), roll(6, 5)]
    events = [new("kat-en-muis")]
    for event in script:
        events.append(event)
        state = play(events)
        assert sum(chips(state)) + state["pool"] == 40
        assert min(chips(state)) >= 0 and state["pool"] >= 0


def test_x4_chips_conserved_through_a_lifes_mishaps_game():
    events = [new("lifes-mishaps", 5)]
    for value in [3, 2, 1, 5, 4] + [3, 3, 3, 3, 3, 5, 5, 6, 2, 1, 6, 6, 6, 6, 6, 4, 4, 4]:
        events.append(roll(value))
        state = play(events)
        assert sum(chips(state)) + state["pool"] == 36
        assert min(chips(state)) >= 0 and state["pool"] >= 0


# -- X5 one roll per request ----------------------------------------------------------------

# Kat en Muis: the Cat walks 7, 12, 18, 24, 31, 38, 43, 46, 55 while the Mouse throws double
# six (pays 2, stays); then the Cat's double six from 55 goes to 66.
CAT_HOME = [roll(4, 3), roll(1, 2)]
for _step in [(1, 6), (1, 4), (1, 5), (1, 5), (1, 6), (1, 6), (1, 4), (1, 2), (3, 6)]:
    CAT_HOME += [roll(*_step), roll(6, 6)]
CAT_HOME.append(roll(6, 6))


@pytest.mark.parametrize("game, finish", [
    ("kat-en-muis", CAT_HOME),
    ("cats-and-dogs", throws(6, 1, 6, 1, 6)),
])
def test_x5_roll_when_none_is_asked_is_refused(game, finish):
    extra = {"board": {"track_length": 12, "arrows": {}}} if game == "cats-and-dogs" else {}
    events = [new(game, **extra)] + finish
    state = play(events)
    assert state["phase"] == "over" and state["awaiting"] is None
    one_more = roll(1, 2) if game == "kat-en-muis" else roll(3)
    with pytest.raises(LogError, match=rf"line {len(events) + 1}: .*over"):
        play(events + [one_more])


@pytest.mark.parametrize("event, words", [
    ({"type": "press", "seat": 0}, "no seat-button action"),
    ({"type": "choose", "value": 3}, "no choices"),
    ({"type": "next"}, "passes by itself"),
    ({"type": "declare", "winners": [0]}, "not by declaration"),
])
def test_x5_only_throws_are_asked_for_in_a_refereed_game(event, words):
    events = [new("lifes-mishaps")] + throws(5, 2)
    with pytest.raises(LogError, match=words):
        play(events + [event])


def test_x5_nothing_but_a_throw_during_the_lead():
    with pytest.raises(LogError, match="lead"):
        play([new("lifes-mishaps"), {"type": "next"}])


# -- X6 ties share the win ------------------------------------------------------------------

def test_x6_ties_at_the_end_share_the_win():
    # Ann gives Ben 2 (a correction): 14 and 18. Ann walks 6, 12, ..., 45 and 48 while Ben
    # walks 1, 2, 4, ..., 11 without effects; Ann takes the pool's 4: 18 and 18.
    events = [new("lifes-mishaps")] + throws(5, 2)
    events.append({"type": "transfer", "from": 0, "to": 1, "amount": 2})
    ann, ben = [6, 12, 17, 23, 28, 33, 39, 45, 48], [1, 2, 4, 5, 7, 9, 10, 11]
    a = b = 0
    for i, square in enumerate(ann):
        events.append(roll(square - a))
        a = square
        if i < len(ben):
            events.append(roll(ben[i] - b))
            b = ben[i]
    state = play(events)
    assert chips(state) == [18, 18] and state["pool"] == 0
    assert state["phase"] == "over" and state["winners"] == [0, 1]


# -- X7 lost turns and extra throws need no input -------------------------------------------

def test_x7_lost_turn_skipped_automatically():
    # Cat 0 -> 5 (loses her next turn); Mouse 0 -> 3; the Mouse is awaited again at once.
    events = [new("kat-en-muis")] + [roll(4, 3), roll(1, 2), roll(1, 4)]
    state = play(events + [roll(1, 2)])
    assert (state["turn"], state["awaiting"]) == (1, "roll")
    assert state["players"][0]["lost_turns"] == 0
    assert len(replay(events + [roll(1, 2)]).effective) == len(events) + 1   # no extra event


def test_x7_both_players_losing_a_turn():
    # Cat to 5 (loses one); Mouse to black 5 (loses one): both are spent, the Cat throws.
    events = [new("kat-en-muis")] + [roll(4, 3), roll(1, 2), roll(1, 4), roll(2, 3)]
    state = play(events)
    assert state["turn"] == 0
    assert [p["lost_turns"] for p in state["players"]] == [0, 0]
    assert sum("loses this turn" in line for line in state["log"]) == 2


def test_x7_throw_again_awaits_the_same_player():
    events = [new("kat-en-muis")] + [roll(4, 3), roll(1, 2), roll(4, 6)]   # Cat to 10
    state = play(events)
    assert (state["turn"], state["awaiting"]) == (0, "roll")


# -- X8 the turn passes as soon as the roll is settled --------------------------------------

@pytest.mark.parametrize("game, lead, throw", [
    ("kat-en-muis", [roll(4, 3), roll(1, 2)], roll(1, 2)),
    ("lifes-mishaps", throws(5, 2), roll(1)),
    ("cats-and-dogs", throws(5, 2), roll(1)),
])
def test_x8_turn_passes_when_the_roll_is_settled(game, lead, throw):
    state = play([new(game)] + lead + [throw])
    assert (state["turn"], state["awaiting"]) == (1, "roll")


# -- X11 a finished game is final -------------------------------------------------------------

EXAMPLES = sorted(Path(str(resources.files("companion") / "examples")).glob("*.jsonl"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_x11_finished_game_refuses_undo_corrections_and_renames(path):
    table = replay_lines(path.read_text(encoding="utf-8").splitlines())
    assert table.state.over
    before = table.to_json()
    chips = "the game is over: its chips are settled and cannot be corrected" \
        if table.rulebook.uses_chips else "is played without chips"
    for event, why in [
            ({"type": "undo"}, "the game is over: it is final, so there is no undo"),
            ({"type": "transfer", "from": "pool", "to": 0, "amount": 1}, chips),
            ({"type": "rename", "seat": 0, "name": "Zed"},
             "the game is over: its players' names are final")]:
        with pytest.raises(Refused) as caught:
            table.attempt(parse_event(event))
        assert why in str(caught.value)
    assert table.to_json() == before


# -- X12 seat buttons -------------------------------------------------------------------------

def test_x12_buttons_default_to_one_to_n_and_show_in_the_state():
    state = play([new("lifes-mishaps", 3)])
    assert [p["button"] for p in state["players"]] == [1, 2, 3]


def test_x12_buttons_recorded_in_new_game_follow_each_player():
    state = play([new("cats-and-dogs", 3, buttons=[2, 4, 6])])
    assert [(p["name"], p["button"]) for p in state["players"]] == [
        ("Ann", 2), ("Ben", 4), ("Cy", 6)]


def test_x12_the_pis_button_is_one_no_player_holds_nor_a_phone_is_paired_with():
    """The Pi took the lowest free button, 2, which Ben's phone was paired with: the phone
    said "This phone plays seat button 2 (Pi)" and buzzed "Your turn, Pi" at every Pi move.
    A paired button is the Pi's only when every other free one is held."""
    from companion.buttons import free_button
    assert free_button([1]) == 2
    assert free_button([1], avoid={2, 3}) == 4
    assert free_button([1, 4, 5, 6], avoid={2, 3}) == 2            # none else is free
    assert free_button([], avoid=range(1, 7)) == 1


def test_x12_buttons_stay_through_events_and_undo():
    events = [new("kat-en-muis", 2, buttons=[5, 3]), roll(6, 5), roll(1, 2)]
    assert [p["button"] for p in play(events)["players"]] == [5, 3]
    assert [p["button"] for p in play(events + [{"type": "undo"}])["players"]] == [5, 3]


def test_x12_buttons_written_back_into_the_log():
    from companion.events import parse_event
    event = parse_event(new("kat-en-muis", 2, buttons=[2, 4]))
    assert event.to_dict()["buttons"] == [2, 4]
    assert "buttons" not in parse_event(new("kat-en-muis", 2)).to_dict()


@pytest.mark.parametrize("buttons, words", [
    ([1, 1], "two players cannot share seat button 1"),
    ([0, 2], "there is no seat button 0: the buttons are 1 to 6"),
    ([2, 7], "there is no seat button 7"),
    ([1], "one button for each of the 2 players, not 1"),
    ([1, 2, 3], "one button for each of the 2 players, not 3"),
    ("12", "'buttons' must be a list of whole numbers"),
    ([1, "2"], "'buttons' must be a list of whole numbers"),
    ([1, True], "'buttons' must be a list of whole numbers"),
    ([1.0, 2], "'buttons' must be a list of whole numbers"),
])
def test_x12_bad_buttons_refused_with_the_line(buttons, words):
    with pytest.raises(LogError) as err:
        play([new("kat-en-muis", 2, buttons=buttons)])
    assert err.value.line == 1 and words in str(err.value)
