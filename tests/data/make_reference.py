#!/usr/bin/env python3
"""Reference action potentials of the detailed ionic models from an
independent tool, for tests/ord_validation.lua and tests/tp06_validation.lua.

Tool: Myokit (https://myokit.org, `pip install myokit`, with the CVODE solver
from libsundials-dev), running the Myokit encodings by M. Clerx in
github.com/myokit/models at commit 074d8817f3d4be84b7029b226851d0b44c24664c:
  ord   c/ohara-2011.mmt       (version 20230208, the 2011 formulation)
  tp06  c/tentusscher-2006.mmt (version 20230202, from the CellML encoding)
Those files are not copied here: pass the path. For tp06 the physical
constants are set to the paper's (R = 8314.472 mJ/mol/K, F = 96485.3415
C/mol; the encoding rounds them).

For each cell type (endo, epi, M) and cycle length (1000 and 2000 ms) the
model is paced 1000 beats from its initial values with the paper's stimulus
(ord: -80 uA/uF for 0.5 ms; tp06: -52 pA/pF for 1 ms; at the start of each
beat), then one more beat is logged. Written: <model>_reference.csv (one row
per case: resting potential, peak, max dV/dt, APD90, diastolic and peak Cai)
and <model>_trace_<cell>_<cl>.csv (t, V, Cai every 0.5 ms of that beat).
Metric definitions match scripts/measure.lua: rest = V at the stimulus;
APD90 from the time of max dV/dt to the repolarisation crossing of
peak - 0.9 (peak - rest).

Usage: python3 make_reference.py MODEL path/to/file.mmt [outdir [cell ...]]
       python3 make_reference.py MODEL --first path/to/file.mmt [outdir]
(--first: the first beat from the initial values, <model>_reference_first.csv)
(with cells named, it writes <model>_reference_<cells>.csv: run the three cell
types in parallel and concatenate). Tolerances: 1e-7 while pre-pacing, 1e-9
(max step 0.05 ms) for the logged beat.
Run 2026-11-22 with myokit 1.39.2, sundials 6.4 (Debian 12): ord about 5 min,
tp06 about 2 min per cell type.
"""
import sys
import myokit
import numpy as np

CLS = (1000, 2000)
BEATS = 1000
MODELS = {
    "ord": {"type": "cell.mode", "cells": {"endo": 0, "epi": 1, "M": 2}, "cai": "calcium.Ca_i",
            "duration": 0.5, "constants": {}},
    "tp06": {"type": "cell.type", "cells": {"endo": 0, "epi": 1, "M": 2}, "cai": "calcium.Cai",
             "duration": 1.0, "constants": {"phys.R": 8.314472, "phys.F": 96.4853415}},
}


def metrics(t, v, dvdt, cai):
    rest, peak = v[0], v.max()
    iup = int(np.argmax(dvdt))
    thr = peak - 0.9 * (peak - rest)
    ipk = int(np.argmax(v))
    k = ipk + int(np.argmax(v[ipk:] <= thr))
    t90 = t[k - 1] + (thr - v[k - 1]) * (t[k] - t[k - 1]) / (v[k] - v[k - 1])
    return rest, peak, dvdt.max(), t90 - t[iup], cai.min() * 1e3, cai.max() * 1e3


HEADER = "cell,cl_ms,rest_mV,peak_mV,dvdt_max_mV_per_ms,apd90_ms,cai_diast_uM,cai_peak_uM"


def logged_beat(model, spec, mode, cl, beats):
    """One beat of cell type `mode` at cycle length cl after `beats` beats of
    pre-pacing (tolerance 1e-7), logged at tolerance 1e-9 every 0.005 ms:
    arrays t (from the beat's start), V, dV/dt and Cai."""
    m = model.clone()
    m.get(spec["type"]).set_rhs(mode)
    for name, value in spec["constants"].items():
        m.get(name).set_rhs(value)
    s = myokit.Simulation(m, myokit.pacing.blocktrain(period=cl, duration=spec["duration"], offset=0, level=1))
    if beats:
        s.set_tolerance(1e-7, 1e-7)
        s.pre(beats * cl)
    s.set_tolerance(1e-9, 1e-9)
    s.set_max_step_size(0.05)
    names = ["engine.time", "membrane.V", "dot(membrane.V)", spec["cai"]]
    d = s.run(cl, log=names, log_interval=0.005)
    t = np.array(d["engine.time"])
    t -= t[0]   # pre() leaves the time where it was
    return t, np.array(d["membrane.V"]), np.array(d["dot(membrane.V)"]), np.array(d[spec["cai"]])


def write_rows(path, rows):
    with open(path, "w") as f:
        f.write("\n".join([HEADER] + rows) + "\n")


def first_beats(name, model, out):
    """The first beat from the encoding's initial values at 1 Hz, per cell
    type: <model>_reference_first.csv (same columns)."""
    spec, rows = MODELS[name], []
    for cell, mode in spec["cells"].items():
        rows.append("%s,1000,%.4f,%.4f,%.3f,%.3f,%.5f,%.5f" %
                    ((cell,) + metrics(*logged_beat(model, spec, mode, 1000, 0))))
        print(rows[-1], flush=True)
    write_rows("%s/%s_reference_first.csv" % (out, name), rows)


def main():
    name, path = sys.argv[1], sys.argv[2]
    if path == "--first":
        first_beats(name, myokit.load_model(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else ".")
        return
    spec = MODELS[name]
    out = sys.argv[3] if len(sys.argv) > 3 else "."
    model = myokit.load_model(path)
    rows = []
    only = sys.argv[4:]   # optional: cell names to run (default all)
    for cell, mode in spec["cells"].items():
        if only and cell not in only:
            continue
        for cl in CLS:
            t, v, dv, ca = logged_beat(model, spec, mode, cl, BEATS)
            rows.append("%s,%d,%.4f,%.4f,%.3f,%.3f,%.5f,%.5f" % ((cell, cl) + metrics(t, v, dv, ca)))
            print(rows[-1], flush=True)
            with open("%s/%s_trace_%s_%d.csv" % (out, name, cell, cl), "w") as f:
                f.write("t_ms,V_mV,cai_uM\n")
                for i in range(0, len(t), 100):
                    f.write("%.3f,%.4f,%.6f\n" % (t[i], v[i], ca[i] * 1e3))
    write_rows("%s/%s_reference%s.csv" % (out, name, "_" + "_".join(only) if only else ""), rows)


if __name__ == "__main__":
    main()
