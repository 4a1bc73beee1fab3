-- Not a filter: a filter file must return a table with a filter function.
return 42
