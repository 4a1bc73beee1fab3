// Package runtime is part of dpclsh; see DESIGN.md.
package runtime
