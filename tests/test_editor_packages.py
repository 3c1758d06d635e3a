"""Each editor is a package with its own templates and an optional stylesheet (issue 28)."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.template import engines

from builder.editors import all_editors, get_editor
from builder.templatetags.builder_fields import editor_part


def test_every_declared_stylesheet_is_found_in_its_package():
    declared = [e for e in all_editors() if e.stylesheet]
    assert len(declared) == 5
    for editor in declared:
        found = finders.find(editor.stylesheet)
        assert found, editor.stylesheet
        assert f"/builder/editors/{editor.system_id}/static/" in found


def test_every_editor_template_is_found_in_its_package():
    engine = engines["django"]
    for editor in all_editors():
        for name in (editor.gang_template, editor.panel_template, editor.readonly_template):
            origin = engine.get_template(name).origin.name
            if name.startswith("editors/"):
                assert f"/builder/editors/{editor.system_id}/templates/" in origin, name


def test_a_system_without_an_editor_declares_no_stylesheet():
    """The page links a stylesheet only when the editor declares one: an unknown system's
    stand-in editor declares none, so its page can't ask for a missing file."""
    assert get_editor("no-such-game").stylesheet == ""
    assert editor_part("no-such-game", "stylesheet") == ""
    assert editor_part("bwg1", "stylesheet") == "editors/bwg1/editor.css"
    assert editor_part("bwg1", "summary_template") == "editors/bwg1/_summary.html"
