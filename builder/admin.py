from django.contrib import admin

from builder.models import Gang, Item, Member, MemberItem


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "category", "owner", "is_sample"]
    list_filter = ["system", "category", "is_sample"]
    search_fields = ["name"]


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0


@admin.register(Gang)
class GangAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "owner", "updated"]
    list_filter = ["system"]
    search_fields = ["name", "owner__username"]
    inlines = [MemberInline]


admin.site.register(MemberItem)
