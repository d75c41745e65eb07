"""Compare clusterings pair by pair with the Prayatul matrix: the paper's experiment or your data.

For every ordered pair of algorithms (primary vs alternative), Table I gives
the four counts BR, RW, WR, BW and the five Prayatul measures; for every
algorithm, Table II gives accuracy, precision and recall on the raw labels
(they collapse when an algorithm names its clusters differently) and the
maximum matching accuracy, which does not, and Table III NMI, ARI and AMI.
The API, used by notebook 07 and by ``prayatul-edu compare``
(:mod:`prayatul_edu.cli.compare`):

* :func:`tournament` - the Prayatul matrix of every ordered pair (:mod:`.tournaments`);
* :func:`label_scores` - Tables II and III (:mod:`.scores`);
* :func:`bootstrap` - percentile confidence intervals for the five measures
  (:mod:`.resampling`);
* :func:`run_experiment` / :func:`compare_labelings` - all of it, as an
  :class:`Experiment` that renders as text (terminal), Markdown (Jupyter) or a
  dict (:mod:`.experiments`).

The measures themselves live in the measure modules: the Prayatul matrix in
:mod:`prayatul_edu.prayatul`, the raw-label scores in :mod:`prayatul_edu.matching`.
"""
from ..label_files import read_columns  # re-exported: it lived here
from ..matching import raw_precision_recall  # re-exported: it lived here
from ..prayatul import PRAYATUL_MEASURES
from .experiments import DEFAULT_OUT, DatasetResult, Experiment, compare_labelings, run_experiment
from .resampling import Bootstrap, bootstrap
from .scores import AVERAGES, label_scores
from .tournaments import Tournament, tournament

__all__ = ["tournament", "Tournament", "label_scores", "raw_precision_recall", "bootstrap",
           "Bootstrap", "Experiment", "DatasetResult", "run_experiment", "compare_labelings",
           "read_columns", "DEFAULT_OUT", "MEASURES", "AVERAGES"]

#: The five Prayatul measures (eqs. 5-9) in the paper's order: name -> short symbol.
MEASURES = {name: m.symbol for name, m in PRAYATUL_MEASURES.items()}
