"""Shapes of the accounts API: request bodies (checked here, acted on in services) and answers."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

# Django sets no upper bound; this keeps a client from making the server hash megabytes.
MAX_PASSWORD_LENGTH = 4096


def _password_field() -> serializers.CharField:
    # Spaces are part of a password: never trim them.
    return serializers.CharField(
        max_length=MAX_PASSWORD_LENGTH,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
    )


class UserSerializer(serializers.ModelSerializer):
    # An address is optional: the model's default is "", which the schema must allow.
    email = serializers.EmailField(read_only=True, allow_blank=True)

    class Meta:
        model = get_user_model()
        fields = ["id", "username", "email", "date_joined"]
        read_only_fields = fields


class RegisterSerializer(serializers.Serializer):
    # Django's username rules: 150 characters of letters, digits and @ . + - _
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = _password_field()
    email = serializers.EmailField(max_length=254, allow_blank=True, default="")


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = _password_field()


class PasswordChangeSerializer(serializers.Serializer):
    old_password = _password_field()
    new_password = _password_field()


class EmailChangeSerializer(serializers.Serializer):
    email = serializers.EmailField(
        max_length=254, allow_blank=True, help_text="Where password reset links go; blank: none."
    )


class AccountDeleteSerializer(serializers.Serializer):
    password = _password_field()


class PasswordResetSerializer(serializers.Serializer):
    email = serializers.EmailField(max_length=254)


class PasswordResetConfirmSerializer(serializers.Serializer):
    uid = serializers.CharField(max_length=64, help_text="From the emailed link.")
    token = serializers.CharField(max_length=128, help_text="From the emailed link.")
    new_password = _password_field()


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField(read_only=True)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(read_only=True, help_text="Send as `Authorization: Token <key>`.")


class CsrfTokenSerializer(serializers.Serializer):
    csrf_token = serializers.CharField(
        read_only=True, help_text="Send as the X-CSRFToken header on unsafe session requests."
    )
