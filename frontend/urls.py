from django.templatetags.static import static
from django.urls import path
from django.views.generic import RedirectView

from frontend import views
from games import converters

app_name = "frontend"
assert converters  # registers the <date:...> converter

urlpatterns = [
    path("", views.index, name="index"),
    # Browsers ask for /favicon.ico whatever the page says.
    path("favicon.ico", RedirectView.as_view(url=static("frontend/favicon.svg"), permanent=True)),
    # The app's manifest and service worker: the worker at the root, so its scope is the site.
    path("manifest.webmanifest", views.web_app_manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("offline/", views.offline, name="offline"),
    path("play/<int:game_id>/", views.play, name="play"),
    path("replay/<int:game_id>/", views.replay, name="replay"),
    path("daily/", views.daily_page, name="daily"),
    path("daily/<date:date>/<slug:slug>/", views.daily_board, name="daily-board"),
    path(
        "daily/<date:date>/<slug:slug>/solution/",
        views.daily_solution,
        name="daily-solution",
    ),
    path("races/<slug:code>/", views.race, name="race"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("profile/", views.profile, name="profile"),
    path("players/<str:username>/", views.player, name="player"),
    path("signin/", views.signin, name="signin"),
    path("signup/", views.signup, name="signup"),
    path("account/", views.account, name="account"),
    path("password/forgot/", views.password_forgot, name="password-forgot"),
    path("password/reset/<str:uid>/<str:token>/", views.password_reset, name="password-reset"),
    path("email/confirm/<str:token>/", views.email_confirm, name="email-confirm"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("rules/<slug:slug>.txt", views.rules_raw, name="rules-raw"),
]
