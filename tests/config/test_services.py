"""The configured backing services work: the database (SQLite or PostgreSQL) and the channel layer
(in-memory or Redis)."""

import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model


@pytest.mark.django_db
def test_database_round_trip() -> None:
    user_model = get_user_model()
    user_model.objects.create_user(username="ada", password="a-long-password")
    assert user_model.objects.filter(username="ada").exists()


def test_channel_layer_round_trip() -> None:
    layer = get_channel_layer()
    assert layer is not None
    channel = f"test-{uuid.uuid4().hex}"
    async_to_sync(layer.send)(channel, {"type": "ping", "n": 1})
    assert async_to_sync(layer.receive)(channel) == {"type": "ping", "n": 1}
