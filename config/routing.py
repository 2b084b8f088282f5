"""Websocket routes (Channels)."""

from django.urls import path

from games import consumers, converters

assert converters  # registers the <date:...> converter

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path(
        "ws/leaderboards/daily/<date:date>/<slug:variant>/",
        consumers.LeaderboardConsumer.as_asgi(),
    ),
]
