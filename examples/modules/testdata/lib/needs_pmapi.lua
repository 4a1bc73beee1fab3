-- Requires AIX's PMAPI counters, which the simulated core does not have.
return {
  query = function() return {description = "POWER3 PMAPI events", requires = {counters = {"pm_fpu_fdiv"}}} end,
  init = function() return {} end,
}
