"""Stored games as people read them: summaries and logs in words (summaries), per-game figures
(figures), a finished game's record (record) and its chips and chances step by step (chances)."""
