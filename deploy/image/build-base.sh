#!/usr/bin/env bash
# Builds the local base image grove-base:bookworm without pulling anything from a registry: a
# minimal Debian bookworm root filesystem made with debootstrap from Debian's packages, with a
# Java 17 runtime, bash, util-linux (setsid) and procps, imported into Docker.
#
#   deploy/image/build-base.sh [--force]
#
# Needs root, debootstrap and a running Docker engine. Takes about a minute with a nearby mirror.
set -euo pipefail
image="${GROVE_BASE_IMAGE:-grove-base:bookworm}"
mirror="${GROVE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
if [ "${1:-}" != "--force" ] && docker image inspect "$image" >/dev/null 2>&1; then
  echo "$image is there (use --force to build it again)"
  exit 0
fi
command -v debootstrap >/dev/null || { echo "build-base.sh: debootstrap is missing (apt-get install debootstrap)" >&2; exit 2; }
rootfs="$(mktemp -d /tmp/grove-rootfs.XXXXXX)"
trap 'rm -rf "$rootfs"' EXIT
echo "debootstrap bookworm into $rootfs ..."
debootstrap --variant=minbase --include=openjdk-17-jre-headless,procps,ca-certificates \
  bookworm "$rootfs" "$mirror" > "$rootfs.log" 2>&1 || { tail -20 "$rootfs.log" >&2; exit 1; }
rm -f "$rootfs.log"
# Keep the image small: no package caches, docs or man pages.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
# mktemp made the root 0700; an image's root must be open to the users its processes run as
chmod 0755 "$rootfs"
tar -C "$rootfs" -c . | docker import \
  --change 'ENV LANG=C.UTF-8 JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64' \
  --change 'CMD ["/bin/bash"]' - "$image"
echo "built $image"
