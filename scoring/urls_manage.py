"""Manage URLs of the scoring app."""

from django.urls import path

app_name = "scoring_manage"

urlpatterns: list = []
