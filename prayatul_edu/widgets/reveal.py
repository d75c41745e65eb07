"""Step-by-step reveal: a derivation built up one step at a time, for the projector.

Every result of the library carries its derivation (``result.derivation()``:
sentences, formulas, the formulas with the numbers plugged in, tables, notes).
:func:`reveal` shows it one step at a time: "Next step", "Previous" and
"Show all" buttons and a counter "step 3 of 7". The buttons are ordinary
buttons, so a lecturer can reach them with Tab and press the focused one with
Enter or Space (a presenter's remote that sends those keys works too).

A step is one block of the derivation; a sub-heading (a derivation included
in another) is shown together with the block after it, so no step shows a
heading alone. The last step shows exactly the full derivation.

:class:`StepReveal` is the pure-Python state (tests and notebooks can drive
it without widgets); :class:`RevealWidget` is its ipywidgets view.

>>> from prayatul_edu import purity
>>> steps = StepReveal(purity([0, 0, 1, 1], [0, 0, 0, 1]))
>>> steps.counter()
'step 1 of 4'
>>> steps.next().next().counter()
'step 3 of 4'
>>> steps.show_all().to_text() == purity([0, 0, 1, 1], [0, 0, 0, 1]).explain()
True
"""
from __future__ import annotations

import html

from ..steps import Derivation

__all__ = ["StepReveal", "RevealWidget", "RevealToggle", "reveal", "as_derivation"]


def as_derivation(result) -> Derivation:
    """The :class:`~prayatul_edu.steps.Derivation` of a result (or the derivation itself).

    Accepts anything with a ``derivation()`` method (every result of the
    library) or a ``Derivation``.
    """
    if isinstance(result, Derivation):
        return result
    method = getattr(result, "derivation", None)
    if callable(method):
        derivation = method()
        if isinstance(derivation, Derivation):
            return derivation
    raise TypeError(f"result: expected a result of prayatul_edu (with a derivation) or a "
                    f"Derivation, got {type(result).__name__}")


def _group_steps(blocks: list) -> list[int]:
    """Where each step ends: the number of blocks shown after steps 1, 2, ...

    A heading block is shown with the block that follows it.
    """
    ends = []
    for i, block in enumerate(blocks):
        if block.kind == "heading" and i + 1 < len(blocks):
            continue
        ends.append(i + 1)
    return ends


def _kind(derivation: Derivation) -> str:
    """What a derivation is about: its title without the value (``"Purity"``)."""
    return derivation.title.split("=")[0].strip()


class StepReveal:
    """How much of a derivation is shown: ``shown`` steps out of ``total``.

    Starts at step 1 (the title and the first block); ``next()``,
    ``previous()``, ``first()`` and ``show_all()`` move and return ``self``.
    ``derivation()`` is the part shown, ``to_markdown()`` / ``to_text()`` its
    rendering.
    """

    def __init__(self, result):
        self.full = as_derivation(result)
        self._ends = _group_steps(self.full.blocks)
        self.shown = min(1, self.total)

    @property
    def total(self) -> int:
        """How many steps the derivation has."""
        return len(self._ends)

    def next(self) -> "StepReveal":
        self.shown = min(self.shown + 1, self.total)
        return self

    def previous(self) -> "StepReveal":
        self.shown = max(self.shown - 1, min(1, self.total))
        return self

    def first(self) -> "StepReveal":
        self.shown = min(1, self.total)
        return self

    def show_all(self) -> "StepReveal":
        self.shown = self.total
        return self

    def at_end(self) -> bool:
        return self.shown == self.total

    def counter(self) -> str:
        """``"step 3 of 7"``."""
        if self.total == 0:
            return "no steps"
        return f"step {self.shown} of {self.total}"

    def derivation(self) -> Derivation:
        """The steps shown so far, as a derivation of their own (same title)."""
        end = self._ends[self.shown - 1] if self.shown else 0
        return Derivation(self.full.title, list(self.full.blocks[:end]))

    def to_markdown(self) -> str:
        return self.derivation().to_markdown()

    def to_text(self) -> str:
        return self.derivation().to_text()

    def __repr__(self) -> str:
        return f"{self.to_text()}\n({self.counter()})"


