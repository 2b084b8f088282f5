"""The accounts API, mounted at /api/auth/ by config/urls.py."""

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("csrf/", views.CsrfView.as_view(), name="csrf"),
    path("register/", views.RegisterView.as_view(), name="register"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("logout/others/", views.LogoutOthersView.as_view(), name="logout-others"),
    path("me/", views.MeView.as_view(), name="me"),
    path("settings/", views.SettingsView.as_view(), name="settings"),
    path("password/", views.PasswordChangeView.as_view(), name="password"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password-reset"),
    path(
        "password/reset/confirm/",
        views.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path("email/confirm/", views.EmailConfirmView.as_view(), name="email-confirm"),
    path("token/", views.TokenView.as_view(), name="token"),
]
