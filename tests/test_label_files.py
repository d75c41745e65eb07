"""Label files read by pandas' C parser give what the careful reader (Python's csv, field by
field) gives: the same names, types and values, missing values and all."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu import label_files
from prayatul_edu.label_files import parse_table

pytest.importorskip("pandas")

FIELD = {
    "ints": st.integers(-5, 120).map(str),
    "floats": st.floats(-50, 50, allow_nan=False).map(lambda x: f"{x:.3f}"),
    "words": st.sampled_from(["a", "b", "km 1", "NA", "None", "x-y", "3a"]),
    "mixed": st.sampled_from(["1", "2", "b", "2.5"]),
}


@st.composite
def tables(draw):
    sep = draw(st.sampled_from([",", ";", "\t"]))
    n_rows = draw(st.integers(1, 25))
    kinds = draw(st.lists(st.sampled_from(sorted(FIELD)), min_size=1, max_size=4))
    columns = []
    for kind in kinds:
        values = draw(st.lists(FIELD[kind], min_size=n_rows, max_size=n_rows))
        if kind == "floats" and sep != ",":
            values = [v.replace(".", ",") for v in values]        # a European decimal comma
        if draw(st.booleans()):                                   # a few missing fields
            gaps = draw(st.lists(st.integers(0, n_rows - 1), max_size=3))
            values = ["" if i in gaps else v for i, v in enumerate(values)]
        if draw(st.booleans()):                                   # spaces around the fields
            values = [f" {v} " if v else v for v in values]
        columns.append(values)
    header = [f"c{j}" for j in range(len(kinds))]
    lines = [sep.join(header)] + [sep.join(col[i] for col in columns) for i in range(n_rows)]
    na = draw(st.sampled_from([("",), ("", "NA"), ()]))
    return "\n".join(lines) + "\n", sep, na


def _same(a: dict, b: dict) -> None:
    assert list(a) == list(b)
    for name in a:
        x, y = np.asarray(a[name]), np.asarray(b[name])
        assert x.dtype.kind == y.dtype.kind, (name, x, y)
        if x.dtype.kind == "f":
            np.testing.assert_array_equal(x, y)                   # NaN where missing, alike
        else:
            assert x.tolist() == y.tolist(), name


@settings(max_examples=150, deadline=None)
@given(tables())
def test_pandas_reads_what_the_careful_reader_reads(table):
    text, sep, na = table
    fast = label_files._read_with_pandas(text.encode(), text, "t.csv", sep, "FILE", na, None)
    if fast is None:          # pandas handed it over (e.g. a short row): nothing to compare
        return
    _same(fast, label_files._read_field_by_field(text, "t.csv", sep, "FILE", na, None))


def test_a_million_rows_take_the_pandas_path():
    """No fallback for a clean large table (the careful reader would take tens of seconds)."""
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 50, (200_000, 3))
    text = "t,a,b\n" + "\n".join(f"{x},{y},{z}" for x, y, z in labels) + "\n"
    fast = label_files._read_with_pandas(text.encode(), text, "big.csv", ",", "FILE", ("",),
                                         None)
    assert fast is not None and fast["a"].dtype == np.int64
    np.testing.assert_array_equal(fast["b"], labels[:, 2])
    # with a missing value, the short-row check runs on the bytes (no quotes): still pandas
    lines = text.splitlines()
    lines[7] = "1,,2"
    text = "\n".join(lines) + "\n"
    fast = label_files._read_with_pandas(text.encode(), text, "big.csv", ",", "FILE", ("",),
                                         None)
    assert fast is not None and np.isnan(fast["a"][6]) and fast["a"].dtype == float
    lines[9] = "1,2"
    with pytest.raises(ValueError, match=r"^FILE: line 10 of big.csv has 2 fields, but the "
                                         r"header has 3"):
        parse_table("\n".join(lines) + "\n", "big.csv")


@pytest.mark.parametrize("col", [np.array([0, 1, 2, np.nan, 2, 1] * 5),
                                 np.array(["a", "b", None, "c", "a", "b"] * 5, dtype=object)])
def test_the_column_listing_counts_no_missing_value_as_a_cluster(col):
    """A label column with missing values (read as NaN or None) has 3 clusters, as Table II
    counts them, not 4: the listing says how many values are missing instead."""
    taken, why = label_files.label_columns({"km": col})
    assert taken == ["km"]
    assert why["km"].startswith("taken: 3 clusters; 5 missing value(s)"), why["km"]
