"""The silhouette explorer in the browser: a slider moved with the keyboard, the
projector's sizes, the figure-update times (helpers and what every page is checked for:
``voila_pages.py``)."""
from __future__ import annotations

from voila_pages import (close_page, image_src, move_slider_right, open_page, shoot, wait_for_cell,
                         wait_for_redraw)
from voila_pages import (  # noqa: F401 - collected here, once per app of APPS
    test_lecture_mode_fits_a_projector_and_its_figure_updates_are_timed,
)

APPS = ("silhouette",)


def test_silhouette_explorer_in_the_browser(browser, servers, output_dir, problems):
    from prayatul_edu.steps import fmt
    from prayatul_edu.widgets import SilhouetteModel

    model = SilhouetteModel()
    before = float(model.silhouette)
    model.set(k=model.params["k"] + 1)
    after = float(model.silhouette)
    assert fmt(before) != fmt(after)

    page = open_page(browser, servers.lecture("silhouette"), problems)
    wait_for_cell(page, "silhouette s", fmt(before))
    src_before = image_src(page)
    shoot(page, output_dir / "silhouette_explorer_before.png")

    move_slider_right(page, "k (KMeans)")

    wait_for_cell(page, "silhouette s", fmt(after))
    wait_for_redraw(page, src_before)
    shoot(page, output_dir / "silhouette_explorer_after.png")
    close_page(page)
