"""Undos said together in one notice (`said_together`): what to set back of moves the box
showed, and of moves it never showed only "if it was done on the board"."""

from __future__ import annotations

from firmware.controller.parts.undos import UndoSaid, said_together


def test_undos_a_shown_undo_after_one_with_a_move_never_shown_is_not_put_under_its_if():
    """Ann's uncover and the Pi's reply it never showed taken back, then Ben's uncover a
    moment later: Ben's square went after the first's "If it was done on the board:", as if
    it might not have been uncovered, though the box had shown it."""
    first = UndoSaid(["Ann uncovers 1"], ["Cover Ann's 1 again."], "from a phone",
                     ["Cover Pi's 6 again."])
    then = UndoSaid(["Ben uncovers 3"], ["Cover Ben's 3 again."], "from a phone")
    assert said_together([first, then]) == (
        "Taken back from a phone: Ann uncovers 1; Ben uncovers 3. Cover Ann's 1 again. "
        "Cover Ben's 3 again. If it was done on the board: Cover Pi's 6 again.")


def test_undos_never_shown_with_nothing_to_set_back_say_so():
    said = UndoSaid(["Ben throws 2 and 6"], [], "from a phone before it was shown here")
    assert said_together([said]) == ("Taken back from a phone before it was shown here: "
                                     "Ben throws 2 and 6. Nothing to set back on the board.")


def test_undos_a_set_back_never_shown_that_begins_with_a_name_keeps_it_as_written():
    """What to set back came after "If it was done on the board:" with its first letter made
    small ("cover Pi's 6 again."), which made a name that begins it small too ("cy's claim
    stands again"). Each is said as the phones say it."""
    said = UndoSaid(["Cy withdraws the claim"], [], "from a phone before it was shown here",
                    ["Cy's claim stands again: a press of their button confirms it."])
    assert said_together([said]).endswith(
        "If it was done on the board: Cy's claim stands again: a press of their button "
        "confirms it.")
