"""URL routes of the public room pages (no login, except the desk's arrival page)."""

from django.urls import path

from public import views

urlpatterns = [
    path("sw.js", views.service_worker, name="public_sw"),
    path("<slug:slug>/", views.room_page, name="public_room"),
    path("<slug:slug>/feed.json", views.feed_json, name="public_feed"),
    path("<slug:slug>/tournaments.ics", views.tournaments_ics, name="public_ics"),
    path("<slug:slug>/qr.svg", views.qr_svg, name="public_qr"),
    path("<slug:slug>/poster/", views.poster, name="public_poster"),
    path("<slug:slug>/join/", views.join, name="public_join"),
    path("<slug:slug>/code/<str:token>/", views.code, name="public_code"),
    path("<slug:slug>/me/<str:token>/", views.phone, name="public_phone"),
    path("<slug:slug>/me/<str:token>/answer/", views.phone_answer, name="public_answer"),
    path("<slug:slug>/me/<str:token>/push/", views.phone_push, name="public_push"),
    path("<slug:slug>/arrive/<str:token>/", views.arrive, name="public_arrive"),
]
