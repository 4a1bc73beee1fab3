package ppc

import (
	"debug/dwarf"
	"sort"
	"sync"
)

// InlinedCopy is one place where the compiler expanded a function's body into another
// (DWARF DW_TAG_inlined_subroutine): a probe on the function's own entry never sees the
// calls that run these copies.
type InlinedCopy struct {
	Func     string // the inlined function
	Entry    uint32 // where the copy begins (DW_AT_entry_pc, else its lowest address)
	Ranges   []Region
	CallFile string // the call the copy replaces
	CallLine int
}

type inlinedIndex struct {
	once   sync.Once
	copies []InlinedCopy
}

// InlinedCopies lists every inlined copy of a function in the executable, sorted by entry
// address (nil without DWARF). The caller must not modify it.
func (img *Image) InlinedCopies() []InlinedCopy {
	x := &img.inlined
	x.once.Do(func() {
		if img.DWARF != nil {
			x.copies = readInlined(img.DWARF)
		}
	})
	return x.copies
}

// InlinedCopiesOf lists the inlined copies of the function named name.
func (img *Image) InlinedCopiesOf(name string) []InlinedCopy {
	var out []InlinedCopy
	for _, c := range img.InlinedCopies() {
		if c.Func == name {
			out = append(out, c)
		}
	}
	return out
}

func readInlined(d *dwarf.Data) []InlinedCopy {
	var out []InlinedCopy
	names := map[dwarf.Offset]string{}
	rd := d.Reader()
	var files []*dwarf.LineFile
	var cu *dwarf.Entry
	for {
		e, err := rd.Next()
		if err != nil || e == nil {
			break
		}
		switch e.Tag {
		case dwarf.TagCompileUnit:
			cu, files = e, nil
			if lr, err := d.LineReader(e); err == nil && lr != nil {
				files = lr.Files()
			}
		case dwarf.TagInlinedSubroutine:
			c := InlinedCopy{Func: originName(d, e, names)}
			if c.Func == "" {
				continue
			}
			if rs, err := d.Ranges(e); err == nil {
				for _, r := range rs {
					if r[1] > r[0] {
						c.Ranges = append(c.Ranges, Region{Start: uint32(r[0]), Size: uint32(r[1] - r[0])})
					}
				}
			}
			if len(c.Ranges) == 0 {
				continue
			}
			sort.Slice(c.Ranges, func(i, j int) bool { return c.Ranges[i].Start < c.Ranges[j].Start })
			c.Entry = c.Ranges[0].Start
			switch v := e.Val(dwarf.AttrEntrypc).(type) {
			case uint64:
				c.Entry = uint32(v)
			case int64: // DWARF 5: an offset from the unit's low_pc
				if low, ok := cu.Val(dwarf.AttrLowpc).(uint64); ok {
					c.Entry = uint32(low + uint64(v))
				}
			}
			if i, ok := e.Val(dwarf.AttrCallFile).(int64); ok && i >= 0 && int(i) < len(files) && files[i] != nil {
				c.CallFile = files[i].Name
			}
			if l, ok := e.Val(dwarf.AttrCallLine).(int64); ok {
				c.CallLine = int(l)
			}
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Entry < out[j].Entry })
	return out
}

// originName follows DW_AT_abstract_origin and DW_AT_specification to the name of the
// function an inlined copy expands.
func originName(d *dwarf.Data, e *dwarf.Entry, names map[dwarf.Offset]string) string {
	for depth := 0; depth < 8; depth++ {
		if n, ok := e.Val(dwarf.AttrName).(string); ok {
			return n
		}
		off, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset)
		if !ok {
			if off, ok = e.Val(dwarf.AttrSpecification).(dwarf.Offset); !ok {
				return ""
			}
		}
		if n, ok := names[off]; ok {
			return n
		}
		r := d.Reader()
		r.Seek(off)
		next, err := r.Next()
		if err != nil || next == nil {
			return ""
		}
		e = next
		if n, ok := e.Val(dwarf.AttrName).(string); ok {
			names[off] = n
			return n
		}
	}
	return ""
}
