"""URL routes of the tables app."""

from django.urls import path

from tables import archive_views, dealer_views, tablet_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("floor/", views.floor, name="floor"),
    path("floor/archive/", archive_views.archive, name="archive"),
    path("floor/archive/export.phhs", archive_views.archive_export, name="archive_export"),
    path("floor/archive/<int:hand_id>/", archive_views.archived_hand, name="archived_hand"),
    path("floor/archive/<int:hand_id>/phh/", archive_views.archived_hand_phh, name="archived_hand_phh"),
    path("floor/moves/", views.floor_moves, name="floor_moves"),
    path("tables/<int:table_id>/dealer/", views.dealer, name="dealer"),
    path("tables/<int:table_id>/hands/", views.hand_history, name="hand_history"),
    path("hands/<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path("hands/<int:hand_id>/phh/", views.hand_phh, name="hand_phh"),
    path("tables/<int:table_id>/procedures/", tablet_views.procedures, name="tablet_procedures"),
    path("tables/<int:table_id>/dealer-change/", dealer_views.dealer_change, name="dealer_change"),
]
