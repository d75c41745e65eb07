#!/usr/bin/env python3
"""Regenerate the labels of the Prayatul paper's experiments (Tables I-III).

The paper clusters scikit-learn's "comparing different clustering algorithms on
toy datasets" data as that example stood in scikit-learn 1.1/1.2. Later
versions give other labels, so this script must run in a separate environment
with the old versions, which install on Python 3.11:

    python3 -m venv paper-env
    paper-env/bin/pip install "scikit-learn==1.1.3" "numpy==1.23.5" "scipy==1.9.3"
    paper-env/bin/python scripts/regenerate_paper_labels.py prayatul_edu/data/paper_labels.npz

The experiment itself (data sets in the example's order after
``np.random.seed(0)``, MiniBatchKMeans fitted before SpectralClustering, DBSCAN
with its default min_samples, eps 0.3, 0.3, 0.15, Birch; n_clusters 2, 2, 3) is
:func:`prayatul_edu.paper.generate_labels`, imported from this checkout (the
package needs only NumPy to import, so it need not be installed in that
environment). The saved file records the versions used.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def main(out_path: str) -> None:
    sys.path.insert(0, str(ROOT))
    from prayatul_edu.paper import generate_labels

    arrays = generate_labels()
    np.savez_compressed(out_path, **arrays)
    print(f"wrote {out_path} with " + ", ".join(str(v) for v in arrays["versions"]))


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0)
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    main(sys.argv[1])
