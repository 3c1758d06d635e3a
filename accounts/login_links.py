"""A one-time link to log in, mailed to an account's own address: the owner's way in when
a new browser is past the account's limit of failed log-ins (common/throttle.py).

Anyone may ask for one by the account's name; the page that follows says the same whether
the account exists or has an address, and asking is throttled per account and per client
address (scope "login-link"). The link opens a page with a button (a mail scanner that
opens links logs nobody in); the button logs in and remembers the browser (its device
cookie), so its right password is never refused again. A link works once (its signature
holds the account's last log-in, which logging in changes), for ``LOGIN_LINK_SECONDS``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts import language
from common import background, links
from common.throttle import attempt, remember_device

SALT = "gangfight.login-link"


def _stamp(user) -> str:
    """What the account is now: its last log-in and password (a link made before either
    changed no longer works)."""
    state = f"{user.pk}:{user.last_login}:{user.password}"
    return salted_hmac(SALT, state).hexdigest()[:32]


def make_token(user) -> str:
    return signing.dumps({"u": user.pk, "s": _stamp(user)}, salt=SALT)


def user_of(token: str):
    """The active user a link is for, or None (tampered, expired, used, or the account
    changed since)."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.LOGIN_LINK_SECONDS)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    user = get_user_model().objects.filter(pk=data.get("u"), is_active=True).first()
    if user is None or not constant_time_compare(str(data.get("s", "")), _stamp(user)):
        return None
    return user


def send_link(user, request: HttpRequest | None = None) -> None:
    """Mail ``user`` a one-time link to log in (nothing without an address)."""
    if not user.email:
        return
    minutes = max(1, settings.LOGIN_LINK_SECONDS // 60)
    context = {
        "user": user,
        "link": links.absolute(reverse("login_link_open", args=[make_token(user)]), request),
        "minutes": minutes,
    }
    subject = " ".join(render_to_string("registration/login_link_subject.txt", context).split())
    body = render_to_string("registration/login_link_email.txt", context)
    background.submit("accounts.tasks.send_mail", subject=subject, body=body, to=[user.email])


@require_POST
def ask(request: HttpRequest) -> HttpResponse:
    """Mail a log-in link to the account named (if it has an address); the same answer
    for any name."""
    username = request.POST.get("username", "").strip()[:150]
    counted = attempt(request, username or None, scope="login-link")
    if counted.blocked:
        response = render(
            request, "registration/login_link_sent.html", {"error": counted.message}, status=429
        )
        response["Retry-After"] = str(counted.wait_seconds)
        return response
    if username:
        User = get_user_model()
        user = User.objects.filter(
            **{f"{User.USERNAME_FIELD}__iexact": username}, is_active=True
        ).first()
        if user is not None:
            send_link(user, request)
    return render(request, "registration/login_link_sent.html", {})


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def open_link(request: HttpRequest, token: str) -> HttpResponse:
    """The link in the mail: a page with a button; the button logs in."""
    user = user_of(token)
    if user is None:
        return render(request, "registration/login_link.html", {"invalid": True})
    if request.method != "POST":
        return render(request, "registration/login_link.html", {"user_name": user.get_username()})
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    response = language.restore(request, redirect(settings.LOGIN_REDIRECT_URL))
    remember_device(request, response, user.get_username())
    return response
