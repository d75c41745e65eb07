"""The dendrogram explorer in the browser: the projector's sizes and the figure-update
times, a linkage chosen and a seed moved (helpers and what every page is checked for:
``voila_pages.py``)."""
from __future__ import annotations

from voila_pages import (  # noqa: F401 - collected here, once per app of APPS
    test_lecture_mode_fits_a_projector_and_its_figure_updates_are_timed,
)

APPS = ("dendrogram",)
