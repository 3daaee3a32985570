"""The typed reproduction results' base (``reproduce.record``): a record's JSON and back."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mobmem.reproduce.record import OMIT_NONE, Record, RecordError


@dataclass
class Leaf(Record):
    n: int
    x: float
    share: float | None


@dataclass(kw_only=True)
class Tree(Record):
    name: str
    optional: Leaf | None = field(default=None, metadata=OMIT_NONE)
    leaves: dict[str, Leaf]
    order: list[str]
    pair: tuple[int, float]


leaves = st.builds(
    Leaf,
    n=st.integers(-(2**63), 2**63),
    x=st.one_of(st.integers(0, 10**6), st.floats(allow_nan=False)),
    share=st.one_of(st.none(), st.floats(0, 1)),
)
trees = st.builds(
    Tree,
    name=st.text(),
    optional=st.one_of(st.none(), leaves),
    leaves=st.dictionaries(st.text(), leaves, max_size=4),
    order=st.lists(st.text(), max_size=3),
    pair=st.tuples(st.integers(), st.floats(allow_nan=False)),
)


@given(trees)
def test_a_record_reads_back_from_its_json_as_it_was(t):
    d = t.to_dict()
    assert ("optional" in d) == (t.optional is not None)
    back = Tree.from_dict(d)
    assert back == t and back.to_dict() == d
    # A whole number in a float field stays whole: the JSON is unchanged.
    assert all(type(v.x) is type(t.leaves[k].x) for k, v in back.leaves.items())


def test_a_key_that_is_missing_unknown_or_of_another_type_is_refused_by_its_path():
    good = Tree(name="a", leaves={"k": Leaf(1, 2.0, None)}, order=[], pair=(1, 2.0)).to_dict()
    with pytest.raises(RecordError, match=r"Tree\.leaves\.k: missing key 'share'"):
        Tree.from_dict({**good, "leaves": {"k": {"n": 1, "x": 2.0}}})
    with pytest.raises(RecordError, match=r"Tree: unknown key 'extra'"):
        Tree.from_dict({**good, "extra": 1})
    with pytest.raises(RecordError, match=r"Tree\.leaves\.k\.n: expected int, got True"):
        Tree.from_dict({**good, "leaves": {"k": {"n": True, "x": 2.0, "share": None}}})
    with pytest.raises(RecordError, match=r"Tree\.pair: expected 2 items, got 1"):
        Tree.from_dict({**good, "pair": [1]})
    # The framework's judged claims sit beside a result's record, at the top only.
    assert Tree.from_dict({**good, "claims": []}) == Tree.from_dict(good)
    with pytest.raises(RecordError, match="unknown key 'claims'"):
        Tree.from_dict({**good, "leaves": {"k": {"n": 1, "x": 2.0, "share": None, "claims": []}}})
