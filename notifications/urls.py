from django.urls import path

from notifications import views

urlpatterns = [
    path("notifications/settings/", views.notification_settings, name="notification_settings"),
    path(
        "notifications/notices/<int:notice_id>/dismiss/",
        views.notice_dismiss,
        name="notice_dismiss",
    ),
]
