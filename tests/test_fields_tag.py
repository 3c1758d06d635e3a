"""``{% field %}`` draws a form field exactly as Django's ``as_field_group`` does (it only
draws it faster), for every widget the builder's forms use, bound or not, with errors."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.template import Context, Template

from builder.templatetags.builder_fields import field


class Sample(forms.Form):
    name = forms.CharField(max_length=10, help_text="Help <b>me</b>", label="Name")
    number = forms.IntegerField(min_value=0, max_value=5, required=False)
    pick = forms.ChoiceField(choices=[("", "—"), ("a", "A & <B>"), ("b", "B")])
    typed = forms.TypedChoiceField(choices=[(1, "one"), (2, "two")], coerce=int)
    many = forms.MultipleChoiceField(
        choices=[("x", "X"), ("y", "Y")], widget=forms.CheckboxSelectMultiple, required=False
    )
    ok = forms.BooleanField(required=False, label="Leads the unit")
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    hidden = forms.IntegerField(widget=forms.HiddenInput)


def norm(html) -> str:
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", str(html))).strip()


BOUND = {
    "s-name": "much too long <b>",
    "s-number": "9",
    "s-pick": "a",
    "s-typed": "2",
    "s-many": ["y"],
    "s-ok": "on",
    "s-text": "line one\nline <two>",
    "s-hidden": "3",
}


@pytest.mark.parametrize("data", [None, BOUND, {}], ids=["unbound", "bound", "empty"])
def test_field_draws_what_django_draws(data):
    form = Sample(data, prefix="s", initial={"pick": "b", "many": ["x"], "typed": 1, "hidden": 4})
    if data is not None:
        form.is_valid()
    for bound in form:
        expected = bound.as_widget() if bound.is_hidden else bound.as_field_group()
        assert norm(field(bound)) == norm(expected), bound.name


def test_user_text_is_escaped():
    form = Sample(BOUND, prefix="s")
    form.is_valid()
    html = str(field(form["name"])) + str(field(form["text"]))
    assert '<b>"' not in html and "much too long &lt;b&gt;" in html
    assert "line &lt;two&gt;" in html


def test_the_tag_in_a_template():
    form = Sample(prefix="s", initial={"pick": "b"})
    html = Template("{% load builder_fields %}{% field form.pick %}").render(
        Context({"form": form})
    )
    assert '<option value="b" selected>B</option>' in html
    assert "A &amp; &lt;B&gt;" in html
