"""Two kinds of data, kept apart.

*Content* (``Item``) is game data: the catalogue of weapons, horses, character cards,
profiles and the like. Built-in content has no owner and no pack, and is loaded from
``fixtures/`` and the rules engine's data; a user's own entries live in a
``ContentPack`` they own, private or public. A gang uses the built-in content plus the
packs picked for it (``Gang.packs``).

*User data* (``Gang``, ``Member``, ``MemberItem``) always has an owner, through the gang.
What a member *is* in its game system (type, profession, attribute points...) is stored as
plain data in ``Member.data`` and understood only by the rules engine (``rules/``), so a
new game system needs no new tables.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from rules.registry import get_system

#: The pack the bwg1 catalogue page adds a player's own weapons to is found by this name (a
#: key, stored in English); its name and description are shown in the reader's language.
MY_WEAPONS = gettext_noop("My weapons")
MY_WEAPONS_DESCRIPTION = gettext_noop("Weapons you added to your catalogue.")


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


class ContentPackQuerySet(models.QuerySet):
    def visible_to(self, user) -> ContentPackQuerySet:
        """The user's own packs and everyone's public ones."""
        if user is None or not user.is_authenticated:
            return self.filter(is_public=True)
        return self.filter(Q(is_public=True) | Q(owner=user))


class ContentPack(models.Model):
    """A user's own content for one game system: cards, profiles, weapons, items."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="packs"
    )
    system = models.CharField(max_length=20)
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, max_length=2000)
    is_public = models.BooleanField(
        default=False, help_text=gettext_lazy("Public packs can be seen and used by every player.")
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = ContentPackQuerySet.as_manager()

    class Meta:
        ordering = ["system", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "system", "name"], name="unique_pack_name_per_owner"
            )
        ]

    def __str__(self) -> str:
        return self.shown_name

    @property
    def is_my_weapons(self) -> bool:
        """The pack the weapon catalogue adds to (in a system whose editor has one)."""
        from builder.editors import get_editor

        return self.name == MY_WEAPONS and get_editor(self.system).weapon_catalogue

    @property
    def shown_name(self) -> str:
        """The name as a reader sees it: the app's own "My weapons" pack in the reader's
        language, any other as its owner wrote it."""
        return gettext(MY_WEAPONS) if self.is_my_weapons else self.name

    @property
    def shown_description(self) -> str:
        if self.is_my_weapons and self.description == MY_WEAPONS_DESCRIPTION:
            return gettext(MY_WEAPONS_DESCRIPTION)
        return self.description


class ItemQuerySet(models.QuerySet):
    def available_to(self, user) -> ItemQuerySet:
        """Built-in content plus everything in the user's own packs."""
        if user is None or not user.is_authenticated:
            return self.filter(owner__isnull=True)
        return self.filter(Q(owner__isnull=True) | Q(owner=user))

    def for_gang(self, gang: Gang) -> ItemQuerySet:
        """What a gang may use: built-in content of its system plus its picked packs.

        A picked pack counts only while it is the gang owner's own or public, so a pack
        made private again disappears from other players' gangs.
        """
        picked = Q(
            pack__in=gang.packs.filter(Q(owner_id=gang.owner_id) | Q(is_public=True)).values("pk")
        )
        return self.filter(Q(owner__isnull=True) | picked, system=gang.system).select_related(
            "pack"
        )


class ItemManager(models.Manager.from_queryset(ItemQuerySet)):
    def get_by_natural_key(self, system: str, category: str, name: str) -> Item:
        """Built-in content is identified by what it is, never by a database id."""
        return self.get(owner__isnull=True, system=system, category=category, name=name)


