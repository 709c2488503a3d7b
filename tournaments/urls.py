"""URL routes of the tournaments app."""

from django.urls import path

from tournaments import chip_views, payout_views, structure_views, views

app_name = "tournaments"
urlpatterns = [
    path("", views.index, name="index"),
    path("<int:tournament_id>/", views.director, name="director"),
    path("<int:tournament_id>/action/", views.action, name="action"),
    path("<int:tournament_id>/desk/", views.desk_state, name="desk"),
    path("<int:tournament_id>/players/", views.players_search, name="players"),
    path("<int:tournament_id>/structure/", structure_views.structure, name="structure"),
    path("<int:tournament_id>/structure/api/", structure_views.structure_api, name="structure_api"),
    path("<int:tournament_id>/chips/", chip_views.chip_counts, name="chip_counts"),
    path("<int:tournament_id>/chips/api/", chip_views.chip_counts_api, name="chip_counts_api"),
    path("<int:tournament_id>/payouts/", payout_views.payouts, name="payouts"),
    path("<int:tournament_id>/payouts/results.csv", payout_views.results_csv, name="payouts_csv"),
    path("<int:tournament_id>/payouts/ranking.csv", payout_views.ranking_csv, name="ranking_csv"),
    path("<int:tournament_id>/payouts/slips/", payout_views.payout_slips, name="payout_slips"),
    path("<int:tournament_id>/print/seat-cards/", payout_views.seat_cards, name="seat_cards"),
    path("<int:tournament_id>/print/table-sheets/", payout_views.table_sheets, name="table_sheets"),
    path("lobby/<str:token>/", views.lobby, name="lobby"),
    path("tables/<int:table_id>/absent/", views.absent, name="absent"),
    path("tables/<int:table_id>/moves/", views.moves, name="moves"),
]
