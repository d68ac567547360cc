from django.urls import path

from casino.api.commands import api_paths
from tables import commands
from tables.api import views as v

# The reads (and the lists and the table that write through a declared command); the
# commands' routes come from their declarations (tables.commands).
urlpatterns = [
    path("rules-submissions/", v.RulesList.as_view(), name="rules-list"),
    path("rules-submissions/<uuid:pk>/", v.RulesDetail.as_view(), name="rules-detail"),
    path("tables/", v.TableList.as_view(), name="table-list"),
    path("tables/<uuid:pk>/", v.TableDetail.as_view(), name="table-detail"),
    path("tables/<uuid:pk>/signage", v.TableSignage.as_view(), name="table-signage"),
    path("tables/<uuid:pk>/signage/", v.TableSignageSlash.as_view()),
    path("tables/<uuid:pk>/events/", v.TableHistory.as_view(), name="table-events"),
    path("tables/<uuid:pk>/results/", v.TableResults.as_view(), name="table-results"),
    path("decks/", v.DeckList.as_view(), name="deck-list"),
    path("decks/inventory/", v.CardInventory.as_view(), name="deck-inventory"),
    path("decks/<uuid:pk>/", v.DeckDetail.as_view(), name="deck-detail"),
    path("decks/<uuid:pk>/events/", v.DeckHistory.as_view(), name="deck-events"),
    path("rounds/<uuid:pk>/", v.RoundDetail.as_view(), name="round-detail"),
    path("rounds/<uuid:pk>/play/", v.RoundPlay.as_view(), name="round-play"),
    path("rounds/<uuid:pk>/reconstruction", v.RoundReconstruction.as_view(),
         name="round-reconstruction"),
    *api_paths(commands),
]
