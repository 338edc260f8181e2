"""Root URL configuration: public pages and the organisers' manage pages are separate modules."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import TemplateView

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("league.urls_public")),
    path("", include("scoring.urls_public")),
    path("manage/", include("league.urls_manage")),
    path("manage/", include("scoring.urls_manage")),
    path("admin/", admin.site.urls),
]
