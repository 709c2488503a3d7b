"""URL routes of the tournaments app."""

app_name = "tournaments"
urlpatterns: list = []
