"""The account's forms: sign-up with an email address, changing the address, password
reset (throttled), deleting the account."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from common import background, links
from common.throttle import Attempt, attempt


def throttle_address_mail(request, email: str, user=None) -> Attempt:
    """Count a mail asked for ``email`` (a confirmation, or an "address taken" notice):
    per address typed, per account asking and per client address, like a password reset
    (common/throttle.py, scope "email-change"), so nobody can fill someone's
    mailbox from one account or many."""
    return attempt(request, email, scope="email-change", user=user)


def address_mail_refused(counted: Attempt) -> forms.ValidationError:
    minutes = max(1, -(-counted.wait_seconds // 60))
    message = ngettext(
        "Too many mails were asked for this address or from your account. Wait "
        "%(minutes)d minute and try again, or look for the mail already sent (and in your "
        "spam folder).",
        "Too many mails were asked for this address or from your account. Wait "
        "%(minutes)d minutes and try again, or look for the mail already sent (and in your "
        "spam folder).",
        minutes,
    )
    return forms.ValidationError(message, code="throttled", params={"minutes": minutes})


def email_taken(email: str, *, other_than=None) -> bool:
    """Whether a user (other than ``other_than``) has this address, in any case."""
    users = get_user_model().objects.filter(email__iexact=email.strip())
    if other_than is not None:
        users = users.exclude(pk=other_than.pk)
    return users.exists()


class SignUpForm(UserCreationForm):
    """Django's sign-up, with an optional email address (for a forgotten password).

    The address is not the account's yet: a link is mailed to it, as for a change of
    address (``accounts.services.offer_address``), and whether another account
    uses it is never said on the page (its owner gets a short notice instead)."""

    email = forms.EmailField(
        label=_("Email address"),
        required=False,
        help_text=_(
            "Optional. Used only to reset a forgotten password and for the notices you "
            "choose. We mail it a link to confirm it. You can add it later on your "
            "account page."
        ),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    throttled: Attempt | None = None

    def __init__(self, *args, request=None, **kwargs) -> None:
        self.request = request
        super().__init__(*args, **kwargs)

    def clean_email(self) -> str:
        email = self.cleaned_data.get("email", "").strip()
        return BaseUserManager.normalize_email(email) if email else ""

    def clean(self):
        cleaned = super().clean()
        email = cleaned.get("email")
        if email and not self.errors:  # a mail will go: counted like an email change
            counted = throttle_address_mail(self.request, email)
            if counted.blocked:
                self.throttled = counted
                self.add_error("email", address_mail_refused(counted))
        return cleaned


class PasswordAgainMixin:
    """A form that asks for the user's password again: failures are counted with the
    log-in's (common/throttle.py, scope "password-again", per account and per
    client address), so a borrowed session cannot be used to guess the password."""

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        counted = attempt(self.request, self.user.get_username(), scope="password-again")
        if counted.blocked:
            minutes = max(1, -(-counted.wait_seconds // 60))
            message = ngettext(
                "Too many wrong passwords. For your account's safety, wait %(minutes)d "
                "minute and try again.",
                "Too many wrong passwords. For your account's safety, wait %(minutes)d "
                "minutes and try again.",
                minutes,
            )
            raise forms.ValidationError(message, code="throttled", params={"minutes": minutes})
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password."), code="wrong")
        counted.succeeded()
        return password


class EmailChangeForm(PasswordAgainMixin, forms.Form):
    """A new address, with the current password (someone at an unlocked screen cannot
    move the account's password resets to their own address)."""

    email = forms.EmailField(label=_("New email address"))
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    throttled: Attempt | None = None

    def __init__(self, user, *args, request=None, **kwargs) -> None:
        self.user, self.request = user, request
        super().__init__(*args, **kwargs)
        self.fields["email"].widget.attrs["autocomplete"] = "email"

    def clean(self):
        cleaned = super().clean()
        email = cleaned.get("email")
        if email and not self.errors:  # the password was right: a mail will go
            counted = throttle_address_mail(self.request, email, user=self.user)
            if counted.blocked:
                self.throttled = counted
                self.add_error("email", address_mail_refused(counted))
        return cleaned

    def clean_email(self) -> str:
        email = BaseUserManager.normalize_email(self.cleaned_data["email"].strip())
        if email.casefold() == (self.user.email or "").casefold():
            raise forms.ValidationError(_("This is your address already."), code="same")
        # (taken by another account: the same answer, and its owner is told by mail;
        # accounts.services.offer_address)
        return email


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's password reset: at most so many requests per typed address and per
    client address in a window (common/throttle.py, scope "password-reset").
    Whether the address belongs to anyone is never said, throttled or not."""

    throttled: Attempt | None = None

    def __init__(self, *args, request=None, **kwargs) -> None:
        self.request = request
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("Your email address")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        counted = attempt(self.request, email, scope="password-reset")
        if counted.blocked:
            self.throttled = counted
            minutes = max(1, -(-counted.wait_seconds // 60))
            message = ngettext(
                "Too many password reset requests for this address or from your network. "
                "Wait %(minutes)d minute and try again, or look for the mail already sent "
                "(and in your spam folder).",
                "Too many password reset requests for this address or from your network. "
                "Wait %(minutes)d minutes and try again, or look for the mail already sent "
                "(and in your spam folder).",
                minutes,
            )
            raise forms.ValidationError(message, code="throttled", params={"minutes": minutes})
        return email

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ) -> None:
        """The mail, written now and sent in the background (accounts/tasks.py); its link
        made from SITE_URL, never from the request's Host (common/links.py)."""
        context = {**context, **links.protocol_and_domain(self.request)}
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        body = render_to_string(email_template_name, context)
        background.submit("accounts.tasks.send_mail", subject=subject, body=body, to=[to_email])


class DeleteAccountForm(PasswordAgainMixin, forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, request=None, **kwargs) -> None:
        self.user, self.request = user, request
        super().__init__(*args, **kwargs)
