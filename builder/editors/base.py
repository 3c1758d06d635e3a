"""What a game system's browser builder is made of, so one set of views serves them all.

An *editor* (one module per system in ``builder/editors``) lists:

- ``gang_actions`` and ``member_actions``: ``ActionForm`` classes, one per button or form
  on the builder page ("add a card", "roll a character", "set tiers"...). A view binds
  the form, and when it is valid ``services.run_action`` calls ``form.apply(ctx)``
  inside one transaction, with the gang (and member) locked, then stores every die the
  action rolled in the gang's dice log and bumps the gang's version.
- ``content_kinds``: ``EntryForm`` classes, one per kind of content a pack can hold
  (cards, profiles, weapons...).
- ``gang_template``: the gang's own controls, drawn under the roster (add a member from
  the library, presets...); ``panel_template``: the open member's detail panel. The
  shared page draws the sticky summary bar, the compact roster (one row per member:
  ``row()``), the findings, settings and packs around them. Only the open member's
  forms are ever built, so a page costs the same whatever the number of members.

The rules themselves stay in ``rules/``: forms only read input and write member data;
the engine says what is legal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy

from builder.models import Gang, Item, Member
from builder.validators import StorableTextForm
from rules import GameSystem, get_system
from rules.dice import Dice


class Catalogue:
    """The content a gang may use (built-in plus its picked packs), read in one query."""

    def __init__(self, items: Iterable[Item]):
        self.items = list(items)
        self._by_pk = {i.pk: i for i in self.items}

    @classmethod
    def for_gang(cls, gang: Gang) -> Catalogue:
        return cls(Item.objects.for_gang(gang))

    def of(self, category: str) -> list[Item]:
        return [i for i in self.items if i.category == category]

    def get(self, pk: Any, category: str | None = None) -> Item | None:
        try:
            item = self._by_pk.get(int(pk))
        except (TypeError, ValueError):
            return None
        if item is None or (category is not None and item.category != category):
            return None
        return item

    def choices(
        self, category: str, label: Callable[[Item], str] | None = None
    ) -> list[tuple[str, str]]:
        """(pk, label) for a select, each marked "sample" or with its pack's name."""
        label = label or (lambda i: i.name)
        return [(str(i.pk), f"{label(i)}{mark(i)}") for i in self.of(category)]


def mark(item: Item) -> str:
    """How an entry says where it comes from, wherever it shows."""
    if item.pack_id:
        return f" · {item.pack.name}"
    if item.is_sample:
        return " · " + str(gettext_lazy("sample"))
    return ""


@dataclass
class ActionContext:
    """What an action works on, inside its transaction."""

    gang: Gang
    user: Any
    catalogue: Catalogue
    member: Member | None = None
    dice: Dice = field(default_factory=Dice)
    #: One line saying what came of the action's rolls, stored with them.
    outcome: str = ""
    #: A member the action made, to open in the roster once it is done.
    opened: Member | None = None
    #: What a member the action removed was (``services.remove_member``), for its Undo.
    removed: dict[str, Any] | None = None

    @property
    def system(self) -> GameSystem:
        return get_system(self.gang.system)


class ActionForm(StorableTextForm, forms.Form):
    """One thing a player can do on the builder page.

    Subclasses declare fields, a ``label`` (the button), and ``apply``. ``initial_for``
    gives an unbound form's starting values from the stored member (or gang), so the
    form shows what is there now. Forms must not query the database: the builder page
    draws one form per member, and its query count is pinned.
    """

    action: ClassVar[str] = ""  # set by Editor from the dict key
    label: ClassVar[str] = gettext_lazy("Save")
    #: Marks an action that rolls dice, so the page can say so on its button.
    rolls: ClassVar[bool] = False
    #: Applies as soon as a field changes (htmx ``change``); its button shows only
    #: without JavaScript.
    live: ClassVar[bool] = False

    def __init__(
        self,
        data=None,
        *,
        gang: Gang,
        catalogue: Catalogue,
        member: Member | None = None,
        figures: Any = None,
        **kwargs: Any,
    ):
        self.gang = gang
        self.member = member
        self.figures = figures
        self.catalogue = catalogue
        kwargs.setdefault("prefix", f"m{member.pk}-{self.action}" if member else self.action)
        if data is None and "initial" not in kwargs:
            kwargs["initial"] = self.initial_for(gang=gang, member=member, figures=figures)
        super().__init__(data, **kwargs)
        self.setup()

    def setup(self) -> None:
        """Set choices that depend on the gang, member or catalogue."""

    @classmethod
    def initial_for(cls, *, gang: Gang, member: Member | None, figures: Any) -> dict[str, Any]:
        return {}

    @property
    def url(self) -> str:
        if self.member is not None:
            return reverse("member_action", args=[self.gang.pk, self.member.pk, self.action])
        return reverse("gang_action", args=[self.gang.pk, self.action])

    @property
    def html_id(self) -> str:
        return f"form-{self.prefix}"

    def apply(self, ctx: ActionContext) -> None:
        """Make the change (every action class defines this; the base has no behaviour)."""
        raise NotImplementedError(f"{type(self).__name__} must define apply()")


