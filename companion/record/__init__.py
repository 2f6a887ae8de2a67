"""What the table keeps: games and their events in SQLite (`store`) and the club's league,
rebuilt from finished games' records (`league`)."""
