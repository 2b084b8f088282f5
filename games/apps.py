import logging

from django.apps import AppConfig
from django.core import checks


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games import signals  # noqa: F401  (connects the receivers)
        from games.races import rules as race_rules

        race_rules.install()

        checks.register(solver_core_check)
        from games.solver import core

        if not core.AVAILABLE:
            # Said at every start (a server, a worker, manage.py), not only by `manage.py check`.
            logging.getLogger("patience.solver").error(core.MISSING)


def solver_core_check(app_configs: object = None, **kwargs: object) -> list[checks.CheckMessage]:
    """The solver's compiled core must be built: without it the solver is 30 times slower
    (games.solver.core)."""
    from games.solver import core

    if core.AVAILABLE:
        return []
    return [
        checks.Error(
            core.MISSING,
            hint=f"{core.FIX}; the import failed with: {core.IMPORT_ERROR}",
            id="games.E001",
        )
    ]
