#!/usr/bin/env bash
# Sets up everything evalframe needs on a fresh Debian machine with Node 20+:
# Debian's Jupyter (to execute notebooks), fonts and Chromium, the npm packages,
# the compiled package in dist/, and the tslab kernel registered inside the
# project (.jupyter/).
# Safe to run again: each step is skipped when it is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: Jupyter (to execute notebooks), DejaVu fonts (text in PNG charts),
# Chromium (the tests open charts and the HTML report in a real browser).
if ! command -v jupyter >/dev/null || ! /usr/bin/python3 -c "import nbclient, ipykernel" 2>/dev/null \
  || ! command -v chromium >/dev/null || [ ! -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  echo "setup: installing Jupyter, fonts and Chromium from Debian's packages"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel fonts-dejavu-core chromium >/dev/null
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # npm ci runs the package's prepare script, which builds dist/.
  echo "setup: installing npm packages and building dist/ (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
else
  echo "setup: building dist/"
  npm run --silent build
fi

echo "setup: registering the tslab kernel in .jupyter/"
node_modules/.bin/tslab install --python=/usr/bin/python3 \
  --binary="$PWD/node_modules/.bin/tslab" --prefix="$PWD/.jupyter" >/dev/null

echo "setup: done. Open the notebooks with JUPYTER_PATH=$PWD/.jupyter/share/jupyter set, or run 'npx tslab install --binary $PWD/node_modules/.bin/tslab' for your own Jupyter."
