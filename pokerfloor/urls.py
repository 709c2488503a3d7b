"""Top-level URL configuration, and the login view (with its rate limit)."""

from django import forms
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.urls import include, path
from django.utils.translation import gettext as _
from django.views.i18n import JavaScriptCatalog

from pokerfloor.runtime import throttle


class ThrottledLoginMixin(AuthenticationForm):
    """For a login form: refusing a user name that failed too often from
    the client's address (``pokerfloor.runtime.throttle``: ``LOGIN_FAILURE_LIMIT`` failures
    in ``LOGIN_FAILURE_WINDOW`` seconds), even with the right password.

    ``throttled`` is True after ``clean()`` refused for that reason (the view
    then answers 429)."""

    throttled = False

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        ip = throttle.client_ip(self.request) if self.request is not None else ""
        if username and throttle.login_blocked(username, ip):
            self.throttled = True
            raise forms.ValidationError(
                _("Too many failed logins for this user name from your address: try again in %(minutes)d minutes.")
                % {"minutes": throttle.login_wait_minutes()},
                code="throttled",
            )
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            if username:
                throttle.login_failed(username, ip)
            raise
        throttle.login_succeeded(username, ip)
        return cleaned


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    """Django's login form with the rate limit of :class:`ThrottledLoginMixin`."""


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's login form (staff only) with the same rate limit."""


admin.site.login_form = ThrottledAdminAuthenticationForm


class LoginView(auth_views.LoginView):
    """Django's login view with :class:`ThrottledAuthenticationForm`; a
    refused login is answered with status 429."""

    template_name = "login.html"
    authentication_form = ThrottledAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if getattr(form, "throttled", False):
            response.status_code = 429
        return response


urlpatterns = [
    path("admin/", admin.site.urls),
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),  # the djangojs texts of the page scripts
    path("rules/", include("rules.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("office/", include("office.urls")),
    path("p/", include("public.urls")),  # the public room pages for phones (issue 29)
    path("", include("room.urls")),
    path("", include("tables.urls")),
]
