from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from casino.admin_site import admin_urls
from casino.api.views import HealthLiveView, HealthReadyView, HealthView

urlpatterns = [
    path("", RedirectView.as_view(url="/api/docs/", permanent=False)),
    path("health", HealthView.as_view(), name="health"),
    path("health/", HealthView.as_view()),
    # liveness and readiness, for a load balancer (issue 26 item 5)
    path("health/live", HealthLiveView.as_view(), name="health-live"),
    path("health/ready", HealthReadyView.as_view(), name="health-ready"),
    # the read-only admin: its password change refused, no view-on-site (issue 35)
    path("admin/", admin_urls()),
    # One login page for people: the browsable API's sends to the console's (its ``next``
    # kept), whose second factor every session then gives (console.middleware).
    path("api-auth/login/", RedirectView.as_view(url="/console/login/", query_string=True)),
    path("api-auth/", include("rest_framework.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/v1/", include("casino.api.urls")),
    path("api/v1/", include("tables.api.urls")),
    path("api/v1/", include("poker_room.api.urls")),
    path("api/v1/", include("poker_floor.api.urls")),
    path("api/v1/", include("jackpots.api.urls")),
    path("api/v1/", include("finance.api.urls")),
    path("poker/", include("poker_room.board.urls")),
    path("poker/", include("poker_floor.feed_urls")),
    path("jackpots/", include("jackpots.board.urls")),
    path("finance/", include("finance.urls")),
    path("console/", include("console.urls")),
]

# under /console/ a console page, elsewhere as before (the API's problem+json for a 404)
handler403 = "console.errors.permission_denied"
handler404 = "console.errors.not_found"
# an outage raised in a middleware is a 503 (casino.outage), anything else the 500 problem
handler500 = "casino.outage.server_error"
