package runtime

import (
	"fmt"
	"path/filepath"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/contexts"
)

// WatchHandle is a watchpoint on the ranks of a context: every access it is about comes
// back as a bgl.EventWatch among the job's events, its Note naming the function and
// file:line of the accessing instruction.
type WatchHandle struct {
	app     *App
	w       bgl.Watch
	ctx     *contexts.Set
	removed bool
}

// Watch watches size bytes (1 to 8) at addr on the context's ranks (nil: every rank) for
// reads, writes or both. Only the pages holding the range take the slow path (see
// bgl.WatchTrapCycles); the rest of memory and unwatched runs are unchanged.
func (a *App) Watch(addr, size uint32, read, write bool, ctx *contexts.Set) (*WatchHandle, error) {
	if ctx == nil {
		ctx = contexts.All(a.Size())
	}
	w := bgl.Watch{Addr: addr, Size: size, Read: read, Write: write}
	err := a.m.Exec(func(d ioDebug) error {
		first, end := d.Ranks()
		for r := first; r < end; r++ {
			if ctx.Contains(r) {
				if err := d.Watch(r, w); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, errorf("watch 0x%x: %w", addr, err)
	}
	h := &WatchHandle{app: a, w: w, ctx: ctx}
	a.watches = append(a.watches, h)
	return h, nil
}

// Addr is the watched address.
func (h *WatchHandle) Addr() uint32 { return h.w.Addr }

// Remove stops the watch on every rank; the pages get their permissions back.
func (h *WatchHandle) Remove() error {
	if h.removed {
		return errorf("remove: the watch of 0x%x is already removed", h.w.Addr)
	}
	h.removed = true
	return h.app.m.Exec(func(d ioDebug) error {
		first, end := d.Ranks()
		for r := first; r < end; r++ {
			if h.ctx.Contains(r) {
				if err := d.Unwatch(r, h.w.Addr); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// whereNote names the function and file:line of pc, as a watch event's Note.
func (a *App) whereNote(pc uint32) string {
	fn, ok := a.Prog.FuncAt(pc)
	if !ok {
		return ""
	}
	if file, line := a.Prog.LineOf(pc); file != "" {
		return fmt.Sprintf("in %s (%s:%d)", fn.Name, filepath.Base(file), line)
	}
	return "in " + fn.Name
}
