"""A lecturer's own labels (prayatul_edu.widgets.label_source): pasted or uploaded, the
columns chosen from the header, every bad input refused with a message beside the box."""
from datetime import datetime, timezone

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prayatul_edu.label_files import parse_table
from prayatul_edu.widgets import LabelSource, LabelSourcePanel, OwnLabels
from prayatul_edu.widgets.label_source import MAX_INSTANCES, MAX_UPLOAD_BYTES

CSV = "id,class,kmeans,dbscan\n1,a,0,0\n2,a,0,1\n3,b,1,1\n4,b,1,-1\n5,c,2,1\n"
PRAYATUL_ROLES = ("truth", "primary", "alternative")


def _upload(content: bytes, name: str = "labels.csv"):
    """What an ipywidgets 8 FileUpload holds after a file is chosen."""
    return ({"name": name, "type": "text/csv", "size": len(content),
             "content": memoryview(content),
             "last_modified": datetime(2026, 1, 5, tzinfo=timezone.utc)},)


def _csv(columns: dict, sep: str = ",") -> str:
    names = list(columns)
    rows = zip(*(columns[n] for n in names))
    return "\n".join([sep.join(names), *(sep.join(str(v) for v in r) for r in rows)]) + "\n"


# ------------------------------------------------------------------ loading
def test_a_pasted_table_gives_its_columns_and_the_first_label_columns_by_default():
    source = LabelSource(("truth", "pred")).paste(CSV)
    assert source.columns == ["id", "class", "kmeans", "dbscan"]
    own = source.chosen()
    # "id" (every value distinct) is never the default truth: the upload made it so
    assert own.columns == {"truth": "class", "pred": "kmeans"} and own.n == 5
    own = source.choose(truth="class", pred="dbscan").chosen()
    assert own.labels["truth"].tolist() == ["a", "a", "b", "b", "c"]
    assert own.labels["pred"].tolist() == [0, 1, 1, -1, 1]
    assert own.where == "the pasted text"


def test_columns_named_as_the_roles_are_chosen_for_them():
    text = "alternative;primary;truth\n1;0;0\n1;1;0\n0;1;1\n"        # semicolons, as Excel writes
    own = LabelSource(PRAYATUL_ROLES).paste(text).chosen()
    assert own.columns == {r: r for r in PRAYATUL_ROLES}
    assert own.labels["alternative"].tolist() == [1, 1, 0]


def test_pasted_lines_name_labels():
    own = LabelSource(("truth", "pred")).paste("truth: 1 1 2 2\nkmeans: a, b b b\n").chosen()
    assert own.columns == {"truth": "truth", "pred": "kmeans"}
    assert own.labels["pred"].tolist() == ["a", "b", "b", "b"]


@pytest.mark.parametrize("ipywidgets7", [False, True])
def test_an_uploaded_file_is_read_as_the_cli_reads_it(ipywidgets7, tmp_path):
    from prayatul_edu.label_files import read_columns

    value = _upload(CSV.replace(",", "\t").encode(), "run.tsv")
    if ipywidgets7:
        value = {"run.tsv": {"metadata": {"name": "run.tsv"}, "content": CSV.replace(",", "\t").encode()}}
    source = LabelSource(("truth", "pred")).upload(value)
    path = tmp_path / "run.tsv"
    path.write_text(CSV.replace(",", "\t"))
    expected = read_columns(path)
    assert source.columns == list(expected) and source.where == "run.tsv"
    for name in expected:
        np.testing.assert_array_equal(source.table[name], expected[name])


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-3, 5), min_size=n, max_size=n),
    st.lists(st.sampled_from(["a", "b", "c", "x1"]), min_size=n, max_size=n))),
    st.sampled_from([",", "\t", ";"]))
def test_any_table_pasted_gives_back_its_columns(columns, sep):
    ints, words = columns
    # columns named as the roles (which column a role takes by default is tested apart)
    own = LabelSource(("truth", "pred")).paste(_csv({"truth": ints, "pred": words},
                                                    sep)).chosen()
    assert own.labels["truth"].tolist() == ints and own.labels["pred"].tolist() == words


def test_loading_again_keeps_the_columns_chosen_if_the_new_table_has_them():
    source = LabelSource(("truth", "pred")).paste(CSV).choose(truth="class", pred="kmeans")
    source.paste("kmeans,class\n1,x\n2,y\n")
    assert source.chosen().columns == {"truth": "class", "pred": "kmeans"}
    source.paste("u,v\n1,2\n3,4\n")
    assert source.chosen().columns == {"truth": "u", "pred": "v"}


def test_the_summary_counts_instances_and_labels_per_column():
    source = LabelSource(PRAYATUL_ROLES).paste(CSV).choose(truth="class", primary="kmeans",
                                                           alternative="dbscan")
    assert source.summary() == ("N = 5 instances from the pasted text; truth (class): 3 labels, "
                                "primary (kmeans): 3 labels, alternative (dbscan): 3 labels")


