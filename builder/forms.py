"""Forms for every input the builder takes. Errors are shown beside the field."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from builder import printing
from builder.editors import get_editor
from builder.models import MY_WEAPONS, MY_WEAPONS_DESCRIPTION, ContentPack, Gang
from builder.packs import PackFileError, read_pack
from builder.validators import StorableTextForm
from rules import all_systems, get_system
from rules.roster import MAX_BYTES, MAX_LIMIT, RosterFileError, read_roster

#: The longest gang name: the model's, which is also the roster file's (campaigns and
#: leagues copy the name into as many characters).
GANG_NAME_MAX = Gang._meta.get_field("name").max_length


def browser_systems() -> list[str]:
    """The systems whose gangs are built in the browser."""
    return [s.id for s in all_systems() if get_editor(s.id).edits_in_browser]


def limit_help(system) -> str:
    if system.limit_help:
        return _(system.limit_help)
    if not system.limit_presets:
        return _("Optional: %(system)s has no %(total)s limit.") % {
            "system": system.name,
            "total": system.total_label,
        }
    presets = _(" or ").join(str(p) for p in system.limit_presets)
    return _("%(system)s: usually %(presets)s. Leave empty for none.") % {
        "system": system.name,
        "presets": presets,
    }


class GangCreateForm(StorableTextForm, forms.Form):
    name = forms.CharField(max_length=GANG_NAME_MAX, label=gettext_lazy("Gang name"))
    system = forms.ChoiceField(label=gettext_lazy("Game system"))
    limit = forms.IntegerField(
        label=gettext_lazy("Limit (Fame, points…)"),
        required=False,
        min_value=1,
        max_value=MAX_LIMIT,
        help_text=gettext_lazy("Optional. Leave it empty for the game's usual limit."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        editable = browser_systems()
        self.fields["system"].choices = [(s.id, s.name) for s in all_systems() if s.id in editable]
        self.fields["name"].widget.attrs["autocomplete"] = "off"
        self.fields["limit"].help_text = " ".join(
            limit_help(s) for s in all_systems() if s.id in editable
        )

    def clean(self):
        cleaned = super().clean()
        system_id = cleaned.get("system")
        if system_id and cleaned.get("limit") is None and "limit" not in self.errors:
            system = get_system(system_id)
            # A fixed budget (Rivals' 30 CCP) is the game's; where the limit is optional
            # (bwg1), "no limit" is the player's choice.
            if not system.limit_optional:
                cleaned["limit"] = system.default_limit
        return cleaned


class PacksForm(StorableTextForm, forms.Form):
    """Which content packs a gang uses: the owner's own and everyone's public ones."""

    packs = forms.ModelMultipleChoiceField(
        queryset=ContentPack.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Content packs this gang uses"),
    )

    def __init__(self, *args, gang: Gang, **kwargs):
        kwargs.setdefault("prefix", "packs")
        self.in_use = list(gang.packs.values_list("pk", flat=True))
        if not args and "initial" not in kwargs:
            kwargs["initial"] = {"packs": self.in_use}
        super().__init__(*args, **kwargs)
        field = self.fields["packs"]
        field.queryset = (
            ContentPack.objects.visible_to(gang.owner)
            .filter(system=gang.system)
            .select_related("owner")
        )
        field.label_from_instance = lambda p: (
            p.shown_name
            if p.owner_id == gang.owner_id
            else _("%(pack)s (by %(owner)s)")
            % {"pack": p.shown_name, "owner": p.owner.get_username()}
        )


class PackForm(StorableTextForm, forms.ModelForm):
    use_in_my_gangs = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Use it in all my gangs of this system"),
        help_text=gettext_lazy("You can pick packs for each gang on its page."),
    )

    class Meta:
        model = ContentPack
        fields = ["system", "name", "description", "is_public"]
        labels = {
            "name": gettext_lazy("Name"),
            "description": gettext_lazy("Description"),
            "is_public": gettext_lazy("Public: every player can see and use it"),
        }
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, owner, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.owner = owner
        kinds = [s for s in all_systems() if get_editor(s.id).content_kinds]
        self.fields["system"] = forms.ChoiceField(
            choices=[(s.id, s.name) for s in kinds], label=gettext_lazy("Game system")
        )
        if self.instance.pk:
            self.fields["system"].disabled = True
            del self.fields["use_in_my_gangs"]
        if self.instance.pk and self.instance.is_my_weapons and not self.is_bound:
            # the app's own pack reads in the reader's language; it is stored in English
            self.initial["name"] = self.instance.shown_name
            self.initial["description"] = self.instance.shown_description

    def _stored(self, value: str, english: str) -> str:
        """The app's own name or description, as the reader saw it, stored in English."""
        if self.instance.pk and self.instance.is_my_weapons and value == _(english):
            return english
        return value

    def clean_description(self) -> str:
        return self._stored(self.cleaned_data.get("description", ""), MY_WEAPONS_DESCRIPTION)

    def clean_name(self) -> str:
        name = self._stored(self.cleaned_data["name"].strip(), MY_WEAPONS)
        system = self.cleaned_data.get("system") or self.instance.system
        same = ContentPack.objects.filter(
            owner=self.instance.owner, system=system, name__iexact=name
        ).exclude(pk=self.instance.pk)
        if same.exists():
            raise forms.ValidationError(
                gettext_lazy("You already have a pack with this name for this system.")
            )
        return name


