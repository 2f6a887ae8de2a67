"""The table's randomness: randomizers as data (`randomizers`), the committed roll stream that
derives every roll from a secret seed (`rollstream`), and whether the rolls were fair and
honest (`stats`)."""