class EntryForm(StorableTextForm, forms.Form):
    """One kind of content a pack holds: the form for an entry, and how it reads back.

    ``stats()`` turns the cleaned form into the JSON the rules engine reads for this kind
    (without the name); ``initial_from`` does the reverse for editing.
    """

    # Templates get the class itself (a kind of content): don't let them call it.
    do_not_call_in_templates: ClassVar[bool] = True
    category: ClassVar[str] = ""
    label: ClassVar[str] = gettext_lazy("Entry")
    plural: ClassVar[str] = gettext_lazy("Entries")

    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)

    def __init__(self, data=None, *, pack, instance: Item | None = None, **kwargs: Any):
        self.pack = pack
        self.instance = instance
        if instance is not None and data is None and "initial" not in kwargs:
            kwargs["initial"] = {"name": instance.name, **self.initial_from(instance.stats)}
        super().__init__(data, **kwargs)

    @classmethod
    def initial_from(cls, stats: dict[str, Any]) -> dict[str, Any]:
        return dict(stats)

    @classmethod
    def describe(cls, stats: dict[str, Any]) -> str:
        """One line about an entry, for lists."""
        return ""

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if self.pack.pk is None:
            return name
        same = self.pack.items.filter(category=self.category, name__iexact=name)
        if self.instance is not None:
            same = same.exclude(pk=self.instance.pk)
        if same.exists():
            label = str(self.label).lower()
            if label[:1] in "aeiou":
                message = gettext_lazy(
                    "This pack already has an %(kind)s called “%(name)s”: choose another name."
                )
            else:
                message = gettext_lazy(
                    "This pack already has a %(kind)s called “%(name)s”: choose another name."
                )
            raise forms.ValidationError(message % {"kind": label, "name": name})
        return name

    def stats(self) -> dict[str, Any]:
        """The entry's JSON (every kind defines this; the base has no behaviour)."""
        raise NotImplementedError(f"{type(self).__name__} must define stats()")


class Editor:
    """A game system's browser builder. Subclass per system; see the module docstring."""

    system_id: ClassVar[str] = ""
    #: The gang's own controls (adding members...), under the roster.
    gang_template: ClassVar[str] = "builder/_gang_generic.html"
    #: The open member's detail panel.
    panel_template: ClassVar[str] = "builder/_panel_generic.html"
    #: How a member shows on read-only pages (share link, campaigns).
    readonly_template: ClassVar[str] = "builder/_member_generic.html"
    #: The gang's own facts under its total (bwg1's member counts...), or "" for none.
    summary_template: ClassVar[str] = ""
    #: The editor's stylesheet, a static path (``editors/<id>/editor.css`` in its package's
    #: ``static/``), or "" for none: the builder page links it only when declared.
    stylesheet: ClassVar[str] = ""
    #: The player keeps a catalogue of weapons (and the game's horses) of their own, in a
    #: "My weapons" pack, with its own pages (the Catalogue link).
    weapon_catalogue: ClassVar[bool] = False
    #: Sample texts of ours that stand in for the book's (``samples.json`` in the package),
    #: read by ``builder.book_texts``; None when there are none.
    samples_file: ClassVar[Path | None] = None
    #: The labels of the member's stats (``figures.stats``) shown on its roster row.
    key_stats: ClassVar[tuple[str, ...]] = ()
    #: The action that adds a member: a new gang opens with it in view.
    add_action: ClassVar[str] = ""
    gang_actions: ClassVar[dict[str, type[ActionForm]]] = {}
    member_actions: ClassVar[dict[str, type[ActionForm]]] = {}
    content_kinds: ClassVar[tuple[type[EntryForm], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for actions in (cls.gang_actions, cls.member_actions):
            for name, form_class in list(actions.items()):
                # Each action knows its own name (for its URL and prefix).
                actions[name] = type(form_class.__name__, (form_class,), {"action": name})

    @property
    def system(self) -> GameSystem:
        return get_system(self.system_id)

    @property
    def edits_in_browser(self) -> bool:
        return bool(self.gang_actions or self.member_actions)

    def kind(self, category: str) -> type[EntryForm] | None:
        return next((k for k in self.content_kinds if k.category == category), None)

    def row(self, member: Member, figures: Any) -> dict[str, Any]:
        """What a member's roster row shows besides its name and cost: ``kind`` (type or
        level) and ``stats`` (label, value pairs). No queries."""
        stats = list(getattr(figures, "stats", []) or [])
        if self.key_stats:
            stats = [(label, value) for label, value in stats if label in self.key_stats]
        else:
            stats = stats[:3]
        summary = str(getattr(figures, "summary", "") or "")
        return {"kind": " · ".join(summary.split(" · ")[:2]), "stats": stats}

    def panel_context(self, member: Member, figures: Any) -> dict[str, Any]:
        """Anything else the open member's panel needs (no queries: items are loaded)."""
        return {}

    def gang_forms(
        self, gang: Gang, catalogue: Catalogue, report: Any = None
    ) -> dict[str, ActionForm]:
        """The gang's forms; ``report`` (the gang's figures) gives their starting values."""
        return {
            name: cls(gang=gang, catalogue=catalogue, figures=report)
            for name, cls in self.gang_actions.items()
        }

    def member_forms(
        self, gang: Gang, member: Member, figures: Any, catalogue: Catalogue
    ) -> dict[str, ActionForm]:
        return {
            name: cls(gang=gang, member=member, figures=figures, catalogue=catalogue)
            for name, cls in self.member_actions.items()
        }

    def extra_context(self, evaluated: Any, catalogue: Catalogue) -> dict[str, Any]:
        """Anything else the system's templates need (already computed; no queries)."""
        return {}

    def all_good(self, evaluated: Any) -> str:
        """What the findings panel says when nothing needs fixing."""
        return str(gettext_lazy("Nothing to fix: the gang is legal."))

    def builtin_content(self) -> list[dict[str, Any]]:
        """Built-in entries from the rules engine's data, loaded by ``load_content``:
        dicts with category, name, stats, is_sample and source."""
        return []
