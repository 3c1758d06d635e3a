"""The ratings pages' addresses (``views/ratings.py``), included by ``urls.py``."""

from django.urls import path

from campaigns.leagues.views import ratings as rv

urlpatterns = [
    path("clubs/<int:club_id>/ratings/", rv.club_ratings, name="club_ratings"),
    path("clubs/<int:club_id>/ratings/<slug:system>/", rv.ratings_ladder, name="ratings_ladder"),
    path(
        "clubs/<int:club_id>/ratings/<slug:system>/players/<int:user_id>/",
        rv.ratings_player,
        name="ratings_player",
    ),
]
