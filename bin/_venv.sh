# Sourced by bin/run, bin/test and .ci/run from the repo root: make .venv hold the project and
# its dev tools. Reinstalls only when pyproject.toml changed since the last successful install.

if [[ ! -x .venv/bin/python ]]; then
  echo "Creating .venv ..." >&2
  python3 -m venv .venv
fi

_stamp=.venv/.pyproject.sha256
_want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [[ ! -f "$_stamp" || "$(cat "$_stamp")" != "$_want" ]]; then
  echo "Installing the project into .venv ..." >&2
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[dev]'
  # Written only after a successful install, so a failed one is retried next time.
  echo "$_want" >"$_stamp"
fi
unset _stamp _want

# The solver's compiled core (games/solver/_core.c, setup.py): `pip install -e .` above builds
# it in place; built again here whenever its source changed since, or when it is missing.
_core_stamp=.venv/.solver-core.sha256
_core_want=$(cat setup.py games/solver/_core.c | sha256sum | cut -d' ' -f1)
if [[ ! -f "$_core_stamp" || "$(cat "$_core_stamp")" != "$_core_want" ]] \
  || ! compgen -G 'games/solver/_core.*.so' >/dev/null; then
  echo "Building the solver's core ..." >&2
  .venv/bin/python setup.py --quiet build_ext --inplace >/dev/null
  echo "$_core_want" >"$_core_stamp"
fi
unset _core_stamp _core_want
