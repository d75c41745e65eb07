"""Exercises with self-check: one small object per question.

In a notebook::

    import prayatul_edu.exercises as ex
    ex.setup(student_id=None)        # None: the course's data; "s1234": your own variant
    q = ex.question("01.2")          # or ex.matching.PrecisionRecallF()
    q                                # the task and its data
    q.check([0.25, 1/3, 2/7])        # correct / what went wrong (never the expected value)
    q.hint()                         # hint 1, then 2, ...
    q.solution()                     # the derivation, step by step, by the library
    ex.progress("01")                # what is still open

>>> import prayatul_edu.exercises as ex
>>> q = ex.question("01.2", seed=None)          # the tutorial's Exercise 2
>>> print(q.check(["1/4", "1/3", 0.2857]))
01.2 precision, recall and F of cluster 1, class 3: correct (1/1)
  - Correct.
>>> print(q.check([1/3, 1/4, 0.2857]))          # doctest: +NORMALIZE_WHITESPACE
01.2 precision, recall and F of cluster 1, class 3: partly correct (0.33/1)
  - Not yet: precision(1, 3), recall(1, 3) are off (1 of 3 right).
  - Precision and recall are swapped: precision divides n_ij by the size of the cluster,
    recall by the size of the class.
>>> q.check(...).text.splitlines()[0]
'01.2 precision, recall and F of cluster 1, class 3: not attempted (0/1)'

Floats are accepted within ``ATOL + RTOL * |key|`` (both 1e-4): four decimals,
cut or rounded, always pass. A variant (``seed`` = a student id) has new data
of the same shape; its key is computed by the library, and the same seed always
gives the same data.

Notebooks (``solutions/NN_topic.ipynb``, ``exercises/NN_topic.ipynb``):
``01`` matching, ``02`` information, ``03`` pair counting, ``04`` silhouette and
graph, ``05`` hierarchy, ``06`` Prayatul, ``08`` choosing and trusting (judgement).
"""
from . import (_base, _data, _language, assignment, authoring, hierarchy, information,
               judgement, kinds, matching, pair_counting, prayatul, silhouette_graph)
from ._base import (ATOL, CORRECT, INCORRECT, INVALID, NOT_ATTEMPTED, PARTLY, QUESTIONS, RTOL,
                    TOPICS, Feedback, Outcome, progress, question, setup, student_id,
                    submissions, topic_questions)

# the code of the library's exercises, before any cell of a student runs: an answer route
# called from any other code is on the record (see assignment.guard_key); an instructor's
# own exercise checks its answers with authoring's code, which is the library's too
assignment.seal([_base, _data, _language, assignment, kinds, hierarchy, information,
                 judgement, matching, pair_counting, prayatul, silhouette_graph, authoring])

__all__ = ["setup", "student_id", "question", "progress", "submissions", "QUESTIONS", "TOPICS",
           "topic_questions",
           "ATOL", "RTOL", "Feedback", "Outcome", "CORRECT", "PARTLY", "INCORRECT", "INVALID",
           "NOT_ATTEMPTED", "kinds", "matching", "information", "pair_counting", "silhouette_graph",
           "hierarchy", "prayatul", "judgement"]
