package runtime

import (
	"fmt"

	"github.com/dpclsh/dpclsh/ppc"
)

// codeNames names code addresses in fault reports and backtraces (the machine's
// Symbolizer for this application): the tool's trampolines and C modules, then the
// program. It is read on the driving goroutine, as the tool's own state is.
type codeNames struct{ a *App }

func (c codeNames) Locate(addr uint32) (ppc.Location, bool) {
	if !c.a.region.Contains(addr) {
		return c.a.m.Image().Locate(addr)
	}
	if loc, ok := c.a.locateTrampoline(addr); ok {
		return loc, true
	}
	return c.a.locateModule(addr)
}

// locateTrampoline names addr in a point's trampoline: the displaced instruction (run
// with the program's registers, so named and walked as the program's own) or the
// probe whose snippet holds it. Trampoline memory of no current point (a one-shot
// snippet's, or one replaced and not yet freed) is named as such.
func (a *App) locateTrampoline(addr uint32) (ppc.Location, bool) {
	for _, ps := range a.points {
		tr := ps.tramp
		if tr == nil || addr-tr.Base >= tr.Size() {
			continue
		}
		if addr >= tr.Resume {
			loc, _ := a.m.Image().Locate(ps.pt.Addr)
			loc.At = ps.pt.Addr
			loc.Note = fmt.Sprintf("displaced into the trampoline at 0x%08x", tr.Base)
			return loc, true
		}
		who := "the trampoline"
		for i, t := range tr.Toggles {
			if addr >= t.Addr && i < len(ps.handles) {
				who = fmt.Sprintf("probe %d's snippet", ps.handles[i].ID)
			}
		}
		return ppc.Location{Func: fmt.Sprintf("%s at %s", who, ps.pt), Opaque: true}, true
	}
	for base, u := range a.spans {
		if addr-base < u.size {
			return ppc.Location{Func: fmt.Sprintf("a probe trampoline at 0x%08x", base), Opaque: true}, true
		}
	}
	return ppc.Location{}, false
}

// locateModule names addr in a C probe module: "module NAME: function", else the
// module alone with the offset from its base.
func (a *App) locateModule(addr uint32) (ppc.Location, bool) {
	for _, m := range a.modules {
		if addr-m.Base >= m.Size {
			continue
		}
		for _, s := range m.img.Symbols {
			if s.Func && addr-s.Addr < s.Size {
				return ppc.Location{Func: "module " + m.Name + ": " + s.Name, Start: s.Addr}, true
			}
		}
		return ppc.Location{Func: "module " + m.Name, Start: m.Base}, true
	}
	return ppc.Location{}, false
}
