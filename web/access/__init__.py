"""Who may change the table from a phone: the PIN and its sign-ins (auth), phones paired with
a seat (phones, seat) and the small private files both are kept in (keptfile)."""
