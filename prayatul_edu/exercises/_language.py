"""What a student reads speaks the lecture's language.

The library's derivations may say how a number was computed (a method's name,
a shortcut, another tool, a running time, an attribute of a result object):
its documentation is for programmers too. A student's solution keeps only the
lecture's words: :func:`lecture_language` drops those sentences.
"""
from __future__ import annotations

import re

from ..steps import Derivation

__all__ = ["IMPLEMENTATION_TALK", "lecture_language"]

#: Sentences about how the library computes (its methods, shortcuts, other tools, running
#: times, its objects' attributes): the library's documentation may say them; a student's
#: solution speaks the lecture's language only.
IMPLEMENTATION_TALK = re.compile(
    r"method\s*=|method '|fast path|scipy|\bO\(|complexity|\.derivation\(\)|np\.\w"
    r"|numpy|inclusion.exclusion|computed (with|by) '|\b\w+\.h_clusters|float\(", re.I)


def lecture_language(d: Derivation) -> Derivation:
    """``d`` without its sentences of implementation talk (notes and prose only: the
    formulas, steps and tables stay)."""
    d.blocks = [b for b in d.blocks if not (b.kind in ("text", "note")
                                            and IMPLEMENTATION_TALK.search(str(b.payload)))]
    return d
