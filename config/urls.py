"""Root URL configuration: public pages and the organisers' manage pages are separate modules."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView, TemplateView

from config.login import LoginForm

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # set_language (the header's language switcher): the choice goes into the language cookie, so URLs
    # stay the same in every language.
    path("i18n/", include("django.conf.urls.i18n")),
    # Players' accounts: sign-up and log-in by e-mail address (django-allauth), and their own pages.
    path("account/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("league.urls_public")),
    path("", include("scoring.urls_public")),
    path("", include("tournaments.urls_public")),
    path("", include("rankings.urls_public")),
    path("", include("registration.urls_public")),
    path("", include("notifications.urls")),
    path("manage/", include("league.urls_manage")),
    path("manage/", include("scoring.urls_manage")),
    path("manage/", include("tournaments.urls_manage")),
    path("manage/", include("rankings.urls_manage")),
    path("manage/", include("registration.urls_manage")),
    path("manage/", include("api.urls_manage")),
    path("api/v1/", include("api.urls")),  # the documented API (docs/api.md)
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico whatever the page links: send them to the SVG (resolved per request,
    # so the hashed name of the production static files is read only once they are collected).
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg"), permanent=False)),
]
