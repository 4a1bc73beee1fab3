package script

import (
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Complete returns the completions of the name that ends text (the line up to the
// cursor): the partial word being completed and the full words that extend it, sorted.
// "string.fo" gives ("fo", ["format"]); "app:st" gives the methods of app's object type.
// Only the dotted prefix is looked up, with raw table reads and metatable __index tables;
// nothing is called, so completion has no side effects.
func (s *Session) Complete(text string) (partial string, words []string) {
	if partial, words, ok := s.completeStringArg(text); ok {
		return partial, words
	}
	start := len(text)
	for start > 0 && isNameByte(text[start-1]) {
		start--
	}
	chain := text[start:]
	if chain != "" && chain[0] >= '0' && chain[0] <= '9' {
		return "", nil
	}
	cut := strings.LastIndexAny(chain, ".:")
	if cut < 0 {
		return chain, matching(s.globalNames(), chain)
	}
	partial = chain[cut+1:]
	methodsOnly := chain[cut] == ':'
	v := s.lookupChain(chain[:cut])
	if v == lua.LNil {
		return partial, nil
	}
	return partial, matching(s.fieldNames(v, methodsOnly), partial)
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func matching(names []string, prefix string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if strings.HasPrefix(n, prefix) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func (s *Session) globalNames() []string {
	var names []string
	s.L.G.Global.ForEach(func(k, _ lua.LValue) {
		if ks, ok := k.(lua.LString); ok && isIdentifier(string(ks)) {
			names = append(names, string(ks))
		}
	})
	for kw := range luaKeywords {
		names = append(names, kw)
	}
	return names
}

// lookupChain resolves "a.b.c" from the globals; a ':' inside the chain is not a lookup.
func (s *Session) lookupChain(chain string) lua.LValue {
	if strings.Contains(chain, ":") || chain == "" {
		return lua.LNil
	}
	var cur lua.LValue = s.L.G.Global
	for _, part := range strings.Split(chain, ".") {
		cur = s.rawField(cur, part)
		if cur == lua.LNil {
			return cur
		}
	}
	return cur
}

// rawField reads v[name] through raw gets and __index tables only (never a function).
func (s *Session) rawField(v lua.LValue, name string) lua.LValue {
	for range 8 {
		if t, ok := v.(*lua.LTable); ok {
			if f := t.RawGetString(name); f != lua.LNil {
				return f
			}
		}
		idx, ok := s.indexTable(v)
		if !ok {
			return lua.LNil
		}
		v = idx
	}
	return lua.LNil
}

// indexTable is v's metatable's __index when that is a table.
func (s *Session) indexTable(v lua.LValue) (*lua.LTable, bool) {
	mt, ok := s.L.GetMetatable(v).(*lua.LTable)
	if !ok {
		return nil, false
	}
	idx, ok := mt.RawGetString("__index").(*lua.LTable)
	return idx, ok
}

// fieldNames lists the string keys reachable from v: its own (for a table) and those of
// its __index chain.
func (s *Session) fieldNames(v lua.LValue, methodsOnly bool) []string {
	var names []string
	add := func(t *lua.LTable) {
		t.ForEach(func(k, val lua.LValue) {
			ks, ok := k.(lua.LString)
			if !ok || !isIdentifier(string(ks)) {
				return
			}
			if methodsOnly && val.Type() != lua.LTFunction {
				return
			}
			names = append(names, string(ks))
		})
	}
	// A registered type whose __index is a function still lists its methods.
	if mt, ok := s.L.GetMetatable(v).(*lua.LTable); ok {
		if t, ok := types[lua.LVAsString(mt.RawGetString("__name"))]; ok {
			for _, m := range t.Methods {
				names = append(names, m.Name)
			}
		}
	}
	for range 8 {
		if t, ok := v.(*lua.LTable); ok {
			add(t)
		}
		idx, ok := s.indexTable(v)
		if !ok {
			break
		}
		v = idx
	}
	return names
}
