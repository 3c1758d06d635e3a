"""What every text field of the builder refuses: text the database can't store.

A NUL character (PostgreSQL can't hold it) or a lone surrogate (half of a UTF-16 pair: not
a character, it can't even be written as UTF-8) is refused beside the field, in the same
words as a roster file's problems (``rules.roster.text_problem``). ``StorableTextForm`` puts
the check on every text field of a form, including fields a form adds or replaces after
it is made; the builder's forms (``builder.forms``, the editors' ``ActionForm`` and
``EntryForm``) all use it. Kept apart from ``builder.forms`` so that the editors' base
can use it without an import cycle.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext as _

from rules.roster import unstorable_character


def storable_text(value: Any) -> None:
    """Refuse text holding a NUL character or a lone surrogate."""
    if not isinstance(value, str):
        return
    char = unstorable_character(value)
    if char is None:
        return
    if char == "\x00":
        raise ValidationError(
            _("This holds a NUL character (\\u0000): remove it."), code="null_characters"
        )
    raise ValidationError(
        _("This holds a lone surrogate (\\u%(code)s), which is not a character: remove it."),
        code="lone_surrogate",
        params={"code": f"{ord(char):04x}"},
    )


def guard_text(field: forms.Field) -> None:
    """Put ``storable_text`` on a text field, in place of Django's NUL check."""
    if not isinstance(field, forms.CharField) or storable_text in field.validators:
        return
    field.validators = [
        v for v in field.validators if not isinstance(v, ProhibitNullCharactersValidator)
    ]
    field.validators.append(storable_text)


class StorableTextForm:
    """Mixin for forms: every text field refuses what can't be stored (beside the field).

    The validators are put on as the form is cleaned, so a field that ``__init__`` or a
    ``setup()`` adds or replaces is covered too.
    """

    fields: dict[str, forms.Field]

    def full_clean(self) -> None:
        for field in self.fields.values():
            guard_text(field)
        super().full_clean()  # type: ignore[misc]
