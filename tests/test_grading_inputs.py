"""What the grader takes as its input, before any kernel runs: the submission set (found at
any depth, each entry checked before it is read), rosters naming files by path or name,
duplicate students, batches that mix exercises, and files whose content must never be
quoted. The whole cycle with kernels is in test_assignment_cycle.py."""
import json
import os
import time

import pytest

from grading_helpers import QIDS
from prayatul_edu import cli, grading
from prayatul_edu.grading import batch, identity, uploader

CANARY = "CANARY-7f3e-instructor-secret"


@pytest.fixture
def tree(tmp_path):
    """A collected folder with one of each kind of entry, and a secret beside it."""
    secret = tmp_path / "secret.txt"
    secret.write_text(CANARY, encoding="utf-8")
    top = tmp_path / "collected"
    (top / "a" / "deep").mkdir(parents=True)
    (top / "b").mkdir()
    (top / "a" / ".ipynb_checkpoints").mkdir()
    (top / "a" / ".ipynb_checkpoints" / "s1_03_pair_counting-checkpoint.ipynb").write_text("{}")
    (top / "a" / "s1_03_pair_counting.ipynb").write_text("{}")
    (top / "a" / "deep" / "s2_03_pair_counting.ipynb").write_text("{}")
    (top / "a" / "notes.txt").write_text("not a notebook")
    os.symlink(secret, top / "b" / "s3_03_pair_counting.ipynb")
    os.mkfifo(top / "b" / "s4_03_pair_counting.ipynb")
    (top / "b" / "s5_03_pair_counting.ipynb").mkdir()
    os.symlink(tmp_path / "gone", top / "b" / "s6_03_pair_counting.ipynb")
    os.symlink(tmp_path, top / "b" / "loop")   # a link to a folder is not followed
    return top


def test_the_submission_set_is_found_at_any_depth_and_never_read(tree):
    entries = batch.collect([tree])
    got = {e.name: e.odd for e in entries}
    assert got == {"a/deep/s2_03_pair_counting.ipynb": None,
                   "a/s1_03_pair_counting.ipynb": None,
                   "b/s3_03_pair_counting.ipynb": "a symbolic link",
                   "b/s4_03_pair_counting.ipynb": "a named pipe",
                   "b/s5_03_pair_counting.ipynb": "a folder",
                   "b/s6_03_pair_counting.ipynb": "a symbolic link"}
    assert {e.folder for e in entries} == {str(tree)}
    limits = grading.Limits()
    for e in entries:
        data, odd = batch._read(e, limits)
        assert (data, odd) == ((b"{}", None) if e.odd is None else (None, e.odd))


def test_an_entry_swapped_for_a_link_after_listing_is_not_followed(tree, tmp_path):
    entry = batch.collect([tree / "a" / "s1_03_pair_counting.ipynb"])[0]
    assert (entry.name, entry.odd) == ("s1_03_pair_counting.ipynb", None)
    entry.path.unlink()
    os.symlink(tmp_path / "secret.txt", entry.path)
    assert batch._read(entry, grading.Limits()) == (None, "a symbolic link")


def test_missing_submissions_are_named():
    with pytest.raises(ValueError, match="^submissions: not found: nowhere, gone.ipynb$"):
        batch.collect(["nowhere", "gone.ipynb"])


def test_odd_entries_cost_their_own_row_and_their_content_is_never_shown(tree, tmp_path):
    out = tmp_path / "out"
    reports = grading.grade_batch([tree], out, progress=False, exercise="03", jobs=1,
                                  sandbox="none", formats=("canvas", "gradescope"),
                                  notebook_timeout=1)
    by = {r.student: r for r in reports}
    assert sorted(by) == ["s1", "s2", "s3", "s4", "s5", "s6"]
    for sid, what in (("s3", "a symbolic link"), ("s4", "a named pipe"), ("s5", "a folder"),
                      ("s6", "a symbolic link")):
        assert by[sid].problems == [f"the entry is {what}; it was not read"]
        assert [(x["points"], x["status"]) for x in by[sid].rows] == [
            (0.0, grading.NOTEBOOK_ERROR)] * len(QIDS)
        assert by[sid].file == f"b/{sid}_03_pair_counting.ipynb"
    for path in out.rglob("*"):
        if path.is_file():
            assert CANARY not in path.read_text(encoding="utf-8")


