"""What the table keeps in its data directory besides the store: its lock, the PIN, the
cookie key and the table id, paired phones, and opening the store at start-up."""
