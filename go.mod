module github.com/dpclsh/dpclsh

go 1.26.8

require (
	github.com/chzyer/readline v1.5.1
	github.com/google/go-cmp v0.7.0
	github.com/kr/pretty v0.3.1
	github.com/yuin/gopher-lua v1.1.2
	golang.org/x/sys v0.49.0
)

require (
	github.com/kr/text v0.2.0 // indirect
	github.com/rogpeppe/go-internal v1.9.0 // indirect
)
