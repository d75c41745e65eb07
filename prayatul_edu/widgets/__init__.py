"""Interactive apps for the lectures: each a model (pure Python) plus thin ipywidgets.

=========================  ==========================  ================================
app (ipywidgets)           model (no widgets)          what it shows
=========================  ==========================  ================================
``PrayatulExplorer``       ``PrayatulModel``           two algorithms compared pair by pair
``ContingencyExplorer``    ``ContingencyModel``        purity, matching, F, entropy, NMI
``SilhouetteExplorer``     ``SilhouetteModel``         silhouette plot, a_i and b_i of a point
``DendrogramExplorer``     ``DendrogramModel``         dendrogram cut, cophenetic matrix, CPCC
``PairCountingExplorer``   ``PairCountingModel``       ideal similarity matrices, TP/FP/FN/TN
``ChanceExplorer``         ``ChanceModel``             null distributions, p-values, chance vs k
=========================  ==========================  ================================

Every app takes ``lecture=True`` for a projector (figure text of at least 16 pt as
shown, drawn at twice the screen's density; tables of about 20 px; the numbers beside
the figure; the whole app within 1280 x 720); the default, ``lecture=None``, turns it
on when the notebook is served by Voila.

In a notebook, ``PrayatulExplorer()`` as the last line of a cell shows the app;
``app.model`` holds the numbers (``app.model.summary()``). Tests drive either
side from Python.

What the apps share, one concern per module: ``model`` (``Model``, ``LabelsModel``),
``app`` (``App`` and the common controls), ``inputs`` (typed labels, tables and
numbers, checked), ``data`` (cached data sets, clusterings, distances), ``tables``
(numbers as HTML and text, one formatter), ``drawing`` (panels changed in place) and
``rendering`` (a figure as PNG, redrawing only what changed). For a lecture:
``reveal`` (``reveal(result)`` shows any result's derivation one step at a time,
on the projector) and ``label_source`` (a lecturer's own labels, pasted or
uploaded, which the contingency and Prayatul explorers accept).

This subpackage imports matplotlib and scikit-learn when
used; ``import prayatul_edu`` never imports it.
"""
from .chance_explorer import ChanceExplorer, ChanceModel
from .contingency_explorer import ContingencyExplorer, ContingencyModel
from .dendrogram_explorer import DendrogramExplorer, DendrogramModel
from .pair_counting_explorer import PairCountingExplorer, PairCountingModel
from .label_source import LabelSource, LabelSourcePanel, OwnLabels
from .prayatul_explorer import PrayatulExplorer, PrayatulModel, raw_label_accuracy
from .reveal import RevealWidget, StepReveal, reveal
from .silhouette_explorer import SilhouetteExplorer, SilhouetteModel

__all__ = ["PrayatulExplorer", "PrayatulModel", "raw_label_accuracy",
           "ContingencyExplorer", "ContingencyModel",
           "SilhouetteExplorer", "SilhouetteModel",
           "DendrogramExplorer", "DendrogramModel",
           "PairCountingExplorer", "PairCountingModel",
           "ChanceExplorer", "ChanceModel",
           "reveal", "StepReveal", "RevealWidget",
           "LabelSource", "LabelSourcePanel", "OwnLabels"]
