from __future__ import annotations

from django import forms

from notifications.waiting import KINDS


class NotificationSettingsForm(forms.Form):
    """One box per kind of waiting action: ticked, it is mailed."""

    def __init__(self, *args, muted: set[str] = frozenset(), **kwargs):
        super().__init__(*args, **kwargs)
        for kind, label in KINDS.items():
            self.fields[kind] = forms.BooleanField(
                label=label, required=False, initial=kind not in muted
            )

    def muted(self) -> list[str]:
        return [kind for kind in KINDS if not self.cleaned_data.get(kind)]
