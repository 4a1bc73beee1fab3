package runtime

import "github.com/dpclsh/dpclsh/probes"

// Replace redirects every call of the program function fn to the function jump names
// (probes.Jump or probes.JumpAt): a probe at fn's entry, installed and activated on the
// context's ranks, whose snippet leaves fn for the replacement with the caller's
// arguments. The handle's Remove restores fn under the same rules as any probe (the old
// trampoline is freed once no rank is inside it or will return into it).
func (a *App) Replace(fn string, jump *probes.Exp, o InstallOptions) (*Handle, error) {
	if jump == nil || jump.Kind != probes.KJump {
		return nil, errorf("replace %s: the replacement must be a function", fn)
	}
	f, ok := a.Prog.Lookup(fn)
	if !ok {
		return nil, errorf("replace: %w", &probes.NoMatchError{Pattern: fn, Suggestions: probes.Suggest(fn, a.Prog.Names(), 5)})
	}
	to, ok := jump.Addr, jump.Addr != 0
	if !ok {
		to, ok = a.Prog.Resolve(jump.Name)
	}
	if !ok {
		return nil, errorf("replace %s: %w", fn, &probes.NoMatchError{Pattern: jump.Name, Suggestions: probes.Suggest(jump.Name, a.Prog.Names(), 5)})
	}
	if to == f.Addr {
		return nil, errorf("replace %s: a function cannot replace itself", fn)
	}
	points, err := a.Prog.Points(f, probes.PointEntry)
	if err != nil {
		return nil, errorf("replace %s: %w", fn, err)
	}
	h, err := a.Install(points, jump, o)
	if err != nil {
		return h, err
	}
	return h, h.Activate()
}

// Jump is the replacement by the module's function name, for App.Replace.
func (m *Module) Jump(name string) (*probes.Exp, error) {
	s, err := m.lookup(name, true)
	if err != nil {
		return nil, err
	}
	return probes.JumpAt(m.Name+"."+name, s.Addr), nil
}
