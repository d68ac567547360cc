from django.urls import path

from casino.api import views

urlpatterns = [
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("me/", views.MeView.as_view(), name="me"),
    path("events/", views.EventListView.as_view(), name="event-list"),
    path("events/chain/", views.ChainVerificationView.as_view(), name="event-chain"),
    path("streams/<str:stream_id>/events/", views.StreamEventsView.as_view(),
         name="stream-events"),
]
