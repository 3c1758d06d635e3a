from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site itself: no models; registers our own ``check --deploy`` checks."""

    name = "gangfight_site"
    label = "gangfight_site"

    def ready(self) -> None:
        from gangfight_site import checks  # noqa: F401  (registers them)