class RevealWidget:
    """The buttons, the counter and the derivation shown so far (ipywidgets).

    ``show(result)`` puts another result's derivation in the same widget (the
    apps call it when their numbers change): a derivation with the same title
    (up to its value: "Purity = 0.5" and "Purity = 0.75") keeps its step, so a lecturer can change the input in the middle of a
    derivation and carry on from where they were.
    """

    def __init__(self, result=None):
        import ipywidgets as W

        self.state: StepReveal | None = None
        self.buttons = {
            "next": W.Button(description="Next step", icon="forward", button_style="primary",
                             tooltip="show the next step (Tab to the button, Enter or Space)"),
            "previous": W.Button(description="Previous", icon="backward",
                                 tooltip="hide the last step shown"),
            "all": W.Button(description="Show all", icon="eye",
                            tooltip="show the whole derivation"),
            "first": W.Button(description="Start again", icon="undo",
                              tooltip="back to the first step"),
        }
        actions = {"next": StepReveal.next, "previous": StepReveal.previous,
                   "all": StepReveal.show_all, "first": StepReveal.first}
        for name, button in self.buttons.items():
            button.on_click(self._on_click(actions[name]))
        self.counter = W.HTML()
        self.counter.add_class("pe-live")        # "step 2 of 5", announced (widgets.app.LIVE_CLASS)
        self.output = W.Output(layout=W.Layout(min_height="4em"))
        self.widget = W.VBox([W.HBox([*self.buttons.values(), self.counter]), self.output])
        if result is not None:
            self.show(result)

    def _on_click(self, action):
        def handler(_button=None):
            if self.state is not None:
                action(self.state)
                self._render()
        return handler

    def show(self, result) -> "RevealWidget":
        """Show ``result``'s derivation (from step 1, or from the same step if it has the
        same title, up to the value, as the one shown)."""
        new = StepReveal(result)
        if self.state is not None and _kind(self.state.full) == _kind(new.full):
            new.shown = min(max(self.state.shown, min(1, new.total)), new.total)
        self.state = new
        self._render()
        return self

    def press(self, name: str) -> "RevealWidget":
        """Press a button as a person would: ``"next"``, ``"previous"``, ``"all"`` or
        ``"first"``."""
        if name not in self.buttons:
            raise ValueError(f"name: no button {name!r}; choose from "
                             + ", ".join(repr(b) for b in self.buttons))
        self.buttons[name].click()
        return self

    def _render(self) -> None:
        s = self.state
        self.counter.value = f"<b>{html.escape(s.counter())}</b>"
        self.buttons["next"].disabled = self.buttons["all"].disabled = s.at_end()
        self.buttons["previous"].disabled = self.buttons["first"].disabled = s.shown <= 1
        self.output.outputs = ({"output_type": "display_data",
                                "data": {"text/markdown": s.to_markdown(),
                                         "text/plain": s.to_text()},
                                "metadata": {}},)

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        if self.state is not None:
            bundle["text/plain"] = f"{self.state.to_text()}\n({self.state.counter()})"
        return bundle


class RevealToggle:
    """An app's "reveal step by step" toggle and the :class:`RevealWidget` it shows.

    Off (the default), the app shows its derivation whole as before; on, the
    derivation of ``show(result)`` is built up step by step below the app
    (``on`` tells the app to leave its own copy out, so the projector does not
    give the steps away).
    """

    def __init__(self, on_toggle=None):
        import ipywidgets as W

        self.toggle = W.ToggleButton(value=False, description="reveal step by step",
                                     icon="list-ol",
                                     tooltip="show the derivation one step at a time")
        self.reveal = RevealWidget()
        self.reveal.widget.layout.display = "none"
        self.widget = W.VBox([self.toggle, self.reveal.widget])
        self.on_toggle = on_toggle
        self._result = None
        self.toggle.observe(self._switched, names="value")

    @property
    def on(self) -> bool:
        return bool(self.toggle.value)

    def show(self, result) -> None:
        """The app's current result: revealed now if the toggle is on, else when it is."""
        self._result = result
        if self.on:
            self.reveal.show(result)

    def _switched(self, change) -> None:
        self.reveal.widget.layout.display = None if change["new"] else "none"
        if change["new"] and self._result is not None:
            self.reveal.show(self._result)
        if self.on_toggle is not None:
            self.on_toggle(change["new"])


def reveal(result) -> RevealWidget:
    """Show ``result``'s derivation one step at a time (last line of a notebook cell).

    Examples
    --------
    >>> import prayatul_edu as pe
    >>> w = reveal(pe.purity([0, 0, 1, 1], [0, 0, 0, 1]))
    >>> w.press("next").state.counter()
    'step 2 of 4'
    """
    return RevealWidget(as_derivation(result))
