from django.urls import path

from casino import commands
from casino.api import digest_views, login_views, staff_views, views
from casino.api.commands import api_paths

urlpatterns = [
    path("auth/token/", login_views.TokenView.as_view(), name="auth-token"),
    path("auth/two-factor/enrol/", login_views.TwoFactorEnrolView.as_view(),
         name="auth-two-factor-enrol"),
    path("auth/logout/", login_views.Logout.as_view(), name="auth-logout"),
    path("auth/logout-all/", login_views.LogoutAll.as_view(), name="auth-logout-all"),
    path("me/", views.MeView.as_view(), name="me"),
    path("staff/", staff_views.StaffList.as_view(), name="staff-list"),
    path("staff/<int:pk>/", staff_views.StaffDetail.as_view(), name="staff-detail"),
    path("role-grants/", staff_views.RoleGrantList.as_view(), name="role-grant-list"),
    path("events/", views.EventListView.as_view(), name="event-list"),
    path("events/chain/", views.ChainVerificationView.as_view(), name="event-chain"),
    path("events/digests/", digest_views.DigestListView.as_view(), name="event-digests"),
    path("streams/<str:stream_id>/events/", views.StreamEventsView.as_view(),
         name="stream-events"),
    *api_paths(commands),
]
