"""Can the Geese force a win from the start of the whole game? The compiled proof search.

`geese_proof.py` asks it in Python and settles nothing in millions of positions; this builds
`whole_game_proof.c` (the same df-pn, in C: billions of positions, a position and its mirror
image one entry, the least-worked half of the table dropped when it fills) over the board
tables of the rulebook's own `Board`, written to a header here, and runs it. It prints the
start's proof and disproof numbers as it goes and, if the start is proved, the size of the proof
tree (`--out`: the Geese's move at each of its positions). Needs a C compiler (`cc`) and 32
bytes a table entry (`--table-bits 28`: 8 GiB). What it found is in the README.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from geese_proof import start_position

HERE = Path(__file__).resolve().parent


def header(board, fox: int, geese: int, to_pen: int) -> str:
    """The board's tables as C arrays (grid indexes, -1 for none) and the start."""
    def table(declaration: str, rows, width: int, empty: str) -> list[str]:
        return [f"static const int {declaration} = {{"] + [
            "  {" + ",".join(list(row) + [empty] * (width - len(row))) + "}," for row in rows
        ] + ["};"]
    out = table("STEPS[49][9]", [[str(p) for p in row] for row in board.steps], 9, "-1")
    out += table("GSTEPS[49][6]", [[str(p) for p in row] for row in board.goose_steps], 6, "-1")
    out += table("JUMPS[49][9][2]", [["{%d,%d}" % j for j in row] for row in board.jumps], 9,
                 "{-1,-1}")
    out += [f"#define START_FOX {fox}", f"#define START_GEESE {geese}ULL",
            f"#define TO_PEN {to_pen}"]
    return "\n".join(out) + "\n"


def unlimited_stack() -> None:
    resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table-bits", type=int, default=28)
    parser.add_argument("--nodes", type=int, default=1_000_000_000)
    parser.add_argument("--near", type=int, default=0,
                        help="geese further than this from the Fox only wait (0: every move)")
    parser.add_argument("--min-geese", type=int,
                        help="fewer geese than this lose (default: the board's geese_to_pen)")
    parser.add_argument("--out", type=Path, help="the proof tree, if the start is proved")
    args = parser.parse_args(argv)
    board, fox, geese, to_pen = start_position()
    if {p // 7 * 7 + 6 - p % 7 for p in board.sideways} != set(board.sideways):
        print("the board data's sideways points are not mirror images: the search assumes so")
        return 2
    with tempfile.TemporaryDirectory() as work:
        work_dir = Path(work)
        (work_dir / "board.h").write_text(header(board, fox, geese, args.min_geese or to_pen))
        program = work_dir / "whole_game_proof"
        subprocess.run(["cc", "-O2", "-o", str(program), f"-I{work_dir}",
                        str(HERE / "whole_game_proof.c")], check=True)
        started = time.perf_counter()
        out = args.out or work_dir / "proof.txt"
        result = subprocess.run([str(program), str(args.table_bits), str(args.nodes),
                                 str(args.near), str(out)], preexec_fn=unlimited_stack)
    print(f"{time.perf_counter() - started:.0f} s")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
