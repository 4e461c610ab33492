#!/usr/bin/env bash
# Builds grove-postgres:latest from Debian's postgresql package on the local base image.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/../image/build-base.sh"
docker build -q -t grove-postgres:latest "$here" >/dev/null
echo "built grove-postgres:latest"
