-- The simulated PPC440 core's performance monitor as the hwcounters module sees it, in the
-- manner of the per-counter event tables of AIX's PMAPI and Linux perfctr: a few counter
-- registers, each able to count only the events of its own set. Events carry PAPI preset
-- names; each maps to the interpreter counter (probe.counter) that measures it.
return {
  events = {
    PAPI_TOT_INS = "instructions",
    PAPI_TOT_CYC = "cycles",
    PAPI_LD_INS = "loads",
    PAPI_SR_INS = "stores",
    PAPI_BR_TKN = "branches",
    PAPI_BR_NTK = "branches_not_taken",
    PAPI_FP_OPS = "fpops",
  },
  registers = {
    {name = "pmc0", events = {"PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_FP_OPS"}},
    {name = "pmc1", events = {"PAPI_TOT_INS", "PAPI_LD_INS", "PAPI_BR_TKN"}},
    {name = "pmc2", events = {"PAPI_LD_INS", "PAPI_SR_INS", "PAPI_BR_NTK"}},
    {name = "pmc3", events = {"PAPI_SR_INS", "PAPI_BR_TKN", "PAPI_BR_NTK", "PAPI_FP_OPS"}},
  },
}
