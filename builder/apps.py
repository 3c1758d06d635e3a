from django.apps import AppConfig


class BuilderConfig(AppConfig):
    name = "builder"
    verbose_name = "Gang builder"

    def ready(self) -> None:
        # The rules engine is plain Python: it translates through the functions installed
        # here, under the language active when a message is built (rules/i18n.py).
        from django.utils import translation

        from rules import i18n

        i18n.install(
            gettext=translation.gettext,
            ngettext=translation.ngettext,
            pgettext=translation.pgettext,
            language=translation.get_language,
        )
