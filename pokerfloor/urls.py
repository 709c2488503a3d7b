"""Top-level URL configuration."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

urlpatterns = [
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(template_name="login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),  # the djangojs texts of the page scripts
    path("rules/", include("rules.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("room.urls")),
    path("", include("tables.urls")),
]
