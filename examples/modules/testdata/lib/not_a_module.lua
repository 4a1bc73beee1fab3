-- Returns no query/init pair.
return 42
