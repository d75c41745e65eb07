"""The dendrogram explorer in the browser: the projector's sizes and the figure-update
times, a linkage chosen and a seed moved (helpers and what every page is checked for:
``voila_pages.py``)."""
from __future__ import annotations

from voila_pages import (test_every_app_fits_a_projector,  # noqa: F401 - collected
                         test_figure_update_times_are_recorded)  # here, for APPS

APPS = ("dendrogram",)
