package probes

import "strings"

// Leaving a function from its entry: probe.skip (return at once) and function replacement
// (DynInst's replaceFunction, Frida's Interceptor.replace). Both set FrameLeave; after the
// snippets, the trampoline restores the registers and returns to the caller (LR still
// holds its address at an entry) or branches to the replacement, which then runs with the
// caller's arguments and returns straight to the caller. CheckAt allows them at entries
// only: there the function has touched nothing yet, and CR0, CTR and r0 are free (the
// ABI's volatile registers the exit sequence uses).

// Skip returns from the function at once with v as its value (r3, r3:r4 or f1 by v's
// type); v nil returns without setting a value (a void function). Later snippets at the
// point still run.
func Skip(v *Exp) *Exp {
	if v == nil {
		return &Exp{Kind: KSkip}
	}
	return &Exp{Kind: KSkip, Kids: []*Exp{v}}
}

// Jump continues in the program function fn instead of the probed one: fn gets the
// arguments and returns to the caller.
func Jump(fn string) *Exp { return &Exp{Kind: KJump, Name: fn} }

// JumpAt is Jump to the function at addr (a loaded C module's), named name in messages.
func JumpAt(name string, addr uint32) *Exp { return &Exp{Kind: KJump, Name: name, Addr: addr} }

func (c *checker) checkLeave(e *Exp) (Type, error) {
	if e.Kind == KJump {
		if e.Name == "" || len(e.Kids) != 0 {
			return Void, typeErr(e, "malformed jump node")
		}
		return Void, nil
	}
	if len(e.Kids) > 1 {
		return Void, typeErr(e, "malformed skip node")
	}
	if len(e.Kids) == 1 {
		if _, err := c.operand(e, e.Kids[0]); err != nil {
			return Void, err
		}
	}
	return Void, nil
}

func (e *Exp) formatLeave(b *strings.Builder) {
	if e.Kind == KJump {
		b.WriteString("jump(" + e.Name + ")")
		return
	}
	formatList(b, e.Kids, "skip(", ")")
}

// leave writes the return value into the save slots the trampoline restores (marking them
// read, so they are saved) and sets FrameLeave.
func (g *gen) leave(e *Exp) {
	g.useR0()
	g.leaves = true
	if e.Kind == KJump {
		addr, ok := e.Addr, e.Addr != 0
		if !ok && g.t.Resolve != nil {
			addr, ok = g.t.Resolve(e.Name)
		}
		if !ok {
			g.fail(e, "function %s not found in the program", e.Name)
		}
		g.a.li32(0, addr)
		g.a.stw(0, FrameLeave, 1)
		return
	}
	if len(e.Kids) == 1 {
		v := g.exp(e.Kids[0])
		switch v.t {
		case Int:
			g.readG |= 1 << 3
			g.a.stw(v.r, gprSlot(3), 1)
		case Int64:
			g.readG |= 3 << 3
			g.a.stw(v.hi, gprSlot(3), 1)
			g.a.stw(v.r, gprSlot(4), 1)
		case Double:
			g.readF |= 1 << 1
			g.a.stfd(v.f, fprSlot(1), 1)
		}
		g.free(v)
	}
	g.a.li32(0, 1)
	g.a.stw(0, FrameLeave, 1)
}
