"""The chance explorer in the browser: a slider moved with the keyboard, the projector's
sizes, the figure-update times (helpers and what every page is checked for:
``voila_pages.py``)."""
from __future__ import annotations

from voila_pages import (close_page, image_src, move_slider_right, open_page, shoot,
                         wait_for_cell, wait_for_redraw)
from voila_pages import (  # noqa: F401 - collected here, once per app of APPS
    test_lecture_mode_fits_a_projector_and_its_figure_updates_are_timed,
)

APPS = ("chance",)


def test_chance_explorer_in_the_browser(browser, servers, output_dir, problems):
    from prayatul_edu.steps import fmt
    from prayatul_edu.widgets import ChanceModel

    model = ChanceModel()
    before = (fmt(float(model.observed["ARI"])), fmt(model.p_values["ARI"]))
    model.set(k=model.params["k"] + 1)
    after = (fmt(float(model.observed["ARI"])), fmt(model.p_values["ARI"]))
    assert before != after

    server = servers.lecture("chance")
    page = open_page(browser, server, problems)
    wait_for_cell(page, "ARI", before[0])
    src_before = image_src(page)
    shoot(page, output_dir / "chance_explorer_before.png")

    move_slider_right(page, "k (clusters)")

    wait_for_cell(page, "ARI", after[0])
    wait_for_redraw(page, src_before)
    shoot(page, output_dir / "chance_explorer_after.png")
    close_page(page)
