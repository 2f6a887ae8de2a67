"""Random legal games of the three refereed games, event by event: chips conserved and never
negative (X3, X4), always over or awaiting a legal throw, board invariants of each game, undo
restoring the previous state exactly, and the log replaying to the identical state JSON.
Then every game under any event at all (presses, choices, declarations, corrections, renames,
undo): nothing but refusals escapes, and the same invariants hold (X9, X11 too)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import ledger
from companion.errors import Refused
from companion.events import Roll, Undo, parse_event
from companion.games import GAMES as ALL_GAMES
from companion.replay import Table, replay

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]

# game -> (fewest players, most players, chips on the table for n players, None: no chips)
GAMES = {
    "kat-en-muis": (2, 2, lambda n: 40),
    "lifes-mishaps": (2, 6, lambda n: 36),
    "cats-and-dogs": (2, 6, None),
}
MAX_EVENTS = 300


def check_positions(game, state):
    squares = [p["position"] for p in state["players"]]
    if game == "kat-en-muis":
        assert all(s is None or 2 <= s <= 66 for s in squares), squares
    elif game == "lifes-mishaps":
        on = [s for s in squares if s is not None]
        assert all(1 <= s <= 48 for s in on), squares
        assert len(on) == len(set(on)), squares                 # L6: one marker a square
    else:
        assert all(s is not None and 0 <= s <= 40 for s in squares), squares
        on = [s for s in squares if s != 0]
        assert len(on) == len(set(on)), squares                 # C2/C3/C4: never shared


def check_state(game, table, state, total):
    if total is not None:
        held = [p["chips"] for p in state["players"]]
        assert min(held) >= 0 and state["pool"] >= 0            # X3
        assert sum(held) + state["pool"] == total               # X4
    else:
        assert all(p["chips"] == 0 for p in state["players"]) and state["pool"] == 0
    if state["phase"] == "over":
        assert (state["turn"], state["awaiting"]) == (None, None)
        assert state["winners"] and all(0 <= w < len(state["players"]) for w in state["winners"])
    else:
        assert state["phase"] in ("lead", "play")
        assert state["awaiting"] == "roll"
        assert 0 <= state["turn"] < len(state["players"])
        assert state["winners"] == []
        assert (state["lead"] is not None) == (state["phase"] == "lead")
        if state["phase"] == "play":
            assert sorted(state["order"]) == list(range(len(state["players"])))
            assert state["players"][state["turn"]]["lost_turns"] == 0      # X7
        # A legal throw is accepted (attempt is pure: nothing changes).
        dice = table.rulebook.randomizer_now(table.state)
        table.attempt(Roll(values=(1,) * dice.count))
    check_positions(game, state)


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_properties_random_legal_game(game, data):
    low, high, chips_for = GAMES[game]
    players = data.draw(st.integers(low, high), label="players")
    events = [{"type": "new_game", "game": game, "players": NAMES[:players]}]
    table = Table()
    table.apply(parse_event(events[0]))
    total = chips_for(players) if chips_for else None
    history = [table.to_json()]
    check_state(game, table, history[-1], total)
    for _ in range(MAX_EVENTS):
        if table.state.over:
            break
        choice = data.draw(st.integers(0, 19), label="kind")
        if choice == 0 and len(table.effective) >= 2:
            event = {"type": "undo"}
        elif choice == 1 and total is not None:
            accounts = list(range(players)) + ["pool"]
            source = data.draw(st.sampled_from(accounts), label="from")
            target = data.draw(st.sampled_from([a for a in accounts if a != source]),
                               label="to")
            held = ledger.holding(table.state, source)
            event = {"type": "transfer", "from": source, "to": target,
                     "amount": data.draw(st.integers(1, 8), label="amount")}
            if event["amount"] > held:                           # X9: refused, nothing moves
                with pytest.raises(Refused, match="a correction cannot move"):
                    table.attempt(parse_event(event))
                continue
        else:
            dice = table.rulebook.randomizer_now(table.state)
            values = [data.draw(st.integers(1, dice.faces), label="value")
                      for _ in range(dice.count)]
            event = {"type": "roll", "values": values}
        table.apply(parse_event(event))
        events.append(event)
        state = table.to_json()
        if event["type"] == "undo":
            history.pop()
            assert state == history[-1]                          # exactly the state before
        else:
            history.append(state)
        check_state(game, table, state, total)
    assert replay(events).to_json() == table.to_json()


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_properties_undo_of_everything_returns_to_the_start(game, data):
    low, high, _ = GAMES[game]
    players = data.draw(st.integers(low, high))
    table = Table()
    table.apply(parse_event({"type": "new_game", "game": game, "players": NAMES[:players]}))
    start = table.to_json()
    steps = 0
    for _ in range(data.draw(st.integers(1, 60))):
        if table.state.over:
            break
        dice = table.rulebook.randomizer_now(table.state)
        table.apply(Roll(values=tuple(data.draw(st.integers(1, dice.faces))
                                      for _ in range(dice.count))))
        steps += 1
    if table.state.over:
        return
    for _ in range(steps):
        table.apply(Undo())
    assert table.to_json() == start


# -- every game, every event kind: corrections, renames, undo ---------------------------------

ALL_STEPS = 120
RENAMES = ["Zed", "ann", "  ", "Ben", "x" * 30, "Player 9", " Cy "]


def any_event(data, table):
    """Mostly what the game waits for (so games get deep and end), else any event at all."""
    state = table.state
    n = len(state.players)
    dice = table.rulebook.randomizer_now(state)
    kind = data.draw(st.sampled_from(["awaited"] * 6 + ["press", "choose", "next", "declare",
                                                         "transfer", "rename", "undo", "roll"]))
    if kind == "awaited":
        if state.awaiting == "roll" and dice is not None:
            return {"type": "roll", "values": [data.draw(st.integers(1, dice.faces))
                                               for _ in range(dice.count)]}
        if state.awaiting == "choose":
            return {"type": "choose", "value": data.draw(st.integers(1, 6))}
        if state.awaiting == "next" and data.draw(st.booleans()):
            return {"type": "press", "seat": state.turn}
        kind = data.draw(st.sampled_from(["next", "press", "declare"]))
    seat = st.integers(-1, n)
    if kind == "roll":
        return {"type": "roll", "values": data.draw(st.lists(st.integers(0, 13), max_size=3))}
    if kind == "press":
        turn = state.turn if state.turn is not None else 0
        return {"type": "press", "seat": data.draw(st.one_of(st.just(turn), seat))}
    if kind == "choose":
        return {"type": "choose", "value": data.draw(st.integers(0, 12))}
    if kind == "declare":
        return {"type": "declare", "winners": data.draw(st.lists(seat, max_size=2))}
    if kind == "transfer":
        account = st.one_of(st.just("pool"), seat)
        return {"type": "transfer", "from": data.draw(account), "to": data.draw(account),
                "amount": data.draw(st.integers(1, 40))}
    if kind == "rename":
        return {"type": "rename", "seat": data.draw(seat),
                "name": data.draw(st.sampled_from(RENAMES))}
    return {"type": kind}


@pytest.mark.parametrize("game", sorted(ALL_GAMES))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_properties_every_game_any_event_refused_or_kept_right(game, data):
    rulebook = ALL_GAMES[game]
    players = data.draw(st.integers(rulebook.min_players, rulebook.max_players))
    options = {"chips": 5, "pool": 3} if game == "free-play" else {}
    table = Table()
    table.apply(parse_event({"type": "new_game", "game": game, "players": NAMES[:players],
                             "options": options}))
    total = table.state.total_chips
    history = [table.to_json()]
    for _ in range(ALL_STEPS):
        event = parse_event(any_event(data, table))
        try:
            new = table.attempt(event)
        except Refused:                               # refusals are fine; nothing changes
            assert table.to_json() == history[-1]
            continue
        assert not (table.state.over and event.type in ("undo", "transfer", "rename"))  # X11
        table.apply(event, new)
        state = table.to_json()
        if event.type == "undo":
            history.pop()
            assert state == history[-1]                                  # undo exact
        else:
            history.append(state)
        held = [p["chips"] for p in state["players"]]
        assert min(held) >= 0 and state["pool"] >= 0                     # X3
        assert sum(held) + state["pool"] == total                       # X4
    assert replay(table.effective).to_json() == table.to_json()
