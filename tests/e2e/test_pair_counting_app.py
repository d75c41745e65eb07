"""The pair-counting explorer in the browser: the projector's sizes (every pair beside
the figure, or the reveal) and the figure-update times, labels typed anew (helpers and
what every page is checked for: ``voila_pages.py``)."""
from __future__ import annotations

from voila_pages import (test_every_app_fits_a_projector,  # noqa: F401 - collected
                         test_figure_update_times_are_recorded)  # here, for APPS

APPS = ("pair_counting",)