class Item(models.Model):
    """One entry of a game system's catalogue: a weapon, a horse..."""

    class Category(models.TextChoices):
        WEAPON = "weapon", gettext_lazy("Weapon")
        HORSE = "horse", gettext_lazy("Horse")
        CARD = "card", gettext_lazy("Character card")
        EXTRA = "extra", gettext_lazy("Consumable or thrown weapon")
        PROFILE = "profile", gettext_lazy("Profile")
        EQUIPMENT = "equipment", gettext_lazy("Equipment")

    system = models.CharField(max_length=20)
    category = models.CharField(max_length=20, choices=Category)
    name = models.CharField(max_length=80)
    stats = models.JSONField(default=dict, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="items",
        help_text=gettext_lazy("Empty for built-in content."),
    )
    pack = models.ForeignKey(
        ContentPack,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="items",
        help_text=gettext_lazy("The pack an owned entry belongs to (empty for built-in content)."),
    )
    is_sample = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Shipped content whose numbers the book does not give."),
    )
    source = models.CharField(max_length=200, blank=True)

    objects = ItemManager()

    class Meta:
        ordering = ["system", "category", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["system", "category", "name"],
                condition=Q(owner__isnull=True),
                name="unique_builtin_item_name",
            ),
            models.UniqueConstraint(
                fields=["pack", "category", "name"],
                name="unique_item_name_in_pack",
            ),
            models.CheckConstraint(
                condition=Q(owner__isnull=True, pack__isnull=True)
                | Q(owner__isnull=False, pack__isnull=False),
                name="owned_items_are_in_a_pack",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def shown_name(self) -> str:
        """The name in the reader's language, as the game system names it (``item_name``,
        optional: bwg1's shipped weapons and horses by the French book's names in French,
        "Couteau Bowie", "Petit cheval"); anything else as it is written."""
        try:
            named = getattr(get_system(self.system), "item_name", None)
        except KeyError:
            named = None
        return named(self.name, self.category) if named else self.name

    def natural_key(self) -> tuple[str, str, str]:
        return (self.system, self.category, self.name)

    @property
    def is_builtin(self) -> bool:
        return self.owner_id is None

    def roster_entry(self) -> dict:
        """The item as the rules engine reads it."""
        return {"name": self.name, **self.stats}


class Gang(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="gangs"
    )
    system = models.CharField(max_length=20)
    # 80: campaigns and leagues copy the name into as many (the roster file says so too).
    name = models.CharField(max_length=80)
    limit = models.PositiveIntegerField(
        null=True, blank=True, help_text=gettext_lazy("The agreed Fame (or points) limit, if any.")
    )
    share_token = models.CharField(max_length=64, unique=True, default=new_share_token)
    data = models.JSONField(
        default=dict,
        blank=True,
        help_text=gettext_lazy("The system-specific part of the gang (roster 'gang')."),
    )
    version = models.PositiveIntegerField(default=1)
    packs = models.ManyToManyField(
        ContentPack,
        blank=True,
        related_name="gangs",
        help_text=gettext_lazy("Content packs this gang uses."),
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated", "-id"]

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    gang = models.ForeignKey(Gang, on_delete=models.CASCADE, related_name="members")
    position = models.PositiveIntegerField(default=0, help_text=gettext_lazy("Recruitment order."))
    name = models.CharField(max_length=100, blank=True)
    data = models.JSONField(default=dict, blank=True)
    items = models.ManyToManyField(Item, through="MemberItem", related_name="+")

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name or gettext("Member %(number)s") % {"number": self.pk}


class MemberItem(models.Model):
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="member_items")
    item = models.ForeignKey(Item, on_delete=models.PROTECT, related_name="member_items")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return f"{self.member}: {self.item}"


class DiceRoll(models.Model):
    """One throw the app made: who, when, what for, each die, and what came of it.

    Rows are only ever added. A roll is made by a POST and stored in the same
    transaction as its result, so reloading a page shows the same roll; rolling again
    is a new row.
    """

    gang = models.ForeignKey(Gang, on_delete=models.CASCADE, related_name="dice_rolls")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=100, help_text=gettext_lazy("What the player asked for."))
    member_name = models.CharField(max_length=100, blank=True)
    purpose = models.CharField(
        max_length=200, help_text=gettext_lazy("What this die was thrown for.")
    )
    sides = models.PositiveSmallIntegerField()
    dice = models.JSONField(default=list)
    total = models.IntegerField()
    outcome = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.purpose}: {self.dice}"

    @property
    def notation(self) -> str:
        return f"{len(self.dice)}D{self.sides}"
