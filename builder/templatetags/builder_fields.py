"""``{% field bound_field %}``: a form field as Django's ``as_field_group`` draws it (label,
help, errors, widget), drawn in Python.

The builder draws the open member's forms on every change; Django draws each field, and
each option of a select, through its own template, which made those forms most of an
answer's time. The widgets the builder's forms use (selects, checkbox lists, checkboxes,
text, number and hidden inputs, text areas) are drawn here with the same markup; any other
widget falls back to Django's own drawing.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django import forms, template
from django.forms.boundfield import BoundField
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

_SIMPLE_INPUTS = (forms.TextInput, forms.NumberInput, forms.HiddenInput, forms.EmailInput)


def _attrs(attrs: dict[str, Any]) -> SafeString:
    """Attributes as Django's widgets write them: True is a bare name, False is left out."""
    parts = []
    for name, value in attrs.items():
        if value is True:
            parts.append(format_html(" {}", name))
        elif value is not False and value is not None:
            parts.append(format_html(' {}="{}"', name, value))
    return mark_safe("".join(parts))


def _chosen(value: Any) -> set[str]:
    if value is None:
        return set()
    if isinstance(value, list | tuple | set):
        return {str(v) for v in value}
    return {str(value)}


def _widget(bf: BoundField) -> SafeString | None:
    widget = bf.field.widget
    attrs = bf.build_widget_attrs(dict(widget.attrs))
    if bf.auto_id:
        attrs["id"] = bf.auto_id
    if bf.errors and not bf.is_hidden:
        attrs["aria-invalid"] = "true"
    described = []
    if bf.help_text and bf.auto_id:
        described.append(f"{bf.auto_id}_helptext")
    if bf.errors and bf.auto_id and not bf.is_hidden:
        described.append(f"{bf.auto_id}_error")
    if described and not bf.use_fieldset:
        attrs["aria-describedby"] = " ".join(described)
    name = bf.html_name
    value = bf.value()
    if isinstance(widget, forms.CheckboxSelectMultiple):
        chosen = _chosen(value)
        base = attrs.pop("id", "")
        attrs.pop("required", None)
        items = []
        for i, (choice, label) in enumerate(widget.choices):
            if isinstance(label, list | tuple):
                return None  # grouped choices: Django draws those
            item_id = f"{base}_{i}"
            items.append(
                format_html(
                    '<div><label for="{}"><input type="checkbox" name="{}" value="{}"{} id="{}"{}>'
                    " {}</label></div>",
                    item_id,
                    name,
                    choice,
                    _attrs(attrs),
                    item_id,
                    " checked" if str(choice) in chosen else "",
                    label,
                )
            )
        return format_html('<div id="{}">{}</div>', base, mark_safe("".join(items)))
    if isinstance(widget, forms.Select) and not isinstance(widget, forms.SelectMultiple):
        chosen = _chosen(value) or {""}
        options = []
        for choice, label in widget.choices:
            if isinstance(label, list | tuple):
                return None
            options.append((choice, " selected" if str(choice) in chosen else "", label))
        return format_html(
            '<select name="{}"{}>{}</select>',
            name,
            _attrs(attrs),
            format_html_join("", '<option value="{}"{}>{}</option>', options),
        )
    if isinstance(widget, forms.CheckboxInput):
        checked = widget.check_test(value)
        return format_html(
            '<input type="checkbox" name="{}"{}{}>',
            name,
            _attrs(attrs),
            " checked" if checked else "",
        )
    if isinstance(widget, forms.Textarea):
        text = widget.format_value(value) or ""
        return format_html('<textarea name="{}"{}>\n{}</textarea>', name, _attrs(attrs), text)
    if isinstance(widget, _SIMPLE_INPUTS):
        shown = widget.format_value(value)
        value_attr = format_html(' value="{}"', shown) if shown is not None else ""
        return format_html(
            '<input type="{}" name="{}"{}{}>', widget.input_type, name, value_attr, _attrs(attrs)
        )
    return None


def _label_text(bf: BoundField) -> str:
    label = str(bf.label)
    suffix = bf.form.label_suffix if bf.field.label_suffix is None else bf.field.label_suffix
    if suffix and label[-1:] not in ":?.!":
        label += suffix
    return label


