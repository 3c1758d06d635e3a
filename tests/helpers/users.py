"""Users and their test clients: one meaning each.

``make_user(name)`` is a user with the tests' password (and an address when given);
``client_for(user)`` a test client logged in as that user (``None``: a visitor's client).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

PASSWORD = "Long-enough-pa55word"


def make_user(name: str, email: str = "") -> User:
    return User.objects.create_user(name, email, PASSWORD)


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client
