"""The language a user reads the site in. Django's ``LocaleMiddleware`` picks it for each
request: the language cookie (set by the switcher in the header), else the browser's
``Accept-Language``, else English. A signed-in user's choice is also kept on their
``Profile``, and put back in the cookie when they log in (on another browser, say)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views import i18n
from django.views.decorators.http import require_POST

from accounts.models import Profile


def supported(code: str | None) -> str | None:
    """``code`` if it is one of the site's languages (settings.LANGUAGES), else None."""
    return code if code in dict(settings.LANGUAGES) else None


def remember(user, code: str) -> None:
    """Keep ``code`` as the user's language (one query when it is already theirs)."""
    if supported(code) and user.is_authenticated:
        Profile.objects.update_or_create(user=user, defaults={"language": code})


def language_of(user) -> str:
    """The user's chosen language, else English (the site's default): for mail written
    to someone other than the person asking (organisers, notices)."""
    try:
        return user.profile.language or settings.LANGUAGE_CODE
    except Profile.DoesNotExist:
        return settings.LANGUAGE_CODE


def set_cookie(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def restore(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Just after a log-in or sign-up: the language kept on the profile comes back (in
    the cookie, so every later page uses it); a user who never chose one keeps the
    language they read the site in now, which becomes theirs."""
    user = request.user
    chosen = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    if supported(chosen):
        set_cookie(response, chosen)
        translation.activate(chosen)
    else:
        remember(user, supported(translation.get_language()) or settings.LANGUAGE_CODE)
    return response


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, then back to ``next``), and for a signed-in
    user the choice kept on their profile too. Works as a plain form post."""
    response = i18n.set_language(request)
    code = supported(request.POST.get(i18n.LANGUAGE_QUERY_PARAMETER))
    if code:
        remember(request.user, code)
    return response