def test_parse_table_is_what_read_columns_uses(tmp_path):
    from prayatul_edu.label_files import read_columns

    path = tmp_path / "x.csv"
    path.write_bytes(b"\xef\xbb\xbf" + CSV.encode())          # with a byte-order mark
    parsed = parse_table(CSV.encode(), "x.csv")
    assert list(read_columns(path)) == list(parsed) == ["id", "class", "kmeans", "dbscan"]
    with pytest.raises(ValueError, match="^FILE: line 3 of x.csv has 1 fields"):
        parse_table("a,b\n1,2\n3\n", "x.csv")


# ------------------------------------------------------------------- errors
@pytest.mark.parametrize("text, message", [
    ("", "^text: paste a table with a header row"),
    ("truth,pred\n1,2\n", "^text: the pasted text has 1 instance; at least 2 are needed"),
    ("truth,pred\n", "^text: the pasted text needs a header row and at least one data row"),
    ("truth: 1 2 3\npred: 1 2\n", "^text: 'pred' has 2 labels but 'truth' has 3"),
    ("truth,pred\n1,2\n3,4,5\n", "^text: line 3 of the pasted text has 3 fields"),
    ("truth: 1\npred: 2\n", "^text: truth: give at least two labels"),
    ("truth\n1\n2\n", "^text: the pasted text has one column"),
    ("truth,truth\n1,2\n3,4\n", "^text: the header of the pasted text must name every column"),
    ("a: 1 2\na: 2 1\n", "^text: the name 'a' is given twice"),
])
def test_bad_pasted_text_says_what_is_wrong_and_changes_nothing(text, message):
    source = LabelSource(("truth", "pred")).paste(CSV)
    with pytest.raises(ValueError, match=message):
        source.paste(text)
    assert source.columns == ["id", "class", "kmeans", "dbscan"]


def test_too_many_instances_say_the_limit():
    n = MAX_INSTANCES + 1
    text = "t,p\n" + "\n".join(f"{i % 3},{i % 2}" for i in range(n))
    with pytest.raises(ValueError, match=f"^text: the pasted text has {n:,} instances; "
                                         f"the app takes at most {MAX_INSTANCES:,}"):
        LabelSource().paste(text)
    small = LabelSource(max_instances=3)
    with pytest.raises(ValueError, match="takes at most 3 "):
        small.paste("t,p\n1,1\n2,2\n1,2\n2,1\n")


@pytest.mark.parametrize("value, message", [
    (_upload(b"a,b\n1,2\n2,1\n", "labels.xlsx"), "^file: labels.xlsx is not a .csv, .tsv"),
    (_upload(b"a,b\n\xff\xfe,1\n2,2\n"), "^file: labels.csv is not a UTF-8 text file"),
    (_upload(b"x" * (MAX_UPLOAD_BYTES + 1)),
     f"^file: labels.csv has {MAX_UPLOAD_BYTES + 1:,} bytes; the app takes files up to"),
    (_upload(b"a,b\n1,2\n", "one.csv"), "^file: one.csv has 1 instance"),
    (_upload(b"a,b\n1,2\n2,1\n") * 2, "^file: upload one file, got 2"),
])
def test_bad_uploads_say_what_is_wrong(value, message):
    with pytest.raises(ValueError, match=message):
        LabelSource().upload(value)


def test_an_upload_value_of_the_wrong_kind_is_a_type_error():
    with pytest.raises(TypeError, match="^file: expected the value of an ipywidgets.FileUpload"):
        LabelSource().upload(42)


def test_bad_column_choices_name_the_role():
    source = LabelSource(PRAYATUL_ROLES)
    with pytest.raises(ValueError, match="^truth: no table yet"):
        source.choose(truth="class")
    with pytest.raises(ValueError, match="^text: no labels yet"):
        source.chosen()
    source.paste(CSV)
    with pytest.raises(ValueError, match=r"^primary: no column 'km' in the pasted text "
                                         r"\(columns: id, class, kmeans, dbscan\)"):
        source.choose(primary="km")
    with pytest.raises(TypeError, match="^pred: not a role here; the roles are truth, primary"):
        source.choose(pred="kmeans")
    assert source.chosen().columns["primary"] == "kmeans"         # unchanged


def test_a_missing_value_in_a_chosen_column_names_the_role_and_the_row():
    source = LabelSource(("truth", "pred")).paste("t,p,q\n1,1,2\n2,,1\n3,2,1\n")
    source.choose(truth="t", pred="q")                     # the column with a gap is not used
    assert source.chosen().n == 3
    with pytest.raises(ValueError, match="^pred: column 'p' has a missing or NaN value in "
                                         "data row 2"):
        source.choose(pred="p")