def test_a_notebook_error_never_quotes_the_file():
    data = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {},
                       "cells": [{"cell_type": CANARY}]}).encode()
    r = grading.grade_source("s1_03_pair_counting.ipynb", data, grading.Options(sandbox="none"))
    assert r.problems == ["not a valid notebook (ValidationError; not JSON, or not a Jupyter "
                          "notebook of format 4)"]
    assert CANARY not in json.dumps(r.to_dict())


def test_duplicates_are_resolved_by_the_newest_file(tmp_path):
    (tmp_path / "a").mkdir()
    old, new = tmp_path / "a" / "s7.ipynb", tmp_path / "s7_03_pair_counting.ipynb"
    old.write_text("{not json")
    new.write_text("{not json either")
    os.utime(old, (time.time() - 3600,) * 2)
    opts = grading.Options(exercise="03")
    entries = batch.collect([tmp_path])
    keep, dropped = batch._resolve_duplicates(entries, opts)
    assert [entries[k].name for k in keep] == ["s7_03_pair_counting.ipynb"]
    assert dropped == {keep[0]: ["a/s7.ipynb"]}
    os.utime(old, (time.time() + 60,) * 2)   # now the other one is newer
    keep, dropped = batch._resolve_duplicates(entries := batch.collect([tmp_path]), opts)
    assert [entries[k].name for k in keep] == ["a/s7.ipynb"]
    reports = grading.grade_batch([tmp_path], tmp_path / "out", progress=False,
                                  exercise="03", sandbox="none", jobs=2,
                                  formats=("gradescope",))
    assert [r.student for r in reports] == ["s7"] and len(reports[0].rows) == len(QIDS)
    assert reports[0].problems[-1] == ("also handed in: s7_03_pair_counting.ipynb (older, or "
                                       "not a regular file; not graded: the newest file counts)")
    assert [p.name for p in (tmp_path / "out" / "gradescope").iterdir()] == ["s7"]
    settings = json.loads((tmp_path / "out" / "grades.json").read_text())["settings"]
    assert settings["not_graded"] == {"a/s7.ipynb": ["s7_03_pair_counting.ipynb"]}


def test_a_regular_file_beats_an_odd_entry_of_the_same_student(tree, tmp_path):
    (tree / "b" / "s3").mkdir()
    real = tree / "b" / "s3" / "s3.ipynb"
    real.write_text("{}")
    os.utime(real, (time.time() - 7200,) * 2)   # older than the link, still graded
    entries = batch.collect([tree])
    keep, dropped = batch._resolve_duplicates(entries, grading.Options(exercise="03"))
    kept = {entries[k].name for k in keep}
    assert "b/s3/s3.ipynb" in kept and "b/s3_03_pair_counting.ipynb" not in kept


def test_a_batch_mixing_exercises_is_refused_with_the_list(tmp_path, capsys):
    for name in ("s1_03_pair_counting.ipynb", "s2_03_pair_counting.ipynb", "s3_01_matching.ipynb"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "03_pair_counting").mkdir()
    (tmp_path / "03_pair_counting" / "s4.ipynb").write_text("{}")
    message = ("submissions: the files name different exercises (01_matching: 1 file(s), "
               "03_pair_counting: 3 file(s)); grade one exercise at a time (--exercise, or "
               "one folder each)")
    with pytest.raises(ValueError) as err:
        grading.grade_batch([tmp_path], tmp_path / "out", progress=False, sandbox="none")
    assert str(err.value) == message and not (tmp_path / "out").exists()
    assert cli.main(["grade", str(tmp_path), "--out", str(tmp_path / "o"),
                     "--sandbox", "none"]) == 2
    assert capsys.readouterr().err.strip() == message


