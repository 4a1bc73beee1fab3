// Package bgl is part of dpclsh; see DESIGN.md.
package bgl
