"""The Prayatul explorer in the browser: a slider moved with the keyboard, then a CSV
uploaded through the browser's file dialog on the same page; the projector's sizes, the
figure-update times (helpers and what every page is checked for: ``voila_pages.py``)."""
from __future__ import annotations

import re

from voila_pages import (close_page, image_src, move_slider_right, open_page, painted, shoot,
                         wait_for_cell, wait_for_figure_text, wait_for_redraw)
from voila_pages import (  # noqa: F401 - collected here, once per app of APPS
    test_lecture_mode_fits_a_projector_and_its_figure_updates_are_timed,
)

APPS = ("prayatul",)


def test_prayatul_explorer_follows_a_slider_then_takes_an_uploaded_file(
        browser, servers, output_dir, problems):
    """The numbers shown are the library's: first for the notebook's data, then after the
    primary k moved one step with the keyboard, then for the columns a lecturer picks from
    an uploaded CSV (the browser's FileUpload value, not a stand-in). One page: a page
    costs about 8 s of CPU (``voila_pages.py``)."""
    import numpy as np

    import prayatul_edu as pe
    from prayatul_edu.steps import fmt
    from prayatul_edu.widgets import PrayatulModel

    model = PrayatulModel()              # what the notebook shows first
    before = model.matrix
    model.set(primary_k=model.params["primary_k"] + 1)
    after = model.matrix
    assert (after.br, after.rw) != (before.br, before.rw), "pick a change that shows"

    page = open_page(browser, servers.lecture("prayatul"), problems)
    wait_for_figure_text(page, "BR", fmt(before.br))
    wait_for_figure_text(page, "RW", fmt(before.rw))
    src_before = image_src(page)
    assert src_before.startswith(("data:image/png", "blob:")), src_before[:40]
    shoot(page, output_dir / "prayatul_explorer_before.png")

    move_slider_right(page, "primary k")

    wait_for_figure_text(page, "BR", fmt(after.br))
    wait_for_figure_text(page, "RW", fmt(after.rw))
    wait_for_cell(page, "comparative deviation σ_c", fmt(after.comparative_deviation))
    wait_for_redraw(page, src_before)
    shoot(page, output_dir / "prayatul_explorer_after.png")

    # -- then a lecturer's own labels, uploaded on the same page
    rng = np.random.default_rng(7)
    truth, km, db = rng.integers(0, 3, 40), rng.integers(0, 3, 40), rng.integers(-1, 2, 40)
    path = output_dir / "lecture.csv"
    path.write_text("id,class,km,db\n" + "".join(
        f"{i},{t},{a},{b}\n" for i, (t, a, b) in enumerate(zip(truth, km, db))))
    expected = pe.prayatul_matrix(truth, db, km)          # primary db, alternative km

    def dropdown(label):
        return page.locator(".widget-dropdown:visible").filter(
            has=page.locator("label", has_text=re.compile(rf"^\s*{label}\s*$"))).locator("select")

    page.get_by_role("button", name="own labels").first.click()
    with page.expect_file_chooser() as chooser:      # the browser's own file dialog
        page.get_by_role("button", name="upload CSV/TSV").first.click()
    chooser.value.set_files(str(path))
    page.get_by_text("N = 40 instances from lecture.csv").first.wait_for()
    # the first columns that are not id-like (every value distinct): class, km, db
    wait_for_figure_text(page, "BR", fmt(pe.prayatul_matrix(truth, km, db).br))
    src_before = image_src(page)
    dropdown("primary").select_option("db")
    dropdown("alternative").select_option("km")
    wait_for_figure_text(page, "BR", fmt(expected.br))
    wait_for_figure_text(page, "RW", fmt(expected.rw))
    wait_for_cell(page, "comparative deviation σ_c", fmt(expected.comparative_deviation))
    wait_for_redraw(page, src_before)
    painted(page)
    shoot(page, output_dir / "prayatul_explorer_own_labels.png")
    close_page(page)
