-- init raises: the module is refused for the application; the others load.
return {
  query = function() return {description = "fails at init"} end,
  init = function(app, params) error("no room for the trace buffer") end,
}
