"""URL routes of the rules app."""

app_name = "rules"
urlpatterns: list = []
