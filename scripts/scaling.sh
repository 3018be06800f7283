#!/bin/sh
# The scaling table of issue 4 in one command, on a machine with GPUs:
#   sh scripts/scaling.sh [CARDIAC] [CSV] [CASES] [LAYOUT]
# runs protocols/scaling.lua under mpirun with 1, 2, 4, ... ranks (up to the
# GPUs present), then prints the table with parallel efficiencies
# (scripts/scaling_table.lua).
bin=${1:-build/cardiac}
csv=${2:-results/scaling.csv}
cases=${3:-strong256,strong512,weak512}
layout=${4:-}
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c GPU)
[ "$ngpu" -ge 1 ] || { echo "scaling.sh: no GPU found (nvidia-smi -L)"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -f "$csv"
np=1
while [ "$np" -le "$ngpu" ]; do
  mpirun -np "$np" --bind-to none "$bin" protocols/scaling.lua "$csv" cuda "$cases" "$layout" || exit 1
  np=$((np * 2))
done
"$bin" scripts/scaling_table.lua "$csv"