def _label(bf: BoundField) -> SafeString:
    if not bf.label:
        return mark_safe("")
    label = _label_text(bf)
    if not bf.auto_id:
        return format_html("<label>{}</label>", label)
    return format_html('<label for="{}">{}</label>', bf.id_for_label, label)


@register.simple_tag
def field(bf: BoundField) -> SafeString:
    """The field's label, help text, errors and widget, like ``bf.as_field_group``."""
    if bf.is_hidden:
        return _widget(bf) or mark_safe(str(bf))
    widget = _widget(bf)
    if widget is None:
        return bf.as_field_group()
    help_text = ""
    if bf.help_text:
        help_text = format_html(
            '<div class="helptext" id="{}_helptext">{}</div>', bf.auto_id, mark_safe(bf.help_text)
        )
    errors = ""
    if bf.errors:
        errors = format_html(
            '<ul class="errorlist" id="{}_error">{}</ul>',
            bf.auto_id,
            format_html_join("", "<li>{}</li>", ((e,) for e in bf.errors)),
        )
    if bf.use_fieldset:
        legend = format_html("<legend>{}</legend>", _label_text(bf)) if bf.label else ""
        described = ""
        if bf.aria_describedby:
            described = format_html(' aria-describedby="{}"', bf.aria_describedby)
        return format_html(
            "<fieldset{}>{}{}{}{}</fieldset>", described, legend, help_text, errors, widget
        )
    return format_html("{}{}{}{}", _label(bf), help_text, errors, widget)


@register.simple_tag
def widget(bf: BoundField) -> SafeString:
    """The field's widget alone, like ``{{ bound_field }}``."""
    return _widget(bf) or bf.as_widget()


_CSRF_FIELD = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')


class Ledger:
    """What one answer of the builder draws, part by part, and what the page it goes to
    already shows (``known``: each part's digest, as recorded when that page was drawn)."""

    def __init__(self, known: dict[str, str] | None = None):
        self.known = known or {}
        self.seen: dict[str, str] = {}


class KeepNode(template.Node):
    def __init__(self, tag: Any, id_parts: list[Any], nodelist: template.NodeList):
        self.tag, self.id_parts, self.nodelist = tag, id_parts, nodelist

    def render(self, context: template.Context) -> str:
        html = self.nodelist.render(context)
        ledger = context.get("fragments")
        if not isinstance(ledger, Ledger):
            return html
        part_id = "".join(str(part.resolve(context)) for part in self.id_parts)
        # A form's CSRF field differs in every drawing (it is masked anew): not a change.
        digest = hashlib.blake2b(_CSRF_FIELD.sub("", html).encode(), digest_size=12).hexdigest()
        ledger.seen[part_id] = digest
        if ledger.known.get(part_id) == digest:
            tag = self.tag.resolve(context)
            return format_html('<{} id="{}" data-keep></{}>', tag, part_id, tag)
        return html


@register.tag
def keep(parser, token):
    """``{% keep "li" "roster-add" %}<li id="roster-add">…</li>{% endkeep %}``: a part of
    the builder (one element, with that tag and id) that an htmx answer leaves out when the
    page already shows it exactly so (``static/js/app.js`` keeps a ``data-keep`` element
    as it is). The id may come in pieces: ``{% keep "details" "notes-" m.pk %}``."""
    bits = token.split_contents()
    if len(bits) < 3:
        raise template.TemplateSyntaxError("{% keep %} takes a tag name and an id")
    nodelist = parser.parse(("endkeep",))
    parser.delete_first_token()
    parts = [parser.compile_filter(bit) for bit in bits[2:]]
    return KeepNode(parser.compile_filter(bits[1]), parts, nodelist)


@register.simple_tag
def editor_part(system_id: str, part: str) -> str:
    """One of the system's editor's declared parts (``summary_template``, ``stylesheet``),
    or "" when it declares none: ``{% editor_part gang.system "stylesheet" as css %}``."""
    from builder.editors import get_editor

    if part not in ("summary_template", "stylesheet"):
        raise template.TemplateSyntaxError(f"no editor part {part!r}")
    return getattr(get_editor(str(system_id)), part, "") or ""
