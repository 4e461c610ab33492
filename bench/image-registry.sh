#!/usr/bin/env bash
# A container registry on loopback for the image benchmarks (JobStartLatency ... image REF):
# Debian's docker-registry on 127.0.0.1:5055 (storage in /tmp/grove-bench-registry), with
#   127.0.0.1:5055/grove-bench/busybox:1     busybox-static and nothing else (about 1 MiB)
#   127.0.0.1:5055/grove-bench/debian:12     grove-base:bookworm from Docker, when Docker has it (about 100 MiB)
# Needs docker-registry, skopeo, umoci and busybox-static. Stop it with: pkill -f grove-bench-registry
set -euo pipefail
dir=/tmp/grove-bench-registry
mkdir -p "$dir/storage"
cat > "$dir/config.yml" <<CONFIG
version: 0.1
log: {level: warn}
storage: {filesystem: {rootdirectory: $dir/storage}}
http: {addr: 127.0.0.1:5055}
CONFIG
if ! curl -sf http://127.0.0.1:5055/v2/ >/dev/null 2>&1; then
  (exec -a grove-bench-registry docker-registry serve "$dir/config.yml" > "$dir/registry.log" 2>&1 &)
  for _ in $(seq 1 50); do curl -sf http://127.0.0.1:5055/v2/ >/dev/null 2>&1 && break; sleep 0.1; done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/rootfs/bin"
cp /bin/busybox "$work/rootfs/bin/busybox"
for applet in sh true cat echo ls; do ln -s busybox "$work/rootfs/bin/$applet"; done
umoci init --layout "$work/layout"
umoci new --image "$work/layout:1"
umoci insert --image "$work/layout:1" "$work/rootfs" /
umoci config --image "$work/layout:1" --config.env PATH=/bin --config.cmd /bin/sh
skopeo copy --insecure-policy --quiet --dest-tls-verify=false "oci:$work/layout:1" docker://127.0.0.1:5055/grove-bench/busybox:1
echo "pushed 127.0.0.1:5055/grove-bench/busybox:1"
if docker image inspect grove-base:bookworm >/dev/null 2>&1; then
  skopeo copy --insecure-policy --quiet --dest-tls-verify=false docker-daemon:grove-base:bookworm \
    docker://127.0.0.1:5055/grove-bench/debian:12
  echo "pushed 127.0.0.1:5055/grove-bench/debian:12"
fi
