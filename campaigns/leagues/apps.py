from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "campaigns.leagues"
    label = "leagues"
    verbose_name = "Clubs and leagues"
