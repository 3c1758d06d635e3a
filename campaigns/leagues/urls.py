from django.urls import include, path

from campaigns.leagues.views import clubs as cv
from campaigns.leagues.views import leagues as lv
from campaigns.leagues.views import matches as mv

urlpatterns = [
    # views/clubs.py: clubs, league set-up, registration, rounds
    path("clubs/", cv.club_list, name="club_list"),
    path("clubs/new/", cv.club_create, name="club_create"),
    path("clubs/join/<str:token>/", cv.club_join, name="club_join"),
    path("clubs/<int:club_id>/invite/reset/", cv.club_invite_reset, name="club_invite_reset"),
    path("clubs/<int:club_id>/", cv.club_detail, name="club_detail"),
    path(
        "clubs/<int:club_id>/members/<int:member_id>/role/",
        cv.club_member_role,
        name="club_member_role",
    ),
    path(
        "clubs/<int:club_id>/members/<int:member_id>/remove/",
        cv.club_member_remove,
        name="club_member_remove",
    ),
    path("clubs/<int:club_id>/leave/", cv.club_leave, name="club_leave"),
    path("clubs/<int:club_id>/hand-over/", cv.club_hand_over, name="club_hand_over"),
    path("clubs/<int:club_id>/leagues/new/", cv.league_create, name="league_create"),
    path("leagues/<int:league_id>/settings/", cv.league_settings, name="league_settings"),
    path("leagues/<int:league_id>/register/", cv.league_register, name="league_register"),
    path("leagues/<int:league_id>/withdraw/", cv.league_withdraw, name="league_withdraw"),
    path(
        "leagues/<int:league_id>/players/<int:registration_id>/drop/",
        cv.league_drop,
        name="league_drop",
    ),
    path(
        "leagues/<int:league_id>/players/<int:registration_id>/reinstate/",
        cv.league_reinstate,
        name="league_reinstate",
    ),
    path("leagues/<int:league_id>/rounds/", cv.league_rounds, name="league_rounds"),
    path("leagues/<int:league_id>/rounds/next/", cv.league_next_round, name="league_next_round"),
    path("leagues/<int:league_id>/rounds/<int:number>/swap/", cv.league_swap, name="league_swap"),
    path("leagues/<int:league_id>/finish/", cv.league_finish, name="league_finish"),
    path(
        "leagues/<int:league_id>/public/reset/",
        cv.league_public_reset,
        name="league_public_reset",
    ),
    # views/leagues.py: standings, players, public page, CSV; views/matches.py: a match
    path("leagues/<int:league_id>/", lv.league_detail, name="league_detail"),
    path("leagues/<int:league_id>/matches/<int:pairing_id>/", mv.match_detail, name="match_detail"),
    path(
        "leagues/<int:league_id>/matches/<int:pairing_id>/do/<slug:step>/",
        mv.match_step,
        name="match_step",
    ),
    path(
        "leagues/<int:league_id>/players/<int:registration_id>/",
        lv.league_player,
        name="league_player",
    ),
    path(
        "leagues/<int:league_id>/standings.csv",
        lv.league_standings_csv,
        name="league_standings_csv",
    ),
    path("leagues/<int:league_id>/matches.csv", lv.league_matches_csv, name="league_matches_csv"),
    path("l/<str:token>/", lv.league_public, name="league_public"),
]

# the club's ratings (views/ratings.py)
urlpatterns += [path("", include("campaigns.leagues.ratings_urls"))]
