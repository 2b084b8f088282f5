"""Websocket URL patterns, mounted by config.asgi (filled in by the live-play work)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
