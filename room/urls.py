"""URL routes of the cash floor: the room dashboard, its action endpoint and the lobby screen."""

from django.urls import path

from room import views

urlpatterns = [
    path("room/", views.room_index, name="room_index"),
    path("room/<slug:slug>/", views.room_dashboard, name="room_dashboard"),
    path("room/<slug:slug>/act/", views.room_act, name="room_act"),
    path("lobby/<str:token>/", views.lobby, name="lobby"),
]
