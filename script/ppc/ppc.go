package ppc

import (
	"fmt"

	isa "github.com/dpclsh/dpclsh/ppc"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

func init() {
	script.RegisterModule(script.Module{
		Name: "ppc",
		Doc: `ppc — the PowerPC 440 instruction set: decode, print and assemble single words.
Words are Lua integers 0..0xffffffff (negative 32-bit values are taken modulo 2^32).
Text is objdump -d -M440 syntax; branch targets are absolute hex addresses.`,
		Funcs: []script.Function{
			{Name: "decode", Doc: `ppc.decode(word [, pc]) -> {op=, class=, word=, text=, fields=}
Decodes one word: op is the base mnemonic ("addi" for li), class the instruction class,
text objdump's rendering at pc (default 0), fields the operand values by ISA name
(RT, RA, SI, BD...). Raises an error for a word the 440 does not have.`, Fn: ppcDecode},
			{Name: "disasm", Doc: `ppc.disasm(word [, pc]) -> string
objdump's text for word at pc (default 0); ".long 0x..." when the 440 has no such word.`, Fn: ppcDisasm},
			{Name: "encode", Doc: `ppc.encode(text [, pc]) -> word
Assembles one instruction in objdump syntax ("stwu r1,-16(r1)", "bdnz+ 10003900",
".long 0x7c0004ac") placed at pc (default 0).`, Fn: ppcEncode},
		},
	})
}

// checkWord reads argument n as a 32-bit instruction word.
func checkWord(L *lua.LState, n int) uint32 {
	w, ok := script.AddressOf(L.Get(n))
	if !ok {
		L.ArgError(n, fmt.Sprintf("32-bit word expected, got %s", script.Describe(L.Get(n))))
	}
	return w
}

// optPC reads optional argument n as an address (default 0).
func optPC(L *lua.LState, n int) uint32 {
	if L.Get(n) == lua.LNil {
		return 0
	}
	return checkWord(L, n)
}

func ppcDecode(L *lua.LState) int {
	w, pc := checkWord(L, 1), optPC(L, 2)
	inst, err := isa.Decode(w)
	if err != nil {
		L.RaiseError("ppc.decode: 0x%08x: not a PowerPC 440 instruction", w)
		return 0
	}
	t := L.NewTable()
	t.RawSetString("op", lua.LString(inst.Op.Name()))
	t.RawSetString("class", lua.LString(inst.Op.Class().String()))
	t.RawSetString("word", lua.LNumber(w))
	t.RawSetString("text", lua.LString(isa.Disasm(inst, pc)))
	fields := L.NewTable()
	for _, a := range inst.Op.Args() {
		fields.RawSetString(a.String(), lua.LNumber(inst.Arg(a)))
	}
	t.RawSetString("fields", fields)
	L.Push(t)
	return 1
}

func ppcDisasm(L *lua.LState) int {
	L.Push(lua.LString(isa.DisasmWord(checkWord(L, 1), optPC(L, 2))))
	return 1
}

func ppcEncode(L *lua.LState) int {
	text := L.CheckString(1)
	w, err := isa.Assemble(text, optPC(L, 2))
	if err != nil {
		L.RaiseError("ppc.encode: %s", script.ErrorReason(err, "ppc"))
		return 0
	}
	L.Push(lua.LNumber(w))
	return 1
}
