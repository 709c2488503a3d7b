"""URL routes of the tables app."""

from django.urls import path

from tables import room_views, tablet_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("floor/", views.floor, name="floor"),
    path("tables/<int:table_id>/dealer/", views.dealer, name="dealer"),
    path("tables/<int:table_id>/hands/", views.hand_history, name="hand_history"),
    path("hands/<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path("hands/<int:hand_id>/phh/", views.hand_phh, name="hand_phh"),
    path("room/", room_views.room_index, name="room_index"),
    path("room/<slug:slug>/", room_views.room_dashboard, name="room_dashboard"),
    path("room/<slug:slug>/act/", room_views.room_act, name="room_act"),
    path("lobby/<str:token>/", room_views.lobby, name="lobby"),
    path("tables/<int:table_id>/procedures/", tablet_views.procedures, name="tablet_procedures"),
]
