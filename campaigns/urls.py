from django.urls import path

from campaigns import encounter_views as ev
from campaigns import views

urlpatterns = [
    # campaigns/views.py: campaigns, joining, standings, history, chronicle
    path("campaigns/", views.campaign_list, name="campaign_list"),
    path("campaigns/new/", views.campaign_create, name="campaign_create"),
    path("campaigns/join/<str:token>/", views.campaign_join, name="campaign_join"),
    path("campaigns/<int:campaign_id>/", views.campaign_detail, name="campaign_detail"),
    path(
        "campaigns/<int:campaign_id>/settings/", views.campaign_settings, name="campaign_settings"
    ),
    path("campaigns/<int:campaign_id>/start/", views.campaign_start, name="campaign_start"),
    path(
        "campaigns/<int:campaign_id>/invite/reset/",
        views.campaign_invite_reset,
        name="campaign_invite_reset",
    ),
    path("campaigns/<int:campaign_id>/finish/", views.campaign_finish, name="campaign_finish"),
    path("campaigns/<int:campaign_id>/history/", views.campaign_history, name="campaign_history"),
    path(
        "campaigns/<int:campaign_id>/chronicle.pdf",
        views.campaign_chronicle,
        name="campaign_chronicle",
    ),
    path(
        "campaigns/<int:campaign_id>/gangs/<int:gang_id>/leave/",
        views.campaign_leave,
        name="campaign_leave",
    ),
    path(
        "campaigns/<int:campaign_id>/gangs/<int:gang_id>/print/",
        views.campaign_gang_print,
        name="campaign_gang_print",
    ),
    # campaigns/encounter_views/: encounters, after-encounter steps, a gang's page
    path("campaigns/<int:campaign_id>/encounters/new/", ev.encounter_begin, name="encounter_begin"),
    path(
        "campaigns/<int:campaign_id>/encounters/<int:encounter_id>/",
        ev.encounter_detail,
        name="encounter_detail",
    ),
    path(
        "campaigns/<int:campaign_id>/encounters/<int:encounter_id>/record/",
        ev.encounter_record,
        name="encounter_record",
    ),
    path(
        "campaigns/<int:campaign_id>/encounters/<int:encounter_id>/do/<slug:step>/",
        ev.encounter_step,
        name="encounter_step",
    ),
    path("campaigns/<int:campaign_id>/undo/", ev.encounter_undo, name="encounter_undo"),
    path(
        "campaigns/<int:campaign_id>/gangs/<int:gang_id>/",
        ev.campaign_gang,
        name="campaign_gang",
    ),
    path(
        "campaigns/<int:campaign_id>/gangs/<int:gang_id>/do/<slug:step>/",
        ev.gang_step,
        name="campaign_gang_step",
    ),
    path(
        "campaigns/<int:campaign_id>/gangs/<int:gang_id>/recruit/",
        ev.gang_recruit,
        name="campaign_gang_recruit",
    ),
]
