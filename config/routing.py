"""Websocket routes (Channels)."""

from django.urls import path, re_path

from games import consumers, converters
from games.races.consumers import AccountConsumer, RaceConsumer

assert converters  # registers the <date:...> converter

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path(
        "ws/leaderboards/daily/<date:date>/<slug:variant>/",
        consumers.LeaderboardConsumer.as_asgi(),
    ),
    path("ws/races/<slug:code>/", RaceConsumer.as_asgi()),
    path("ws/account/", AccountConsumer.as_asgi()),
    # Anything else (a mistyped path, a date that does not exist): closed with 4404, where
    # Channels' router would fail the handshake with a server error.
    re_path(r"", consumers.NoSuchStream.as_asgi()),
]
