"""The rebuild's own JSON encoding of a hand's deltas and scores must be the text Django would store."""

import json

from hypothesis import given
from hypothesis import strategies as st

from scoring.services.sync import _int_list_json


@given(st.lists(st.integers(min_value=-(10**9), max_value=10**9), max_size=6))
def test_int_list_json_is_json_dumps(values: list[int]) -> None:
    assert _int_list_json(values) == json.dumps(values)
