from django.urls import path

from casino.api import staff_views, views

urlpatterns = [
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/password/", staff_views.PasswordChange.as_view(), name="me-password"),
    path("staff/", staff_views.StaffList.as_view(), name="staff-list"),
    path("staff/<int:pk>/", staff_views.StaffDetail.as_view(), name="staff-detail"),
    path("staff/<int:pk>/role-grants/", staff_views.RoleGrantRequest.as_view(),
         name="staff-role-grant"),
    path("staff/<int:pk>/roles/revoke/", staff_views.RoleRevoke.as_view(),
         name="staff-role-revoke"),
    path("staff/<int:pk>/deactivate/", staff_views.StaffDeactivate.as_view(),
         name="staff-deactivate"),
    path("staff/<int:pk>/credential-number/", staff_views.CredentialNumberChange.as_view(),
         name="staff-credential-number"),
    path("staff/<int:pk>/password/", staff_views.PasswordReset.as_view(),
         name="staff-password"),
    path("role-grants/", staff_views.RoleGrantList.as_view(), name="role-grant-list"),
    path("role-grants/<uuid:pk>/approve/", staff_views.RoleGrantApprove.as_view(),
         name="role-grant-approve"),
    path("role-grants/<uuid:pk>/reject/", staff_views.RoleGrantReject.as_view(),
         name="role-grant-reject"),
    path("events/", views.EventListView.as_view(), name="event-list"),
    path("events/chain/", views.ChainVerificationView.as_view(), name="event-chain"),
    path("streams/<str:stream_id>/events/", views.StreamEventsView.as_view(),
         name="stream-events"),
]
