"""URL routes of the rules app (included at /rules/)."""

from django.urls import path

from rules import floor_views, views

app_name = "rules"
urlpatterns = [
    path("", views.index, name="index"),
    path("calls/<int:call_id>/", floor_views.floor_call, name="floor_call"),
    path("calls/<int:call_id>/answer/", floor_views.floor_call_answer, name="floor_call_answer"),
    path("calls/<int:call_id>/rule/", floor_views.floor_call_rule, name="floor_call_rule"),
    path("calls/<int:call_id>/preview/", floor_views.floor_call_preview, name="floor_call_preview"),
    path("calls/<int:call_id>/cancel/", floor_views.floor_call_cancel, name="floor_call_cancel"),
    path("calls/<int:call_id>/fact/", floor_views.floor_call_fact, name="floor_call_fact"),
    path("rulings/", floor_views.rulings, name="rulings"),
    path("rulings/<int:ruling_id>/", floor_views.ruling, name="ruling"),
    path("players/<int:player_id>/", floor_views.player, name="player"),
    path("<slug:slug>/", views.rulebook, name="rulebook"),
    path("<slug:slug>/<slug:rule_slug>/", views.rule, name="rule"),
]
