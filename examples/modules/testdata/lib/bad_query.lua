-- query raises: the module is excluded with the error.
return {
  query = function() error("cannot find libpfm") end,
  init = function() return {} end,
}