# -------------------------------------------------------------------- panel
def test_the_panel_pastes_chooses_and_hands_the_labels_to_the_app():
    received = []
    panel = LabelSourcePanel(PRAYATUL_ROLES, received.append, {"truth": "classes (truth)"})
    panel.text.value = CSV
    assert list(panel.dropdowns["primary"].options) == ["id", "class", "kmeans", "dbscan"]
    assert panel.dropdowns["truth"].description == "classes (truth)"
    panel.dropdowns["truth"].value = "class"
    panel.dropdowns["primary"].value = "kmeans"
    panel.dropdowns["alternative"].value = "dbscan"
    own = received[-1]
    assert isinstance(own, OwnLabels)
    assert own.columns == {"truth": "class", "primary": "kmeans", "alternative": "dbscan"}
    assert panel.info.value == ("N = 5 instances from the pasted text; truth (class): 3 labels, "
                                "primary (kmeans): 3 labels, alternative (dbscan): 3 labels")
    assert panel.error.value == ""


def test_the_panel_reads_an_upload_and_shows_errors_beside_the_box():
    received = []
    panel = LabelSourcePanel(("truth", "pred"), received.append)
    panel.file.value = _upload(CSV.encode(), "course.csv")
    assert received[-1].where == "course.csv" and panel.dropdowns["pred"].value == "kmeans"
    panel.text.value = "truth: 1 2 3\npred: 1 2\n"
    assert "&#x27;pred&#x27; has 2 labels but &#x27;truth&#x27; has 3" in panel.error.value
    assert len(received) == 1                              # nothing handed on
    panel.text.value = "truth: 1 2 3\npred: 1 2 2\n"
    assert panel.error.value == "" and received[-1].labels["pred"].tolist() == [1, 2, 2]


def test_the_panel_shows_the_apps_refusal_beside_the_box():
    def refuse(own):
        raise ValueError("truth: the app needs at least 2 classes")

    panel = LabelSourcePanel(("truth", "pred"), refuse)
    panel.text.value = CSV
    assert "the app needs at least 2 classes" in panel.error.value


# ------------------------------------------------------------ predictable state
def test_a_refused_load_keeps_the_table_and_choice_loaded_before():
    received = []
    panel = LabelSourcePanel(PRAYATUL_ROLES, received.append)
    panel.text.value = CSV
    panel.dropdowns["truth"].value = "class"
    panel.dropdowns["primary"].value = "dbscan"
    before = (panel.source.table, dict(panel.source.choice), len(received))
    # a table that loads but whose chosen column has a missing value: refused as a whole
    panel.file.value = _upload(b"class,kmeans,dbscan\na,0,0\n,1,1\nb,1,0\n", "bad.csv")
    assert "truth" in panel.error.value or "class" in panel.error.value
    assert panel.source.table is before[0] and panel.source.choice == before[1]
    assert len(received) == before[2]
    # a good file after the refused one: the choice the lecturer made is kept, not "id"
    panel.file.value = _upload(CSV.encode(), "good.csv")
    assert panel.source.choice == {"truth": "class", "primary": "dbscan",
                                   "alternative": "dbscan"} or \
        panel.source.choice["truth"] == "class"
    assert received[-1].columns["truth"] == "class"


def test_two_roles_on_one_column_are_named_in_a_note():
    panel = LabelSourcePanel(("truth", "pred"), lambda own: None, {"pred": "clusters"})
    panel.text.value = CSV
    assert "note" not in panel.info.value
    panel.dropdowns["pred"].value = "class"                     # the truth's column
    assert "note: truth and clusters both read the column class" in panel.info.value


@pytest.mark.parametrize("table, expected", [
    ({"id": [1, 2, 3, 4], "y": [0, 0, 1, 1], "c": [1, 1, 0, 0]}, ("y", "c")),
    ({"row": ["a", "b", "c", "d"], "id2": [9, 8, 7, 6], "y": [0, 0, 1, 1]}, ("y", "row")),
    ({"truth": [1, 2, 3, 4], "k": [0, 0, 1, 1]}, ("truth", "k")),     # named: taken as is
])
def test_id_like_columns_are_never_the_default_truth(table, expected):
    from prayatul_edu.widgets.label_source import default_choice

    arrays = {k: np.asarray(v) for k, v in table.items()}
    choice = default_choice(arrays, ("truth", "pred"), {})
    assert (choice["truth"], choice["pred"]) == expected


def test_error_messages_name_the_boxes_as_the_page_does():
    panel = LabelSourcePanel(("truth", "pred"), lambda own: None, {"pred": "clusters"})
    panel.text.value = "truth: 1 2 3\npred: 1 2\n"
    assert panel.error.value.startswith('<span class="pe-error"')
    assert "pasted labels: " in panel.error.value and "text:" not in panel.error.value
