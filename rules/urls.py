"""URL routes of the rules app (included at /rules/)."""

from django.urls import path

from rules import views

app_name = "rules"
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.rulebook, name="rulebook"),
    path("<slug:slug>/<slug:rule_slug>/", views.rule, name="rule"),
]
