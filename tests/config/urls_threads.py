"""Views for tests/config/test_asgi.py: which thread serves a request, and two that meet."""

import threading

from django.http import HttpRequest, JsonResponse
from django.urls import path

met = threading.Event()
waiting = threading.Event()  # set once a request is in wait_for_the_other


def thread(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"thread": threading.get_ident()})


def wait_for_the_other(request: HttpRequest) -> JsonResponse:
    waiting.set()
    return JsonResponse({"met": met.wait(timeout=5)})


def meet(request: HttpRequest) -> JsonResponse:
    met.set()
    return JsonResponse({"met": True})


urlpatterns = [
    path("thread/", thread),
    path("wait/", wait_for_the_other),
    path("meet/", meet),
]
