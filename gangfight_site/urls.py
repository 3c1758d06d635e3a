from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import language, login_links
from accounts import views as account_views
from common import offline
from common.throttle import ThrottledAdminAuthenticationForm
from gangfight_site import views
from notifications import views as notification_views

# The admin's log-in counts attempts with the site's (common/throttle.py).
admin.site.login_form = ThrottledAdminAuthenticationForm

handler500 = "gangfight_site.views.server_error"

urlpatterns = [
    path("", notification_views.home, name="home"),
    path("rules/", views.rules_page, name="rules"),
    path("roster-format/", views.roster_format, name="roster_format"),
    path("roster.schema.json", views.roster_schema_file, name="roster_schema"),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("language/", language.set_language, name="set_language"),
    path("healthz", views.healthz, name="healthz"),
    path("manifest.webmanifest", offline.manifest, name="web_manifest"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("accounts/login/", account_views.LoginView.as_view(), name="login"),
    path("accounts/login/link/", login_links.ask, name="login_link"),
    path("accounts/login/link/<str:token>/", login_links.open_link, name="login_link_open"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("", include("builder.urls")),
    path("", include("campaigns.urls")),
    path("", include("campaigns.leagues.urls")),
    path("", include("notifications.urls")),
    path("", include("play.urls")),
]
