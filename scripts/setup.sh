#!/usr/bin/env bash
# Installs the Debian packages Passwright builds, runs and tests with, from the lists in packages/
# (the same lists docker/Dockerfile installs from, so the two cannot drift). Safe to run again: it only
# installs what is missing. Needs root (or sudo) on Debian 12 with Swift 6 on the PATH.
#
#   scripts/setup.sh                  # build + runtime + test (what scripts/test.sh needs)
#   scripts/setup.sh build runtime    # only what building and running the server needs
#   scripts/setup.sh container        # what scripts/container-check.sh needs without a Docker engine
set -euo pipefail
cd "$(dirname "$0")/.."

lists=("$@")
[ "${#lists[@]}" -gt 0 ] || lists=(build runtime test)

packages=()
for list in "${lists[@]}"; do
  [ -f "packages/$list.list" ] || { echo "setup: no package list packages/$list.list (lists: $(cd packages && ls *.list | sed 's/\.list$//' | tr '\n' ' '))" >&2; exit 64; }
  mapfile -t -O "${#packages[@]}" packages < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "packages/$list.list")
done

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: Swift 6 is not on the PATH; install the Swift 6.x toolchain for Debian 12 from swift.org first" >&2
  exit 1
fi

# The test tools' Python packages, with the test list only.
[[ " ${lists[*]} " == *" test "* ]] || exit 0
# h2 for the APNs stand-in (a small HTTP/2 server), schemathesis to check the web service against its
# OpenAPI document.
pip_install() {  # pip_install IMPORT_NAME REQUIREMENT
  python3 -c "import $1" >/dev/null 2>&1 && return 0
  echo "setup: installing the Python package $2" >&2
  python3 -m pip install -q "$2" 2>/dev/null || python3 -m pip install -q --break-system-packages "$2" 2>/dev/null
  python3 -c "import $1" || { echo "setup: cannot install the Python package $2" >&2; exit 1; }
}
pip_install h2 "h2>=4,<5"
pip_install schemathesis "schemathesis>=4,<5"
# zxing-cpp decodes the barcodes in preview pictures (independently of zint, which drew them); Pillow loads the PNGs for it.
pip_install zxingcpp "zxing-cpp>=2,<4"
pip_install PIL "pillow>=10"
# standardwebhooks (the reference library) verifies the signatures of webhook deliveries in the tests.
pip_install standardwebhooks "standardwebhooks>=1,<2"
# axe-core, the accessibility engine the browser tests run on every console page, as the
# axe-selenium-python package bundles it (--no-deps: the tests drive Debian's python3-selenium).
if ! python3 -c "import axe_selenium_python" >/dev/null 2>&1; then
  echo "setup: installing the Python package axe-selenium-python (for its axe-core)" >&2
  python3 -m pip install -q --no-deps "axe-selenium-python>=2.1,<3" 2>/dev/null ||
    python3 -m pip install -q --no-deps --break-system-packages "axe-selenium-python>=2.1,<3" 2>/dev/null
  python3 -c "import axe_selenium_python" || { echo "setup: cannot install axe-selenium-python" >&2; exit 1; }
fi
