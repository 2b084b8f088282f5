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
