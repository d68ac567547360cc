"""tables's console pages (console.registry.page): the list of tables and a table's page
(tables.console_table_page), a banked round's reconstruction and the banked dispute
calculator (tables.console_rounds). Apps above add panels to a table's page through
tables.console_panels."""

from console.registry import NavItem, nav, page
from tables.console_rounds import banked_calculator, round_page
from tables.console_rules import rules_page
from tables.console_table_page import TABLE_PAGE_ROLES, table_list, table_page
from tables.services.banked import DISPUTE_ROLES

page("tables/", table_list, name="tables")
page("tables/<uuid:pk>/", table_page, name="table")
page("rounds/<uuid:pk>/", round_page, name="round")
page("disputes/banked/", banked_calculator, name="banked_calculator")
page("rules/", rules_page, name="rules")

nav(NavItem(group="Tables", label="Tables", url="/console/tables/", roles=TABLE_PAGE_ROLES,
            order=10))
nav(NavItem(group="Tables", label="Dispute calculator (banked)", url="/console/disputes/banked/",
            roles=DISPUTE_ROLES, order=80))