class RosterImportForm(StorableTextForm, forms.Form):
    """A roster file, uploaded or pasted. ``cleaned_data["roster"]`` is the checked roster."""

    file = forms.FileField(label=gettext_lazy("Roster file (.json)"), required=False)
    text = forms.CharField(
        label=gettext_lazy("…or paste the file's text"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )

    def clean(self):
        cleaned = super().clean()
        if self.has_error("file") or self.has_error("text"):
            return cleaned  # what is wrong is said beside the field already
        upload, text = cleaned.get("file"), cleaned.get("text", "").strip()
        if upload and text:
            raise forms.ValidationError(gettext_lazy("Choose a file or paste its text, not both."))
        if not upload and not text:
            raise forms.ValidationError(gettext_lazy("Choose a roster file, or paste its text."))
        if upload and upload.size > MAX_BYTES:
            self.add_error(
                "file", _("The file is over %(size)s bytes.") % {"size": f"{MAX_BYTES:,}"}
            )
            return cleaned
        field = "file" if upload else "text"
        try:
            cleaned["roster"] = read_roster(upload.read() if upload else text)
        except RosterFileError as e:
            self.add_problems(field, e)
        return cleaned

    def add_problems(self, field: str, error: RosterFileError) -> None:
        """Each problem beside the field, saying where in the file it is."""
        for problem in error.problems[:20]:
            self.add_error(field, str(problem))
        if len(error.problems) > 20:
            self.add_error(
                field, _("…and %(count)s more problems.") % {"count": len(error.problems) - 20}
            )


class PackImportForm(StorableTextForm, forms.Form):
    """A pack file, uploaded or pasted. ``cleaned_data["pack"]`` is the file, its shape
    checked (what its entries say is checked by ``services.import_pack``)."""

    file = forms.FileField(label=gettext_lazy("Pack file (.json)"), required=False)
    text = forms.CharField(
        label=gettext_lazy("…or paste the file's text"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
    )
    use_in_my_gangs = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Use it in all my gangs of its system"),
    )

    def __init__(self, *args, into: ContentPack | None = None, **kwargs):
        kwargs.setdefault("prefix", "import")
        super().__init__(*args, **kwargs)
        self.into = into
        if into is not None:
            del self.fields["use_in_my_gangs"]

    def clean(self):
        cleaned = super().clean()
        if self.has_error("file") or self.has_error("text"):
            return cleaned
        upload, text = cleaned.get("file"), cleaned.get("text", "").strip()
        if upload and text:
            raise forms.ValidationError(_("Choose a file or paste its text, not both."))
        if not upload and not text:
            raise forms.ValidationError(_("Choose a pack file, or paste its text."))
        if upload and upload.size > MAX_BYTES:
            self.add_error(
                "file", _("The file is over %(size)s bytes.") % {"size": f"{MAX_BYTES:,}"}
            )
            return cleaned
        try:
            cleaned["pack"] = read_pack(upload.read() if upload else text)
        except PackFileError as e:
            self.add_problems(e)
        return cleaned

    @property
    def problem_field(self) -> str:
        """Where the file's problems are said: beside the field it came from."""
        return "file" if self.cleaned_data.get("file") else "text"

    def add_problems(self, error: RosterFileError) -> None:
        """Each problem beside the field, saying where in the file it is."""
        field = self.problem_field
        for problem in error.problems[:20]:
            self.add_error(field, str(problem))
        if len(error.problems) > 20:
            self.add_error(
                field,
                _("…and %(count)s more problems.") % {"count": len(error.problems) - 20},
            )


class GangSettingsForm(StorableTextForm, forms.Form):
    name = forms.CharField(max_length=GANG_NAME_MAX, label=gettext_lazy("Gang name"))
    limit = forms.IntegerField(
        label=gettext_lazy("Fame limit"), required=False, min_value=1, max_value=MAX_LIMIT
    )

    def __init__(self, *args, total_label: str = gettext_lazy("Fame"), **kwargs):
        kwargs.setdefault("prefix", "gang")
        super().__init__(*args, **kwargs)
        self.fields["limit"].label = _("%(total)s limit") % {"total": total_label}

    @classmethod
    def for_gang(cls, gang: Gang) -> GangSettingsForm:
        return cls(
            initial={"name": gang.name, "limit": gang.limit},
            total_label=get_system(gang.system).total_label,
        )


class PrintForm(StorableTextForm, forms.Form):
    """The Print menu: what to print, on which paper, and for cards which members."""

    kind = forms.ChoiceField(
        label=gettext_lazy("Print"),
        required=False,
        choices=list(printing.KINDS.items()),
        initial="cards",
        widget=forms.RadioSelect,
    )
    paper = forms.ChoiceField(
        label=gettext_lazy("Paper"),
        required=False,
        choices=[(p.id, p.label) for p in printing.PAPERS.values()],
        initial="a4",
        widget=forms.RadioSelect,
    )
    fronts_only = forms.BooleanField(
        label=gettext_lazy("Fronts only (for one-sided printing: no backs)"), required=False
    )
    member = forms.ChoiceField(label=gettext_lazy("Cards of"), required=False)

    def __init__(self, *args, members: list[tuple[int, str]] = (), **kwargs):
        super().__init__(*args, **kwargs)
        # The printing module's labels are English data: translated here, where shown.
        self.fields["kind"].choices = [(k, _(label)) for k, label in printing.KINDS.items()]
        self.fields["member"].choices = [("", _("Every member"))] + [
            (str(pk), name or _("(no name)")) for pk, name in members
        ]

    def clean_kind(self) -> str:
        return self.cleaned_data["kind"] or "cards"

    def clean_paper(self) -> str:
        return self.cleaned_data["paper"] or "a4"
