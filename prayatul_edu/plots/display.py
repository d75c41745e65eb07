"""Show a figure in a notebook with alt text, for readers who cannot see it.

A figure left for Jupyter's inline backend is saved as a bare PNG: a screen
reader finds nothing in it. :func:`show_figure` displays the same PNG with its
description in the two places Jupyter has for one:

* the output's metadata, ``{"image/png": {"alt": ...}}``, the key Jupyter tools
  read for alt text: nbconvert's classic HTML template (``jupyter nbconvert --to
  html --template classic``, the HTML a course publishes) writes it as the image's
  ``alt`` attribute. JupyterLab 4 and nbconvert's lab template do not read it
  yet (they write "No description has been provided for this image");
* the output's ``text/plain``, which every front end keeps beside the image and
  shows where images are not shown (a terminal, a text export, a diff).

The notebooks write the description from the numbers they plot, so it says what
a sighted reader sees: which clusters merge, at which heights, which is best.
"""
from __future__ import annotations

import base64
import io

__all__ = ["show_figure", "figure_bundle"]


def _figure_of(figure):
    fig = getattr(figure, "figure", figure)           # an Axes knows its Figure
    if not hasattr(fig, "savefig"):
        raise TypeError(f"figure: expected a matplotlib Figure or Axes, got "
                        f"{type(figure).__name__}")
    return fig


def _check_alt(alt) -> str:
    if not isinstance(alt, str):
        raise TypeError(f"alt: expected a description of the figure as text, got "
                        f"{type(alt).__name__}")
    alt = " ".join(alt.split())
    if len(alt) < 10:
        raise ValueError("alt: describe what the figure shows (at least a sentence), got "
                         f"{alt!r}")
    return alt


def figure_bundle(figure, alt: str, *, dpi: float | None = None) -> tuple[dict, dict]:
    """The display data and metadata :func:`show_figure` sends, as two dicts.

    ``data`` holds the PNG (base64) and ``"Figure: <alt>"`` as plain text;
    ``metadata`` holds ``{"image/png": {"alt": alt}}``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from prayatul_edu.plots import figure_bundle
    >>> fig, ax = plt.subplots()
    >>> data, metadata = figure_bundle(fig, "An empty plot.")
    >>> sorted(data), metadata["image/png"]["alt"]
    (['image/png', 'text/plain'], 'An empty plot.')
    """
    fig = _figure_of(figure)
    alt = _check_alt(alt)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    data = {"image/png": base64.b64encode(buffer.getvalue()).decode("ascii"),
            "text/plain": f"Figure: {alt}"}
    return data, {"image/png": {"alt": alt}}


def show_figure(figure, alt: str, *, dpi: float | None = None) -> None:
    """Display ``figure`` (a Figure or one of its Axes) with alt text, then close it.

    Parameters
    ----------
    figure : matplotlib Figure or Axes
    alt : str
        What the figure shows, in a sentence or two: the reader's only access to it
        when the image cannot be seen.
    dpi : float, optional
        Resolution of the PNG (matplotlib's ``savefig.dpi`` by default).

    The figure is closed after it is shown, so the inline backend does not show it
    a second time without its description.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from prayatul_edu.plots import plot_clustering
    >>> from prayatul_edu.plots.display import figure_bundle
    >>> ax = plot_clustering([[0, 0], [1, 0], [5, 5]], [0, 0, 1])
    >>> data, metadata = figure_bundle(ax, "Three points: two in cluster 0, one in cluster 1.")
    >>> metadata["image/png"]["alt"]
    'Three points: two in cluster 0, one in cluster 1.'
    >>> data["text/plain"]
    'Figure: Three points: two in cluster 0, one in cluster 1.'
    """
    import matplotlib.pyplot as plt
    from IPython.display import display

    data, metadata = figure_bundle(figure, alt, dpi=dpi)
    display(data, raw=True, metadata=metadata)
    plt.close(_figure_of(figure))
