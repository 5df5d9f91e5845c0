#!/usr/bin/env bash
# Re-executes every notebook in notebooks/ without a key (OPENAI_API_KEY and
# OPENAI_BASE_URL unset: the bundled data is scored by its hand labels, and
# 05-calibrate checks the offline judge against them) and keeps the outputs in
# place, for committing (GitHub shows the committed outputs).
# Run after scripts/setup.sh; CI executes the notebooks into a temp folder instead.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build
export PATH="$PWD/node_modules/.bin:$PATH" JUPYTER_PATH="$PWD/.jupyter/share/jupyter"
unset OPENAI_API_KEY OPENAI_BASE_URL
out=$(mktemp -d)
for nb in notebooks/*.ipynb; do
  /usr/bin/python3 scripts/run_notebook.py "$nb" "$out"
  cp "$out/$(basename "$nb")" "$nb"
done
rm -rf "$out"
