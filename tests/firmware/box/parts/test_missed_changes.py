"""The changes missed under another screen alone: what is kept while the game's screen is
covered, what an undo among them adds, what the box's own action clears, and what is given to
show once the game's screen is back."""

from __future__ import annotations

from firmware.controller.parts.missed import MissedChanges, Uncovered


def state(version: int, log: list[str], *, taken_back: bool = False,
          game: str = "g1") -> dict:
    return {"boot": "b1", "game_id": game, "state_version": version, "log": list(log),
            "taken_back": taken_back}


DRAWN = state(3, ["Ann throws 3", "Ben throws 5"])
THROW = state(4, [*DRAWN["log"], "Ann throws 6"])
UNDO = state(5, DRAWN["log"], taken_back=True)            # takes the throw back


def test_missed_changes_start_with_nothing_to_show():
    missed = MissedChanges()
    assert not missed.waiting
    assert missed.take(DRAWN) is None


def test_missed_changes_keep_a_change_from_the_game_as_drawn_and_give_it_once():
    missed = MissedChanges()
    missed.record(DRAWN, THROW)
    assert missed.waiting
    assert missed.take(THROW) == Uncovered(DRAWN, THROW, [])
    assert not missed.waiting and missed.take(THROW) is None


def test_missed_changes_that_follow_go_on_from_the_game_drawn_before_the_first():
    missed = MissedChanges()
    again = state(5, [*THROW["log"], "Ann pays 2"])
    missed.record(DRAWN, THROW)
    missed.record(THROW, again)                  # the game as drawn is still DRAWN
    uncovered = missed.take(again)
    assert uncovered.old is DRAWN and uncovered.snap is again and uncovered.undos == []


def test_missed_changes_the_box_has_moved_on_from_are_not_given_and_not_kept():
    missed = MissedChanges()
    missed.record(DRAWN, THROW)
    assert missed.take(state(9, THROW["log"])) is None      # a newer state than theirs
    assert not missed.waiting


def test_missed_changes_newer_chances_alone_still_give_them():
    missed = MissedChanges()
    missed.record(DRAWN, THROW)
    assert missed.take({**THROW, "version": 12, "odds": {"win": [0.5, 0.5]}}) is not None


def test_missed_changes_across_games_are_not_given():
    missed = MissedChanges()
    other = state(1, [], game="g2")
    missed.record(DRAWN, other)
    assert missed.take(other) is None


def test_missed_changes_are_cleared_by_the_boxs_own_action():
    missed = MissedChanges()
    missed.record(DRAWN, THROW)
    missed.record(THROW, UNDO)
    missed.clear()
    assert not missed.waiting and missed.take(UNDO) is None
    missed.record(UNDO, THROW)                  # recorded anew: from the game drawn now
    assert missed.take(THROW) == Uncovered(UNDO, THROW, [])


def test_missed_changes_an_undo_is_kept_to_say_and_later_moves_go_on_from_it():
    missed = MissedChanges()
    undo = state(4, DRAWN["log"][:1], taken_back=True)      # takes Ben's throw back
    rethrow = state(5, [*undo["log"], "Ben throws 2"])      # the log as long as before
    missed.record(DRAWN, undo)
    missed.record(undo, rethrow)
    uncovered = missed.take(rethrow)
    assert uncovered.old is undo and uncovered.snap is rethrow
    assert uncovered.undos == [(DRAWN, undo)] and uncovered.undos[0][0] is DRAWN


def test_missed_changes_undos_one_after_another_are_one_run():
    missed = MissedChanges()
    second = state(6, DRAWN["log"][:1], taken_back=True)
    missed.record(DRAWN, UNDO)
    missed.record(UNDO, second)
    uncovered = missed.take(second)
    assert uncovered.old is second and uncovered.undos == [(DRAWN, second)]


def test_missed_changes_an_undo_after_a_move_runs_from_the_game_drawn_not_taken_back():
    missed = MissedChanges()
    drawn = {**DRAWN, "taken_back": True, "undos": [{"at": 2}]}    # an undo said already
    missed.record(drawn, THROW)
    missed.record(THROW, UNDO)
    (before, after), = missed.take(UNDO).undos
    assert after is UNDO
    assert before == {**drawn, "taken_back": False}        # its undos are not this run's
    assert drawn["taken_back"]                              # the state drawn is left as it was


def test_missed_changes_an_undo_a_move_and_an_undo_are_two_runs():
    missed = MissedChanges()
    rethrow = state(6, [*DRAWN["log"], "Ann throws 1"])
    undo_again = state(7, DRAWN["log"], taken_back=True)
    for before, after in ((DRAWN, THROW), (THROW, UNDO), (UNDO, rethrow),
                          (rethrow, undo_again)):
        missed.record(before, after)
    uncovered = missed.take(undo_again)
    assert uncovered.old is undo_again
    assert [after for _, after in uncovered.undos] == [UNDO, undo_again]
    assert uncovered.undos[1][0] == {**UNDO, "taken_back": False}


def test_missed_changes_an_undo_a_rename_and_an_undo_keep_the_first_runs_undos_said():
    """Under the menu a phone took a move back, renamed a player, and took the next move
    back: the rename keeps the state's undos going, so the second run starts from the first's
    end as it is (its undo said there), not as one with nothing said (the first undo was then
    said twice, once as a move never shown: "If it was done on the board: ...")."""
    missed = MissedChanges()
    renamed = {**state(6, [*UNDO["log"], "Ben is now called Zed"], taken_back=True)}
    undo_again = state(7, DRAWN["log"][:1], taken_back=True)
    for before, after in ((DRAWN, UNDO), (UNDO, renamed), (renamed, undo_again)):
        missed.record(before, after)
    uncovered = missed.take(undo_again)
    assert [after for _, after in uncovered.undos] == [UNDO, undo_again]
    assert uncovered.undos[1][0] is UNDO                   # its undo said by the first run


def test_missed_changes_given_are_not_changed_by_those_recorded_after():
    missed = MissedChanges()
    missed.record(DRAWN, UNDO)
    uncovered = missed.take(UNDO)
    missed.record(UNDO, state(6, DRAWN["log"][:1], taken_back=True))
    assert uncovered.undos == [(DRAWN, UNDO)]
