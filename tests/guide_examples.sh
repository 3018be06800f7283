#!/bin/sh
# The README's and the user guide's examples as a new user meets them: in an
# empty folder, after `make run` (protocols/quickstart.lua, whose output the
# guide's mesh example reads), every ```lua block in order (guide_examples.lua).
# usage: guide_examples.sh CARDIAC_BINARY
set -e
exe=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$exe" "$here/../protocols/quickstart.lua" > quickstart.log
"$exe" "$here/guide_examples.lua"
