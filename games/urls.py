from django.urls import path, re_path

from games import converters, views

app_name = "games"
assert converters  # registers the <date:...> and <game_id:...> converters

urlpatterns = [
    path("variants/", views.VariantListView.as_view(), name="variants"),
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<game_id:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<game_id:game_id>/moves/", views.GameMovesView.as_view(), name="game-moves"),
    path("games/<game_id:game_id>/undo/", views.GameUndoView.as_view(), name="game-undo"),
    path("games/<game_id:game_id>/resign/", views.GameResignView.as_view(), name="game-resign"),
    path("games/<game_id:game_id>/hint/", views.GameHintView.as_view(), name="game-hint"),
    path("games/<game_id:game_id>/replay/", views.GameReplayView.as_view(), name="game-replay"),
    path("me/stats/", views.StatsView.as_view(), name="stats"),
    path("me/export/", views.ExportView.as_view(), name="export"),
    path("daily/", views.DailyView.as_view(), name="daily"),
    path(
        "daily/<date:date>/<slug:variant>/attempt/",
        views.DailyAttemptView.as_view(),
        name="daily-attempt",
    ),
    path(
        "daily/<date:date>/<slug:variant>/replay/",
        views.DailyReplayView.as_view(),
        name="daily-replay",
    ),
    path(
        "daily/<date:date>/<slug:variant>/solution/",
        views.DailySolutionView.as_view(),
        name="daily-solution",
    ),
    path(
        "leaderboards/daily/<date:date>/<slug:variant>/",
        views.DailyLeaderboardView.as_view(),
        name="leaderboard-daily",
    ),
    # A day of the right shape that the calendar has not (2026-02-30): a 404 in the words of
    # ?date= on /api/daily/, not the bare one of a path the API does not have.
    re_path(
        r"^daily/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})/[-\w]+/(?:attempt|replay)/$",
        views.NoSuchDayView.as_view(http_method_names=["post", "options"]),
    ),
    re_path(
        r"^daily/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})/[-\w]+/solution/$",
        views.NoSuchDayView.as_view(http_method_names=["get", "head", "options"]),
    ),
    re_path(
        r"^leaderboards/daily/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})/[-\w]+/$",
        views.NoSuchDayView.as_view(http_method_names=["get", "head", "options"]),
    ),
    path(
        "leaderboards/<slug:variant>/",
        views.AlltimeLeaderboardView.as_view(),
        name="leaderboard-alltime",
    ),
    path("players/<str:username>/", views.PlayerProfileView.as_view(), name="player"),
    path(
        "staff/games/<game_id:game_id>/review/",
        views.StaffGameReviewView.as_view(),
        name="staff-game-review",
    ),
]
