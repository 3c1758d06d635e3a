from django.contrib import admin

from campaigns.leagues.models import Club, ClubMember, League, MatchReport, Pairing, Registration


class Members(admin.TabularInline):
    model = ClubMember
    extra = 0
    fields = ("user", "role", "joined")
    readonly_fields = ("joined",)
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "created")
    search_fields = ("name",)
    inlines = [Members]


class Registrations(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ("player", "gang_name", "dropped", "legal")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "system", "pairing", "status", "created")
    list_filter = ("system", "pairing", "status")
    search_fields = ("name", "club__name")
    raw_id_fields = ("club", "campaign")
    inlines = [Registrations]


@admin.register(MatchReport)
class MatchReportAdmin(admin.ModelAdmin):
    list_display = ("pairing", "winner", "vp_a", "vp_b", "status", "updated")
    list_filter = ("status",)
    raw_id_fields = ("pairing", "submitted_by")


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("round", "table", "a", "b")
    raw_id_fields = ("round", "a", "b")
