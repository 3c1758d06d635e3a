"""Two kinds of data, kept apart.

*Content* (``Item``) is game data: the catalogue of weapons, horses and the like. Built-in
content has no owner and is loaded from ``fixtures/``; a user's own entries have an owner
and only that user sees or uses them.

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


def new_share_token() -> str:
    return secrets.token_urlsafe(24)


class ItemQuerySet(models.QuerySet):
    def available_to(self, user) -> ItemQuerySet:
        """Built-in content plus the user's own entries."""
        if user is None or not user.is_authenticated:
            return self.filter(owner__isnull=True)
        return self.filter(Q(owner__isnull=True) | Q(owner=user))


class ItemManager(models.Manager.from_queryset(ItemQuerySet)):
    def get_by_natural_key(self, system: str, category: str, name: str) -> Item:
        """Built-in content is identified by what it is, never by a database id."""
        return self.get(owner__isnull=True, system=system, category=category, name=name)


class Item(models.Model):
    """One entry of a game system's catalogue: a weapon, a horse..."""

    class Category(models.TextChoices):
        WEAPON = "weapon", "Weapon"
        HORSE = "horse", "Horse"

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
        help_text="Empty for built-in content.",
    )
    is_sample = models.BooleanField(
        default=False, help_text="Shipped content whose numbers the book does not give."
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
                fields=["owner", "system", "category", "name"],
                name="unique_owned_item_name",
            ),
        ]

    def __str__(self) -> str:
        return self.name

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
    name = models.CharField(max_length=100)
    limit = models.PositiveIntegerField(
        null=True, blank=True, help_text="The agreed Fame (or points) limit, if any."
    )
    share_token = models.CharField(max_length=64, unique=True, default=new_share_token)
    data = models.JSONField(
        default=dict, blank=True, help_text="The system-specific part of the gang (roster 'gang')."
    )
    version = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated", "-id"]

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    gang = models.ForeignKey(Gang, on_delete=models.CASCADE, related_name="members")
    position = models.PositiveIntegerField(default=0, help_text="Recruitment order.")
    name = models.CharField(max_length=100, blank=True)
    data = models.JSONField(default=dict, blank=True)
    items = models.ManyToManyField(Item, through="MemberItem", related_name="+")

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name or f"Member {self.pk}"


class MemberItem(models.Model):
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="member_items")
    item = models.ForeignKey(Item, on_delete=models.PROTECT, related_name="member_items")
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return f"{self.member}: {self.item}"
