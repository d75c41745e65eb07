"""Print the worked examples of the tutorial and the lecture, each computed step by step."""
from __future__ import annotations

from ..tutorial import print_worked_examples

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    """No options: the examples are fixed by the seed documents."""


def run(args) -> int:
    print_worked_examples()
    return 0
