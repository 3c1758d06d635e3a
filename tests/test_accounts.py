"""Sign up, log in, log out, change password; the navigation shows who is logged in."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.urls import reverse

from tests.conftest import PASSWORD


def test_sign_up_logs_the_new_user_in_and_shows_my_gangs(client, db):
    response = client.post(
        reverse("signup"),
        {"username": "calamity", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("gang_list")
    page = response.content.decode()
    assert 'data-testid="nav-user">calamity<' in page
    assert "My gangs" in page and "You have no gangs yet" in page
    assert User.objects.filter(username="calamity").exists()


def test_sign_up_with_mismatched_passwords_keeps_the_form_and_creates_nobody(client, db):
    response = client.post(
        reverse("signup"),
        {"username": "calamity", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert "The two password fields didn\u2019t match." in response.content.decode()
    assert 'value="calamity"' in response.content.decode()
    assert not User.objects.exists()


def test_sign_up_with_a_taken_name_is_refused(client, owner):
    response = client.post(
        reverse("signup"), {"username": "owner", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1


def test_log_in_and_log_out(client, owner):
    response = client.post(
        reverse("login"), {"username": "owner", "password": PASSWORD}, follow=True
    )
    assert 'data-testid="nav-user">owner<' in response.content.decode()
    response = client.post(reverse("logout"), follow=True)
    page = response.content.decode()
    assert 'data-testid="nav-user"' not in page and "Log in" in page
    assert client.get(reverse("gang_list")).status_code == 302


def test_log_in_with_a_wrong_password_says_so(client, owner):
    response = client.post(reverse("login"), {"username": "owner", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_logout_needs_a_post(owner_client):
    assert owner_client.get(reverse("logout")).status_code == 405


def test_change_password(owner_client, owner):
    new = "An-even-longer-pa55word"
    response = owner_client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        follow=True,
    )
    assert "Password changed" in response.content.decode()
    owner.refresh_from_db()
    assert owner.check_password(new)


def test_change_password_with_a_wrong_old_password_changes_nothing(owner_client, owner):
    response = owner_client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": "Xy-12345678", "new_password2": "Xy-12345678"},
    )
    assert "Your old password was entered incorrectly" in response.content.decode()
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)


def test_password_change_needs_a_login(client, db):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_log_in_lands_on_what_waits_on_you(client, owner):
    response = client.post(
        reverse("login"), {"username": "owner", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("home")
    assert 'data-testid="waiting-on-you"' in response.content.decode()
    # a page asked for before logging in still wins
    client.post(reverse("logout"))
    response = client.post(
        reverse("login") + "?next=" + reverse("gang_list"),
        {"username": "owner", "password": PASSWORD},
    )
    assert response["Location"] == reverse("gang_list")
