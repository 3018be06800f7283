#!/bin/sh
# Installs the Debian packages named on the command line that are missing.
# As root it runs apt-get; otherwise it prints the exact command and stops.
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
  echo "cardiac: missing Debian packages:$missing" >&2
  echo "run as root:  $cmd" >&2
  exit 1
fi
echo "cardiac: installing$missing"
sh -c "$cmd"
