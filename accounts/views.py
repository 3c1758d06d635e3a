"""The account pages: signing up and logging in, the account itself, its email address,
password reset, my data and deleting the account. Each reads the request, checks a form,
calls one function of accounts/services.py and renders; every page but sign-up and
log-in is the logged-in user's own."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts import language, services
from accounts.forms import (
    DeleteAccountForm,
    EmailChangeForm,
    SignUpForm,
    ThrottledPasswordResetForm,
)
from accounts.links import safe_next, with_next
from common import links
from common.throttle import ThrottledAuthenticationForm, remember_device

PAGE = ["GET", "HEAD", "POST"]


@require_http_methods(PAGE)
def signup(request: HttpRequest) -> HttpResponse:
    """Sign up, then go back to ``next`` (an invite followed while logged out; a path of
    this site only: accounts/links.py), which the address's confirmation link keeps too."""
    back = safe_next(request)
    if request.user.is_authenticated:
        return redirect(back or "gang_list")
    form = SignUpForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        email = form.cleaned_data.get("email", "")
        if email:
            services.offer_address(
                user,
                email,
                lambda token: links.absolute(
                    with_next(reverse("email_confirm", args=[token]), back), request
                ),
            )
            messages.success(
                request,
                _(
                    "We sent a link to %(email)s: open it (logged in as %(user)s) to make it "
                    "your account's address."
                )
                % {"email": email, "user": user.get_username()},
            )
        return language.restore(request, redirect(back or "gang_list"))
    return render(request, "registration/signup.html", {"form": form, "next": back})


class LoginView(auth_views.LoginView):
    """Django's log-in, throttled (common/throttle.py): one attempt too many is
    answered 429 with the form and how long to wait, and its password is not checked."""

    authentication_form = ThrottledAuthenticationForm

    def form_valid(self, form):
        response = language.restore(self.request, super().form_valid(form))
        # this browser has logged in to this account: its right password is never refused
        remember_device(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.throttled is not None:
            response.status_code = 429
            response["Retry-After"] = str(form.throttled.wait_seconds)
        return response


@login_required
@require_http_methods(["GET", "HEAD"])
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/account.html", {"counts": services.owned_counts(request.user)})


@login_required
@require_http_methods(PAGE)
def email_change(request: HttpRequest) -> HttpResponse:
    """Ask for a new address: a link goes to it, and the address changes when it is
    opened (``email_confirm``)."""
    form = EmailChangeForm(request.user, request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        services.offer_address(
            request.user,
            email,
            lambda token: links.absolute(reverse("email_confirm", args=[token]), request),
        )
        messages.success(
            request,
            _(
                "We sent a link to %(email)s. Your address changes when you open it "
                "(logged in as %(user)s)."
            )
            % {"email": email, "user": request.user.get_username()},
        )
        return redirect("account")
    status = 429 if form.throttled is not None else 200
    return render(request, "accounts/email_change.html", {"form": form}, status=status)


@never_cache
@login_required
@require_http_methods(PAGE)
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link in the mail: a page that shows the new address and a button (so a mail
    scanner that opens links changes nothing); the button changes it, then goes on to the
    link's ``next`` (the invite a player signed up from), else the account page."""
    if request.method == "POST":
        try:
            email = services.confirm_email_change(
                request.user,
                token,
                lambda revert: links.absolute(reverse("email_revert", args=[revert]), request),
            )
        except services.AccountError as error:
            return render(request, "accounts/email_confirm.html", {"error": str(error)})
        messages.success(request, _("Your email address is now %(email)s.") % {"email": email})
        return redirect(safe_next(request) or "account")  # (sign-up's: back to the invite)
    try:
        email = services.read_email_change(request.user, token)
    except services.AccountError as error:
        return render(request, "accounts/email_confirm.html", {"error": str(error)})
    return render(request, "accounts/email_confirm.html", {"email": email})


@never_cache
@require_http_methods(PAGE)
def email_revert(request: HttpRequest, token: str) -> HttpResponse:
    """The "this wasn't me" link mailed to the old address after a change: a page with a
    button (a mail scanner opening the link changes nothing); the button puts the old
    address back and logs out every session. No log-in needed: whoever changed the
    address may have changed the password too."""
    try:
        if request.method == "POST":
            user = services.revert_email_change(token)
            if request.user.is_authenticated and request.user.pk == user.pk:
                logout(request)
            context = {"reverted": user}
        else:
            user, old, new = services.read_email_revert(token)
            context = {"user_name": user.get_username(), "old": old, "new": new}
    except services.AccountError as error:
        context = {"error": str(error)}
    return render(request, "accounts/email_revert.html", context)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, throttled per typed address and per client address
    (429 with the form and how long to wait). The page that follows is the same whether
    the address belongs to an account or not."""

    form_class = ThrottledPasswordResetForm
    success_url = reverse_lazy("password_reset_done")
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.throttled is not None:
            response.status_code = 429
            response["Retry-After"] = str(form.throttled.wait_seconds)
        return response


@login_required
@require_http_methods(["GET", "HEAD"])
def my_data(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/my_data.html", {"counts": services.owned_counts(request.user)})


@never_cache
@login_required
@require_http_methods(["GET", "HEAD"])
def my_data_download(request: HttpRequest) -> HttpResponse:
    """Everything the user owns, in one zip."""
    response = HttpResponse(services.my_data(request.user), content_type="application/zip")
    day = timezone.now().date().isoformat()
    response["Content-Disposition"] = (
        f'attachment; filename="gangfight-{request.user.pk}-{day}.zip"'
    )
    return response


@login_required
@require_http_methods(PAGE)
def account_delete(request: HttpRequest) -> HttpResponse:
    """A confirm page; the password, typed again, deletes the account."""
    form = DeleteAccountForm(request.user, request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        services.delete_account(request.user)
        logout(request)
        messages.success(request, _("Your account was deleted. Thank you for playing."))
        return redirect("home")
    return render(
        request,
        "accounts/account_delete.html",
        {"form": form, "plan": services.deletion_plan(request.user)},
    )
