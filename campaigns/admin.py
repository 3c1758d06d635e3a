from django.contrib import admin

from campaigns.models import Campaign, CampaignEvent, CampaignGang


class ReadOnlyEvents(admin.TabularInline):
    model = CampaignEvent
    extra = 0
    can_delete = False
    fields = ("seq", "kind", "user", "created", "data", "dice")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "system", "organiser", "status", "updated")
    list_filter = ("system", "status")
    inlines = [ReadOnlyEvents]


@admin.register(CampaignGang)
class CampaignGangAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "player", "joined")
