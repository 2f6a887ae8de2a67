"""The benchmark suite is a script (`make bench`, tests/bench/run.py), not tests: pytest must
not collect or import any of its modules."""

collect_ignore_glob = ["*.py"]
