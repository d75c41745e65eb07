"""``prayatul-edu review``'s page in the browser (issue 43): every free-text answer
shown as text (a student's markup never runs), points and comments typed, the button's
download is the overrides CSV that ``export`` reads, and its points reach grades.json."""
from __future__ import annotations

import json

from prayatul_edu import cli
from prayatul_edu.grading.overrides import read_overrides

from static_pages import served as _served

#: A student's answer that would run a script, were it markup.
HOSTILE = "<img src=x onerror=\"document.title='pwned'\"> & <b>bold</b>"


def _grades(folder):
    """A grades folder of two students and one free-text question of 2 points."""
    folder.mkdir()
    students = []
    for sid, words in (("s1", "A cluster of one flower is pure."), ("s2", HOSTILE)):
        row = {"student": sid, "variant": sid, "question": "51.6", "title": "why pure",
               "points": 0.0, "max_points": 2.0, "status": "to be graded by hand",
               "feedback": "Recorded.", "file": f"{sid}.ipynb", "diagnosed": [],
               "answer": words}
        students.append({"student": sid, "file": f"{sid}.ipynb", "variant": sid,
                         "exercise": "51_iris", "rows": [row], "problems": [], "calls": {},
                         "total": 0.0, "max_total": 2.0})
    data = {"settings": {"people": {"s2": {"student": "s2", "name": "Okafor, Chidi"}}},
            "students": students}
    (folder / "grades.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def test_review_page_grades_free_text_into_overrides(browser, problems, output_dir, tmp_path):
    grades = _grades(tmp_path / "g")
    assert cli.main(["review", str(grades)]) == 0
    with _served(grades) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems.watch(page)
        page.goto(f"{address}/review.html")
        answers = page.locator("pre.text")
        assert answers.all_inner_texts() == ["A cluster of one flower is pure.", HOSTILE]
        assert page.locator("tr.answer img, tr.answer b").count() == 0   # text, not markup
        assert page.title() == "Review: 51_iris"
        assert "Okafor, Chidi" in page.locator("tr.answer").nth(1).inner_text()
        rows = page.locator("tr.answer")
        rows.nth(0).locator("input[name=points]").fill("2")
        rows.nth(0).locator("textarea[name=comment]").fill('Clear, "exact".')
        rows.nth(1).locator("input[name=points]").fill("0.5")     # no comment: the default
        page.screenshot(path=str(output_dir / "review.png"), full_page=True)
        with page.expect_download() as info:
            page.click("#download")
        download = info.value
        assert download.suggested_filename == "overrides.csv"
        saved = tmp_path / "overrides.csv"
        download.save_as(saved)
        page.close()
    assert read_overrides(saved) == [     # the file's line, for export's messages
        {"student": "s1", "question": "51.6", "points": 2.0, "reason": 'Clear, "exact".',
         "line": 2},
        {"student": "s2", "question": "51.6", "points": 0.5, "reason": "Graded by hand.",
         "line": 3}]
    assert cli.main(["export", str(grades), "--overrides", str(saved)]) == 0
    data = json.loads((grades / "grades.json").read_text(encoding="utf-8"))
    assert [s["total"] for s in data["students"]] == [2.0, 0.5]
    # made again after the export: the points given fill the fields
    assert cli.main(["review", str(grades)]) == 0
    again = (grades / "review.html").read_text(encoding="utf-8")
    assert 'value="2"' in again and 'value="0.5"' in again


def test_review_page_refuses_points_outside_the_question_before_downloading(
        browser, problems, tmp_path):
    """Points above the question's, below 0 or not a number: the page downloaded them
    (the notebook app refused them), and ``export`` then refused the whole file. The
    page now names each (student, question, what is wrong) and downloads nothing."""
    grades = _grades(tmp_path / "g")
    assert cli.main(["review", str(grades)]) == 0
    with _served(grades) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems.watch(page)
        page.goto(f"{address}/review.html")
        rows = page.locator("tr.answer")
        rows.nth(0).locator("input[name=points]").fill("3")
        rows.nth(1).locator("input[name=points]").fill("-1")
        downloads = []
        page.on("download", lambda d: downloads.append(d))
        page.click("#download")
        page.wait_for_timeout(500)
        assert downloads == []
        assert page.locator("#refused").inner_text() == (
            "Not downloaded: s1 51.6: 3 is more than the question's 2 points; "
            "s2 51.6: -1 is below 0. Correct the points, then download again.")
        assert page.locator("#csv").input_value() == ""
        rows.nth(0).locator("input[name=points]").fill("2")
        rows.nth(1).locator("input[name=points]").fill("0")
        with page.expect_download() as info:
            page.click("#download")
        saved = tmp_path / "overrides.csv"
        info.value.save_as(saved)
        assert page.locator("#refused").inner_text() == ""
        page.close()
    assert [o["points"] for o in read_overrides(saved)] == [2.0, 0.0]
