"""The Pi as a player: `player` picks the Pi's event for a seat it plays (both games),
`fox_search` is its Fox and Geese search."""
