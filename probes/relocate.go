package probes

import (
	"github.com/dpclsh/dpclsh/ppc"
)

// relocator emits the displaced instruction's replacement at a known address.
type relocator struct {
	at    uint32 // address of the next word
	words []uint32
	err   error
}

func (r *relocator) emit(w uint32) {
	r.words = append(r.words, w)
	r.at += 4
}

// jump emits "b to", relative to where it lands; an out-of-reach target is an error.
func (r *relocator) jump(to uint32) {
	w, err := ppc.Branch(r.at, to, false)
	if err != nil && r.err == nil {
		r.err = err
	}
	r.emit(w)
}

// setLR leaves LR = v without changing any other register: r0 goes below the stack for
// the four instructions that need it (inside the gap every trampoline frame leaves).
func (r *relocator) setLR(v uint32) {
	var a asm
	a.stw(0, -4, 1)
	a.addis(0, 0, int32(int16(v>>16)))
	a.ori(0, 0, uint16(v))
	a.mtspr(sprLR, 0)
	a.lwz(0, -4, 1)
	for _, w := range a.w {
		r.emit(w)
	}
}

// relocate returns the displaced instruction of p as it runs from address at, followed by
// the branch back to p.Addr + 4 where control can fall through; a b or bc goes to target
// (its own, or another for a redirect). A relocated bl, bcl or bctrl leaves
// LR = p.Addr + 4, exactly as the original would have.
func relocate(p Point, at, target uint32) ([]uint32, error) {
	r := &relocator{at: at}
	br := decodeBranch(p.Word, p.Addr)
	next := p.Addr + 4
	switch br.kind {
	case brNone:
		r.emit(p.Word)
		r.jump(next)
	case brB:
		if br.link {
			r.setLR(next)
		}
		r.jump(target)
	case brBC:
		if br.link {
			r.setLR(next)
		}
		if br.unconditional() {
			r.jump(target)
			break
		}
		// bc taken → the third word; not taken → the second.
		taken, err := br.inst.WithArg(ppc.ArgBD, 8)
		if err != nil {
			return nil, err
		}
		r.emit(taken.WithAA(false).WithLK(false).Word)
		r.jump(next)
		r.jump(target)
	case brLR:
		if br.link {
			return nil, &PointError{Addr: p.Addr, Func: p.Func, Why: "bclrl cannot be relocated"}
		}
		r.emit(p.Word)
		r.jump(next)
	case brCTR:
		if br.link {
			r.setLR(next)
		}
		r.emit(br.inst.WithLK(false).Word)
		r.jump(next)
	}
	if r.err != nil {
		return nil, errorf("relocate 0x%08x from 0x%x: %w", p.Word, p.Addr, r.err)
	}
	return r.words, nil
}
