"""The shared value checks."""

import pytest

from companion.checks import is_whole


@pytest.mark.parametrize("value, whole", [
    (0, True), (-3, True), (10**30, True),
    (True, False), (False, False), (1.0, False), ("1", False), (None, False), ([1], False),
])
def test_checks_is_whole_means_a_json_whole_number(value, whole):
    assert is_whole(value) is whole
