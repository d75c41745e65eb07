"""Notebook 06 in the browser: its small example revealed step by step with Tab, Enter
and Space, as a lecturer with a keyboard or a remote would; and the README names the
commands the browser tests serve (helpers: ``voila_pages.py``)."""
from __future__ import annotations

from voila_pages import LECTURE_COMMANDS, NOTEBOOK_06, ROOT, close_page, open_page


def test_reveal_steps_through_a_derivation_with_the_keyboard(browser, servers, output_dir):
    """Notebook 06 reveals its small example step by step: Tab to "Next step", then Enter
    and Space each show one more step, as a lecturer with a keyboard or remote would."""
    import prayatul_edu as pe
    from prayatul_edu.widgets import StepReveal

    steps = StepReveal(pe.prayatul_matrix(truth=[0, 0, 1, 1], primary=["a", "a", "a", "a"],
                                          alternative=[7, 7, -1, -1]))
    assert [b.kind for b in steps.next().next().derivation().blocks] == ["text", "text", "table"]
    server = servers.get("notebook_06", NOTEBOOK_06)
    page = open_page(browser, server)
    page.get_by_text(f"step 1 of {steps.total}").first.wait_for()
    button = page.get_by_role("button", name="Next step").first
    # its icon is drawn offline: the page took Font Awesome from the local server
    # (the template drops the CDN links), so the glyph has a loaded font and a width
    icon = page.evaluate("""() => {
        const i = [...document.querySelectorAll('button i.fa')][0];
        const before = getComputedStyle(i, '::before');
        return {family: before.fontFamily, width: i.getBoundingClientRect().width,
                loaded: [...document.fonts].some(
                    f => f.family.replace(/"/g, '') === 'Font Awesome 5 Free'
                         && f.status === 'loaded')};
    }""")
    assert "Font Awesome" in icon["family"] and icon["loaded"], icon
    assert icon["width"] > 4, icon
    button.focus()
    page.keyboard.press("Enter")
    page.get_by_text(f"step 2 of {steps.total}").first.wait_for()
    output = page.locator(".widget-output").first
    assert output.locator("table").count() == 0      # the table is step 3
    page.keyboard.press("Space")                     # the focus stays on the button
    page.get_by_text(f"step 3 of {steps.total}").first.wait_for()
    output.locator("table").first.wait_for()
    assert "Wrong" in output.locator("table").first.inner_text()
    button.scroll_into_view_if_needed()
    page.screenshot(path=str(output_dir / "reveal_step_3.png"))
    close_page(page)


def test_readme_names_the_commands_the_test_uses():
    readme = (ROOT / "README.md").read_text()
    for command in LECTURE_COMMANDS.values():
        assert command in readme
