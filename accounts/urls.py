from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

urlpatterns = [
    path("accounts/", views.account, name="account"),
    path("accounts/email/", views.email_change, name="email_change"),
    path("accounts/email/confirm/<str:token>/", views.email_confirm, name="email_confirm"),
    path("accounts/email/revert/<str:token>/", views.email_revert, name="email_revert"),
    path("accounts/password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("accounts/data/", views.my_data, name="my_data"),
    path("accounts/data/download/", views.my_data_download, name="my_data_download"),
    path("accounts/delete/", views.account_delete, name="account_delete"),
]
