"""Fox and Geese references for the Pi's bench: the search before this one, kept frozen to
measure against (`fox_search_before`), and whether the Geese can force a win from the start,
in Python (`geese_proof`) and compiled (`whole_game_proof`)."""
