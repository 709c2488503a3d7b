"""URLconf for the rules tests: the real rules URLs plus the names base.html links to.

Keeps the rules tests independent of the other apps' views while they are
being written; the production wiring is pokerfloor/urls.py (rules at /rules/).
"""

from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.urls import include, path


def _stub(request):
    return HttpResponse("stub")


urlpatterns = [
    path("login/", auth_views.LoginView.as_view(template_name="login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("rules/", include("rules.urls")),
    path("floor/", _stub, name="floor"),
    path("", _stub, name="home"),
]
