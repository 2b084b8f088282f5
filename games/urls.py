from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("variants/", views.VariantListView.as_view(), name="variants"),
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:game_id>/moves/", views.GameMovesView.as_view(), name="game-moves"),
    path("games/<int:game_id>/undo/", views.GameUndoView.as_view(), name="game-undo"),
    path("games/<int:game_id>/resign/", views.GameResignView.as_view(), name="game-resign"),
    path("games/<int:game_id>/replay/", views.GameReplayView.as_view(), name="game-replay"),
    path("me/stats/", views.StatsView.as_view(), name="stats"),
]
