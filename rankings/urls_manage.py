"""Organisers' URLs of the rankings: imports of results from elsewhere, merges of player records."""

from django.urls import path

from . import views_manage

app_name = "rankings_manage"

urlpatterns = [
    path("rankings/import/", views_manage.import_results_view, name="import"),
    path("rankings/merges/", views_manage.merges, name="merges"),
    path("rankings/merges/<int:pk>/accept/", views_manage.merge_accept, name="merge_accept"),
    path("rankings/merges/<int:pk>/decline/", views_manage.merge_decline, name="merge_decline"),
    path("rankings/merges/<int:pk>/cancel/", views_manage.merge_cancel, name="merge_cancel"),
]
