"""Chances to win: from any position by the game's own rulebook (`odds`), exactly where a
game allows it (`kat_en_muis`, `domino_rex` with its hint) and step by step for the charts
(`history`)."""
