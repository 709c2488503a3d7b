"""URL routes of the office app (mounted under ``/office/``)."""

from django.urls import path

from office import report_views, rotation_views, views

app_name = "office"

urlpatterns = [
    path("players/", views.players, name="players"),
    path("players/search.json", views.player_search, name="player_search"),
    path("players/merge/", views.merge, name="merge"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("players/<int:player_id>/erase/", views.erase, name="erase"),
    path("rotation/", rotation_views.rotation, name="rotation"),
    path("reports/", report_views.reports, name="reports"),
    path("reports.csv", report_views.reports_csv, name="reports_csv"),
]
