// Package netreduce is part of dpclsh; see DESIGN.md.
package netreduce
