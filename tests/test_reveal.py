"""Step-by-step reveal (prayatul_edu.widgets.reveal): a derivation shown one step at a time."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prayatul_edu as pe
from prayatul_edu.steps import Derivation
from prayatul_edu.widgets import RevealWidget, StepReveal, reveal
from prayatul_edu.widgets.reveal import RevealToggle

TRUTH = [0, 0, 0, 1, 1, 1, 2, 2]
PRED = [0, 0, 1, 1, 1, 2, 2, 2]
ALT = [0, 1, 1, 1, 2, 2, 0, 2]

RESULTS = {
    "purity": lambda: pe.purity(TRUTH, PRED),
    "NMI": lambda: pe.normalized_mutual_information(TRUTH, PRED),
    "ARI": lambda: pe.adjusted_rand_index(TRUTH, PRED),
    "clustering error": lambda: pe.clustering_error(TRUTH, PRED),   # includes a sub-derivation
    "contingency table": lambda: pe.contingency_table(TRUTH, PRED),
    "Prayatul matrix": lambda: pe.prayatul_matrix(TRUTH, PRED, ALT),
}


def _expected_steps(derivation: Derivation) -> int:
    """One step per block; a sub-heading goes with the block after it."""
    kinds = [b.kind for b in derivation.blocks]
    return sum(1 for i, k in enumerate(kinds) if k != "heading" or i == len(kinds) - 1)


@pytest.mark.parametrize("name", RESULTS)
def test_steps_are_the_derivations_blocks_and_the_last_is_the_whole(name):
    result = RESULTS[name]()
    full = result.derivation()
    steps = StepReveal(result)
    assert steps.total == _expected_steps(full) > 1
    texts = [steps.first().to_text()]
    while not steps.at_end():
        texts.append(steps.next().to_text())
    assert len(texts) == steps.total
    assert texts[-1] == full.to_text() == result.explain()
    assert steps.to_markdown() == full.to_markdown()
    for shorter, longer in zip(texts, texts[1:]):      # each step adds to what was shown
        assert longer.startswith(shorter) and len(longer) > len(shorter)
    assert texts[0].startswith(full.title)


def test_a_heading_is_shown_with_the_block_after_it():
    d = Derivation("T").text("a").extend(Derivation("Sub").text("b").text("c"))
    steps = StepReveal(d)
    assert steps.total == 3
    assert [b.kind for b in steps.next().derivation().blocks] == ["text", "heading", "text"]
    assert "Sub" in steps.to_text() and "b" in steps.to_text()


def test_next_previous_show_all_and_first_stay_in_range():
    steps = StepReveal(pe.purity(TRUTH, PRED))
    n = steps.total
    assert steps.counter() == f"step 1 of {n}"
    assert steps.previous().shown == 1                  # nothing before the first step
    assert steps.next().next().counter() == f"step 3 of {n}"
    assert steps.previous().shown == 2
    assert steps.show_all().counter() == f"step {n} of {n}" and steps.at_end()
    assert steps.next().shown == n                      # nothing after the last
    assert steps.first().shown == 1


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["next", "previous", "show_all", "first"]), max_size=20))
def test_any_sequence_of_presses_shows_a_prefix_of_the_derivation(presses):
    result = pe.normalized_mutual_information(TRUTH, PRED)
    steps = StepReveal(result)
    expected = 1
    for press in presses:
        getattr(steps, press)()
        expected = {"next": min(expected + 1, steps.total), "previous": max(expected - 1, 1),
                    "show_all": steps.total, "first": 1}[press]
        assert steps.shown == expected
        assert result.explain().startswith(steps.to_text())


def test_an_empty_derivation_has_no_steps():
    steps = StepReveal(Derivation("Nothing yet"))
    assert (steps.total, steps.shown, steps.counter()) == (0, 0, "no steps")
    assert steps.next().shown == 0 and steps.to_text() == Derivation("Nothing yet").to_text()


def test_reveal_refuses_what_has_no_derivation():
    with pytest.raises(TypeError, match="^result: expected a result"):
        reveal(0.5)
    with pytest.raises(TypeError, match="^result: .* got ndarray"):
        StepReveal(np.zeros(3))


def _shown_markdown(widget: RevealWidget) -> str:
    (output,) = widget.output.outputs
    return output["data"]["text/markdown"]


def test_the_widget_buttons_move_the_counter_and_the_derivation():
    result = pe.prayatul_matrix(TRUTH, PRED, ALT)
    w = reveal(result)
    n = w.state.total
    assert w.counter.value == f"<b>step 1 of {n}</b>"
    assert w.buttons["previous"].disabled and not w.buttons["next"].disabled
    first = _shown_markdown(w)
    w.press("next").press("next")
    assert w.counter.value == f"<b>step 3 of {n}</b>"
    assert _shown_markdown(w).startswith(first.rstrip()) and len(_shown_markdown(w)) > len(first)
    w.press("previous")
    assert w.state.shown == 2
    w.press("all")
    assert _shown_markdown(w) == result.derivation().to_markdown()
    assert w.buttons["next"].disabled and w.buttons["all"].disabled
    assert w.output.outputs[0]["data"]["text/plain"] == result.explain()
    w.press("first")
    assert w.state.shown == 1 and w.buttons["first"].disabled
    with pytest.raises(ValueError, match="^name: no button 'skip'"):
        w.press("skip")


def test_the_widget_keeps_its_step_for_a_new_result_of_the_same_kind():
    w = reveal(pe.purity(TRUTH, PRED))
    w.press("next").press("next")
    w.show(pe.purity(TRUTH, TRUTH))                      # the lecturer changed the labels
    assert w.state.shown == 3 and _shown_markdown(w).startswith("**Purity = 1**")
    w.show(pe.adjusted_rand_index(TRUTH, PRED))          # another measure: from the start
    assert w.state.shown == 1


def test_the_widget_displays_with_the_derivation_shown_as_text():
    w = reveal(pe.purity(TRUTH, PRED))
    bundle = w._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == w.widget.model_id
    assert bundle["text/plain"].endswith(f"(step 1 of {w.state.total})")
    assert all(b.description for b in w.buttons.values())


def test_the_apps_toggle_reveals_the_current_result_only_when_on():
    switched = []
    t = RevealToggle(switched.append)
    t.show(pe.purity(TRUTH, PRED))
    assert not t.on and t.reveal.widget.layout.display == "none" and t.reveal.state is None
    t.toggle.value = True
    assert switched == [True] and t.reveal.widget.layout.display is None
    assert t.reveal.state.counter() == f"step 1 of {t.reveal.state.total}"
    t.reveal.press("next")
    t.show(pe.purity(TRUTH, TRUTH))                      # new numbers, same step
    assert t.reveal.state.shown == 2 and t.reveal.state.full.title == "Purity = 1"
    t.toggle.value = False
    assert switched == [True, False] and t.reveal.widget.layout.display == "none"
