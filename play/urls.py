from django.urls import path

from play import views, watch

urlpatterns = [
    path("play/", views.game_list, name="play_list"),
    path("play/<int:game_id>/", views.game_table, name="play_game"),
    path("play/<int:game_id>/tap/", views.game_tap, name="play_tap"),
    path("play/<int:game_id>/record/", views.game_finish, name="play_finish"),
    path("play/<int:game_id>/watch/", watch.game_watch_link, name="play_watch_link"),
    path("play/watch/<str:token>/", watch.game_watch, name="play_watch"),
    path("play/start/gang/<int:gang_id>/", views.start_from_gang, name="play_start_gang"),
    path(
        "play/start/campaigns/<int:campaign_id>/encounters/<int:encounter_id>/",
        views.start_from_encounter,
        name="play_start_encounter",
    ),
    path("play/start/match/<int:pairing_id>/", views.start_from_match, name="play_start_match"),
]
