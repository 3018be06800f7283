-- How the detailed ionic models are paced as single cells, as their papers
-- do it (loaded with require "paced_models"), keyed by model name:
--   tag        short name of the reference files (tests/data/<tag>_*)
--   dt         time step (ms) of the stored steady states and of the
--              validation tests: the step the model's papers use in tissue
--   stimulus   the paper's stimulus as a dV/dt contribution (mV/ms, i.e.
--              minus the current in uA/uF) for `duration` ms at each beat
--   initial    the initial state as the authors give it (the Myokit
--              encodings' initial values, docs/models.md), by state name:
--              where scripts/rest_states.lua starts pacing and where the
--              validation tests start their first-beat comparison
--   header     the generated header of resting states, and its state count
return {
  ohara_rudy = {
    tag = "ord", title = "O'Hara-Rudy", dt = 0.05,
    stimulus = {amplitude = 80, duration = 0.5},
    header = "core/models/ohara_rudy_rest.h", nstate = "ORD_NSTATE",
    initial = {V = -87, nai = 7, nass = 7, ki = 145, kss = 145, cai = 1e-4, cass = 1e-4,
      cansr = 1.2, cajsr = 1.2, m = 0, hf = 1, hs = 1, j = 1, hsp = 1, jp = 1, mL = 0, hL = 1, hLp = 1,
      a = 0, iF = 1, iS = 1, ap = 0, iFp = 1, iSp = 1, d = 0, ff = 1, fs = 1, fcaf = 1, fcas = 1,
      jca = 1, nca = 0, ffp = 1, fcafp = 1, xrf = 0, xrs = 0, xs1 = 0, xs2 = 0, xk1 = 1,
      Jrelnp = 0, Jrelp = 0, CaMKt = 0},
  },
  tentusscher_2006 = {
    tag = "tp06", title = "ten Tusscher-Panfilov 2006", dt = 0.02,
    stimulus = {amplitude = 52, duration = 1},
    header = "core/models/tentusscher_2006_rest.h", nstate = "TP_NSTATE",
    initial = {V = -85.23, cai = 0.000126, casr = 3.64, cass = 0.00036, nai = 8.604, ki = 136.89,
      m = 0.00172, h = 0.7444, j = 0.7045, xr1 = 0.00621, xr2 = 0.4712, xs = 0.0095, r = 2.42e-8,
      s = 0.999998, d = 3.373e-5, f = 0.7888, f2 = 0.9755, fcass = 0.9953, RR = 0.9073},
  },
}
