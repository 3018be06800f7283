-- The O'Hara-Rudy 2011 model's initial state as its authors give it (the
-- Myokit encoding's initial values, docs/models.md), keyed by our state
-- names: where scripts/ord_rest.lua starts pacing and where
-- tests/ord_validation.lua starts its first-beat comparison.
return {V = -87, nai = 7, nass = 7, ki = 145, kss = 145, cai = 1e-4, cass = 1e-4,
  cansr = 1.2, cajsr = 1.2, m = 0, hf = 1, hs = 1, j = 1, hsp = 1, jp = 1, mL = 0, hL = 1, hLp = 1,
  a = 0, iF = 1, iS = 1, ap = 0, iFp = 1, iSp = 1, d = 0, ff = 1, fs = 1, fcaf = 1, fcas = 1,
  jca = 1, nca = 0, ffp = 1, fcafp = 1, xrf = 0, xrs = 0, xs1 = 0, xs2 = 0, xk1 = 1,
  Jrelnp = 0, Jrelp = 0, CaMKt = 0}
