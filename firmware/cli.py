"""The `parlour` command."""

import sys


def main(argv=None) -> int:  # replaced below in this change
    print("parlour: not ready", file=sys.stderr)
    return 2
