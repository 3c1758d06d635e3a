from django.contrib import admin

from notifications.models import Mailed, Preference

admin.site.register(Preference)
admin.site.register(Mailed)
