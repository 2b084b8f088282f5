from django.urls import path

from frontend import views

app_name = "frontend"

urlpatterns = [
    path("", views.index, name="index"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("rules/<slug:slug>.txt", views.rules_raw, name="rules-raw"),
]
