#!/usr/bin/env python3
"""Reference action potentials of the O'Hara-Rudy 2011 model from an
independent tool, for tests/ord_validation.lua.

Tool: Myokit (https://myokit.org, `pip install myokit`, with the CVODE solver
from libsundials-dev), running the Myokit encoding of ORd by M. Clerx:
ohara-2011.mmt, github.com/myokit/models, c/ohara-2011.mmt at commit
074d8817f3d4be84b7029b226851d0b44c24664c (version 20230208, the 2011
formulation). That file is not copied here: pass its path. Set its
`cell.mode` initial line as you like; this script sets it per cell type.

For each cell type (endo, epi, M) and cycle length (1000 and 2000 ms) the
model is paced 1000 beats from its initial values with the paper's stimulus
(-80 uA/uF for 0.5 ms at the start of each beat), then one more beat is
logged. Written: ord_reference.csv (one row per case: resting potential,
peak, max dV/dt, APD90, diastolic and peak Cai) and ord_trace_<cell>_<cl>.csv
(t, V, Cai every 0.5 ms of that beat). Metric definitions match
tests/ord_validation.lua: rest = V at the stimulus; APD90 from the time of
max dV/dt to the repolarisation crossing of peak - 0.9 (peak - rest).

Usage: python3 make_ord_reference.py path/to/ohara-2011.mmt [outdir [cell ...]]
       python3 make_ord_reference.py --first path/to/ohara-2011.mmt [outdir]
(--first: the first beat from the initial values, ord_reference_first.csv)
(with cells named, it writes ord_reference_<cells>.csv: run the three cell
types in parallel and concatenate). Tolerances: 1e-7 while pre-pacing, 1e-9
(max step 0.05 ms) for the logged beat.
Run 2026-11-22 with myokit 1.39.2, sundials 6.4 (Debian 12), about 5 min.
"""
import sys
import myokit
import numpy as np

CELLS = {"endo": 0, "epi": 1, "M": 2}
CLS = (1000, 2000)
BEATS = 1000


def metrics(t, v, dvdt, cai):
    rest, peak = v[0], v.max()
    iup = int(np.argmax(dvdt))
    thr = peak - 0.9 * (peak - rest)
    ipk = int(np.argmax(v))
    k = ipk + int(np.argmax(v[ipk:] <= thr))
    t90 = t[k - 1] + (thr - v[k - 1]) * (t[k] - t[k - 1]) / (v[k] - v[k - 1])
    return rest, peak, dvdt.max(), t90 - t[iup], cai.min() * 1e3, cai.max() * 1e3


HEADER = "cell,cl_ms,rest_mV,peak_mV,dvdt_max_mV_per_ms,apd90_ms,cai_diast_uM,cai_peak_uM"


def logged_beat(model, mode, cl, beats):
    """One beat of cell type `mode` at cycle length cl after `beats` beats of
    pre-pacing (tolerance 1e-7), logged at tolerance 1e-9 every 0.005 ms:
    arrays t (from the beat's start), V, dV/dt and Cai."""
    m = model.clone()
    m.get("cell.mode").set_rhs(mode)
    s = myokit.Simulation(m, myokit.pacing.blocktrain(period=cl, duration=0.5, offset=0, level=1))
    if beats:
        s.set_tolerance(1e-7, 1e-7)
        s.pre(beats * cl)
    s.set_tolerance(1e-9, 1e-9)
    s.set_max_step_size(0.05)
    names = ["engine.time", "membrane.V", "dot(membrane.V)", "calcium.Ca_i"]
    d = s.run(cl, log=names, log_interval=0.005)
    t = np.array(d["engine.time"])
    t -= t[0]   # pre() leaves the time where it was
    return t, np.array(d["membrane.V"]), np.array(d["dot(membrane.V)"]), np.array(d["calcium.Ca_i"])


def write_rows(path, rows):
    with open(path, "w") as f:
        f.write("\n".join([HEADER] + rows) + "\n")


def first_beats(model, out):
    """The first beat from the encoding's initial values at 1 Hz, per cell
    type: ord_reference_first.csv (same columns)."""
    rows = []
    for name, mode in CELLS.items():
        rows.append("%s,1000,%.4f,%.4f,%.3f,%.3f,%.5f,%.5f" % ((name,) + metrics(*logged_beat(model, mode, 1000, 0))))
        print(rows[-1], flush=True)
    write_rows(out + "/ord_reference_first.csv", rows)


def main():
    path = sys.argv[1]
    if path == "--first":
        first_beats(myokit.load_model(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else ".")
        return
    out = sys.argv[2] if len(sys.argv) > 2 else "."
    model = myokit.load_model(path)
    rows = []
    only = sys.argv[3:]   # optional: cell names to run (default all)
    for name, mode in CELLS.items():
        if only and name not in only:
            continue
        for cl in CLS:
            t, v, dv, ca = logged_beat(model, mode, cl, BEATS)
            rows.append("%s,%d,%.4f,%.4f,%.3f,%.3f,%.5f,%.5f" % ((name, cl) + metrics(t, v, dv, ca)))
            print(rows[-1], flush=True)
            with open("%s/ord_trace_%s_%d.csv" % (out, name, cl), "w") as f:
                f.write("t_ms,V_mV,cai_uM\n")
                for i in range(0, len(t), 100):
                    f.write("%.3f,%.4f,%.6f\n" % (t[i], v[i], ca[i] * 1e3))
    write_rows(out + "/ord_reference%s.csv" % ("_" + "_".join(only) if only else ""), rows)


if __name__ == "__main__":
    main()
