#!/bin/sh
# Static SASS instruction counts of the step kernels whose mangled names match
# a pattern (GPU machine: needs cuobjdump from the CUDA toolkit), and their
# SASS under $OUT/sass/ for reading. Used to check what a kernel change did to
# the instruction count before timing it (docs/gpu.md).
#   sh scripts/sass_stats.sh [pattern] [binary]
#   default pattern: karma_modelfLi2ELb0 (Karma, fp32, 2nd order, no mask)
pat=${1:-karma_modelfLi2ELb0}
bin=${2:-.device/build/cardiac}
out=${OUT:-results}/sass
mkdir -p "$out"
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
"$cuobjdump" -sass "$bin" | awk -v pat="$pat" -v dir="$out" '
  /Function :/ { name = $3; keep = index(name, pat) > 0; if (keep) { file = dir "/" substr(name, 1, 120) ".sass"; n[name] = 0 } }
  keep && /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\*\// { n[name]++; print > file }
  END { for (k in n) printf "%6d  %s\n", n[k], k }' | sort -k2
