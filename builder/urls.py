from django.urls import path

from builder import views

urlpatterns = [
    path("gangs/", views.gang_list, name="gang_list"),
    path("gangs/new/", views.gang_create, name="gang_create"),
    path("gangs/import/", views.gang_import, name="gang_import"),
    path("gangs/<int:gang_id>/", views.gang_detail, name="gang_detail"),
    path("gangs/<int:gang_id>/settings/", views.gang_update, name="gang_update"),
    path("gangs/<int:gang_id>/delete/", views.gang_delete, name="gang_delete"),
    path("gangs/<int:gang_id>/share/reset/", views.gang_share_reset, name="gang_share_reset"),
    path("gangs/<int:gang_id>/sheet.pdf", views.gang_sheet_pdf, name="gang_sheet_pdf"),
    path("gangs/<int:gang_id>/print/", views.gang_print, name="gang_print"),
    path("gangs/<int:gang_id>/roster.json", views.gang_export, name="gang_export"),
    path("gangs/<int:gang_id>/do/<slug:action>/", views.gang_action, name="gang_action"),
    path(
        "gangs/<int:gang_id>/members/<int:member_id>/do/<slug:action>/",
        views.member_action,
        name="member_action",
    ),
    path("gangs/<int:gang_id>/packs/", views.gang_packs, name="gang_packs"),
    path("gangs/<int:gang_id>/history/", views.gang_history, name="gang_history"),
    path("gangs/<int:gang_id>/clone/", views.gang_clone, name="gang_clone"),
    path("s/<str:token>/", views.gang_shared, name="gang_shared"),
    path("s/<str:token>/sheet.pdf", views.gang_shared_pdf, name="gang_shared_pdf"),
    path("s/<str:token>/print/", views.gang_shared_print, name="gang_shared_print"),
    path("s/<str:token>/roster.json", views.gang_shared_export, name="gang_shared_export"),
    path("packs/", views.pack_list, name="pack_list"),
    path("packs/<int:pack_id>/", views.pack_detail, name="pack_detail"),
    path("packs/<int:pack_id>/delete/", views.pack_delete, name="pack_delete"),
    path("packs/<int:pack_id>/add/<slug:category>/", views.entry_add, name="entry_add"),
    path("entries/<int:item_id>/edit/", views.entry_update, name="entry_update"),
    path("entries/<int:item_id>/delete/", views.entry_delete, name="entry_delete"),
    path("library/<slug:system_id>/", views.library, name="library"),
    path("weapons/", views.weapon_list, name="weapon_list"),
    path("weapons/<int:item_id>/edit/", views.weapon_update, name="weapon_update"),
    path("weapons/<int:item_id>/delete/", views.weapon_delete, name="weapon_delete"),
]
