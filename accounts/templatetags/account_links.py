"""``{% url_with_next "signup" as signup_url %}``: a link to the log-in or sign-up page
that keeps the page's own safe ``next`` (accounts/links.py), so an invite followed while
logged out survives every way between the two pages."""

from __future__ import annotations

from django import template
from django.urls import reverse

from accounts.links import safe_next, with_next

register = template.Library()


@register.simple_tag(takes_context=True)
def url_with_next(context, name: str) -> str:
    return with_next(reverse(name), safe_next(context.get("request")))
