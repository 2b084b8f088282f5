# Sourced by bin/run, bin/test, bin/lock, bin/audit and .ci/run from the repo root: make .venv
# hold exactly the locked packages (requirements/dev.lock, hashes checked) and the project.
# Reinstalls only when pyproject.toml or the lock changed since the last successful install.

if [[ ! -x .venv/bin/python ]]; then
  echo "Creating .venv ..." >&2
  python3 -m venv .venv
fi

_stamp=.venv/.install.sha256
_want=$(cat pyproject.toml requirements/dev.lock | sha256sum | cut -d' ' -f1)
if [[ ! -f "$_stamp" || "$(cat "$_stamp")" != "$_want" ]]; then
  echo "Installing the locked packages and the project into .venv ..." >&2
  .venv/bin/python -m pip install --quiet --require-hashes -r requirements/dev.lock
  # The project itself, its dependencies being the lock's (setuptools included).
  .venv/bin/python -m pip install --quiet --no-deps --no-build-isolation -e .
  # Written only after a successful install, so a failed one is retried next time.
  echo "$_want" >"$_stamp"
fi
unset _stamp _want

# The solver's compiled core (games/solver/_core.c, setup.py): `pip install -e .` above builds
# it in place; built again here whenever its source changed since, or when it is missing. Built
# aside and renamed into place, so that a process running the old one keeps its file intact.
_core_stamp=.venv/.solver-core.sha256
_core_want=$(cat setup.py games/solver/_core.c | sha256sum | cut -d' ' -f1)
if [[ ! -f "$_core_stamp" || "$(cat "$_core_stamp")" != "$_core_want" ]] \
  || ! compgen -G 'games/solver/_core.*.so' >/dev/null; then
  echo "Building the solver's core ..." >&2
  rm -rf build/solver-core
  .venv/bin/python setup.py --quiet build_ext --build-lib build/solver-core >/dev/null
  mv -f build/solver-core/games/solver/_core.*.so games/solver/
  echo "$_core_want" >"$_core_stamp"
fi
unset _core_stamp _core_want
