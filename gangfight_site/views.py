"""Site-wide pages: the home page, sign-up, and the rules page."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from rules import all_systems


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("gang_list")
    return render(request, "home.html", {"systems": all_systems()})


def rules_page(request: HttpRequest) -> HttpResponse:
    return render(request, "rules.html", {"systems": all_systems()})


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("gang_list")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("gang_list")
    return render(request, "registration/signup.html", {"form": form})
