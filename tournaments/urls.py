"""URL routes of the tournaments app."""

from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:tournament_id>/", views.director, name="director"),
    path("<int:tournament_id>/action/", views.action, name="action"),
    path("lobby/<str:token>/", views.lobby, name="lobby"),
    path("tables/<int:table_id>/absent/", views.absent, name="absent"),
]