def test_a_roster_names_files_by_path_or_by_name(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("file,student\n./sec_a\\x.ipynb,s1\nsec_b/y.ipynb,s2\nz.ipynb,s3\n",
                      encoding="utf-8")
    ids = identity.read_roster(roster)
    assert ids == {"sec_a/x.ipynb": "s1", "sec_b/y.ipynb": "s2", "z.ipynb": "s3"}
    got = {name: identity.identify(name, exercise="03", roster=ids)
           for name in ("sec_a/x.ipynb", "sec_b/y.ipynb", "deep/er/z.ipynb", "sec_c/y.ipynb")}
    assert {n: (i.student, i.matched, i.ok) for n, i in got.items() if i.ok} == {
        "sec_a/x.ipynb": ("s1", "path", True), "sec_b/y.ipynb": ("s2", "path", True),
        "deep/er/z.ipynb": ("s3", "name", True)}
    assert got["sec_c/y.ipynb"].student.startswith("invalid-")
    assert got["sec_c/y.ipynb"].problems == [
        "the file sec_c/y.ipynb is not on the roster (neither its path nor its name)"]


@pytest.mark.parametrize("name, exercise, student, problems", [
    ("s002_03_pair_counting.ipynb", "01", "s002",
     ["the file's name says exercise 03_pair_counting, but it was graded as 01_matching "
      "(--exercise)"]),
    ("s002_03_pair_counting.ipynb", "03", "s002", []),
])
def test_a_wrong_exercise_never_becomes_part_of_the_id(name, exercise, student, problems):
    ident = identity.identify(name, exercise=exercise, roster=None)
    assert (ident.student, ident.problems) == (student, problems)


def test_unknown_exercise_is_refused_with_the_list():
    with pytest.raises(ValueError) as err:
        identity.exercise_name("07_kmeans")
    assert str(err.value) == ("exercise: there is no exercise '07_kmeans'; the exercises are "
                              "01_matching, 02_information, 03_pair_counting, "
                              "04_silhouette_graph, 05_hierarchy, 06_prayatul, "
                              "08_trusting_a_score, 09_choosing_k")


@pytest.mark.parametrize("data", [
    b"\xef\xbb\xbfstudent,name,email\r\ns1,Ana Lima,ana@uni.example\r\n",   # Excel: CSV UTF-8
    b"student;name;email\r\ns1;Ana Lima;ana@uni.example\r\n",              # Excel: ; locales
    b"student\tname\temail\ns1\tAna Lima\tana@uni.example\n",               # a sheet's tab copy
    b"student , name,email\ns1,Ana Lima,ana@uni.example\n",                 # spaces in a header
])
def test_a_class_roster_as_a_spreadsheet_saves_it_is_read(tmp_path, data):
    (tmp_path / "class.csv").write_bytes(data)
    assert cli.main(["assign", "03", "--roster", str(tmp_path / "class.csv"),
                     "--out", str(tmp_path / "hw")]) == 0
    people = uploader.read_people(tmp_path / "hw" / "roster.csv")
    assert (people["s1"].name, people["s1"].email) == ("Ana Lima", "ana@uni.example")


@pytest.mark.parametrize("data, message", [
    (b"Student,Name\ns1,Ana\n", "roster: expected a CSV with the column student (or "
                                "Canvas's gradebook export (Student, ID, SIS User ID, SIS "
                                "Login ID, Section) or Gradescope's roster (Name, Email, "
                                "SID, Role)); its columns are Student, Name"),
    ("student,name\ns1,Jos\u00e9\n".encode("cp1252"),
     "roster: class.csv is not UTF-8 text (save it as CSV UTF-8)"),
])
def test_a_roster_without_its_column_says_what_it_has(tmp_path, data, message, capsys):
    (tmp_path / "class.csv").write_bytes(data)
    assert cli.main(["assign", "03", "--roster", str(tmp_path / "class.csv"),
                     "--out", str(tmp_path / "hw")]) == 2
    assert capsys.readouterr().err.strip() == message


def test_grading_with_the_class_roster_says_which_roster_to_give(tmp_path, capsys):
    (tmp_path / "class.csv").write_text("student,name\ns1,Ana\n", encoding="utf-8")
    (tmp_path / "s1_03_pair_counting.ipynb").write_text("{}", encoding="utf-8")
    assert cli.main(["grade", str(tmp_path), "--out", str(tmp_path / "o"), "--roster",
                     str(tmp_path / "class.csv"), "--sandbox", "none"]) == 2
    assert capsys.readouterr().err.strip() == (
        "roster: expected a CSV with the columns file and student; its columns are student, "
        "name (a class roster: give the roster.csv that assign wrote beside the notebooks)")
