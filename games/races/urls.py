"""The races API's routes (included by ``games.urls`` under ``/api/``)."""

from django.urls import path

from games.races import views

urlpatterns = [
    path("races/", views.RaceListView.as_view(), name="race-list"),
    # Before a room's code: "quick" is never one (codes are 10 characters).
    path("races/quick/", views.QuickRaceView.as_view(), name="race-quick"),
    path("races/<slug:code>/", views.RaceDetailView.as_view(), name="race-detail"),
    path("races/<slug:code>/join/", views.RaceJoinView.as_view(), name="race-join"),
    path("races/<slug:code>/ready/", views.RaceReadyView.as_view(), name="race-ready"),
    path("races/<slug:code>/start/", views.RaceStartView.as_view(), name="race-start"),
    path("races/<slug:code>/leave/", views.RaceLeaveView.as_view(), name="race-leave"),
    path("races/<slug:code>/rematch/", views.RaceRematchView.as_view(), name="race-rematch"),
    path("races/<slug:code>/invite/", views.RaceInviteView.as_view(), name="race-invite"),
    path("me/race-invitations/", views.MyRaceInvitationsView.as_view(), name="race-invitations"),
    path(
        "me/race-invitations/<slug:code>/",
        views.MyRaceInvitationView.as_view(),
        name="race-invitation",
    ),
    path(
        "races/<slug:code>/players/<str:username>/replay/",
        views.RaceReplayView.as_view(),
        name="race-replay",
    ),
]
