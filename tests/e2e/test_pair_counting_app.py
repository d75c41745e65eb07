"""The pair-counting explorer in the browser: the projector's sizes (every pair beside
the figure, or the reveal) and the figure-update times, labels typed anew (helpers and
what every page is checked for: ``voila_pages.py``)."""
from __future__ import annotations

from voila_pages import (  # noqa: F401 - collected here, once per app of APPS
    test_lecture_mode_fits_a_projector_and_its_figure_updates_are_timed,
)

APPS = ("pair_counting",)
