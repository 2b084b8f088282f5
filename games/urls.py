from django.urls import path, re_path

from games import converters
from games.analysis import views as analysis_views
from games.daily import month_views
from games.daily import views as daily_views
from games.export import views as export_views
from games.moderation import views as moderation_views
from games.play import views as play_views
from games.profiles import follow_views
from games.profiles import views as profile_views
from games.races import urls as race_urls

app_name = "games"
assert converters  # registers the <date:...> and <game_id:...> converters

urlpatterns = [
    path("variants/", play_views.VariantListView.as_view(), name="variants"),
    path("games/", play_views.GameListView.as_view(), name="game-list"),
    path("games/<game_id:game_id>/", play_views.GameDetailView.as_view(), name="game-detail"),
    path("games/<game_id:game_id>/moves/", play_views.GameMovesView.as_view(), name="game-moves"),
    path("games/<game_id:game_id>/undo/", play_views.GameUndoView.as_view(), name="game-undo"),
    path(
        "games/<game_id:game_id>/resign/", play_views.GameResignView.as_view(), name="game-resign"
    ),
    path("games/<game_id:game_id>/end/", play_views.GameEndView.as_view(), name="game-end"),
    path(
        "games/<game_id:game_id>/abandon/",
        play_views.GameAbandonView.as_view(),
        name="game-abandon",
    ),
    path("games/<game_id:game_id>/hint/", play_views.GameHintView.as_view(), name="game-hint"),
    path(
        "games/<game_id:game_id>/replay/", play_views.GameReplayView.as_view(), name="game-replay"
    ),
    path(
        "games/<game_id:game_id>/analysis/",
        analysis_views.GameAnalysisView.as_view(),
        name="game-analysis",
    ),
    path("me/stats/", play_views.StatsView.as_view(), name="stats"),
    path("me/progress/", profile_views.MyProgressView.as_view(), name="progress"),
    path("me/export/", export_views.ExportView.as_view(), name="export"),
    path("me/dailies-today/", month_views.DailiesTodayView.as_view(), name="dailies-today"),
    path("daily/", daily_views.DailyView.as_view(), name="daily"),
    path("daily/month/", month_views.DailyMonthView.as_view(), name="daily-month"),
    path("daily/<date:date>/share/", daily_views.DailyShareView.as_view(), name="daily-share"),
    path(
        "daily/<date:date>/<slug:variant>/attempt/",
        daily_views.DailyAttemptView.as_view(),
        name="daily-attempt",
    ),
    path(
        "daily/<date:date>/<slug:variant>/replay/",
        daily_views.DailyReplayView.as_view(),
        name="daily-replay",
    ),
    path(
        "daily/<date:date>/<slug:variant>/solution/",
        daily_views.DailySolutionView.as_view(),
        name="daily-solution",
    ),
    path(
        "leaderboards/daily/<date:date>/<slug:variant>/",
        daily_views.DailyLeaderboardView.as_view(),
        name="leaderboard-daily",
    ),
    path(
        "leaderboards/daily/<date:date>/<slug:variant>/friends/",
        daily_views.FriendsLeaderboardView.as_view(),
        name="leaderboard-daily-friends",
    ),
    # A day of the right shape that the calendar has not (2026-02-30): a 404 in the words of
    # ?date= on /api/daily/, not the bare one of a path the API does not have.
    re_path(
        r"^daily/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})/[-\w]+/(?:attempt|replay)/$",
        daily_views.NoSuchDayView.as_view(http_method_names=["post", "options"]),
    ),
    re_path(
        r"^daily/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})/[-\w]+/solution/$",
        daily_views.NoSuchDayView.as_view(http_method_names=["get", "head", "options"]),
    ),
    re_path(
        r"^leaderboards/daily/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})/[-\w]+/(?:friends/)?$",
        daily_views.NoSuchDayView.as_view(http_method_names=["get", "head", "options"]),
    ),
    path(
        "leaderboards/<slug:variant>/week/",
        daily_views.WeekLeaderboardView.as_view(),
        name="leaderboard-week",
    ),
    path(
        "leaderboards/<slug:variant>/",
        daily_views.AlltimeLeaderboardView.as_view(),
        name="leaderboard-alltime",
    ),
    path("me/following/", follow_views.FollowingView.as_view(), name="following"),
    path("players/<str:username>/", profile_views.PlayerProfileView.as_view(), name="player"),
    path("players/<str:username>/follow/", follow_views.FollowView.as_view(), name="player-follow"),
    path(
        "players/<str:username>/progress/",
        profile_views.PlayerProgressView.as_view(),
        name="player-progress",
    ),
    path(
        "staff/games/<game_id:game_id>/review/",
        moderation_views.StaffGameReviewView.as_view(),
        name="staff-game-review",
    ),
    *race_urls.urlpatterns,
]
