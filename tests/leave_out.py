"""Loaded by pytest before every other plugin (``-p leave_out`` in pyproject.toml).

What the grader's worker leaves out (:data:`prayatul_edu.grading.worker.UNUSED`) is left
out of the test processes too, before nbval's plugin imports nbformat: rfc3987_syntax
takes about 2 s of CPU to import, in the main pytest process and in every test worker,
for format checks no test makes. An import of it now fails, as if it were not installed.
"""
import sys

from prayatul_edu.grading.worker import UNUSED

for name in UNUSED:
    sys.modules.setdefault(name, None)
