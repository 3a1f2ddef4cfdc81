#!/usr/bin/env bash
# The project's test command (README, .ci/run): installs what the tests drive for real, then `mvn -B verify`.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(nginx-light python3-websockets nghttp2-client python3-httpbin openssl haproxy keepalived ipvsadm nftables arptables iproute2 arping wrk xvfb x11-utils procps curl util-linux systemd chromium qemu-system-x86 debootstrap kmod cpio tsung python3-venv ejabberd erlang-p1-sqlite3 sqlite3 prometheus influxdb)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "run-tests: installing Debian packages: ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# nginx's Debian package may start a system instance on port 80: harmless, the tests start their own on free ports.
# ejabberd's may start one on 5222 as ejabberd@localhost: harmless too, the XMPP tests start their own node (own name,
# cookie, free ports, no epmd) from a folder of their own (it/.../support/EjabberdServer).
# prometheus's may start one on 9090: PrometheusMetricsIT runs its own on 127.0.0.1:21510 with its own data folder.
# influxdb's may start one on 8086/8088: InfluxBackendListenerIT runs its own influxd on free loopback ports with its own
# configuration and data folders.

exec mvn -B verify "$@"
